/*
 * spawn.c - child processes, the one place ortkit starts one (util.h): a
 * program run directly, never through a shell, so file names with spaces
 * or quotes are passed as they are; or a function in a forked copy of this
 * process.  Pipes, a deadline, a process group killed as one, reaping, and
 * framed messages over a pipe.
 *
 * A program alone is started with posix_spawnp, which is safe in a process
 * with threads (a library's caller).  A function, or a death signal, needs
 * fork: only callers without threads (ortkit's own tools, which never load
 * ONNX Runtime in the process that forks) ask for one.
 */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define STILL_RUNNING 1

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static void close_pipe(int p[2])
{
    close_fd(&p[0]);
    close_fd(&p[1]);
}

/* ---- starting ------------------------------------------------------------------ */

typedef struct plumbing {
    int in[2], out[2], err[2], down[2], up[2], exec_err[2];
} plumbing;

static void plumbing_close(plumbing *p)
{
    close_pipe(p->in);
    close_pipe(p->out);
    close_pipe(p->err);
    close_pipe(p->down);
    close_pipe(p->up);
    close_pipe(p->exec_err);
}

static int make_pipe(int p[2], const char *what)
{
    if (pipe2(p, O_CLOEXEC) == 0)
        return ORTKIT_OK;
    p[0] = p[1] = -1;
    return ortkit__error_set(ORTKIT_E_IO, "cannot start %s: pipe: %s", what, strerror(errno));
}

/* The descriptor the child's stream fd becomes; -1: inherited; -2: /dev/null. */
static int source_of(ortkit__child_io io, int given, int pipe_end, int out_source)
{
    switch (io) {
    case ORTKIT__CHILD_NULL:
        return -2;
    case ORTKIT__CHILD_PIPE:
        return pipe_end;
    case ORTKIT__CHILD_FD:
        return given;
    case ORTKIT__CHILD_TO_OUT:
        return out_source == -1 ? STDOUT_FILENO : out_source;
    default:
        return -1;
    }
}

/* In a forked child: a stream set up with async-signal-safe calls only. */
static void child_stream(int target, int source, int flags)
{
    if (source == -1)
        return;
    if (source == -2) {
        int null = open("/dev/null", flags);
        if (null >= 0 && null != target) {
            dup2(null, target);
            close(null);
        }
        return;
    }
    if (source == target) /* keep it across exec */
        fcntl(target, F_SETFD, 0);
    else
        dup2(source, target);
}

static _Noreturn void forked(const ortkit__child_options *o, plumbing *p, pid_t parent, int src[3])
{
    if (o->own_group)
        setpgid(0, 0);
    if (o->death_signal) {
        prctl(PR_SET_PDEATHSIG, o->death_signal);
        if (getppid() != parent) /* it died before the signal was asked for */
            _exit(128 + o->death_signal);
    }
    child_stream(STDIN_FILENO, src[0], O_RDONLY);
    child_stream(STDOUT_FILENO, src[1], O_WRONLY);
    /* stderr to stdout: whatever stdout became. */
    child_stream(STDERR_FILENO, o->err == ORTKIT__CHILD_TO_OUT ? STDOUT_FILENO : src[2], O_WRONLY);
    /* The parent's ends are close-on-exec, but a function child never execs. */
    close_fd(&p->in[1]);
    close_fd(&p->out[0]);
    close_fd(&p->err[0]);
    close_fd(&p->down[1]);
    close_fd(&p->up[0]);
    close_fd(&p->exec_err[0]);
    if (o->fn) {
        int r = o->fn(o->arg, p->up[1], p->down[0]);
        if (!o->argv || r)
            _exit(r);
    }
    if (o->envp)
        execvpe(o->argv[0], (char *const *)o->argv, o->envp);
    else
        execvp(o->argv[0], (char *const *)o->argv);
    int e = errno;
    if (write(p->exec_err[1], &e, sizeof e) < 0) { /* the parent sees no start either way */ }
    _exit(127);
}

