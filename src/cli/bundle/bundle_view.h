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
/* How ortkit built it (the manifest's "build"): the glibc it was built with
 * and held to, each dependency compiled in; nothing for other bundles. */
void bundle_build_print(const ortkit_manifest *m);
/* What part p of bundle m needs that host h lacks (the bundle does not carry
 * it), comma-separated into buf: 1 something is missing, 0 nothing, -1 not
 * judged (the host does not list its libraries). */
int bundle_part_missing(const ortkit_manifest *m, const ortkit_bundle_part *p, const ortkit_host *h,
                        char *buf, size_t size);
/* "TensorrtExecutionProvider unavailable: TensorRT 10 is not installed
 * (needs libnvinfer.so.10, ...)": why a provider of the bundle cannot be
 * used on h, into buf; 0 when nothing says it cannot (no parts, or its
 * part's libraries are there or not judged). */
int bundle_provider_unavailable(const ortkit_manifest *m, const char *provider, const ortkit_host *h,
                                char *buf, size_t size);

#endif
