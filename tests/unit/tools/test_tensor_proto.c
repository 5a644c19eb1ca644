/* test_tensor_proto.c - TensorProto, SequenceProto and OptionalProto decoding:
 * every element type through raw_data and the typed fields, and malformed input. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "core.h"
#include "ortkit/tools/proto.h"
#include "pbwriter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TESTDATA "/usr/share/libonnx-testdata/data"

#define assert_error_has(text)                                                              \
    do {                                                                                    \
        if (!strstr(ortkit_error_last(), (text)))                                           \
            fail_msg("error '%s' lacks '%s'", ortkit_error_last(), (text));                 \
    } while (0)

static ortkit_tensor *parse_ok(const pbw *w)
{
    ortkit_tensor *t = NULL;
    if (ortkit_tensor_proto_parse(&t, w->buf, w->len))
        fail_msg("parse failed: %s", ortkit_error_last());
    return t;
}

static int parse_fails(const pbw *w, int code)
{
    ortkit_tensor *t = (ortkit_tensor *)1;
    int rc = ortkit_tensor_proto_parse(&t, w->buf, w->len);
    assert_int_equal(rc, code);
    assert_null(t);
    assert_true(ortkit_error_last()[0] != '\0');
    return rc;
}

static void assert_shape(const ortkit_tensor *t, ortkit_type type, const int64_t *dims, size_t rank)
{
    assert_int_equal(ortkit_tensor_type(t), type);
    assert_int_equal(ortkit_tensor_rank(t), rank);
    for (size_t i = 0; i < rank; i++)
        assert_int_equal(ortkit_tensor_shape(t)[i], dims[i]);
}

/* raw_data: the bytes come through unchanged for every fixed-size type. */
static void test_raw_every_type(void **state)
{
    static const ortkit_type types[] = {
        ORTKIT_TYPE_FLOAT32, ORTKIT_TYPE_UINT8, ORTKIT_TYPE_INT8, ORTKIT_TYPE_UINT16,
        ORTKIT_TYPE_INT16, ORTKIT_TYPE_INT32, ORTKIT_TYPE_INT64, ORTKIT_TYPE_BOOL,
        ORTKIT_TYPE_FLOAT16, ORTKIT_TYPE_FLOAT64, ORTKIT_TYPE_UINT32, ORTKIT_TYPE_UINT64,
        ORTKIT_TYPE_COMPLEX64, ORTKIT_TYPE_COMPLEX128, ORTKIT_TYPE_BFLOAT16,
        ORTKIT_TYPE_FLOAT8E4M3FN, ORTKIT_TYPE_FLOAT8E4M3FNUZ, ORTKIT_TYPE_FLOAT8E5M2,
        ORTKIT_TYPE_FLOAT8E5M2FNUZ, ORTKIT_TYPE_UINT4, ORTKIT_TYPE_INT4};
    const int64_t dims[] = {3, 1, 3}; /* 9 elements: odd, so 4-bit types need 5 bytes */
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
        size_t nbytes = ortkit__type_nbytes(types[k], 9);
        unsigned char data[9 * 16];
        for (size_t i = 0; i < nbytes; i++)
            data[i] = (unsigned char)(i * 7 + k + (types[k] == ORTKIT_TYPE_BOOL ? 0 : 1)) &
                      (types[k] == ORTKIT_TYPE_BOOL ? 1 : 0xff);
        pbw w = {0};
        pb_dims(&w, dims, 3);
        pb_int(&w, TP_DATA_TYPE, types[k]);
        pb_str(&w, TP_NAME, "x");
        pb_bytes(&w, TP_RAW, data, nbytes);
        ortkit_tensor *t = parse_ok(&w);
        assert_shape(t, types[k], dims, 3);
        assert_int_equal(ortkit_tensor_nbytes(t), nbytes);
        assert_memory_equal(ortkit_tensor_data(t), data, nbytes);
        ortkit_tensor_free(t);
        pb_free(&w);
    }
}

