/*
 * launcher.c - `ortkit build --launch STATE_DIR COMPILER ARGS...`, the
 * CMAKE_<LANG>_COMPILER_LAUNCHER (and _LINKER_LAUNCHER) of a gated build.
 *
 * Protocol with the gate (a stream socket, STATE/gate.sock, in the state
 * directory only its user can reach), one line each way:
 *     launcher: REQ <pid> <lang> <path>
 *     gate:     GO <chain>            (when admitted; chain "-", "ccache", ...)
 *     launcher: END <status> <wall_s> <user_s> <sys_s> <maxrss_kb> <cache> <remote_errors>
 * (<cache>: what ccache did with it, "-" without ccache; see cache.c).
 * The reservation lives exactly as long as the connection: a launcher that
 * is killed closes it, and the gate releases what it held.  The compiler is
 * started with PR_SET_PDEATHSIG, so it does not outlive a killed launcher.
 *
 * With no gate listening (ninja run by hand in the build directory), the
 * compiler runs at once, ungated.  A gate is trusted only when the kernel
 * says (SO_PEERCRED) that it is this user's process holding STATE/lock;
 * any other is told nothing, and the compile runs ungated with a warning.
 */
#include "builder_launcher.h"
#include "builder_compiler_cache.h"
#include "builder_gate.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* ---- the gate's socket (shared with server.c) ------------------------------ */

/* "its group", "others" or "its group and others": who may write a directory. */
static const char *writers(mode_t mode)
{
    if ((mode & S_IWGRP) && (mode & S_IWOTH))
        return "its group and others";
    return mode & S_IWGRP ? "its group" : "others";
}

int ortkit__builder_state_dir_open(const char *state_dir, int create, int *dirfd)
{
    *dirfd = -1;
    /* Split STATE into its parent and its name. */
    char parent[PATH_MAX], name[NAME_MAX + 1];
    int rc = ortkit__pathf(parent, sizeof parent, "%s", state_dir);
    if (rc)
        return rc;
    size_t n = strlen(parent);
    while (n > 1 && parent[n - 1] == '/')
        parent[--n] = '\0';
    char *slash = strrchr(parent, '/');
    const char *base = slash ? slash + 1 : parent;
    if (!*base || !strcmp(base, ".") || !strcmp(base, "..") || strlen(base) > NAME_MAX)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "'%s' cannot be a build's state directory",
                                 state_dir);
    memcpy(name, base, strlen(base) + 1);
    if (!slash)
        memcpy(parent, ".", 2);
    else if (slash == parent)
        parent[1] = '\0';
    else
        *slash = '\0';

    uid_t me = geteuid();
    if (create && (rc = ortkit__mkdirs(parent)))
        return rc;
    int pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (pfd < 0) {
        if (!create && errno == ENOENT)
            return ORTKIT_OK;
        return ortkit__error_set(ORTKIT_E_IO, "cannot open '%s': %s", parent, strerror(errno));
    }
    /* Whoever can write the build directory can put another state directory
     * in place of this one: only this user (or root), or a sticky directory
     * (as /tmp), where nobody renames what is not theirs. */
    struct stat st;
    if (fstat(pfd, &st) != 0) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot stat '%s': %s", parent, strerror(errno));
    } else if (st.st_uid != me && st.st_uid != 0) {
        rc = ortkit__error_set(ORTKIT_E_IO,
                               "%s belongs to uid %lu, not to you (uid %lu): its owner could replace "
                               "the build's state directory %s; build in a directory of your own",
                               parent, (unsigned long)st.st_uid, (unsigned long)me, state_dir);
    } else if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)) {
        rc = ortkit__error_set(ORTKIT_E_IO,
                               "%s is writable by %s (mode %04o): another user could replace the "
                               "build's state directory %s; run chmod go-w %s",
                               parent, writers(st.st_mode), (unsigned)(st.st_mode & 07777), state_dir,
                               parent);
    } else if (create && mkdirat(pfd, name, 0700) != 0 && errno != EEXIST) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot create '%s': %s", state_dir, strerror(errno));
    }
    if (rc) {
        close(pfd);
        return rc;
    }
    int fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int e = errno;
    close(pfd);
    if (fd < 0) {
        if (!create && e == ENOENT)
            return ORTKIT_OK;
        if (e == ELOOP || e == ENOTDIR)
            return ortkit__error_set(ORTKIT_E_IO,
                                     "%s is not a directory (a symbolic link?): remove it, and ortkit "
                                     "build makes it again",
                                     state_dir);
        return ortkit__error_set(ORTKIT_E_IO, "cannot open '%s': %s", state_dir, strerror(e));
    }
    /* The state directory holds the lock, the history and the gate: this
     * user's alone.  One that others could write may hold anything: refused;
     * one they could only read (made before ortkit made it 0700) is closed. */
    if (fstat(fd, &st) != 0) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot stat '%s': %s", state_dir, strerror(errno));
    } else if (st.st_uid != me) {
        rc = ortkit__error_set(ORTKIT_E_IO,
                               "the build's state directory %s belongs to uid %lu, not to you (uid "
                               "%lu): remove it, and ortkit build makes it again",
                               state_dir, (unsigned long)st.st_uid, (unsigned long)me);
    } else if (st.st_mode & (S_IWGRP | S_IWOTH)) {
        rc = ortkit__error_set(ORTKIT_E_IO,
                               "the build's state directory %s is writable by %s (mode %04o); it "
                               "must be 0700: remove it (ortkit build makes it again), or run chmod "
                               "700 %s if you trust what it holds",
                               state_dir, writers(st.st_mode), (unsigned)(st.st_mode & 07777),
                               state_dir);
    } else if (create && (st.st_mode & 077) && fchmod(fd, 0700) != 0) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot chmod 700 '%s': %s", state_dir, strerror(errno));
    }
    if (rc) {
        close(fd);
        return rc;
    }
    *dirfd = fd;
    return ORTKIT_OK;
}

