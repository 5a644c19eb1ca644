/*
 * test_util_child.c - src/util's child-process object (spawn.c) and the
 * probe program's protocol (probe.c): programs and forked functions, pipes,
 * a deadline that kills a whole process group, crashes, framed messages
 * (whole, cut short, over the limit, late), reaping, and ortkit-probe's
 * answer read from a fake probe and from the real one.
 */
#include "testutil.h"

#include "util.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char dir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/ortkit-test-child-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return ortkit__rmtree(dir);
}

static const char *at(const char *name)
{
    static char buf[4][512];
    static int next;
    char *b = buf[next++ % 4];
    snprintf(b, 512, "%s/%s", dir, name);
    return b;
}

/* No child of this process is left unreaped. */
static void assert_no_children(void)
{
    errno = 0;
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
    assert_int_equal(errno, ECHILD);
}

/* ---- programs ------------------------------------------------------------------ */

static void test_program_output_and_status(void **state)
{
    (void)state;
    const char *argv[] = {"sh", "-c", "echo out; echo err >&2; exit 3", NULL};
    ortkit__child_options o = {.argv = argv, .in = ORTKIT__CHILD_NULL, .out = ORTKIT__CHILD_PIPE,
                               .err = ORTKIT__CHILD_TO_OUT};
    ortkit__child ch;
    char *out = NULL;
    assert_int_equal(ortkit__child_start(&ch, &o), 0);
    assert_true(ch.pid > 0);
    assert_int_equal(ortkit__child_read_all(&ch, &out), 0);
    assert_int_equal(ortkit__child_wait(&ch, NULL), 0);
    assert_string_equal(out, "out\nerr\n");
    assert_int_equal(ch.status, 3);
    assert_int_equal(ch.signal, 0);
    assert_int_equal(ch.timed_out, 0);
    assert_int_equal(ch.pid, 0);
    free(out);
    ortkit__child_free(&ch);
    ortkit__child_free(&ch); /* twice: nothing */

    /* The same through fork (a death signal asks for it), output to a file. */
    FILE *f = fopen(at("out.txt"), "we");
    assert_non_null(f);
    o.out = ORTKIT__CHILD_FD;
    o.out_fd = fileno(f);
    o.death_signal = SIGKILL;
    assert_int_equal(ortkit__child_start(&ch, &o), 0);
    assert_int_equal(ch.out, -1);
    assert_int_equal(ortkit__child_wait(&ch, NULL), 0);
    assert_int_equal(ch.status, 3);
    ortkit__child_free(&ch);
    fclose(f);
    char *text = NULL;
    assert_int_equal(ortkit__file_read(&text, NULL, at("out.txt"), 1024), 0);
    assert_string_equal(text, "out\nerr\n");
    free(text);
    assert_no_children();
}

static void test_missing_program(void **state)
{
    (void)state;
    const char *argv[] = {"ortkit-no-such-program", NULL};
    ortkit__child_options o = {.argv = argv};
    ortkit__child ch;
    /* posix_spawnp says so itself (not under qemu, which forks). */
    if (!test_emulated()) {
        assert_int_equal(ortkit__child_start(&ch, &o), ORTKIT_E_IO);
        assert_error_has("cannot run 'ortkit-no-such-program'");
        assert_int_equal(errno, ENOENT);
        ortkit__child_free(&ch); /* nothing to free */
    }
    /* Through fork, the failed exec comes back on a pipe: no child is left. */
    o.death_signal = SIGKILL;
    assert_int_equal(ortkit__child_start(&ch, &o), ORTKIT_E_IO);
    assert_error_has("cannot run 'ortkit-no-such-program'");
    assert_int_equal(errno, ENOENT);
    assert_int_equal(ch.live, 0);
    assert_no_children();
    /* Neither a program nor a function. */
    ortkit__child_options none = {0};
    assert_int_equal(ortkit__child_start(&ch, &none), ORTKIT_E_INVALID_ARG);
}

/* A child that leads its group and leaves a grandchild holding its stdout:
 * at the deadline the whole group goes, and the parent is not held. */
