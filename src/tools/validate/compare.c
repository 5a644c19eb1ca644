/*
 * compare.c - tensors compared as ONNX Runtime's test runner compares them
 * (within tolerance), or bit for bit (determinism checks).
 */
#include "abi.h"
#include "core.h"
#include "ortkit/tools/compare.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static float f32_from_bits(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static double half_to_double(uint16_t h)
{
    int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    double v;
    if (exp == 0x1f)
        v = mant ? NAN : INFINITY;
    else if (exp == 0)
        v = ldexp(mant, -24);
    else
        v = ldexp(mant + 1024, exp - 25);
    return sign ? -v : v;
}

/*
 * The 8-bit float formats of ONNX.  "fn": no infinities, only all-ones is NaN;
 * "uz": no negative zero, its bit pattern 0x80 is the one NaN.
 */
static double f8_to_double(uint8_t b, int exp_bits, int bias, int fn, int uz)
{
    int mant_bits = 7 - exp_bits;
    int sign = b >> 7, exp = (b >> mant_bits) & ((1 << exp_bits) - 1), mant = b & ((1 << mant_bits) - 1);
    int exp_max = (1 << exp_bits) - 1;
    if (uz && b == 0x80)
        return NAN;
    double v;
    if (!fn && !uz && exp == exp_max)
        v = mant ? NAN : INFINITY; /* E5M2 follows IEEE */
    else if (fn && !uz && exp == exp_max && mant == (1 << mant_bits) - 1)
        v = NAN;
    else if (exp == 0)
        v = ldexp(mant, 1 - bias - mant_bits);
    else
        v = ldexp(mant + (1 << mant_bits), exp - bias - mant_bits);
    return sign ? -v : v;
}

static int type_is_float(ortkit_type t)
{
    switch (t) {
    case ORTKIT_TYPE_FLOAT32:
    case ORTKIT_TYPE_FLOAT64:
    case ORTKIT_TYPE_FLOAT16:
    case ORTKIT_TYPE_BFLOAT16:
    case ORTKIT_TYPE_COMPLEX64:
    case ORTKIT_TYPE_COMPLEX128:
    case ORTKIT_TYPE_FLOAT8E4M3FN:
    case ORTKIT_TYPE_FLOAT8E4M3FNUZ:
    case ORTKIT_TYPE_FLOAT8E5M2:
    case ORTKIT_TYPE_FLOAT8E5M2FNUZ:
        return 1;
    default:
        return 0;
    }
}

/* Element i of an array of C type T, unaligned, as a double. */
#define LOAD(name, T)                                                   \
    static double name(const unsigned char *d, size_t i)                \
    {                                                                   \
        T v;                                                            \
        memcpy(&v, d + sizeof v * i, sizeof v);                         \
        return (double)v;                                               \
    }
LOAD(load_f32, float)
LOAD(load_f64, double)
LOAD(load_i16, int16_t)
LOAD(load_u16, uint16_t)
LOAD(load_i32, int32_t)
LOAD(load_u32, uint32_t)
LOAD(load_i64, int64_t)
LOAD(load_u64, uint64_t)
#undef LOAD

/* The types whose scalars are C types (a complex one's halves are floats). */
static double (*const loaders[])(const unsigned char *d, size_t i) = {
    [ORTKIT_TYPE_FLOAT32] = load_f32, [ORTKIT_TYPE_COMPLEX64] = load_f32, [ORTKIT_TYPE_FLOAT64] = load_f64,
    [ORTKIT_TYPE_COMPLEX128] = load_f64, [ORTKIT_TYPE_INT16] = load_i16, [ORTKIT_TYPE_UINT16] = load_u16,
    [ORTKIT_TYPE_INT32] = load_i32, [ORTKIT_TYPE_UINT32] = load_u32, [ORTKIT_TYPE_INT64] = load_i64,
    [ORTKIT_TYPE_UINT64] = load_u64};

/* The 8-bit floats: exponent bits, bias, fn, uz (f8_to_double). */
static const struct f8_format {
    ortkit_type type;
    int exp_bits, bias, fn, uz;
} f8_formats[] = {{ORTKIT_TYPE_FLOAT8E4M3FN, 4, 7, 1, 0}, {ORTKIT_TYPE_FLOAT8E4M3FNUZ, 4, 8, 1, 1},
                  {ORTKIT_TYPE_FLOAT8E5M2, 5, 15, 0, 0}, {ORTKIT_TYPE_FLOAT8E5M2FNUZ, 5, 16, 0, 1}};

