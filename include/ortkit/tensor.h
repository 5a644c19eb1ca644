/*
 * ortkit/tensor.h - tensors, and .npy files.
 *
 * A tensor is plain memory plus a type and a shape; it does not depend on a
 * runtime.  A borrowed tensor points at the caller's memory, which must stay
 * valid while the tensor is in use; outputs of a run are owned tensors.
 *
 * Part of the stable API; programs include <ortkit.h>.
 */
#ifndef ORTKIT_INCLUDE_TENSOR_H
#define ORTKIT_INCLUDE_TENSOR_H

#include "ortkit/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ORTKIT_MAX_RANK 32

typedef struct ortkit_tensor ortkit_tensor;

/* A new zero-filled tensor.  Strings start empty. */
ORTKIT_API int ortkit_tensor_new(ortkit_tensor **out, ortkit_type type,
                                 const int64_t *shape, size_t rank);
/* A tensor over the caller's data, without copying; nbytes must match. */
ORTKIT_API int ortkit_tensor_borrow(ortkit_tensor **out, ortkit_type type,
                                    const int64_t *shape, size_t rank,
                                    void *data, size_t nbytes);
/* A string tensor holding copies of the NUL-terminated strings. */
ORTKIT_API int ortkit_tensor_new_strings(ortkit_tensor **out, const int64_t *shape,
                                         size_t rank, const char *const *strings);
ORTKIT_API void ortkit_tensor_free(ortkit_tensor *tensor);

ORTKIT_API ortkit_type ortkit_tensor_type(const ortkit_tensor *tensor);
ORTKIT_API size_t ortkit_tensor_rank(const ortkit_tensor *tensor);
ORTKIT_API const int64_t *ortkit_tensor_shape(const ortkit_tensor *tensor);
/* Number of elements (product of the shape; 1 for a scalar). */
ORTKIT_API size_t ortkit_tensor_count(const ortkit_tensor *tensor);
/* Bytes of element data; 0 for strings. */
ORTKIT_API size_t ortkit_tensor_nbytes(const ortkit_tensor *tensor);
/* The element data; NULL for strings. */
ORTKIT_API void *ortkit_tensor_data(const ortkit_tensor *tensor);
/* Element i of a string tensor (NUL-terminated), or NULL. */
ORTKIT_API const char *ortkit_tensor_string(const ortkit_tensor *tensor, size_t i);
/* Replace element i of a string tensor with a copy of value. */
ORTKIT_API int ortkit_tensor_set_string(ortkit_tensor *tensor, size_t i, const char *value);
/* Write "float32[1,3,224,224]" into buf (always NUL-terminated). */
ORTKIT_API void ortkit_tensor_describe(const ortkit_tensor *tensor, char *buf, size_t size);

/* .npy files (format versions 1.0 to 3.0, little-endian, C order). */
ORTKIT_API int ortkit_npy_read(ortkit_tensor **out, const char *path);
/* Parse an in-memory .npy image. */
ORTKIT_API int ortkit_npy_parse(ortkit_tensor **out, const void *data, size_t size);
/* Write atomically: a temporary file renamed into place. */
ORTKIT_API int ortkit_npy_write(const char *path, const ortkit_tensor *tensor);

#ifdef __cplusplus
}
#endif

#endif /* ORTKIT_INCLUDE_TENSOR_H */
