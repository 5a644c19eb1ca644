/*
 * server.c - the gate's socket side: accepts launchers, turns their
 * requests into gate jobs, answers GO when the gate admits them, samples the
 * memory of running compiles and the system, and records each compile.
 * The socket is STATE/gate.sock, in a state directory only its user can
 * reach, and every connection's user is checked again (SO_PEERCRED).
 * Single-threaded: the build's poll loop (driver.c) calls in here.
 */
#include "builder_compiler_cache.h"
#include "builder_history.h"
#include "builder_gate.h"
#include "builder_launcher.h"
#include "builder_report.h"
#include "server.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/*
 * Something is already at STATE/gate.sock (bind said EADDRINUSE): make way
 * for this build's gate, or say who serves it.  Only a live socket of this
 * user is kept: the build holds the lock, so that is a gate or something of
 * this user's that the user must stop.  A socket nobody listens on (left by
 * a build that was killed) or one served by another user is removed.
 */
static int clear_way(int dfd, const char *state_dir, const struct sockaddr_un *sa, socklen_t len)
{
    struct stat st;
    if (fstatat(dfd, ORTKIT__BUILDER_GATE_SOCKET, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT)
            return ORTKIT_OK; /* gone meanwhile */
        return ortkit__error_set(ORTKIT_E_IO, "cannot stat '%s/%s': %s", state_dir,
                                 ORTKIT__BUILDER_GATE_SOCKET, strerror(errno));
    }
    if (!S_ISSOCK(st.st_mode))
        return ortkit__error_set(ORTKIT_E_IO, "%s/%s is in the way of the compile gate and is not a "
                                              "socket: remove it",
                                 state_dir, ORTKIT__BUILDER_GATE_SOCKET);
    uid_t me = geteuid();
    pid_t pid = 0;
    uid_t uid = 0;
    int live = 0;
    int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (probe < 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot create a socket: %s", strerror(errno));
    if (connect(probe, (const struct sockaddr *)sa, len) == 0)
        live = ortkit__builder_peer_cred(probe, &pid, &uid) == 0 && uid == me;
    else if (errno == EAGAIN)
        live = st.st_uid == me; /* listening, its queue full */
    close(probe);
    if (live) {
        if (pid > 0)
            return ortkit__error_set(ORTKIT_E_IO,
                                     "another gate (pid %ld) is already serving %s: stop that "
                                     "process, or remove %s/%s",
                                     (long)pid, state_dir, state_dir, ORTKIT__BUILDER_GATE_SOCKET);
        return ortkit__error_set(ORTKIT_E_IO, "another gate is already serving %s", state_dir);
    }
    if (unlinkat(dfd, ORTKIT__BUILDER_GATE_SOCKET, 0) != 0 && errno != ENOENT)
        return ortkit__error_set(ORTKIT_E_IO, "cannot remove the stale socket %s/%s: %s", state_dir,
                                 ORTKIT__BUILDER_GATE_SOCKET, strerror(errno));
    return ORTKIT_OK;
}

int ortkit__builder_server_open(ortkit__builder_server *s, const char *state_dir, uint64_t budget,
                                int slots, ortkit__builder_history *history,
                                ortkit__builder_report *report)
{
    memset(s, 0, sizeof *s);
    s->listen_fd = -1;
    s->state_fd = -1;
    s->history = history;
    s->report = report;
    s->learn = 1;
    ortkit__builder_gate_init(&s->gate, budget, slots, history);
    s->gate.low_water = 512 * ORTKIT__MiB;

    int dfd = -1;
    int rc = ortkit__builder_state_dir_open(state_dir, 1, &dfd);
    if (rc)
        return rc;
    /* Launchers trust only the lock's holder: serving without it would
     * leave every compile ungated. */
    if (ortkit__builder_lock_holder(dfd) != getpid()) {
        close(dfd);
        return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                 "the compile gate of %s is served only by the build holding its lock",
                                 state_dir);
    }
    struct sockaddr_un sa;
    socklen_t len = (socklen_t)ortkit__builder_gate_sockaddr(&sa, state_dir, dfd);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        close(dfd);
        return ortkit__error_set(ORTKIT_E_IO, "cannot create the gate's socket: %s", strerror(errno));
    }
    for (int tries = 0; bind(fd, (struct sockaddr *)&sa, len) != 0; tries++) {
        int e = errno;
        if (e == EADDRINUSE && tries < 2 && (rc = clear_way(dfd, state_dir, &sa, len)) == 0)
            continue;
        if (!rc)
            rc = ortkit__error_set(ORTKIT_E_IO, "cannot make the gate's socket %s/%s: %s%s",
                                   state_dir, ORTKIT__BUILDER_GATE_SOCKET, strerror(e),
                                   !strncmp(sa.sun_path, "/proc/self/fd/", 14)
                                       ? " (the path is too long for a socket, and reaching it "
                                         "through /proc failed: use a shorter build directory)"
                                       : "");
        close(fd);
        close(dfd);
        return rc;
    }
    /* The directory (0700) already keeps others out; the socket says so too. */
    struct stat st;
    if (fchmodat(dfd, ORTKIT__BUILDER_GATE_SOCKET, 0600, 0) != 0 ||
        fstatat(dfd, ORTKIT__BUILDER_GATE_SOCKET, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
        listen(fd, 256) != 0) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot listen on the gate's socket %s/%s: %s", state_dir,
                               ORTKIT__BUILDER_GATE_SOCKET, strerror(errno));
        unlinkat(dfd, ORTKIT__BUILDER_GATE_SOCKET, 0);
        close(fd);
        close(dfd);
        return rc;
    }
    s->sock_dev = st.st_dev;
    s->sock_ino = st.st_ino;
    s->state_fd = dfd;
    s->listen_fd = fd;
    return 0;
}