size_t ortkit__builder_gate_sockaddr(struct sockaddr_un *sa, const char *state_dir, int dirfd)
{
    memset(sa, 0, sizeof *sa);
    sa->sun_family = AF_UNIX;
    int n = snprintf(sa->sun_path, sizeof sa->sun_path, "%s/%s", state_dir,
                     ORTKIT__BUILDER_GATE_SOCKET);
    /* A path longer than sun_path is reached through the open directory:
     * the same socket file, under a short name. */
    if (n < 0 || (size_t)n >= sizeof sa->sun_path)
        n = snprintf(sa->sun_path, sizeof sa->sun_path, "/proc/self/fd/%d/%s", dirfd,
                     ORTKIT__BUILDER_GATE_SOCKET);
    return offsetof(struct sockaddr_un, sun_path) + (size_t)n + 1;
}

int ortkit__builder_peer_cred(int fd, pid_t *pid, uid_t *uid)
{
    struct ucred cr;
    socklen_t len = sizeof cr;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) != 0 || len != sizeof cr)
        return -1;
    *pid = cr.pid;
    *uid = cr.uid;
    return 0;
}

pid_t ortkit__builder_lock_holder(int dirfd)
{
    int fd = openat(dirfd, "lock", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct stat st;
    char text[32];
    ssize_t r = -1;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid())
        r = pread(fd, text, sizeof text - 1, 0);
    close(fd);
    if (r <= 0)
        return 0;
    text[r] = '\0';
    char *end;
    errno = 0;
    long pid = strtol(text, &end, 10);
    if (errno || end == text || (*end && *end != '\n') || pid <= 0 || pid != (pid_t)pid)
        return 0;
    return (pid_t)pid;
}

static int has_ext(const char *p, const char *const *exts)
{
    const char *dot = strrchr(p, '.');
    if (!dot)
        return 0;
    for (size_t i = 0; exts[i]; i++)
        if (!strcmp(dot, exts[i]))
            return 1;
    return 0;
}