/* Scalar i of a tensor as a double; complex tensors hold two scalars per element. */
static double scalar_at(const ortkit_tensor *t, size_t i)
{
    const unsigned char *d = t->data;
    if ((size_t)t->type < sizeof loaders / sizeof loaders[0] && loaders[t->type])
        return loaders[t->type](d, i);
    for (size_t k = 0; k < sizeof f8_formats / sizeof f8_formats[0]; k++)
        if (f8_formats[k].type == t->type)
            return f8_to_double(d[i], f8_formats[k].exp_bits, f8_formats[k].bias, f8_formats[k].fn,
                                f8_formats[k].uz);
    switch (t->type) {
    case ORTKIT_TYPE_FLOAT16:
        return half_to_double((uint16_t)load_u16(d, i));
    case ORTKIT_TYPE_BFLOAT16:
        return f32_from_bits((uint32_t)load_u16(d, i) << 16);
    case ORTKIT_TYPE_INT8:
        return (int8_t)d[i];
    case ORTKIT_TYPE_UINT8:
        return d[i];
    case ORTKIT_TYPE_BOOL:
        return d[i] != 0;
    case ORTKIT_TYPE_UINT4:
    case ORTKIT_TYPE_INT4: {
        unsigned nib = (i % 2 ? d[i / 2] >> 4 : d[i / 2]) & 0xf;
        return t->type == ORTKIT_TYPE_INT4 && nib >= 8 ? (double)nib - 16 : (double)nib;
    }
    default:
        return 0;
    }
}

/* Are scalar i of a and b the same bits?  (Integers compare exactly this way too.) */
static int same_bits(const ortkit_tensor *a, const ortkit_tensor *b, size_t i)
{
    size_t bits = ortkit_type_bits(a->type);
    if (a->type == ORTKIT_TYPE_COMPLEX64 || a->type == ORTKIT_TYPE_COMPLEX128)
        bits /= 2;
    if (bits == 4)
        return scalar_at(a, i) == scalar_at(b, i);
    if (a->type == ORTKIT_TYPE_BOOL)
        return (((const unsigned char *)a->data)[i] != 0) == (((const unsigned char *)b->data)[i] != 0);
    size_t w = bits / 8;
    return !memcmp((const unsigned char *)a->data + w * i, (const unsigned char *)b->data + w * i, w);
}

/* "[1,0,2]" for flat element index i of shape. */
static void index_text(char *buf, size_t size, const int64_t *shape, size_t rank, size_t i)
{
    int64_t idx[ORTKIT_MAX_RANK];
    for (size_t d = rank; d-- > 0;) {
        idx[d] = shape[d] ? (int64_t)(i % (size_t)shape[d]) : 0;
        i = shape[d] ? i / (size_t)shape[d] : 0;
    }
    size_t n = (size_t)snprintf(buf, size, "[");
    for (size_t d = 0; d < rank && n < size; d++)
        n += (size_t)snprintf(buf + n, size - n, "%s%lld", d ? "," : "", (long long)idx[d]);
    if (n < size)
        snprintf(buf + n, size - n, "]");
}

static int header_check(ortkit_compare *out, const ortkit_tensor *e, const ortkit_tensor *a)
{
    int same = e->type == a->type && e->rank == a->rank;
    for (size_t d = 0; same && d < e->rank; d++)
        same = e->shape[d] == a->shape[d];
    if (same)
        return 1;
    char want[160], got[160];
    ortkit_tensor_describe(e, want, sizeof want);
    ortkit_tensor_describe(a, got, sizeof got);
    snprintf(out->message, sizeof out->message, "%s differs: expected %.110s, got %.110s",
             e->type != a->type ? "type" : "shape", want, got);
    out->mismatches = e->count > a->count ? e->count : a->count;
    out->max_diff = INFINITY;
    return 0;
}

static void compare_strings(ortkit_compare *out, const ortkit_tensor *e, const ortkit_tensor *a)
{
    for (size_t i = 0; i < e->count; i++) {
        if (!strcmp(e->strings[i], a->strings[i]))
            continue;
        if (!out->mismatches++)
            out->worst = i;
    }
    if (!out->mismatches)
        return;
    index_text(out->where, sizeof out->where, e->shape, e->rank, out->worst);
    snprintf(out->message, sizeof out->message,
             "%zu of %zu strings differ; first at %s: expected \"%.60s\", got \"%.60s\"",
             out->mismatches, e->count, out->where, e->strings[out->worst], a->strings[out->worst]);
}