static ortkit_tensor *typed(int type, int field, const int64_t *v, size_t n, const int64_t *dims,
                            size_t rank)
{
    pbw w = {0};
    pb_dims(&w, dims, rank);
    pb_int(&w, TP_DATA_TYPE, type);
    pb_packed(&w, field, v, n);
    ortkit_tensor *t = parse_ok(&w);
    pb_free(&w);
    return t;
}

/* int32_data holds 8- and 16-bit values, bool, float16 and bfloat16 as bits. */
static void test_int32_data(void **state)
{
    const int64_t dims[] = {4};
    const int64_t small[] = {-1, 127, -128, 5};
    ortkit_tensor *t = typed(ORTKIT_TYPE_INT8, TP_INT32, small, 4, dims, 1);
    const int8_t want_i8[] = {-1, 127, -128, 5};
    assert_memory_equal(ortkit_tensor_data(t), want_i8, 4);
    ortkit_tensor_free(t);

    const int64_t u8[] = {0, 255, 17, 1};
    t = typed(ORTKIT_TYPE_UINT8, TP_INT32, u8, 4, dims, 1);
    const uint8_t want_u8[] = {0, 255, 17, 1};
    assert_memory_equal(ortkit_tensor_data(t), want_u8, 4);
    ortkit_tensor_free(t);

    const int64_t i16[] = {-32768, 32767, -2, 300};
    t = typed(ORTKIT_TYPE_INT16, TP_INT32, i16, 4, dims, 1);
    const int16_t want_i16[] = {-32768, 32767, -2, 300};
    assert_memory_equal(ortkit_tensor_data(t), want_i16, 8);
    ortkit_tensor_free(t);

    const int64_t u16[] = {65535, 0, 1, 40000};
    t = typed(ORTKIT_TYPE_UINT16, TP_INT32, u16, 4, dims, 1);
    const uint16_t want_u16[] = {65535, 0, 1, 40000};
    assert_memory_equal(ortkit_tensor_data(t), want_u16, 8);
    ortkit_tensor_free(t);

    const int64_t b[] = {0, 1, 2, 0};
    t = typed(ORTKIT_TYPE_BOOL, TP_INT32, b, 4, dims, 1);
    const uint8_t want_b[] = {0, 1, 1, 0};
    assert_memory_equal(ortkit_tensor_data(t), want_b, 4);
    ortkit_tensor_free(t);

    /* 1.0, -2.0, +inf, NaN as float16 bit patterns; bfloat16 likewise. */
    const int64_t f16[] = {0x3c00, 0xc000, 0x7c00, 0x7e00};
    t = typed(ORTKIT_TYPE_FLOAT16, TP_INT32, f16, 4, dims, 1);
    const uint16_t want_f16[] = {0x3c00, 0xc000, 0x7c00, 0x7e00};
    assert_memory_equal(ortkit_tensor_data(t), want_f16, 8);
    ortkit_tensor_free(t);
    const int64_t bf16[] = {0x3f80, 0xc000, 0x7f80, 0x7fc0};
    t = typed(ORTKIT_TYPE_BFLOAT16, TP_INT32, bf16, 4, dims, 1);
    const uint16_t want_bf16[] = {0x3f80, 0xc000, 0x7f80, 0x7fc0};
    assert_memory_equal(ortkit_tensor_data(t), want_bf16, 8);
    ortkit_tensor_free(t);

    const int64_t i32[] = {-2147483648LL, 2147483647, 0, -7};
    t = typed(ORTKIT_TYPE_INT32, TP_INT32, i32, 4, dims, 1);
    const int32_t want_i32[] = {INT32_MIN, INT32_MAX, 0, -7};
    assert_memory_equal(ortkit_tensor_data(t), want_i32, 16);
    ortkit_tensor_free(t);

    const int64_t f8[] = {0x38, 0xb8, 0x7f, 0x00};
    t = typed(ORTKIT_TYPE_FLOAT8E4M3FN, TP_INT32, f8, 4, dims, 1);
    const uint8_t want_f8[] = {0x38, 0xb8, 0x7f, 0x00};
    assert_memory_equal(ortkit_tensor_data(t), want_f8, 4);
    ortkit_tensor_free(t);

    /* 4-bit: two elements per entry, low nibble first; 3 elements take 2 entries. */
    const int64_t dims3[] = {3};
    const int64_t i4[] = {0x9f, 0x03};
    t = typed(ORTKIT_TYPE_INT4, TP_INT32, i4, 2, dims3, 1);
    const uint8_t want_i4[] = {0x9f, 0x03};
    assert_memory_equal(ortkit_tensor_data(t), want_i4, 2);
    ortkit_tensor_free(t);
}

