/*
 * npy.c - NumPy .npy files (format versions 1.0, 2.0 and 3.0).
 *
 * A .npy file is a magic string, a version, a little-endian header length,
 * a Python-literal dict ("{'descr': '<f4', 'fortran_order': False,
 * 'shape': (2, 3), }") and the raw elements in C order.  Nothing in a file
 * is trusted: the dict is parsed by a small strict parser (never evaluated),
 * and every size is checked against the bytes really present before any
 * allocation is made from it.
 */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_ALIGN 64 /* numpy aligns the data to 64 bytes; so do we */

/* Files are read whole; refuse absurd sizes rather than attempt the malloc. */
#if SIZE_MAX > 0xffffffffu
#define NPY_MAX_FILE ((size_t)16 << 30)
#else
#define NPY_MAX_FILE ((size_t)0x7fffffff)
#endif

/* Element data in a tensor is in host order; these name the order numpy calls native. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_ORDER '>'
#define FOREIGN_NAME "little-endian"
#else
#define HOST_ORDER '<'
#define FOREIGN_NAME "big-endian"
#endif

/* Where the bytes came from, for messages: "'x.npy': ..." or "<memory>: ...". */
static int fail(const char *path, int code, const char *fmt, ...) ORTKIT_PRINTF(3, 4);

static int fail(const char *path, int code, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (path)
        return ortkit__error_set(code, "'%s': %s", path, msg);
    return ortkit__error_set(code, "<memory>: %s", msg);
}

/* A header string made safe to quote in a message (printable ASCII, bounded). */
static void quote_text(char *buf, size_t size, const char *s, size_t len)
{
    size_t n = 0, limit = size - 4; /* room for "..." and the NUL */
    for (size_t i = 0; i < len && n < limit; i++) {
        unsigned char ch = (unsigned char)s[i];
        buf[n++] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
    }
    if (n < len)
        memcpy(buf + n, "...", 3), n += 3;
    buf[n] = '\0';
}

/* ---- the header dict -------------------------------------------------- */

typedef struct npy_header {
    ortkit_type type;
    size_t itemsize;   /* bytes per element in the file */
    size_t width;      /* code points per element ('<U' only) */
    int have_descr, have_fortran, have_shape;
    int fortran;
    size_t rank;
    int64_t shape[ORTKIT_MAX_RANK];
} npy_header;

typedef struct cursor {
    const char *p, *end;
    const char *path;
} cursor;

static void skip_ws(cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
}

static int peek(cursor *c) { return c->p < c->end ? (unsigned char)*c->p : -1; }

static int accept(cursor *c, char ch)
{
    skip_ws(c);
    if (peek(c) != (unsigned char)ch)
        return 0;
    c->p++;
    return 1;
}

/* A quoted Python string without escapes (numpy never writes any). */
static int parse_string(cursor *c, const char **s, size_t *len, const char *what)
{
    skip_ws(c);
    int q = peek(c);
    if (q != '\'' && q != '"')
        return fail(c->path, ORTKIT_E_FORMAT, "bad header: expected a quoted %s", what);
    const char *start = ++c->p;
    while (c->p < c->end && *c->p != q) {
        if (*c->p == '\\' || *c->p == '\n')
            return fail(c->path, ORTKIT_E_FORMAT, "bad header: escapes or line breaks in a %s",
                        what);
        c->p++;
    }
    if (c->p >= c->end)
        return fail(c->path, ORTKIT_E_FORMAT, "bad header: unterminated %s", what);
    *s = start;
    *len = (size_t)(c->p - start);
    c->p++;
    return ORTKIT_OK;
}

/* Decimal digits without leading zeros, as a non-negative int64 (Python 2's 'L' allowed). */
static int parse_dim(cursor *c, int64_t *out)
{
    skip_ws(c);
    if (peek(c) == '-')
        return fail(c->path, ORTKIT_E_FORMAT, "bad header: negative dimension in 'shape'");
    if (peek(c) < '0' || peek(c) > '9')
        return fail(c->path, ORTKIT_E_FORMAT, "bad header: 'shape' is not a tuple of integers");
    const char *start = c->p;
    uint64_t v = 0;
    while (peek(c) >= '0' && peek(c) <= '9') {
        unsigned d = (unsigned)(*c->p++ - '0');
        if (v > ((uint64_t)INT64_MAX - d) / 10)
            return fail(c->path, ORTKIT_E_FORMAT, "bad header: a dimension in 'shape' overflows");
        v = v * 10 + d;
    }
    if (*start == '0' && c->p - start > 1)
        return fail(c->path, ORTKIT_E_FORMAT, "bad header: a dimension has leading zeros");
    if (peek(c) == 'L')
        c->p++;
    *out = (int64_t)v;
    return ORTKIT_OK;
}

