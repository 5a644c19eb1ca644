/*
 * host_view.h - what `host` and `doctor` both print of a host: its CPU
 * features as one wrapped list, and the CUDA platform it takes.
 */
#ifndef ORTKIT_CLI_HOST_VIEW_H
#define ORTKIT_CLI_HOST_VIEW_H

#include "cli.h"

/* "LEAD asimd fp16 ..." wrapped under LEAD's width; none_word ("none",
 * "none detected") when the host has none. */
void host_view_features(FILE *out, const char *lead, const ortkit_host *h, const char *none_word);
/* "LEADsbsa: NVIDIA's SBSA CUDA (arm64, not a Jetson)", on arm64 hosts only:
 * x86-64 takes one CUDA, on arm64 the platform decides which builds run. */
void host_view_platform(FILE *out, const char *lead, const ortkit_host *h);

#endif
