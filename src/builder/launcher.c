/*
 * launcher.c - `ortkit build --launch STATE_DIR COMPILER ARGS...`, the
 * CMAKE_<LANG>_COMPILER_LAUNCHER (and _LINKER_LAUNCHER) of a gated build.
 *
 * Protocol with the gate (a stream socket in the abstract namespace, named
 * after the state directory), one line each way:
 *     launcher: REQ <pid> <lang> <path>
 *     gate:     GO <chain>            (when admitted; chain "-", "ccache", ...)
 *     launcher: END <status> <wall_s> <user_s> <sys_s> <maxrss_kb>
 * The reservation lives exactly as long as the connection: a launcher that
 * is killed closes it, and the gate releases what it held.  The compiler is
 * started with PR_SET_PDEATHSIG, so it does not outlive a killed launcher.
 *
 * With no gate listening (ninja run by hand in the build directory), the
 * compiler runs at once, ungated.
 */
#include "builder.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

size_t ortkit__builder_gate_sockaddr(struct sockaddr_un *sa, const char *state_dir)
{
    /* In the abstract namespace (sun_path starts with a NUL), named
     * "ortkit-gate-<FNV-1a of the state directory>": a short fixed-size name
     * keeps long build paths out of sun_path. */
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char *p = (const unsigned char *)state_dir; *p; p++) {
        h ^= *p;
        h *= 1099511628211ull;
    }
    memset(sa, 0, sizeof *sa);
    sa->sun_family = AF_UNIX;
    int n = snprintf(sa->sun_path + 1, sizeof sa->sun_path - 1, "ortkit-gate-%016llx",
                     (unsigned long long)h);
    return offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
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
    const char *cc = base_name(argv[0]);
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

static int connect_gate(const char *state_dir)
{
    struct sockaddr_un sa;
    socklen_t len = (socklen_t)ortkit__builder_gate_sockaddr(&sa, state_dir);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    if (connect(fd, (struct sockaddr *)&sa, len) != 0) {
        close(fd);
        return -1;
    }
    return fd;
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

static volatile sig_atomic_t got_signal;

static void on_signal(int sig) { got_signal = sig; }

static double tv_seconds(struct timeval tv) { return (double)tv.tv_sec + (double)tv.tv_usec / 1e6; }

/* Run the compiler (through the chain) as a child; the launcher waits so
 * that RUSAGE_CHILDREN covers the compiler and every process it waited for
 * (cc1plus, as): ru_maxrss is then the largest of them. */
static int run_child(char **cmd, const char *chain, int *status, struct rusage *ru, double *wall)
{
    const char *pre[2] = {NULL, NULL};
    if (chain && !strcmp(chain, "ccache"))
        pre[0] = "ccache";
    else if (chain && !strcmp(chain, "distcc"))
        pre[0] = "distcc";
    else if (chain && !strcmp(chain, "ccache+distcc"))
        pre[0] = "ccache";
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
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: waitpid returns to see it */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    double t0 = ortkit__clock_now();
    pid_t pid = fork();
    if (pid < 0) {
        free(argv);
        return -1;
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() == 1)
            _exit(128 + SIGKILL);
        if (chain && !strcmp(chain, "ccache+distcc"))
            setenv("CCACHE_PREFIX", "distcc", 1);
        execvp(argv[0], argv);
        fprintf(stderr, "ortkit: cannot run '%s': %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    free(argv);
    /* An interrupt (ninja's SIGINT to this process group, a SIGTERM) is
     * passed to the compiler and waited for: when the launcher is gone, so
     * is its compiler, and the gate knows the memory is free. */
    int st = 0, forwarded = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
        if (got_signal && !forwarded) {
            kill(pid, got_signal);
            forwarded = 1;
        }
    }
    *wall = ortkit__clock_now() - t0;
    getrusage(RUSAGE_CHILDREN, ru);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
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

    int fd = connect_gate(state);
    if (fd < 0) {
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
                     ortkit__builder_lang_name(lang), base_name(cmd[0]));
    char reply[256];
    if (write_all(fd, line, (size_t)n) || read_line(fd, reply, sizeof reply) ||
        strncmp(reply, "GO ", 3)) {
        close(fd);
        fprintf(stderr, "ortkit: the compile gate went away before admitting %s\n",
                idx >= 0 ? cmd[idx] : cmd[0]);
        return 1;
    }
    const char *chain = reply + 3;
    if (!strcmp(chain, "-"))
        chain = NULL;

    int status = 1;
    struct rusage ru;
    double wall = 0;
    memset(&ru, 0, sizeof ru);
    if (run_child(cmd, chain, &status, &ru, &wall) != 0) {
        fprintf(stderr, "ortkit: cannot start '%s': %s\n", cmd[0], strerror(errno));
        status = 127;
    }
    n = snprintf(line, sizeof line, "END %d %.6f %.6f %.6f %ld\n", status, wall,
                 tv_seconds(ru.ru_utime), tv_seconds(ru.ru_stime), (long)ru.ru_maxrss);
    /* The gate may be gone (interrupted build): the compile's result stands. */
    (void)write_all(fd, line, (size_t)n);
    close(fd);
    if (got_signal) {
        signal(got_signal, SIG_DFL);
        raise(got_signal);
    }
    return status;
}
