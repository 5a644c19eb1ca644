/* test_gate.c - the compile gate's admission policy, its history, the
 * launcher's view of a command line, the socket protocol end to end (a
 * launcher that is killed releases what it held), and who may serve and
 * use the gate's socket (stale and squatted sockets, fake gates, another
 * user, the state directory's modes). */
#include "testutil.h"

#include "builder_preflight.h"
#include "builder_history.h"
#include "builder_gate.h"
#include "builder_launcher.h"
#include "builder_report.h"
#include "builder_progress.h"
#include "server.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define MB (1024.0 * 1024.0)

/* Fail unless the builder's last error contains text. */
#define assert_message_has(text)                                                            \
    do {                                                                                    \
        if (!strstr(ortkit__error_message(), (text)))                                       \
            fail_msg("error '%s' lacks '%s'", ortkit__error_message(), (text));             \
    } while (0)

static void remove_tree(const char *dir)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fail_msg("cannot remove %s", dir);
}

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

/* A launcher (in a child) running script; its stderr to err_path when not NULL. */
static pid_t spawn_launcher_err(const char *state, const char *script, const char *err_path)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (err_path) {
            int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
            if (fd < 0 || dup2(fd, 2) < 0)
                _exit(120);
        }
        char launch[PATH_MAX + 16];
        snprintf(launch, sizeof launch, "--launch=%s", state);
        char *argv[] = {"build", launch, "/bin/sh", "-c", (char *)script, NULL};
        _exit(ortkit__builder_launch(5, argv));
    }
    return pid;
}

static pid_t spawn_launcher(const char *state, const char *script)
{
    return spawn_launcher_err(state, script, NULL);
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
    ortkit__builder_lock lock = {-1};
    assert_int_equal(ortkit__builder_lock_take(&lock, dir), 0);
    ortkit__builder_server s;
    assert_int_equal(ortkit__builder_server_open(&s, dir, ORTKIT__GiB, 2, &h, &rep), 0);
    /* A second gate for the same directory is refused. */
    ortkit__builder_server s2;
    assert_int_not_equal(ortkit__builder_server_open(&s2, dir, ORTKIT__GiB, 2, NULL, NULL), 0);
    assert_message_has("another gate (pid");
    assert_message_has("is already serving");

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
    ortkit__builder_lock_release(&lock);
    unlink(marker);
    remove_tree(dir);
}

/* ---- the gate's socket: who may serve it, who may use it ----------------- */

/* A build directory (top) whose state directory is made as ortkit build
 * makes it, with its lock held by this process, as a build holds it. */
typedef struct gate_dir {
    char top[64];
    char state[1024];
    char sock[1100];
    ortkit__builder_lock lock;
} gate_dir;

/* A socket address for path; -1 when it does not fit. */
static int sun_set(struct sockaddr_un *sa, const char *path)
{
    size_t n = strlen(path);
    memset(sa, 0, sizeof *sa);
    sa->sun_family = AF_UNIX;
    if (n >= sizeof sa->sun_path)
        return -1;
    memcpy(sa->sun_path, path, n + 1);
    return 0;
}

static void gate_dir_make(gate_dir *g, const char *sub)
{
    snprintf(g->top, sizeof g->top, "/tmp/ortkit_test_gsock_XXXXXX");
    assert_non_null(mkdtemp(g->top));
    snprintf(g->state, sizeof g->state, "%s/%s.ortkit", g->top, sub ? sub : "");
    snprintf(g->sock, sizeof g->sock, "%s/%s", g->state, ORTKIT__BUILDER_GATE_SOCKET);
    int fd = -1;
    assert_int_equal(ortkit__builder_state_dir_open(g->state, 1, &fd), 0);
    assert_true(fd >= 0);
    close(fd);
    g->lock.fd = -1;
    assert_int_equal(ortkit__builder_lock_take(&g->lock, g->state), 0);
}

static void gate_dir_free(gate_dir *g)
{
    ortkit__builder_lock_release(&g->lock);
    remove_tree(g->top);
}

