/* interrupt.c - one way for every long command to stop on SIGINT or SIGTERM (see interrupt.h). */
#include "interrupt.h"
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static volatile sig_atomic_t received, held;

/* Paths a hard exit removes.  Written by the main thread only; the handler
 * reads a slot only once its flag says the path is complete. */
#define MAX_TRACKED 8
static struct {
    char path[PATH_MAX];
    cli_track_kind kind;
    size_t existed; /* CLI_TRACK_MADE_DIRS */
    atomic_int used;
} tracked[MAX_TRACKED];
static atomic_int tracked_top;

int cli_remove_flat_dir(const char *path)
{
    /* open, getdents64, unlinkat, rmdir: system calls only (no opendir,
     * which allocates), so that the signal handler can use it.  Never
     * follows a link, and never descends. */
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -1;
    /* Entries removed while a directory is read may shift the rest: read
     * again from the start until a pass removes nothing. */
    for (int removed = 1, passes = 0; removed && passes < 64; passes++) {
        removed = 0;
        if (lseek(fd, 0, SEEK_SET) < 0)
            break;
        _Alignas(struct dirent64) char buf[4096];
        ssize_t n;
        while ((n = getdents64(fd, buf, sizeof buf)) > 0) {
            for (ssize_t off = 0; off < n;) {
                const struct dirent64 *e = (const struct dirent64 *)(buf + off);
                off += e->d_reclen;
                if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                    continue;
                if (unlinkat(fd, e->d_name, 0) == 0)
                    removed = 1;
            }
        }
    }
    close(fd);
    return rmdir(path);
}

static void hard_exit(void)
{
    for (int i = atomic_load(&tracked_top) - 1; i >= 0; i--) {
        if (!atomic_load(&tracked[i].used))
            continue;
        if (tracked[i].kind == CLI_TRACK_FLAT_DIR)
            cli_remove_flat_dir(tracked[i].path);
        else
            ortkit__rmdirs_made(tracked[i].path, tracked[i].existed);
    }
    static const char msg[] = "ortkit: interrupted\n";
    ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)w;
    _exit(CLI_INTERRUPTED);
}

static void on_signal(int sig)
{
    int first = !received;
    received = sig;
    if (held && first)
        return; /* the command stops where it can */
    hard_exit();
}

void cli_interrupt_init(void)
{
    static int installed;
    if (installed)
        return;
    installed = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    /* Restarted system calls: a signal recorded while held must not make a
     * read or write fail on the way to the point where the command looks. */
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void cli_interrupt_hold(void) { held = 1; }

void cli_interrupt_release(void) { held = 0; }

int cli_interrupted(void) { return received; }

int cli_interrupt_poll(void *arg)
{
    (void)arg;
    return received != 0;
}

/* The slot is complete (existed too) before its flag says so. */
static int track(const char *path, cli_track_kind kind, size_t existed)
{
    int i = atomic_load(&tracked_top);
    if (i == MAX_TRACKED || strlen(path) >= sizeof tracked[i].path)
        return -1;
    memcpy(tracked[i].path, path, strlen(path) + 1);
    tracked[i].kind = kind;
    tracked[i].existed = existed;
    atomic_store(&tracked[i].used, 1);
    atomic_store(&tracked_top, i + 1);
    return i;
}

int cli_interrupt_track(const char *path, cli_track_kind kind) { return track(path, kind, 0); }

int cli_interrupt_track_made(const char *path, size_t existed)
{
    return track(path, CLI_TRACK_MADE_DIRS, existed);
}

void cli_interrupt_untrack(int handle)
{
    if (handle < 0 || handle >= MAX_TRACKED)
        return;
    atomic_store(&tracked[handle].used, 0);
    int top = atomic_load(&tracked_top);
    while (top > 0 && !atomic_load(&tracked[top - 1].used))
        top--;
    atomic_store(&tracked_top, top);
}

int cli_interrupt_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ortkit: interrupted; ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return CLI_INTERRUPTED;
}

int cli_interrupt_outcome(int rc, const char *undone)
{
    if (rc == ORTKIT_E_CANCELLED && cli_interrupted())
        return cli_interrupt_fail("%s", undone);
    return rc ? cli_fail_lib() : CLI_OK;
}

void cli_remove_stale(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    size_t n = strlen(prefix);
    for (struct dirent *e; (e = readdir(d));) {
        if (strncmp(e->d_name, prefix, n))
            continue;
        char *end;
        errno = 0;
        long pid = strtol(e->d_name + n, &end, 10);
        if (errno || end == e->d_name + n || *end != '-' || pid <= 0 || pid == (long)getpid())
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue; /* alive, or not ours to judge */
        char path[PATH_MAX];
        if (ortkit__pathf(path, sizeof path, "%s/%s", dir, e->d_name) == 0)
            cli_remove_flat_dir(path);
    }
    closedir(d);
}