static int spawn_program(ortkit__child *ch, const ortkit__child_options *o, int src[3])
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    const int flags[3] = {O_RDONLY, O_WRONLY, O_WRONLY};
    for (int fd = 0; fd < 3; fd++) {
        int s = fd == STDERR_FILENO && o->err == ORTKIT__CHILD_TO_OUT ? STDOUT_FILENO : src[fd];
        if (s == -2)
            posix_spawn_file_actions_addopen(&fa, fd, "/dev/null", flags[fd], 0);
        else if (s >= 0)
            posix_spawn_file_actions_adddup2(&fa, s, fd);
    }
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    if (o->own_group) {
        posix_spawnattr_setpgroup(&attr, 0);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    }
    /* glibc's posix_spawnp reports a program that cannot be run here, not
     * as an exit status 127 of the child. */
    pid_t pid;
    int err = posix_spawnp(&pid, o->argv[0], &fa, &attr, (char *const *)o->argv,
                           o->envp ? o->envp : environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    if (err) {
        ortkit__error_set(ORTKIT_E_IO, "cannot run '%s': %s", o->argv[0], strerror(err));
        errno = err;
        return ORTKIT_E_IO;
    }
    ch->pid = pid;
    return ORTKIT_OK;
}

static int fork_child(ortkit__child *ch, const ortkit__child_options *o, plumbing *p, int src[3])
{
    if (o->argv && make_pipe(p->exec_err, ch->what))
        return ORTKIT_E_IO;
    pid_t parent = getpid();
    /* What this process has buffered is written once, not by both. */
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot start %s: %s", ch->what, strerror(errno));
    if (pid == 0)
        forked(o, p, parent, src);
    ch->pid = pid;
    if (o->own_group)
        setpgid(pid, pid); /* also here: no race with a kill of the group */
    if (!o->argv)
        return ORTKIT_OK;
    /* The program started when the error pipe closes empty on its exec. */
    close_fd(&p->exec_err[1]);
    int e = 0;
    ssize_t n;
    while ((n = read(p->exec_err[0], &e, sizeof e)) < 0 && errno == EINTR)
        ;
    if (n == (ssize_t)sizeof e) {
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
        ch->pid = 0;
        ortkit__error_set(ORTKIT_E_IO, "cannot run '%s': %s", o->argv[0], strerror(e));
        errno = e;
        return ORTKIT_E_IO;
    }
    return ORTKIT_OK;
}

int ortkit__child_start(ortkit__child *ch, const ortkit__child_options *o)
{
    memset(ch, 0, sizeof *ch);
    ch->in = ch->out = ch->err = ch->to = ch->from = -1;
    ch->status = -1;
    snprintf(ch->what, sizeof ch->what, "%s",
             o->what ? o->what : o->argv ? o->argv[0] : "a child process");
    if ((!o->argv && !o->fn) || (o->in == ORTKIT__CHILD_TO_OUT || o->out == ORTKIT__CHILD_TO_OUT) ||
        (o->channel && !o->fn))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "cannot start %s: %s", ch->what,
                                 !o->argv && !o->fn ? "neither a program nor a function to run"
                                                    : "the streams asked for cannot be set up");
    plumbing p;
    memset(&p, -1, sizeof p);
    int rc = ORTKIT_OK;
    if ((o->in == ORTKIT__CHILD_PIPE && (rc = make_pipe(p.in, ch->what))) ||
        (o->out == ORTKIT__CHILD_PIPE && (rc = make_pipe(p.out, ch->what))) ||
        (o->err == ORTKIT__CHILD_PIPE && (rc = make_pipe(p.err, ch->what))) ||
        (o->channel && ((rc = make_pipe(p.down, ch->what)) || (rc = make_pipe(p.up, ch->what)))))
        goto cleanup;
    int src[3] = {source_of(o->in, o->in_fd, p.in[0], -1), source_of(o->out, o->out_fd, p.out[1], -1),
                  source_of(o->err, o->err_fd, p.err[1], -1)};
    if (o->fn || o->death_signal)
        rc = fork_child(ch, o, &p, src);
    else
        rc = spawn_program(ch, o, src);
    if (rc)
        goto cleanup;
    ch->live = 1;
    ch->group = o->own_group;
    ch->deadline = o->timeout_s > 0 ? ortkit__clock_now() + o->timeout_s : 0;
    /* The parent keeps its own ends; the child's are closed here. */
    ch->in = p.in[1], p.in[1] = -1;
    ch->out = p.out[0], p.out[0] = -1;
    ch->err = p.err[0], p.err[0] = -1;
    ch->to = p.down[1], p.down[1] = -1;
    ch->from = p.up[0], p.up[0] = -1;