/* "()", "(5,)", "(2, 3)", "(2, 3,)"; "(5)" is an int in Python, not a tuple. */
static int parse_shape(cursor *c, npy_header *h)
{
    if (!accept(c, '('))
        return fail(c->path, ORTKIT_E_FORMAT, "bad header: 'shape' is not a tuple");
    h->rank = 0;
    if (accept(c, ')'))
        return ORTKIT_OK;
    for (;;) {
        int64_t d = 0;
        int rc = parse_dim(c, &d);
        if (rc)
            return rc;
        if (h->rank == ORTKIT_MAX_RANK)
            return fail(c->path, ORTKIT_E_UNSUPPORTED, "rank above ortkit's limit of %d",
                        ORTKIT_MAX_RANK);
        h->shape[h->rank++] = d;
        if (accept(c, ')')) {
            if (h->rank == 1)
                return fail(c->path, ORTKIT_E_FORMAT,
                            "bad header: 'shape' (%lld) is not a tuple; write (%lld,)",
                            (long long)d, (long long)d);
            return ORTKIT_OK;
        }
        if (!accept(c, ','))
            return fail(c->path, ORTKIT_E_FORMAT, "bad header: expected ',' or ')' in 'shape'");
        if (accept(c, ')'))
            return ORTKIT_OK;
    }
}

static int is_word_char(int ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_';
}

static int parse_bool(cursor *c, int *out)
{
    skip_ws(c);
    const char *start = c->p;
    while (is_word_char(peek(c)))
        c->p++;
    size_t n = (size_t)(c->p - start);
    if (n == 4 && !memcmp(start, "True", 4))
        *out = 1;
    else if (n == 5 && !memcmp(start, "False", 5))
        *out = 0;
    else
        return fail(c->path, ORTKIT_E_FORMAT, "bad header: 'fortran_order' is not True or False");
    return ORTKIT_OK;
}

/* strchr, but a NUL byte from the file is never "in" the set. */
static int in_set(char ch, const char *set) { return ch && strchr(set, ch); }

/* Map a numpy type string ('<f4', '|b1', '<U12') to an element type. */
static int parse_descr(const char *path, const char *s, size_t len, npy_header *h)
{
    static const struct {
        char kind;
        unsigned size;
        ortkit_type type;
    } table[] = {
        {'f', 2, ORTKIT_TYPE_FLOAT16}, {'f', 4, ORTKIT_TYPE_FLOAT32}, {'f', 8, ORTKIT_TYPE_FLOAT64},
        {'i', 1, ORTKIT_TYPE_INT8},    {'i', 2, ORTKIT_TYPE_INT16},   {'i', 4, ORTKIT_TYPE_INT32},
        {'i', 8, ORTKIT_TYPE_INT64},   {'u', 1, ORTKIT_TYPE_UINT8},   {'u', 2, ORTKIT_TYPE_UINT16},
        {'u', 4, ORTKIT_TYPE_UINT32},  {'u', 8, ORTKIT_TYPE_UINT64},  {'b', 1, ORTKIT_TYPE_BOOL},
        {'c', 8, ORTKIT_TYPE_COMPLEX64}, {'c', 16, ORTKIT_TYPE_COMPLEX128},
    };
    char shown[48];
    quote_text(shown, sizeof shown, s, len);
    const char *p = s, *end = s + len;
    char order = '=';
    if (p < end && in_set(*p, "<>=|"))
        order = *p++;
    char kind = p < end ? *p++ : '\0';
    /* Real numpy dtypes that ortkit has no tensor for: objects, records, bytes, dates. */
    if (in_set(kind, "OVSaMm"))
        return fail(path, ORTKIT_E_UNSUPPORTED, "dtype '%s' is not supported", shown);
    uint64_t size = 0;
    int digits = 0;
    for (; p < end && *p >= '0' && *p <= '9'; p++, digits++)
        size = size < UINT32_MAX ? size * 10 + (uint64_t)(*p - '0') : size;
    if (p != end || !kind)
        return fail(path, ORTKIT_E_FORMAT, "unknown dtype '%s'", shown);

    size_t unit = 0; /* the size whose byte order matters */
    h->type = ORTKIT_TYPE_UNDEFINED;
    if (kind == '?' && !digits) {
        h->type = ORTKIT_TYPE_BOOL;
        h->itemsize = unit = 1;
    } else if (kind == 'U' && digits) {
        if (size == 0 || size >= (1u << 30))
            return fail(path, ORTKIT_E_FORMAT, "bad string width in dtype '%s'", shown);
        h->type = ORTKIT_TYPE_STRING;
        h->width = (size_t)size;
        h->itemsize = (size_t)size * 4;
        unit = 4;
    } else if (digits) {
        for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
            if (table[i].kind == kind && table[i].size == size) {
                h->type = table[i].type;
                h->itemsize = (size_t)size;
                unit = kind == 'c' ? (size_t)size / 2 : (size_t)size;
            }
        /* x87 long double and its complex: valid numpy, no ONNX type. */
        if (h->type == ORTKIT_TYPE_UNDEFINED &&
            ((kind == 'f' && (size == 12 || size == 16)) || (kind == 'c' && (size == 24 || size == 32))))
            return fail(path, ORTKIT_E_UNSUPPORTED, "dtype '%s' (long double) is not supported",
                        shown);
    }
    if (h->type == ORTKIT_TYPE_UNDEFINED)
        return fail(path, ORTKIT_E_FORMAT, "unknown dtype '%s'", shown);
    if (unit > 1 && order != '=' && order != '|' && order != HOST_ORDER)
        return fail(path, ORTKIT_E_UNSUPPORTED,
                    FOREIGN_NAME " .npy data is not supported ('%s'); save it %s", shown,
                    HOST_ORDER == '<' ? "little-endian" : "big-endian");
    return ORTKIT_OK;
}

