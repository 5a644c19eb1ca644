/*
 * arch.c - the names of the architectures ortkit knows (host.h): below the
 * ELF reader, which names a file's machine, and host detection.
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