static void test_wide_fields(void **state)
{
    const int64_t dims[] = {2, 2};
    const int64_t i64[] = {INT64_MIN, INT64_MAX, 0, -1};
    ortkit_tensor *t = typed(ORTKIT_TYPE_INT64, TP_INT64, i64, 4, dims, 2);
    assert_memory_equal(ortkit_tensor_data(t), i64, 32);
    ortkit_tensor_free(t);

    const int64_t u64[] = {-1 /* UINT64_MAX */, 1, 2, 3};
    t = typed(ORTKIT_TYPE_UINT64, TP_UINT64, u64, 4, dims, 2);
    const uint64_t want_u64[] = {UINT64_MAX, 1, 2, 3};
    assert_memory_equal(ortkit_tensor_data(t), want_u64, 32);
    ortkit_tensor_free(t);

    const int64_t u32[] = {4294967295LL, 0, 7, 65536};
    t = typed(ORTKIT_TYPE_UINT32, TP_UINT64, u32, 4, dims, 2);
    const uint32_t want_u32[] = {UINT32_MAX, 0, 7, 65536};
    assert_memory_equal(ortkit_tensor_data(t), want_u32, 16);
    ortkit_tensor_free(t);

    /* float_data and double_data are packed fixed-width fields. */
    const float f[] = {1.5f, -2.25f, 0.0f, 3e38f};
    pbw w = {0};
    pb_dims(&w, dims, 2);
    pb_int(&w, TP_DATA_TYPE, ORTKIT_TYPE_FLOAT32);
    pb_bytes(&w, TP_FLOAT, f, sizeof f);
    t = parse_ok(&w);
    assert_memory_equal(ortkit_tensor_data(t), f, sizeof f);
    ortkit_tensor_free(t);
    pb_free(&w);

    /* complex64: two floats per element, in float_data. */
    const int64_t cdims[] = {2};
    pb_dims(&w, cdims, 1);
    pb_int(&w, TP_DATA_TYPE, ORTKIT_TYPE_COMPLEX64);
    pb_bytes(&w, TP_FLOAT, f, sizeof f);
    t = parse_ok(&w);
    assert_int_equal(ortkit_tensor_count(t), 2);
    assert_memory_equal(ortkit_tensor_data(t), f, sizeof f);
    ortkit_tensor_free(t);
    pb_free(&w);

    const double d[] = {1e300, -0.5, 2.0, -0.0};
    pb_dims(&w, dims, 2);
    pb_int(&w, TP_DATA_TYPE, ORTKIT_TYPE_FLOAT64);
    pb_bytes(&w, TP_DOUBLE, d, sizeof d);
    t = parse_ok(&w);
    assert_memory_equal(ortkit_tensor_data(t), d, sizeof d);
    ortkit_tensor_free(t);
    pb_free(&w);

    pb_dims(&w, cdims, 1);
    pb_int(&w, TP_DATA_TYPE, ORTKIT_TYPE_COMPLEX128);
    pb_bytes(&w, TP_DOUBLE, d, sizeof d);
    t = parse_ok(&w);
    assert_memory_equal(ortkit_tensor_data(t), d, sizeof d);
    ortkit_tensor_free(t);
    pb_free(&w);
}

