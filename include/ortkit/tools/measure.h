/*
 * ortkit/tools/measure.h - choosing among the fitting bundles by measuring
 * a model on each: which bundles are candidates, whether their outputs
 * agree, the rule that says when the fastest is clear, and the result
 * remembered for the runtime's search (ortkit_runtime_options.model).
 *
 * The tools tier (libortkit-tools; pkg-config ortkit-tools): what `ortkit
 * bundle choose --measure` is made of.  It may change in any minor release,
 * and <ortkit.h> does not include it: a program includes it by name and
 * follows its changes (docs/CONVENTIONS.md).
 *
 * This module decides; it runs nothing.  Its caller runs each candidate in
 * a process of its own (two ONNX Runtime builds may not share one), feeds
 * it each candidate's first outputs and each round's timed runs, and asks
 * after every round whether the difference is clear:
 *
 *     ortkit_measure_open(&m, host, bundles, n, choice, model, shapes, threads);
 *     ortkit_measure_begin(m);
 *     for each candidate i: ortkit_measure_outputs(m, i, names, outputs, k)
 *                           (or ortkit_measure_failed(m, i, why));
 *     ortkit_measure_compare(m);
 *     while (budget left) {
 *         for each i with ortkit_measure_timing(m, i), in alternating order:
 *             ortkit_measure_add(m, i, figures, runs);   (ortkit_measure_figure)
 *             ortkit_measure_skipped(m, i, disturbed);   (ortkit_measure_disturbed)
 *         if (ortkit_measure_round(m) == 1) break;       (one left)
 *         every so often (the caller's choice: 0.6 s and two rounds):
 *             if (ortkit_measure_generation(m) == 1) break;   (decided)
 *             restart every timed candidate's process;
 *     }
 *     ortkit_measure_finish(m, seconds_taken);
 *     ortkit_measure_remember(m);
 *
 * The rule (docs/BUNDLES.md, "Choosing by measurement"): each round, every
 * candidate still timed runs one block (about 0.05 s of runs); the median
 * of a block's undisturbed runs' figure (ortkit_measure_figure: the work,
 * not the wall clock) is its round's figure, and the ratio of another's
 * figure to the fastest's (the lowest median of all its runs) compares
 * them.  The processes are started afresh in generations: each generation
 * gives one ratio, the median of its rounds', and the mean of the
 * generations' log ratios, a tenth trimmed at each end (from ten on: one
 * generation a noisy neighbour slowed cannot sway it), has 99% bounds from
 * Student's t (Yuen's, over the winsorized spread; three generations at
 * least; the variance never below what their rounds imply).
 * Another is clearly slower when the lower bound is above 1.01 (surely more
 * than 1%: below it, two copies of one build can differ); the two are alike
 * when both bounds lie within 2% of 1.  The resolution says how fine this
 * is: 1% plus the bounds' half-width: on this host now, differences of that
 * much or more are told apart.  A verdict stops the measurement before the
 * budget ends only after six generations, and for a difference only once
 * sized to 1% (or a quarter of itself); the candidate is then no longer
 * timed.  The measurement is clear when one candidate is left and none is
 * alike.  When the budget ends first, or some are alike, those left are
 * tied, and the declared order chooses among them.
 */
#ifndef ORTKIT_INCLUDE_TOOLS_MEASURE_H
#define ORTKIT_INCLUDE_TOOLS_MEASURE_H

#include "ortkit/common.h"
#include "ortkit/host.h"
#include "ortkit/bundle.h"
#include "ortkit/select.h"
#include "ortkit/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ortkit_measure ortkit_measure;

typedef enum ortkit_measure_state {
    ORTKIT_MEASURE_PENDING = 0, /* not judged yet */
    ORTKIT_MEASURE_FASTEST = 1, /* the choice: clearly the fastest, or the only one left */
    ORTKIT_MEASURE_SLOWER = 2,  /* clearly slower than the fastest */
    ORTKIT_MEASURE_TIED = 3,    /* not told apart from the fastest within the budget */
    ORTKIT_MEASURE_DIFFERS = 4, /* its outputs differ from the others': never chosen */
    ORTKIT_MEASURE_FAILED = 5   /* it could not load or run the model: never chosen */
} ortkit_measure_state;

/* "pending", "fastest", "slower", "tied", "differs", "failed". */
ORTKIT_API const char *ortkit_measure_state_name(ortkit_measure_state state);

/* One candidate's result.  Library-allocated, reached by pointer: later
 * versions add fields at the end. */
