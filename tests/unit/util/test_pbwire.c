/*
 * test_pbwire.c - src/util's protobuf wire reader and its nesting check:
 * every wire type, every way bytes fail to be protobuf, and nesting counted
 * through message fields only, on the descriptors generated from onnx.proto.
 */
#include "testutil.h"

#include "pbwriter.h"
#include "util.h"

#include "onnx-data.pb-c.h"
#include "onnx.pb-c.h"

static void test_fields(void **state)
{
    (void)state;
    pbw w = {0};
    pb_int(&w, 1, 300);
    pb_tag(&w, 2, PB_FIXED64);
    pb_raw(&w, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
    pb_str(&w, 3, "abc");
    pb_tag(&w, 536870911, PB_FIXED32); /* the largest field number */
    pb_raw(&w, "\xff\x00\x00\x80", 4);
    pb_int(&w, 5, -1); /* ten bytes */
    unsigned char bytes[64] = {0};
    assert_true(w.len <= sizeof bytes);
    memcpy(bytes, w.buf, w.len);
    const unsigned char *p = bytes, *end = bytes + w.len;
    ortkit__pb_field f = {0};
    assert_int_equal(ortkit__pb_next(&p, end, &f), 1);
    assert_true(f.number == 1 && f.wire == ORTKIT__PB_VARINT && f.value == 300);
    assert_int_equal(ortkit__pb_next(&p, end, &f), 1);
    assert_true(f.number == 2 && f.wire == ORTKIT__PB_FIXED64 && f.value == 0x0807060504030201u);
    assert_int_equal(ortkit__pb_next(&p, end, &f), 1);
    assert_true(f.number == 3 && f.wire == ORTKIT__PB_BYTES && f.len == 3);
    assert_memory_equal(f.data, "abc", 3);
    assert_int_equal(ortkit__pb_next(&p, end, &f), 1);
    assert_true(f.number == 536870911 && f.wire == ORTKIT__PB_FIXED32 && f.value == 0x800000ffu);
    assert_int_equal(ortkit__pb_next(&p, end, &f), 1);
    assert_true(f.number == 5 && f.value == UINT64_MAX);
    assert_int_equal(ortkit__pb_next(&p, end, &f), 0);
    assert_int_equal(ortkit__pb_next(&p, end, &f), 0);
    assert_true(p == end);
    pb_free(&w);
}

/* Each is refused by ortkit__pb_next and found malformed by the check. */
static void test_not_protobuf(void **state)
{
    (void)state;
    static const struct {
        const char *bytes;
        size_t len;
    } bad[] = {
        {"\x00", 1},                                              /* field number 0 */
        {"\x0b\x0c", 2},                                          /* a group (wire type 3) */
        {"\x0e\x00", 2},                                          /* wire type 6 */
        {"\x08", 1},                                              /* a varint cut off */
        {"\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12}, /* a varint of eleven bytes */
        {"\x09\x01\x02", 3},                                      /* fixed64 cut off */
        {"\x0d\x01", 2},                                          /* fixed32 cut off */
        {"\x0a\x05\x01", 3},                                      /* a length past the end */
        {"\x0a\xff\xff\xff\xff\xff\xff\xff\xff\x7f", 10},         /* a huge length */
        {"\x80\x80\x80\x80\x80\x01", 6},                          /* a tag past 32 bits */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const unsigned char *p = (const unsigned char *)bad[i].bytes, *start = p;
        ortkit__pb_field f;
        if (ortkit__pb_next(&p, start + bad[i].len, &f) != -1)
            fail_msg("case %zu was read", i);
        assert_true(p == start); /* not moved */
        char why[160];
        assert_int_equal(ortkit__pb_check(bad[i].bytes, bad[i].len, &onnx__model_proto__descriptor,
                                          ORTKIT__PB_MAX_DEPTH, why, sizeof why),
                         ORTKIT__PB_MALFORMED);
        assert_non_null(strstr(why, "malformed protobuf in onnx.ModelProto at byte 0"));
    }
    /* Malformed deep down: the message and byte where it is. */
    pbw w = {0}, g = {0};
    pb_str(&g, 2, "g");
    pb_raw(&g, "\x0b", 1);
    pb_msg(&w, 7, &g);
    char why[160];
    assert_int_equal(ortkit__pb_check(w.buf, w.len, &onnx__model_proto__descriptor, 100, why,
                                      sizeof why),
                     ORTKIT__PB_MALFORMED);
    assert_string_equal(why, "malformed protobuf in onnx.GraphProto at byte 5");
    pb_free(&w);
    pb_free(&g);
}

static int check(const pbw *w, const ProtobufCMessageDescriptor *desc, unsigned max, char *why)
{
    return ortkit__pb_check(w->buf, w->len, desc, max, why, 160);
}

/* Levels are counted below the top message, through message fields only. */
static void test_depth(void **state)
{
    (void)state;
    char why[160];
    pbw w = {0};
    assert_int_equal(ortkit__pb_check(NULL, 0, &onnx__model_proto__descriptor, 100, why, sizeof why),
                     ORTKIT__PB_OK);
    assert_int_equal(ortkit__pb_check("", 0, &onnx__model_proto__descriptor, 100, NULL, 0),
                     ORTKIT__PB_OK);

    /* OptionalProto.optional_value (7) nested: depth levels below the top. */
    static const int optional[] = {7};
    for (size_t depth = 0; depth <= 102; depth++) {
        pb_nest(&w, optional, NULL, 1, depth, NULL);
        int want = depth <= 100 ? ORTKIT__PB_OK : ORTKIT__PB_TOO_DEEP;
        if (check(&w, &onnx__optional_proto__descriptor, 100, why) != want)
            fail_msg("depth %zu: %s", depth, why);
        /* A smaller limit is kept too; a larger one is cut to 100. */
        assert_int_equal(check(&w, &onnx__optional_proto__descriptor, 7, why),
                         depth <= 7 ? ORTKIT__PB_OK : ORTKIT__PB_TOO_DEEP);
        assert_int_equal(check(&w, &onnx__optional_proto__descriptor, 100000, why), want);
        w.len = 0;
    }
    pb_nest(&w, optional, NULL, 1, 101, NULL);
    assert_int_equal(check(&w, &onnx__optional_proto__descriptor, 100, why), ORTKIT__PB_TOO_DEEP);
    /* The 101st level is the last two bytes: its tag and a length of 0. */
    char want[160];
    snprintf(want, sizeof want, "messages nested deeper than 100 levels (onnx.OptionalProto at byte %zu)",
             w.len - 2);
    assert_string_equal(why, want);
    w.len = 0;

    /* Siblings are not nesting: 10,000 sub-messages side by side, each 100 deep. */
    pbw one = {0};
    pb_nest(&one, optional, NULL, 1, 99, NULL);
    pbw seq = {0};
    for (int i = 0; i < 10000; i++)
        pb_msg(&seq, 7, &one); /* SequenceProto.optional_values */
    assert_int_equal(check(&seq, &onnx__sequence_proto__descriptor, 100, why), ORTKIT__PB_OK);
    pb_nest(&w, optional, NULL, 1, 100, NULL);
    pb_msg(&seq, 7, &w); /* the last one level deeper than the rest */
    assert_int_equal(check(&seq, &onnx__sequence_proto__descriptor, 100, why), ORTKIT__PB_TOO_DEEP);
    pb_free(&seq);
    pb_free(&one);
    w.len = 0;

    /* The same bytes in a bytes field, a string field, a packed field or an
     * unknown field are not decoded, so they do not nest. */
    pbw deep = {0};
    pb_nest(&deep, optional, NULL, 1, 5000, NULL);
    pb_bytes(&w, 9, deep.buf, deep.len);  /* TensorProto.raw_data */
    pb_bytes(&w, 8, deep.buf, deep.len);  /* TensorProto.name */
    pb_bytes(&w, 4, deep.buf, deep.len);  /* TensorProto.float_data, packed */
    pb_bytes(&w, 77, deep.buf, deep.len); /* no such field */
    assert_int_equal(check(&w, &onnx__tensor_proto__descriptor, 100, why), ORTKIT__PB_OK);
    /* In a message field they nest only as that message's own fields do:
     * TensorProto.segment's field 7 is unknown to it. */
    pb_bytes(&w, 3, deep.buf, deep.len);
    assert_int_equal(check(&w, &onnx__tensor_proto__descriptor, 100, why), ORTKIT__PB_OK);
    w.len = 0;
    /* In SequenceProto, 7 is optional_values: an OptionalProto 5,000 deep. */
    pb_bytes(&w, 1, deep.buf, deep.len); /* its name */
    assert_int_equal(check(&w, &onnx__sequence_proto__descriptor, 100, why), ORTKIT__PB_OK);
    pb_raw(&w, deep.buf, deep.len);
    assert_int_equal(check(&w, &onnx__sequence_proto__descriptor, 100, why), ORTKIT__PB_TOO_DEEP);
    assert_non_null(strstr(why, "onnx.OptionalProto"));
    pb_free(&deep);
    pb_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fields),
        cmocka_unit_test(test_not_protobuf),
        cmocka_unit_test(test_depth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
