/*
 * build.h - the builder's internal module: plan, pre-flight, the compile
 * gate and its launcher, progress, report.  Used by `ortkit build` and the
 * builder's tests; not installed.
 *
 * The builder is linked into the command-line tool, which uses the shared
 * library; the library's internal error state is hidden there, so the
 * builder keeps its own last-error message (ortkit_build_error()).
 */
#ifndef ORTKIT_BUILD_H
#define ORTKIT_BUILD_H

#include "ortkit.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#if defined(__GNUC__)
#define OB_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define OB_PRINTF(f, a)
#endif

#define OB_KiB ((uint64_t)1024)
#define OB_MiB (OB_KiB * 1024)
#define OB_GiB (OB_MiB * 1024)

/* ---- errors and small helpers (sys.c) ---------------------------------- */

/* The message of the builder's last failure on this thread ("" before any). */
const char *ortkit_build_error(void);
/* Record a failure; returns code (a negative ortkit_status). */
int ortkit_build_fail(int code, const char *fmt, ...) OB_PRINTF(2, 3);

/* A growable list of strings (argv-style: v[n] is NULL). */
typedef struct ortkit_build_strv {
    char **v;
    size_t n, cap;
} ortkit_build_strv;

int ortkit_build_strv_push(ortkit_build_strv *sv, const char *s);
int ortkit_build_strv_pushf(ortkit_build_strv *sv, const char *fmt, ...) OB_PRINTF(2, 3);
void ortkit_build_strv_free(ortkit_build_strv *sv);

/* "1.5G", "600M", "2GiB", "512k", "1000000" (bytes); 0 on success. */
int ortkit_build_parse_size(const char *s, uint64_t *out);
/* "1.50 GiB", "600 MiB". */
void ortkit_build_format_size(char *buf, size_t size, uint64_t bytes);
/* Seconds on the monotonic clock. */
double ortkit_build_now(void);
/* /proc/meminfo: MemAvailable and MemTotal in bytes; 0 on success. */
int ortkit_build_meminfo(uint64_t *available, uint64_t *total);
/* Online CPUs (at least 1). */
int ortkit_build_nproc(void);
/* Write a whole file through a temporary name beside it, then rename. */
int ortkit_build_write_atomic(const char *path, const char *data, size_t size);
/* Read a whole (small) file; *out is malloc'd and NUL-terminated. */
int ortkit_build_read_file(char **out, const char *path, size_t max);
/* mkdir -p. */
int ortkit_build_mkdirs(const char *path);
/* An absolute, normalised path for path (which need not exist yet). */
char *ortkit_build_abspath(const char *path);
/* A program on PATH (or path itself when it holds a '/'); malloc'd, or NULL. */
char *ortkit_build_which(const char *program);
/*
 * Run argv, wait, and keep its stdout+stderr (at most 64 KiB) in *output
 * (may be NULL).  *status is the exit status, or 128+signal.  Returns 0 when
 * the program ran, an error when it could not be started.
 */
int ortkit_build_run(const char *const *argv, char **output, int *status);
/* Shell-quote s for display (single quotes when needed); malloc'd. */
char *ortkit_build_shell_quote(const char *s);

/* ---- plan (plan.c) -------------------------------------------------------- */

typedef enum ortkit_build_kind {
    ORTKIT_BUILD_ORT = 0,  /* an ONNX Runtime source tree and a variant */
    ORTKIT_BUILD_CMAKE = 1 /* any CMake project, built through the same engine */
} ortkit_build_kind;

typedef struct ortkit_build_config {
    ortkit_build_kind kind;
    const char *source;             /* absolute */
    const char *build_dir;          /* absolute */
    const ortkit_variant *variant;  /* ORT builds */
    const char *ort_version;        /* "1.21.0" from VERSION_NUMBER, or NULL */
    const char *launcher;           /* the ortkit executable; NULL: no compile gate */
    const char *cuda_home;          /* GPU variants */
    const char *cudnn_home;
    const char *eigen_dir;          /* a preinstalled Eigen, or NULL */
    const char *ops_config;         /* required-operators file (--ops-from), or NULL */
    const char *python;             /* python3 for ORT's op reduction script */
    int lto;
    int fetch;                      /* let CMake download dependencies */
    const char *const *deps;        /* NAME=DIR: FETCHCONTENT_SOURCE_DIR_<NAME> */
    size_t n_deps;
    const char *const *defines;     /* KEY=VALUE, passed through last */
    size_t n_defines;
} ortkit_build_config;

