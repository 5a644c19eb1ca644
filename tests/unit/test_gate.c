/* test_gate.c - the compile gate's admission policy, its history, the
 * launcher's view of a command line, and the socket protocol end to end
 * (a launcher that is killed releases what it held). */
#include "testutil.h"

#include "builder.h"
#include "server.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define MB (1024.0 * 1024.0)

static ortkit__builder_history hist;

static int setup(void **state)
{
    memset(&hist, 0, sizeof hist);
    ortkit__builder_history_put(&hist, "/s/small.cc", 300 * ORTKIT__MiB, 1, 1);
    ortkit__builder_history_put(&hist, "/s/big.cc", 900 * ORTKIT__MiB, 2, 2);
    ortkit__builder_history_put(&hist, "/s/large.cc", 800 * ORTKIT__MiB, 2, 2);
    return 0;
}

static int teardown(void **state)
{
    ortkit__builder_history_free(&hist);
    return 0;
}

static int admitted_count;
static void count_admit(ortkit__builder_job *job, void *ctx) { admitted_count++; }

static void test_budget_and_slots(void **state)
{
    ortkit__builder_gate g;
    ortkit__builder_gate_init(&g, 3 * ORTKIT__GiB / 2, 2, &hist);
    ortkit__builder_job *a = ortkit__builder_gate_request(&g, 1, ORTKIT__LANG_CXX, "/s/small.cc", 0);
    ortkit__builder_job *b = ortkit__builder_gate_request(&g, 2, ORTKIT__LANG_CXX, "/s/big.cc", 0);
    ortkit__builder_job *c = ortkit__builder_gate_request(&g, 3, ORTKIT__LANG_CXX, "/s/large.cc", 0);
    assert_true(a->learnt && b->learnt && c->learnt);
    /* Learnt peaks with the margin: 300 MiB * 1.1 + 16 MiB. */
    assert_int_equal(a->estimate, (uint64_t)(300 * ORTKIT__MiB * 1.10) + 16 * ORTKIT__MiB);
    admitted_count = 0;
    assert_int_equal(ortkit__builder_gate_schedule(&g, 1, count_admit, NULL), 2);
    assert_true(a->admitted && b->admitted && !c->admitted);
    assert_int_equal(c->held, ORTKIT__HOLD_SLOTS);
    assert_true(g.reserved <= g.budget);
    /* small finishes: large (880+) does not fit beside big (1006+). */
    ortkit__builder_gate_release(&g, a);
    assert_int_equal(ortkit__builder_gate_schedule(&g, 2, NULL, NULL), 0);
    assert_false(c->admitted);
    ortkit__builder_gate_release(&g, b);
    assert_int_equal(ortkit__builder_gate_schedule(&g, 3, NULL, NULL), 1);
    assert_true(c->admitted);
    assert_int_equal(g.stats.max_running, 2);
    assert_true(g.stats.max_reserved <= g.budget);
    ortkit__builder_gate_release(&g, c);
    assert_int_equal(g.running, 0);
    assert_int_equal(g.reserved, 0);
    ortkit__builder_gate_free(&g);
}

static void test_defaults_and_alone(void **state)
{
    ortkit__builder_gate g;
    ortkit__builder_gate_init(&g, ORTKIT__GiB, 4, NULL);
    /* Unknown files: the per-language default (nvcc far above g++). */
    assert_true(ortkit__builder_gate_estimate(&g, ORTKIT__LANG_CUDA, "x.cu", NULL) >
                2 * ortkit__builder_gate_estimate(&g, ORTKIT__LANG_CXX, "x.cc", NULL));
    ortkit__builder_job *a = ortkit__builder_gate_request(&g, 1, ORTKIT__LANG_CXX, "/new/a.cc", 0);
    ortkit__builder_job *b = ortkit__builder_gate_request(&g, 2, ORTKIT__LANG_C, "/new/b.c", 0);
    /* a (1.5 GiB) exceeds the budget: it runs alone, b (0.5 GiB) waits. */
    assert_int_equal(ortkit__builder_gate_schedule(&g, 0, NULL, NULL), 1);
    assert_true(a->admitted);
    assert_int_equal(b->held, ORTKIT__HOLD_BUDGET);
    assert_int_equal(g.stats.alone_over_budget, 1);
    assert_int_equal(g.stats.held_budget, 1);
    ortkit__builder_gate_release(&g, a);
    assert_int_equal(ortkit__builder_gate_schedule(&g, 0, NULL, NULL), 1);
    ortkit__builder_gate_release(&g, b);
    ortkit__builder_gate_free(&g);
}

