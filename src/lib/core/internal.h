/*
 * internal.h - helpers shared by ortkit's modules; not installed.
 * Internal non-static functions are named ortkit__<module>_<verb>.
 */
#ifndef ORTKIT_INTERNAL_H
#define ORTKIT_INTERNAL_H

#include "ortkit.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>

#if defined(__GNUC__)
#define ORTKIT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define ORTKIT_PRINTF(f, a)
#endif

/* Record a failure for ortkit_error_last() on this thread; returns code. */
int ortkit__error_set(int code, const char *fmt, ...) ORTKIT_PRINTF(2, 3);
/* Same, prefixing the message already recorded: "cannot open 'm.onnx': <old>". */
int ortkit__error_wrap(int code, const char *fmt, ...) ORTKIT_PRINTF(2, 3);
/* Record ORTKIT_E_NOMEM. */
int ortkit__error_nomem(void);

/* strdup that records ORTKIT_E_NOMEM on failure. */
char *ortkit__strdup(const char *s);

/* Read a whole file (at most max_size bytes); *out is malloc'd and NUL-terminated. */
int ortkit__file_read(char **out, size_t *size, const char *path, size_t max_size);
/* Write a whole file through a temporary name in the same directory, then rename. */
int ortkit__file_write_atomic(const char *path, const void *data, size_t size);

/* Run argv (argv[0] searched on PATH) without a shell (spawn.c); stdout (and
 * stderr when merge_stderr) are captured into *output (NUL-terminated, may be
 * NULL if not wanted), the exit status goes to *status (-1 if killed). */
int ortkit__spawn(const char *const *argv, int merge_stderr, char **output, int *status);

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

#endif
