/*
 * arch.c - the architectures ortkit knows (host.h), by name, and the one it
 * runs on: below the ELF reader, which names a file's machine, and host
 * detection.
 */
#include "core.h"

const char *ortkit_arch_name(ortkit_arch arch)
{
    switch (arch) {
    case ORTKIT_ARCH_X86_64: return "x86_64";
    case ORTKIT_ARCH_AARCH64: return "aarch64";
    default: return "unknown";
    }
}

ortkit_arch ortkit_arch_here(void)
{
#if defined(__x86_64__)
    return ORTKIT_ARCH_X86_64;
#elif defined(__aarch64__)
    return ORTKIT_ARCH_AARCH64;
#else
    return ORTKIT_ARCH_UNKNOWN;
#endif
}