static void test_sampled_rss_counts(void **state)
{
    ortkit__builder_gate g;
    ortkit__builder_gate_init(&g, 2 * ORTKIT__GiB, 2, &hist);
    ortkit__builder_job *a = ortkit__builder_gate_request(&g, 1, ORTKIT__LANG_CXX, "/s/small.cc", 0);
    assert_int_equal(ortkit__builder_gate_schedule(&g, 0, NULL, NULL), 1);
    /* It outgrows its estimate: the gate counts what it really uses. */
    ortkit__builder_gate_sample(&g, a, 1800 * ORTKIT__MiB);
    assert_int_equal(ortkit__builder_gate_in_use(&g), 1800 * ORTKIT__MiB);
    ortkit__builder_job *b = ortkit__builder_gate_request(&g, 2, ORTKIT__LANG_CXX, "/s/small.cc", 0);
    assert_int_equal(ortkit__builder_gate_schedule(&g, 0, NULL, NULL), 0);
    assert_int_equal(b->held, ORTKIT__HOLD_BUDGET);
    ortkit__builder_gate_sample(&g, a, 200 * ORTKIT__MiB);
    assert_int_equal(ortkit__builder_gate_schedule(&g, 0, NULL, NULL), 1);
    assert_int_equal(g.stats.max_sampled, 1800 * ORTKIT__MiB);
    ortkit__builder_gate_release(&g, a);
    ortkit__builder_gate_release(&g, b);
    ortkit__builder_gate_free(&g);
}

static void test_low_system_memory(void **state)
{
    ortkit__builder_gate g;
    ortkit__builder_gate_init(&g, 8 * ORTKIT__GiB, 4, &hist);
    g.low_water = 512 * ORTKIT__MiB;
    ortkit__builder_job *a = ortkit__builder_gate_request(&g, 1, ORTKIT__LANG_CXX, "/s/small.cc", 0);
    ortkit__builder_job *b = ortkit__builder_gate_request(&g, 2, ORTKIT__LANG_CXX, "/s/small.cc", 0);
    /* The system has 1 GiB available; a reserves 346 MiB and has used none. */
    ortkit__builder_gate_set_available(&g, ORTKIT__GiB);
    assert_int_equal(ortkit__builder_gate_schedule(&g, 0, NULL, NULL), 1);
    assert_true(a->admitted);
    assert_int_equal(b->held, ORTKIT__HOLD_SYSTEM);
    assert_int_equal(g.stats.held_system, 1);
    ortkit__builder_gate_set_available(&g, 4 * ORTKIT__GiB);
    assert_int_equal(ortkit__builder_gate_schedule(&g, 0, NULL, NULL), 1);
    ortkit__builder_gate_release(&g, a);
    ortkit__builder_gate_release(&g, b);
    ortkit__builder_gate_free(&g);
}

static void test_bounded_bypass(void **state)
{
    ortkit__builder_gate g;
    ortkit__builder_gate_init(&g, 1200 * ORTKIT__MiB, 8, &hist);
    g.max_bypass = 2;
    ortkit__builder_job *big1 = ortkit__builder_gate_request(&g, 1, ORTKIT__LANG_CXX, "/s/big.cc", 0);
    assert_int_equal(ortkit__builder_gate_schedule(&g, 0, NULL, NULL), 1);
    ortkit__builder_job *big2 = ortkit__builder_gate_request(&g, 2, ORTKIT__LANG_CXX, "/s/big.cc", 0);
    g.lang_default[ORTKIT__LANG_C] = 1; /* small ones fit beside big1 */
    ortkit__builder_job *s[4];
    for (int i = 0; i < 4; i++)
        s[i] = ortkit__builder_gate_request(&g, 10 + i, ORTKIT__LANG_C, "/s/tiny.c", 0);
    /* Small jobs pass the waiting big2, but only max_bypass of them. */
    for (int round = 0; round < 4; round++) {
        ortkit__builder_gate_schedule(&g, 0, NULL, NULL);
        for (int i = 0; i < 4; i++)
            if (s[i]->admitted) {
                ortkit__builder_gate_release(&g, s[i]);
                s[i] = ortkit__builder_gate_request(&g, 20 + i, ORTKIT__LANG_C, "/s/tiny.c", 0);
            }
    }
    assert_false(big2->admitted);
    assert_int_equal(big2->bypassed, 2);
    ortkit__builder_gate_release(&g, big1);
    ortkit__builder_gate_schedule(&g, 0, NULL, NULL);
    assert_true(big2->admitted);
    ortkit__builder_gate_free(&g);
}

