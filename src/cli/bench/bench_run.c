/*
 * bench_run.c - the timed part of `ortkit bench`.
 *
 * After each session's first run and its warm-up, the sides run in blocks of
 * runs, alternating A B, B A, A B ... so that drift in clock speed, cache or
 * machine load hits both alike.  Within a block, `callers` threads share one
 * session and claim runs from a common counter until the block is done.
 * Only ortkit_session_run_values is inside the timed interval; freeing its outputs
 * is not, as in onnxruntime_perf_test.
 */
#include "bench.h"
#include "cli.h"
#include "interrupt.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* Ctrl-C (or SIGTERM) ends the timed loop after the runs in progress, and
 * the figures so far are still reported: the caller holds interrupts
 * (interrupt.h), and the loops look at cli_interrupted(). */

static void cpu_seconds(double *user, double *sys)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    *user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6;
    *sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

/* One run, its outputs freed afterwards; *seconds is the time inside the run call. */
static int run_once(const bench_config *cfg, ortkit_session *session, ortkit_value *const *inputs,
                    ortkit_value **outs, double *seconds)
{
    double t0 = ortkit__clock_now();
    int rc = ortkit_session_run_values(session, NULL, cfg->names, (const ortkit_value *const *)inputs,
                                       cfg->n_in, NULL, 0, outs);
    *seconds = ortkit__clock_now() - t0;
    if (rc)
        return rc;
    for (size_t i = 0; i < cfg->n_out; i++) {
        ortkit_value_free(outs[i]);
        outs[i] = NULL;
    }
    return 0;
}

int bench_run_once(const bench_config *cfg, ortkit_session *session, ortkit_value *const *inputs,
                   double *seconds)
{
    ortkit_value **outs = calloc(cfg->n_out + 1, sizeof *outs);
    if (!outs)
        return ORTKIT_E_NOMEM;
    int rc = run_once(cfg, session, inputs, outs, seconds);
    free(outs);
    return rc;
}

typedef struct block_job {
    const bench_config *cfg;
    bench_side *side;
    atomic_size_t next; /* the next index of side->lat to claim */
    size_t end;
    atomic_int failed;
    pthread_mutex_t lock;
    char error[512];    /* the first failure; error messages are per thread */
} block_job;

static void job_fail(block_job *job, const char *msg)
{
    pthread_mutex_lock(&job->lock);
    if (!atomic_load(&job->failed))
        snprintf(job->error, sizeof job->error, "%s", msg);
    atomic_store(&job->failed, 1);
    pthread_mutex_unlock(&job->lock);
}

static void *caller_main(void *arg)
{
    block_job *job = arg;
    ortkit_value **outs = calloc(job->cfg->n_out + 1, sizeof *outs);
    if (!outs) {
        job_fail(job, "out of memory");
        return NULL;
    }
    /* A claimed run is always finished, so after a stop every index below
     * min(next, end) holds a latency. */
    while (!cli_interrupted() && !atomic_load(&job->failed)) {
        size_t i = atomic_fetch_add(&job->next, 1);
        if (i >= job->end)
            break;
        double dt;
        if (run_once(job->cfg, job->side->session, job->side->inputs, outs, &dt)) {
            job_fail(job, ortkit_error_last());
            break;
        }
        job->side->lat[i] = dt;
    }
    free(outs);
    return NULL;
}

static const char *side_prefix(const bench_config *cfg, size_t idx, char *buf, size_t size)
{
    if (cfg->n_sides < 2)
        return "";
    snprintf(buf, size, "%c (%s): ", idx ? 'B' : 'A', cfg->side[idx].label);
    return buf;
}

/*
 * Side by side, before each block, wait (untimed) until the process has used
 * no CPU for 10 ms.  ORT's pool threads spin for a while after a run before
 * they sleep, and the kernel adds a running thread's CPU time to the
 * process's total only at its next tick (4 ms at 250 Hz) or when it sleeps:
 * without a quiet spell, one side's CPU time, and the core its spinning
 * threads hold, would land in the other side's block.  At most about 200 ms.
 */
