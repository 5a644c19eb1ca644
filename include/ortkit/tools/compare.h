/*
 * ortkit/tools/compare.h - tensors compared as ONNX Runtime's test runner
 * compares them.
 *
 * The tools tier (libortkit-tools; pkg-config ortkit-tools): what `ortkit
 * validate` is made of.  It may change in any minor release, and <ortkit.h>
 * does not include it: a program includes it by name and follows its
 * changes (docs/CONVENTIONS.md).
 */
#ifndef ORTKIT_INCLUDE_TOOLS_COMPARE_H
#define ORTKIT_INCLUDE_TOOLS_COMPARE_H

#include "ortkit/common.h"
#include "ortkit/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Tolerances of ONNX Runtime's test runner. */
#define ORTKIT_COMPARE_RTOL 1e-3
#define ORTKIT_COMPARE_ATOL 1e-5

/*
 * The answer of a comparison.  The caller's memory, because comparisons are
 * made in loops, so it is versioned: initialise it with ORTKIT_COMPARE_INIT.
 * Later versions add fields at the end, and the library writes only the
 * fields of the version the caller set.
 */
typedef struct ortkit_compare {
    unsigned version;   /* ORTKIT_COMPARE_VERSION */
    int equal;          /* 1: same type and shape, every element within tolerance */
    size_t mismatches;  /* elements out of tolerance (or not identical) */
    size_t worst;       /* flat index of the largest difference; of the first mismatch for strings */
    double max_diff;    /* |expected - actual| there; INFINITY for NaN against a number */
    double expected;    /* the values there (numeric types; for complex, the worse part) */
    double actual;
    char where[64];     /* the element as an index: "[1,0,2]"; "" for empty tensors */
    char message[256];  /* what differs, for people; "" when equal */
} ortkit_compare;

#define ORTKIT_COMPARE_VERSION 1
#define ORTKIT_COMPARE_INIT {ORTKIT_COMPARE_VERSION, 0, 0, 0, 0.0, 0.0, 0.0, "", ""}

/*
 * Compare as ONNX Runtime's test runner does: floating-point elements match
 * when |expected - actual| <= atol + rtol * |expected|, NaN matches NaN and an
 * infinity only itself; integers, booleans and strings must be equal; type
 * and shape must be the same.  Returns 0 with the answer in *out (out->equal);
 * negative only on bad arguments (an unknown out->version among them).
 */
ORTKIT_API int ortkit_tensor_compare(ortkit_compare *out, const ortkit_tensor *expected,
                                     const ortkit_tensor *actual, double rtol, double atol);
/* Bit for bit (determinism): 0.0 differs from -0.0 and NaNs must have the same
 * bits.  max_diff still measures the numeric difference. */
ORTKIT_API int ortkit_tensor_identical(ortkit_compare *out, const ortkit_tensor *expected,
                                       const ortkit_tensor *actual);

#ifdef __cplusplus
}
#endif

#endif /* ORTKIT_INCLUDE_TOOLS_COMPARE_H */