static void test_history_roundtrip(void **state)
{
    char path[] = "/tmp/ortkit_test_hist_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    ortkit__builder_history h = hist;
    h.last_wall = 12.5;
    h.last_steps = 42;
    assert_int_equal(ortkit__builder_history_save(&h, path), 0);
    ortkit__builder_history back;
    assert_int_equal(ortkit__builder_history_load(&back, path), 0);
    assert_int_equal(back.n, 3);
    assert_int_equal(back.last_steps, 42);
    const ortkit__builder_hist_entry *e = ortkit__builder_history_find(&back, "/s/big.cc");
    assert_non_null(e);
    assert_int_equal(e->peak, 900 * ORTKIT__MiB);
    assert_null(ortkit__builder_history_find(&back, "/s/none.cc"));
    ortkit__builder_history_free(&back);
    unlink(path);
    /* No file yet: an empty history. */
    assert_int_equal(ortkit__builder_history_load(&back, "/nonexistent/history.tsv"), 0);
    assert_int_equal(back.n, 0);
}

static void test_classify(void **state)
{
    ortkit__builder_lang lang;
    char *cxx[] = {"/usr/bin/c++", "-DX", "-O2", "-o", "a.o", "-c", "/src/a.cc"};
    assert_int_equal(ortkit__builder_classify(cxx, 7, &lang), 6);
    assert_int_equal(lang, ORTKIT__LANG_CXX);
    char *c[] = {"/usr/bin/cc", "-c", "/src/b.c", "-o", "b.o"};
    assert_int_equal(ortkit__builder_classify(c, 5, &lang), 2);
    assert_int_equal(lang, ORTKIT__LANG_C);
    char *cu[] = {"/usr/local/cuda/bin/nvcc", "-x", "cu", "-c", "/src/k.cu", "-o", "k.o"};
    assert_int_equal(ortkit__builder_classify(cu, 7, &lang), 4);
    assert_int_equal(lang, ORTKIT__LANG_CUDA);
    char *link[] = {"/usr/bin/c++", "-shared", "-o", "libx.so", "a.o", "b.o"};
    assert_int_equal(ortkit__builder_classify(link, 6, &lang), 3);
    assert_int_equal(lang, ORTKIT__LANG_LINK);
}

static void test_sizes_and_progress(void **state)
{
    uint64_t v;
    assert_int_equal(ortkit__human_parse_size("1.5G", &v), 0);
    assert_int_equal(v, 3 * ORTKIT__GiB / 2);
    assert_int_equal(ortkit__human_parse_size("600MiB", &v), 0);
    assert_int_equal(v, 600 * ORTKIT__MiB);
    assert_int_equal(ortkit__human_parse_size("2gb", &v), 0);
    assert_int_equal(v, 2 * ORTKIT__GiB);
    assert_int_equal(ortkit__human_parse_size("4096", &v), 0);
    assert_int_equal(v, 4096);
    assert_int_not_equal(ortkit__human_parse_size("lots", &v), 0);
    assert_int_not_equal(ortkit__human_parse_size("5X", &v), 0);
    assert_int_not_equal(ortkit__human_parse_size("-1G", &v), 0);

    long done, total, running;
    assert_int_equal(ortkit__builder_progress_parse("[ortkit 12/551 2] Building CXX object x.o", &done,
                                                    &total, &running),
                     1);
    assert_int_equal(done, 12);
    assert_int_equal(total, 551);
    assert_int_equal(running, 2);
    assert_int_equal(ortkit__builder_progress_parse("In file included from x.h:1:", &done, &total, NULL), 0);

    ortkit__builder_progress p = {.t_start = 100, .done = 50, .total = 200};
    char line[256];
    ortkit__builder_progress_format(&p, line, sizeof line, 2, ORTKIT__GiB, 2 * ORTKIT__GiB, 200);
    assert_string_equal(line, "[ 25%] 50/200 steps  1:40 elapsed  ETA 5:00  2 compiling  1.00 GiB of 2.00 GiB");
    /* Before ten steps, the last build's time per step. */
    ortkit__builder_progress q = {.t_start = 0, .done = 2, .total = 100, .eta_hint = 3};
    ortkit__builder_progress_format(&q, line, sizeof line, 1, 0, ORTKIT__GiB, 1);
    assert_non_null(strstr(line, "ETA 4:54"));
}

/* ---- the protocol, end to end ------------------------------------------- */

static pid_t spawn_launcher(const char *state, const char *script)
{
    pid_t pid = fork();
    if (pid == 0) {
        char launch[512];
        snprintf(launch, sizeof launch, "--launch=%s", state);
        char *argv[] = {"build", launch, "/bin/sh", "-c", (char *)script, NULL};
        _exit(ortkit__builder_launch(5, argv));
    }
    return pid;
}

