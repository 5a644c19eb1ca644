/* builder_history.h - the builder: history of compiles (history.c). */
#ifndef ORTKIT_BUILDER_HISTORY_H
#define ORTKIT_BUILDER_HISTORY_H

#include "ortkit.h"
#include "util.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

typedef struct ortkit__builder_hist_entry {
    char *key;        /* source file (or link output) */
    uint64_t peak;    /* bytes */
    double wall, cpu; /* seconds */
} ortkit__builder_hist_entry;

typedef struct ortkit__builder_history {
    ortkit__builder_hist_entry *e;
    size_t n, cap;
    double last_wall;   /* wall time of the last whole build, 0 if none */
    long last_steps;    /* its ninja steps */
} ortkit__builder_history;

int ortkit__builder_history_load(ortkit__builder_history *h, const char *path);
int ortkit__builder_history_save(const ortkit__builder_history *h, const char *path);
const ortkit__builder_hist_entry *ortkit__builder_history_find(const ortkit__builder_history *h,
                                                               const char *key);
int ortkit__builder_history_put(ortkit__builder_history *h, const char *key, uint64_t peak,
                                double wall, double cpu);
void ortkit__builder_history_free(ortkit__builder_history *h);

#endif