static mode_t mode_of(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return 0;
    return st.st_mode;
}

static int file_has(const char *path, const char *text)
{
    char *s = NULL;
    if (ortkit__file_read(&s, NULL, path, 1 << 20))
        return 0;
    int yes = strstr(s, text) != NULL;
    if (!yes)
        print_message("%s: '%s' lacks '%s'\n", path, s, text);
    free(s);
    return yes;
}

static int exit_status(pid_t pid)
{
    int st = 0;
    if (waitpid(pid, &st, 0) != pid)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Serve until the child pid exits; its exit status, or -1 after 20 s. */
static int serve_until_exit(ortkit__builder_server *s, pid_t pid)
{
    for (int i = 0; i < 2000; i++) {
        int st;
        if (waitpid(pid, &st, WNOHANG) == pid)
            return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        struct pollfd pfd[64];
        size_t n = ortkit__builder_server_pollfds(s, pfd, 64);
        poll(pfd, n, 10);
        double now = ortkit__clock_now();
        ortkit__builder_server_handle(s, pfd, n, now);
        ortkit__builder_server_tick(s, now);
    }
    return -1;
}

/* Become uid (and its group) for good: a child acting as another user. */
static void become(uid_t uid)
{
    if (uid != geteuid() && (setgroups(0, NULL) != 0 || setgid((gid_t)uid) != 0 || setuid(uid) != 0))
        _exit(101);
}

/*
 * A process of user uid listening on the state directory's socket path
 * (another user binds there while the directories are opened up for it).
 * It answers its first connection with reply and exits with the number of
 * bytes that connection sent it (at most 99), or 100 when nobody came in
 * 10 s.  Returns once it listens.
 */
static pid_t fake_gate(const gate_dir *g, uid_t uid, const char *reply)
{
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    int other = uid != geteuid();
    if (other) {
        assert_int_equal(chmod(g->top, 0755), 0);
        assert_int_equal(chmod(g->state, 0777), 0);
    }
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(ready[0]);
        become(uid);
        struct sockaddr_un sa;
        int fd = sun_set(&sa, g->sock) ? -1 : socket(AF_UNIX, SOCK_STREAM, 0);
        if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 8) != 0)
            _exit(102);
        if (write(ready[1], "r", 1) != 1)
            _exit(103);
        close(ready[1]);
        struct pollfd pfd = {fd, POLLIN, 0};
        if (poll(&pfd, 1, 10000) != 1)
            _exit(100);
        int c = accept(fd, NULL, NULL);
        if (c < 0)
            _exit(104);
        (void)!send(c, reply, strlen(reply), MSG_NOSIGNAL);
        size_t got = 0;
        char buf[256];
        ssize_t r;
        pfd.fd = c;
        while (poll(&pfd, 1, 5000) == 1 && (r = read(c, buf, sizeof buf)) > 0)
            got += (size_t)r;
        _exit(got > 99 ? 99 : (int)got);
    }
    close(ready[1]);
    char b = 0;
    assert_int_equal(read(ready[0], &b, 1), 1);
    close(ready[0]);
    if (other) {
        assert_int_equal(chmod(g->state, 0700), 0);
        assert_int_equal(chmod(g->top, 0700), 0);
    }
    return pid;
}

/* The socket is a file in the state directory, 0600 in a 0700 directory,
 * removed when the gate closes; a path longer than a socket address allows
 * is served and reached all the same. */