static void test_deadline_kills_the_group(void **state)
{
    (void)state;
    char script[1024];
    snprintf(script, sizeof script, "sleep 30 & echo $! > '%s'; wait", at("grandchild"));
    const char *argv[] = {"sh", "-c", script, NULL};
    ortkit__child_options o = {.argv = argv, .out = ORTKIT__CHILD_PIPE, .own_group = 1,
                               .timeout_s = 0.5};
    ortkit__child ch;
    double t0 = ortkit__clock_now();
    assert_int_equal(ortkit__child_start(&ch, &o), 0);
    char *out = NULL;
    assert_int_equal(ortkit__child_read_all(&ch, &out), 0); /* held by sleep until the deadline */
    assert_int_equal(ortkit__child_wait(&ch, NULL), 0);
    double took = ortkit__clock_now() - t0;
    assert_true(took >= 0.4 && took < 10);
    assert_int_equal(ch.timed_out, 1);
    assert_int_equal(ch.signal, SIGKILL);
    assert_int_equal(ch.status, 128 + SIGKILL);
    free(out);
    ortkit__child_free(&ch);
    /* The grandchild went with the group (gone, or a zombie of init's). */
    char *text = NULL;
    assert_int_equal(ortkit__file_read(&text, NULL, at("grandchild"), 64), 0);
    long gpid = strtol(text, NULL, 10);
    free(text);
    assert_true(gpid > 0);
    int alive = 1;
    for (int i = 0; i < 200 && alive; i++) {
        char stat_path[64], *st = NULL;
        snprintf(stat_path, sizeof stat_path, "/proc/%ld/stat", gpid);
        if (ortkit__file_read(&st, NULL, stat_path, 4096) != 0) {
            alive = 0;
        } else {
            const char *close_paren = strrchr(st, ')');
            alive = !(close_paren && close_paren[1] == ' ' && close_paren[2] == 'Z');
            free(st);
        }
        if (alive) {
            struct timespec ten = {0, 10 * 1000 * 1000};
            nanosleep(&ten, NULL);
        }
    }
    assert_false(alive);
    assert_no_children();
}

static void test_poll_reaps_once(void **state)
{
    (void)state;
    const char *argv[] = {"sh", "-c", "exit 5", NULL};
    ortkit__child_options o = {.argv = argv};
    ortkit__child ch;
    assert_int_equal(ortkit__child_start(&ch, &o), 0);
    int r;
    for (int i = 0; i < 1000 && (r = ortkit__child_poll(&ch)) == 0; i++) {
        struct timespec ms = {0, 1000 * 1000};
        nanosleep(&ms, NULL);
    }
    assert_int_equal(r, 1);
    assert_int_equal(ch.status, 5);
    assert_int_equal(ortkit__child_poll(&ch), 1); /* reaped already: still ended */
    assert_int_equal(ortkit__child_wait(&ch, NULL), 0);
    assert_int_equal(ch.status, 5);
    ortkit__child_free(&ch);
    assert_no_children();

    /* A deadline seen by poll: killed, then reaped. */
    const char *slow[] = {"sleep", "30", NULL};
    ortkit__child_options so = {.argv = slow, .timeout_s = 0.05};
    assert_int_equal(ortkit__child_start(&ch, &so), 0);
    for (int i = 0; i < 5000 && (r = ortkit__child_poll(&ch)) == 0; i++) {
        struct timespec ms = {0, 1000 * 1000};
        nanosleep(&ms, NULL);
    }
    assert_int_equal(r, 1);
    assert_int_equal(ch.timed_out, 1);
    assert_int_equal(ch.signal, SIGKILL);
    ortkit__child_free(&ch);

    /* Freed while it runs: killed and reaped, no zombie left. */
    assert_int_equal(ortkit__child_start(&ch, &(ortkit__child_options){.argv = slow}), 0);
    ortkit__child_free(&ch);
    assert_no_children();
}

static void test_forward_a_signal(void **state)
{
    (void)state;
    const char *argv[] = {"sleep", "30", NULL};
    ortkit__child_options o = {.argv = argv};
    ortkit__child ch;
    assert_int_equal(ortkit__child_start(&ch, &o), 0);
    volatile sig_atomic_t got = SIGTERM; /* as a handler would have recorded it */
    assert_int_equal(ortkit__child_wait(&ch, &got), 0);
    assert_int_equal(ch.signal, SIGTERM);
    assert_int_equal(ch.status, 128 + SIGTERM);
    ortkit__child_free(&ch);
}

