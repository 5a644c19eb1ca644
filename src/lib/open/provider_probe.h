/* provider_probe.h - the GPU provider probe: running it (provider_probe.c)
 * and reading its answer into words (provider_diagnose.c). */
#ifndef ORTKIT_PROVIDER_PROBE_H
#define ORTKIT_PROVIDER_PROBE_H

#include "runtime.h"

/* What the probe was asked, and what is known without running it. */
typedef struct ortkit__probe_request {
    const char *ort_name;
    const char *provider_path; /* the provider library beside the runtime */
    char provider_dir[4096];
    int cuda_major;            /* from its libcudart.so.N; 0 when it names none */
    int origin;                /* its RUNPATH names $ORIGIN */
} ortkit__probe_request;

/* The probe's output (lines, see src/probe/ortkit_probe.c), its exit status
 * (128 + signal when killed) and whether it ran out of time, into v. */
void ortkit__probe_diagnose(const ortkit__probe_request *req, const char *output, int status,
                            int timed_out, double timeout_s, ortkit__probe_verdict *v);

extern const struct ortkit__provider_prober ortkit__provider_prober;

#endif