static void test_gate_socket_in_state_dir(void **state)
{
    (void)state;
    char deep[400];
    snprintf(deep, sizeof deep, "%0120d/%0120d/", 1, 2);
    const char *subs[] = {NULL, deep};
    for (int k = 0; k < 2; k++) {
        gate_dir g;
        gate_dir_make(&g, subs[k]);
        assert_true(k == 0 ? strlen(g.sock) < 108 : strlen(g.sock) >= 108);
        assert_int_equal(mode_of(g.state) & 07777, 0700);
        ortkit__builder_report rep;
        memset(&rep, 0, sizeof rep);
        ortkit__builder_server s;
        assert_int_equal(ortkit__builder_server_open(&s, g.state, ORTKIT__GiB, 2, NULL, &rep), 0);
        assert_true(S_ISSOCK(mode_of(g.sock)));
        assert_int_equal(mode_of(g.sock) & 07777, 0600);
        pid_t p = spawn_launcher(g.state, "exit 0");
        assert_int_equal(serve_until_exit(&s, p), 0);
        assert_true(serve_until(&s, none_left, 0));
        assert_int_equal(rep.n, 1);
        assert_int_equal(s.refused, 0);
        ortkit__builder_server_close(&s);
        assert_int_equal(mode_of(g.sock), 0);
        ortkit__builder_report_free(&rep);
        gate_dir_free(&g);
    }

    /* Only the build that holds the lock serves the gate. */
    gate_dir g;
    gate_dir_make(&g, NULL);
    ortkit__builder_lock_release(&g.lock);
    ortkit__builder_server s;
    assert_int_equal(ortkit__builder_server_open(&s, g.state, ORTKIT__GiB, 2, NULL, NULL),
                     ORTKIT_E_INVALID_ARG);
    assert_message_has("served only by the build holding its lock");
    assert_int_equal(mode_of(g.sock), 0);
    gate_dir_free(&g);
}

/* A socket left by a build that was killed is replaced, and a launcher
 * meanwhile compiles ungated without a word; a live gate of this user is
 * refused by name; anything else in the way is named. */
static void test_gate_socket_stale_and_live(void **state)
{
    (void)state;
    gate_dir g;
    gate_dir_make(&g, NULL);
    char err[1200];
    snprintf(err, sizeof err, "%s/launcher.err", g.top);

    pid_t f = fake_gate(&g, geteuid(), "GO -\n");
    kill(f, SIGKILL);
    assert_int_equal(exit_status(f), 128 + SIGKILL);
    assert_true(S_ISSOCK(mode_of(g.sock)));
    pid_t p = spawn_launcher_err(g.state, "exit 4", err);
    assert_int_equal(exit_status(p), 4);
    struct stat st;
    assert_int_equal(stat(err, &st), 0);
    assert_int_equal(st.st_size, 0); /* not a word */

    ortkit__builder_report rep;
    memset(&rep, 0, sizeof rep);
    ortkit__builder_server s;
    assert_int_equal(ortkit__builder_server_open(&s, g.state, ORTKIT__GiB, 2, NULL, &rep), 0);
    p = spawn_launcher(g.state, "exit 0");
    assert_int_equal(serve_until_exit(&s, p), 0);
    assert_true(serve_until(&s, none_left, 0));
    assert_int_equal(rep.n, 1);
    ortkit__builder_server_close(&s);
    ortkit__builder_report_free(&rep);

    /* A live one of this user: refused, with its PID; once it is gone, its
     * socket is stale and replaced. */
    f = fake_gate(&g, geteuid(), "");
    assert_int_equal(ortkit__builder_server_open(&s, g.state, ORTKIT__GiB, 2, NULL, NULL), ORTKIT_E_IO);
    char want[4096];
    snprintf(want, sizeof want, "another gate (pid %ld) is already serving %s", (long)f, g.state);
    assert_message_has(want);
    assert_true(S_ISSOCK(mode_of(g.sock))); /* left alone */
    kill(f, SIGKILL);
    exit_status(f);
    assert_int_equal(ortkit__builder_server_open(&s, g.state, ORTKIT__GiB, 2, NULL, NULL), 0);
    ortkit__builder_server_close(&s);

    /* Not a socket: named, and left alone. */
    assert_int_equal(ortkit__file_write_atomic(g.sock, "x", 1), 0);
    assert_int_equal(ortkit__builder_server_open(&s, g.state, ORTKIT__GiB, 2, NULL, NULL), ORTKIT_E_IO);
    snprintf(want, sizeof want, "%s is in the way of the compile gate and is not a socket", g.sock);
    assert_message_has(want);
    assert_true(S_ISREG(mode_of(g.sock)));
    gate_dir_free(&g);
}

