/* tensor.c - typed values with shapes; owned, borrowed or wrapping ORT memory. */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
    const char *name;
    unsigned bits;
} type_table[] = {
    [ORTKIT_TYPE_UNDEFINED] = {"undefined", 0},   [ORTKIT_TYPE_FLOAT32] = {"float32", 32},
    [ORTKIT_TYPE_UINT8] = {"uint8", 8},           [ORTKIT_TYPE_INT8] = {"int8", 8},
    [ORTKIT_TYPE_UINT16] = {"uint16", 16},        [ORTKIT_TYPE_INT16] = {"int16", 16},
    [ORTKIT_TYPE_INT32] = {"int32", 32},          [ORTKIT_TYPE_INT64] = {"int64", 64},
    [ORTKIT_TYPE_STRING] = {"string", 0},         [ORTKIT_TYPE_BOOL] = {"bool", 8},
    [ORTKIT_TYPE_FLOAT16] = {"float16", 16},      [ORTKIT_TYPE_FLOAT64] = {"float64", 64},
    [ORTKIT_TYPE_UINT32] = {"uint32", 32},        [ORTKIT_TYPE_UINT64] = {"uint64", 64},
    [ORTKIT_TYPE_COMPLEX64] = {"complex64", 64},  [ORTKIT_TYPE_COMPLEX128] = {"complex128", 128},
    [ORTKIT_TYPE_BFLOAT16] = {"bfloat16", 16},    [ORTKIT_TYPE_FLOAT8E4M3FN] = {"float8e4m3fn", 8},
    [ORTKIT_TYPE_FLOAT8E4M3FNUZ] = {"float8e4m3fnuz", 8},
    [ORTKIT_TYPE_FLOAT8E5M2] = {"float8e5m2", 8}, [ORTKIT_TYPE_FLOAT8E5M2FNUZ] = {"float8e5m2fnuz", 8},
    [ORTKIT_TYPE_UINT4] = {"uint4", 4},           [ORTKIT_TYPE_INT4] = {"int4", 4},
};
#define TYPE_COUNT (sizeof type_table / sizeof type_table[0])

static int type_known(ortkit_type t) { return t > 0 && (size_t)t < TYPE_COUNT; }

const char *ortkit_type_name(ortkit_type type)
{
    return type_known(type) ? type_table[type].name : "undefined";
}

ortkit_type ortkit_type_from_name(const char *name)
{
    if (!name)
        return ORTKIT_TYPE_UNDEFINED;
    static const struct {
        const char *alias;
        ortkit_type type;
    } aliases[] = {{"float", ORTKIT_TYPE_FLOAT32}, {"double", ORTKIT_TYPE_FLOAT64},
                   {"half", ORTKIT_TYPE_FLOAT16},  {"f32", ORTKIT_TYPE_FLOAT32},
                   {"f64", ORTKIT_TYPE_FLOAT64},   {"f16", ORTKIT_TYPE_FLOAT16},
                   {"bf16", ORTKIT_TYPE_BFLOAT16}};
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (!strcasecmp(name, aliases[i].alias))
            return aliases[i].type;
    for (size_t t = 1; t < TYPE_COUNT; t++)
        if (!strcasecmp(name, type_table[t].name))
            return (ortkit_type)t;
    return ORTKIT_TYPE_UNDEFINED;
}

size_t ortkit_type_bits(ortkit_type type) { return type_known(type) ? type_table[type].bits : 0; }

size_t ortkit__shape_count(const int64_t *shape, size_t rank)
{
    size_t count = 1;
    for (size_t i = 0; i < rank; i++) {
        if (shape[i] < 0)
            return SIZE_MAX;
        if (__builtin_mul_overflow(count, (size_t)shape[i], &count) || (uint64_t)shape[i] > SIZE_MAX)
            return SIZE_MAX;
    }
    return count;
}