static void test_tail_keeps_the_last_line(void **state)
{
    (void)state;
    const char *argv[] = {"sh", "-c", "i=0; while [ $i -lt 2000 ]; do echo line $i; i=$((i+1)); done; "
                                      "echo 'the last words' >&2", NULL};
    ortkit__child_options o = {.argv = argv, .out = ORTKIT__CHILD_PIPE, .err = ORTKIT__CHILD_TO_OUT};
    ortkit__child ch;
    assert_int_equal(ortkit__child_start(&ch, &o), 0);
    while (ortkit__child_read_tail(&ch))
        ;
    assert_int_equal(ch.out, -1);
    assert_int_equal(ortkit__child_wait(&ch, NULL), 0);
    char last[64];
    ortkit__child_last_line(&ch, last, sizeof last);
    assert_string_equal(last, "the last words");
    assert_true(ch.tail_len <= sizeof ch.tail);
    ortkit__child_free(&ch);
}

/* ---- functions in a forked child, and messages ---------------------------------- */

static int crash(void *arg, int to_parent, int from_parent)
{
    (void)arg;
    (void)from_parent;
    /* Half a message, then the crash a runtime would have. */
    uint32_t head[2] = {7, 100};
    if (write(to_parent, head, sizeof head) < 0 || write(to_parent, "abcd", 4) < 0)
        _exit(3);
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
    return 0;
}

static void test_crashing_child(void **state)
{
    (void)state;
    ortkit__child_options o = {.fn = crash, .channel = 1, .death_signal = SIGKILL, .timeout_s = 30};
    ortkit__child ch;
    assert_int_equal(ortkit__child_start(&ch, &o), 0);
    assert_true(ch.from >= 0 && ch.to >= 0);
    uint32_t type;
    void *data = (void *)1;
    size_t size = 99;
    assert_int_equal(ortkit__msg_recv(ch.from, ch.deadline, 1 << 20, &type, &data, &size), ORTKIT_E_IO);
    assert_error_has("a message ended after 4 of its 100 bytes");
    assert_null(data);
    assert_int_equal(size, 0);
    assert_int_equal(ortkit__child_wait(&ch, NULL), 0);
    assert_int_equal(ch.signal, SIGSEGV);
    assert_int_equal(ch.status, 128 + SIGSEGV);
    assert_int_equal(ch.timed_out, 0);
    ortkit__child_free(&ch);
    assert_no_children();
}

/* Answers each byte it is sent with a message of that many 'x's (type: the
 * byte), a large one for 'L'; leaves at the end of its input, or never
 * when arg says so. */
static int echo(void *arg, int to_parent, int from_parent)
{
    for (;;) {
        unsigned char c;
        ssize_t n = read(from_parent, &c, 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n != 1)
            break;
        size_t size = c == 'L' ? (size_t)1 << 20 : c;
        char *p = malloc(size + 1);
        memset(p, 'x', size);
        if (ortkit__msg_send(to_parent, c, p, size))
            return 4;
        free(p);
    }
    while (arg) /* stubborn: ignores the end of its input */
        pause();
    return 0;
}

static void test_messages_both_ways(void **state)
{
    (void)state;
    ortkit__child_options o = {.fn = echo, .channel = 1, .death_signal = SIGKILL};
    ortkit__child ch;
    assert_int_equal(ortkit__child_start(&ch, &o), 0);
    const unsigned char asks[] = {0, 3, 'L'};
    for (size_t i = 0; i < sizeof asks; i++) {
        assert_int_equal(write(ch.to, &asks[i], 1), 1);
        uint32_t type;
        void *data = NULL;
        size_t size;
        double deadline = ortkit__clock_now() + 30;
        assert_int_equal(ortkit__msg_recv(ch.from, deadline, (size_t)2 << 20, &type, &data, &size), 0);
        size_t want = asks[i] == 'L' ? (size_t)1 << 20 : asks[i];
        assert_int_equal(type, asks[i]);
        assert_int_equal(size, want);
        assert_int_equal(((char *)data)[size], '\0');
        if (size)
            assert_int_equal(((char *)data)[size - 1], 'x');
        free(data);
    }
    /* Nothing asked: late, not an error. */
    uint32_t type;
    void *data = NULL;
    size_t size;
    assert_int_equal(ortkit__msg_recv(ch.from, ortkit__clock_now() + 0.05, 1024, &type, &data, &size),
                     ORTKIT__MSG_LATE);
    /* Over the limit the caller set: refused, naming both (the channel is
     * out of step after it: the caller gives it up). */
    unsigned char big = 200;
    assert_int_equal(write(ch.to, &big, 1), 1);
    assert_int_equal(ortkit__msg_recv(ch.from, 0, 100, &type, &data, &size), ORTKIT_E_IO);
    assert_error_has("200 bytes");
    /* Asked to stop: its input ends, it leaves by itself. */
    assert_int_equal(ortkit__child_stop(&ch, 10), 0);
    assert_int_equal(ch.status, 0);
    assert_int_equal(ch.signal, 0);
    assert_int_equal(ch.to, -1);
    assert_int_equal(ch.from, -1);
    ortkit__child_free(&ch);

    /* One that stays is killed after its grace. */
    o.arg = (void *)1;
    assert_int_equal(ortkit__child_start(&ch, &o), 0);
    double t0 = ortkit__clock_now();
    assert_int_equal(ortkit__child_stop(&ch, 0.1), 0);
    assert_true(ortkit__clock_now() - t0 < 10);
    assert_int_equal(ch.signal, SIGKILL);
    ortkit__child_free(&ch);
    assert_no_children();
}

