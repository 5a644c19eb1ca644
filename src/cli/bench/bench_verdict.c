/*
 * bench_verdict.c - the verdict of `ortkit bench --compare`: A and B are
 * measured by the engine of `bundle choose --measure` (bundle/choose_measure.h),
 * each in processes of its own, by the work each run did (CPU time, the
 * intra-op threads not spinning), with disturbed runs repeated, and judged
 * by the same rule (<ortkit/tools/measure.h>), so that bench and choose
 * never disagree on the same pair.  The in-process figures of the table
 * stay what they were: what a caller sees, wall clock and all.
 *
 * It runs before bench loads any runtime: the engine forks, and a process
 * that has loaded ONNX Runtime has threads.
 */
#include "bench.h"
#include "bundle/choose_measure.h"
#include "cli.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

int bench_verdict(bench_config *cfg)
{
    if (cfg->n_sides != 2 || cfg->budget < 0)
        return CLI_OK;
    if (cfg->side[0].n_providers || cfg->side[1].n_providers) {
        snprintf(cfg->verdict_why, sizeof cfg->verdict_why, "not measured: the verdict's processes "
                 "run ONNX Runtime's CPU provider only, and --ep names others");
        return CLI_OK;
    }
    static const char *const labels[2] = {"A", "B"};
    if (ortkit_measure_open_runtimes(&cfg->verdict, labels, 2, cfg->model, (int)cfg->side[0].threads))
        return cli_fail_lib();
    const char *dirs[2] = {cfg->side[0].runtime_path, cfg->side[1].runtime_path};
    long threads[2] = {cfg->side[0].threads, cfg->side[1].threads};
    const char *models[2] = {NULL, cfg->side[1].model};
    measure_who who = {dirs, threads, models};
    measure_plan plan = {cfg->model, &cfg->in, cfg->side[0].threads,
                         cfg->budget > 0 ? cfg->budget : BENCH_VERDICT_BUDGET, cfg->progress};
    return measure_run(cfg->verdict, &who, &plan);
}

/* "B is slower than A by 4.1%" and the rest of the verdict, in words. */
void bench_verdict_text(const bench_config *cfg, char *out, size_t size, const char **word)
{
    const ortkit_measure *m = cfg->verdict;
    *word = "none";
    if (!m || !ortkit_measure_outcome(m)[0]) {
        snprintf(out, size, "%s", cfg->verdict_why[0] ? cfg->verdict_why : "not measured");
        return;
    }
    const ortkit_measure_verdict *a = ortkit_measure_candidate(m, 0), *b = ortkit_measure_candidate(m, 1);
    const ortkit_measure_verdict *x = a->chosen ? a : b, *y = a->chosen ? b : a;
    double res = ortkit_measure_resolution(m);
    char fine[96] = "too few rounds to tell any difference apart";
    if (isfinite(res) && res > 0)
        snprintf(fine, sizeof fine, "differences of %.1f%% or more told apart on this host now",
                 100 * res);
    size_t rounds = ortkit_measure_rounds(m), gens = ortkit_measure_generations(m);
    char tail[256];
    snprintf(tail, sizeof tail, "(%s; %zu rounds, %zu generation%s of processes, %zu disturbed "
             "run%s repeated; by CPU time)", fine, rounds, gens, gens == 1 ? "" : "s",
             a->disturbed + b->disturbed, a->disturbed + b->disturbed == 1 ? "" : "s");
    if (a->state == ORTKIT_MEASURE_DIFFERS || b->state == ORTKIT_MEASURE_DIFFERS ||
        a->state == ORTKIT_MEASURE_FAILED || b->state == ORTKIT_MEASURE_FAILED) {
        *word = "untimed";
        snprintf(out, size, "not timed: %s", a->note[0] ? a->note : b->note);
    } else if (y->state == ORTKIT_MEASURE_SLOWER) {
        *word = "slower";
        snprintf(out, size, "%s is clearly slower than %s, by %.1f%% %s", y->name, x->name,
                 100 * (y->pair_ratio - 1), tail);
    } else {
        /* B against A, over the rounds both ran. */
        double ratio = b->chosen ? (a->pair_ratio > 0 ? 1 / a->pair_ratio : 0) : b->pair_ratio;
        char diff[64] = "no round where both ran undisturbed";
        if (ratio > 0)
            snprintf(diff, sizeof diff, "%+.1f%% for B", 100 * (ratio - 1));
        int alike = y->alike || x->alike;
        *word = alike ? "alike" : "tied";
        snprintf(out, size, "%s (%s) %s", alike ? "A and B alike within 2%"
                                                : "not told apart within the budget", diff, tail);
    }
}