size_t ortkit__type_nbytes(ortkit_type type, size_t count)
{
    size_t bits = ortkit_type_bits(type);
    if (bits == 4)
        return count / 2 + count % 2;
    size_t bytes;
    if (__builtin_mul_overflow(count, bits / 8, &bytes))
        return SIZE_MAX;
    return bytes;
}

/* Check type and shape; on failure the message says what was expected, and what came. */
static int shape_check(ortkit_type type, const int64_t *shape, size_t rank)
{
    if (!type_known(type))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "unknown element type %d", (int)type);
    if (rank > ORTKIT_MAX_RANK)
        return ortkit__error_set(ORTKIT_E_SHAPE, "rank %zu is above ortkit's limit of %d", rank,
                                 ORTKIT_MAX_RANK);
    if (rank > 0 && !shape)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "shape is NULL for rank %zu", rank);
    for (size_t i = 0; i < rank; i++)
        if (shape[i] < 0)
            return ortkit__error_set(ORTKIT_E_SHAPE, "dimension %zu is negative (%lld)", i,
                                     (long long)shape[i]);
    size_t count = ortkit__shape_count(shape, rank);
    if (count == SIZE_MAX || ortkit__type_nbytes(type, count) == SIZE_MAX)
        return ortkit__error_set(ORTKIT_E_SHAPE, "shape is too large to address");
    return ORTKIT_OK;
}

static int tensor_alloc(ortkit_tensor **out, ortkit_type type, const int64_t *shape, size_t rank)
{
    *out = NULL;
    int rc = shape_check(type, shape, rank);
    if (rc)
        return rc;
    ortkit_tensor *t = calloc(1, sizeof *t);
    if (!t)
        return ortkit__error_nomem();
    t->type = type;
    t->rank = rank;
    if (rank)
        memcpy(t->shape, shape, rank * sizeof shape[0]);
    t->count = ortkit__shape_count(shape, rank);
    t->nbytes = type == ORTKIT_TYPE_STRING ? 0 : ortkit__type_nbytes(type, t->count);
    *out = t;
    return ORTKIT_OK;
}

int ortkit_tensor_new(ortkit_tensor **out, ortkit_type type, const int64_t *shape, size_t rank)
{
    if (!out)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_tensor_new: out is NULL");
    int rc = tensor_alloc(out, type, shape, rank);
    if (rc)
        return rc;
    ortkit_tensor *t = *out;
    t->storage = ORTKIT__OWNED;
    if (type == ORTKIT_TYPE_STRING) {
        t->strings = calloc(t->count ? t->count : 1, sizeof *t->strings);
        if (!t->strings)
            goto nomem;
        for (size_t i = 0; i < t->count; i++)
            if (!(t->strings[i] = calloc(1, 1)))
                goto nomem;
    } else {
        /* At least one byte so data is never NULL, even for empty tensors. */
        t->data = calloc(t->nbytes ? t->nbytes : 1, 1);
        if (!t->data)
            goto nomem;
    }
    return ORTKIT_OK;
nomem:;
    size_t wanted = type == ORTKIT_TYPE_STRING ? t->count * sizeof *t->strings : t->nbytes;
    ortkit_tensor_free(t);
    *out = NULL;
    return ortkit__error_nomem_size(wanted);
}

int ortkit_tensor_borrow(ortkit_tensor **out, ortkit_type type, const int64_t *shape, size_t rank,
                         void *data, size_t nbytes)
{
    if (!out)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_tensor_borrow: out is NULL");
    *out = NULL;
    if (type == ORTKIT_TYPE_STRING)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED,
                                 "string tensors cannot be borrowed; use ortkit_tensor_new_strings");
    int rc = tensor_alloc(out, type, shape, rank);
    if (rc)
        return rc;
    ortkit_tensor *t = *out;
    if (nbytes != t->nbytes || (!data && nbytes)) {
        char desc[128];
        ortkit_tensor_describe(t, desc, sizeof desc);
        free(t);
        *out = NULL;
        return ortkit__error_set(ORTKIT_E_SHAPE, "%s needs %zu bytes of data, got %zu", desc,
                                 ortkit__type_nbytes(type, ortkit__shape_count(shape, rank)), nbytes);
    }
    t->storage = ORTKIT__BORROWED;
    t->data = data;
    return ORTKIT_OK;
}

