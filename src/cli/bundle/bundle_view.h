/* bundle_view.h - how `ortkit bundle` and `ortkit doctor` show the bundle search. */
#ifndef ORTKIT_CLI_BUNDLE_VIEW_H
#define ORTKIT_CLI_BUNDLE_VIEW_H

#include "cli.h"
#include "view.h"

/* "ok", "missing" or "unreadable". */
const char *bundle_dir_state_name(ortkit_bundle_dir_state state);
/* Every directory searched, as a JSON array of {path, source, state, note, bundles}. */
cJSON *bundle_dirs_view(const ortkit_bundle_list *list);

/* What a bundle is, as JSON: the runtime, providers, how its version was
 * learnt, files, GPU facts, what it needs and its parts, how ortkit built it. */
cJSON *bundle_summary_view(const ortkit_manifest *m);
/* Its lines drawn from that view (fields' lines, cli_view_lines_fn, each
 * with its own labels, BUNDLE_VIEW_LABEL): the summary (`bundle import`
 * and `show`: runtime, providers, version, files, GPU facts), and what it
 * needs of a host (C and C++ libraries, then each part's libraries) with
 * how ortkit built it (nothing for other bundles). */
#define BUNDLE_VIEW_LABEL "%-11s"
void bundle_summary_lines(FILE *out, const char *lead, const cJSON *o);
void bundle_needs_lines(FILE *out, const char *lead, const cJSON *o);

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