typedef struct ortkit_build_plan {
    ortkit_build_strv configure; /* cmake's argv */
    ortkit_build_strv reduce;    /* op reduction argv; empty when none */
    ortkit_build_strv summary;   /* "label\tvalue" lines for people */
    char *stage_dir;             /* cmake --install goes here */
    char *state_dir;             /* <build>/.ortkit: gate socket name, history, lock */
} ortkit_build_plan;

int ortkit_build_plan_make(ortkit_build_plan *out, const ortkit_build_config *cfg);
void ortkit_build_plan_free(ortkit_build_plan *plan);
/* The plan as text: the summary, then the commands, one argument a line. */
int ortkit_build_plan_write(const ortkit_build_plan *plan, FILE *out);
/* The configure command as one shell line (for logs and the stamp file). */
char *ortkit_build_plan_command_line(const ortkit_build_strv *argv);
/* CMAKE_CUDA_ARCHITECTURES for a variant: SASS only, "90a-real". */
int ortkit_build_cuda_architectures(const ortkit_variant *v, char *buf, size_t size);

/* ---- --ops-from (ops.c) ---------------------------------------------------- */

/* Write ORT's required-operators configuration for the models' operators
 * (domain;opset;Op,Op,... lines, subgraphs included). */
int ortkit_build_ops_config(const char *path, const char *const *models, size_t n_models,
                            size_t *n_ops);

/* ---- pre-flight (preflight.c) ------------------------------------------ */

typedef struct ortkit_build_toolchain {
    char cmake[32], ninja[32], cc[96], cxx[96], nvcc[32], cudnn[32];
    char cmake_path[256], ninja_path[256];
} ortkit_build_toolchain;

typedef struct ortkit_build_preflight {
    ortkit_build_kind kind;
    const char *source;
    const char *build_dir;
    const ortkit_variant *variant;
    const char *cuda_home;   /* NULL: CUDA_HOME, then nvcc on PATH, then /usr/local/cuda */
    uint64_t min_disk;       /* 0: a default for the kind of build */
    int cache_ccache;
    const char *distcc_hosts;
} ortkit_build_preflight;

/* The ORT version of a source tree ("1.21.0"); fails when it is not one. */
int ortkit_build_ort_version(char *buf, size_t size, const char *source);
/*
 * Check everything that can fail before compiling; the first failure is the
 * error.  Warnings (other compilers running) go to warn (may be NULL).
 * found_cuda_home receives the toolkit that was checked (GPU variants).
 */
int ortkit_build_preflight_run(const ortkit_build_preflight *pf, ortkit_build_toolchain *tc,
                               char *found_cuda_home, size_t cuda_size,
                               char *found_cudnn_home, size_t cudnn_size,
                               void (*warn)(const char *msg));
/* Heavy compilers running now (cc1plus, cc1, nvcc, cicc, ptxas): "cc1plus (pid 12)". */
int ortkit_build_heavy_compilers(char *buf, size_t size, size_t *count);

/* The build directory's lock: flock on <state>/lock, holding our PID. */
typedef struct ortkit_build_lock {
    int fd;
} ortkit_build_lock;
int ortkit_build_lock_take(ortkit_build_lock *lock, const char *state_dir);
void ortkit_build_lock_release(ortkit_build_lock *lock);

/* ---- patches (patch.c) ---------------------------------------------------- */

/* Apply the .patch files of DIR in name order with `patch -p1`, once each: applied ones
 * are recorded in <state>/patches-applied.  *applied counts the new ones. */
int ortkit_build_patch_apply(const char *patch_dir, const char *source, const char *state_dir,
                             FILE *log, size_t *applied, size_t *skipped);

/* ---- history of compiles (history.c) ------------------------------------ */

typedef struct ortkit_build_hist_entry {
    char *key;        /* source file (or link output) */
    uint64_t peak;    /* bytes */
    double wall, cpu; /* seconds */
} ortkit_build_hist_entry;

typedef struct ortkit_build_history {
    ortkit_build_hist_entry *e;
    size_t n, cap;
    double last_wall;   /* wall time of the last whole build, 0 if none */
    long last_steps;    /* its ninja steps */
} ortkit_build_history;

int ortkit_build_history_load(ortkit_build_history *h, const char *path);
int ortkit_build_history_save(const ortkit_build_history *h, const char *path);
const ortkit_build_hist_entry *ortkit_build_history_find(const ortkit_build_history *h,
                                                         const char *key);