static void test_strings_scalars_empty(void **state)
{
    const int64_t dims[] = {3};
    pbw w = {0};
    pb_dims(&w, dims, 1);
    pb_int(&w, TP_DATA_TYPE, ORTKIT_TYPE_STRING);
    pb_str(&w, TP_STRING, "monday");
    pb_str(&w, TP_STRING, "");
    pb_str(&w, TP_STRING, "caf\xc3\xa9");
    ortkit_tensor *t = parse_ok(&w);
    assert_int_equal(ortkit_tensor_type(t), ORTKIT_TYPE_STRING);
    assert_string_equal(ortkit_tensor_string(t, 0), "monday");
    assert_string_equal(ortkit_tensor_string(t, 1), "");
    assert_string_equal(ortkit_tensor_string(t, 2), "caf\xc3\xa9");
    ortkit_tensor_free(t);
    pb_free(&w);

    /* A scalar: no dims, one value. */
    const float one = 1.0f;
    pb_int(&w, TP_DATA_TYPE, ORTKIT_TYPE_FLOAT32);
    pb_bytes(&w, TP_RAW, &one, sizeof one);
    t = parse_ok(&w);
    assert_int_equal(ortkit_tensor_rank(t), 0);
    assert_int_equal(ortkit_tensor_count(t), 1);
    ortkit_tensor_free(t);
    pb_free(&w);

    /* An empty tensor needs no data at all. */
    const int64_t empty[] = {0, 3};
    pb_dims(&w, empty, 2);
    pb_int(&w, TP_DATA_TYPE, ORTKIT_TYPE_INT64);
    t = parse_ok(&w);
    assert_int_equal(ortkit_tensor_count(t), 0);
    ortkit_tensor_free(t);
    pb_free(&w);
}

static void test_malformed(void **state)
{
    pbw w = {0};
    /* Nothing at all: decodes, but has no type. */
    parse_fails(&w, ORTKIT_E_FORMAT);
    assert_error_has("no element type");

    const int64_t dims[] = {2, 3};
    const float six[6] = {0};
    pb_float_tensor(&w, "x", dims, 2, six, 6);
    /* Truncated: the last field is cut short. */
    pbw cut = w;
    cut.len -= 5;
    parse_fails(&cut, ORTKIT_E_FORMAT);
    assert_error_has("protobuf decoding failed");
    pb_free(&w);

    /* raw_data of the wrong size, with the tensor described. */
    pb_float_tensor(&w, "x", dims, 2, six, 5);
    parse_fails(&w, ORTKIT_E_FORMAT);
    assert_error_has("tensor 'x' (float32[2,3]) has 20 bytes of raw_data, 24 expected");
    pb_free(&w);

    /* Values in a field the type does not use. */
    const int64_t six_ints[6] = {1, 2, 3, 4, 5, 6};
    pb_dims(&w, dims, 2);
    pb_int(&w, TP_DATA_TYPE, ORTKIT_TYPE_INT64);
    pb_packed(&w, TP_INT32, six_ints, 6);
    parse_fails(&w, ORTKIT_E_FORMAT);
    assert_error_has("has values in int32_data; its type keeps them in int64_data");
    pb_free(&w);

    /* Too few typed values. */
    pb_dims(&w, dims, 2);
    pb_int(&w, TP_DATA_TYPE, ORTKIT_TYPE_INT64);
    pb_packed(&w, TP_INT64, six_ints, 4);
    parse_fails(&w, ORTKIT_E_FORMAT);
    assert_error_has("4 values in int64_data, 6 expected");
    pb_free(&w);

    /* Both raw_data and typed values. */
    pb_float_tensor(&w, NULL, dims, 2, six, 6);
    pb_packed(&w, TP_INT64, six_ints, 6);
    parse_fails(&w, ORTKIT_E_FORMAT);
    assert_error_has("both raw_data and typed values");
    pb_free(&w);

    /* Strings cannot be raw. */
    pb_int(&w, TP_DATA_TYPE, ORTKIT_TYPE_STRING);
    pb_str(&w, TP_RAW, "abc");
    parse_fails(&w, ORTKIT_E_FORMAT);
    assert_error_has("strings cannot be in raw_data");
    pb_free(&w);

    /* Negative and overflowing dimensions; lying dimensions allocate nothing. */
    const int64_t neg[] = {2, -1};
    pb_dims(&w, neg, 2);
    pb_int(&w, TP_DATA_TYPE, ORTKIT_TYPE_FLOAT32);
    parse_fails(&w, ORTKIT_E_FORMAT);
    assert_error_has("negative dimension");
    pb_free(&w);
    const int64_t huge[] = {INT64_MAX, 4};
    pb_dims(&w, huge, 2);
    pb_int(&w, TP_DATA_TYPE, ORTKIT_TYPE_FLOAT32);
    parse_fails(&w, ORTKIT_E_FORMAT);
    assert_error_has("too large");
    pb_free(&w);
    const int64_t big[] = {1 << 30, 1 << 20};
    pb_dims(&w, big, 2);
    pb_int(&w, TP_DATA_TYPE, ORTKIT_TYPE_UINT8);
    pb_bytes(&w, TP_RAW, "abcd", 4);
    parse_fails(&w, ORTKIT_E_FORMAT);
    assert_error_has("4 bytes of raw_data");
    pb_free(&w);

    /* Unknown element types, ranks above ortkit's limit. */
    pb_int(&w, TP_DATA_TYPE, 99);
    parse_fails(&w, ORTKIT_E_UNSUPPORTED);
    assert_error_has("element type 99");
    pb_free(&w);
    int64_t many[33];
    for (int i = 0; i < 33; i++)
        many[i] = 1;
    pb_dims(&w, many, 33);
    pb_int(&w, TP_DATA_TYPE, ORTKIT_TYPE_FLOAT32);
    parse_fails(&w, ORTKIT_E_UNSUPPORTED);
    assert_error_has("rank 33");
    pb_free(&w);
}