static int parse_value(cursor *c, const char *key, size_t klen, npy_header *h)
{
    char shown[48];
    if (klen == 5 && !memcmp(key, "descr", 5) && !h->have_descr) {
        h->have_descr = 1;
        skip_ws(c);
        if (peek(c) == '[' || peek(c) == '{')
            return fail(c->path, ORTKIT_E_UNSUPPORTED,
                        "structured dtypes (records with fields) are not supported");
        const char *s;
        size_t len;
        int rc = parse_string(c, &s, &len, "'descr'");
        return rc ? rc : parse_descr(c->path, s, len, h);
    }
    if (klen == 13 && !memcmp(key, "fortran_order", 13) && !h->have_fortran) {
        h->have_fortran = 1;
        return parse_bool(c, &h->fortran);
    }
    if (klen == 5 && !memcmp(key, "shape", 5) && !h->have_shape) {
        h->have_shape = 1;
        return parse_shape(c, h);
    }
    quote_text(shown, sizeof shown, key, klen);
    return fail(c->path, ORTKIT_E_FORMAT, "bad header: unexpected or repeated key '%s'", shown);
}

static int parse_dict(const char *path, const char *text, size_t len, npy_header *h)
{
    cursor c = {text, text + len, path};
    memset(h, 0, sizeof *h);
    if (!accept(&c, '{'))
        return fail(path, ORTKIT_E_FORMAT, "bad header: not a dict");
    while (!accept(&c, '}')) {
        const char *key;
        size_t klen;
        int rc = parse_string(&c, &key, &klen, "key");
        if (rc)
            return rc;
        if (!accept(&c, ':'))
            return fail(path, ORTKIT_E_FORMAT, "bad header: expected ':' after a key");
        if ((rc = parse_value(&c, key, klen, h)))
            return rc;
        if (accept(&c, '}'))
            break;
        if (!accept(&c, ','))
            return fail(path, ORTKIT_E_FORMAT, "bad header: expected ',' or '}' in the dict");
    }
    skip_ws(&c);
    if (c.p != c.end)
        return fail(path, ORTKIT_E_FORMAT, "bad header: text after the dict");
    if (!h->have_descr || !h->have_fortran || !h->have_shape)
        return fail(path, ORTKIT_E_FORMAT, "bad header: no '%s' key",
                    !h->have_descr ? "descr" : !h->have_fortran ? "fortran_order" : "shape");
    if (h->fortran)
        return fail(path, ORTKIT_E_UNSUPPORTED,
                    "Fortran-order arrays are not supported; save with np.ascontiguousarray(a)");
    return ORTKIT_OK;
}

