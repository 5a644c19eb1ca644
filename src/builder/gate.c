/*
 * gate.c - admission control for compiles: a memory budget and CPU slots.
 *
 * Every compile asks before it starts.  It is admitted when a CPU slot is
 * free, when its expected peak fits in what the budget has left, and when
 * the system's available memory allows.  The expected peak is what this file
 * needed last time (history), scaled by a margin, else a per-language
 * default.  Memory in use counts each running compile at the larger of its
 * reservation and its sampled RSS, so a compile that outgrows its estimate
 * holds back the next admissions instead of pushing the sum over budget.
 *
 * This file is pure bookkeeping: no sockets, no clocks, no /proc, so that
 * the policy can be tested on its own.
 */
#include "builder_gate.h"
#include "builder_history.h"

#include <stdlib.h>
#include <string.h>

static const char *const lang_names[ORTKIT__LANG_COUNT] = {"c", "c++", "cuda", "link"};

const char *ortkit__builder_lang_name(ortkit__builder_lang lang)
{
    return (unsigned)lang < ORTKIT__LANG_COUNT ? lang_names[lang] : "?";
}

int ortkit__builder_lang_parse(const char *name)
{
    for (int i = 0; i < ORTKIT__LANG_COUNT; i++)
        if (!strcmp(name, lang_names[i]))
            return i;
    if (!strcmp(name, "cxx") || !strcmp(name, "cpp"))
        return ORTKIT__LANG_CXX;
    return -1;
}

void ortkit__builder_gate_init(ortkit__builder_gate *g, uint64_t budget, int slots,
                               const ortkit__builder_history *history)
{
    memset(g, 0, sizeof *g);
    g->budget = budget;
    g->slots = slots > 0 ? slots : 1;
    g->history = history;
    /* Defaults for files never seen: generous on purpose, since a guess that
     * is too low risks the OOM killer while one too high only costs speed
     * until the history knows better.  ORT's own worst C++ file needs
     * 2.2 GB; nvcc needs 4-6 GB. */
    g->lang_default[ORTKIT__LANG_C] = ORTKIT__GiB / 2;
    g->lang_default[ORTKIT__LANG_CXX] = ORTKIT__GiB + ORTKIT__GiB / 2;
    g->lang_default[ORTKIT__LANG_CUDA] = 5 * ORTKIT__GiB;
    g->lang_default[ORTKIT__LANG_LINK] = ORTKIT__GiB + ORTKIT__GiB / 2;
    g->margin = 1.10;
    g->max_bypass = 8;
    g->mem_available = UINT64_MAX;
    g->next_id = 1;
}

void ortkit__builder_gate_free(ortkit__builder_gate *g)
{
    for (size_t i = 0; i < g->n_jobs; i++) {
        free(g->jobs[i]->path);
        free(g->jobs[i]);
    }
    free(g->jobs);
    g->jobs = NULL;
    g->n_jobs = g->cap = 0;
}

uint64_t ortkit__builder_gate_estimate(const ortkit__builder_gate *g, ortkit__builder_lang lang,
                                       const char *path, int *learnt)
{
    const ortkit__builder_hist_entry *h =
        g->history && path ? ortkit__builder_history_find(g->history, path) : NULL;
    if (learnt)
        *learnt = h && h->peak > 0;
    if (h && h->peak > 0)
        /* The margin covers run-to-run noise; the floor, tiny compiles. */
        return (uint64_t)((double)h->peak * g->margin) + 16 * ORTKIT__MiB;
    return g->lang_default[(unsigned)lang < ORTKIT__LANG_COUNT ? lang : ORTKIT__LANG_CXX];
}

ortkit__builder_job *ortkit__builder_gate_request(ortkit__builder_gate *g, pid_t pid,
                                                  ortkit__builder_lang lang, const char *path,
                                                  double now)
{
    if (ortkit__array_reserve(&g->jobs, &g->cap, g->n_jobs + 1, sizeof *g->jobs, 16))
        return NULL;
    ortkit__builder_job *j = calloc(1, sizeof *j);
    if (!j || !(j->path = strdup(path ? path : ""))) {
        free(j);
        return NULL;
    }
    j->id = g->next_id++;
    j->pid = pid;
    j->lang = lang;
    j->estimate = ortkit__builder_gate_estimate(g, lang, path, &j->learnt);
    j->t_request = now;
    g->jobs[g->n_jobs++] = j;
    g->stats.requests++;
    return j;
}

uint64_t ortkit__builder_gate_in_use(const ortkit__builder_gate *g)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < g->n_jobs; i++) {
        const ortkit__builder_job *j = g->jobs[i];
        if (j->admitted)
            sum += j->rss > j->estimate ? j->rss : j->estimate;
    }
    return sum;
}

/* What running jobs may still grow by before they reach their reservation:
 * the system must keep that much available for them. */