static void test_external_and_segments(void **state)
{
    const int64_t dims[] = {4};
    pbw w = {0}, entry = {0};
    pb_dims(&w, dims, 1);
    pb_int(&w, TP_DATA_TYPE, ORTKIT_TYPE_FLOAT32);
    pb_str(&w, TP_NAME, "weights");
    pb_str(&entry, 1, "location");
    pb_str(&entry, 2, "weights.bin");
    pb_msg(&w, TP_EXTERNAL, &entry);
    pb_int(&w, TP_LOCATION, 1);
    parse_fails(&w, ORTKIT_E_UNSUPPORTED);
    assert_error_has("tensor 'weights' keeps its data in an external file ('weights.bin')");
    pb_free(&w);
    pb_free(&entry);

    pbw seg = {0};
    pb_int(&seg, 1, 0);
    pb_int(&seg, 2, 4);
    pb_dims(&w, dims, 1);
    pb_int(&w, TP_DATA_TYPE, ORTKIT_TYPE_FLOAT32);
    pb_msg(&w, TP_SEGMENT, &seg);
    parse_fails(&w, ORTKIT_E_FORMAT);
    assert_error_has("has a 'segment' field: not a TensorProto");
    pb_free(&w);
    pb_free(&seg);
}

static void float_item(pbw *w, const char *name, float v)
{
    const int64_t dims[] = {1};
    pb_float_tensor(w, name, dims, 1, &v, 1);
}