static void client_drop(ortkit__builder_server *s, size_t i)
{
    ortkit__builder_client *c = &s->clients[i];
    if (c->job) {
        /* Gone without END: killed, or the build is stopping. */
        ortkit__builder_gate_release(&s->gate, c->job);
        s->dropped++;
    }
    close(c->fd);
    s->clients[i] = s->clients[--s->n_clients];
}

void ortkit__builder_server_close(ortkit__builder_server *s)
{
    while (s->n_clients)
        client_drop(s, s->n_clients - 1);
    free(s->clients);
    s->clients = NULL;
    if (s->listen_fd >= 0)
        close(s->listen_fd);
    s->listen_fd = -1;
    if (s->state_fd >= 0) {
        /* Remove the socket if it is still the one this server made. */
        struct stat st;
        if (fstatat(s->state_fd, ORTKIT__BUILDER_GATE_SOCKET, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            st.st_dev == s->sock_dev && st.st_ino == s->sock_ino)
            unlinkat(s->state_fd, ORTKIT__BUILDER_GATE_SOCKET, 0);
        close(s->state_fd);
    }
    s->state_fd = -1;
    ortkit__builder_gate_free(&s->gate);
}

size_t ortkit__builder_server_pollfds(const ortkit__builder_server *s, struct pollfd *pfd, size_t max)
{
    size_t k = 0;
    if (s->listen_fd >= 0 && k < max)
        pfd[k++] = (struct pollfd){.fd = s->listen_fd, .events = POLLIN};
    for (size_t i = 0; i < s->n_clients && k < max; i++)
        pfd[k++] = (struct pollfd){.fd = s->clients[i].fd, .events = POLLIN};
    return k;
}

static void accept_all(ortkit__builder_server *s)
{
    for (;;) {
        int fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0)
            return;
        /* Only this user's launchers: anyone else is closed unheard. */
        pid_t pid = 0;
        uid_t uid = 0;
        if (ortkit__builder_peer_cred(fd, &pid, &uid) != 0 || uid != geteuid() || pid <= 0) {
            close(fd);
            s->refused++;
            continue;
        }
        if (s->n_clients == s->cap_clients) {
            size_t cap = s->cap_clients ? s->cap_clients * 2 : 32;
            ortkit__builder_client *c = realloc(s->clients, cap * sizeof *c);
            if (!c) {
                close(fd);
                return;
            }
            s->clients = c;
            s->cap_clients = cap;
        }
        ortkit__builder_client *c = &s->clients[s->n_clients++];
        memset(c, 0, sizeof *c);
        c->fd = fd;
        c->pid = pid;
    }
}

