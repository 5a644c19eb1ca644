/*
 * value.c - ONNX values of every kind (tensors, sequences, maps, optionals)
 * as trees of tensors, and their types.  Nothing here knows the runtime:
 * run/run_values.c turns them into ORT values and back.
 */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- types ------------------------------------------------------------ */

static const char *const kind_words[] = {"?", "", "sequence", "map", "optional", "sparse"};

static const char *kind_word(ortkit_value_kind k)
{
    return (unsigned)k <= ORTKIT_KIND_SPARSE_TENSOR ? kind_words[k] : kind_words[0];
}

/* Appends to buf at *n, never past size. */
static void put(char *buf, size_t size, size_t *n, const char *text)
{
    if (*n >= size)
        return;
    int w = snprintf(buf + *n, size - *n, "%s", text);
    *n += w > 0 ? (size_t)w : 0;
}

static void type_text(const ortkit_value_type *t, char *buf, size_t size, size_t *n, int depth)
{
    if (!t || depth > 64) {
        put(buf, size, n, "?");
        return;
    }
    switch (t->kind) {
    case ORTKIT_KIND_TENSOR:
        put(buf, size, n, t->elem ? ortkit_type_name(t->elem) : "?");
        return;
    case ORTKIT_KIND_MAP:
        put(buf, size, n, "map<");
        put(buf, size, n, t->key ? ortkit_type_name(t->key) : "?");
        put(buf, size, n, ",");
        type_text(t->inner, buf, size, n, depth + 1);
        put(buf, size, n, ">");
        return;
    case ORTKIT_KIND_SEQUENCE:
    case ORTKIT_KIND_OPTIONAL:
    case ORTKIT_KIND_SPARSE_TENSOR:
        put(buf, size, n, kind_word(t->kind));
        put(buf, size, n, "<");
        if (t->kind == ORTKIT_KIND_SPARSE_TENSOR)
            put(buf, size, n, t->elem ? ortkit_type_name(t->elem) : "?");
        else
            type_text(t->inner, buf, size, n, depth + 1);
        put(buf, size, n, ">");
        return;
    default:
        put(buf, size, n, "unknown");
    }
}

void ortkit_value_type_describe(const ortkit_value_type *type, char *buf, size_t size)
{
    if (!size)
        return;
    size_t n = 0;
    buf[0] = '\0';
    type_text(type, buf, size, &n, 0);
}

int ortkit__value_type_fits(const ortkit_value_type *want, const ortkit_value_type *given)
{
    if (!want || !given || want->kind == ORTKIT_KIND_UNKNOWN)
        return 1;
    if (want->kind == ORTKIT_KIND_OPTIONAL) {
        if (given->kind == ORTKIT_KIND_OPTIONAL)
            return ortkit__value_type_fits(want->inner, given->inner);
        return ortkit__value_type_fits(want->inner, given);
    }
    if (want->kind != given->kind)
        return 0;
    switch (want->kind) {
    case ORTKIT_KIND_TENSOR:
    case ORTKIT_KIND_SPARSE_TENSOR:
        return !want->elem || !given->elem || want->elem == given->elem;
    case ORTKIT_KIND_MAP:
        if (want->key && given->key && want->key != given->key)
            return 0;
        return ortkit__value_type_fits(want->inner, given->inner);
    case ORTKIT_KIND_SEQUENCE:
        return ortkit__value_type_fits(want->inner, given->inner);
    default:
        return 1;
    }
}

/* Exactly the same type, unknown parts equal only to unknown ones: what the
 * elements of one sequence must share. */
static int type_same(const ortkit_value_type *a, const ortkit_value_type *b)
{
    if (!a || !b)
        return a == b;
    return a->kind == b->kind && a->elem == b->elem && a->key == b->key &&
           type_same(a->inner, b->inner);
}

void ortkit__value_type_free(ortkit_value_type *t)
{
    while (t) {
        ortkit_value_type *inner = (ortkit_value_type *)t->inner;
        free(t);
        t = inner;
    }
}

ortkit_value_type *ortkit__value_type_copy(const ortkit_value_type *t)
{
    ortkit_value_type *head = NULL, **tail = &head;
    for (; t; t = t->inner) {
        ortkit_value_type *c = malloc(sizeof *c);
        if (!c) {
            ortkit__value_type_free(head);
            return NULL;
        }
        *c = *t;
        c->inner = NULL;
        *tail = c;
        tail = (ortkit_value_type **)&c->inner;
    }
    return head;
}

/* ---- values ----------------------------------------------------------- */

