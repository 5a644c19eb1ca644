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

#define ORTKIT_MEASURE_MAX_CANDIDATES 16

/* What each candidate i runs on: its runtime (a bundle's directory or a
 * library; NULL: the default search), its intra-op threads, and its model
 * (models NULL, or models[i] NULL: the plan's). */
typedef struct measure_who {
    const char *const *dirs;
    const long *threads;
    const char *const *models;
} measure_who;

/* Measure m's candidates (bundles[ortkit_measure_bundle(m, i)]), then
 * finish and remember the result.  CLI_OK, or CLI_FAIL after saying why. */
int choose_measure(ortkit_measure *m, const ortkit_bundle *const *bundles, const measure_plan *plan);

/* The engine itself, for any candidates (`bench --compare` measures two
 * runtimes with it): each in processes of its own, rounds until the rule
 * decides or the budget is spent, then finished (and remembered when the
 * candidates are bundles). */
int measure_run(ortkit_measure *m, const measure_who *who, const measure_plan *plan);

#endif
