/*
 * validate_runner.c - each test in its own child process, some at a time:
 * a crash or a hang costs that test only.  The parent never loads ONNX
 * Runtime: ORT 1.30 starts a thread when its environment is created, and a
 * process with threads is not safe to fork, so every child (a function run
 * in a forked copy by src/util's child object) loads it afresh, and the
 * runtime's first load is ortkit-probe's.
 */
#include "interrupt.h"
#include "validate_cli.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A test's process (src/util's child): its result comes as one message on
 * its channel (ch.from), what it writes on stdout and stderr on ch.out,
 * whose end is kept for a crash report. */
typedef struct child {
    ortkit__child ch;
    size_t test;
    ortkit_conformance_result res;
    int got;                     /* res came whole */
} child;

enum { MSG_RESULT = 1 };

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

typedef struct child_job {
    const v_test *t;
    const v_config *cfg;
} child_job;

/* In the child: load the runtime, run the test, hand the result over (the
 * child leaves with _exit: no atexit handlers, ORT's or the sanitizers'). */
static int child_main(void *arg, int to_parent, int from_parent)
{
    (void)from_parent;
    const child_job *job = arg;
    const v_test *t = job->t;
    const v_config *cfg = job->cfg;
    signal(SIGINT, SIG_IGN); /* the parent decides what Ctrl-C stops */
    signal(SIGTERM, SIG_DFL);
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
    (void)ortkit__msg_send(to_parent, MSG_RESULT, &res, sizeof res);
    return 0;
}

/* The runtime is loaded first by ortkit-probe, the one program that loads a
 * runtime to see whether it can: the parent never loads it. */
int v_probe_runtime(const char *path, char *version, size_t version_size, char *resolved,
                    size_t resolved_size)
{
    ortkit__probe_answer a;
    int rc = ortkit__probe_load(&a, path, 0);
    if (rc == ORTKIT_OK) {
        snprintf(version, version_size, "%s", a.version);
        snprintf(resolved, resolved_size, "%s", a.path);
    }
    ortkit__probe_answer_free(&a);
    return rc ? cli_fail_lib() : CLI_OK;
}

static int launch(child *c, size_t index, const v_test *t, const v_config *cfg)
{
    child_job job = {t, cfg};
    /* Its own group: a terminal's Ctrl-C reaches the parent only; what
     * stdout and stderr say is kept for a crash report. */
    ortkit__child_options o = {.fn = child_main, .arg = &job, .channel = 1,
                               .out = ORTKIT__CHILD_PIPE, .err = ORTKIT__CHILD_TO_OUT,
                               .own_group = 1, .death_signal = SIGKILL,
                               .timeout_s = cfg->timeout + cfg->conf.soak_seconds,
                               .what = "a test process"};
    memset(c, 0, sizeof *c);
    if (ortkit__child_start(&c->ch, &o))
        return -1;
    c->test = index;
    return 0;
}

/* Turn how the child ended into the test's result. */
static void finish(child *c, v_test *t, double timeout)
{
    ortkit_conformance_result *r = &t->res;
    char tail[256];
    ortkit__child_last_line(&c->ch, tail, sizeof tail);
    if (!c->ch.timed_out && c->got && c->ch.status == 0) {
        *r = c->res;
    } else {
        memset(r, 0, sizeof *r);
        r->outcome = ORTKIT_CONFORMANCE_FAIL;
        if (c->ch.timed_out) {
            t->timed_out = 1;
            snprintf(r->stage, sizeof r->stage, "timeout");
            snprintf(r->message, sizeof r->message, "timed out after %g s; killed", timeout);
        } else if (c->ch.signal) {
            int sig = c->ch.signal;
            const char *abbrev = ortkit__signal_abbrev(sig);
            t->signal = sig;
            snprintf(r->stage, sizeof r->stage, "crash");
            snprintf(r->message, sizeof r->message, "crashed: killed by SIG%s (%s)%s%s",
                     abbrev ? abbrev : "?", strsignal(sig), tail[0] ? "; last output: " : "", tail);
        } else {
            snprintf(r->stage, sizeof r->stage, "crash");
            snprintf(r->message, sizeof r->message, "exited with status %d without a result%s%s",
                     c->ch.status, tail[0] ? "; last output: " : "", tail);
        }
    }
    t->verdict = v_judge(r, t->known);
}

/* Its result: one message, read whole (it is written at once, before the
 * child ends); the channel is done after it. */
static void take_result(child *c)
{
    uint32_t type = 0;
    void *data = NULL;
    size_t size = 0;
    if (ortkit__msg_recv(c->ch.from, c->ch.deadline, sizeof c->res, &type, &data, &size) == 0 &&
        type == MSG_RESULT && size == sizeof c->res) {
        memcpy(&c->res, data, sizeof c->res);
        c->got = 1;
    }
    free(data);
    close(c->ch.from);
    c->ch.from = -1;
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

static void reap(child *c, v_test *tests, const v_config *cfg, progress *p)
{
    /* Past its deadline, it is killed here (timed_out). */
    (void)ortkit__child_wait(&c->ch, NULL);
    v_test *t = &tests[c->test];
    finish(c, t, cfg->timeout + cfg->conf.soak_seconds);
    ortkit__child_free(&c->ch);
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
            if (kids[k].ch.live)
                continue;
            if (launch(&kids[k], next, &tests[next], cfg)) {
                rc = cli_fail("cannot start a test process: %s", ortkit_error_last());
                stop = 1;
                break;
            }
            next++;
            active++;
        }
        if (stop || cli_interrupted()) {
            for (long k = 0; k < jobs; k++)
                ortkit__child_free(&kids[k].ch);
            active = 0;
            break;
        }
        /* Wait for output from any child, or the nearest deadline. */
        nfds_t nfds = 0;
        double now = ortkit__clock_now(), wait_s = 0.25;
        const char *current = NULL;
        for (long k = 0; k < jobs; k++) {
            child *c = &kids[k];
            if (!c->ch.live)
                continue;
            current = tests[c->test].t->name;
            if (c->ch.deadline - now < wait_s)
                wait_s = c->ch.deadline - now;
            if (c->ch.from >= 0)
                fds[nfds++] = (struct pollfd){.fd = c->ch.from, .events = POLLIN};
            if (c->ch.out >= 0)
                fds[nfds++] = (struct pollfd){.fd = c->ch.out, .events = POLLIN};
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
                if (kids[k].ch.live && kids[k].ch.from == fds[i].fd)
                    take_result(&kids[k]);
                else if (kids[k].ch.live && kids[k].ch.out == fds[i].fd)
                    (void)ortkit__child_read_tail(&kids[k].ch);
            }
        }
        now = ortkit__clock_now();
        for (long k = 0; k < jobs; k++) {
            child *c = &kids[k];
            if (!c->ch.live)
                continue;
            if (now >= c->ch.deadline || (c->ch.from < 0 && c->ch.out < 0)) {
                reap(c, tests, cfg, &p);
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