static uint64_t headroom(const ortkit__builder_gate *g)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < g->n_jobs; i++) {
        const ortkit__builder_job *j = g->jobs[i];
        if (j->admitted && j->estimate > j->rss)
            sum += j->estimate - j->rss;
    }
    return sum;
}

static ortkit__builder_hold why_not(const ortkit__builder_gate *g, const ortkit__builder_job *j,
                                    uint64_t in_use, uint64_t room)
{
    if (g->running >= g->slots)
        return ORTKIT__HOLD_SLOTS;
    /* With nothing running, a compile is admitted even when its estimate
     * exceeds the budget: waiting would never make it fit. */
    if (g->running == 0)
        return ORTKIT__HOLD_NONE;
    if (in_use + j->estimate > g->budget)
        return ORTKIT__HOLD_BUDGET;
    if (g->mem_available != UINT64_MAX && room < j->estimate + g->low_water)
        return ORTKIT__HOLD_SYSTEM;
    return ORTKIT__HOLD_NONE;
}

static void note_hold(ortkit__builder_gate *g, ortkit__builder_job *j, ortkit__builder_hold h)
{
    if (j->held != ORTKIT__HOLD_NONE || h == ORTKIT__HOLD_NONE)
        return;
    j->held = h;
    if (h == ORTKIT__HOLD_SLOTS)
        g->stats.held_slots++;
    else if (h == ORTKIT__HOLD_BUDGET)
        g->stats.held_budget++;
    else
        g->stats.held_system++;
}

int ortkit__builder_gate_schedule(ortkit__builder_gate *g, double now,
                                  void (*admit)(ortkit__builder_job *job, void *ctx), void *ctx)
{
    int admitted = 0;
    for (size_t i = 0; i < g->n_jobs; i++) {
        ortkit__builder_job *j = g->jobs[i];
        if (j->admitted)
            continue;
        uint64_t in_use = ortkit__builder_gate_in_use(g);
        uint64_t room = g->mem_available == UINT64_MAX ? UINT64_MAX
                        : g->mem_available > headroom(g) ? g->mem_available - headroom(g)
                                                         : 0;
        ortkit__builder_hold h = why_not(g, j, in_use, room);
        if (h != ORTKIT__HOLD_NONE) {
            note_hold(g, j, h);
            if (h == ORTKIT__HOLD_SLOTS)
                break; /* nothing later can run either */
            /* Later, smaller jobs may pass this one, but only so often:
             * after max_bypass it has the next memory to itself. */
            if (j->bypassed >= g->max_bypass)
                break;
            continue;
        }
        int starved = 0;
        for (size_t k = 0; k < i; k++)
            if (!g->jobs[k]->admitted && ++g->jobs[k]->bypassed >= g->max_bypass)
                starved = 1;
        j->admitted = 1;
        j->t_admit = now;
        if (g->running == 0 && j->estimate > g->budget)
            g->stats.alone_over_budget++;
        g->running++;
        g->reserved += j->estimate;
        g->stats.admitted++;
        if (g->running > g->stats.max_running)
            g->stats.max_running = g->running;
        if (g->reserved > g->stats.max_reserved)
            g->stats.max_reserved = g->reserved;
        uint64_t use = ortkit__builder_gate_in_use(g);
        if (use > g->stats.max_in_use)
            g->stats.max_in_use = use;
        admitted++;
        if (admit)
            admit(j, ctx);
        if (starved)
            break; /* the next memory goes to the job that waited longest */
    }
    return admitted;
}

void ortkit__builder_gate_release(ortkit__builder_gate *g, ortkit__builder_job *job)
{
    for (size_t i = 0; i < g->n_jobs; i++) {
        if (g->jobs[i] != job)
            continue;
        if (job->admitted) {
            g->running--;
            g->reserved -= job->estimate;
            g->stats.finished++;
        }
        memmove(&g->jobs[i], &g->jobs[i + 1], (g->n_jobs - i - 1) * sizeof *g->jobs);
        g->n_jobs--;
        free(job->path);
        free(job);
        return;
    }
}

void ortkit__builder_gate_sample(ortkit__builder_gate *g, ortkit__builder_job *job, uint64_t rss)
{
    job->rss = rss;
    if (rss > job->rss_max)
        job->rss_max = rss;
    uint64_t use = ortkit__builder_gate_in_use(g), sampled = 0;
    for (size_t i = 0; i < g->n_jobs; i++)
        if (g->jobs[i]->admitted)
            sampled += g->jobs[i]->rss;
    if (use > g->stats.max_in_use)
        g->stats.max_in_use = use;
    if (sampled > g->stats.max_sampled)
        g->stats.max_sampled = sampled;
}

void ortkit__builder_gate_set_available(ortkit__builder_gate *g, uint64_t mem_available)
{
    g->mem_available = mem_available;
}
