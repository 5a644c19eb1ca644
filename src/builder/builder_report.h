/* builder_report.h - the builder: records, report (report.c). */
#ifndef ORTKIT_BUILDER_REPORT_H
#define ORTKIT_BUILDER_REPORT_H

#include "ortkit.h"
#include "util.h"
#include "builder_compiler_cache.h"
#include "builder_gate.h"
#include "builder_sharing.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

typedef struct ortkit__builder_record {
    char *path;
    ortkit__builder_lang lang;
    double wall, cpu, waited; /* seconds */
    uint64_t peak;            /* bytes: ru_maxrss of the compiler tree */
    uint64_t estimate;
    int status;
    ortkit__builder_hold held;
    ortkit__builder_cache_outcome cache; /* what ccache did with it */
    double saved;             /* a hit: the file's last real compile less this one; < 0: not known */
} ortkit__builder_record;

/* The compiler cache as a build used it (--cache ccache), for the report. */
typedef struct ortkit__builder_cache_stats {
    int on;                    /* compiles went through ccache */
    char remote[1024];         /* --cache-remote as shown (no password), "" when none */
    int remote_only;
    char local_dir[4096];      /* with a remote: its own local cache (CCACHE_DIR); "" without */
    uint64_t outcome[ORTKIT__CACHE_OUTCOMES]; /* compiles by what ccache did */
    uint64_t remote_errors;    /* ccache's remote_storage_error and _timeout */
    double hit_wall;           /* what the hits took */
    double saved;              /* what they saved, where the file's real compile is known */
    uint64_t unpriced;         /* hits of files with no real compile in this build's history */
} ortkit__builder_cache_stats;

typedef struct ortkit__builder_report {
    ortkit__builder_record *r;
    size_t n, cap;
    double wall;          /* ninja's run: the compiles and links */
    double configure_wall; /* configuring (0 when the configuration was unchanged) */
    double install_wall;  /* cmake --install into the stage */
    double cpu;           /* sum of compile CPU time */
    uint64_t budget;
    int slots;
    long steps_total, steps_done, steps_at_start;
    ortkit__builder_gate_stats gate;
    int ungated;          /* compiles that ran without the gate */
    ortkit__builder_cache_stats cache;
    ortkit__builder_sharing sharing; /* ORT builds: what the variant's flags reach */
} ortkit__builder_report;

int ortkit__builder_report_add(ortkit__builder_report *rep, const char *path,
                               ortkit__builder_lang lang, double wall, double cpu, double waited,
                               uint64_t peak, uint64_t estimate, int status,
                               ortkit__builder_hold held);
/* What ccache did with the compile just added (and the time a hit saved,
 * < 0 when not known): into its record and the report's cache figures. */
void ortkit__builder_report_cache(ortkit__builder_report *rep, ortkit__builder_cache_outcome outcome,
                                  int remote_errors, double saved);
/* "12 hits (12 remote, 0 local), 0 misses": the cache figures in a line. */
void ortkit__builder_cache_line(const ortkit__builder_cache_stats *c, char *buf, size_t size);
void ortkit__builder_report_free(ortkit__builder_report *rep);
/* For people. */
void ortkit__builder_report_print(const ortkit__builder_report *rep, FILE *out);
/* As JSON text (malloc'd). */
char *ortkit__builder_report_json(const ortkit__builder_report *rep, const char *extra_json);

#endif