int ortkit_build_history_put(ortkit_build_history *h, const char *key, uint64_t peak, double wall,
                             double cpu);
void ortkit_build_history_free(ortkit_build_history *h);

/* ---- the compile gate (gate.c): admission control, pure accounting ------- */

typedef enum ortkit_build_lang {
    OB_LANG_C = 0,
    OB_LANG_CXX = 1,
    OB_LANG_CUDA = 2,
    OB_LANG_LINK = 3,
    OB_LANG_COUNT
} ortkit_build_lang;

const char *ortkit_build_lang_name(ortkit_build_lang lang);
int ortkit_build_lang_parse(const char *name); /* -1 when unknown */

typedef enum ortkit_build_hold {
    OB_HOLD_NONE = 0,
    OB_HOLD_SLOTS = 1,  /* all CPU slots busy */
    OB_HOLD_BUDGET = 2, /* its expected peak does not fit the budget now */
    OB_HOLD_SYSTEM = 3  /* the system's available memory is low */
} ortkit_build_hold;

typedef struct ortkit_build_job {
    uint64_t id;
    pid_t pid;                /* the launcher */
    ortkit_build_lang lang;
    char *path;
    uint64_t estimate;        /* expected peak, bytes */
    int learnt;               /* estimate from history */
    uint64_t rss;             /* sampled now (the launcher's descendants) */
    uint64_t rss_max;         /* sampled peak */
    double t_request, t_admit;
    int admitted;
    ortkit_build_hold held;   /* the first reason it waited, if it did */
    int bypassed;             /* later requests admitted while this one waited */
} ortkit_build_job;

typedef struct ortkit_build_gate_stats {
    uint64_t requests, admitted, finished;
    uint64_t held_slots, held_budget, held_system; /* compiles that had to wait, by reason */
    uint64_t alone_over_budget; /* admitted alone although its estimate exceeds the budget */
    int max_running;
    uint64_t max_reserved;   /* highest sum of reservations */
    uint64_t max_in_use;     /* highest sum of max(reservation, sampled RSS) */
    uint64_t max_sampled;    /* highest sum of sampled RSS */
} ortkit_build_gate_stats;

typedef struct ortkit_build_gate {
    uint64_t budget;
    int slots;
    uint64_t low_water;      /* hold while MemAvailable, less what running jobs may still
                              * grow by, would fall below this */
    uint64_t lang_default[OB_LANG_COUNT];
    double margin;           /* learnt peaks are scaled by this (1.10) */
    int max_bypass;          /* later jobs admitted past a waiting one before it blocks them */
    const ortkit_build_history *history;
    ortkit_build_job **jobs; /* waiting and running, in request order */
    size_t n_jobs, cap;
    uint64_t next_id;
    int running;
    uint64_t reserved;       /* sum of the running jobs' estimates */
    uint64_t mem_available;  /* last system reading; UINT64_MAX: no watch */
    ortkit_build_gate_stats stats;
} ortkit_build_gate;

/* Defaults: per-language peaks C 0.5 GB, C++ 1.5 GB, CUDA 5 GB, link 1.5 GB. */
void ortkit_build_gate_init(ortkit_build_gate *g, uint64_t budget, int slots,
                            const ortkit_build_history *history);
void ortkit_build_gate_free(ortkit_build_gate *g);
/* The expected peak of a compile of path in lang; *learnt set when history knew it. */
uint64_t ortkit_build_gate_estimate(const ortkit_build_gate *g, ortkit_build_lang lang,
                                    const char *path, int *learnt);
/* A new request, queued; NULL when out of memory. */
ortkit_build_job *ortkit_build_gate_request(ortkit_build_gate *g, pid_t pid,
                                            ortkit_build_lang lang, const char *path, double now);
/*
 * Admit what can run now; calls admit(job, ctx) for each admitted job, in
 * request order with bounded bypassing.  Returns how many were admitted.
 */
int ortkit_build_gate_schedule(ortkit_build_gate *g, double now,
                               void (*admit)(ortkit_build_job *job, void *ctx), void *ctx);
/* A job finished or its launcher went away: release and free it. */
void ortkit_build_gate_release(ortkit_build_gate *g, ortkit_build_job *job);
/* Update a running job's sampled RSS and the system's available memory. */
void ortkit_build_gate_sample(ortkit_build_gate *g, ortkit_build_job *job, uint64_t rss);
void ortkit_build_gate_set_available(ortkit_build_gate *g, uint64_t mem_available);
/* Memory the gate counts as in use: sum over running jobs of max(estimate, rss). */
uint64_t ortkit_build_gate_in_use(const ortkit_build_gate *g);

