/*
 * bench.h - the parts of `ortkit bench`: cmd_bench.c (options, set-up),
 * bench_run.c (the timed loop), bench_report.c (table, JSON) and
 * bench_plot.c (SVG of the latency distribution).
 */
#ifndef ORTKIT_CLI_BENCH_H
#define ORTKIT_CLI_BENCH_H

#include "run/inputs.h"
#include "session_flags.h"
#include "util.h"

#include <stddef.h>

#define BENCH_MAX_EP 32
#define BENCH_MAX_CALLERS 256
/* Every latency is kept (8 bytes a run) for exact percentiles; this bounds
 * the memory that takes, for -n and for -t alike. */
#define BENCH_MAX_RUNS 10000000
/* Seconds the verdict's timed rounds take at most when --budget is not given. */
#define BENCH_VERDICT_BUDGET (2 * ORTKIT_MEASURE_BUDGET_PER_CANDIDATE)

/* One configuration under test: a runtime plus session settings.  Side by
 * side there are two (A and B); otherwise one. */
typedef struct bench_side {
    char label[96];
    const char *runtime_path; /* NULL: the default search */
    const char *model;        /* B's own model (--compare model=); NULL: the config's */
    long threads;             /* 0: ORT's default */
    const char *providers[BENCH_MAX_EP];
    size_t n_providers;

    ortkit_runtime *rt;
    int shared_rt;            /* B on the very library A loaded: rt is A's */
    char measured[1024];      /* what choosing by measurement said when it was loaded; "" */
    ortkit_session *cold;     /* the runtime's first session, kept open to the end */
    ortkit_session *session;  /* the session measured */
    ortkit_value **inputs;    /* this side's own copies: each caches its runtime's value */

    /* Results.  "Cold" is the first session a runtime opens, which also
     * pays the runtime's one-time start-up; the measured session comes
     * after it, so that A and B compare like with like. */
    double load_s;            /* loading the runtime library and the hand-shake */
    double cold_create_s, cold_first_s;
    double create_s;          /* creation of the measured session */
    double first_s;           /* its first run */
    double runtime_rss;       /* bytes the load, the cold session and its run added */
    double *lat;              /* seconds per timed run, in the order they finished */
    size_t n_lat, cap_lat;
    double wall_s;            /* wall time of this side's timed blocks */
    double user_s, sys_s;     /* process CPU time during them */
    double setup_rss;         /* bytes the measured session, first run and warm-up added */
    double rss_growth;        /* bytes resident memory grew during the timed blocks */
    size_t blocks;
    ortkit__stats stats;      /* filled after the run */
} bench_side;

typedef struct bench_config {
    const char *model;
    input_spec in;
    long warmup;
    long runs;             /* runs per side; 0 when duration is used */
    double duration;       /* seconds per side; 0 when runs is used */
    long callers;          /* concurrent callers on one session */
    long block;            /* runs per block; 0: chosen from the warm-up */
    int strict, json, progress;
    const char *plot;
    const session_flags *flags; /* --cache, --arena, --mem-pattern, --spin, --arena-extend */

    size_t n_sides;
    bench_side side[2];
    const char **names;    /* input names, model order */
    size_t n_in, n_out;

    /* Filled by the timed loop. */
    size_t rounds;         /* rounds in which both sides ran a block */
    size_t rounds_b_faster;
    double peak_rss;       /* bytes: the process's high-water mark */
    int interrupted;
    int capped;            /* -t stopped at BENCH_MAX_RUNS */

    /* The verdict side by side (bench_verdict.c): A and B measured as
     * `bundle choose --measure` measures candidates. */
    double budget;         /* seconds for its timed rounds; 0: BENCH_VERDICT_BUDGET; -1: none */
    struct ortkit_measure *verdict;
    char verdict_why[256]; /* why there is none */
} bench_config;

/* One run of session on inputs, outputs freed; *seconds inside the run call.
 * 0 or the library's code. */
int bench_run_once(const bench_config *cfg, ortkit_session *session, ortkit_value *const *inputs,
                   double *seconds);

/* First run, warm-up and the timed blocks; CLI_OK or CLI_FAIL (message printed). */
int bench_measure(bench_config *cfg);

/* Side by side: measure A and B as `bundle choose --measure` would, before
 * anything is loaded here; CLI_OK or CLI_FAIL (message printed). */
int bench_verdict(bench_config *cfg);
/* The verdict in words, and in one word ("slower", "alike", "tied",
 * "untimed", "none"). */
void bench_verdict_text(const bench_config *cfg, char *out, size_t size, const char **word);

/* The table or JSON on stdout. */
int bench_report(const bench_config *cfg);

/* The SVG plot of the latency distribution, written atomically. */
int bench_plot_svg(const bench_config *cfg, const char *path);

#endif