/* exact: bit for bit; otherwise ORT's rule with rtol and atol. */
static void fill(ortkit_compare *out, const ortkit_tensor *e, const ortkit_tensor *a,
                 double rtol, double atol, int exact)
{
    if (!header_check(out, e, a))
        return;
    if (e->type == ORTKIT_TYPE_STRING) {
        compare_strings(out, e, a);
        out->equal = out->mismatches == 0;
        return;
    }
    int is_float = type_is_float(e->type);
    int complex = e->type == ORTKIT_TYPE_COMPLEX64 || e->type == ORTKIT_TYPE_COMPLEX128;
    size_t n = complex ? e->count * 2 : e->count;
    /* The largest difference among mismatches when there are any, else overall. */
    double worst_ok = -1, worst_bad = -1;
    size_t at_ok = 0, at_bad = 0;
    for (size_t i = 0; i < n; i++) {
        double x = scalar_at(e, i), y = scalar_at(a, i), diff;
        int ok;
        if (exact) {
            ok = same_bits(e, a, i);
            diff = isnan(x) || isnan(y) ? (isnan(x) && isnan(y) ? 0 : INFINITY)
                   : x == y ? 0 : fabs(x - y);
        } else if (!is_float) {
            ok = same_bits(e, a, i);
            diff = fabs(x - y);
        } else if (isnan(x)) {
            ok = isnan(y);
            diff = ok ? 0 : INFINITY;
        } else if (isinf(x)) {
            ok = x == y;
            diff = ok ? 0 : INFINITY;
        } else {
            diff = isnan(y) ? INFINITY : fabs(x - y);
            ok = diff <= atol + rtol * fabs(x);
        }
        if (ok && diff > worst_ok) {
            worst_ok = diff;
            at_ok = i;
        } else if (!ok) {
            out->mismatches++;
            if (diff > worst_bad) {
                worst_bad = diff;
                at_bad = i;
            }
        }
    }
    out->equal = out->mismatches == 0;
    if (n == 0)
        return;
    size_t at = out->mismatches ? at_bad : at_ok;
    out->max_diff = out->mismatches ? worst_bad : worst_ok;
    out->worst = complex ? at / 2 : at;
    out->expected = scalar_at(e, at);
    out->actual = scalar_at(a, at);
    index_text(out->where, sizeof out->where, e->shape, e->rank, out->worst);
    if (complex) {
        size_t len = strlen(out->where);
        snprintf(out->where + len, sizeof out->where - len, at % 2 ? ".imag" : ".real");
    }
    if (out->equal)
        return;
    if (exact)
        snprintf(out->message, sizeof out->message,
                 "%zu of %zu values differ bit for bit; largest at %s: %.9g and %.9g (|diff| %.3g)",
                 out->mismatches, n, out->where, out->expected, out->actual, out->max_diff);
    else if (is_float)
        snprintf(out->message, sizeof out->message,
                 "%zu of %zu values differ; worst at %s: expected %.9g, got %.9g "
                 "(|diff| %.3g > %.3g)",
                 out->mismatches, n, out->where, out->expected, out->actual, out->max_diff,
                 atol + rtol * fabs(out->expected));
    else
        snprintf(out->message, sizeof out->message,
                 "%zu of %zu values differ; worst at %s: expected %.17g, got %.17g",
                 out->mismatches, n, out->where, out->expected, out->actual);
}

ORTKIT__ABI_STRUCT(compare_abi, ortkit_compare, "ortkit_compare", "ORTKIT_COMPARE_INIT",
                   ORTKIT_COMPARE_VERSION, sizeof(ortkit_compare));

/* The answer is made in the current layout, then written within the
 * caller's version. */
static int compare(ortkit_compare *out, const ortkit_tensor *e, const ortkit_tensor *a,
                   double rtol, double atol, int exact)
{
    if (!out || !e || !a)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_tensor_compare: NULL argument");
    int rc = ortkit__abi_check(&compare_abi, out->version);
    if (rc)
        return rc;
    ortkit_compare full;
    memset(&full, 0, sizeof full);
    full.version = ORTKIT_COMPARE_VERSION;
    fill(&full, e, a, rtol, atol, exact);
    return ortkit__abi_write(&compare_abi, out, &full);
}

int ortkit_tensor_compare(ortkit_compare *out, const ortkit_tensor *expected,
                          const ortkit_tensor *actual, double rtol, double atol)
{
    if (rtol < 0 || atol < 0 || isnan(rtol) || isnan(atol))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "tolerances must be >= 0 (rtol %g, atol %g)",
                                 rtol, atol);
    return compare(out, expected, actual, rtol, atol, 0);
}

int ortkit_tensor_identical(ortkit_compare *out, const ortkit_tensor *expected,
                            const ortkit_tensor *actual)
{
    return compare(out, expected, actual, 0, 0, 1);
}
