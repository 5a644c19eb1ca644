/* test_tensor.c - element types, shapes, owned/borrowed/string tensors. */
#include "testutil.h"

#include <stdint.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static void test_type_names(void **state)
{
    (void)state;
    for (int t = 1; t <= ORTKIT_TYPE_INT4; t++) {
        const char *name = ortkit_type_name((ortkit_type)t);
        assert_string_not_equal(name, "undefined");
        assert_int_equal(ortkit_type_from_name(name), t);
    }
    assert_string_equal(ortkit_type_name((ortkit_type)999), "undefined");
    assert_int_equal(ortkit_type_from_name("float"), ORTKIT_TYPE_FLOAT32);
    assert_int_equal(ortkit_type_from_name("HALF"), ORTKIT_TYPE_FLOAT16);
    assert_int_equal(ortkit_type_from_name("nope"), ORTKIT_TYPE_UNDEFINED);
    assert_int_equal(ortkit_type_from_name(NULL), ORTKIT_TYPE_UNDEFINED);
    assert_int_equal(ortkit_type_bits(ORTKIT_TYPE_BFLOAT16), 16);
    assert_int_equal(ortkit_type_bits(ORTKIT_TYPE_COMPLEX128), 128);
    assert_int_equal(ortkit_type_bits(ORTKIT_TYPE_INT4), 4);
    assert_int_equal(ortkit_type_bits(ORTKIT_TYPE_STRING), 0);
}

static void test_new_and_describe(void **state)
{
    (void)state;
    int64_t shape[] = {1, 3, 224, 224};
    ortkit_tensor *t = NULL;
    assert_int_equal(ortkit_tensor_new(&t, ORTKIT_TYPE_FLOAT16, shape, 4), 0);
    assert_int_equal(ortkit_tensor_count(t), 3 * 224 * 224);
    assert_int_equal(ortkit_tensor_nbytes(t), 2 * 3 * 224 * 224);
    const unsigned char *d = ortkit_tensor_data(t);
    for (size_t i = 0; i < ortkit_tensor_nbytes(t); i++)
        assert_int_equal(d[i], 0);
    char desc[64];
    ortkit_tensor_describe(t, desc, sizeof desc);
    assert_string_equal(desc, "float16[1,3,224,224]");
    ortkit_tensor_describe(t, desc, 8); /* truncated, still terminated */
    assert_int_equal(strlen(desc), 7);
    ortkit_tensor_free(t);

    /* Rank 0 is a scalar of one element; a zero dim makes an empty tensor. */
    assert_int_equal(ortkit_tensor_new(&t, ORTKIT_TYPE_INT64, NULL, 0), 0);
    assert_int_equal(ortkit_tensor_count(t), 1);
    ortkit_tensor_free(t);
    int64_t empty[] = {4, 0};
    assert_int_equal(ortkit_tensor_new(&t, ORTKIT_TYPE_FLOAT32, empty, 2), 0);
    assert_int_equal(ortkit_tensor_count(t), 0);
    assert_non_null(ortkit_tensor_data(t));
    ortkit_tensor_free(t);
    /* Four-bit types pack two to a byte. */
    int64_t odd[] = {3};
    assert_int_equal(ortkit_tensor_new(&t, ORTKIT_TYPE_INT4, odd, 1), 0);
    assert_int_equal(ortkit_tensor_nbytes(t), 2);
    ortkit_tensor_free(t);
    ortkit_tensor_free(NULL);
}

static void test_bad_shapes(void **state)
{
    (void)state;
    ortkit_tensor *t = NULL;
    int64_t neg[] = {2, -1};
    assert_int_equal(ortkit_tensor_new(&t, ORTKIT_TYPE_FLOAT32, neg, 2), ORTKIT_E_SHAPE);
    assert_error_has("negative");
    int64_t huge[] = {INT64_MAX, INT64_MAX};
    assert_int_equal(ortkit_tensor_new(&t, ORTKIT_TYPE_FLOAT32, huge, 2), ORTKIT_E_SHAPE);
    int64_t big[ORTKIT_MAX_RANK + 1] = {0};
    assert_int_equal(ortkit_tensor_new(&t, ORTKIT_TYPE_FLOAT32, big, ORTKIT_MAX_RANK + 1), ORTKIT_E_SHAPE);
    assert_int_equal(ortkit_tensor_new(&t, (ortkit_type)77, NULL, 0), ORTKIT_E_INVALID_ARG);
    assert_int_equal(ortkit_tensor_new(&t, ORTKIT_TYPE_FLOAT32, NULL, 2), ORTKIT_E_INVALID_ARG);
    assert_null(t);
}

