/* bundle_gpu_view.h - how `ortkit bundle import --providers`, `show` and
 * `complete` show a GPU release bundle (bundle_gpu_view.c). */
#ifndef ORTKIT_CLI_BUNDLE_GPU_VIEW_H
#define ORTKIT_CLI_BUNDLE_GPU_VIEW_H

#include "cli.h"
#include "view.h"

/* The view: CUDA, cuDNN, driver, SASS, PTX, libraries, what is missing, as
 * a JSON object; NULL for a bundle without GPU fields. */
cJSON *bundle_gpu_view(const ortkit_manifest *m);
/* The lines drawn from o's "gpu" (that view), for people; nothing without
 * one.  A field's lines (cli_view_lines_fn): they carry their own labels. */
void bundle_gpu_lines(FILE *out, const char *lead, const cJSON *o);

#endif
