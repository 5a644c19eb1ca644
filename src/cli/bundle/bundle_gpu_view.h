/* bundle_gpu_view.h - how `ortkit bundle import --providers`, `show` and
 * `complete` show a GPU release bundle (bundle_gpu_view.c). */
#ifndef ORTKIT_CLI_BUNDLE_GPU_VIEW_H
#define ORTKIT_CLI_BUNDLE_GPU_VIEW_H

#include "cli.h"

/* The view: CUDA, cuDNN, driver, SASS, PTX, libraries, what is missing, as
 * a JSON object; NULL for a bundle without GPU fields. */
cJSON *bundle_gpu_json(const ortkit_manifest *m);
/* The view drawn as lines for people. */
void bundle_gpu_print(const ortkit_manifest *m);

#endif