typedef struct ortkit_measure_verdict {
    const char *name;          /* the bundle's name */
    ortkit_measure_state state;
    int chosen;                /* 1 for the one the measurement chose */
    double p50;                /* seconds: median of all its timed runs; 0 when untimed */
    double p50_low, p50_high;  /* the lowest and highest of its rounds' medians */
    size_t runs, rounds;       /* timed runs, and rounds it ran in */
    const char *note;          /* why ("slower than X in 9 of 9 rounds", the outputs
                                * that differ, the failure); "" */
    /* Against the choice, in the rounds both ran (comparable figures: the
     * machine's load then fell on both): its rounds' median, the choice's,
     * their ratio (1.07: 7% slower), and how many rounds.  The ratio is the
     * verdict's own figure, the trimmed mean over the generations of
     * processes its bounds are around; with fewer than three generations,
     * the median of their ratio per round.  The choice: its own, ratio 1.
     * 0 when it shared none. */
    double pair_p50, pair_chosen_p50, pair_ratio;
    size_t pair_rounds;
    /* Against the choice: the smallest difference those rounds tell apart
     * (0.012: 1.2%; INFINITY when too few); the choice: the measurement's. */
    double pair_resolution;
    size_t disturbed;          /* runs not counted: the process was descheduled */
    int alike;                 /* 1: judged as fast as the fastest, within 2% both ways */
} ortkit_measure_verdict;

/* One timed run as the candidate's process saw it.  Library-independent:
 * the caller fills it from its own clocks. */
typedef struct ortkit_measure_sample {
    double wall_s;               /* wall-clock seconds */
    double cpu_s;                /* the process's CPU seconds, all its threads */
    double involuntary;          /* involuntary context switches, all its threads */
    double steal_s;              /* the host's steal time meanwhile (a VM's lost time), seconds */
    double cycles, instructions; /* user-space hardware counts; -1 when not counted */
} ortkit_measure_sample;

/* The figure a run is judged by: its CPU time, all threads together (with
 * intra-op threads told not to spin-wait, the work done; a descheduled
 * thread's waiting is not in it, as it is in the wall clock).  The wall
 * time is what the caller waits for, but on a busy host it measures the
 * scheduler too: a thread that loses its core stops the run's wall clock
 * from meaning the work. */
ORTKIT_API double ortkit_measure_figure(const ortkit_measure_sample *s);
/* Was the run disturbed (why says how), and how?  0: no.
 * ORTKIT_MEASURE_SWITCHED: it was descheduled more often than once per
 * thread and once per ORTKIT_MEASURE_SWITCH_EVERY seconds of CPU time (a
 * busy scheduler's usual slice: each return to a core refills caches, CPU
 * time that is not the work).  ORTKIT_MEASURE_STOLEN: the host stole time
 * from the virtual machine meanwhile.  ORTKIT_MEASURE_WAITED: at one
 * thread, its wall time was above ORTKIT_MEASURE_WAIT_LIMIT times its CPU
 * time (and 0.2 ms): it had less than a third of a core.  A disturbed run
 * is repeated, not counted. */
#define ORTKIT_MEASURE_SWITCH_EVERY 0.004
#define ORTKIT_MEASURE_WAIT_LIMIT 3.0
#define ORTKIT_MEASURE_SWITCHED 1
#define ORTKIT_MEASURE_STOLEN 2
#define ORTKIT_MEASURE_WAITED 3
ORTKIT_API int ortkit_measure_disturbed(const ortkit_measure_sample *s, int threads, char *why,
                                        size_t size);

/* Say how runs were timed ("CPU time, all threads; counters: none: ...");
 * recorded with the result, and shown in its account. */
ORTKIT_API int ortkit_measure_method(ortkit_measure *m, const char *method);
/* Candidate i's runs in the current round that were disturbed and not counted. */
ORTKIT_API int ortkit_measure_skipped(ortkit_measure *m, size_t i, size_t runs);
/* The timed rounds' budget when none is given, per candidate (seconds):
 * `ortkit bundle choose --measure` and `ortkit bench --compare` alike. */
#define ORTKIT_MEASURE_BUDGET_PER_CANDIDATE 7.5
/* The smallest difference the measurement tells apart (0.012: 1.2%);
 * INFINITY when too few rounds, 0 when nothing is known. */
ORTKIT_API double ortkit_measure_resolution(const ortkit_measure *m);

/*
 * A measurement of runtimes rather than bundles (`ortkit bench --compare`):
 * count candidates named by labels, on model (a file) at threads; nothing
 * remembered (ortkit_measure_remember refuses).  The rest as above.
 */
ORTKIT_API int ortkit_measure_open_runtimes(ortkit_measure **out, const char *const *labels,
                                            size_t count, const char *model, int threads);

/*
 * The measurement of model (a file) at shapes ("SYMBOL=SIZE" and
 * "INPUT=[D0,D1,...]" separated by commas, as ortkit_runtime_options'
 * model_shapes; NULL: none) with threads intra-op threads (0: ONNX
 * Runtime's default), among bundles as choice (ortkit_bundle_select's
 * answer for host) ranks them.  The candidates are the fitting bundles in
 * the declared order but GPU builds that run the host's GPU (at most 16);
 * with fewer than two there is nothing to measure (count 0, why says so).
 * What was remembered for the same host, model, shapes, threads and
 * candidates is recalled (ortkit_measure_recalled).  Fails when the model
 * cannot be read or the shapes do not parse or fit it.
 */
ORTKIT_API int ortkit_measure_open(ortkit_measure **out, const ortkit_host *host,
                                   const ortkit_bundle *const *bundles, size_t count,
                                   const ortkit_bundle_choice *choice, const char *model,
                                   const char *shapes, int threads);