static void test_frames_on_a_pipe(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    uint32_t type;
    void *data = NULL;
    size_t size;
    /* Two whole messages, one empty, then a clean end. */
    assert_int_equal(ortkit__msg_send(p[1], 1, "hello", 5), 0);
    assert_int_equal(ortkit__msg_send(p[1], 2, NULL, 0), 0);
    close(p[1]);
    assert_int_equal(ortkit__msg_recv(p[0], 0, 64, &type, &data, &size), 0);
    assert_int_equal(type, 1);
    assert_int_equal(size, 5);
    assert_string_equal(data, "hello");
    free(data);
    assert_int_equal(ortkit__msg_recv(p[0], 0, 64, &type, &data, &size), 0);
    assert_int_equal(type, 2);
    assert_int_equal(size, 0);
    free(data);
    assert_int_equal(ortkit__msg_recv(p[0], 0, 64, &type, &data, &size), ORTKIT__MSG_END);
    assert_null(data);
    close(p[0]);

    /* A header cut short. */
    assert_int_equal(pipe(p), 0);
    assert_int_equal(write(p[1], "abc", 3), 3);
    close(p[1]);
    assert_int_equal(ortkit__msg_recv(p[0], 0, 64, &type, &data, &size), ORTKIT_E_IO);
    assert_error_has("after 3 bytes of its header");
    close(p[0]);

    /* A payload cut short, with a deadline. */
    assert_int_equal(pipe(p), 0);
    uint32_t head[2] = {9, 10};
    assert_int_equal(write(p[1], head, sizeof head), (ssize_t)sizeof head);
    assert_int_equal(write(p[1], "1234", 4), 4);
    close(p[1]);
    assert_int_equal(ortkit__msg_recv(p[0], ortkit__clock_now() + 5, 64, &type, &data, &size),
                     ORTKIT_E_IO);
    assert_error_has("after 4 of its 10 bytes");
    close(p[0]);

    /* A payload that stops coming: late. */
    assert_int_equal(pipe(p), 0);
    assert_int_equal(write(p[1], head, sizeof head), (ssize_t)sizeof head);
    assert_int_equal(ortkit__msg_recv(p[0], ortkit__clock_now() + 0.05, 64, &type, &data, &size),
                     ORTKIT__MSG_LATE);
    close(p[1]);
    close(p[0]);
}

/* ---- the probe program ------------------------------------------------------------ */

static void test_probe_lines(void **state)
{
    (void)state;
    ortkit__probe_answer a = {0};
    assert_int_equal(ortkit__probe_parse(&a, "stage\tlibraries\nneed\tlibx.so\tok\t/x\n"
                                             "stage\truntime\nsome log line\n"
                                             "runtime\t1.30.0\t/b/lib/libonnxruntime.so.1\n"
                                             "provider\tCPUExecutionProvider\nprovider\tCUDA\n"
                                             "stage\tprovider\nfail\tprovider\tno GPU here\n"),
                     0);
    assert_string_equal(a.stage, "provider");
    assert_string_equal(a.version, "1.30.0");
    assert_string_equal(a.path, "/b/lib/libonnxruntime.so.1");
    assert_int_equal(a.providers.n, 2);
    assert_string_equal(a.providers.v[1], "CUDA");
    assert_string_equal(a.fail_stage, "provider");
    assert_string_equal(a.message, "no GPU here");
    assert_string_equal(a.last, "some log line");
    assert_int_equal(a.ok, 0);
    ortkit__probe_answer_free(&a);
}

/* A fake probe: a shell script ORTKIT_PROBE_EXE names. */
static void fake_probe(const char *body)
{
    char text[2048];
    snprintf(text, sizeof text, "#!/bin/sh\n%s\n", body);
    assert_int_equal(ortkit__file_write_atomic(at("probe.sh"), text, strlen(text)), 0);
    assert_int_equal(chmod(at("probe.sh"), 0700), 0);
    setenv("ORTKIT_PROBE_EXE", at("probe.sh"), 1);
}

