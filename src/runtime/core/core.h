/*
 * core.h - what ortkit's modules share; not installed.  Internal
 * non-static functions are named ortkit__<module>_<verb>.  The helpers that
 * are not about ONNX Runtime (errors, files, paths, spawning programs, ...)
 * are src/util's, declared in util.h.
 */
#ifndef ORTKIT_CORE_H
#define ORTKIT_CORE_H

#include "ortkit.h"
#include "util.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>

/*
 * ONNX Runtime's library by name, the one list: the development link, then
 * the SONAME.  Each user says its own order: a directory is searched in this
 * one (ort_library.c: a build's development link names the file it
 * installed), the system's library paths the other way round (loader.c:
 * every installed runtime has its SONAME, not always the link).
 */
#define ORTKIT__ORT_LIB_DEVLINK "libonnxruntime.so"
#define ORTKIT__ORT_LIB_SONAME "libonnxruntime.so.1"
#define ORTKIT__ORT_LIB_NAMES {ORTKIT__ORT_LIB_DEVLINK, ORTKIT__ORT_LIB_SONAME}

/* Element count of a shape, or SIZE_MAX on a negative dimension or overflow. */
size_t ortkit__shape_count(const int64_t *shape, size_t rank);
/* Bytes for count elements of type (4-bit types round up); SIZE_MAX on overflow. */
size_t ortkit__type_nbytes(ortkit_type type, size_t count);

/* ---- tensors ---------------------------------------------------------- */

/* An ORT value made for a tensor, kept so later runs need not make it again.
 * owner is the OrtApi it belongs to: a value is only reused by the same runtime. */
typedef struct ortkit__value_cache {
    const void *owner;
    void *value;
    void (*release)(struct ortkit__value_cache *cache);
} ortkit__value_cache;

typedef enum ortkit__storage {
    ORTKIT__OWNED,    /* data is ours (malloc) */
    ORTKIT__BORROWED, /* data is the caller's */
    ORTKIT__EXTERNAL  /* data belongs to release_ctx, freed through release */
} ortkit__storage;

struct ortkit_tensor {
    ortkit_type type;
    size_t rank;
    int64_t shape[ORTKIT_MAX_RANK];
    size_t count;
    size_t nbytes;
    void *data;
    char **strings; /* string tensors: count strings, each malloc'd */
    ortkit__storage storage;
    void (*release)(void *ctx);
    void *release_ctx;
    ortkit__value_cache *_Atomic cache; /* set once, by whichever run gets there first */
};

/* A tensor whose data lives in an external object (an ORT output). */
int ortkit__tensor_wrap(ortkit_tensor **out, ortkit_type type, const int64_t *shape, size_t rank,
                        void *data, void (*release)(void *ctx), void *ctx);

/* ---- values (value.c) -------------------------------------------------- */

struct ortkit_value {
    ortkit_value_type type;      /* inner points into the items' types, or to own_inner */
    ortkit_value_type map_values; /* MAP: the values' type, which type.inner points to */
    ortkit_tensor *tensor;       /* TENSOR */
    ortkit_value **items;        /* SEQUENCE: count elements; OPTIONAL: 0 or 1 */
    size_t count;
    ortkit_tensor *keys, *values; /* MAP */
    ortkit_value_type *own_inner; /* an empty sequence's or optional's declared type */
    /* The runtime's value for this one, made on its first run (sequences of
     * tensors only: the runtime shares their elements' memory). */
    ortkit__value_cache *_Atomic cache;
};

/* Whether a value of type given can stand where type want is declared:
 * unknown parts fit anything, and an optional takes its contained type. */
int ortkit__value_type_fits(const ortkit_value_type *want, const ortkit_value_type *given);
/* Deep copy and free of a type tree allocated by the library. */
ortkit_value_type *ortkit__value_type_copy(const ortkit_value_type *type);
void ortkit__value_type_free(ortkit_value_type *type);
/* Give an empty sequence or an empty optional the inner type its model
 * declares (a copy), so that it still says what it would hold. */
int ortkit__value_set_inner(ortkit_value *value, const ortkit_value_type *inner);

#endif
