/* test_npy.c - .npy read, parse and write: round trips, malformed input, atomic writes. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* nftw */
#endif
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "core.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/ortkit_test_npy_XXXXXX";

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove(path);
}

static int group_setup(void **state)
{
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int group_teardown(void **state)
{
    return nftw(tmpdir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

/* A path under the test directory; each call site passes its own buffer. */
static const char *tpath(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", tmpdir, name);
    return buf;
}

/* A .npy image as numpy lays it out: dict, spaces, '\n', data at a multiple of 64. */
static unsigned char *npy_image(size_t *size, int major, const char *dict, const void *data,
                                size_t nbytes)
{
    size_t prefix = major == 1 ? 10 : 12, dlen = strlen(dict);
    size_t total = prefix + dlen + 1;
    total += (64 - total % 64) % 64;
    size_t hlen = total - prefix;
    unsigned char *img = malloc(total + nbytes + 1);
    assert_non_null(img);
    memcpy(img, "\x93NUMPY", 6);
    img[6] = (unsigned char)major;
    img[7] = 0;
    for (size_t i = 0; i < prefix - 8; i++)
        img[8 + i] = (unsigned char)(hlen >> (8 * i));
    memcpy(img + prefix, dict, dlen);
    memset(img + prefix + dlen, ' ', hlen - dlen - 1);
    img[total - 1] = '\n';
    if (nbytes)
        memcpy(img + total, data, nbytes);
    *size = total + nbytes;
    return img;
}

static void write_bytes(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

static void assert_contains(const char *haystack, const char *needle)
{
    if (!strstr(haystack, needle))
        fail_msg("expected \"%s\" in \"%s\"", needle, haystack);
}

/* ---- round trips ------------------------------------------------------ */

static ortkit_tensor *roundtrip(const ortkit_tensor *t, const char *name, char *header,
                                size_t hsize)
{
    char path[256];
    tpath(path, sizeof path, name);
    assert_int_equal(ortkit_npy_write(path, t), ORTKIT_OK);
    char *buf;
    size_t size;
    assert_int_equal(ortkit__file_read(&buf, &size, path, 1 << 20), ORTKIT_OK);
    /* numpy's layout: version 1.0, data aligned to 64 bytes, header ends in '\n'. */
    assert_true(size >= 10);
    assert_memory_equal(buf, "\x93NUMPY\x01\x00", 8);
    size_t hlen = (unsigned char)buf[8] | (size_t)(unsigned char)buf[9] << 8;
    assert_int_equal((10 + hlen) % 64, 0);
    assert_int_equal(buf[10 + hlen - 1], '\n');
    if (header)
        snprintf(header, hsize, "%.*s", (int)hlen, buf + 10);
    free(buf);
    ortkit_tensor *back = NULL;
    assert_int_equal(ortkit_npy_read(&back, path), ORTKIT_OK);
    assert_non_null(back);
    return back;
}

static void test_roundtrip_types(void **state)
{
    static const struct {
        ortkit_type type, back;
        const char *descr;
    } cases[] = {
        {ORTKIT_TYPE_FLOAT16, ORTKIT_TYPE_FLOAT16, "'<f2'"},
        {ORTKIT_TYPE_FLOAT32, ORTKIT_TYPE_FLOAT32, "'<f4'"},
        {ORTKIT_TYPE_FLOAT64, ORTKIT_TYPE_FLOAT64, "'<f8'"},
        {ORTKIT_TYPE_INT8, ORTKIT_TYPE_INT8, "'|i1'"},
        {ORTKIT_TYPE_INT16, ORTKIT_TYPE_INT16, "'<i2'"},
        {ORTKIT_TYPE_INT32, ORTKIT_TYPE_INT32, "'<i4'"},
        {ORTKIT_TYPE_INT64, ORTKIT_TYPE_INT64, "'<i8'"},
        {ORTKIT_TYPE_UINT8, ORTKIT_TYPE_UINT8, "'|u1'"},
        {ORTKIT_TYPE_UINT16, ORTKIT_TYPE_UINT16, "'<u2'"},
        {ORTKIT_TYPE_UINT32, ORTKIT_TYPE_UINT32, "'<u4'"},
        {ORTKIT_TYPE_UINT64, ORTKIT_TYPE_UINT64, "'<u8'"},
        {ORTKIT_TYPE_BOOL, ORTKIT_TYPE_BOOL, "'|b1'"},
        {ORTKIT_TYPE_COMPLEX64, ORTKIT_TYPE_COMPLEX64, "'<c8'"},
        {ORTKIT_TYPE_COMPLEX128, ORTKIT_TYPE_COMPLEX128, "'<c16'"},
        /* numpy has no bfloat16: the bits travel as uint16. */
        {ORTKIT_TYPE_BFLOAT16, ORTKIT_TYPE_UINT16, "'<u2'"},
    };
    const int64_t shape[] = {2, 3};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        ortkit_tensor *t = NULL;
        assert_int_equal(ortkit_tensor_new(&t, cases[c].type, shape, 2), ORTKIT_OK);
        unsigned char *d = ortkit_tensor_data(t);
        for (size_t i = 0; i < ortkit_tensor_nbytes(t); i++)
            d[i] = cases[c].type == ORTKIT_TYPE_BOOL ? (unsigned char)(i % 2)
                                                     : (unsigned char)(i * 37 + 11);
        char name[64], header[256];
        snprintf(name, sizeof name, "rt_%s.npy", ortkit_type_name(cases[c].type));
        ortkit_tensor *back = roundtrip(t, name, header, sizeof header);
        assert_contains(header, cases[c].descr);
        assert_contains(header, "'shape': (2, 3)");
        assert_contains(header, "'fortran_order': False");
        assert_int_equal(ortkit_tensor_type(back), cases[c].back);
        assert_int_equal(ortkit_tensor_rank(back), 2);
        assert_memory_equal(ortkit_tensor_shape(back), shape, sizeof shape);
        assert_int_equal(ortkit_tensor_nbytes(back), ortkit_tensor_nbytes(t));
        assert_memory_equal(ortkit_tensor_data(back), d, ortkit_tensor_nbytes(t));
        ortkit_tensor_free(back);
        ortkit_tensor_free(t);
    }
}

static void test_roundtrip_bool_normalised(void **state)
{
    const int64_t shape[] = {3};
    ortkit_tensor *t = NULL;
    assert_int_equal(ortkit_tensor_new(&t, ORTKIT_TYPE_BOOL, shape, 1), ORTKIT_OK);
    memcpy(ortkit_tensor_data(t), "\x00\x07\xff", 3);
    char header[256];
    ortkit_tensor *back = roundtrip(t, "bool_any.npy", header, sizeof header);
    assert_contains(header, "'shape': (3,)");
    assert_memory_equal(ortkit_tensor_data(back), "\x00\x01\x01", 3);
    ortkit_tensor_free(back);
    ortkit_tensor_free(t);
}

static void test_roundtrip_strings(void **state)
{
    const char *const strs[] = {"", "a", "h\xc3\xa9llo", "\xe6\x97\xa5\xe6\x9c\xac",
                                "\xf0\x9f\x98\x80x", "tab\there"};
    const int64_t shape[] = {2, 3};
    ortkit_tensor *t = NULL;
    assert_int_equal(ortkit_tensor_new_strings(&t, shape, 2, strs), ORTKIT_OK);
    char header[256];
    ortkit_tensor *back = roundtrip(t, "strings.npy", header, sizeof header);
    assert_contains(header, "'<U8'"); /* "tab\there" is the longest: 8 code points */
    assert_int_equal(ortkit_tensor_type(back), ORTKIT_TYPE_STRING);
    assert_int_equal(ortkit_tensor_count(back), 6);
    for (size_t i = 0; i < 6; i++)
        assert_string_equal(ortkit_tensor_string(back, i), strs[i]);
    ortkit_tensor_free(back);
    ortkit_tensor_free(t);

    /* All empty: numpy has no zero-width strings, so the width is 1. */
    const char *const empty[] = {"", ""};
    const int64_t two[] = {2};
    assert_int_equal(ortkit_tensor_new_strings(&t, two, 1, empty), ORTKIT_OK);
    back = roundtrip(t, "empty_strings.npy", header, sizeof header);
    assert_contains(header, "'<U1'");
    assert_string_equal(ortkit_tensor_string(back, 1), "");
    ortkit_tensor_free(back);
    ortkit_tensor_free(t);
}

static void test_roundtrip_scalar(void **state)
{
    ortkit_tensor *t = NULL;
    assert_int_equal(ortkit_tensor_new(&t, ORTKIT_TYPE_FLOAT64, NULL, 0), ORTKIT_OK);
    *(double *)ortkit_tensor_data(t) = 2.5;
    char header[256];
    ortkit_tensor *back = roundtrip(t, "scalar.npy", header, sizeof header);
    assert_contains(header, "'shape': ()");
    assert_int_equal(ortkit_tensor_rank(back), 0);
    assert_int_equal(ortkit_tensor_count(back), 1);
    assert_true(*(double *)ortkit_tensor_data(back) == 2.5);
    ortkit_tensor_free(back);
    ortkit_tensor_free(t);

    const char *const one[] = {"\xc3\xbc"};
    assert_int_equal(ortkit_tensor_new_strings(&t, NULL, 0, one), ORTKIT_OK);
    back = roundtrip(t, "scalar_string.npy", header, sizeof header);
    assert_contains(header, "'<U1'");
    assert_int_equal(ortkit_tensor_rank(back), 0);
    assert_string_equal(ortkit_tensor_string(back, 0), "\xc3\xbc");
    ortkit_tensor_free(back);
    ortkit_tensor_free(t);
}

static void test_roundtrip_empty(void **state)
{
    const int64_t shape[] = {0, 3};
    ortkit_tensor *t = NULL;
    assert_int_equal(ortkit_tensor_new(&t, ORTKIT_TYPE_FLOAT32, shape, 2), ORTKIT_OK);
    char header[256];
    ortkit_tensor *back = roundtrip(t, "empty.npy", header, sizeof header);
    assert_contains(header, "'shape': (0, 3)");
    assert_int_equal(ortkit_tensor_count(back), 0);
    assert_int_equal(ortkit_tensor_shape(back)[1], 3);
    ortkit_tensor_free(back);
    ortkit_tensor_free(t);

    assert_int_equal(ortkit_tensor_new(&t, ORTKIT_TYPE_STRING, shape, 2), ORTKIT_OK);
    back = roundtrip(t, "empty_str.npy", header, sizeof header);
    assert_int_equal(ortkit_tensor_type(back), ORTKIT_TYPE_STRING);
    assert_int_equal(ortkit_tensor_count(back), 0);
    ortkit_tensor_free(back);
    ortkit_tensor_free(t);
}

static void test_header_matches_numpy(void **state)
{
    /* Byte for byte what numpy.save writes for np.zeros((2, 3), np.float32)'s header prefix. */
    const int64_t shape[] = {2, 3};
    ortkit_tensor *t = NULL;
    assert_int_equal(ortkit_tensor_new(&t, ORTKIT_TYPE_FLOAT32, shape, 2), ORTKIT_OK);
    char header[256];
    ortkit_tensor *back = roundtrip(t, "layout.npy", header, sizeof header);
    const char *want = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
    assert_memory_equal(header, want, strlen(want));
    ortkit_tensor_free(back);
    ortkit_tensor_free(t);
}

/* ---- parsing ---------------------------------------------------------- */

static void test_versions(void **state)
{
    const float data[4] = {1, 2, 3, 4};
    for (int major = 1; major <= 3; major++) {
        size_t size;
        unsigned char *img = npy_image(
            &size, major, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", data,
            sizeof data);
        ortkit_tensor *t = NULL;
        assert_int_equal(ortkit_npy_parse(&t, img, size), ORTKIT_OK);
        assert_int_equal(ortkit_tensor_type(t), ORTKIT_TYPE_FLOAT32);
        assert_int_equal(ortkit_tensor_count(t), 4);
        assert_memory_equal(ortkit_tensor_data(t), data, sizeof data);
        ortkit_tensor_free(t);
        free(img);
    }
}

static void test_header_variants(void **state)
{
    static const struct {
        const char *dict;
        ortkit_type type;
        size_t rank;
        int64_t dim0;
    } ok[] = {
        {"{'shape': (4,), 'fortran_order': False, 'descr': '<i2'}", ORTKIT_TYPE_INT16, 1, 4},
        {"{\"descr\":\"<i2\",\"fortran_order\":False,\"shape\":(2,2)}", ORTKIT_TYPE_INT16, 2, 2},
        {" { 'descr' : '=i2' , 'fortran_order' : False , 'shape' : ( 2 , 2 , ) , } ",
         ORTKIT_TYPE_INT16, 2, 2},
        {"{'descr': '<u2', 'fortran_order': False, 'shape': (1L, 4L), }", ORTKIT_TYPE_UINT16, 2, 1},
        {"{'descr': '|u1', 'fortran_order': False, 'shape': (8,), }", ORTKIT_TYPE_UINT8, 1, 8},
        {"{'descr': '>u1', 'fortran_order': False, 'shape': (8,), }", ORTKIT_TYPE_UINT8, 1, 8},
        {"{'descr': '|b1', 'fortran_order': False, 'shape': (8,), }", ORTKIT_TYPE_BOOL, 1, 8},
        {"{'descr': '?', 'fortran_order': False, 'shape': (8,), }", ORTKIT_TYPE_BOOL, 1, 8},
        {"{'descr': 'f8', 'fortran_order': False, 'shape': (1,), }", ORTKIT_TYPE_FLOAT64, 1, 1},
        {"{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", ORTKIT_TYPE_COMPLEX64, 1, 1},
        {"{'descr': '<U2', 'fortran_order': False, 'shape': (), }", ORTKIT_TYPE_STRING, 0, 0},
    };
    unsigned char data[8] = {0};
    for (size_t c = 0; c < sizeof ok / sizeof ok[0]; c++) {
        size_t size;
        unsigned char *img = npy_image(&size, 1, ok[c].dict, data, sizeof data);
        ortkit_tensor *t = NULL;
        int rc = ortkit_npy_parse(&t, img, size);
        if (rc)
            fail_msg("%s: %s", ok[c].dict, ortkit_error_last());
        assert_int_equal(ortkit_tensor_type(t), ok[c].type);
        assert_int_equal(ortkit_tensor_rank(t), ok[c].rank);
        if (ok[c].rank)
            assert_int_equal(ortkit_tensor_shape(t)[0], ok[c].dim0);
        ortkit_tensor_free(t);
        free(img);
    }
}

static void expect_bad(const void *img, size_t size, int code, const char *needle)
{
    ortkit_tensor *t = (ortkit_tensor *)1;
    int rc = ortkit_npy_parse(&t, img, size);
    if (rc != code)
        fail_msg("expected %s, got %s: %s", ortkit_status_name(code), ortkit_status_name(rc),
                 ortkit_error_last());
    assert_null(t);
    assert_contains(ortkit_error_last(), "<memory>");
    assert_contains(ortkit_error_last(), needle);
}

static void test_malformed_headers(void **state)
{
    static const struct {
        const char *dict;
        size_t nbytes;
        int code;
        const char *needle;
    } bad[] = {
        {"['descr', '<f4']", 4, ORTKIT_E_FORMAT, "not a dict"},
        {"{'descr': '<f4', 'fortran_order': False}", 4, ORTKIT_E_FORMAT, "no 'shape'"},
        {"{'descr': '<f4', 'shape': (1,)}", 4, ORTKIT_E_FORMAT, "no 'fortran_order'"},
        {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", 4,
         ORTKIT_E_FORMAT, "repeated key 'descr'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}", 4, ORTKIT_E_FORMAT,
         "key 'x'"},
        {"{'descr': '<f4', 'fortran_order': Falsey, 'shape': (1,)}", 4, ORTKIT_E_FORMAT,
         "True or False"},
        {"{'descr': '<f4', 'fortran_order': 0, 'shape': (1,)}", 4, ORTKIT_E_FORMAT, "True or False"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1)}", 4, ORTKIT_E_FORMAT, "(1,)"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': [1]}", 4, ORTKIT_E_FORMAT,
         "not a tuple"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (,)}", 0, ORTKIT_E_FORMAT, "integers"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1 1)}", 4, ORTKIT_E_FORMAT,
         "expected ','"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}", 4, ORTKIT_E_FORMAT,
         "negative"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (01,)}", 4, ORTKIT_E_FORMAT,
         "leading zeros"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}", 4,
         ORTKIT_E_FORMAT, "overflows"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296)}", 4,
         ORTKIT_E_FORMAT, "too large"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904,)}", 4,
         ORTKIT_E_FORMAT, "too large"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (100, 100)}", 16, ORTKIT_E_FORMAT,
         "header says float32[100,100] = 40000 bytes but the file holds 16"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", 8, ORTKIT_E_FORMAT,
         "4 unexpected bytes"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,)} x", 4, ORTKIT_E_FORMAT,
         "after the dict"},
        {"{'descr' '<f4', 'fortran_order': False, 'shape': (1,)}", 4, ORTKIT_E_FORMAT,
         "expected ':'"},
        {"{'descr': '<f4, 'fortran_order': False, 'shape': (1,)}", 4, ORTKIT_E_FORMAT,
         "unknown dtype '<f4, '"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'descr}", 4, ORTKIT_E_FORMAT,
         "line breaks"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,)", 4, ORTKIT_E_FORMAT,
         "expected ',' or '}'"},
        {"{'descr': '<f\\x34', 'fortran_order': False, 'shape': (1,)}", 4, ORTKIT_E_FORMAT,
         "escapes"},
        {"{'descr': '<f4', 'fortran_order': True, 'shape': (2,)}", 8, ORTKIT_E_UNSUPPORTED,
         "np.ascontiguousarray"},
        {"{'descr': '>f4', 'fortran_order': False, 'shape': (1,)}", 4, ORTKIT_E_UNSUPPORTED,
         "big-endian .npy data is not supported"},
        {"{'descr': '>U1', 'fortran_order': False, 'shape': (1,)}", 4, ORTKIT_E_UNSUPPORTED,
         "big-endian"},
        {"{'descr': '|O', 'fortran_order': False, 'shape': (1,)}", 8, ORTKIT_E_UNSUPPORTED,
         "'|O'"},
        {"{'descr': '|V8', 'fortran_order': False, 'shape': (1,)}", 8, ORTKIT_E_UNSUPPORTED,
         "'|V8'"},
        {"{'descr': '|S3', 'fortran_order': False, 'shape': (1,)}", 3, ORTKIT_E_UNSUPPORTED,
         "'|S3'"},
        {"{'descr': '<M8[ns]', 'fortran_order': False, 'shape': (1,)}", 8, ORTKIT_E_UNSUPPORTED,
         "'<M8[ns]'"},
        {"{'descr': '<f16', 'fortran_order': False, 'shape': (1,)}", 16, ORTKIT_E_UNSUPPORTED,
         "long double"},
        {"{'descr': [('a', '<f4'), ('b', '<i4')], 'fortran_order': False, 'shape': (1,)}", 8,
         ORTKIT_E_UNSUPPORTED, "structured"},
        {"{'descr': '<x4', 'fortran_order': False, 'shape': (1,)}", 4, ORTKIT_E_FORMAT,
         "unknown dtype '<x4'"},
        {"{'descr': '<i3', 'fortran_order': False, 'shape': (1,)}", 3, ORTKIT_E_FORMAT,
         "unknown dtype"},
        {"{'descr': '<f4x', 'fortran_order': False, 'shape': (1,)}", 4, ORTKIT_E_FORMAT,
         "unknown dtype"},
        {"{'descr': '', 'fortran_order': False, 'shape': (1,)}", 4, ORTKIT_E_FORMAT,
         "unknown dtype"},
        {"{'descr': '<U0', 'fortran_order': False, 'shape': (1,)}", 0, ORTKIT_E_FORMAT,
         "string width"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,"
         "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1)}",
         4, ORTKIT_E_UNSUPPORTED, "limit of 32"},
    };
    unsigned char data[64] = {0};
    for (size_t c = 0; c < sizeof bad / sizeof bad[0]; c++) {
        size_t size;
        unsigned char *img = npy_image(&size, 1, bad[c].dict, data, bad[c].nbytes);
        expect_bad(img, size, bad[c].code, bad[c].needle);
        free(img);
    }
}

