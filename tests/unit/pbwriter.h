/*
 * pbwriter.h - a few lines of protobuf encoding, so that tests can write
 * TensorProto / SequenceProto / OptionalProto bytes without the decoder
 * under test (header-only; the growth of a buffer failing aborts the test).
 */
#ifndef ORTKIT_PBWRITER_H
#define ORTKIT_PBWRITER_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pbw {
    unsigned char *buf;
    size_t len, cap;
} pbw;

enum { PB_VARINT = 0, PB_FIXED64 = 1, PB_BYTES = 2, PB_FIXED32 = 5 };

/* Field numbers of onnx.TensorProto, SequenceProto and OptionalProto. */
enum { TP_DIMS = 1, TP_DATA_TYPE = 2, TP_SEGMENT = 3, TP_FLOAT = 4, TP_INT32 = 5, TP_STRING = 6,
       TP_INT64 = 7, TP_NAME = 8, TP_RAW = 9, TP_DOUBLE = 10, TP_UINT64 = 11, TP_EXTERNAL = 13,
       TP_LOCATION = 14 };
enum { SP_NAME = 1, SP_ELEM_TYPE = 2, SP_TENSORS = 3, SP_SPARSE = 4, SP_SEQUENCES = 5, SP_MAPS = 6,
       SP_OPTIONALS = 7 };
enum { OP_NAME = 1, OP_ELEM_TYPE = 2, OP_TENSOR = 3, OP_SPARSE = 4, OP_SEQUENCE = 5, OP_MAP = 6,
       OP_OPTIONAL = 7 };

static inline void pb_raw(pbw *w, const void *data, size_t n)
{
    if (w->len + n > w->cap) {
        size_t cap = (w->len + n) * 2 + 64;
        unsigned char *b = realloc(w->buf, cap);
        if (!b)
            abort();
        w->buf = b;
        w->cap = cap;
    }
    if (n)
        memcpy(w->buf + w->len, data, n);
    w->len += n;
}

static inline void pb_varint(pbw *w, uint64_t v)
{
    unsigned char b[10];
    size_t n = 0;
    do {
        b[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    pb_raw(w, b, n);
}

static inline void pb_tag(pbw *w, int field, int wire) { pb_varint(w, ((uint64_t)field << 3) | (unsigned)wire); }

static inline void pb_int(pbw *w, int field, int64_t v)
{
    pb_tag(w, field, PB_VARINT);
    pb_varint(w, (uint64_t)v);
}

static inline void pb_bytes(pbw *w, int field, const void *data, size_t n)
{
    pb_tag(w, field, PB_BYTES);
    pb_varint(w, n);
    pb_raw(w, data, n);
}

static inline void pb_str(pbw *w, int field, const char *s) { pb_bytes(w, field, s, strlen(s)); }

static inline void pb_msg(pbw *w, int field, const pbw *inner) { pb_bytes(w, field, inner->buf, inner->len); }

/* A packed repeated varint field (int32_data, int64_data, uint64_data). */
static inline void pb_packed(pbw *w, int field, const int64_t *v, size_t n)
{
    pbw body = {0};
    for (size_t i = 0; i < n; i++)
        pb_varint(&body, (uint64_t)v[i]);
    pb_msg(w, field, &body);
    free(body.buf);
}

/* dims, unpacked as onnx's writer does (repeated int64 without [packed]). */
static inline void pb_dims(pbw *w, const int64_t *dims, size_t n)
{
    for (size_t i = 0; i < n; i++)
        pb_int(w, TP_DIMS, dims[i]);
}

static inline size_t pb_varint_len(uint64_t v)
{
    size_t n = 1;
    while (v > 0x7f) {
        v >>= 7;
        n++;
    }
    return n;
}

/*
 * depth messages, each inside the one before: level i is the length-delimited
 * field numbers[i % period] holding the bytes prefix[i % period] (may be
 * NULL) and then level i + 1; the innermost holds inner.  Sizes are worked
 * out from the inside first, so a deep nest costs no copying per level.
 */
static inline void pb_nest(pbw *w, const int *numbers, const pbw *prefix, size_t period, size_t depth,
                           const pbw *inner)
{
    size_t *sizes = malloc((depth ? depth : 1) * sizeof *sizes);
    if (!sizes)
        abort();
    size_t size = inner ? inner->len : 0;
    for (size_t i = depth; i-- > 0;) {
        size += prefix ? prefix[i % period].len : 0;
        sizes[i] = size;
        size += pb_varint_len((uint64_t)numbers[i % period] << 3) + pb_varint_len(size);
    }
    for (size_t i = 0; i < depth; i++) {
        pb_tag(w, numbers[i % period], PB_BYTES);
        pb_varint(w, sizes[i]);
        if (prefix)
            pb_raw(w, prefix[i % period].buf, prefix[i % period].len);
    }
    if (inner)
        pb_raw(w, inner->buf, inner->len);
    free(sizes);
}

static inline void pb_free(pbw *w)
{
    free(w->buf);
    memset(w, 0, sizeof *w);
}

/* Write the buffer to path; 0 on success. */
static inline int pb_save(const pbw *w, const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t n = w->len ? fwrite(w->buf, 1, w->len, f) : 0;
    return (fclose(f) == 0 && n == w->len) ? 0 : -1;
}

/* A float32 TensorProto with raw_data. */
static inline void pb_float_tensor(pbw *w, const char *name, const int64_t *dims, size_t rank,
                                   const float *v, size_t n)
{
    pb_dims(w, dims, rank);
    pb_int(w, TP_DATA_TYPE, 1);
    if (name)
        pb_str(w, TP_NAME, name);
    pb_bytes(w, TP_RAW, v, n * sizeof *v);
}

#endif
