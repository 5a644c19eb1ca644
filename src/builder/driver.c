/*
 * driver.c - one build: configure when needed, run ninja with the gate
 * serving its launchers, show progress, keep the log, install.
 *
 * Ninja runs with a -j above the gate's CPU slots, so the gate (which knows
 * memory) and not ninja (which does not) decides how many compiles run; the
 * surplus launchers wait in the gate, where it can pick one that fits.
 */
#include "builder_driver.h"
#include "builder_compiler_cache.h"
#include "builder_plan.h"
#include "builder_options.h"
#include "builder_history.h"
#include "builder_gate.h"
#include "builder_sharing.h"
#include "builder_report.h"
#include "builder_progress.h"
#include "builder_static.h"
#include "builder_build.h"
#include "server.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t interrupted;
/* The remote's own local cache for ninja's environment ("" without one). */
static const char *cache_local_dir = "";

void ortkit__builder_interrupt(int sig) { interrupted = sig; }

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Every command the build runs (src/util's child object): its own process
 * group (ortkit forwards interrupts itself), stdin from /dev/null, output to
 * out_fd (a PIPE: ch->out), and death with ortkit. */
static ortkit__child_options child_options(char *const *argv, int out_fd)
{
    ortkit__child_options c = {.argv = (const char *const *)argv, .in = ORTKIT__CHILD_NULL,
                               .out = out_fd >= 0 ? ORTKIT__CHILD_FD : ORTKIT__CHILD_PIPE,
                               .out_fd = out_fd, .err = ORTKIT__CHILD_TO_OUT, .own_group = 1,
                               .death_signal = SIGINT};
    return c;
}

/* Run argv with its output appended to the log; returns its exit status,
 * 128+signal, or -1 when it could not be waited for. */
static int run_logged(char *const *argv, int log_fd)
{
    ortkit__child_options co = child_options(argv, log_fd);
    ortkit__child ch;
    if (ortkit__child_start(&ch, &co) != 0) {
        dprintf(log_fd, "ortkit: cannot run %s: %s\n", argv[0], strerror(errno));
        return 127;
    }
    int r, forwarded = 0;
    while ((r = ortkit__child_poll(&ch)) == 0) {
        if (interrupted && !forwarded) {
            ortkit__child_kill(&ch, SIGINT);
            forwarded = 1;
        }
        sleep_ms(50);
    }
    int status = r < 0 ? -1 : ch.status;
    ortkit__child_free(&ch);
    return status;
}

static int file_exists(const char *dir, const char *name)
{
    char p[PATH_MAX];
    struct stat st;
    return ortkit__pathf(p, sizeof p, "%s/%s", dir, name) == 0 && stat(p, &st) == 0;
}

static int step_failed(const char *what, const char *log_path)
{
    char first[1024];
    if (interrupted)
        return ortkit__error_set(ORTKIT_E_CANCELLED, "interrupted during %s", what);
    if (ortkit__builder_first_error(log_path, first, sizeof first) == 0)
        return ortkit__error_set(ORTKIT_E_IO, "%s failed: %s (full log: %s)", what, first, log_path);
    return ortkit__error_set(ORTKIT_E_IO, "%s failed (full log: %s)", what, log_path);
}

/* Configure only when the build directory lacks it or the command changed:
 * a rerun after an interruption goes straight back to ninja. */
static int configure(const ortkit__builder_execute_options *o, int log_fd, const char *log_path)
{
    const ortkit__builder_plan *plan = o->plan;
    char stamp[PATH_MAX], *old = NULL;
    int rc = ortkit__pathf(stamp, sizeof stamp, "%s/configure.cmd", plan->state_dir);
    if (rc)
        return rc;
    char *cmd = ortkit__builder_plan_command_line(&plan->configure);
    if (!cmd)
        return ortkit__error_nomem();
    if (access(stamp, F_OK) == 0)
        ortkit__file_read(&old, NULL, stamp, 1 << 20);
    /* CMake's account of the target graph (static.c reads it) is written
     * when it configures: a build directory configured without the query
     * is configured once more. */
    if ((rc = ortkit__builder_file_api_query(o->build_dir))) {
        free(old);
        free(cmd);
        return rc;
    }
    int same = old && !strcmp(old, cmd) && file_exists(o->build_dir, "CMakeCache.txt") &&
               file_exists(o->build_dir, "build.ninja") && ortkit__builder_file_api_ready(o->build_dir);
    free(old);
    if (same) {
        dprintf(log_fd, "ortkit: configuration unchanged; not configuring again\n");
        goto cleanup;
    }
    if (plan->reduce.n) {
        dprintf(log_fd, "ortkit: %s\n", "reducing operator kernels");
        if (run_logged(plan->reduce.v, log_fd) != 0) {
            rc = step_failed("operator reduction", log_path);
            goto cleanup;
        }
    }
    dprintf(log_fd, "ortkit: %s\n", cmd);
    if (!o->opts->quiet)
        fprintf(stderr, "ortkit: configuring %s\n", o->build_dir);
    if (run_logged(plan->configure.v, log_fd) != 0) {
        rc = step_failed("configure", log_path);
        goto cleanup;
    }
    rc = ortkit__file_write_atomic(stamp, cmd, strlen(cmd));
cleanup:
    free(cmd);
    return rc;
}

/* In ninja's process, before it starts: its environment. */
static int ninja_env(void *arg, int to_parent, int from_parent)
{
    const ortkit__builder_execute_options *o = arg;
    (void)to_parent;
    (void)from_parent;
    setenv("NINJA_STATUS", "[ortkit %f/%t %r] ", 1);
    if (o->opts->distcc_hosts)
        setenv("DISTCC_HOSTS", o->opts->distcc_hosts, 1);
    /* The shared cache reaches every compile ninja runs (through the gate's
     * launcher, which runs ccache): ccache's own variables, nothing on the
     * CMake command line (a changed remote does not reconfigure). */
    if (o->opts->ccache) {
        /* What a server sent stays in a local cache of its own: a build
         * without --cache-remote never reads it, nor any server (ccache.conf's). */
        if (o->opts->has_cache_remote)
            setenv("CCACHE_REMOTE_STORAGE", o->opts->cache_remote.url, 1);
        else
            setenv("CCACHE_REMOTE_STORAGE", "", 1);
        if (o->opts->has_cache_remote && cache_local_dir[0])
            setenv("CCACHE_DIR", cache_local_dir, 1);
        if (o->opts->cache_remote_only)
            setenv("CCACHE_REMOTE_ONLY", "1", 1);
        if (o->opts->cache_basedir)
            setenv("CCACHE_BASEDIR", o->opts->cache_basedir, 1);
    }
    return 0;
}

/* Ninja, its output on a pipe (ch->out). */
static int start_ninja(const ortkit__builder_execute_options *o, int jobs, ortkit__child *ch)
{
    char j[16];
    snprintf(j, sizeof j, "%d", jobs);
    char *argv[] = {"ninja", "-C", (char *)o->build_dir, "-j", j, (char *)o->target, NULL};
    ortkit__child_options co = child_options(argv, -1);
    co.fn = ninja_env;
    co.arg = (void *)o;
    return ortkit__child_start(ch, &co);
}

typedef struct ninja_reader {
    char buf[16384];
    size_t len;
} ninja_reader;

/* Lines from ninja: into the log; status prefixes into the progress. */
static void take_lines(ninja_reader *nr, FILE *log, ortkit__builder_progress *p,
                       ortkit__builder_report *rep)
{
    char *start = nr->buf, *nl;
    while ((nl = memchr(start, '\n', nr->len - (size_t)(start - nr->buf)))) {
        *nl = '\0';
        long done, total;
        if (ortkit__builder_progress_parse(start, &done, &total, NULL)) {
            p->done = done;
            p->total = total;
            rep->steps_done = done;
            rep->steps_total = total;
        }
        fprintf(log, "%s\n", start);
        start = nl + 1;
    }
    size_t left = nr->len - (size_t)(start - nr->buf);
    if (left == sizeof nr->buf) {
        /* A line longer than the buffer: log it in pieces. */
        fwrite(nr->buf, 1, left, log);
        left = 0;
    }
    memmove(nr->buf, start, left);
    nr->len = left;
}

/* Ninja, writing to a pipe, prints a step's status when it finishes, so
 * the total would show only after the first step: a dry run first (cheap:
 * it only stats files) counts the steps into rep. */
static void steps_planned(const ortkit__builder_execute_options *o, ortkit__builder_report *rep)
{
    char *argv[] = {"ninja", "-C", (char *)o->build_dir, "-n", (char *)o->target, NULL};
    char *dry = NULL;
    int st = 0;
    long done, total;
    if (ortkit__spawn((const char *const *)argv, 1, &dry, &st) == 0 && st == 0 && dry) {
        const char *first = strstr(dry, "[ortkit ");
        if (first && ortkit__builder_progress_parse(first, &done, &total, NULL))
            rep->steps_total = total;
    }
    free(dry);
}

/* Launchers wait for their compilers, so once every launcher has hung up
 * no compiler of this build is left (bounded: a launcher may be stuck in a
 * compiler that ignores signals). */
static void drain_launchers(ortkit__builder_server *srv)
{
    for (double t0 = ortkit__clock_now(); srv->n_clients && ortkit__clock_now() - t0 < 10;) {
        struct pollfd pfd[512];
        size_t n = ortkit__builder_server_pollfds(srv, pfd, sizeof pfd / sizeof pfd[0]);
        if (poll(pfd, (nfds_t)n, 100) > 0)
            ortkit__builder_server_handle(srv, pfd, n, ortkit__clock_now());
    }
}

static int build_under_gate(const ortkit__builder_execute_options *o, ortkit__builder_report *rep,
                            FILE *log, const char *log_path)
{
    const ortkit__builder_plan *plan = o->plan;
    char hist_path[PATH_MAX];
    ortkit__builder_history hist;
    int rc = ortkit__pathf(hist_path, sizeof hist_path, "%s/history.tsv", plan->state_dir);
    if (rc || (rc = ortkit__builder_history_load(&hist, hist_path)))
        return rc;
    ortkit__builder_server srv;
    if ((rc = ortkit__builder_server_open(&srv, plan->state_dir, rep->budget, rep->slots, &hist, rep))) {
        ortkit__builder_history_free(&hist);
        return rc;
    }
    srv.chain = ortkit__builder_chain(o->opts);
    srv.learn = !(o->opts->distcc_hosts);
    for (int l = 0; l < ORTKIT__LANG_COUNT; l++)
        if (o->opts->lang_mem[l])
            srv.gate.lang_default[l] = o->opts->lang_mem[l];

    setenv("NINJA_STATUS", "[ortkit %f/%t %r] ", 1);
    steps_planned(o, rep);
    int jobs = o->opts->ninja_jobs > 0 ? o->opts->ninja_jobs : rep->slots * 2 < rep->slots + 4 ? rep->slots + 4
                                                                                  : rep->slots * 2;
    fflush(log);
    ortkit__child ninja;
    if (start_ninja(o, jobs, &ninja) != 0) {
        fprintf(log, "ortkit: cannot run ninja: %s\n", strerror(errno));
        rc = step_failed("build", log_path);
        goto cleanup;
    }
    ortkit__builder_progress prog = {.enabled = o->opts->progress, .t_start = ortkit__clock_now(),
                                  .total = rep->steps_total, .cache = &rep->cache};
    if (hist.last_steps > 0)
        prog.eta_hint = hist.last_wall / (double)hist.last_steps;
    ninja_reader *nr = calloc(1, sizeof *nr);
    int open_pipe = nr != NULL, status = -1, forwarded = 0;
    double last_tick = 0;
    if (!nr)
        kill(ninja.pid, SIGINT);
    while (open_pipe || status < 0) {
        struct pollfd pfd[512];
        size_t n = 0;
        if (open_pipe)
            pfd[n++] = (struct pollfd){.fd = ninja.out, .events = POLLIN};
        n += ortkit__builder_server_pollfds(&srv, pfd + n, sizeof pfd / sizeof pfd[0] - n);
        int r = poll(pfd, (nfds_t)n, 100);
        double now = ortkit__clock_now();
        if (interrupted && !forwarded) {
            /* Ninja interrupts its running commands and waits for them. */
            kill(ninja.pid, SIGINT);
            srv.stopping = 1;
            forwarded = 1;
        }
        if (r > 0) {
            size_t first = 0;
            if (open_pipe && pfd[0].revents) {
                first = 1;
                ssize_t got = read(ninja.out, nr->buf + nr->len, sizeof nr->buf - nr->len);
                if (got > 0) {
                    nr->len += (size_t)got;
                    take_lines(nr, log, &prog, rep);
                } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
                    open_pipe = 0;
                }
            } else if (open_pipe) {
                first = 1;
            }
            ortkit__builder_server_handle(&srv, pfd + first, n - first, now);
        }
        if (now - last_tick >= 0.2) {
            ortkit__builder_server_tick(&srv, now);
            last_tick = now;
        }
        if (status < 0 && ortkit__child_poll(&ninja) == 1)
            status = ninja.status;
        ortkit__builder_progress_draw(&prog, srv.gate.running, ortkit__builder_gate_in_use(&srv.gate),
                                      rep->budget, 0, stderr);
    }
    drain_launchers(&srv);
    if (nr && nr->len) {
        fwrite(nr->buf, 1, nr->len, log);
        fputc('\n', log);
    }
    free(nr);
    ortkit__child_free(&ninja);
    ortkit__builder_progress_clear(&prog, stderr);
    rep->wall = ortkit__clock_now() - prog.t_start;
    rep->gate = srv.gate.stats;
    fflush(log);
    if (status == 0 && !interrupted && rep->steps_done > 0 && rep->steps_total >= hist.last_steps) {
        hist.last_wall = rep->wall;
        hist.last_steps = rep->steps_total;
    }
    /* Saved whatever happened: an interrupted build's peaks help its rerun. */
    ortkit__builder_history_save(&hist, hist_path);
    if (interrupted)
        rc = ortkit__error_set(ORTKIT_E_CANCELLED,
                               "interrupted; %ld of %ld steps done; run the same command again to "
                               "resume",
                               rep->steps_done, rep->steps_total);
    else if (status != 0)
        rc = step_failed("build", log_path);
cleanup:
    ortkit__builder_server_close(&srv);
    ortkit__builder_history_free(&hist);
    return rc;
}