/* Serve until cond() holds or about 20 s pass; returns cond(). */
static int serve_until(ortkit__builder_server *s,
                       int (*cond)(ortkit__builder_server *s, pid_t pid), pid_t pid)
{
    for (int i = 0; i < 2000; i++) {
        if (cond(s, pid))
            return 1;
        struct pollfd pfd[64];
        size_t n = ortkit__builder_server_pollfds(s, pfd, 64);
        poll(pfd, n, 10);
        double now = ortkit__clock_now();
        ortkit__builder_server_handle(s, pfd, n, now);
        ortkit__builder_server_tick(s, now);
    }
    return cond(s, pid);
}

static int exited(ortkit__builder_server *s, pid_t pid)
{
    int st;
    pid_t r = waitpid(pid, &st, WNOHANG);
    return r == pid || (r < 0 && errno == ECHILD);
}

/* Alive and not a zombie waiting for a parent that may never reap it. */
static int alive(pid_t pid)
{
    char path[64], *text = NULL;
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    if (ortkit__file_read(&text, NULL, path, 1024))
        return 0;
    const char *p = strrchr(text, ')');
    int z = p && (p[2] == 'Z' || p[2] == 'X');
    free(text);
    return !z;
}

static int running_one(ortkit__builder_server *s, pid_t pid) { return s->gate.running == 1; }
static int none_left(ortkit__builder_server *s, pid_t pid) { return s->gate.n_jobs == 0; }

static void test_protocol(void **state)
{
    char dir[] = "/tmp/ortkit_test_gate_XXXXXX";
    assert_non_null(mkdtemp(dir));
    ortkit__builder_report rep;
    memset(&rep, 0, sizeof rep);
    ortkit__builder_history h = {0};
    ortkit__builder_server s;
    assert_int_equal(ortkit__builder_server_open(&s, dir, ORTKIT__GiB, 2, &h, &rep), 0);
    /* A second gate for the same directory is refused. */
    ortkit__builder_server s2;
    assert_int_not_equal(ortkit__builder_server_open(&s2, dir, ORTKIT__GiB, 2, NULL, NULL), 0);

    /* A compile that fails with status 3: recorded, released, not learnt. */
    pid_t p = spawn_launcher(dir, "exit 3");
    assert_true(serve_until(&s, exited, p));
    assert_true(serve_until(&s, none_left, 0));
    assert_int_equal(rep.n, 1);
    assert_int_equal(rep.r[0].status, 3);
    assert_int_equal(h.n, 0);

    /* A launcher killed while its compiler runs: the gate releases its
     * reservation, and the compiler dies with it. */
    char marker[600], script[700];
    snprintf(marker, sizeof marker, "%s/compiler.pid", dir);
    snprintf(script, sizeof script, "echo $$ > %s; exec sleep 60", marker);
    p = spawn_launcher(dir, script);
    assert_true(serve_until(&s, running_one, 0));
    char *pidtext = NULL;
    for (int i = 0; i < 500 && ortkit__file_read(&pidtext, NULL, marker, 64); i++)
        usleep(10000);
    assert_non_null(pidtext);
    pid_t compiler = (pid_t)atol(pidtext);
    free(pidtext);
    kill(p, SIGKILL);
    waitpid(p, NULL, 0);
    assert_true(serve_until(&s, none_left, 0));
    assert_int_equal(s.gate.running, 0);
    assert_int_equal(s.gate.reserved, 0);
    assert_int_equal(s.dropped, 1);
    int gone = 0;
    for (int i = 0; i < 500 && !gone; i++) {
        gone = !alive(compiler);
        if (!gone)
            usleep(10000);
    }
    assert_true(gone);

    /* A good compile is learnt. */
    p = spawn_launcher(dir, "exit 0");
    assert_true(serve_until(&s, exited, p));
    assert_true(serve_until(&s, none_left, 0));
    assert_int_equal(h.n, 1);
    ortkit__builder_server_close(&s);
    ortkit__builder_history_free(&h);
    ortkit__builder_report_free(&rep);

    /* With no gate listening, the launcher runs the command itself. */
    p = spawn_launcher(dir, "exit 7");
    int st = 0;
    waitpid(p, &st, 0);
    assert_int_equal(WEXITSTATUS(st), 7);
    unlink(marker);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_budget_and_slots),
        cmocka_unit_test(test_defaults_and_alone),
        cmocka_unit_test(test_sampled_rss_counts),
        cmocka_unit_test(test_low_system_memory),
        cmocka_unit_test(test_bounded_bypass),
        cmocka_unit_test(test_history_roundtrip),
        cmocka_unit_test(test_classify),
        cmocka_unit_test(test_sizes_and_progress),
        cmocka_unit_test(test_protocol),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