static void on_admit(ortkit__builder_job *job, void *ctx)
{
    ortkit__builder_server *s = ctx;
    for (size_t i = 0; i < s->n_clients; i++) {
        if (s->clients[i].job != job)
            continue;
        char line[64];
        int n = snprintf(line, sizeof line, "GO %s\n", s->chain ? s->chain : "-");
        /* A full socket buffer is impossible for one short line; a dead peer
         * shows up as EOF on the next poll and is dropped there. */
        (void)!send(s->clients[i].fd, line, (size_t)n, MSG_NOSIGNAL);
        return;
    }
}

static void on_request(ortkit__builder_server *s, ortkit__builder_client *c, char *line, double now)
{
    long pid;
    char lang[16];
    int off = 0;
    if (c->job || sscanf(line, "REQ %ld %15s %n", &pid, lang, &off) != 2 || !off) {
        c->bad = 1;
        return;
    }
    /* The memory sampled is that of the connected process's tree, whatever
     * PID the line names. */
    int l = ortkit__builder_lang_parse(lang);
    c->job = ortkit__builder_gate_request(&s->gate, c->pid,
                                          l < 0 ? ORTKIT__LANG_CXX : (ortkit__builder_lang)l,
                                          line + off, now);
    if (!c->job)
        c->bad = 1;
}

static void on_end(ortkit__builder_server *s, ortkit__builder_client *c, const char *line, double now)
{
    int status, remote_errors = 0;
    double wall, user, sys;
    long maxrss_kb;
    char word[16] = "-";
    ortkit__builder_job *j = c->job;
    int got = j ? sscanf(line, "END %d %lf %lf %lf %ld %15s %d", &status, &wall, &user, &sys,
                         &maxrss_kb, word, &remote_errors)
                : 0;
    int outcome = ortkit__builder_cache_outcome_parse(word);
    if (!j || !j->admitted || (got != 5 && got != 7) || outcome < 0) {
        c->bad = 1;
        return;
    }
    uint64_t peak = (uint64_t)(maxrss_kb > 0 ? maxrss_kb : 0) * 1024;
    /* The sampler sees the whole tree at once (driver + cc1plus + as), the
     * rusage only its largest process: keep the larger. */
    if (j->rss_max > peak)
        peak = j->rss_max;
    const ortkit__builder_hist_entry *old =
        s->history && j->path[0] ? ortkit__builder_history_find(s->history, j->path) : NULL;
    int hit = outcome == ORTKIT__CACHE_LOCAL_HIT || outcome == ORTKIT__CACHE_REMOTE_HIT;
    if (s->report) {
        ortkit__builder_report_add(s->report, j->path, j->lang, wall, user + sys,
                                   j->t_admit - j->t_request, peak, j->estimate, status, j->held);
        /* A hit saved what the file's last real compile here took (the
         * history learns only from real compiles); without one, unpriced. */
        double saved = hit && old && old->wall > 0 ? (old->wall > wall ? old->wall - wall : 0) : -1;
        if (s->chain && strstr(s->chain, "ccache"))
            ortkit__builder_report_cache(s->report, (ortkit__builder_cache_outcome)outcome,
                                         remote_errors, saved);
    }
    /* A cache hit costs next to nothing and says nothing about the real
     * compile: it is not learnt.  When ccache did not say what it did, a
     * file's learnt peak through ccache only ever grows. */
    int cached = hit || (outcome == ORTKIT__CACHE_NONE && s->chain && strstr(s->chain, "ccache") &&
                         old && old->peak >= peak);
    if (s->learn && s->history && status == 0 && j->path[0] && !cached)
        ortkit__builder_history_put(s->history, j->path, peak, wall, user + sys);
    (void)now;
    ortkit__builder_gate_release(&s->gate, j);
    c->job = NULL;
}