cleanup:
    plumbing_close(&p);
    return rc;
}

/* ---- signals and waiting ----------------------------------------------------------- */

void ortkit__child_kill(ortkit__child *ch, int sig)
{
    if (!ch->live || ch->pid <= 0)
        return;
    if (!ch->group || kill(-ch->pid, sig) != 0)
        kill(ch->pid, sig);
}

/* Wait until the child has ended, by the deadline when there is one (0:
 * none), without reaping it (WNOWAIT): while it is a zombie its process
 * group cannot be taken by another.  STILL_RUNNING when it runs past the
 * deadline; with block 0, when it runs now. */
static int wait_ended(ortkit__child *ch, double deadline, int block, volatile sig_atomic_t *forward,
                      int *forwarded)
{
    long nap_ns = 1000000; /* 1 ms, doubling to 50 ms: a probe ends in well under a second */
    for (;;) {
        if (forward && *forward && !*forwarded) {
            ortkit__child_kill(ch, *forward);
            *forwarded = 1;
        }
        siginfo_t info;
        memset(&info, 0, sizeof info);
        int r = waitid(P_PID, (id_t)ch->pid, &info,
                       WEXITED | WNOWAIT | (deadline > 0 || !block ? WNOHANG : 0));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return ortkit__error_set(ORTKIT_E_IO, "cannot wait for %s: %s", ch->what, strerror(errno));
        if (info.si_pid == ch->pid)
            return ORTKIT_OK;
        if (!block)
            return STILL_RUNNING;
        double left = deadline - ortkit__clock_now();
        if (left <= 0)
            return STILL_RUNNING;
        long left_ns = left > 1 ? 1000000000L : (long)(left * 1e9) + 1;
        struct timespec nap = {0, nap_ns < left_ns ? nap_ns : left_ns};
        nanosleep(&nap, NULL);
        if (nap_ns < 50000000)
            nap_ns *= 2;
    }
}

/* Reap the child, which has ended; what it left running in its group goes
 * first, while the group's number is still its own. */
static int reap(ortkit__child *ch)
{
    if (ch->group && ch->deadline > 0)
        kill(-ch->pid, SIGKILL);
    int ws = 0;
    while (waitpid(ch->pid, &ws, 0) < 0)
        if (errno != EINTR)
            return ortkit__error_set(ORTKIT_E_IO, "cannot wait for %s: %s", ch->what, strerror(errno));
    ch->pid = 0;
    ch->signal = WIFSIGNALED(ws) ? WTERMSIG(ws) : 0;
    ch->status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + ch->signal;
    return ORTKIT_OK;
}

static void kill_late(ortkit__child *ch)
{
    ortkit__child_kill(ch, SIGKILL);
    ch->timed_out = 1;
}

int ortkit__child_wait(ortkit__child *ch, volatile sig_atomic_t *forward)
{
    if (!ch->live || ch->pid <= 0)
        return ORTKIT_OK;
    int forwarded = 0, rc = wait_ended(ch, ch->deadline, 1, forward, &forwarded);
    if (rc == STILL_RUNNING) {
        kill_late(ch);
        rc = wait_ended(ch, 0, 1, NULL, &forwarded);
    }
    return rc ? rc : reap(ch);
}

int ortkit__child_poll(ortkit__child *ch)
{
    if (!ch->live || ch->pid <= 0)
        return 1;
    if (ch->deadline > 0 && !ch->timed_out && ortkit__clock_now() >= ch->deadline)
        kill_late(ch);
    int forwarded = 0, rc = wait_ended(ch, 0, 0, NULL, &forwarded);
    if (rc == STILL_RUNNING)
        return 0;
    return rc ? rc : (rc = reap(ch)) ? rc : 1;
}

int ortkit__child_stop(ortkit__child *ch, double grace_s)
{
    if (!ch->live)
        return ORTKIT_OK;
    close_fd(&ch->in);
    close_fd(&ch->to);
    int rc = ORTKIT_OK;
    if (ch->pid > 0) {
        int forwarded = 0;
        rc = wait_ended(ch, ortkit__clock_now() + (grace_s > 0 ? grace_s : 0.001), 1, NULL, &forwarded);
        if (rc == STILL_RUNNING) {
            ortkit__child_kill(ch, SIGKILL);
            rc = wait_ended(ch, 0, 1, NULL, &forwarded);
        }
        if (!rc)
            rc = reap(ch);
    }
    close_fd(&ch->out);
    close_fd(&ch->err);
    close_fd(&ch->from);
    return rc;
}