int ortkit__tensor_wrap(ortkit_tensor **out, ortkit_type type, const int64_t *shape, size_t rank,
                        void *data, void (*release)(void *ctx), void *ctx)
{
    int rc = tensor_alloc(out, type, shape, rank);
    if (rc)
        return rc;
    (*out)->storage = ORTKIT__EXTERNAL;
    (*out)->data = data;
    (*out)->release = release;
    (*out)->release_ctx = ctx;
    return ORTKIT_OK;
}

int ortkit_tensor_new_strings(ortkit_tensor **out, const int64_t *shape, size_t rank,
                              const char *const *strings)
{
    int rc = ortkit_tensor_new(out, ORTKIT_TYPE_STRING, shape, rank);
    if (rc || !strings)
        return rc;
    for (size_t i = 0; i < (*out)->count; i++) {
        rc = ortkit_tensor_set_string(*out, i, strings[i]);
        if (rc) {
            ortkit_tensor_free(*out);
            *out = NULL;
            return rc;
        }
    }
    return ORTKIT_OK;
}

void ortkit_tensor_free(ortkit_tensor *t)
{
    if (!t)
        return;
    ortkit__value_cache *cache = atomic_load(&t->cache);
    if (cache)
        cache->release(cache);
    if (t->strings) {
        for (size_t i = 0; i < t->count; i++)
            free(t->strings[i]);
        free(t->strings);
    }
    if (t->storage == ORTKIT__OWNED)
        free(t->data);
    else if (t->storage == ORTKIT__EXTERNAL && t->release)
        t->release(t->release_ctx);
    free(t);
}

ortkit_type ortkit_tensor_type(const ortkit_tensor *t) { return t ? t->type : ORTKIT_TYPE_UNDEFINED; }
size_t ortkit_tensor_rank(const ortkit_tensor *t) { return t ? t->rank : 0; }
const int64_t *ortkit_tensor_shape(const ortkit_tensor *t) { return t ? t->shape : NULL; }
size_t ortkit_tensor_count(const ortkit_tensor *t) { return t ? t->count : 0; }
size_t ortkit_tensor_nbytes(const ortkit_tensor *t) { return t ? t->nbytes : 0; }
void *ortkit_tensor_data(const ortkit_tensor *t) { return t ? t->data : NULL; }

const char *ortkit_tensor_string(const ortkit_tensor *t, size_t i)
{
    if (!t || !t->strings || i >= t->count)
        return NULL;
    return t->strings[i];
}

int ortkit_tensor_set_string(ortkit_tensor *t, size_t i, const char *value)
{
    if (!t || !t->strings)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "not a string tensor");
    if (i >= t->count)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "string index %zu is past the end (%zu)", i,
                                 t->count);
    char *copy = ortkit__strdup(value);
    if (!copy)
        return ORTKIT_E_NOMEM;
    free(t->strings[i]);
    t->strings[i] = copy;
    return ORTKIT_OK;
}

static void describe(char *buf, size_t size, const char *type, const int64_t *shape, size_t rank)
{
    if (!size)
        return;
    size_t n = (size_t)snprintf(buf, size, "%s[", type);
    for (size_t i = 0; i < rank && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%lld", i ? "," : "", (long long)shape[i]);
    if (n < size)
        snprintf(buf + n, size - n, "]");
}

void ortkit_tensor_describe(const ortkit_tensor *t, char *buf, size_t size)
{
    if (!t) {
        if (size)
            snprintf(buf, size, "(null)");
        return;
    }
    describe(buf, size, ortkit_type_name(t->type), t->shape, t->rank);
}