/* ---- reading ---------------------------------------------------------- */

static void describe_shape(char *buf, size_t size, const npy_header *h)
{
    size_t n = (size_t)snprintf(buf, size, "%s[", ortkit_type_name(h->type));
    for (size_t i = 0; i < h->rank && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%lld", i ? "," : "", (long long)h->shape[i]);
    if (n < size)
        snprintf(buf + n, size - n, "]");
}

static size_t utf8_encode(char *out, uint32_t cp)
{
    if (cp < 0x80)
        return out[0] = (char)cp, 1;
    if (cp < 0x800)
        return out[0] = (char)(0xC0 | cp >> 6), out[1] = (char)(0x80 | (cp & 0x3F)), 2;
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | cp >> 12);
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | cp >> 18);
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

static uint32_t load_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Fixed-width UTF-32 elements to UTF-8 strings, trailing NULs dropped as numpy does. */
static int decode_strings(const char *path, ortkit_tensor *t, const unsigned char *data,
                          size_t width)
{
    size_t count = ortkit_tensor_count(t);
    if (count == 0) /* the width may then be anything: allocate nothing from it */
        return ORTKIT_OK;
    char *buf = malloc(width * 4 + 1);
    if (!buf)
        return ortkit__error_nomem();
    int rc = ORTKIT_OK;
    for (size_t i = 0; i < count; i++) {
        const unsigned char *e = data + i * width * 4;
        size_t len = width;
        while (len > 0 && load_le32(e + (len - 1) * 4) == 0)
            len--;
        size_t n = 0;
        for (size_t k = 0; k < len; k++) {
            uint32_t cp = load_le32(e + k * 4);
            if (cp == 0) {
                rc = fail(path, ORTKIT_E_UNSUPPORTED,
                          "string element %zu holds a NUL character inside it", i);
                goto cleanup;
            }
            if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                rc = fail(path, ORTKIT_E_FORMAT,
                          "string element %zu holds an invalid code point 0x%lX", i,
                          (unsigned long)cp);
                goto cleanup;
            }
            n += utf8_encode(buf + n, cp);
        }
        buf[n] = '\0';
        if ((rc = ortkit_tensor_set_string(t, i, buf)))
            goto cleanup;
    }
cleanup:
    free(buf);
    return rc;
}

static int decode(ortkit_tensor **out, const unsigned char *data, size_t size, const char *path)
{
    if (size < NPY_MAGIC_LEN || memcmp(data, NPY_MAGIC, NPY_MAGIC_LEN) != 0)
        return fail(path, ORTKIT_E_FORMAT, "bad magic, not a .npy file");
    if (size < NPY_MAGIC_LEN + 2)
        return fail(path, ORTKIT_E_FORMAT, "truncated before the version");
    unsigned major = data[6], minor = data[7];
    if ((major != 1 && major != 2 && major != 3) || minor != 0)
        return fail(path, ORTKIT_E_UNSUPPORTED,
                    ".npy format version %u.%u is not supported (1.0, 2.0 and 3.0 are)", major,
                    minor);
    size_t lenbytes = major == 1 ? 2 : 4, prefix = NPY_MAGIC_LEN + 2 + lenbytes;
    if (size < prefix)
        return fail(path, ORTKIT_E_FORMAT, "truncated in the header length");
    size_t hlen = major == 1 ? (size_t)data[8] | (size_t)data[9] << 8 : (size_t)load_le32(data + 8);
    if (hlen > size - prefix)
        return fail(path, ORTKIT_E_FORMAT,
                    "header length %zu runs past the end of the file (%zu bytes)", hlen, size);

    npy_header h;
    int rc = parse_dict(path, (const char *)data + prefix, hlen, &h);
    if (rc)
        return rc;

    char desc[256];
    describe_shape(desc, sizeof desc, &h);
    size_t count = ortkit__shape_count(h.shape, h.rank), nbytes;
    if (count == SIZE_MAX || __builtin_mul_overflow(count, h.itemsize, &nbytes))
        return fail(path, ORTKIT_E_FORMAT, "header shape %s is too large to address", desc);
    size_t avail = size - prefix - hlen;
    if (nbytes > avail)
        return fail(path, ORTKIT_E_FORMAT, "header says %s = %zu bytes but the file holds %zu",
                    desc, nbytes, avail);
    if (nbytes < avail)
        return fail(path, ORTKIT_E_FORMAT, "%zu unexpected bytes after the %s data (%zu bytes)",
                    avail - nbytes, desc, nbytes);

    const unsigned char *elems = data + prefix + hlen;
    if (h.type == ORTKIT_TYPE_BOOL)
        for (size_t i = 0; i < count; i++)
            if (elems[i] > 1)
                return fail(path, ORTKIT_E_FORMAT, "bool element %zu is %u, not 0 or 1", i,
                            elems[i]);

    ortkit_tensor *t = NULL;
    if ((rc = ortkit_tensor_new(&t, h.type, h.shape, h.rank)))
        return rc;
    if (h.type == ORTKIT_TYPE_STRING)
        rc = decode_strings(path, t, elems, h.width);
    else if (nbytes)
        memcpy(ortkit_tensor_data(t), elems, nbytes);
    if (rc) {
        ortkit_tensor_free(t);
        return rc;
    }
    *out = t;
    return ORTKIT_OK;
}