void ortkit__child_free(ortkit__child *ch)
{
    if (!ch->live)
        return;
    if (ch->pid > 0) {
        ortkit__child_kill(ch, SIGKILL);
        int forwarded = 0;
        if (wait_ended(ch, 0, 1, NULL, &forwarded) == ORTKIT_OK)
            (void)reap(ch);
    }
    close_fd(&ch->in);
    close_fd(&ch->out);
    close_fd(&ch->err);
    close_fd(&ch->to);
    close_fd(&ch->from);
    ch->live = 0;
}

/* ---- reading what it writes -------------------------------------------------------- */

int ortkit__child_read_tail(ortkit__child *ch)
{
    if (ch->out < 0)
        return 0;
    char tmp[4096];
    ssize_t n = read(ch->out, tmp, sizeof tmp);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return 1;
    if (n <= 0) {
        close_fd(&ch->out);
        return 0;
    }
    size_t cap = sizeof ch->tail;
    if ((size_t)n >= cap) {
        memcpy(ch->tail, tmp + (size_t)n - cap, cap);
        ch->tail_len = cap;
    } else {
        size_t keep = ch->tail_len + (size_t)n > cap ? cap - (size_t)n : ch->tail_len;
        memmove(ch->tail, ch->tail + ch->tail_len - keep, keep);
        memcpy(ch->tail + keep, tmp, (size_t)n);
        ch->tail_len = keep + (size_t)n;
    }
    return 1;
}

void ortkit__child_last_line(const ortkit__child *ch, char *out, size_t size)
{
    size_t end = ch->tail_len;
    while (end && (ch->tail[end - 1] == '\n' || ch->tail[end - 1] == '\r'))
        end--;
    size_t start = end;
    while (start && ch->tail[start - 1] != '\n')
        start--;
    snprintf(out, size, "%.*s", (int)(end - start), ch->tail + start);
}

/* Append n bytes to the growing output, up to the limit; past it (or after
 * a failed allocation) they are dropped, so the child never blocks. */
static void keep(char **buf, size_t *len, size_t *cap, const char *chunk, size_t n)
{
    if (!*buf || *len + 1 >= ORTKIT__SPAWN_OUTPUT_MAX)
        return;
    if (n > ORTKIT__SPAWN_OUTPUT_MAX - 1 - *len)
        n = ORTKIT__SPAWN_OUTPUT_MAX - 1 - *len;
    if (*len + n + 1 > *cap) {
        while (*len + n + 1 > *cap)
            *cap *= 2;
        char *grown = realloc(*buf, *cap);
        if (!grown) {
            free(*buf);
            *buf = NULL;
            return;
        }
        *buf = grown;
    }
    memcpy(*buf + *len, chunk, n);
    *len += n;
}

int ortkit__child_read_all(ortkit__child *ch, char **output)
{
    *output = NULL;
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap);
    char chunk[4096];
    while (ch->out >= 0) {
        if (ch->deadline > 0) {
            double left = ch->deadline - ortkit__clock_now();
            struct pollfd pfd = {ch->out, POLLIN, 0};
            int ready = left > 0 ? poll(&pfd, 1, left > 3600 ? 3600000 : (int)(left * 1000) + 1) : 0;
            if (ready < 0 && errno == EINTR)
                continue;
            if (ready == 0) { /* out of time: ended, not waited for longer */
                kill_late(ch);
                break;
            }
        }
        ssize_t n = read(ch->out, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        keep(&buf, &len, &cap, chunk, (size_t)n);
    }
    close_fd(&ch->out);
    if (!buf)
        return ortkit__error_nomem();
    buf[len] = '\0';
    *output = buf;
    return ORTKIT_OK;
}

/* ---- framed messages ----------------------------------------------------------------- */

