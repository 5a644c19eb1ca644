/*
 * host_view.h - what `host` and `doctor` both print of a host: its CPU
 * features as one wrapped list.
 */
#ifndef ORTKIT_CLI_HOST_VIEW_H
#define ORTKIT_CLI_HOST_VIEW_H

#include "cli.h"

/* "LEAD asimd fp16 ..." wrapped under LEAD's width; none_word ("none",
 * "none detected") when the host has none. */
void host_view_features(FILE *out, const char *lead, const ortkit_host *h, const char *none_word);

#endif