void ortkit__builder_server_handle(ortkit__builder_server *s, const struct pollfd *pfd, size_t n,
                                   double now)
{
    for (size_t k = 0; k < n; k++) {
        if (!pfd[k].revents)
            continue;
        if (pfd[k].fd == s->listen_fd) {
            accept_all(s);
            continue;
        }
        size_t i = 0;
        while (i < s->n_clients && s->clients[i].fd != pfd[k].fd)
            i++;
        if (i == s->n_clients)
            continue;
        ortkit__builder_client *c = &s->clients[i];
        ssize_t r = read(c->fd, c->buf + c->len, sizeof c->buf - 1 - c->len);
        if (r < 0 && (errno == EAGAIN || errno == EINTR))
            continue;
        if (r <= 0) {
            client_drop(s, i);
            continue;
        }
        c->len += (size_t)r;
        c->buf[c->len] = '\0';
        char *nl;
        while (!c->bad && (nl = memchr(c->buf, '\n', c->len))) {
            *nl = '\0';
            if (!strncmp(c->buf, "REQ ", 4))
                on_request(s, c, c->buf, now);
            else if (!strncmp(c->buf, "END ", 4))
                on_end(s, c, c->buf, now);
            else
                c->bad = 1;
            size_t used = (size_t)(nl - c->buf) + 1;
            memmove(c->buf, nl + 1, c->len - used);
            c->len -= used;
            c->buf[c->len] = '\0';
        }
        if (c->bad || c->len == sizeof c->buf - 1)
            client_drop(s, i);
    }
    if (!s->stopping)
        ortkit__builder_gate_schedule(&s->gate, now, on_admit, s);
}

/* ---- sampling ------------------------------------------------------------ */

typedef struct proc_info {
    pid_t pid, ppid;
    uint64_t rss;
} proc_info;

static int cmp_pid(const void *a, const void *b)
{
    pid_t x = ((const proc_info *)a)->pid, y = ((const proc_info *)b)->pid;
    return x < y ? -1 : x > y;
}

static size_t scan_procs(proc_info **out)
{
    *out = NULL;
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    size_t n = 0, cap = 0;
    proc_info *v = NULL;
    long page = sysconf(_SC_PAGESIZE);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        char path[300], buf[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        ssize_t r = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (r <= 0)
            continue;
        buf[r] = '\0';
        char *p = strrchr(buf, ')');
        if (!p)
            continue;
        /* After "(comm)": state ppid ... rss is the 22nd field from state. */
        char state;
        long ppid;
        unsigned long long rss = 0;
        if (sscanf(p + 1, " %c %ld %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d "
                          "%*d %*d %*u %*u %llu",
                   &state, &ppid, &rss) != 3)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 512;
            proc_info *nv = realloc(v, cap * sizeof *nv);
            if (!nv)
                break;
            v = nv;
        }
        v[n++] = (proc_info){(pid_t)atol(e->d_name), (pid_t)ppid, (uint64_t)rss * (uint64_t)page};
    }
    closedir(d);
    if (v)
        qsort(v, n, sizeof *v, cmp_pid);
    *out = v;
    return n;
}

static const proc_info *find_proc(const proc_info *v, size_t n, pid_t pid)
{
    proc_info key = {.pid = pid};
    return bsearch(&key, v, n, sizeof *v, cmp_pid);
}

void ortkit__builder_server_tick(ortkit__builder_server *s, double now)
{
    uint64_t avail = 0;
    if (ortkit__proc_meminfo(&avail, NULL) == 0)
        ortkit__builder_gate_set_available(&s->gate, avail);
    if (s->gate.running > 0) {
        proc_info *v = NULL;
        size_t n = scan_procs(&v);
        for (size_t i = 0; i < s->gate.n_jobs; i++) {
            ortkit__builder_job *j = s->gate.jobs[i];
            if (!j->admitted)
                continue;
            /* The launcher's descendants: every process whose chain of
             * parents reaches it (the launcher itself is not counted). */
            uint64_t sum = 0;
            for (size_t k = 0; k < n; k++) {
                const proc_info *p = &v[k];
                for (int depth = 0; p && depth < 16 && p->ppid > 1; depth++) {
                    if (p->ppid == j->pid) {
                        sum += v[k].rss;
                        break;
                    }
                    p = find_proc(v, n, p->ppid);
                }
            }
            ortkit__builder_gate_sample(&s->gate, j, sum);
        }
        free(v);
    }
    if (!s->stopping)
        ortkit__builder_gate_schedule(&s->gate, now, on_admit, s);
}