int ortkit__msg_send(int fd, uint32_t type, const void *data, size_t size)
{
    if (size > UINT32_MAX)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "a message of %zu bytes is too long", size);
    uint32_t head[2] = {type, (uint32_t)size};
    int rc = ortkit__file_write_all(fd, head, sizeof head, "a message pipe");
    if (!rc && size)
        rc = ortkit__file_write_all(fd, data, size, "a message pipe");
    return rc;
}

/* Exactly size bytes before deadline: ORTKIT_OK, ORTKIT__MSG_END (an end
 * before any byte), ORTKIT__MSG_LATE, or -1 (an end within, or an error:
 * *got says how many came). */
static int read_full(int fd, void *out, size_t size, double deadline, size_t *got)
{
    unsigned char *p = out;
    *got = 0;
    while (*got < size) {
        if (deadline > 0) {
            double left = deadline - ortkit__clock_now();
            if (left <= 0)
                return ORTKIT__MSG_LATE;
            struct pollfd pfd = {fd, POLLIN, 0};
            int r = poll(&pfd, 1, left > 3600 ? 3600000 : (int)(left * 1000) + 1);
            if (r < 0 && errno != EINTR)
                return -1;
            if (r <= 0)
                continue; /* not yet: the deadline is looked at again */
        }
        ssize_t n = read(fd, p + *got, size - *got);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n == 0 && *got == 0)
            return ORTKIT__MSG_END;
        if (n <= 0)
            return -1;
        *got += (size_t)n;
    }
    return ORTKIT_OK;
}

int ortkit__msg_recv(int fd, double deadline, size_t max, uint32_t *type, void **data, size_t *size)
{
    *data = NULL;
    *size = 0;
    *type = 0;
    uint32_t head[2];
    size_t got;
    int rc = read_full(fd, head, sizeof head, deadline, &got);
    if (rc == -1)
        return ortkit__error_set(ORTKIT_E_IO, "a message ended after %zu bytes of its header", got);
    if (rc)
        return rc;
    if (head[1] > max)
        return ortkit__error_set(ORTKIT_E_IO, "a message of %u bytes is over the %zu expected",
                                 head[1], max);
    unsigned char *p = malloc((size_t)head[1] + 1);
    if (!p)
        return ortkit__error_nomem();
    rc = read_full(fd, p, head[1], deadline, &got);
    if (rc == ORTKIT__MSG_END || rc == -1) {
        free(p);
        return ortkit__error_set(ORTKIT_E_IO, "a message ended after %zu of its %u bytes", got,
                                 head[1]);
    }
    if (rc) {
        free(p);
        return rc;
    }
    p[head[1]] = '\0';
    *type = head[0];
    *data = p;
    *size = head[1];
    return ORTKIT_OK;
}

/* ---- a program run, its output captured --------------------------------------------- */

int ortkit__spawn_timed(const char *const *argv, char *const *envp, double timeout_s,
                        int merge_stderr, char **output, int *status, int *timed_out)
{
    if (output)
        *output = NULL;
    *status = -1;
    if (timed_out)
        *timed_out = 0;
    /* A timed child leads a process group of its own, so that what it
     * started (and what holds its stdout) is ended with it. */
    ortkit__child_options o = {.argv = argv, .envp = envp, .in = ORTKIT__CHILD_NULL,
                               .out = ORTKIT__CHILD_PIPE,
                               .err = merge_stderr ? ORTKIT__CHILD_TO_OUT : ORTKIT__CHILD_NULL,
                               .own_group = timeout_s > 0, .timeout_s = timeout_s};
    ortkit__child ch;
    int rc = ortkit__child_start(&ch, &o);
    if (rc)
        return rc;
    char *buf = NULL;
    int read_rc = ortkit__child_read_all(&ch, &buf);
    /* It closed its output and went on: the deadline still holds. */
    rc = ortkit__child_wait(&ch, NULL);
    if (!rc)
        rc = read_rc;
    if (!rc) {
        *status = ch.status;
        if (timed_out)
            *timed_out = ch.timed_out;
    }
    ortkit__child_free(&ch);
    if (!rc && output)
        *output = buf;
    else
        free(buf);
    return rc;
}

int ortkit__spawn(const char *const *argv, int merge_stderr, char **output, int *status)
{
    return ortkit__spawn_timed(argv, NULL, 0, merge_stderr, output, status, NULL);
}