int ortkit__builder_classify(char *const *argv, int argc, ortkit__builder_lang *lang)
{
    static const char *const src_ext[] = {".c", ".cc", ".cpp", ".cxx", ".C", ".c++", ".cu",
                                          ".S", ".s", ".m", ".mm", NULL};
    static const char *const cxx_ext[] = {".cc", ".cpp", ".cxx", ".C", ".c++", ".mm", NULL};
    int src = -1, out = -1, compile = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-c")) {
            compile = 1;
            if (i + 1 < argc && argv[i + 1][0] != '-' && has_ext(argv[i + 1], src_ext))
                src = i + 1;
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            out = i + 1;
        }
    }
    if (compile && src < 0)
        for (int i = argc - 1; i >= 1; i--)
            if (argv[i][0] != '-' && has_ext(argv[i], src_ext) && (i == 0 || strcmp(argv[i - 1], "-o"))) {
                src = i;
                break;
            }
    const char *cc = ortkit__path_last(argv[0]);
    if (!compile) {
        *lang = ORTKIT__LANG_LINK;
        return out;
    }
    if (strstr(cc, "nvcc") || (src >= 0 && has_ext(argv[src], (const char *const[]){".cu", NULL})))
        *lang = ORTKIT__LANG_CUDA;
    else if (src >= 0 && has_ext(argv[src], cxx_ext))
        *lang = ORTKIT__LANG_CXX;
    else if (src >= 0 && has_ext(argv[src], (const char *const[]){".c", NULL}))
        *lang = ORTKIT__LANG_C;
    else
        *lang = strstr(cc, "++") ? ORTKIT__LANG_CXX : ORTKIT__LANG_C;
    return src;
}

typedef enum gate_reach {
    GATE_NONE,      /* nothing serves the build directory: compile ungated */
    GATE_UNTRUSTED, /* something answers, but not this user's build: compile ungated, and say so */
    GATE_OK
} gate_reach;

/* Connect to the gate of STATE, and trust it only when it is this user's
 * `ortkit build` that holds STATE/lock.  *why says what was wrong. */
static gate_reach connect_gate(const char *state_dir, int *out, char *why, size_t size)
{
    *out = -1;
    int dfd = -1;
    if (ortkit__builder_state_dir_open(state_dir, 0, &dfd) != 0) {
        snprintf(why, size, "%s", ortkit__error_message());
        return GATE_UNTRUSTED;
    }
    if (dfd < 0)
        return GATE_NONE;
    struct sockaddr_un sa;
    socklen_t len = (socklen_t)ortkit__builder_gate_sockaddr(&sa, state_dir, dfd);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&sa, len) != 0) {
        /* No socket, or one nobody listens on (a build that was killed). */
        if (fd >= 0)
            close(fd);
        close(dfd);
        return GATE_NONE;
    }
    pid_t pid = 0, holder = 0;
    uid_t uid = 0, me = geteuid();
    gate_reach reach = GATE_UNTRUSTED;
    if (ortkit__builder_peer_cred(fd, &pid, &uid) != 0)
        snprintf(why, size, "cannot tell who serves it: %s", strerror(errno));
    else if (uid != me)
        snprintf(why, size, "it is served by uid %lu, not by you (uid %lu)", (unsigned long)uid,
                 (unsigned long)me);
    else if ((holder = ortkit__builder_lock_holder(dfd)) <= 0)
        snprintf(why, size, "it is served by pid %ld, and no ortkit build holds %s/lock", (long)pid,
                 state_dir);
    else if (pid != holder)
        snprintf(why, size, "it is served by pid %ld, not by the ortkit build that holds %s/lock "
                 "(pid %ld)", (long)pid, state_dir, (long)holder);
    else
        reach = GATE_OK;
    close(dfd);
    if (reach != GATE_OK) {
        close(fd);
        return reach;
    }
    *out = fd;
    return GATE_OK;
}

