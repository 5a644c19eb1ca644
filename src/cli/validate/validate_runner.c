/*
 * validate_runner.c - each test in its own child process, some at a time:
 * a crash or a hang costs that test only.  The parent never loads ONNX
 * Runtime: ORT 1.30 starts a thread when its environment is created, and a
 * process with threads is not safe to fork, so every child loads it afresh.
 */
#include "interrupt.h"
#include "validate_cli.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct child {
    pid_t pid;
    size_t test;
    int res_fd, err_fd;          /* -1 once at end of file */
    unsigned char buf[sizeof(ortkit_conformance_result)];
    size_t got;
    char err[512];               /* the end of what it wrote on stderr */
    size_t err_len;
    double deadline;
} child;

v_verdict v_judge(const ortkit_conformance_result *res, const v_entry *known)
{
    switch (res->outcome) {
    case ORTKIT_CONFORMANCE_PASS:
        return known ? V_XPASS : V_PASS;
    case ORTKIT_CONFORMANCE_UNSUPPORTED:
        return V_UNSUPPORTED;
    default:
        return known ? V_XFAIL : V_FAIL;
    }
}

static void write_all(int fd, const void *data, size_t size)
{
    const unsigned char *p = data;
    while (size) {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        p += n;
        size -= (size_t)n;
    }
}

/* In the child: load the runtime, run the test, hand the result over, and
 * leave without running atexit handlers (ORT's and the sanitizers'). */
static void child_main(const v_test *t, const v_config *cfg, int res_fd, int err_fd)
{
    signal(SIGINT, SIG_IGN); /* the parent decides what Ctrl-C stops */
    signal(SIGTERM, SIG_DFL);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    dup2(err_fd, STDERR_FILENO);
    dup2(err_fd, STDOUT_FILENO);
    if (cfg->crash_hook && !strcmp(cfg->crash_hook, t->t->name)) {
        /* The test hook (test_hooks.h): die the way a runtime crash would. */
        signal(SIGSEGV, SIG_DFL);
        raise(SIGSEGV);
    }
    ortkit_conformance_result res = ORTKIT_CONFORMANCE_RESULT_INIT;
    ortkit_runtime *rt = NULL;
    if (cli_open_runtime(&rt, cfg->runtime_path)) {
        res.outcome = ORTKIT_CONFORMANCE_FAIL;
        snprintf(res.stage, sizeof res.stage, "runtime");
        snprintf(res.message, sizeof res.message, "%s", ortkit_error_last());
    } else {
        ortkit_conformance_options o = cfg->conf;
        o.session = &cfg->session;
        if (t->rtol || t->atol) {
            o.rtol = t->rtol > 0 ? t->rtol : -1;
            o.atol = t->atol > 0 ? t->atol : -1;
        }
        if (ortkit_conformance_run(&res, rt, t->t->dir, &o)) {
            res.outcome = ORTKIT_CONFORMANCE_FAIL;
            snprintf(res.stage, sizeof res.stage, "run");
            snprintf(res.message, sizeof res.message, "%s", ortkit_error_last());
        }
    }
    write_all(res_fd, &res, sizeof res);
    _exit(0);
}

typedef struct probe_answer {
    int ok;
    char version[64];
    char path[4096];
    char error[1024];
} probe_answer;

