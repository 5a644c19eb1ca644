/*
 * ortkit/tools/conformance.h - ONNX backend test directories found on disk
 * and run in this process.
 *
 * Isolating each test in a child process, with a timeout, is left to the
 * caller: a library does not fork.  `ortkit validate` does it.
 *
 * The tools tier (libortkit-tools; pkg-config ortkit-tools): what `ortkit
 * validate` is made of.  It may change in any minor release, and <ortkit.h>
 * does not include it: a program includes it by name and follows its
 * changes (docs/CONVENTIONS.md).
 */
#ifndef ORTKIT_INCLUDE_TOOLS_CONFORMANCE_H
#define ORTKIT_INCLUDE_TOOLS_CONFORMANCE_H

#include "ortkit/common.h"
#include "ortkit/runtime.h"
#include "ortkit/session.h"
#include "ortkit/tools/compare.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One ONNX backend test: a directory with model.onnx and test_data_set_N/
 * directories of input_N.pb and output_N.pb files.  The list's, reached by
 * pointer. */
typedef struct ortkit_conformance_test {
    const char *name;  /* the directory's name: "test_abs" */
    const char *suite; /* the directory holding it: "node"; "" for a test given directly */
    const char *dir;   /* its path */
    const char *op;    /* the operator it tests, from the model's nodes: "Abs"; "" when unknown */
    int64_t opset;     /* the model's ai.onnx opset; 0 when the model is unreadable */
} ortkit_conformance_test;

/* The tests found under some directories. */
typedef struct ortkit_conformance ortkit_conformance;

/*
 * Find tests.  A root holding model.onnx is one test; otherwise its
 * subdirectories are searched, two levels deep (data/node/test_abs).  A
 * directory named test_* without model.onnx is kept, so that running it
 * fails and says why.  Tests are sorted by suite, then name.  A root that is
 * missing, unreadable or holds no test fails with ORTKIT_E_IO naming it.
 */
ORTKIT_API int ortkit_conformance_find(ortkit_conformance **out, const char *const *roots,
                                       size_t root_count);
ORTKIT_API size_t ortkit_conformance_count(const ortkit_conformance *tests);
ORTKIT_API const ortkit_conformance_test *ortkit_conformance_get(const ortkit_conformance *tests,
                                                                 size_t i);
ORTKIT_API void ortkit_conformance_free(ortkit_conformance *tests);

/* Options: initialise with ORTKIT_CONFORMANCE_OPTIONS_INIT; they grow as
 * the stable tier's options do. */
typedef struct ortkit_conformance_options {
    unsigned version;     /* ORTKIT_CONFORMANCE_OPTIONS_VERSION */
    double rtol;          /* 0: ORTKIT_COMPARE_RTOL; negative: no relative tolerance */
    double atol;          /* 0: ORTKIT_COMPARE_ATOL; negative: no absolute tolerance */
    int repeat;           /* runs of each data set (0: 1); every run is compared with the
                           * first bit for bit, and must match when the session has one
                           * intra-op thread */
    double soak_seconds;  /* > 0: run the data sets again and again for this long, and
                           * measure resident memory */
    const ortkit_session_options *session; /* NULL: the defaults */
} ortkit_conformance_options;

#define ORTKIT_CONFORMANCE_OPTIONS_VERSION 1
#define ORTKIT_CONFORMANCE_OPTIONS_INIT {ORTKIT_CONFORMANCE_OPTIONS_VERSION, 0, 0, 0, 0, NULL}

typedef enum ortkit_conformance_outcome {
    ORTKIT_CONFORMANCE_PASS = 0,
    /* wrong or unstable outputs, a refused model, a failed run, broken test data */
    ORTKIT_CONFORMANCE_FAIL = 1,
    /* needs what ortkit cannot pass or return: a sequence, a map, an empty optional */
    ORTKIT_CONFORMANCE_UNSUPPORTED = 2
} ortkit_conformance_outcome;

/*
 * The result of one test.  Plain data in the caller's memory, so that a
 * child process can hand it to its parent as bytes; so it is versioned:
 * initialise it with ORTKIT_CONFORMANCE_RESULT_INIT.  Later versions add
 * fields at the end, and the library writes only the fields of the version
 * the caller set.
 */
typedef struct ortkit_conformance_result {
    unsigned version;      /* ORTKIT_CONFORMANCE_RESULT_VERSION */
    ortkit_conformance_outcome outcome;
    /* where it failed: "data", "model", "provider", "run", "compare", "repeat" */
    char stage[16];
    char message[1024];    /* why it failed or is unsupported; "" on a pass */
    char provider[64];     /* the first provider the session got: "CPUExecutionProvider" */
    unsigned data_sets;    /* data sets run */
    unsigned long runs;    /* model runs */
    double seconds;        /* wall time, session creation included */
    double max_diff;       /* largest |expected - actual| over every output compared ... */
    char worst[160];       /* ... and where: "output 'y' [0,3]" */
    int unstable;          /* repeat: an output differed bit for bit between runs */
    double unstable_diff;  /* the largest such difference */
    int64_t rss_start_kb;  /* soak: resident memory after the first pass over the data */
    int64_t rss_end_kb;    /* and at the end; 0 without a soak */
} ortkit_conformance_result;

#define ORTKIT_CONFORMANCE_RESULT_VERSION 1
#define ORTKIT_CONFORMANCE_RESULT_INIT {ORTKIT_CONFORMANCE_RESULT_VERSION, \
    ORTKIT_CONFORMANCE_PASS, "", "", "", 0, 0, 0.0, 0.0, "", 0, 0.0, 0, 0}

/* Run one test directory in this process.  Returns 0 when *out holds a result
 * (a pass, a failure or unsupported); negative only on bad arguments (an
 * unknown out->version among them). */
ORTKIT_API int ortkit_conformance_run(ortkit_conformance_result *out, ortkit_runtime *rt,
                                      const char *dir, const ortkit_conformance_options *opts);

#ifdef __cplusplus
}
#endif

#endif /* ORTKIT_INCLUDE_TOOLS_CONFORMANCE_H */
