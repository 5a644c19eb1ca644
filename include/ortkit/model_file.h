/*
 * ortkit/model_file.h - what a model file says about itself, read without a
 * runtime.
 *
 * Part of the stable API; programs include <ortkit.h>.
 */
#ifndef ORTKIT_INCLUDE_MODEL_FILE_H
#define ORTKIT_INCLUDE_MODEL_FILE_H

#include "ortkit/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An element of an array the caller indexes: its layout is fixed. */
typedef struct ortkit_opset {
    const char *domain; /* "" is the default ONNX domain */
    int64_t version;
} ortkit_opset;

/* Library-allocated: later versions may add fields at the end. */
typedef struct ortkit_model_file {
    int64_t ir_version;
    size_t opset_count;
    const ortkit_opset *opsets;
    size_t node_count;        /* nodes of the main graph */
    size_t initializer_count; /* initialisers of the main graph */
} ortkit_model_file;

/* Decode a model file's header: IR version, operator sets, graph size. */
ORTKIT_API int ortkit_model_file_read(ortkit_model_file **out, const char *path);
ORTKIT_API void ortkit_model_file_free(ortkit_model_file *model);

#ifdef __cplusplus
}
#endif

#endif /* ORTKIT_INCLUDE_MODEL_FILE_H */