int v_probe_runtime(const char *path, char *version, size_t version_size, char *resolved,
                    size_t resolved_size)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC))
        return cli_fail("cannot make a pipe: %s", strerror(errno));
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        /* The parent says what an interrupt stops, and what it prints. */
        signal(SIGINT, SIG_IGN);
        signal(SIGTERM, SIG_DFL);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        close(fds[0]);
        probe_answer a;
        memset(&a, 0, sizeof a);
        ortkit_runtime *rt = NULL;
        if (cli_open_runtime(&rt, path) == ORTKIT_OK) {
            a.ok = 1;
            snprintf(a.version, sizeof a.version, "%s", ortkit_runtime_version(rt));
            snprintf(a.path, sizeof a.path, "%s", ortkit_runtime_path(rt));
        } else {
            snprintf(a.error, sizeof a.error, "%s", ortkit_error_last());
        }
        write_all(fds[1], &a, sizeof a);
        _exit(0);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return cli_fail("cannot start a process: %s", strerror(errno));
    }
    probe_answer a;
    size_t got = 0;
    while (got < sizeof a) {
        ssize_t n = read(fds[0], (char *)&a + got, sizeof a - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (got != sizeof a)
        return cli_fail("loading the runtime killed the process (status %d)", status);
    if (!a.ok)
        return cli_fail("%s", a.error);
    snprintf(version, version_size, "%s", a.version);
    snprintf(resolved, resolved_size, "%s", a.path);
    return CLI_OK;
}

static int launch(child *c, size_t index, const v_test *t, const v_config *cfg)
{
    int res_pipe[2], err_pipe[2];
    if (pipe2(res_pipe, O_CLOEXEC))
        return -1;
    if (pipe2(err_pipe, O_CLOEXEC)) {
        close(res_pipe[0]);
        close(res_pipe[1]);
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        close(res_pipe[0]);
        close(err_pipe[0]);
        setpgid(0, 0); /* its own group: a terminal's Ctrl-C reaches the parent only */
        child_main(t, cfg, res_pipe[1], err_pipe[1]);
    }
    close(res_pipe[1]);
    close(err_pipe[1]);
    if (pid < 0) {
        close(res_pipe[0]);
        close(err_pipe[0]);
        return -1;
    }
    setpgid(pid, pid);
    memset(c, 0, sizeof *c);
    c->pid = pid;
    c->test = index;
    c->res_fd = res_pipe[0];
    c->err_fd = err_pipe[0];
    c->deadline = ortkit__clock_now() + cfg->timeout + cfg->conf.soak_seconds;
    return 0;
}

/* The last non-empty line the child wrote, for a crash report. */
static void last_line(const child *c, char *out, size_t size)
{
    size_t end = c->err_len;
    while (end && (c->err[end - 1] == '\n' || c->err[end - 1] == '\r'))
        end--;
    size_t start = end;
    while (start && c->err[start - 1] != '\n')
        start--;
    snprintf(out, size, "%.*s", (int)(end - start), c->err + start);
}

/* Turn how the child ended into the test's result. */
static void finish(child *c, v_test *t, int status, int timed_out, double timeout)
{
    ortkit_conformance_result *r = &t->res;
    char tail[256];
    last_line(c, tail, sizeof tail);
    if (!timed_out && c->got == sizeof *r && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        memcpy(r, c->buf, sizeof *r);
    } else {
        memset(r, 0, sizeof *r);
        r->outcome = ORTKIT_CONFORMANCE_FAIL;
        if (timed_out) {
            t->timed_out = 1;
            snprintf(r->stage, sizeof r->stage, "timeout");
            snprintf(r->message, sizeof r->message, "timed out after %g s; killed", timeout);
        } else if (WIFSIGNALED(status)) {
            int sig = WTERMSIG(status);
            const char *abbrev = ortkit__signal_abbrev(sig);
            t->signal = sig;
            snprintf(r->stage, sizeof r->stage, "crash");
            snprintf(r->message, sizeof r->message, "crashed: killed by SIG%s (%s)%s%s",
                     abbrev ? abbrev : "?", strsignal(sig), tail[0] ? "; last output: " : "", tail);
        } else {
            snprintf(r->stage, sizeof r->stage, "crash");
            snprintf(r->message, sizeof r->message, "exited with status %d without a result%s%s",
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                     tail[0] ? "; last output: " : "", tail);
        }
    }
    t->verdict = v_judge(r, t->known);
}

static void drain(child *c, int which)
{
    int *fd = which ? &c->err_fd : &c->res_fd;
    char tmp[4096];
    ssize_t n = read(*fd, tmp, sizeof tmp);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        close(*fd);
        *fd = -1;
        return;
    }
    if (!which) {
        size_t room = sizeof c->buf - c->got, take = (size_t)n < room ? (size_t)n : room;
        memcpy(c->buf + c->got, tmp, take);
        c->got += take;
        return;
    }
    /* Keep the last bytes only. */
    if ((size_t)n >= sizeof c->err) {
        memcpy(c->err, tmp + n - sizeof c->err, sizeof c->err);
        c->err_len = sizeof c->err;
    } else {
        size_t keep = c->err_len + (size_t)n > sizeof c->err ? sizeof c->err - (size_t)n : c->err_len;
        memmove(c->err, c->err + c->err_len - keep, keep);
        memcpy(c->err + keep, tmp, (size_t)n);
        c->err_len = keep + (size_t)n;
    }
}

static void kill_child(child *c)
{
    kill(-c->pid, SIGKILL);
    kill(c->pid, SIGKILL);
}

static void close_child(child *c)
{
    if (c->res_fd >= 0)
        close(c->res_fd);
    if (c->err_fd >= 0)
        close(c->err_fd);
    c->res_fd = c->err_fd = -1;
    c->pid = 0;
}

/* ---- the progress bar ------------------------------------------------------ */

typedef struct progress {
    int on, drawn;
    double last;
    size_t done, counts[V_VERDICT_COUNT];
} progress;

static void progress_clear(progress *p)
{
    if (p->on && p->drawn) {
        fputs(isatty(STDERR_FILENO) ? "\r\033[K" : "\n", stderr);
        p->drawn = 0;
    }
}

