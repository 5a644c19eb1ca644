/* bundle_gpu_view.h - how `ortkit bundle import --providers` and `ortkit
 * bundle complete` show a GPU release bundle (cmd_bundle_complete.c). */
#ifndef ORTKIT_CLI_BUNDLE_GPU_VIEW_H
#define ORTKIT_CLI_BUNDLE_GPU_VIEW_H

#include "cli.h"
#include "opt.h"

/* Lines for people: CUDA, cuDNN, driver, SASS, PTX, libraries, what is missing. */
void bundle_gpu_print(const ortkit_manifest *m);
/* The same as a JSON object; NULL for a bundle without GPU fields. */
cJSON *bundle_gpu_json(const ortkit_manifest *m);

/* `ortkit bundle complete`: its options and its run. */
extern const cli_opt bundle_complete_opts[];
int bundle_complete(int argc, char **argv);
/* A bundle by directory, else by the name the search finds (cmd_bundle.c). */
int bundle_open_named(ortkit_bundle **out, const char *what);

#endif