static void test_probe_load_answers(void **state)
{
    (void)state;
    ortkit__probe_answer a;
    fake_probe("printf 'stage\\truntime\\nruntime\\t1.2.3\\t%s\\nprovider\\tCPUExecutionProvider\\n"
               "ok\\truntime\\n' \"$1\"");
    assert_int_equal(ortkit__probe_load(&a, "/some/lib.so", 10), 0);
    assert_int_equal(a.ok, 1);
    assert_string_equal(a.version, "1.2.3");
    assert_string_equal(a.path, "/some/lib.so");
    assert_int_equal(a.providers.n, 1);
    ortkit__probe_answer_free(&a);

    fake_probe("printf 'stage\\truntime\\nfail\\truntime\\tcannot load it: no OrtGetApiBase\\n'; exit 1");
    assert_int_equal(ortkit__probe_load(&a, "/some/lib.so", 10), ORTKIT_E_RUNTIME_INVALID);
    assert_error_has("no OrtGetApiBase");
    assert_string_equal(a.message, "cannot load it: no OrtGetApiBase");
    ortkit__probe_answer_free(&a);

    fake_probe("printf 'stage\\truntime\\n'; echo 'boom in a constructor' >&2; kill -SEGV $$");
    assert_int_equal(ortkit__probe_load(&a, "/some/lib.so", 10), ORTKIT_E_IO);
    assert_error_has("loading it killed the process that tried (signal 11): boom in a constructor");
    ortkit__probe_answer_free(&a);

    fake_probe("printf 'stage\\truntime\\n'; exec sleep 30");
    double t0 = ortkit__clock_now();
    assert_int_equal(ortkit__probe_load(&a, "/some/lib.so", 0.3), ORTKIT_E_IO);
    assert_true(ortkit__clock_now() - t0 < 10);
    assert_error_has("did not end in 0.3 s");
    ortkit__probe_answer_free(&a);

    setenv("ORTKIT_PROBE_EXE", at("no-probe-here"), 1);
    assert_int_equal(ortkit__probe_load(&a, "/some/lib.so", 10), ORTKIT_E_IO);
    assert_error_has("ortkit-probe is not installed");
    ortkit__probe_answer_free(&a);
    unsetenv("ORTKIT_PROBE_EXE");
    assert_no_children();
}

/* The real probe loads the real runtime, and a stub that is none. */
static void test_probe_real(void **state)
{
    (void)state;
#ifdef ORTKIT_TEST_PROBE
    if (test_emulated()) { /* qemu-user without binfmt starts no aarch64 child */
        skip();
        return;
    }
    setenv("ORTKIT_PROBE_EXE", ORTKIT_TEST_PROBE, 1);
    ortkit__probe_answer a;
    assert_int_equal(ortkit__probe_load(&a, ORTKIT_TEST_RUNTIME_NEW, 120), 0);
    assert_true(a.version[0] == '1' && a.version[1] == '.');
    assert_non_null(strstr(a.path, "libonnxruntime"));
    int cpu = 0;
    for (size_t i = 0; i < a.providers.n; i++)
        cpu |= !strcmp(a.providers.v[i], "CPUExecutionProvider");
    assert_true(cpu);
    ortkit__probe_answer_free(&a);
    assert_int_equal(ortkit__probe_load(&a, ORTKIT_TEST_STUBS "/libstub_no_symbol.so", 120),
                     ORTKIT_E_RUNTIME_INVALID);
    assert_error_has("OrtGetApiBase");
    assert_string_equal(a.fail_stage, "runtime");
    ortkit__probe_answer_free(&a);
    unsetenv("ORTKIT_PROBE_EXE");
#else
    skip();
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_program_output_and_status),
        cmocka_unit_test(test_missing_program),
        cmocka_unit_test(test_deadline_kills_the_group),
        cmocka_unit_test(test_poll_reaps_once),
        cmocka_unit_test(test_forward_a_signal),
        cmocka_unit_test(test_tail_keeps_the_last_line),
        cmocka_unit_test(test_crashing_child),
        cmocka_unit_test(test_messages_both_ways),
        cmocka_unit_test(test_frames_on_a_pipe),
        cmocka_unit_test(test_probe_lines),
        cmocka_unit_test(test_probe_load_answers),
        cmocka_unit_test(test_probe_real),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