static void progress_draw(progress *p, size_t total, const char *current, int force)
{
    double t = ortkit__clock_now();
    if (!p->on || (!force && t - p->last < 0.1))
        return;
    p->last = t;
    enum { WIDTH = 24 };
    size_t fill = total ? p->done * WIDTH / total : WIDTH;
    char bar[WIDTH + 1];
    for (size_t i = 0; i < WIDTH; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[WIDTH] = '\0';
    size_t bad = p->counts[V_FAIL] + p->counts[V_XPASS];
    fprintf(stderr, "\r[%s] %zu/%zu  pass %zu  fail %zu  xfail %zu  unsupported %zu  %.24s\033[K", bar,
            p->done, total, p->counts[V_PASS], bad, p->counts[V_XFAIL], p->counts[V_UNSUPPORTED],
            cli_esc(current));
    fflush(stderr);
    p->drawn = 1;
}

/* ---- the loop ----------------------------------------------------------------- */

static void reap(child *c, v_test *tests, const v_config *cfg, progress *p, int timed_out)
{
    int status = 0;
    while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
        ;
    v_test *t = &tests[c->test];
    finish(c, t, status, timed_out, cfg->timeout + cfg->conf.soak_seconds);
    close_child(c);
    p->done++;
    p->counts[t->verdict]++;
    if (cfg->verbose) {
        progress_clear(p);
        v_print_line(stdout, t);
        fflush(stdout);
    }
}

int v_run_all(v_test *tests, size_t n, const v_config *cfg, double *seconds)
{
    long jobs = cfg->jobs > 0 ? cfg->jobs : 1;
    child *kids = calloc((size_t)jobs, sizeof *kids);
    struct pollfd *fds = calloc((size_t)jobs * 2, sizeof *fds);
    if (!kids || !fds) {
        free(kids);
        free(fds);
        return cli_fail("out of memory");
    }
    /* The caller holds interrupts (interrupt.h): a signal is seen here. */
    progress p = {.on = cfg->progress};
    double start = ortkit__clock_now();
    size_t next = 0, active = 0;
    int rc = CLI_OK, stop = 0;
    while ((next < n && !stop && !cli_interrupted()) || active) {
        for (long k = 0; k < jobs && next < n && !stop && !cli_interrupted(); k++) {
            if (kids[k].pid)
                continue;
            if (launch(&kids[k], next, &tests[next], cfg)) {
                rc = cli_fail("cannot start a test process: %s", strerror(errno));
                stop = 1;
                break;
            }
            next++;
            active++;
        }
        if (stop || cli_interrupted()) {
            for (long k = 0; k < jobs; k++)
                if (kids[k].pid) {
                    kill_child(&kids[k]);
                    while (waitpid(kids[k].pid, NULL, 0) < 0 && errno == EINTR)
                        ;
                    close_child(&kids[k]);
                }
            active = 0;
            break;
        }
        /* Wait for output from any child, or the nearest deadline. */
        nfds_t nfds = 0;
        double now = ortkit__clock_now(), wait_s = 0.25;
        const char *current = NULL;
        for (long k = 0; k < jobs; k++) {
            child *c = &kids[k];
            if (!c->pid)
                continue;
            current = tests[c->test].t->name;
            if (c->deadline - now < wait_s)
                wait_s = c->deadline - now;
            if (c->res_fd >= 0)
                fds[nfds++] = (struct pollfd){.fd = c->res_fd, .events = POLLIN};
            if (c->err_fd >= 0)
                fds[nfds++] = (struct pollfd){.fd = c->err_fd, .events = POLLIN};
        }
        progress_draw(&p, n, current, 0);
        int ms = wait_s > 0 ? (int)ceil(wait_s * 1000) : 0;
        if (poll(fds, nfds, ms) < 0 && errno != EINTR) {
            rc = cli_fail("poll: %s", strerror(errno));
            stop = 1;
            continue;
        }
        for (nfds_t i = 0; i < nfds; i++) {
            if (!fds[i].revents)
                continue;
            for (long k = 0; k < jobs; k++) {
                if (kids[k].pid && kids[k].res_fd == fds[i].fd)
                    drain(&kids[k], 0);
                else if (kids[k].pid && kids[k].err_fd == fds[i].fd)
                    drain(&kids[k], 1);
            }
        }
        now = ortkit__clock_now();
        for (long k = 0; k < jobs; k++) {
            child *c = &kids[k];
            if (!c->pid)
                continue;
            int late = now >= c->deadline;
            if (late)
                kill_child(c);
            if (late || (c->res_fd < 0 && c->err_fd < 0)) {
                reap(c, tests, cfg, &p, late);
                active--;
            }
        }
    }
    progress_draw(&p, n, NULL, 1);
    progress_clear(&p);
    *seconds = ortkit__clock_now() - start;
    free(kids);
    free(fds);
    if (rc)
        return rc;
    return cli_interrupted() ? CLI_INTERRUPTED : CLI_OK;
}