/* What the variant's flags reach in the configured build (ORT builds): an
 * account for the report, and a word when a compile that needs no CPU flags
 * (CUDA device code, a dependency's) got them.  Not knowing fails nothing. */
static void account_sharing(const ortkit__builder_execute_options *o, ortkit__builder_report *rep)
{
    if (!o->variant_flags || !o->variant_flags[0])
        return;
    if (ortkit__builder_sharing_read(&rep->sharing, o->build_dir, o->plan->state_dir, o->source,
                                     o->variant_flags) != 0 || !rep->sharing.stray || !o->opts->warn)
        return;
    char msg[PATH_MAX + 512];
    snprintf(msg, sizeof msg, "%llu compile%s that need%s no CPU flags (CUDA device code, a "
             "dependency's) carr%s the variant's (%s), so other variants cannot share %s; the first: %s",
             (unsigned long long)rep->sharing.stray, rep->sharing.stray == 1 ? "" : "s",
             rep->sharing.stray == 1 ? "s" : "", rep->sharing.stray == 1 ? "ies" : "y",
             o->variant_flags, rep->sharing.stray == 1 ? "it" : "them", rep->sharing.stray_files.v[0]);
    o->opts->warn(msg);
}

int ortkit__builder_execute(const ortkit__builder_execute_options *o, ortkit__builder_report *rep)
{
    const ortkit__builder_plan *plan = o->plan;
    char log_path[PATH_MAX];
    int rc = ortkit__mkdirs(plan->state_dir);
    if (rc || (rc = ortkit__pathf(log_path, sizeof log_path, "%s/ortkit-build.log", o->build_dir)))
        return rc;
    FILE *log = fopen(log_path, "we");
    if (!log)
        return ortkit__error_set(ORTKIT_E_IO, "cannot write '%s': %s", log_path, strerror(errno));
    setvbuf(log, NULL, _IOLBF, 0);

    uint64_t avail = 0, total = 0;
    if (!o->opts->budget && ortkit__proc_meminfo(&avail, &total) != 0) {
        fclose(log);
        return ORTKIT_E_IO;
    }
    if (o->opts->budget) {
        rep->budget = o->opts->budget;
    } else {
        /* Leave the system a reserve: 10% of memory, and at least 1 GiB. */
        uint64_t reserve = total / 10 > ORTKIT__GiB ? total / 10 : ORTKIT__GiB;
        rep->budget = avail > reserve + ORTKIT__GiB ? avail - reserve : ORTKIT__GiB;
    }
    rep->slots = o->opts->slots > 0 ? o->opts->slots : ortkit__proc_cpus();
    rep->cache.on = o->opts->ccache;
    snprintf(rep->cache.remote, sizeof rep->cache.remote, "%s",
             rep->cache.on && o->opts->has_cache_remote ? o->opts->cache_remote.shown : "");
    rep->cache.remote_only = rep->cache.on && o->opts->cache_remote_only;
    if (rep->cache.on &&
        (rc = ortkit__builder_cache_local_dir(rep->cache.local_dir, sizeof rep->cache.local_dir,
                                              ortkit__builder_remote(o->opts)))) {
        fclose(log);
        return rc;
    }
    cache_local_dir = rep->cache.local_dir;

    /* Timed apart from ninja's run: a build whose compiles all hit a cache
     * is mostly these. */
    double t = ortkit__clock_now();
    if ((rc = configure(o, fileno(log), log_path)))
        goto cleanup;
    rep->configure_wall = ortkit__clock_now() - t;
    account_sharing(o, rep);
    if ((rc = build_under_gate(o, rep, log, log_path)))
        goto cleanup;
    if (o->install) {
        char *argv[] = {"cmake", "--install", (char *)o->build_dir, "--prefix", plan->stage_dir, NULL};
        fprintf(log, "ortkit: cmake --install %s --prefix %s\n", o->build_dir, plan->stage_dir);
        fflush(log);
        t = ortkit__clock_now();
        if (run_logged(argv, fileno(log)) != 0)
            rc = step_failed("install", log_path);
        rep->install_wall = ortkit__clock_now() - t;
    }
cleanup:
    fclose(log);
    return rc;
}
