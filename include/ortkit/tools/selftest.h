/*
 * ortkit/tools/selftest.h - a live check of a runtime: a one-node model (Neg
 * on float32[4]) built in memory and run on one execution provider.
 *
 * The tools tier (libortkit-tools; pkg-config ortkit-tools): what `ortkit
 * doctor` is made of.  It may change in any minor release, and <ortkit.h>
 * does not include it: a program includes it by name and follows its
 * changes (docs/CONVENTIONS.md).
 */
#ifndef ORTKIT_INCLUDE_TOOLS_SELFTEST_H
#define ORTKIT_INCLUDE_TOOLS_SELFTEST_H

#include "ortkit/common.h"
#include "ortkit/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The answer.  Library-allocated (freed with ortkit_selftest_free), so
 * later versions add fields at the end; a program only reads it. */
typedef struct ortkit_selftest {
    int ok;               /* 1: the provider ran it and the result was right */
    const char *provider; /* the provider that ran it */
    double seconds;       /* session creation and one run */
    const char *detail;   /* what went wrong; "" when ok */
} ortkit_selftest;

/* Run it on provider (NULL: the CPU).  Returns 0 when *out holds an answer,
 * ok or not; negative on bad arguments or when memory runs out. */
ORTKIT_API int ortkit_selftest_run(ortkit_selftest **out, ortkit_runtime *rt, const char *provider);
ORTKIT_API void ortkit_selftest_free(ortkit_selftest *test);

#ifdef __cplusplus
}
#endif

#endif /* ORTKIT_INCLUDE_TOOLS_SELFTEST_H */
