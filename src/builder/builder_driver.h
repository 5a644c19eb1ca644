/* builder_driver.h - the builder: running a plan (driver.c, server.c). */
#ifndef ORTKIT_BUILDER_DRIVER_H
#define ORTKIT_BUILDER_DRIVER_H

#include "ortkit.h"
#include "util.h"
#include "builder_plan.h"
#include "builder_report.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* One run of a plan: the options as given (the gate's budget and slots,
 * the compiler chain and cache, the status line), and what this run is. */
typedef struct ortkit__builder_execute_options {
    const ortkit__builder_options *opts;
    const ortkit__builder_plan *plan;
    const char *build_dir;
    int kind;                 /* ortkit__builder_kind */
    const char *variant_flags; /* ORT builds: the variant's CPU flags, for the sharing account */
    const char *source;        /* ORT builds: the source tree (ORT's own code is under it) */
    const char *target;       /* ninja target; NULL: default */
    int install;              /* cmake --install into plan->stage_dir */
} ortkit__builder_execute_options;

/* Configure when needed, build under the gate, install; fills the report.
 * Returns 0, ORTKIT_E_CANCELLED on an interrupt, or an error. */
int ortkit__builder_execute(const ortkit__builder_execute_options *opts, ortkit__builder_report *rep);
/* A SIGINT/SIGTERM handler: the build stops cleanly when it has run. */
void ortkit__builder_interrupt(int sig);

#endif
