/*
 * host_view.h - a host as `host` and `doctor` show it: its view is the JSON
 * ortkit_host_to_json writes (`host --json`), and the text is drawn from it
 * by a table of fields.
 */
#ifndef ORTKIT_CLI_HOST_VIEW_H
#define ORTKIT_CLI_HOST_VIEW_H

#include "cli.h"
#include "view.h"

/* The host's view; NULL with the library's error set. */
cJSON *host_view(const ortkit_host *h);

/* `ortkit host`'s lines, labelled "%-12s". */
extern const cli_view_field host_view_fields[];
extern const size_t host_view_field_count;
/* `ortkit doctor`'s shorter lines, labelled "  %-10s ". */
extern const cli_view_field host_view_brief_fields[];
extern const size_t host_view_brief_field_count;

#endif
