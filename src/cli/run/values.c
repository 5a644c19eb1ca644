/* values.c - reading, generating and summarising tensor elements for the CLI. */
#include "values.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double half_to_double(uint16_t h)
{
    int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    double v;
    if (exp == 0)
        v = ldexp(mant, -24);
    else if (exp == 31)
        v = mant ? NAN : INFINITY;
    else
        v = ldexp(mant | 0x400, exp - 25);
    return sign ? -v : v;
}

static uint16_t float_to_half(float f)
{
    /* Good enough for generated inputs: round toward zero, no denormals. */
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    int exp = (int)((x >> 23) & 0xff) - 127 + 15;
    if (exp <= 0)
        return sign;
    if (exp >= 31)
        return sign | 0x7c00;
    return sign | (uint16_t)(exp << 10) | (uint16_t)((x >> 13) & 0x3ff);
}

int value_numeric(ortkit_type type)
{
    switch (type) {
    case ORTKIT_TYPE_FLOAT32: case ORTKIT_TYPE_FLOAT64: case ORTKIT_TYPE_FLOAT16:
    case ORTKIT_TYPE_BFLOAT16: case ORTKIT_TYPE_INT8: case ORTKIT_TYPE_UINT8:
    case ORTKIT_TYPE_INT16: case ORTKIT_TYPE_UINT16: case ORTKIT_TYPE_INT32:
    case ORTKIT_TYPE_UINT32: case ORTKIT_TYPE_INT64: case ORTKIT_TYPE_UINT64:
    case ORTKIT_TYPE_BOOL:
        return 1;
    default:
        return 0;
    }
}

double value_at(const ortkit_tensor *t, size_t i)
{
    const void *d = ortkit_tensor_data(t);
    switch (ortkit_tensor_type(t)) {
    case ORTKIT_TYPE_FLOAT32: return ((const float *)d)[i];
    case ORTKIT_TYPE_FLOAT64: return ((const double *)d)[i];
    case ORTKIT_TYPE_FLOAT16: return half_to_double(((const uint16_t *)d)[i]);
    case ORTKIT_TYPE_BFLOAT16: {
        uint32_t x = (uint32_t)((const uint16_t *)d)[i] << 16;
        float f;
        memcpy(&f, &x, sizeof f);
        return f;
    }
    case ORTKIT_TYPE_INT8: return ((const int8_t *)d)[i];
    case ORTKIT_TYPE_UINT8: case ORTKIT_TYPE_BOOL: return ((const uint8_t *)d)[i];
    case ORTKIT_TYPE_INT16: return ((const int16_t *)d)[i];
    case ORTKIT_TYPE_UINT16: return ((const uint16_t *)d)[i];
    case ORTKIT_TYPE_INT32: return ((const int32_t *)d)[i];
    case ORTKIT_TYPE_UINT32: return ((const uint32_t *)d)[i];
    case ORTKIT_TYPE_INT64: return (double)((const int64_t *)d)[i];
    case ORTKIT_TYPE_UINT64: return (double)((const uint64_t *)d)[i];
    default: return 0;
    }
}

/* xorshift: small, fast, and the same sequence everywhere for a seed. */
static double next_random(unsigned *state)
{
    unsigned x = *state ? *state : 0x9e3779b9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return (double)x / 4294967296.0;
}