/* A gate that is not this build's is told nothing: the launcher runs its own
 * command line, ungated, and says why; even the build's own gate cannot make
 * it run anything but a known chain. */
static void test_gate_fake_server(void **state)
{
    (void)state;
    gate_dir g;
    gate_dir_make(&g, NULL);
    char err[1200], marker[1200], script[2600];
    snprintf(err, sizeof err, "%s/launcher.err", g.top);
    snprintf(marker, sizeof marker, "%s/ran", g.top);
    snprintf(script, sizeof script, "echo ran > %s; exit 5", marker);

    /* This user's process, but not the one holding the lock. */
    pid_t f = fake_gate(&g, geteuid(), "GO distcc\n");
    pid_t p = spawn_launcher_err(g.state, script, err);
    assert_int_equal(exit_status(p), 5);
    assert_true(file_has(marker, "ran"));
    char want[4096];
    snprintf(want, sizeof want, "ortkit: not using the compile gate of %s: it is served by pid %ld, "
             "not by the ortkit build that holds %s/lock (pid %ld); compiling without it",
             g.state, (long)f, g.state, (long)getpid());
    assert_true(file_has(err, want));
    assert_int_equal(exit_status(f), 0); /* it was sent nothing */
    unlink(marker);
    unlink(g.sock);

    /* No build holds the lock at all. */
    ortkit__builder_lock_release(&g.lock);
    f = fake_gate(&g, geteuid(), "GO distcc\n");
    p = spawn_launcher_err(g.state, script, err);
    assert_int_equal(exit_status(p), 5);
    assert_true(file_has(err, "and no ortkit build holds"));
    assert_int_equal(exit_status(f), 0);
    unlink(marker);
    unlink(g.sock);
    assert_int_equal(ortkit__builder_lock_take(&g.lock, g.state), 0);

    /* The lock's holder (this process) answering with something that is not
     * a chain: the launcher runs nothing. */
    struct sockaddr_un sa;
    assert_int_equal(sun_set(&sa, g.sock), 0);
    int lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    assert_true(lfd >= 0);
    assert_int_equal(bind(lfd, (struct sockaddr *)&sa, sizeof sa), 0);
    assert_int_equal(listen(lfd, 4), 0);
    p = spawn_launcher_err(g.state, script, err);
    struct pollfd pfd = {lfd, POLLIN, 0};
    assert_int_equal(poll(&pfd, 1, 20000), 1);
    int c = accept(lfd, NULL, NULL);
    assert_true(c >= 0);
    char line[512];
    ssize_t r = read(c, line, sizeof line - 1);
    assert_true(r > 4);
    line[r] = '\0';
    assert_true(!strncmp(line, "REQ ", 4));
    const char *evil = "GO sh -c 'touch /tmp/x'\n";
    assert_int_equal(send(c, evil, strlen(evil), MSG_NOSIGNAL), (ssize_t)strlen(evil));
    assert_int_equal(exit_status(p), 1);
    assert_int_equal(mode_of(marker), 0);
    assert_true(file_has(err, "the compile gate sent a reply ortkit does not know; not compiling"));
    close(c);
    close(lfd);
    gate_dir_free(&g);
}

/* The state directory: made 0700; one others can only read is closed by a
 * build; one others can write, a link, one of another user, or a build
 * directory others can write (unless sticky) is refused, naming it. */
