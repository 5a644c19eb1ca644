/* fuzz_verdict.h - what a seed's name says the parser must decide.
 *
 * A target that includes this defines `int ortkit_fuzz_expect;`.  When the
 * corpus is replayed, replay_main.c sets it from the input's file name:
 * 1 for valid_* (must be accepted), -1 for bad_* (must be refused), 0 for
 * any other name; under libFuzzer it stays 0 and nothing is checked.
 */
#ifndef ORTKIT_FUZZ_VERDICT_H
#define ORTKIT_FUZZ_VERDICT_H

#include "ortkit.h"

#include <stdio.h>
#include <stdlib.h>

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

#endif