static void test_sequences(void **state)
{
    pbw seq = {0}, a = {0}, b = {0};
    float_item(&a, "a", 1.0f);
    float_item(&b, "b", 2.0f);
    pb_str(&seq, SP_NAME, "s");
    pb_int(&seq, SP_ELEM_TYPE, 1);
    pb_msg(&seq, SP_TENSORS, &a);
    pb_msg(&seq, SP_TENSORS, &b);
    ortkit_proto_value *v = NULL;
    assert_int_equal(ortkit_proto_value_parse(&v, ORTKIT_KIND_SEQUENCE, seq.buf, seq.len), 0);
    assert_int_equal(v->kind, ORTKIT_KIND_SEQUENCE);
    assert_string_equal(v->name, "s");
    assert_int_equal(v->count, 2);
    assert_int_equal(v->items[1]->kind, ORTKIT_KIND_TENSOR);
    assert_string_equal(v->items[1]->name, "b");
    assert_true(*(const float *)ortkit_tensor_data(v->items[1]->tensor) == 2.0f);

    /* A sequence of that sequence, without elem_type: taken from the values. */
    pbw outer = {0};
    pb_msg(&outer, SP_SEQUENCES, &seq);
    ortkit_proto_value *o = NULL;
    assert_int_equal(ortkit_proto_value_parse(&o, ORTKIT_KIND_SEQUENCE, outer.buf, outer.len), 0);
    assert_int_equal(o->count, 1);
    assert_int_equal(o->items[0]->kind, ORTKIT_KIND_SEQUENCE);
    assert_int_equal(o->items[0]->count, 2);
    ortkit_proto_value_free(o);
    ortkit_proto_value_free(v);
    pb_free(&outer);

    /* An empty sequence of tensors. */
    pbw empty = {0};
    pb_int(&empty, SP_ELEM_TYPE, 1);
    assert_int_equal(ortkit_proto_value_parse(&v, ORTKIT_KIND_SEQUENCE, empty.buf, empty.len), 0);
    assert_int_equal(v->count, 0);
    ortkit_proto_value_free(v);
    pb_free(&empty);

    /* A bad element is named by its index. */
    pbw bad = {0}, broken = {0};
    pb_int(&broken, TP_DATA_TYPE, ORTKIT_TYPE_FLOAT32);
    pb_bytes(&broken, TP_RAW, "xyz", 3);
    pb_str(&bad, SP_NAME, "s");
    pb_msg(&bad, SP_TENSORS, &a);
    pb_msg(&bad, SP_TENSORS, &broken);
    v = (ortkit_proto_value *)1;
    assert_int_equal(ortkit_proto_value_parse(&v, ORTKIT_KIND_SEQUENCE, bad.buf, bad.len),
                     ORTKIT_E_FORMAT);
    assert_null(v);
    assert_error_has("sequence 's' element 1");
    pb_free(&bad);
    pb_free(&broken);

    /* Maps in sequences, and map values, are not supported. */
    pbw maps = {0}, map = {0};
    pb_int(&map, 2, 7);
    pb_int(&maps, SP_ELEM_TYPE, 4);
    pb_msg(&maps, SP_MAPS, &map);
    assert_int_equal(ortkit_proto_value_parse(&v, ORTKIT_KIND_SEQUENCE, maps.buf, maps.len),
                     ORTKIT_E_UNSUPPORTED);
    assert_int_equal(ortkit_proto_value_parse(&v, ORTKIT_KIND_MAP, map.buf, map.len),
                     ORTKIT_E_UNSUPPORTED);
    pb_free(&maps);
    pb_free(&map);

    /* Nesting without end is refused, not followed. */
    pbw deep = {0};
    pb_int(&deep, SP_ELEM_TYPE, 1);
    for (int i = 0; i < 40; i++) {
        pbw up = {0};
        pb_int(&up, SP_ELEM_TYPE, 3);
        pb_msg(&up, SP_SEQUENCES, &deep);
        pb_free(&deep);
        deep = up;
    }
    assert_int_equal(ortkit_proto_value_parse(&v, ORTKIT_KIND_SEQUENCE, deep.buf, deep.len),
                     ORTKIT_E_FORMAT);
    assert_error_has("nest");
    pb_free(&deep);
    pb_free(&seq);
    pb_free(&a);
    pb_free(&b);
}