static ortkit_value *value_alloc(ortkit_value_kind kind)
{
    ortkit_value *v = calloc(1, sizeof *v);
    if (v)
        v->type.kind = kind;
    return v;
}

int ortkit_value_new_tensor(ortkit_value **out, ortkit_tensor *tensor)
{
    if (!out || !tensor)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_value_new_tensor: NULL argument");
    *out = value_alloc(ORTKIT_KIND_TENSOR);
    if (!*out)
        return ortkit__error_nomem();
    (*out)->tensor = tensor;
    (*out)->type.elem = tensor->type;
    return ORTKIT_OK;
}

int ortkit_value_new_sequence(ortkit_value **out, ortkit_value *const *items, size_t n)
{
    if (!out || (n && !items))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_value_new_sequence: NULL argument");
    *out = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!items[i])
            return ortkit__error_set(ORTKIT_E_INVALID_ARG, "sequence element %zu is NULL", i);
        ortkit_value_kind k = items[i]->type.kind;
        if (k != ORTKIT_KIND_TENSOR && k != ORTKIT_KIND_MAP)
            return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "sequence element %zu is %s value; a "
                                     "sequence holds tensors or maps", i,
                                     k == ORTKIT_KIND_SEQUENCE ? "a sequence" : "an optional");
        if (!type_same(&items[0]->type, &items[i]->type)) {
            char first[128], other[128];
            ortkit_value_type_describe(&items[0]->type, first, sizeof first);
            ortkit_value_type_describe(&items[i]->type, other, sizeof other);
            return ortkit__error_set(ORTKIT_E_SHAPE, "sequence element %zu is %s, element 0 is %s: "
                                     "the elements of a sequence have one type", i, other, first);
        }
    }
    ortkit_value *v = value_alloc(ORTKIT_KIND_SEQUENCE);
    if (!v || !(v->items = malloc((n ? n : 1) * sizeof *v->items))) {
        free(v);
        return ortkit__error_nomem();
    }
    if (n)
        memcpy(v->items, items, n * sizeof *items);
    v->count = n;
    v->type.inner = n ? &items[0]->type : NULL;
    *out = v;
    return ORTKIT_OK;
}