static void fill_random(ortkit_tensor *t, unsigned *seed)
{
    void *d = ortkit_tensor_data(t);
    size_t n = ortkit_tensor_count(t);
    for (size_t i = 0; i < n; i++) {
        double r = next_random(seed);
        double f = r * 2 - 1;       /* floats: [-1, 1) */
        int64_t k = (int64_t)(r * 10); /* integers: 0..9, valid as small indices */
        switch (ortkit_tensor_type(t)) {
        case ORTKIT_TYPE_FLOAT32: ((float *)d)[i] = (float)f; break;
        case ORTKIT_TYPE_FLOAT64: ((double *)d)[i] = f; break;
        case ORTKIT_TYPE_FLOAT16: ((uint16_t *)d)[i] = float_to_half((float)f); break;
        case ORTKIT_TYPE_BFLOAT16: {
            float ff = (float)f;
            uint32_t x;
            memcpy(&x, &ff, sizeof x);
            ((uint16_t *)d)[i] = (uint16_t)(x >> 16);
            break;
        }
        case ORTKIT_TYPE_BOOL: ((uint8_t *)d)[i] = r < 0.5; break;
        case ORTKIT_TYPE_INT8: ((int8_t *)d)[i] = (int8_t)k; break;
        case ORTKIT_TYPE_UINT8: ((uint8_t *)d)[i] = (uint8_t)k; break;
        case ORTKIT_TYPE_INT16: ((int16_t *)d)[i] = (int16_t)k; break;
        case ORTKIT_TYPE_UINT16: ((uint16_t *)d)[i] = (uint16_t)k; break;
        case ORTKIT_TYPE_INT32: ((int32_t *)d)[i] = (int32_t)k; break;
        case ORTKIT_TYPE_UINT32: ((uint32_t *)d)[i] = (uint32_t)k; break;
        case ORTKIT_TYPE_INT64: ((int64_t *)d)[i] = k; break;
        case ORTKIT_TYPE_UINT64: ((uint64_t *)d)[i] = (uint64_t)k; break;
        case ORTKIT_TYPE_STRING: {
            char word[32];
            snprintf(word, sizeof word, "word%lld", (long long)k);
            ortkit_tensor_set_string(t, i, word);
            break;
        }
        default: break;
        }
    }
}

static void append_missing(char *missing, size_t size, const char *name)
{
    /* Each symbol once. */
    size_t len = strlen(name);
    for (const char *p = missing; (p = strstr(p, name)); p += len)
        if ((p == missing || p[-1] == ' ') && (p[len] == ',' || p[len] == '\0'))
            return;
    size_t used = strlen(missing);
    snprintf(missing + used, size - used, "%s%s", used ? ", " : "", name);
}

int make_input(ortkit_tensor **out, const ortkit_io_info *io, fill_mode fill, const dim_value *dims,
               size_t n_dims, unsigned *seed, char *missing, size_t missing_size)
{
    *out = NULL;
    int64_t shape[ORTKIT_MAX_RANK];
    int unresolved = 0;
    if (io->rank > ORTKIT_MAX_RANK)
        return VALUES_NO_RANK; /* unknown (SIZE_MAX), or more than a tensor can have */
    for (size_t d = 0; d < io->rank; d++) {
        shape[d] = io->dims[d].value;
        if (shape[d] >= 0)
            continue;
        const char *sym = io->dims[d].symbol;
        for (size_t k = 0; sym[0] && k < n_dims; k++)
            if (!strcmp(dims[k].symbol, sym))
                shape[d] = dims[k].value;
        if (shape[d] < 0) {
            char unnamed[300];
            if (!sym[0])
                snprintf(unnamed, sizeof unnamed, "%s[dim %zu, unnamed]", io->name, d);
            append_missing(missing, missing_size, sym[0] ? sym : unnamed);
            unresolved = 1;
        }
    }
    if (unresolved)
        return -1;
    return make_tensor(out, io->type, shape, io->rank, fill, seed);
}

int make_tensor(ortkit_tensor **out, ortkit_type type, const int64_t *shape, size_t rank,
                fill_mode fill, unsigned *seed)
{
    *out = NULL;
    int rc = ortkit_tensor_new(out, type, shape, rank);
    if (rc)
        return rc;
    if (fill == FILL_RANDOM)
        fill_random(*out, seed);
    return 0;
}

/* A generated tensor inside another value: 1-D, GENERATED_LENGTH long. */
static int make_leaf(ortkit_tensor **out, ortkit_type type, fill_mode fill, unsigned *seed)
{
    ortkit_dim dim = {GENERATED_LENGTH, ""};
    ortkit_io_info io = {"", ORTKIT_KIND_TENSOR, type ? type : ORTKIT_TYPE_FLOAT32, 1, &dim, NULL};
    char missing[8];
    return make_input(out, &io, fill, NULL, 0, seed, missing, sizeof missing);
}

