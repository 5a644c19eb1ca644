/* provider_probe.h - the GPU provider probe: running it (provider_probe.c)
 * and reading its answer into words (provider_diagnose.c). */
#ifndef ORTKIT_PROVIDER_PROBE_H
#define ORTKIT_PROVIDER_PROBE_H

#include "runtime_internal.h"

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

/* The driver's version ("580.65.06") from the text of
 * /proc/driver/nvidia/version, either kernel module's wording ("NVIDIA UNIX
 * x86_64 Kernel Module  580.65.06 ..." or "NVIDIA UNIX Open Kernel Module for
 * x86_64  580.159.04 ..."); "" when it names none. */
void ortkit__driver_version_parse(char *buf, size_t size, const char *proc_text);

/* Whether ort_name ("CUDAExecutionProvider", its library's file name beside
 * the runtime "libonnxruntime_providers_cuda.so"; options "device_id=1" or
 * "") can be added to a session of rt, decided by ortkit-probe in a child
 * process (its answer cached); v->method already set.  Fills v; returns 0,
 * or negative when the probe could not be run at all (v says so). */
int ortkit__provider_probe(const ortkit_runtime *rt, const char *ort_name, const char *library,
                           const char *options, ortkit__probe_verdict *v);

#endif