static void settle(void)
{
    for (int i = 0; i < 20; i++) {
        double u0, s0, u1, s1;
        cpu_seconds(&u0, &s0);
        nanosleep(&(struct timespec){0, 10000000}, NULL);
        cpu_seconds(&u1, &s1);
        if ((u1 + s1) - (u0 + s0) < 0.5e-3)
            return;
    }
}

/* Run `count` timed runs of one side with cfg->callers threads; *mean gets their mean. */
static int run_block(bench_config *cfg, size_t idx, size_t count, double *mean)
{
    bench_side *sd = &cfg->side[idx];
    if (ortkit__array_reserve(&sd->lat, &sd->cap_lat, sd->n_lat + count, sizeof *sd->lat, 1024))
        return cli_fail("out of memory for %zu latencies", sd->n_lat + count);
    block_job job = {.cfg = cfg, .side = sd, .end = sd->n_lat + count};
    atomic_init(&job.next, sd->n_lat);
    atomic_init(&job.failed, 0);
    pthread_mutex_init(&job.lock, NULL);
    size_t threads = (size_t)cfg->callers < count ? (size_t)cfg->callers : count;
    pthread_t tid[BENCH_MAX_CALLERS];
    size_t started = 0;
    double user0, sys0, user1, sys1;
    if (cfg->n_sides == 2)
        settle();
    double rss0 = (double)ortkit__proc_rss();
    cpu_seconds(&user0, &sys0);
    double t0 = ortkit__clock_now();
    if (threads <= 1) {
        caller_main(&job); /* no thread: the loop a single caller would write */
    } else {
        for (; started < threads; started++)
            if (pthread_create(&tid[started], NULL, caller_main, &job))
                break;
        if (started == 0)
            job_fail(&job, "cannot start a caller thread");
        for (size_t i = 0; i < started; i++)
            pthread_join(tid[i], NULL);
    }
    double t1 = ortkit__clock_now();
    cpu_seconds(&user1, &sys1);
    double rss1 = (double)ortkit__proc_rss();
    pthread_mutex_destroy(&job.lock);
    if (atomic_load(&job.failed)) {
        char pre[160];
        return cli_fail("%s%s", side_prefix(cfg, idx, pre, sizeof pre), job.error);
    }
    size_t done_to = atomic_load(&job.next);
    if (done_to > job.end)
        done_to = job.end;
    double sum = 0;
    for (size_t i = sd->n_lat; i < done_to; i++)
        sum += sd->lat[i];
    *mean = done_to > sd->n_lat ? sum / (double)(done_to - sd->n_lat) : NAN;
    sd->n_lat = done_to;
    sd->wall_s += t1 - t0;
    sd->user_s += user1 - user0;
    sd->sys_s += sys1 - sys0;
    sd->rss_growth += rss1 - rss0;
    sd->blocks++;
    return CLI_OK;
}

static int side_done(bench_config *cfg, const bench_side *sd)
{
    if (cfg->runs)
        return sd->n_lat >= (size_t)cfg->runs;
    if (sd->n_lat >= BENCH_MAX_RUNS) {
        cfg->capped = 1;
        return 1;
    }
    return sd->wall_s >= cfg->duration;
}

/* "bench: 42%  1234 runs  3.1 s left" on stderr, at most a few times a second. */
static void show_progress(const bench_config *cfg, double started, double *last, int *shown)
{
    double now = ortkit__clock_now();
    int tty = isatty(STDERR_FILENO);
    if (!cfg->progress || now - started < 1.0 || now - *last < (tty ? 0.2 : 1.0))
        return;
    *last = now;
    double done = 0, total = 0;
    size_t runs = 0;
    for (size_t i = 0; i < cfg->n_sides; i++) {
        const bench_side *sd = &cfg->side[i];
        runs += sd->n_lat;
        if (cfg->runs) {
            done += (double)(sd->n_lat < (size_t)cfg->runs ? sd->n_lat : (size_t)cfg->runs);
            total += (double)cfg->runs;
        } else {
            done += sd->wall_s < cfg->duration ? sd->wall_s : cfg->duration;
            total += cfg->duration;
        }
    }
    double frac = total > 0 ? done / total : 1;
    double left = frac > 0 ? (now - started) * (1 - frac) / frac : 0;
    fprintf(stderr, "%sbench: %3.0f%%  %zu runs  %.1f s left%s", tty ? "\r" : "", frac * 100, runs, left,
            tty ? "\033[K" : "\n");
    fflush(stderr);
    *shown = tty;
}