static int write_all(int fd, const char *s, size_t n)
{
    while (n) {
        ssize_t w = send(fd, s, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

static int read_line(int fd, char *buf, size_t size)
{
    size_t n = 0;
    while (n + 1 < size) {
        ssize_t r = read(fd, buf + n, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        if (buf[n] == '\n')
            break;
        n++;
    }
    buf[n] = '\0';
    return 0;
}

/* The chain a GO names: *chain NULL for "-", else one of the known chains;
 * -1 for anything else. */
static int parse_chain(const char *word, const char **chain)
{
    static const char *const known[] = {"ccache", "distcc", "ccache+distcc"};
    *chain = NULL;
    if (!strcmp(word, "-"))
        return 0;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(word, known[i])) {
            *chain = known[i];
            return 0;
        }
    return -1;
}

static volatile sig_atomic_t got_signal;

static void on_signal(int sig) { got_signal = sig; }

static double tv_seconds(struct timeval tv) { return (double)tv.tv_sec + (double)tv.tv_usec / 1e6; }

/* What ccache's stats log of this one compile says. */
static ortkit__builder_cache_outcome stats_log_read(int fd, int *remote_errors)
{
    char buf[4096];
    ssize_t n = fd >= 0 ? pread(fd, buf, sizeof buf - 1, 0) : -1;
    *remote_errors = 0;
    if (n <= 0)
        return ORTKIT__CACHE_NONE;
    buf[n] = '\0';
    return ortkit__builder_ccache_outcome(buf, remote_errors);
}

/* In the compiler's process, before it starts: ccache's settings. */
typedef struct compiler_setup {
    const char *chain;
    int stats_fd;
} compiler_setup;

static int compiler_env(void *arg, int to_parent, int from_parent)
{
    const compiler_setup *c = arg;
    (void)to_parent;
    (void)from_parent;
    if (c->chain && !strcmp(c->chain, "ccache+distcc"))
        setenv("CCACHE_PREFIX", "distcc", 1);
    if (c->stats_fd >= 0) {
        char path[64];
        snprintf(path, sizeof path, "/proc/self/fd/%d", c->stats_fd);
        setenv("CCACHE_STATSLOG", path, 1);
    }
    return 0;
}

/* Run the compiler (through the chain) as a child; the launcher waits so
 * that RUSAGE_CHILDREN covers the compiler and every process it waited for
 * (cc1plus, as): ru_maxrss is then the largest of them.  Through ccache,
 * *outcome says what it did with the compile. */
static int run_child(char **cmd, const char *chain, int *status, struct rusage *ru, double *wall,
                     ortkit__builder_cache_outcome *outcome, int *remote_errors)
{
    const char *pre[2] = {NULL, NULL};
    if (chain && !strcmp(chain, "ccache"))
        pre[0] = "ccache";
    else if (chain && !strcmp(chain, "distcc"))
        pre[0] = "distcc";
    else if (chain && !strcmp(chain, "ccache+distcc"))
        pre[0] = "ccache";
    *outcome = ORTKIT__CACHE_NONE;
    *remote_errors = 0;
    size_t n = 0;
    while (cmd[n])
        n++;
    char **argv = calloc(n + 2, sizeof *argv);
    if (!argv)
        return -1;
    size_t k = 0;
    if (pre[0])
        argv[k++] = (char *)pre[0];
    for (size_t i = 0; i < n; i++)
        argv[k++] = cmd[i];
    /* ccache's stats log of this one compile: a memory file the child
     * reaches as /proc/self/fd/N (inherited: no close-on-exec), read back
     * after it; nothing on disk, nothing shared with other compiles. */
    int stats_fd = pre[0] && !strcmp(pre[0], "ccache") ? memfd_create("ortkit-ccache-stats", 0) : -1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: the wait returns to see it */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    double t0 = ortkit__clock_now();
    compiler_setup setup = {chain, stats_fd};
    ortkit__child_options co = {.argv = (const char *const *)argv, .fn = compiler_env,
                                .arg = &setup, .death_signal = SIGKILL};
    ortkit__child ch;
    if (ortkit__child_start(&ch, &co) != 0) {
        /* The compile's result, as a program that could not run gives one. */
        fprintf(stderr, "ortkit: cannot run '%s': %s\n", argv[0], strerror(errno));
        free(argv);
        *wall = ortkit__clock_now() - t0;
        getrusage(RUSAGE_CHILDREN, ru);
        *status = 127;
        if (stats_fd >= 0)
            close(stats_fd);
        return 0;
    }
    free(argv);
    /* An interrupt (ninja's SIGINT to this process group, a SIGTERM) is
     * passed to the compiler and waited for: when the launcher is gone, so
     * is its compiler, and the gate knows the memory is free. */
    (void)ortkit__child_wait(&ch, &got_signal);
    *wall = ortkit__clock_now() - t0;
    getrusage(RUSAGE_CHILDREN, ru);
    *status = ch.status;
    ortkit__child_free(&ch);
    if (stats_fd >= 0) {
        *outcome = stats_log_read(stats_fd, remote_errors);
        close(stats_fd);
    }
    return 0;
}

int ortkit__builder_launch(int argc, char **argv)
{
    /* argv: "build" "--launch=DIR" compiler args... (or "--launch" DIR ...) */
    const char *state = NULL;
    int first = 0;
    if (argc >= 2 && !strncmp(argv[1], "--launch=", 9)) {
        state = argv[1] + 9;
        first = 2;
    } else if (argc >= 3 && !strcmp(argv[1], "--launch")) {
        state = argv[2];
        first = 3;
    }
    if (!state || first >= argc) {
        fprintf(stderr, "ortkit build: --launch needs a state directory and a compiler command\n");
        return 2;
    }
    char **cmd = argv + first;
    int ncmd = argc - first;

    int fd = -1;
    char why[1024] = "";
    gate_reach reach = connect_gate(state, &fd, why, sizeof why);
    if (reach != GATE_OK) {
        /* Without a gate (ninja run by hand) the compile runs as it would
         * without ortkit; a gate that is not this build's is never told
         * anything nor asked anything. */
        if (reach == GATE_UNTRUSTED)
            fprintf(stderr, "ortkit: not using the compile gate of %s: %s; compiling without it\n",
                    state, why);
        execvp(cmd[0], cmd);
        fprintf(stderr, "ortkit: cannot run '%s': %s\n", cmd[0], strerror(errno));
        return 127;
    }
    ortkit__builder_lang lang;
    int idx = ortkit__builder_classify(cmd, ncmd, &lang);
    char line[8192];
    int n = snprintf(line, sizeof line, "REQ %ld %s %s\n", (long)getpid(),
                     ortkit__builder_lang_name(lang), idx >= 0 ? cmd[idx] : cmd[0]);
    if (n < 0 || (size_t)n >= sizeof line)
        n = snprintf(line, sizeof line, "REQ %ld %s %s\n", (long)getpid(),
                     ortkit__builder_lang_name(lang), ortkit__path_last(cmd[0]));
    char reply[256];
    if (write_all(fd, line, (size_t)n) || read_line(fd, reply, sizeof reply) ||
        strncmp(reply, "GO ", 3)) {
        close(fd);
        fprintf(stderr, "ortkit: the compile gate went away before admitting %s\n",
                idx >= 0 ? cmd[idx] : cmd[0]);
        return 1;
    }
    /* The chain is one of a few known words, each mapped to a fixed
     * program: the gate decides whether, never what, runs. */
    const char *chain;
    if (parse_chain(reply + 3, &chain) != 0) {
        close(fd);
        fprintf(stderr, "ortkit: the compile gate sent a reply ortkit does not know; not compiling %s\n",
                idx >= 0 ? cmd[idx] : cmd[0]);
        return 1;
    }

    int status = 1;
    struct rusage ru;
    double wall = 0;
    memset(&ru, 0, sizeof ru);
    ortkit__builder_cache_outcome outcome = ORTKIT__CACHE_NONE;
    int remote_errors = 0;
    if (run_child(cmd, chain, &status, &ru, &wall, &outcome, &remote_errors) != 0) {
        fprintf(stderr, "ortkit: cannot start '%s': %s\n", cmd[0], strerror(errno));
        status = 127;
    }
    n = snprintf(line, sizeof line, "END %d %.6f %.6f %.6f %ld %s %d\n", status, wall,
                 tv_seconds(ru.ru_utime), tv_seconds(ru.ru_stime), (long)ru.ru_maxrss,
                 ortkit__builder_cache_outcome_name(outcome), remote_errors);
    /* The gate may be gone (interrupted build): the compile's result stands. */
    (void)write_all(fd, line, (size_t)n);
    close(fd);
    if (got_signal) {
        signal(got_signal, SIG_DFL);
        raise(got_signal);
    }
    return status;
}