static void test_gate_state_dir_modes(void **state)
{
    (void)state;
    char top[] = "/tmp/ortkit_test_gmode_XXXXXX";
    assert_non_null(mkdtemp(top));
    char st_dir[256], err[256], want[2048];
    snprintf(st_dir, sizeof st_dir, "%s/b/.ortkit", top);
    snprintf(err, sizeof err, "%s/launcher.err", top);
    int fd = 0;

    /* Missing: nothing for a launcher, made 0700 (and its parent) by a build. */
    assert_int_equal(ortkit__builder_state_dir_open(st_dir, 0, &fd), 0);
    assert_int_equal(fd, -1);
    assert_int_equal(ortkit__builder_state_dir_open(st_dir, 1, &fd), 0);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(mode_of(st_dir) & 07777, 0700);

    assert_int_equal(chmod(st_dir, 0755), 0);
    assert_int_equal(ortkit__builder_state_dir_open(st_dir, 0, &fd), 0);
    close(fd);
    assert_int_equal(mode_of(st_dir) & 07777, 0755);
    assert_int_equal(ortkit__builder_state_dir_open(st_dir, 1, &fd), 0);
    close(fd);
    assert_int_equal(mode_of(st_dir) & 07777, 0700);

    /* Writable by others: refused by a build, the gate and the launcher. */
    assert_int_equal(chmod(st_dir, 0777), 0);
    assert_int_equal(ortkit__builder_state_dir_open(st_dir, 1, &fd), ORTKIT_E_IO);
    assert_int_equal(fd, -1);
    snprintf(want, sizeof want, "the build's state directory %s is writable by its group and "
             "others (mode 0777); it must be 0700", st_dir);
    assert_message_has(want);
    ortkit__builder_server s;
    assert_int_equal(ortkit__builder_server_open(&s, st_dir, ORTKIT__GiB, 2, NULL, NULL), ORTKIT_E_IO);
    assert_message_has(want);
    pid_t p = spawn_launcher_err(st_dir, "exit 6", err);
    assert_int_equal(exit_status(p), 6);
    assert_true(file_has(err, "ortkit: not using the compile gate of"));
    assert_true(file_has(err, want));
    assert_int_equal(chmod(st_dir, 0720), 0);
    assert_int_equal(ortkit__builder_state_dir_open(st_dir, 1, &fd), ORTKIT_E_IO);
    assert_message_has("is writable by its group (mode 0720)");
    assert_int_equal(mode_of(st_dir) & 07777, 0720);

    /* A link in its place. */
    assert_int_equal(rmdir(st_dir), 0);
    assert_int_equal(symlink(top, st_dir), 0);
    assert_int_equal(ortkit__builder_state_dir_open(st_dir, 1, &fd), ORTKIT_E_IO);
    snprintf(want, sizeof want, "%s is not a directory (a symbolic link?)", st_dir);
    assert_message_has(want);
    assert_int_equal(ortkit__builder_state_dir_open(st_dir, 0, &fd), ORTKIT_E_IO);
    assert_int_equal(unlink(st_dir), 0);

    /* A build directory others can write; sticky is fine. */
    char build[256];
    snprintf(build, sizeof build, "%s/b", top);
    assert_int_equal(chmod(build, 0777), 0);
    assert_int_equal(ortkit__builder_state_dir_open(st_dir, 1, &fd), ORTKIT_E_IO);
    snprintf(want, sizeof want, "%s is writable by its group and others (mode 0777): another user "
             "could replace the build's state directory %s; run chmod go-w %s", build, st_dir, build);
    assert_message_has(want);
    assert_int_equal(mode_of(st_dir), 0); /* nothing made there */
    assert_int_equal(chmod(build, 01777), 0);
    assert_int_equal(ortkit__builder_state_dir_open(st_dir, 1, &fd), 0);
    close(fd);
    assert_int_equal(chmod(build, 0755), 0);
    remove_tree(top);
}

/* Another user (uid 65534): its server is refused by the launcher, its
 * socket replaced by the build, its connections closed unheard, its state
 * directory refused.  Acting as another user needs root. */