/* ---- the launcher (launcher.c) --------------------------------------------- */

/* The name of the gate's socket (abstract namespace) for a state directory. */
void ortkit_build_gate_address(char *buf, size_t size, const char *state_dir);
/* `ortkit build --launch STATE_DIR COMPILER ARGS...`: returns the exit status. */
int ortkit_build_launch(int argc, char **argv);
/* The source file and language of a compiler command line (index into argv or -1). */
int ortkit_build_classify(char *const *argv, int argc, ortkit_build_lang *lang);

/* ---- records, report (report.c) ------------------------------------------ */

typedef struct ortkit_build_record {
    char *path;
    ortkit_build_lang lang;
    double wall, cpu, waited; /* seconds */
    uint64_t peak;            /* bytes: ru_maxrss of the compiler tree */
    uint64_t estimate;
    int status;
    ortkit_build_hold held;
} ortkit_build_record;

typedef struct ortkit_build_report {
    ortkit_build_record *r;
    size_t n, cap;
    double wall;          /* the whole build */
    double cpu;           /* sum of compile CPU time */
    uint64_t budget;
    int slots;
    long steps_total, steps_done, steps_at_start;
    ortkit_build_gate_stats gate;
    int ungated;          /* compiles that ran without the gate */
} ortkit_build_report;

int ortkit_build_report_add(ortkit_build_report *rep, const char *path, ortkit_build_lang lang,
                            double wall, double cpu, double waited, uint64_t peak,
                            uint64_t estimate, int status, ortkit_build_hold held);
void ortkit_build_report_free(ortkit_build_report *rep);
/* For people. */
void ortkit_build_report_print(const ortkit_build_report *rep, FILE *out);
/* As JSON text (malloc'd). */
char *ortkit_build_report_json(const ortkit_build_report *rep, const char *extra_json);

/* ---- progress line (progress.c) ------------------------------------------ */

typedef struct ortkit_build_progress {
    int enabled;           /* draw at all (a tty, or --progress) */
    int drawn;             /* a line is on screen */
    double t_start, t_drawn;
    long done, total, at_start;
    double eta_hint;       /* seconds per step from history; 0 when none */
} ortkit_build_progress;

/* Parse a ninja status prefix "[ortkit F/T R] "; 1 when it was one. */
int ortkit_build_progress_parse(const char *line, long *done, long *total, long *running);
/* Redraw the line (at most ~5 times a second unless force). */
void ortkit_build_progress_draw(ortkit_build_progress *p, int running, uint64_t in_use,
                                uint64_t budget, int force, FILE *out);
void ortkit_build_progress_clear(ortkit_build_progress *p, FILE *out);
/* The text of the line, without drawing (for tests). */
void ortkit_build_progress_format(const ortkit_build_progress *p, char *buf, size_t size,
                                  int running, uint64_t in_use, uint64_t budget, double now);

/* The first compiler error in a log: "file:line:col: error: ..." (or a
 * linker / CMake error); 0 when one was found. */
int ortkit_build_first_error(const char *log_path, char *buf, size_t size);

/* ---- the whole build (driver.c, server.c) -------------------------------- */

typedef struct ortkit_build_run_options {
    const ortkit_build_plan *plan;
    const char *build_dir;
    int kind;                 /* ortkit_build_kind */
    uint64_t budget;          /* 0: MemAvailable less a reserve */
    int slots;                /* 0: nproc */
    int ninja_jobs;           /* 0: twice the slots, so the gate and not ninja limits */
    const char *chain;        /* "ccache", "distcc", "ccache+distcc" or NULL */
    const char *distcc_hosts;
    int progress;             /* draw the status line */
    int quiet;
    const char *target;       /* ninja target; NULL: default */
    uint64_t lang_default[OB_LANG_COUNT]; /* 0: gate defaults */
    int install;              /* cmake --install into plan->stage_dir */
} ortkit_build_run_options;

/* Configure when needed, build under the gate, install; fills the report.
 * Returns 0, ORTKIT_E_CANCELLED on an interrupt, or an error. */
int ortkit_build_execute(const ortkit_build_run_options *opts, ortkit_build_report *rep);
/* Set by a SIGINT/SIGTERM handler; the build stops cleanly when it is. */
void ortkit_build_interrupt(int sig);

#endif
