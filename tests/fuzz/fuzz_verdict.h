/* fuzz_verdict.h - what a seed's name says the parser must decide.
 *
 * A target that includes this defines `int ortkit_fuzz_expect;`.  When the
 * corpus is replayed, replay_main.c sets it from the input's file name:
 * 1 for valid_* (must be accepted), -1 for bad_* (must be refused), 0 for
 * any other name; under libFuzzer it stays 0 and nothing is checked.
 * It also gives path-reading targets a file for each input.
 */
#ifndef ORTKIT_FUZZ_VERDICT_H
#define ORTKIT_FUZZ_VERDICT_H

#include "ortkit.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

extern int ortkit_fuzz_expect;

static inline void fuzz_verdict(int accepted)
{
    if (!ortkit_fuzz_expect || accepted == (ortkit_fuzz_expect > 0))
        return;
    if (accepted)
        fprintf(stderr, "a bad_ input was accepted\n");
    else
        fprintf(stderr, "a valid_ input was refused: %s\n", ortkit_error_last());
    abort();
}

/* For readers that take a path: each input is written to one in-memory file
 * (a memfd), read through /proc/self/fd. */
static inline const char *fuzz_input_path(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        if ((fd = memfd_create("fuzz_input", MFD_CLOEXEC)) < 0)
            abort();
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0 || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
        abort();
    return path;
}

#endif
