/*
 * spawn.c - run a program directly, never through a shell, so file names
 * with spaces or quotes are passed as they are; its output is captured.
 */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int ortkit__spawn(const char *const *argv, int merge_stderr, char **output, int *status)
{
    if (output)
        *output = NULL;
    *status = -1;
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
    /* glibc's posix_spawnp reports a program that cannot be run here, not
     * as an exit status 127 of the child. */
    int err = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
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
    for (;;) {
        ssize_t n = read(fds[0], chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        /* Kept up to the limit; the rest is read and dropped. */
        if (!buf || len + 1 >= ORTKIT__SPAWN_OUTPUT_MAX)
            continue;
        if ((size_t)n > ORTKIT__SPAWN_OUTPUT_MAX - 1 - len)
            n = (ssize_t)(ORTKIT__SPAWN_OUTPUT_MAX - 1 - len);
        if (len + (size_t)n + 1 > cap) {
            while (len + (size_t)n + 1 > cap)
                cap *= 2;
            char *grown = realloc(buf, cap);
            if (!grown) {
                free(buf);
                buf = NULL;
                continue;
            }
            buf = grown;
        }
        memcpy(buf + len, chunk, (size_t)n);
        len += (size_t)n;
    }
    close(fds[0]);
    int ws;
    while (waitpid(pid, &ws, 0) < 0) {
        if (errno != EINTR) {
            rc = ortkit__error_set(ORTKIT_E_IO, "cannot wait for '%s': %s", argv[0], strerror(errno));
            break;
        }
    }
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
