/*
 * choose_measure.h - `bundle choose --measure`: each candidate bundle runs
 * the model in a child process of its own (two ONNX Runtime builds may not
 * share a process, and the parent never loads one), on the same inputs and
 * settings; the parent alternates timed blocks between them until
 * <ortkit/tools/measure.h>'s rule says the fastest is clear or the budget
 * is spent.
 */
#ifndef ORTKIT_CLI_CHOOSE_MEASURE_H
#define ORTKIT_CLI_CHOOSE_MEASURE_H

#include "cli.h"
#include "ortkit/tools/measure.h"
#include "run/inputs.h"

typedef struct measure_plan {
    const char *model;
    const input_spec *in;  /* the inputs: files, or generated (seeded) */
    long threads;          /* intra-op threads; 0: ONNX Runtime's default */
    double budget;         /* seconds the timed rounds may take */
    int progress;          /* a progress line on stderr */
} measure_plan;

/* Measure m's candidates (bundles[ortkit_measure_bundle(m, i)]), then
 * finish and remember the result.  CLI_OK, or CLI_FAIL after saying why. */
int choose_measure(ortkit_measure *m, const ortkit_bundle *const *bundles, const measure_plan *plan);

#endif