ORTKIT_API void ortkit_measure_free(ortkit_measure *m);

/* The candidates: how many, and each one's index in the bundles given. */
ORTKIT_API size_t ortkit_measure_count(const ortkit_measure *m);
ORTKIT_API size_t ortkit_measure_bundle(const ortkit_measure *m, size_t i);
/* Why there is nothing to measure (count 0); "" otherwise. */
ORTKIT_API const char *ortkit_measure_why(const ortkit_measure *m);
/* The inputs' sizes as the key names them, resolved from the model's
 * declared dimensions: "x[1,3,640,640] sr[]" ("?" where nothing gives a
 * size); the key (64 hex digits) and the file the result is kept in. */
ORTKIT_API const char *ortkit_measure_shapes(const ortkit_measure *m);
ORTKIT_API const char *ortkit_measure_key(const ortkit_measure *m);
ORTKIT_API const char *ortkit_measure_path(const ortkit_measure *m);

/* 1 when the result shown is one remembered earlier (and not yet measured
 * again); 0 otherwise.  A remembered result that was refused (not the
 * user's file, malformed) reads as none, and refused() says why. */
ORTKIT_API int ortkit_measure_recalled(const ortkit_measure *m);
ORTKIT_API const char *ortkit_measure_refused(const ortkit_measure *m);

/* Measuring: forget what was recalled and start. */
ORTKIT_API int ortkit_measure_begin(ortkit_measure *m);
/* Candidate i could not load or run the model: never chosen. */
ORTKIT_API int ortkit_measure_failed(ortkit_measure *m, size_t i, const char *why);
/* Candidate i's outputs of its first run on the shared inputs.  The
 * measurement takes the tensors (freed with it, also when this fails) and
 * sets each slot of outputs to NULL; an output that is not a tensor is NULL
 * and is not compared. */
ORTKIT_API int ortkit_measure_outputs(ortkit_measure *m, size_t i, const char *const *names,
                                      ortkit_tensor **outputs, size_t count);
/* Compare the outputs, as `ortkit validate` does (<ortkit/tools/compare.h>:
 * ORTKIT_COMPARE_RTOL, ORTKIT_COMPARE_ATOL, both ways): the reference is the
 * candidate that agrees with the most others (the first in the declared
 * order among equals); one that does not agree with it differs and is never
 * chosen. */
ORTKIT_API int ortkit_measure_compare(ortkit_measure *m);
/* 1 while candidate i is still timed. */
ORTKIT_API int ortkit_measure_timing(const ortkit_measure *m, size_t i);
/* One block of candidate i's timed runs in the current round: each one's
 * figure (ortkit_measure_figure, seconds). */
ORTKIT_API int ortkit_measure_add(ortkit_measure *m, size_t i, const double *seconds, size_t runs);
/* End a round: 1 when one candidate is left timed, 0 to go on.  Negative
 * on bad arguments. */
ORTKIT_API int ortkit_measure_round(ortkit_measure *m);
/* Close the generation of processes that ran the rounds since the last
 * one, and apply the rule over every closed generation: 1 when decided
 * (one candidate left timed), 0 to go on with every candidate still timed
 * started afresh in a process of its own.  Before the budget ends, a
 * difference decides only once sized to 1%; ortkit_measure_finish judges
 * whatever is left, however coarse.  Negative on bad arguments. */
ORTKIT_API int ortkit_measure_generation(ortkit_measure *m);
/* How many generations of processes there were (1 before any restart). */
ORTKIT_API size_t ortkit_measure_generations(const ortkit_measure *m);
/* The rounds ended so far. */
ORTKIT_API size_t ortkit_measure_rounds(const ortkit_measure *m);
/* Decide (clear, tied, or the only one left) and fill the verdicts;
 * seconds is what the measurement took, set-up included. */
ORTKIT_API int ortkit_measure_finish(ortkit_measure *m, double seconds);
/* Keep the result where the runtime's search finds it (the per-user cache,
 * a directory only the user can write, written atomically). */
ORTKIT_API int ortkit_measure_remember(const ortkit_measure *m);

/* The result, measured or recalled: each candidate's verdict (NULL when i
 * is out of range) ... */
ORTKIT_API const ortkit_measure_verdict *ortkit_measure_candidate(const ortkit_measure *m, size_t i);
/* ... the candidate chosen (ORTKIT_BUNDLE_NONE when none, or nothing known) ... */
ORTKIT_API size_t ortkit_measure_chosen(const ortkit_measure *m);
/* ... "clear", "tied", "single", "none"; "" when nothing is known ... */
ORTKIT_API const char *ortkit_measure_outcome(const ortkit_measure *m);
/* ... the seconds it took, and the account the runtime's search gives:
 * "measured: X ran MODEL in p50 A against B for Y (N rounds, CPU time;
 * differences of R% or more told apart)", "not measured for this model"
 * when nothing is known. */
ORTKIT_API double ortkit_measure_seconds(const ortkit_measure *m);
ORTKIT_API const char *ortkit_measure_account(const ortkit_measure *m);

#ifdef __cplusplus
}
#endif

#endif /* ORTKIT_INCLUDE_TOOLS_MEASURE_H */
