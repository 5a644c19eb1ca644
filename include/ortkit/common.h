/*
 * ortkit/common.h - what every part of ortkit's API shares: the version, the
 * export macro, status codes and the last error, element types, and how the
 * library's memory goes back to it.
 *
 * Part of the stable API; programs include <ortkit.h>.
 */
#ifndef ORTKIT_INCLUDE_COMMON_H
#define ORTKIT_INCLUDE_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ORTKIT_VERSION_MAJOR 0
#define ORTKIT_VERSION_MINOR 1
#define ORTKIT_VERSION_PATCH 0
#define ORTKIT_VERSION_STRING "0.1.0"
#define ORTKIT_VERSION_NUMBER \
    (ORTKIT_VERSION_MAJOR * 10000 + ORTKIT_VERSION_MINOR * 100 + ORTKIT_VERSION_PATCH)

/* Marks what libortkit exports; everything else in it is hidden. */
#if defined(ORTKIT_BUILDING) && defined(__GNUC__)
#define ORTKIT_API __attribute__((visibility("default")))
#else
#define ORTKIT_API
#endif

/* ------------------------------------------------------------------------
 * Errors
 * ---------------------------------------------------------------------- */

/* Return codes.  This list only ever grows at the end. */
typedef enum ortkit_status {
    ORTKIT_OK = 0,
    ORTKIT_E_INVALID_ARG = -1,       /* a NULL handle, a bad option value */
    ORTKIT_E_NOMEM = -2,             /* out of memory */
    ORTKIT_E_IO = -3,                /* a file is missing, unreadable or unwritable */
    ORTKIT_E_RUNTIME_NOT_FOUND = -4, /* no ONNX Runtime library was found */
    ORTKIT_E_RUNTIME_INVALID = -5,   /* not a library, or not ONNX Runtime */
    ORTKIT_E_RUNTIME_TOO_OLD = -6,   /* older than ORTKIT_MIN_ORT_API */
    ORTKIT_E_MODEL = -7,             /* the model is not valid ONNX, or ORT refuses it */
    ORTKIT_E_PROVIDER = -8,          /* an execution provider could not be added */
    ORTKIT_E_SHAPE = -9,             /* a tensor's type or shape does not fit */
    ORTKIT_E_NAME = -10,             /* unknown, missing or repeated input/output name */
    ORTKIT_E_RUN = -11,              /* ORT failed while running the model */
    ORTKIT_E_CANCELLED = -12,        /* the run was cancelled */
    ORTKIT_E_FORMAT = -13,           /* a malformed file (.npy, JSON, ...) */
    ORTKIT_E_UNSUPPORTED = -14,      /* valid, but not supported by ortkit or this runtime */
    ORTKIT_E_ORT = -15               /* any other error reported by ORT */
} ortkit_status;

/* The message of the last failure on this thread; never NULL ("" before any). */
ORTKIT_API const char *ortkit_error_last(void);
/* The code of the last failure on this thread (ORTKIT_OK before any). */
ORTKIT_API int ortkit_error_code(void);
/* A short constant name for a code: "ORTKIT_E_IO". */
ORTKIT_API const char *ortkit_status_name(int code);

/* ortkit's own version string, "0.1.0". */
ORTKIT_API const char *ortkit_version(void);

/* Free memory the library handed over as a plain buffer (the text of
 * ortkit_host_to_json); NULL does nothing.  Never free() it yourself: the
 * library and the program may not share an allocator. */
ORTKIT_API void ortkit_free(void *ptr);

/* ------------------------------------------------------------------------
 * Element types (numbered as ONNX's TensorProto.DataType)
 * ---------------------------------------------------------------------- */

typedef enum ortkit_type {
    ORTKIT_TYPE_UNDEFINED = 0,
    ORTKIT_TYPE_FLOAT32 = 1,
    ORTKIT_TYPE_UINT8 = 2,
    ORTKIT_TYPE_INT8 = 3,
    ORTKIT_TYPE_UINT16 = 4,
    ORTKIT_TYPE_INT16 = 5,
    ORTKIT_TYPE_INT32 = 6,
    ORTKIT_TYPE_INT64 = 7,
    ORTKIT_TYPE_STRING = 8,
    ORTKIT_TYPE_BOOL = 9,
    ORTKIT_TYPE_FLOAT16 = 10,   /* raw IEEE half, 16 bits */
    ORTKIT_TYPE_FLOAT64 = 11,
    ORTKIT_TYPE_UINT32 = 12,
    ORTKIT_TYPE_UINT64 = 13,
    ORTKIT_TYPE_COMPLEX64 = 14,
    ORTKIT_TYPE_COMPLEX128 = 15,
    ORTKIT_TYPE_BFLOAT16 = 16,  /* raw bfloat16, 16 bits */
    ORTKIT_TYPE_FLOAT8E4M3FN = 17,
    ORTKIT_TYPE_FLOAT8E4M3FNUZ = 18,
    ORTKIT_TYPE_FLOAT8E5M2 = 19,
    ORTKIT_TYPE_FLOAT8E5M2FNUZ = 20,
    ORTKIT_TYPE_UINT4 = 21,     /* two per byte, low nibble first */
    ORTKIT_TYPE_INT4 = 22
} ortkit_type;

/* "float32", "int64", "bfloat16", ...; "undefined" for unknown values. */
ORTKIT_API const char *ortkit_type_name(ortkit_type type);
/* Parse a name from ortkit_type_name (also "float", "double", "half"). */
ORTKIT_API ortkit_type ortkit_type_from_name(const char *name);
/* Bits per element: 4, 8, 16, 32, 64, 128; 0 for strings and undefined. */
ORTKIT_API size_t ortkit_type_bits(ortkit_type type);

#ifdef __cplusplus
}
#endif

#endif /* ORTKIT_INCLUDE_COMMON_H */