static void test_borrow(void **state)
{
    (void)state;
    float data[6] = {1, 2, 3, 4, 5, 6};
    int64_t shape[] = {2, 3};
    ortkit_tensor *t = NULL;
    assert_int_equal(ortkit_tensor_borrow(&t, ORTKIT_TYPE_FLOAT32, shape, 2, data, sizeof data), 0);
    assert_ptr_equal(ortkit_tensor_data(t), data); /* no copy */
    ortkit_tensor_free(t);                         /* and no free of our array */
    assert_int_equal(ortkit_tensor_borrow(&t, ORTKIT_TYPE_FLOAT32, shape, 2, data, 20), ORTKIT_E_SHAPE);
    assert_error_has("needs 24 bytes");
    assert_null(t);
    assert_int_equal(ortkit_tensor_borrow(&t, ORTKIT_TYPE_STRING, shape, 2, data, 0), ORTKIT_E_UNSUPPORTED);
}

static void test_strings(void **state)
{
    (void)state;
    const char *words[] = {"alpha", "", "gamma"};
    int64_t shape[] = {3};
    ortkit_tensor *t = NULL;
    assert_int_equal(ortkit_tensor_new_strings(&t, shape, 1, words), 0);
    assert_null(ortkit_tensor_data(t));
    assert_int_equal(ortkit_tensor_nbytes(t), 0);
    assert_string_equal(ortkit_tensor_string(t, 0), "alpha");
    assert_string_equal(ortkit_tensor_string(t, 1), "");
    assert_null(ortkit_tensor_string(t, 3));
    assert_int_equal(ortkit_tensor_set_string(t, 1, "beta"), 0);
    assert_string_equal(ortkit_tensor_string(t, 1), "beta");
    assert_int_equal(ortkit_tensor_set_string(t, 9, "x"), ORTKIT_E_INVALID_ARG);
    ortkit_tensor_free(t);
    float f[1];
    int64_t one[] = {1};
    assert_int_equal(ortkit_tensor_borrow(&t, ORTKIT_TYPE_FLOAT32, one, 1, f, sizeof f), 0);
    assert_int_equal(ortkit_tensor_set_string(t, 0, "x"), ORTKIT_E_INVALID_ARG);
    ortkit_tensor_free(t);
}

/*
 * A tensor that memory cannot hold: the message names its size.  Run in a
 * child whose address space is capped, so the allocation fails whatever the
 * kernel's overcommit policy.
 */
static void test_nomem_names_size(void **state)
{
    (void)state;
#if defined(__SANITIZE_ADDRESS__)
    skip(); /* the sanitizer's allocator reserves far more than the cap */
#else
    if (test_emulated())
        skip(); /* qemu-user does not apply RLIMIT_AS to the emulated program */
    int pipefd[2];
    assert_int_equal(pipe(pipefd), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(pipefd[0]);
        long pages = 0, page = sysconf(_SC_PAGESIZE);
        FILE *statm = fopen("/proc/self/statm", "r");
        int ok = statm && fscanf(statm, "%ld", &pages) == 1;
        if (statm)
            fclose(statm);
        struct rlimit cap = {(rlim_t)(pages * page) + (64u << 20), (rlim_t)(pages * page) + (64u << 20)};
        ok = ok && setrlimit(RLIMIT_AS, &cap) == 0;
        int64_t shape[] = {64, 1024, 1024}; /* 256 MiB of float32 */
        ortkit_tensor *t = NULL;
        ok = ok && ortkit_tensor_new(&t, ORTKIT_TYPE_FLOAT32, shape, 3) == ORTKIT_E_NOMEM && !t;
        const char *msg = ortkit_error_last();
        ok = ok && write(pipefd[1], msg, strlen(msg)) == (ssize_t)strlen(msg);
        _exit(ok ? 0 : 1);
    }
    close(pipefd[1]);
    char msg[256] = "";
    ssize_t n = read(pipefd[0], msg, sizeof msg - 1);
    close(pipefd[0]);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    msg[n > 0 ? n : 0] = '\0';
    assert_string_equal(msg, "out of memory: cannot allocate 256.0 MiB (268435456 bytes)");
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_type_names), cmocka_unit_test(test_new_and_describe),
        cmocka_unit_test(test_bad_shapes), cmocka_unit_test(test_borrow),
        cmocka_unit_test(test_strings), cmocka_unit_test(test_nomem_names_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
