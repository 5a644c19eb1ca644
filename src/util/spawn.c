/*
 * spawn.c - run a program directly, never through a shell, so file names
 * with spaces or quotes are passed as they are; its output is captured.
 */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

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

#define STILL_RUNNING 1

/* Wait until pid has ended, by the deadline when there is one (0: none),
 * without reaping it (WNOWAIT): while it is a zombie its process group
 * cannot be taken by another.  STILL_RUNNING when it runs past the deadline. */
static int wait_ended(pid_t pid, double deadline, const char *what)
{
    long nap_ns = 1000000; /* 1 ms, doubling to 50 ms: a probe ends in well under a second */
    for (;;) {
        siginfo_t info;
        memset(&info, 0, sizeof info);
        int r = waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT | (deadline > 0 ? WNOHANG : 0));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return ortkit__error_set(ORTKIT_E_IO, "cannot wait for '%s': %s", what, strerror(errno));
        if (info.si_pid == pid)
            return ORTKIT_OK;
        double left = deadline - ortkit__clock_now();
        if (left <= 0)
            return STILL_RUNNING;
        struct timespec nap = {0, nap_ns < (long)(left * 1e9) ? nap_ns : (long)(left * 1e9) + 1};
        nanosleep(&nap, NULL);
        if (nap_ns < 50000000)
            nap_ns *= 2;
    }
}

/* Reap pid, which has ended. */
static int reap(pid_t pid, int *ws, const char *what)
{
    while (waitpid(pid, ws, 0) < 0)
        if (errno != EINTR)
            return ortkit__error_set(ORTKIT_E_IO, "cannot wait for '%s': %s", what, strerror(errno));
    return ORTKIT_OK;
}

int ortkit__spawn_timed(const char *const *argv, char *const *envp, double timeout_s,
                        int merge_stderr, char **output, int *status, int *timed_out)
{
    if (output)
        *output = NULL;
    *status = -1;
    if (timed_out)
        *timed_out = 0;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot run '%s': pipe: %s", argv[0], strerror(errno));
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    if (merge_stderr)
        posix_spawn_file_actions_adddup2(&fa, fds[1], STDERR_FILENO);
    else
        posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    /* A timed child leads a process group of its own, so that what it
     * started (and what holds its stdout) is ended with it. */
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    if (timeout_s > 0) {
        posix_spawnattr_setpgroup(&attr, 0);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    }
    /* glibc's posix_spawnp reports a program that cannot be run here, not
     * as an exit status 127 of the child. */
    int err = posix_spawnp(&pid, argv[0], &fa, &attr, (char *const *)argv, envp ? envp : environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (err) {
        close(fds[0]);
        return ortkit__error_set(ORTKIT_E_IO, "cannot run '%s': %s", argv[0], strerror(err));
    }

    int rc = ORTKIT_OK;
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap);
    char chunk[4096];
    double deadline = timeout_s > 0 ? ortkit__clock_now() + timeout_s : 0;
    for (;;) {
        if (deadline > 0) {
            double left = deadline - ortkit__clock_now();
            struct pollfd pfd = {fds[0], POLLIN, 0};
            int ready = left > 0 ? poll(&pfd, 1, (int)(left * 1000) + 1) : 0;
            if (ready < 0 && errno == EINTR)
                continue;
            if (ready == 0) { /* out of time: the group is ended, not waited for longer */
                killpg(pid, SIGKILL);
                if (timed_out)
                    *timed_out = 1;
                deadline = 0;
                break;
            }
        }
        ssize_t n = read(fds[0], chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        keep(&buf, &len, &cap, chunk, (size_t)n);
    }
    close(fds[0]);
    int ws = 0;
    if ((rc = wait_ended(pid, deadline, argv[0])) == STILL_RUNNING) {
        /* It closed its output and went on: the deadline still holds. */
        killpg(pid, SIGKILL);
        if (timed_out)
            *timed_out = 1;
        rc = wait_ended(pid, 0, argv[0]);
    }
    /* What the child left running in its group goes before the child is
     * reaped, while the group's number is still its own. */
    if (!rc && timeout_s > 0)
        killpg(pid, SIGKILL);
    if (!rc)
        rc = reap(pid, &ws, argv[0]);
    if (!rc)
        *status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    if (!buf && !rc)
        rc = ortkit__error_nomem();
    if (buf)
        buf[len] = '\0';
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