int ortkit_npy_parse(ortkit_tensor **out, const void *data, size_t size)
{
    if (!out)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_npy_parse: out is NULL");
    *out = NULL;
    if (!data && size)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_npy_parse: data is NULL");
    return decode(out, data ? data : "", size, NULL);
}

int ortkit_npy_read(ortkit_tensor **out, const char *path)
{
    if (!out || !path)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_npy_read: %s is NULL",
                                 out ? "path" : "out");
    *out = NULL;
    char *buf = NULL;
    size_t size = 0;
    int rc = ortkit__file_read(&buf, &size, path, NPY_MAX_FILE);
    if (rc)
        return rc;
    rc = decode(out, (const unsigned char *)buf, size, path);
    free(buf);
    return rc;
}

/* ---- writing ---------------------------------------------------------- */

/* One UTF-8 sequence from a NUL-terminated string; 0 when it is not valid UTF-8. */
static size_t utf8_decode(const unsigned char *s, uint32_t *cp)
{
    uint32_t v, min;
    size_t n;
    if (s[0] < 0x80)
        return *cp = s[0], 1;
    if (s[0] >= 0xC2 && s[0] <= 0xDF)
        n = 2, v = s[0] & 0x1F, min = 0x80;
    else if ((s[0] & 0xF0) == 0xE0)
        n = 3, v = s[0] & 0x0F, min = 0x800;
    else if (s[0] >= 0xF0 && s[0] <= 0xF4)
        n = 4, v = s[0] & 0x07, min = 0x10000;
    else
        return 0;
    /* The terminating NUL is not a continuation byte, so this never reads past it. */
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return n;
}

/* Code points in element i, or an error for invalid UTF-8. */
static int string_width(const char *path, const ortkit_tensor *t, size_t i, size_t *width)
{
    const unsigned char *s = (const unsigned char *)ortkit_tensor_string(t, i);
    size_t n = 0;
    uint32_t cp;
    for (; s && *s; n++) {
        size_t step = utf8_decode(s, &cp);
        if (!step)
            return fail(path, ORTKIT_E_FORMAT, "string element %zu is not valid UTF-8", i);
        s += step;
    }
    *width = n;
    return ORTKIT_OK;
}

/* numpy's name for a type, or NULL when numpy has none. */
static const char *npy_descr(ortkit_type type)
{
    switch (type) {
    case ORTKIT_TYPE_FLOAT16: return "<f2";
    case ORTKIT_TYPE_FLOAT32: return "<f4";
    case ORTKIT_TYPE_FLOAT64: return "<f8";
    case ORTKIT_TYPE_INT8: return "|i1";
    case ORTKIT_TYPE_INT16: return "<i2";
    case ORTKIT_TYPE_INT32: return "<i4";
    case ORTKIT_TYPE_INT64: return "<i8";
    case ORTKIT_TYPE_UINT8: return "|u1";
    case ORTKIT_TYPE_UINT16: return "<u2";
    case ORTKIT_TYPE_UINT32: return "<u4";
    case ORTKIT_TYPE_UINT64: return "<u8";
    case ORTKIT_TYPE_BOOL: return "|b1";
    case ORTKIT_TYPE_COMPLEX64: return "<c8";
    case ORTKIT_TYPE_COMPLEX128: return "<c16";
    /* numpy has no bfloat16: the raw 16-bit patterns go out as uint16 and read back as such. */
    case ORTKIT_TYPE_BFLOAT16: return "<u2";
    default: return NULL;
    }
}