static void test_malformed_framing(void **state)
{
    const float one = 1;
    size_t size;
    unsigned char *img =
        npy_image(&size, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", &one, 4);
    expect_bad(img, 0, ORTKIT_E_FORMAT, "bad magic, not a .npy file");
    expect_bad(img, 5, ORTKIT_E_FORMAT, "bad magic");
    expect_bad(img, 7, ORTKIT_E_FORMAT, "truncated");
    expect_bad(img, 9, ORTKIT_E_FORMAT, "truncated");
    expect_bad(img, 30, ORTKIT_E_FORMAT, "header length 118 runs past the end");
    expect_bad(img, size - 1, ORTKIT_E_FORMAT, "but the file holds 3");
    expect_bad("GIF89a........", 14, ORTKIT_E_FORMAT, "bad magic");

    img[6] = 4;
    expect_bad(img, size, ORTKIT_E_UNSUPPORTED, "version 4.0");
    img[6] = 1, img[7] = 1;
    expect_bad(img, size, ORTKIT_E_UNSUPPORTED, "version 1.1");
    img[7] = 0;
    /* A version 2.0 length field read from a 1.0 layout claims far too much. */
    img[6] = 2;
    expect_bad(img, size, ORTKIT_E_FORMAT, "runs past the end");
    free(img);

    ortkit_tensor *t = NULL;
    assert_int_equal(ortkit_npy_parse(NULL, "x", 1), ORTKIT_E_INVALID_ARG);
    assert_int_equal(ortkit_npy_parse(&t, NULL, 10), ORTKIT_E_INVALID_ARG);
    assert_int_equal(ortkit_npy_parse(&t, NULL, 0), ORTKIT_E_FORMAT);
}

static void test_string_data(void **state)
{
    const char *dict = "{'descr': '<U3', 'fortran_order': False, 'shape': (2,), }";
    /* "ab" + NUL padding, then U+1F600 U+00E9 NUL: trailing NULs are dropped. */
    const uint32_t good[6] = {'a', 'b', 0, 0x1F600, 0xE9, 0};
    size_t size;
    unsigned char *img = npy_image(&size, 3, dict, good, sizeof good);
    ortkit_tensor *t = NULL;
    assert_int_equal(ortkit_npy_parse(&t, img, size), ORTKIT_OK);
    assert_string_equal(ortkit_tensor_string(t, 0), "ab");
    assert_string_equal(ortkit_tensor_string(t, 1), "\xf0\x9f\x98\x80\xc3\xa9");
    ortkit_tensor_free(t);
    free(img);

    const uint32_t beyond[6] = {'a', 0x110000, 0, 0, 0, 0};
    img = npy_image(&size, 1, dict, beyond, sizeof beyond);
    expect_bad(img, size, ORTKIT_E_FORMAT, "invalid code point 0x110000");
    free(img);
    const uint32_t surrogate[6] = {0, 0, 0, 0xD800, 0, 0};
    img = npy_image(&size, 1, dict, surrogate, sizeof surrogate);
    expect_bad(img, size, ORTKIT_E_FORMAT, "element 1");
    free(img);
    const uint32_t inner_nul[6] = {'a', 0, 'b', 0, 0, 0};
    img = npy_image(&size, 1, dict, inner_nul, sizeof inner_nul);
    expect_bad(img, size, ORTKIT_E_UNSUPPORTED, "NUL");
    free(img);
}

static void test_bool_data(void **state)
{
    size_t size;
    unsigned char *img = npy_image(&size, 1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
                                   "\x01\x00\x02", 3);
    expect_bad(img, size, ORTKIT_E_FORMAT, "bool element 2 is 2");
    free(img);
}

/* ---- files and atomic writes ------------------------------------------ */

static void test_read_errors(void **state)
{
    char path[256];
    ortkit_tensor *t = NULL;
    assert_int_equal(ortkit_npy_read(&t, tpath(path, sizeof path, "missing.npy")), ORTKIT_E_IO);
    assert_contains(ortkit_error_last(), "missing.npy");
    assert_null(t);
    assert_int_equal(ortkit_npy_read(&t, tmpdir), ORTKIT_E_IO);
    assert_int_equal(ortkit_npy_read(NULL, path), ORTKIT_E_INVALID_ARG);
    assert_int_equal(ortkit_npy_read(&t, NULL), ORTKIT_E_INVALID_ARG);

    write_bytes(tpath(path, sizeof path, "x.npy"), "PK\x03\x04 not npy", 12);
    assert_int_equal(ortkit_npy_read(&t, path), ORTKIT_E_FORMAT);
    char want[300];
    snprintf(want, sizeof want, "'%s': bad magic, not a .npy file", path);
    assert_string_equal(ortkit_error_last(), want);

    /* A sparse file above the size limit is refused before anything is allocated. */
    int fd = open(tpath(path, sizeof path, "huge.npy"), O_CREAT | O_WRONLY, 0600);
    assert_true(fd >= 0);
    int sized = ftruncate(fd, (off_t)17 << 30) == 0;
    close(fd);
    if (sized) {
        assert_int_equal(ortkit_npy_read(&t, path), ORTKIT_E_IO);
        assert_contains(ortkit_error_last(), "larger than");
    }
    unlink(path);
}

static void test_write_errors(void **state)
{
    char path[256];
    tpath(path, sizeof path, "never.npy");
    const int64_t shape[] = {4};
    static const ortkit_type unwritable[] = {
        ORTKIT_TYPE_FLOAT8E4M3FN, ORTKIT_TYPE_FLOAT8E4M3FNUZ, ORTKIT_TYPE_FLOAT8E5M2,
        ORTKIT_TYPE_FLOAT8E5M2FNUZ, ORTKIT_TYPE_INT4, ORTKIT_TYPE_UINT4,
    };
    for (size_t i = 0; i < sizeof unwritable / sizeof unwritable[0]; i++) {
        ortkit_tensor *t = NULL;
        assert_int_equal(ortkit_tensor_new(&t, unwritable[i], shape, 1), ORTKIT_OK);
        assert_int_equal(ortkit_npy_write(path, t), ORTKIT_E_UNSUPPORTED);
        assert_contains(ortkit_error_last(), ortkit_type_name(unwritable[i]));
        assert_contains(ortkit_error_last(), "never.npy");
        ortkit_tensor_free(t);
    }
    const char *const bad_utf8[] = {"ok", "\xc3\x28", "\xed\xa0\x80", "\xc0\xaf"};
    for (size_t i = 1; i < 4; i++) {
        const char *const pair[] = {bad_utf8[0], bad_utf8[i]};
        const int64_t two[] = {2};
        ortkit_tensor *t = NULL;
        assert_int_equal(ortkit_tensor_new_strings(&t, two, 1, pair), ORTKIT_OK);
        assert_int_equal(ortkit_npy_write(path, t), ORTKIT_E_FORMAT);
        assert_contains(ortkit_error_last(), "element 1 is not valid UTF-8");
        ortkit_tensor_free(t);
    }
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(ortkit_npy_write(NULL, NULL), ORTKIT_E_INVALID_ARG);
    assert_int_equal(ortkit_npy_write(path, NULL), ORTKIT_E_INVALID_ARG);
}

static int dir_has_temp(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int found = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (strstr(e->d_name, ".tmp"))
            found = 1;
    closedir(d);
    return found;
}

static void test_atomic_write(void **state)
{
    const int64_t shape[] = {2};
    ortkit_tensor *t = NULL;
    assert_int_equal(ortkit_tensor_new(&t, ORTKIT_TYPE_INT32, shape, 1), ORTKIT_OK);
    ((int32_t *)ortkit_tensor_data(t))[1] = 42;

    /* Into a directory that does not exist: a clean error and nothing made. */
    char path[300], dir[256];
    tpath(dir, sizeof dir, "no_such_dir");
    snprintf(path, sizeof path, "%s/out.npy", dir);
    assert_int_equal(ortkit_npy_write(path, t), ORTKIT_E_IO);
    assert_contains(ortkit_error_last(), "out.npy");
    assert_int_equal(access(dir, F_OK), -1);

    /* A failed write over a good file leaves the good file as it was. */
    tpath(path, sizeof path, "keep.npy");
    assert_int_equal(ortkit_npy_write(path, t), ORTKIT_OK);
    char *before, *after;
    size_t nbefore, nafter;
    assert_int_equal(ortkit__file_read(&before, &nbefore, path, 1 << 20), ORTKIT_OK);
    ortkit_tensor *f8 = NULL;
    assert_int_equal(ortkit_tensor_new(&f8, ORTKIT_TYPE_FLOAT8E5M2, shape, 1), ORTKIT_OK);
    assert_int_equal(ortkit_npy_write(path, f8), ORTKIT_E_UNSUPPORTED);
    const char *const bad[] = {"fine", "\xff"};
    ortkit_tensor *s = NULL;
    assert_int_equal(ortkit_tensor_new_strings(&s, shape, 1, bad), ORTKIT_OK);
    assert_int_equal(ortkit_npy_write(path, s), ORTKIT_E_FORMAT);
    /* Renaming onto a directory fails after the temporary is written: it must go too. */
    char sub[256];
    tpath(sub, sizeof sub, "a_dir.npy");
    assert_int_equal(mkdir(sub, 0700), 0);
    assert_int_equal(ortkit_npy_write(sub, t), ORTKIT_E_IO);
    rmdir(sub);
    assert_int_equal(ortkit__file_read(&after, &nafter, path, 1 << 20), ORTKIT_OK);
    assert_int_equal(nafter, nbefore);
    assert_memory_equal(after, before, nbefore);
    assert_false(dir_has_temp(tmpdir));

    /* And a good write replaces it. */
    ((int32_t *)ortkit_tensor_data(t))[1] = 7;
    assert_int_equal(ortkit_npy_write(path, t), ORTKIT_OK);
    ortkit_tensor *back = NULL;
    assert_int_equal(ortkit_npy_read(&back, path), ORTKIT_OK);
    assert_int_equal(((int32_t *)ortkit_tensor_data(back))[1], 7);

    free(before);
    free(after);
    ortkit_tensor_free(back);
    ortkit_tensor_free(s);
    ortkit_tensor_free(f8);
    ortkit_tensor_free(t);
}

/* ---- files made by numpy itself (tests/models/make_models.py) ---------- */

/* MODELS/name into path; 0 when the generator has not made it (the case is then skipped). */
static int have_reference(char *path, size_t size, const char *name)
{
    snprintf(path, size, "%s/%s", ORTKIT_TEST_MODELS, name);
    return access(path, F_OK) == 0;
}

static void test_numpy_files(void **state)
{
    char path[512];
    ortkit_tensor *t = NULL;
    int seen = 0;

    if (have_reference(path, sizeof path, "add_a.npy")) {
        seen++;
        assert_int_equal(ortkit_npy_read(&t, path), ORTKIT_OK);
        assert_int_equal(ortkit_tensor_type(t), ORTKIT_TYPE_FLOAT32);
        assert_int_equal(ortkit_tensor_rank(t), 2);
        assert_int_equal(ortkit_tensor_shape(t)[0], 2);
        assert_int_equal(ortkit_tensor_shape(t)[1], 3);
        const float *f = ortkit_tensor_data(t);
        for (int i = 0; i < 6; i++)
            assert_true(f[i] == (float)i * 0.5f);
        ortkit_tensor_free(t);
    }
    if (have_reference(path, sizeof path, "i64_1x3.npy")) {
        seen++;
        assert_int_equal(ortkit_npy_read(&t, path), ORTKIT_OK);
        assert_int_equal(ortkit_tensor_type(t), ORTKIT_TYPE_INT64);
        const int64_t want[3] = {1, 2, 3};
        assert_memory_equal(ortkit_tensor_data(t), want, sizeof want);
        ortkit_tensor_free(t);
    }
    if (have_reference(path, sizeof path, "n.npy")) {
        seen++;
        assert_int_equal(ortkit_npy_read(&t, path), ORTKIT_OK);
        assert_int_equal(ortkit_tensor_rank(t), 0);
        assert_int_equal(*(int64_t *)ortkit_tensor_data(t), 21);
        ortkit_tensor_free(t);
    }
    static const char *const versions[] = {"npy_v2.npy", "npy_v3.npy"};
    for (size_t i = 0; i < 2; i++) {
        if (!have_reference(path, sizeof path, versions[i]))
            continue;
        seen++;
        assert_int_equal(ortkit_npy_read(&t, path), ORTKIT_OK);
        const float want[4] = {1, 2, 3, 4};
        assert_int_equal(ortkit_tensor_count(t), 4);
        assert_memory_equal(ortkit_tensor_data(t), want, sizeof want);
        ortkit_tensor_free(t);
    }
    static const struct {
        const char *name;
        int code;
        const char *needle;
    } bad[] = {
        {"fortran.npy", ORTKIT_E_UNSUPPORTED, "np.ascontiguousarray"},
        {"bad_magic.npy", ORTKIT_E_FORMAT, "bad magic"},
        {"lying_size.npy", ORTKIT_E_FORMAT, "header says float32[100,100] = 40000 bytes"},
        {"bad_dtype.npy", ORTKIT_E_UNSUPPORTED, "structured"},
        {"big_endian.npy", ORTKIT_E_UNSUPPORTED, "big-endian"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (!have_reference(path, sizeof path, bad[i].name))
            continue;
        seen++;
        assert_int_equal(ortkit_npy_read(&t, path), bad[i].code);
        assert_null(t);
        assert_contains(ortkit_error_last(), bad[i].name);
        assert_contains(ortkit_error_last(), bad[i].needle);
    }
    if (!seen)
        skip();
}

/* id_<type>.npy: [[0,1,2],[3,4,5]] in every numpy type; bool is odd/even. */
static void test_numpy_types(void **state)
{
    static const ortkit_type types[] = {
        ORTKIT_TYPE_FLOAT32, ORTKIT_TYPE_FLOAT64, ORTKIT_TYPE_FLOAT16, ORTKIT_TYPE_INT8,
        ORTKIT_TYPE_UINT8,   ORTKIT_TYPE_INT16,   ORTKIT_TYPE_UINT16,  ORTKIT_TYPE_INT32,
        ORTKIT_TYPE_UINT32,  ORTKIT_TYPE_INT64,   ORTKIT_TYPE_UINT64,  ORTKIT_TYPE_BOOL,
    };
    static const uint16_t half[6] = {0x0000, 0x3C00, 0x4000, 0x4200, 0x4400, 0x4500};
    int seen = 0;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        char name[64], path[512];
        snprintf(name, sizeof name, "id_%s.npy", ortkit_type_name(types[i]));
        ortkit_tensor *t = NULL;
        if (!have_reference(path, sizeof path, name))
            continue;
        seen++;
        assert_int_equal(ortkit_npy_read(&t, path), ORTKIT_OK);
        assert_int_equal(ortkit_tensor_type(t), types[i]);
        assert_int_equal(ortkit_tensor_count(t), 6);
        const void *d = ortkit_tensor_data(t);
        for (int k = 0; k < 6; k++) {
            double v;
            switch (types[i]) {
            case ORTKIT_TYPE_FLOAT32: v = ((const float *)d)[k]; break;
            case ORTKIT_TYPE_FLOAT64: v = ((const double *)d)[k]; break;
            case ORTKIT_TYPE_FLOAT16: v = ((const uint16_t *)d)[k] == half[k] ? k : -1; break;
            case ORTKIT_TYPE_INT8: v = ((const int8_t *)d)[k]; break;
            case ORTKIT_TYPE_UINT8: v = ((const uint8_t *)d)[k]; break;
            case ORTKIT_TYPE_INT16: v = ((const int16_t *)d)[k]; break;
            case ORTKIT_TYPE_UINT16: v = ((const uint16_t *)d)[k]; break;
            case ORTKIT_TYPE_INT32: v = ((const int32_t *)d)[k]; break;
            case ORTKIT_TYPE_UINT32: v = ((const uint32_t *)d)[k]; break;
            case ORTKIT_TYPE_INT64: v = (double)((const int64_t *)d)[k]; break;
            case ORTKIT_TYPE_UINT64: v = (double)((const uint64_t *)d)[k]; break;
            default: v = ((const uint8_t *)d)[k] ? k | 1 : k & ~1; break; /* bool: k % 2 */
            }
            assert_true(v == k);
        }
        /* Written back by ortkit, the file is byte for byte what numpy wrote. */
        char *orig, *ours, out[256];
        size_t norig, nours;
        snprintf(out, sizeof out, "%s/again_%s", tmpdir, name);
        assert_int_equal(ortkit_npy_write(out, t), ORTKIT_OK);
        assert_int_equal(ortkit__file_read(&orig, &norig, path, 1 << 20), ORTKIT_OK);
        assert_int_equal(ortkit__file_read(&ours, &nours, out, 1 << 20), ORTKIT_OK);
        assert_int_equal(nours, norig);
        assert_memory_equal(ours, orig, norig);
        free(orig);
        free(ours);
        ortkit_tensor_free(t);
    }
    if (!seen)
        skip();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip_types),
        cmocka_unit_test(test_roundtrip_bool_normalised),
        cmocka_unit_test(test_roundtrip_strings),
        cmocka_unit_test(test_roundtrip_scalar),
        cmocka_unit_test(test_roundtrip_empty),
        cmocka_unit_test(test_header_matches_numpy),
        cmocka_unit_test(test_versions),
        cmocka_unit_test(test_header_variants),
        cmocka_unit_test(test_malformed_headers),
        cmocka_unit_test(test_malformed_framing),
        cmocka_unit_test(test_string_data),
        cmocka_unit_test(test_bool_data),
        cmocka_unit_test(test_read_errors),
        cmocka_unit_test(test_write_errors),
        cmocka_unit_test(test_atomic_write),
        cmocka_unit_test(test_numpy_files),
        cmocka_unit_test(test_numpy_types),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