/* The first run and the warm-up of one side; the memory they add is counted
 * with the session's. */
static int warm_up(bench_config *cfg, size_t idx, double *warm_mean)
{
    bench_side *sd = &cfg->side[idx];
    char pre[160];
    ortkit_value **outs = calloc(cfg->n_out + 1, sizeof *outs);
    if (!outs)
        return cli_fail("out of memory");
    double rss0 = (double)ortkit__proc_rss(), dt, sum = 0;
    int rc = CLI_OK;
    if (run_once(cfg, sd->session, sd->inputs, outs, &sd->first_s)) {
        rc = cli_fail("%s%s", side_prefix(cfg, idx, pre, sizeof pre), ortkit_error_last());
        goto cleanup;
    }
    for (long w = 0; w < cfg->warmup && !cli_interrupted(); w++) {
        if (run_once(cfg, sd->session, sd->inputs, outs, &dt)) {
            rc = cli_fail("%s%s", side_prefix(cfg, idx, pre, sizeof pre), ortkit_error_last());
            goto cleanup;
        }
        sum += dt;
    }
    *warm_mean = cfg->warmup > 0 ? sum / (double)cfg->warmup : sd->first_s;
    sd->setup_rss += (double)ortkit__proc_rss() - rss0;
cleanup:
    free(outs);
    return rc;
}

/* Runs per block: about 0.1 s of work, so that CPU time, which the kernel
 * counts in ticks, is read over a long enough span; but at least 10 rounds
 * for a count, so that interleaving has something to alternate; and at
 * least one run per caller. */
static size_t choose_block(const bench_config *cfg, double est)
{
    if (cfg->block > 0)
        return (size_t)cfg->block;
    double b = est > 0 ? 0.1 / est * (double)cfg->callers : 1000;
    size_t block = b < 1 ? 1 : b > 100000 ? 100000 : (size_t)b;
    if (cfg->runs) {
        size_t most = (size_t)cfg->runs / 10;
        if (block > most)
            block = most;
    }
    if (block < (size_t)cfg->callers)
        block = (size_t)cfg->callers;
    return block ? block : 1;
}

int bench_measure(bench_config *cfg)
{
    int rc = CLI_OK, shown = 0;
    double est = 0;
    for (size_t i = 0; i < cfg->n_sides; i++) {
        double m = 0;
        if ((rc = warm_up(cfg, i, &m)))
            goto done;
        est = m > est ? m : est;
    }
    size_t block = choose_block(cfg, est);
    cfg->block = (long)block;
    double started = ortkit__clock_now(), last = 0;
    for (size_t round = 0; !cli_interrupted(); round++) {
        double mean[2] = {NAN, NAN};
        int ran = 0;
        for (size_t k = 0; k < cfg->n_sides && !cli_interrupted(); k++) {
            size_t idx = cfg->n_sides == 2 && round % 2 ? 1 - k : k;
            bench_side *sd = &cfg->side[idx];
            if (side_done(cfg, sd))
                continue;
            size_t count = block, most = cfg->runs ? (size_t)cfg->runs : BENCH_MAX_RUNS;
            if (sd->n_lat + count > most)
                count = most - sd->n_lat;
            if ((rc = run_block(cfg, idx, count, &mean[idx])))
                goto done;
            ran = 1;
            show_progress(cfg, started, &last, &shown);
        }
        if (cfg->n_sides == 2 && !isnan(mean[0]) && !isnan(mean[1])) {
            cfg->rounds++;
            cfg->rounds_b_faster += mean[1] < mean[0];
        }
        if (!ran)
            break;
    }
done:
    if (shown) /* the progress line goes before any result or message */
        fputs("\r\033[K", stderr);
    cfg->interrupted = cli_interrupted() != 0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    cfg->peak_rss = (double)ru.ru_maxrss * 1024.0;
    return rc;
}
