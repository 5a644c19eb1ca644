/*
 * ort_library.h - what an ONNX Runtime library is, read from its file
 * without loading it (ort_library.c); not installed.
 */
#ifndef ORTKIT_ORT_LIBRARY_H
#define ORTKIT_ORT_LIBRARY_H

#include "core.h"

/*
 * The ONNX Runtime library in dir itself (not below it): libonnxruntime.so,
 * else libonnxruntime.so.1, else the first libonnxruntime.so.* the
 * directory lists.  name (name_size bytes) gets its name in dir.  1 when
 * found, 0 when not (a name too long for a path is not there).  Only a
 * regular file counts, after following a link: see ort_library.c.  When
 * something under those names was passed over and passed (may be NULL)
 * is still "", it says what and why, for the caller's message: "passed
 * over 'DIR/libonnxruntime.so': it is a FIFO (named pipe), not a regular
 * file".
 */
int ortkit__ort_library_in_dir(char *name, size_t name_size, const char *dir, char *passed,
                               size_t passed_size);

typedef struct ortkit__ort_version {
    char version[64];  /* "1.30.0" */
    char from[160];    /* how it was learnt: "its file name and its read-only data" */
} ortkit__ort_version;

/* The ONNX Runtime version of the library at path (resolved: its file name
 * counts), from its file name, its SONAME and the version string in its
 * read-only data, which must agree.  given (NULL: none) is the caller's
 * word, taken when the binary says nothing against it and refused
 * (ORTKIT_E_INVALID_ARG) when it does.  ORTKIT_E_FORMAT, asking for the
 * version, when the witnesses disagree or are silent. */
int ortkit__ort_version_read(ortkit__ort_version *out, const char *path, const char *soname,
                             const char *given);

/*
 * 1 when provider is a provider-bridge library (it exports GetProvider) and
 * core was built without CUDA (it does not export
 * OrtSessionOptionsAppendExecutionProvider_CUDA): the provider calls back
 * into the core for the CPU half of many kernels (If, Loop, Scan, Einsum,
 * GatherElements, Concat, NLLLoss: ORT's cpu_provider_shared), which only a
 * core built with CUDA has, so the pair loads, registers and runs simple
 * models, then crashes the process on the first such node.  0 otherwise,
 * or when either file's symbols cannot be read.
 */
int ortkit__bridge_lacks_cuda_core(const char *provider, const char *core);

#endif