static void test_gate_other_user(void **state)
{
    (void)state;
    const uid_t nobody = 65534;
    if (geteuid() != 0) {
        print_message("[  SKIPPED ] test_gate_other_user: acting as another user (uid 65534) "
                      "needs root\n");
        skip();
    }
    gate_dir g;
    gate_dir_make(&g, NULL);
    char err[1200], marker[1200], script[2600], want[4096];
    snprintf(err, sizeof err, "%s/launcher.err", g.top);
    snprintf(marker, sizeof marker, "%s/ran", g.top);
    snprintf(script, sizeof script, "echo ran > %s; exit 5", marker);

    /* Its server, answering at the build's socket: told nothing. */
    pid_t f = fake_gate(&g, nobody, "GO distcc\n");
    struct stat st;
    assert_int_equal(lstat(g.sock, &st), 0);
    assert_int_equal(st.st_uid, nobody);
    pid_t p = spawn_launcher_err(g.state, script, err);
    assert_int_equal(exit_status(p), 5);
    assert_true(file_has(marker, "ran"));
    assert_true(file_has(err, "it is served by uid 65534, not by you (uid 0); compiling without it"));
    assert_int_equal(exit_status(f), 0);
    unlink(marker);
    unlink(g.sock);

    /* Its live socket in the build's way: replaced, and the build serves. */
    f = fake_gate(&g, nobody, "GO distcc\n");
    ortkit__builder_report rep;
    memset(&rep, 0, sizeof rep);
    ortkit__builder_server s;
    assert_int_equal(ortkit__builder_server_open(&s, g.state, ORTKIT__GiB, 2, NULL, &rep), 0);
    assert_int_equal(lstat(g.sock, &st), 0);
    assert_int_equal(st.st_uid, 0);
    p = spawn_launcher(g.state, "exit 0");
    assert_int_equal(serve_until_exit(&s, p), 0);
    assert_true(serve_until(&s, none_left, 0));
    assert_int_equal(rep.n, 1);
    kill(f, SIGKILL);
    exit_status(f);

    /* Its connection, with the directories opened up for it: closed before
     * a word is read. */
    assert_int_equal(chmod(g.top, 0755), 0);
    assert_int_equal(chmod(g.state, 0711), 0);
    assert_int_equal(chmod(g.sock, 0666), 0);
    p = fork();
    assert_true(p >= 0);
    if (p == 0) {
        become(nobody);
        struct sockaddr_un sa;
        int fd = sun_set(&sa, g.sock) ? -1 : socket(AF_UNIX, SOCK_STREAM, 0);
        if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0)
            _exit(102);
        const char *req = "REQ 1 c /s/x.c\n";
        (void)!send(fd, req, strlen(req), MSG_NOSIGNAL);
        char buf[64];
        struct pollfd pfd = {fd, POLLIN, 0};
        if (poll(&pfd, 1, 10000) != 1)
            _exit(103);
        /* Closed, nothing said (a reset: what it sent was never read). */
        ssize_t r = read(fd, buf, sizeof buf);
        _exit(r == 0 || (r < 0 && errno == ECONNRESET) ? 0 : 1);
    }
    assert_int_equal(serve_until_exit(&s, p), 0);
    assert_int_equal(s.refused, 1);
    assert_int_equal(s.gate.n_jobs, 0);
    assert_int_equal(s.gate.stats.requests, 1);
    assert_int_equal(chmod(g.state, 0700), 0);
    assert_int_equal(chmod(g.top, 0700), 0);
    ortkit__builder_server_close(&s);
    ortkit__builder_report_free(&rep);

    /* A state directory of that user's. */
    assert_int_equal(chown(g.state, nobody, nobody), 0);
    int fd = 0;
    assert_int_equal(ortkit__builder_state_dir_open(g.state, 1, &fd), ORTKIT_E_IO);
    snprintf(want, sizeof want, "the build's state directory %s belongs to uid 65534, not to you "
             "(uid 0)", g.state);
    assert_message_has(want);
    p = spawn_launcher_err(g.state, "exit 6", err);
    assert_int_equal(exit_status(p), 6);
    assert_true(file_has(err, want));
    assert_int_equal(chown(g.state, 0, 0), 0);
    gate_dir_free(&g);
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
        cmocka_unit_test(test_gate_socket_in_state_dir),
        cmocka_unit_test(test_gate_socket_stale_and_live),
        cmocka_unit_test(test_gate_fake_server),
        cmocka_unit_test(test_gate_state_dir_modes),
        cmocka_unit_test(test_gate_other_user),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