static int make_map(ortkit_value **out, const ortkit_value_type *t, fill_mode fill, unsigned *seed)
{
    ortkit_tensor *keys = NULL, *values = NULL;
    static const char *const words[] = {"a", "b", "c", "d", "e", "f", "g", "h"};
    int64_t n = GENERATED_LENGTH;
    int rc = t->key == ORTKIT_TYPE_STRING ? ortkit_tensor_new_strings(&keys, &n, 1, words)
                                           : ortkit_tensor_new(&keys, ORTKIT_TYPE_INT64, &n, 1);
    for (int64_t i = 0; !rc && t->key != ORTKIT_TYPE_STRING && i < n; i++)
        ((int64_t *)ortkit_tensor_data(keys))[i] = i;
    if (!rc)
        rc = make_leaf(&values, t->inner ? t->inner->elem : ORTKIT_TYPE_FLOAT32, fill, seed);
    if (!rc)
        rc = ortkit_value_new_map(out, keys, values);
    if (rc) {
        ortkit_tensor_free(keys);
        ortkit_tensor_free(values);
    }
    return rc;
}

int make_value(ortkit_value **out, const ortkit_value_type *t, fill_mode fill, unsigned *seed)
{
    *out = NULL;
    int rc;
    switch (t ? t->kind : ORTKIT_KIND_UNKNOWN) {
    case ORTKIT_KIND_TENSOR: {
        ortkit_tensor *x = NULL;
        if ((rc = make_leaf(&x, t->elem, fill, seed)) || (rc = ortkit_value_new_tensor(out, x)))
            ortkit_tensor_free(x);
        return rc;
    }
    case ORTKIT_KIND_MAP:
        return make_map(out, t, fill, seed);
    case ORTKIT_KIND_OPTIONAL: {
        ortkit_value *item = NULL;
        if ((rc = make_value(&item, t->inner, fill, seed)) ||
            (rc = ortkit_value_new_optional(out, item)))
            ortkit_value_free(item);
        return rc;
    }
    case ORTKIT_KIND_SEQUENCE: {
        ortkit_value *items[GENERATED_ITEMS] = {0};
        rc = 0;
        for (size_t i = 0; i < GENERATED_ITEMS && !rc; i++)
            rc = make_value(&items[i], t->inner, fill, seed);
        if (!rc)
            rc = ortkit_value_new_sequence(out, items, GENERATED_ITEMS);
        if (rc)
            for (size_t i = 0; i < GENERATED_ITEMS; i++)
                ortkit_value_free(items[i]);
        return rc;
    }
    default:
        return VALUES_NO_RANK;
    }
}

void summarize(const ortkit_tensor *t, value_summary *s)
{
    memset(s, 0, sizeof *s);
    s->numeric = value_numeric(ortkit_tensor_type(t));
    if (!s->numeric)
        return;
    size_t n = ortkit_tensor_count(t), used = 0;
    double sum = 0;
    s->min = INFINITY;
    s->max = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        double v = value_at(t, i);
        if (isnan(v)) {
            s->nan_count++;
            continue;
        }
        s->min = v < s->min ? v : s->min;
        s->max = v > s->max ? v : s->max;
        sum += v;
        used++;
    }
    s->mean = used ? sum / (double)used : NAN;
    if (!used)
        s->min = s->max = NAN;
}

void first_values_at(const ortkit_tensor *t, size_t i, char *buf, size_t size)
{
    ortkit_type type = ortkit_tensor_type(t);
    if (type == ORTKIT_TYPE_STRING)
        snprintf(buf, size, "\"%s\"", ortkit_tensor_string(t, i));
    else if (value_numeric(type))
        snprintf(buf, size, "%.6g", value_at(t, i));
    else
        snprintf(buf, size, "?");
}

void first_values(const ortkit_tensor *t, size_t n, char *buf, size_t size)
{
    size_t count = ortkit_tensor_count(t), used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < count && i < n && used < size; i++) {
        char one[256];
        first_values_at(t, i, one, sizeof one);
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "", one);
    }
    if (count > n && used < size)
        snprintf(buf + used, size - used, ", ...");
}
