/* session_gpu.h - CUDA and TensorRT in a session (session_gpu.c). */
#ifndef ORTKIT_SESSION_GPU_H
#define ORTKIT_SESSION_GPU_H

#include "runtime_internal.h"

/* 1 for the providers decided by a probe: CUDA and TensorRT. */
int ortkit__gpu_provider(const char *ort_name);

/* How ort_name can be added to rt (built_in: the runtime lists it, so the
 * provider bridge; else a plugin library beside it, on 1.22 and newer) and
 * whether it can: the probe's verdict, or "off" when probing is off. */
void ortkit__gpu_decide(const ortkit_runtime *rt, const char *ort_name, int built_in,
                        const char *options, ortkit__probe_verdict *v);

/* Add ort_name through its plugin library: registered once per runtime,
 * then its EP devices appended (device_id=N picks the Nth).  0: added;
 * 1: not added, v->reason and v->detail say why; negative: out of memory. */
int ortkit__gpu_append_plugin(const ortkit_runtime *rt, OrtSessionOptions *so, const char *ort_name,
                              char *const *keys, char *const *values, size_t n,
                              ortkit__probe_verdict *v);


/* "libonnxruntime_providers_cuda.so" for CUDA, ..._tensorrt.so; NULL else. */
const char *ortkit__gpu_library(const char *ort_name);

#endif