int ortkit_npy_write(const char *path, const ortkit_tensor *t)
{
    if (!path || !t)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_npy_write: %s is NULL",
                                 path ? "tensor" : "path");
    ortkit_type type = ortkit_tensor_type(t);
    size_t count = ortkit_tensor_count(t), rank = ortkit_tensor_rank(t);
    const int64_t *shape = ortkit_tensor_shape(t);
    char descr[32];
    size_t width = 0, nbytes;
    if (type == ORTKIT_TYPE_STRING) {
        width = 1; /* numpy has no zero-width strings */
        for (size_t i = 0; i < count; i++) {
            size_t w = 0;
            int rc = string_width(path, t, i, &w);
            if (rc)
                return rc;
            if (w > width)
                width = w;
        }
        snprintf(descr, sizeof descr, "<U%zu", width);
        if (__builtin_mul_overflow(count, width * 4, &nbytes))
            return fail(path, ORTKIT_E_SHAPE, "string tensor is too large to write");
    } else {
        const char *d = npy_descr(type);
        if (!d)
            return fail(path, ORTKIT_E_UNSUPPORTED, "cannot write %s: numpy has no such dtype",
                        ortkit_type_name(type));
        snprintf(descr, sizeof descr, "%s", d);
        nbytes = ortkit_tensor_nbytes(t);
    }

    /* numpy's own layout: dict, spaces, '\n', data starting on a 64-byte boundary. */
    char dict[ORTKIT_MAX_RANK * 24 + 96];
    size_t n = (size_t)snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                                descr);
    for (size_t i = 0; i < rank; i++)
        n += (size_t)snprintf(dict + n, sizeof dict - n, "%s%lld", i ? ", " : "",
                              (long long)shape[i]);
    n += (size_t)snprintf(dict + n, sizeof dict - n, "%s), }", rank == 1 ? "," : "");
    size_t prefix = NPY_MAGIC_LEN + 4, total = prefix + n + 1;
    total += (NPY_ALIGN - total % NPY_ALIGN) % NPY_ALIGN;
    if (total - prefix > 0xFFFF) { /* unreachable at rank <= 32, kept for the format's sake */
        prefix += 2;
        total = prefix + n + 1;
        total += (NPY_ALIGN - total % NPY_ALIGN) % NPY_ALIGN;
    }
    size_t hlen = total - prefix, size;
    if (__builtin_add_overflow(total, nbytes, &size))
        return fail(path, ORTKIT_E_SHAPE, "tensor is too large to write");

    unsigned char *img = malloc(size ? size : 1);
    if (!img)
        return ortkit__error_nomem_size(size);
    memcpy(img, NPY_MAGIC, NPY_MAGIC_LEN);
    img[6] = prefix == 10 ? 1 : 2;
    img[7] = 0;
    for (size_t i = 0; i < prefix - 8; i++)
        img[8 + i] = (unsigned char)(hlen >> (8 * i));
    memcpy(img + prefix, dict, n);
    memset(img + prefix + n, ' ', hlen - n - 1);
    img[total - 1] = '\n';

    unsigned char *dst = img + total;
    if (type == ORTKIT_TYPE_STRING) {
        memset(dst, 0, nbytes);
        for (size_t i = 0; i < count; i++) {
            const unsigned char *s = (const unsigned char *)ortkit_tensor_string(t, i);
            unsigned char *e = dst + i * width * 4;
            uint32_t cp;
            for (size_t step; s && *s; s += step, e += 4) {
                step = utf8_decode(s, &cp); /* validated above */
                e[0] = (unsigned char)cp, e[1] = (unsigned char)(cp >> 8);
                e[2] = (unsigned char)(cp >> 16), e[3] = (unsigned char)(cp >> 24);
            }
        }
    } else if (nbytes) {
        memcpy(dst, ortkit_tensor_data(t), nbytes);
        /* numpy bools are 0 or 1; a C program may have stored any non-zero byte. */
        if (type == ORTKIT_TYPE_BOOL)
            for (size_t i = 0; i < nbytes; i++)
                dst[i] = dst[i] != 0;
    }
    int rc = ortkit__file_write_atomic(path, img, size);
    free(img);
    return rc;
}
