/* bundle_gpu_view.h - how `ortkit bundle import --providers`, `show` and
 * `complete` show a GPU release bundle (bundle_gpu_view.c). */
#ifndef ORTKIT_CLI_BUNDLE_GPU_VIEW_H
#define ORTKIT_CLI_BUNDLE_GPU_VIEW_H

#include "cli.h"

/* Lines for people: CUDA, cuDNN, driver, SASS, PTX, libraries, what is missing. */
void bundle_gpu_print(const ortkit_manifest *m);
/* The same as a JSON object; NULL for a bundle without GPU fields. */
cJSON *bundle_gpu_json(const ortkit_manifest *m);

#endif
