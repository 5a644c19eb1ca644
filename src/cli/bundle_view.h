/* bundle_view.h - how `ortkit bundle` and `ortkit doctor` show the bundle search. */
#ifndef ORTKIT_CLI_BUNDLE_VIEW_H
#define ORTKIT_CLI_BUNDLE_VIEW_H

#include "cli.h"

/* "ok", "missing" or "unreadable". */
const char *bundle_dir_state_name(ortkit_bundle_dir_state state);
/* Every directory searched, as a JSON array of {path, source, state, note, bundles}. */
cJSON *bundle_dirs_json(const ortkit_bundle_list *list);

/* The bundle's files together, for people ("263.2 MiB"). */
void bundle_total_size(const ortkit_manifest *m, char *buf, size_t size);
/* What a bundle is, as `bundle import` and `bundle show` print it: the
 * runtime, providers, how its version was learnt, files, GPU facts. */
void bundle_summary_print(const ortkit_manifest *m);
/* The same as JSON, with what it needs and its parts. */
cJSON *bundle_summary_json(const ortkit_manifest *m);
/* What it needs of a host: C and C++ libraries, then each part's libraries
 * (the core, each provider), or all together in a manifest without parts. */
void bundle_needs_print(const ortkit_manifest *m);

#endif
