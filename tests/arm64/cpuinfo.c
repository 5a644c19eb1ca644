/*
 * cpuinfo.c - what an emulated aarch64 program is told about its CPU, to set
 * beside `ortkit host` (tests/arm64/cpus.t): the kernel's AT_HWCAP and
 * AT_HWCAP2 words, and the first processor of /proc/cpuinfo as the program
 * reads it (qemu 8.2 and later make it up from the emulated CPU: its
 * "Features" line, implementer and part).
 *
 *     hwcap 0x119ffb
 *     hwcap2 0x0
 *     Features	: fp asimd ...
 *     CPU implementer	: 0x41
 *     ...
 */
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>

int main(void)
{
    printf("hwcap %#lx\nhwcap2 %#lx\n", getauxval(AT_HWCAP), getauxval(AT_HWCAP2));
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) {
        perror("/proc/cpuinfo");
        return 1;
    }
    char line[4096];
    while (fgets(line, sizeof line, f) && strcmp(line, "\n")) /* the first processor */
        fputs(line, stdout);
    fclose(f);
    return 0;
}
