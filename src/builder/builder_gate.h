/* builder_gate.h - the builder: the compile gate (gate.c): admission control, pure accounting. */
#ifndef ORTKIT_BUILDER_GATE_H
#define ORTKIT_BUILDER_GATE_H

#include "ortkit.h"
#include "util.h"
#include "builder_history.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

typedef enum ortkit__builder_lang {
    ORTKIT__LANG_C = 0,
    ORTKIT__LANG_CXX = 1,
    ORTKIT__LANG_CUDA = 2,
    ORTKIT__LANG_LINK = 3,
    ORTKIT__LANG_COUNT
} ortkit__builder_lang;

const char *ortkit__builder_lang_name(ortkit__builder_lang lang);
int ortkit__builder_lang_parse(const char *name); /* -1 when unknown */

typedef enum ortkit__builder_hold {
    ORTKIT__HOLD_NONE = 0,
    ORTKIT__HOLD_SLOTS = 1,  /* all CPU slots busy */
    ORTKIT__HOLD_BUDGET = 2, /* its expected peak does not fit the budget now */
    ORTKIT__HOLD_SYSTEM = 3  /* the system's available memory is low */
} ortkit__builder_hold;

typedef struct ortkit__builder_job {
    uint64_t id;
    pid_t pid;                /* the launcher */
    ortkit__builder_lang lang;
    char *path;
    uint64_t estimate;        /* expected peak, bytes */
    int learnt;               /* estimate from history */
    uint64_t rss;             /* sampled now (the launcher's descendants) */
    uint64_t rss_max;         /* sampled peak */
    double t_request, t_admit;
    int admitted;
    ortkit__builder_hold held; /* the first reason it waited, if it did */
    int bypassed;             /* later requests admitted while this one waited */
} ortkit__builder_job;

typedef struct ortkit__builder_gate_stats {
    uint64_t requests, admitted, finished;
    uint64_t held_slots, held_budget, held_system; /* compiles that had to wait, by reason */
    uint64_t alone_over_budget; /* admitted alone although its estimate exceeds the budget */
    int max_running;
    uint64_t max_reserved;   /* highest sum of reservations */
    uint64_t max_in_use;     /* highest sum of max(reservation, sampled RSS) */
    uint64_t max_sampled;    /* highest sum of sampled RSS */
} ortkit__builder_gate_stats;

typedef struct ortkit__builder_gate {
    uint64_t budget;
    int slots;
    uint64_t low_water;      /* hold while MemAvailable, less what running jobs may still
                              * grow by, would fall below this */
    uint64_t lang_default[ORTKIT__LANG_COUNT];
    double margin;           /* learnt peaks are scaled by this (1.10) */
    int max_bypass;          /* later jobs admitted past a waiting one before it blocks them */
    const ortkit__builder_history *history;
    ortkit__builder_job **jobs; /* waiting and running, in request order */
    size_t n_jobs, cap;
    uint64_t next_id;
    int running;
    uint64_t reserved;       /* sum of the running jobs' estimates */
    uint64_t mem_available;  /* last system reading; UINT64_MAX: no watch */
    ortkit__builder_gate_stats stats;
} ortkit__builder_gate;

/* Defaults: per-language peaks C 0.5 GB, C++ 1.5 GB, CUDA 5 GB, link 1.5 GB. */
void ortkit__builder_gate_init(ortkit__builder_gate *g, uint64_t budget, int slots,
                               const ortkit__builder_history *history);
void ortkit__builder_gate_free(ortkit__builder_gate *g);
/* The expected peak of a compile of path in lang; *learnt set when history knew it. */
uint64_t ortkit__builder_gate_estimate(const ortkit__builder_gate *g, ortkit__builder_lang lang,
                                       const char *path, int *learnt);
/* A new request, queued; NULL when out of memory. */
ortkit__builder_job *ortkit__builder_gate_request(ortkit__builder_gate *g, pid_t pid,
                                                  ortkit__builder_lang lang, const char *path,
                                                  double now);
/*
 * Admit what can run now; calls admit(job, ctx) for each admitted job, in
 * request order with bounded bypassing.  Returns how many were admitted.
 */
int ortkit__builder_gate_schedule(ortkit__builder_gate *g, double now,
                                  void (*admit)(ortkit__builder_job *job, void *ctx), void *ctx);
/* A job finished or its launcher went away: release and free it. */
void ortkit__builder_gate_release(ortkit__builder_gate *g, ortkit__builder_job *job);
/* Update a running job's sampled RSS and the system's available memory. */
void ortkit__builder_gate_sample(ortkit__builder_gate *g, ortkit__builder_job *job, uint64_t rss);
void ortkit__builder_gate_set_available(ortkit__builder_gate *g, uint64_t mem_available);
/* Memory the gate counts as in use: sum over running jobs of max(estimate, rss). */
uint64_t ortkit__builder_gate_in_use(const ortkit__builder_gate *g);

#endif
