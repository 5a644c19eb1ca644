/* builder_progress.h - the builder: progress line (progress.c). */
#ifndef ORTKIT_BUILDER_PROGRESS_H
#define ORTKIT_BUILDER_PROGRESS_H

#include "ortkit.h"
#include "util.h"
#include "builder_report.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

typedef struct ortkit__builder_progress {
    int enabled;           /* draw at all (a tty, or --progress) */
    int drawn;             /* a line is on screen */
    double t_start, t_drawn;
    long done, total, at_start;
    double eta_hint;       /* seconds per step from history; 0 when none */
    const ortkit__builder_cache_stats *cache; /* shown when on; NULL: none */
} ortkit__builder_progress;

/* Parse a ninja status prefix "[ortkit F/T R] "; 1 when it was one. */
int ortkit__builder_progress_parse(const char *line, long *done, long *total, long *running);
/* Redraw the line (at most ~5 times a second unless force). */
void ortkit__builder_progress_draw(ortkit__builder_progress *p, int running, uint64_t in_use,
                                   uint64_t budget, int force, FILE *out);
void ortkit__builder_progress_clear(ortkit__builder_progress *p, FILE *out);
/* The text of the line, without drawing (for tests). */
void ortkit__builder_progress_format(const ortkit__builder_progress *p, char *buf, size_t size,
                                     int running, uint64_t in_use, uint64_t budget, double now);

/* The first compiler error in a log: "file:line:col: error: ..." (or a
 * linker / CMake error); 0 when one was found. */
int ortkit__builder_first_error(const char *log_path, char *buf, size_t size);

#endif
