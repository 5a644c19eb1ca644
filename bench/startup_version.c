/*
 * startup_version.c - the smallest program of ortkit's: it prints
 * ortkit_version() and exits, so its run time is what starting it costs
 * (the dynamic loader mapping and relocating what it links).  Built twice by
 * bench/startup_links.sh: linking libortkit only, as a program that runs
 * models does, and linking libortkit-tools as well, as every program did
 * when the two were one library.
 */
#include <ortkit.h>

#include <stdio.h>

int main(void)
{
    printf("%s\n", ortkit_version());
    return 0;
}