static void test_optionals(void **state)
{
    pbw opt = {0}, t = {0};
    float_item(&t, "x", 3.0f);
    pb_str(&opt, OP_NAME, "o");
    pb_int(&opt, OP_ELEM_TYPE, 1);
    pb_msg(&opt, OP_TENSOR, &t);
    ortkit_proto_value *v = NULL;
    assert_int_equal(ortkit_proto_value_parse(&v, ORTKIT_KIND_OPTIONAL, opt.buf, opt.len), 0);
    assert_int_equal(v->kind, ORTKIT_KIND_OPTIONAL);
    assert_int_equal(v->count, 1);
    assert_int_equal(v->items[0]->kind, ORTKIT_KIND_TENSOR);
    ortkit_proto_value_free(v);

    pbw none = {0};
    pb_str(&none, OP_NAME, "o");
    pb_int(&none, OP_ELEM_TYPE, 1);
    assert_int_equal(ortkit_proto_value_parse(&v, ORTKIT_KIND_OPTIONAL, none.buf, none.len), 0);
    assert_int_equal(v->count, 0);
    ortkit_proto_value_free(v);

    /* Two values at once are malformed. */
    pbw seq = {0};
    pb_int(&seq, SP_ELEM_TYPE, 1);
    pb_msg(&opt, OP_SEQUENCE, &seq);
    assert_int_equal(ortkit_proto_value_parse(&v, ORTKIT_KIND_OPTIONAL, opt.buf, opt.len),
                     ORTKIT_E_FORMAT);
    assert_error_has("more than one value");

    /* Arguments. */
    assert_int_equal(ortkit_proto_value_parse(&v, (ortkit_value_kind)42, t.buf, t.len),
                     ORTKIT_E_INVALID_ARG);
    assert_int_equal(ortkit_proto_value_parse(NULL, ORTKIT_KIND_TENSOR, t.buf, t.len),
                     ORTKIT_E_INVALID_ARG);
    assert_int_equal(ortkit_tensor_proto_parse(NULL, t.buf, t.len), ORTKIT_E_INVALID_ARG);
    ortkit_proto_value_free(NULL);
    pb_free(&opt);
    pb_free(&none);
    pb_free(&seq);
    pb_free(&t);
}

