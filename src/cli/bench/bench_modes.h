/*
 * bench_modes.h - the modes of `ortkit bench` besides latency: cold session
 * creation with and without the session cache (bench_cold.c), many
 * sessions driven at once (bench_many.c), and memory over a sweep of input
 * shapes (bench_sweep.c).
 */
#ifndef ORTKIT_CLI_BENCH_MODES_H
#define ORTKIT_CLI_BENCH_MODES_H

#include "run/inputs.h"
#include "session_flags.h"

#define BENCH_MAX_MODELS 16
#define BENCH_MAX_SESSIONS 64
#define BENCH_MAX_LIST 8
/* Latencies kept by --sessions with -t (8 bytes each). */
#define BENCH_MAX_RUNS_MANY 2000000

/* What the modes share of the command line. */
typedef struct bench_mode_args {
    const char *models[BENCH_MAX_MODELS];
    size_t n_models;
    const char *runtime;
    long threads;
    const char **providers;
    size_t n_providers;
    int strict, json, progress;
    input_spec *in;
    session_flags flags;

    long cold;                      /* --cold N */

    long sessions[BENCH_MAX_LIST];  /* --sessions N,... */
    size_t n_sessions;
    int global_pools[BENCH_MAX_LIST]; /* --pools session,global: 0 / 1 */
    size_t n_pools;
    int spin[BENCH_MAX_LIST];       /* --spin on,off: ortkit_switch values */
    size_t n_spin;
    long callers;                   /* -c */
    long runs;                      /* -n (total over the callers) */
    double duration;                /* -t */

    /* --dim SYMBOL=LO..HI[:STEP]: the sweep */
    const char *sweep_symbol[INPUTS_MAX];
    long sweep_lo[INPUTS_MAX], sweep_hi[INPUTS_MAX], sweep_step[INPUTS_MAX];
    size_t n_sweep;
    long sweep_runs;                /* runs per shape */
} bench_mode_args;

int bench_cold(const bench_mode_args *a);
/* argv: the command's arguments as given (argv[0] "bench"), for the child
 * processes that run one combination each. */
int bench_many(const bench_mode_args *a, int argc, char *const *argv);
int bench_sweep(const bench_mode_args *a);

/* Open the runtime the arguments ask for (global pools and spinning as given). */
int bench_mode_runtime(const bench_mode_args *a, int global_pools, int spin, ortkit_runtime **rt);
/* Session options from the arguments; cache_dir as flags say. */
ortkit_session_options bench_mode_session_options(const bench_mode_args *a);

#endif
