/* testutil.h - small helpers shared by the unit tests (header-only). */
#ifndef ORTKIT_TESTUTIL_H
#define ORTKIT_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ortkit.h"
#include "ortkit/tools/bundle_make.h"
#include "ortkit/tools/repo.h"

/* The machine the tests are built for, and the other one, where a test
 * states a fact of the real runtimes (Microsoft's linux/x64 or linux/arm64
 * builds: deps/runtime or deps/runtime-arm64) or needs a foreign file. */
#if defined(__aarch64__)
#define TEST_ARCH ORTKIT_ARCH_AARCH64
#define TEST_ARCH_NAME "aarch64"
#define TEST_OTHER_ARCH ORTKIT_ARCH_X86_64
#define TEST_OTHER_ARCH_NAME "x86_64"
#define TEST_EM 183 /* EM_AARCH64 */
#define TEST_LOADER "ld-linux-aarch64.so.1"
#define TEST_OTHER_ARCH_VARIANT "cpu-avx2"
#else
#define TEST_ARCH ORTKIT_ARCH_X86_64
#define TEST_ARCH_NAME "x86_64"
#define TEST_OTHER_ARCH ORTKIT_ARCH_AARCH64
#define TEST_OTHER_ARCH_NAME "aarch64"
#define TEST_EM 62 /* EM_X86_64 */
#define TEST_LOADER "ld-linux-x86-64.so.2"
#define TEST_OTHER_ARCH_VARIANT "cpu-armv9"
#endif

/* Under qemu-user (the aarch64 build's tests, ORTKIT_TEST_EMULATED=1),
 * where the emulator, not the program, decides two things: a memory cap
 * (RLIMIT_AS) does not bind the emulated program, and a child that cannot
 * be started is reported as exit 127 rather than by posix_spawn (qemu runs
 * CLONE_VFORK as a fork).  The cases that rest on them are skipped there,
 * saying so. */
static inline int test_emulated(void)
{
    const char *e = getenv("ORTKIT_TEST_EMULATED");
    return e && e[0] == '1';
}

/* A path under the generated test models. */
static inline const char *model_path(const char *name)
{
    static _Thread_local char buf[4][1024];
    static _Thread_local int next;
    char *p = buf[next++ % 4];
    snprintf(p, sizeof buf[0], "%s/%s", ORTKIT_TEST_MODELS, name);
    return p;
}

/* Open the runtime in dir (a test failure if it does not load). */
static inline ortkit_runtime *open_runtime(const char *dir)
{
    ortkit_runtime_options o = ORTKIT_RUNTIME_OPTIONS_INIT;
    o.path = dir;
    ortkit_runtime *rt = NULL;
    int rc = ortkit_runtime_open(&rt, &o);
    if (rc)
        fail_msg("cannot open runtime %s: %s", dir, ortkit_error_last());
    return rt;
}

static inline ortkit_session *open_model(ortkit_runtime *rt, const char *name)
{
    ortkit_session *s = NULL;
    if (ortkit_session_open(&s, rt, model_path(name), NULL))
        fail_msg("cannot open %s: %s", name, ortkit_error_last());
    return s;
}

/* Fail unless the last error contains text. */
#define assert_error_has(text)                                                              \
    do {                                                                                    \
        if (!strstr(ortkit_error_last(), (text)))                                           \
            fail_msg("error '%s' lacks '%s'", ortkit_error_last(), (text));                 \
    } while (0)

/* Both runtimes every test that touches ORT runs against. */
static const char *const test_runtimes[] = {ORTKIT_TEST_RUNTIME_NEW, ORTKIT_TEST_RUNTIME_OLD};
static ortkit_runtime *runtimes[2];

/* cmocka group set-up and tear-down: runtimes[] holds 1.30.0 and 1.17.3. */
static inline int open_runtimes(void **state)
{
    (void)state;
    for (int i = 0; i < 2; i++)
        runtimes[i] = open_runtime(test_runtimes[i]);
    return 0;
}

static inline int free_runtimes(void **state)
{
    (void)state;
    for (int i = 0; i < 2; i++)
        ortkit_runtime_free(runtimes[i]);
    return 0;
}

#endif