static void test_files(void **state)
{
    char dir[] = "/tmp/ortkit_test_tp_XXXXXX", path[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/x.pb", dir);
    pbw w = {0};
    const int64_t dims[] = {2};
    const float v[] = {1, 2};
    pb_float_tensor(&w, "x", dims, 1, v, 2);
    assert_int_equal(pb_save(&w, path), 0);
    ortkit_tensor *t = NULL;
    assert_int_equal(ortkit_tensor_proto_read(&t, path), 0);
    assert_memory_equal(ortkit_tensor_data(t), v, sizeof v);
    ortkit_tensor_free(t);
    ortkit_proto_value *pv = NULL;
    assert_int_equal(ortkit_proto_value_read(&pv, ORTKIT_KIND_TENSOR, path), 0);
    assert_string_equal(pv->name, "x");
    ortkit_proto_value_free(pv);

    /* Errors name the file. */
    w.len -= 3;
    assert_int_equal(pb_save(&w, path), 0);
    assert_int_equal(ortkit_tensor_proto_read(&t, path), ORTKIT_E_FORMAT);
    assert_error_has(path);
    assert_int_equal(ortkit_proto_value_read(&pv, ORTKIT_KIND_TENSOR, path), ORTKIT_E_FORMAT);
    assert_error_has(path);
    unlink(path);
    assert_int_equal(ortkit_tensor_proto_read(&t, path), ORTKIT_E_IO);
    assert_error_has(path);
    assert_int_equal(ortkit_tensor_proto_read(&t, dir), ORTKIT_E_IO);
    assert_error_has("directory");
    rmdir(dir);
    pb_free(&w);
}

/*
 * Nesting is bounded before decoding: protobuf-c recursed once per level of a
 * 50,000-deep SequenceProto and overflowed the stack before ortkit's own
 * check of sequence depth could run.
 */
static void test_deep_nesting(void **state)
{
    (void)state;
    static const struct {
        ortkit_value_kind kind;
        int numbers[2];
        size_t period;
        const char *what;
    } cases[] = {
        {ORTKIT_KIND_SEQUENCE, {SP_SEQUENCES}, 1, "SequenceProto"},
        {ORTKIT_KIND_OPTIONAL, {OP_OPTIONAL}, 1, "OptionalProto"},
        {ORTKIT_KIND_SEQUENCE, {SP_OPTIONALS, OP_SEQUENCE}, 2, "SequenceProto"},
    };
    char dir[] = "/tmp/ortkit_test_tp_XXXXXX", path[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/deep.pb", dir);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        static const size_t depths[] = {100, 101, 50000};
        for (size_t d = 0; d < sizeof depths / sizeof depths[0]; d++) {
            size_t depth = depths[d];
            pbw w = {0};
            pb_nest(&w, cases[c].numbers, NULL, cases[c].period, depth, NULL);
            ortkit_proto_value *v = (ortkit_proto_value *)&w;
            int rc = ortkit_proto_value_parse(&v, cases[c].kind, w.buf, w.len);
            /* 100 levels decode (and ortkit's own limit of 32 nested values
             * then refuses them), 101 do not. */
            assert_int_equal(rc, ORTKIT_E_FORMAT);
            assert_null(v);
            if (depth == 100) {
                assert_error_has("nest more than 32 deep");
            } else {
                assert_error_has("nested deeper than 100 levels");
                assert_error_has(cases[c].what);
            }
            if (depth == 50000) {
                assert_int_equal(pb_save(&w, path), 0);
                assert_int_equal(ortkit_proto_value_read(&v, cases[c].kind, path), ORTKIT_E_FORMAT);
                assert_error_has(path);
                assert_error_has("nested deeper than 100 levels");
            }
            pb_free(&w);
        }
    }
    unlink(path);
    rmdir(dir);
}

/* Files of the ONNX backend tests, when Debian's libonnx-testdata is there. */
static void test_debian_testdata(void **state)
{
    struct stat st;
    if (stat(TESTDATA, &st) != 0)
        skip();
    ortkit_tensor *t = NULL;
    assert_int_equal(ortkit_tensor_proto_read(&t, TESTDATA "/node/test_abs/test_data_set_0/input_0.pb"), 0);
    const int64_t dims[] = {3, 4, 5};
    assert_shape(t, ORTKIT_TYPE_FLOAT32, dims, 3);
    ortkit_tensor_free(t);

    ortkit_proto_value *v = NULL;
    assert_int_equal(ortkit_proto_value_read(&v, ORTKIT_KIND_SEQUENCE,
                                             TESTDATA "/node/test_sequence_insert_at_back/test_data_set_0/input_0.pb"), 0);
    assert_int_equal(v->kind, ORTKIT_KIND_SEQUENCE);
    assert_true(v->count > 0);
    ortkit_proto_value_free(v);
    assert_int_equal(ortkit_proto_value_read(&v, ORTKIT_KIND_OPTIONAL,
                                             TESTDATA "/node/test_optional_has_element_empty/test_data_set_0/input_0.pb"), 0);
    assert_int_equal(v->count, 0);
    ortkit_proto_value_free(v);
    /* Strings, through string_data. */
    assert_int_equal(ortkit_tensor_proto_read(&t, TESTDATA "/node/test_strnormalizer_export_monday_casesensintive_upper/test_data_set_0/input_0.pb"), 0);
    assert_int_equal(ortkit_tensor_type(t), ORTKIT_TYPE_STRING);
    assert_string_equal(ortkit_tensor_string(t, 0), "monday");
    ortkit_tensor_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_raw_every_type),
        cmocka_unit_test(test_int32_data),
        cmocka_unit_test(test_wide_fields),
        cmocka_unit_test(test_strings_scalars_empty),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_external_and_segments),
        cmocka_unit_test(test_sequences),
        cmocka_unit_test(test_optionals),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_debian_testdata),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