static int cmp_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int cmp_string(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Keys in increasing order are unique: the common case (every map the
 * runtime returns is a std::map), checked without sorting a copy. */
static int keys_increasing(const ortkit_tensor *keys, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (keys->type == ORTKIT_TYPE_STRING ? strcmp(keys->strings[i - 1], keys->strings[i]) >= 0
                                              : ((const int64_t *)keys->data)[i - 1] >=
                                                    ((const int64_t *)keys->data)[i])
            return 0;
    return 1;
}

/* Keys must be unique: ORT keeps a map as std::map and would drop repeats. */
static int keys_check(const ortkit_tensor *keys, size_t n)
{
    if (keys_increasing(keys, n))
        return ORTKIT_OK;
    int strings = keys->type == ORTKIT_TYPE_STRING;
    size_t width = strings ? sizeof(char *) : sizeof(int64_t);
    unsigned char *sorted = malloc(n ? n * width : 1);
    if (!sorted)
        return ortkit__error_nomem_size(n * width);
    memcpy(sorted, strings ? (const void *)keys->strings : keys->data, n * width);
    qsort(sorted, n, width, strings ? cmp_string : cmp_int64);
    int rc = ORTKIT_OK;
    for (size_t i = 1; i < n && !rc; i++) {
        const void *a = sorted + (i - 1) * width, *b = sorted + i * width;
        if (strings && !cmp_string(a, b))
            rc = ortkit__error_set(ORTKIT_E_SHAPE, "map key '%s' is given twice",
                                   *(const char *const *)b);
        else if (!strings && !cmp_int64(a, b))
            rc = ortkit__error_set(ORTKIT_E_SHAPE, "map key %lld is given twice",
                                   (long long)*(const int64_t *)b);
    }
    free(sorted);
    return rc;
}

int ortkit_value_new_map(ortkit_value **out, ortkit_tensor *keys, ortkit_tensor *values)
{
    if (!out || !keys || !values)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_value_new_map: NULL argument");
    *out = NULL;
    if (keys->type != ORTKIT_TYPE_INT64 && keys->type != ORTKIT_TYPE_STRING)
        return ortkit__error_set(ORTKIT_E_SHAPE, "map keys are %s; a map's keys are int64 or "
                                 "string", ortkit_type_name(keys->type));
    if (keys->rank != 1 || values->rank != 1 || keys->count != values->count) {
        char k[128], v[128];
        ortkit_tensor_describe(keys, k, sizeof k);
        ortkit_tensor_describe(values, v, sizeof v);
        return ortkit__error_set(ORTKIT_E_SHAPE, "map keys %s and values %s: both must be 1-D "
                                 "and of the same length", k, v);
    }
    int rc = keys_check(keys, keys->count);
    if (rc)
        return rc;
    ortkit_value *v = value_alloc(ORTKIT_KIND_MAP);
    if (!v)
        return ortkit__error_nomem();
    v->keys = keys;
    v->values = values;
    v->count = keys->count;
    v->type.key = keys->type;
    v->map_values.kind = ORTKIT_KIND_TENSOR;
    v->map_values.elem = values->type;
    v->type.inner = &v->map_values;
    *out = v;
    return ORTKIT_OK;
}

int ortkit_value_new_optional(ortkit_value **out, ortkit_value *item)
{
    if (!out)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_value_new_optional: out is NULL");
    ortkit_value *v = *out = value_alloc(ORTKIT_KIND_OPTIONAL);
    if (!v || !(v->items = malloc(sizeof *v->items))) {
        free(v);
        *out = NULL;
        return ortkit__error_nomem();
    }
    v->items[0] = item;
    v->count = item != NULL;
    v->type.inner = item ? &item->type : NULL;
    return ORTKIT_OK;
}

int ortkit__value_set_inner(ortkit_value *v, const ortkit_value_type *inner)
{
    if (v->count || !inner || v->own_inner)
        return ORTKIT_OK;
    if (!(v->own_inner = ortkit__value_type_copy(inner)))
        return ortkit__error_nomem();
    v->type.inner = v->own_inner;
    return ORTKIT_OK;
}

void ortkit_value_free(ortkit_value *v)
{
    if (!v)
        return;
    ortkit__value_cache *cache = atomic_load(&v->cache);
    if (cache)
        cache->release(cache);
    for (size_t i = 0; i < v->count && v->items; i++)
        ortkit_value_free(v->items[i]);
    free(v->items);
    ortkit_tensor_free(v->tensor);
    ortkit_tensor_free(v->keys);
    ortkit_tensor_free(v->values);
    ortkit__value_type_free(v->own_inner);
    free(v);
}

ortkit_value_kind ortkit_value_kind_of(const ortkit_value *v)
{
    return v ? v->type.kind : ORTKIT_KIND_UNKNOWN;
}

const ortkit_value_type *ortkit_value_type_of(const ortkit_value *v) { return v ? &v->type : NULL; }
const ortkit_tensor *ortkit_value_tensor(const ortkit_value *v) { return v ? v->tensor : NULL; }
const ortkit_tensor *ortkit_value_map_keys(const ortkit_value *v) { return v ? v->keys : NULL; }
const ortkit_tensor *ortkit_value_map_values(const ortkit_value *v) { return v ? v->values : NULL; }

size_t ortkit_value_count(const ortkit_value *v)
{
    return v && v->type.kind != ORTKIT_KIND_TENSOR ? v->count : 0;
}

const ortkit_value *ortkit_value_item(const ortkit_value *v, size_t i)
{
    if (!v || !v->items || i >= v->count)
        return NULL;
    return v->items[i];
}

static void value_text(const ortkit_value *v, char *buf, size_t size, size_t *n, int depth)
{
    char part[160];
    if (depth > 64) {
        put(buf, size, n, "...");
        return;
    }
    switch (v->type.kind) {
    case ORTKIT_KIND_TENSOR:
        ortkit_tensor_describe(v->tensor, part, sizeof part);
        put(buf, size, n, part);
        return;
    case ORTKIT_KIND_OPTIONAL:
        put(buf, size, n, "optional<");
        if (v->count)
            value_text(v->items[0], buf, size, n, depth + 1);
        else
            put(buf, size, n, "none");
        put(buf, size, n, ">");
        return;
    default:
        type_text(&v->type, buf, size, n, 0);
        snprintf(part, sizeof part, v->type.kind == ORTKIT_KIND_MAP ? "{%zu}" : "(%zu)", v->count);
        put(buf, size, n, part);
    }
}

void ortkit_value_describe(const ortkit_value *v, char *buf, size_t size)
{
    if (!size)
        return;
    size_t n = 0;
    buf[0] = '\0';
    if (!v)
        put(buf, size, &n, "(null)");
    else
        value_text(v, buf, size, &n, 0);
}
