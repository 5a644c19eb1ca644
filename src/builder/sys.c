/* sys.c - the builder's error message and small system helpers. */
#include "build.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static _Thread_local char last_error[1024];

const char *ortkit_build_error(void) { return last_error; }

int ortkit_build_fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return code;
}

int ortkit_build_strv_push(ortkit_build_strv *sv, const char *s)
{
    if (sv->n + 2 > sv->cap) {
        size_t cap = sv->cap ? sv->cap * 2 : 16;
        char **v = realloc(sv->v, cap * sizeof *v);
        if (!v)
            return ortkit_build_fail(ORTKIT_E_NOMEM, "out of memory");
        sv->v = v;
        sv->cap = cap;
    }
    if (!(sv->v[sv->n] = strdup(s ? s : "")))
        return ortkit_build_fail(ORTKIT_E_NOMEM, "out of memory");
    sv->v[++sv->n] = NULL;
    return 0;
}

int ortkit_build_strv_pushf(ortkit_build_strv *sv, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (n < 0)
        return ortkit_build_fail(ORTKIT_E_NOMEM, "out of memory");
    int rc = ortkit_build_strv_push(sv, s);
    free(s);
    return rc;
}

void ortkit_build_strv_free(ortkit_build_strv *sv)
{
    for (size_t i = 0; i < sv->n; i++)
        free(sv->v[i]);
    free(sv->v);
    sv->v = NULL;
    sv->n = sv->cap = 0;
}

int ortkit_build_parse_size(const char *s, uint64_t *out)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || !(v >= 0) || isinf(v))
        return -1;
    while (*end == ' ')
        end++;
    double mul = 1;
    switch (toupper((unsigned char)*end)) {
    case 'K': mul = (double)OB_KiB; end++; break;
    case 'M': mul = (double)OB_MiB; end++; break;
    case 'G': mul = (double)OB_GiB; end++; break;
    case 'T': mul = (double)OB_GiB * 1024; end++; break;
    case '\0': break;
    case 'B': break;
    default: return -1;
    }
    /* "G", "GB", "GiB", "g" all mean binary units: memory is counted in pages. */
    if (mul > 1 && (*end == 'i' || *end == 'I'))
        end++;
    if (*end == 'B' || *end == 'b')
        end++;
    if (*end)
        return -1;
    double bytes = v * mul;
    if (bytes > 1.8e19)
        return -1;
    *out = (uint64_t)bytes;
    return 0;
}

void ortkit_build_format_size(char *buf, size_t size, uint64_t bytes)
{
    double b = (double)bytes;
    if (b >= (double)OB_GiB)
        snprintf(buf, size, "%.2f GiB", b / (double)OB_GiB);
    else if (b >= (double)OB_MiB)
        snprintf(buf, size, "%.0f MiB", b / (double)OB_MiB);
    else if (b >= (double)OB_KiB)
        snprintf(buf, size, "%.0f KiB", b / (double)OB_KiB);
    else
        snprintf(buf, size, "%llu B", (unsigned long long)bytes);
}

double ortkit_build_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int ortkit_build_meminfo(uint64_t *available, uint64_t *total)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return ortkit_build_fail(ORTKIT_E_IO, "cannot read /proc/meminfo: %s", strerror(errno));
    char line[256];
    unsigned long long kb;
    int found = 0;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
            if (available)
                *available = (uint64_t)kb * 1024;
            found |= 1;
        } else if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) {
            if (total)
                *total = (uint64_t)kb * 1024;
            found |= 2;
        }
    }
    fclose(f);
    if (found != 3)
        return ortkit_build_fail(ORTKIT_E_IO, "/proc/meminfo has no MemAvailable/MemTotal");
    return 0;
}

int ortkit_build_nproc(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int ortkit_build_read_file(char **out, const char *path, size_t max)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return ortkit_build_fail(ORTKIT_E_IO, "cannot open '%s': %s", path, strerror(errno));
    char *buf = malloc(max + 1);
    if (!buf) {
        fclose(f);
        return ortkit_build_fail(ORTKIT_E_NOMEM, "out of memory");
    }
    size_t n = fread(buf, 1, max, f);
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        return ortkit_build_fail(ORTKIT_E_IO, "cannot read '%s'", path);
    }
    buf[n] = '\0';
    *out = buf;
    return 0;
}

int ortkit_build_write_atomic(const char *path, const char *data, size_t size)
{
    char tmp[PATH_MAX];
    if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof tmp)
        return ortkit_build_fail(ORTKIT_E_IO, "path too long: '%s'", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0)
        return ortkit_build_fail(ORTKIT_E_IO, "cannot write '%s': %s", tmp, strerror(errno));
    size_t off = 0;
    while (off < size) {
        ssize_t w = write(fd, data + off, size - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = errno;
            close(fd);
            unlink(tmp);
            return ortkit_build_fail(ORTKIT_E_IO, "cannot write '%s': %s", path, strerror(e));
        }
        off += (size_t)w;
    }
    if (fsync(fd) != 0 || close(fd) != 0) {
        int e = errno;
        unlink(tmp);
        return ortkit_build_fail(ORTKIT_E_IO, "cannot write '%s': %s", path, strerror(e));
    }
    if (rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return ortkit_build_fail(ORTKIT_E_IO, "cannot rename '%s' to '%s': %s", tmp, path,
                                 strerror(e));
    }
    return 0;
}

int ortkit_build_mkdirs(const char *path)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return ortkit_build_fail(ORTKIT_E_IO, "path too long: '%s'", path);
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return ortkit_build_fail(ORTKIT_E_IO, "cannot create directory '%s': %s", buf,
                                         strerror(errno));
            *p = c;
            if (!c)
                break;
        }
    }
    return 0;
}

char *ortkit_build_abspath(const char *path)
{
    char cwd[PATH_MAX], joined[PATH_MAX * 2];
    if (path[0] == '/') {
        snprintf(joined, sizeof joined, "%s", path);
    } else {
        if (!getcwd(cwd, sizeof cwd))
            return NULL;
        snprintf(joined, sizeof joined, "%s/%s", cwd, path);
    }
    /* Normalise "." and ".." and repeated slashes lexically: the directory
     * may not exist yet, so realpath() cannot be used. */
    char *out = malloc(strlen(joined) + 2);
    if (!out)
        return NULL;
    size_t n = 0;
    for (const char *p = joined; *p;) {
        while (*p == '/')
            p++;
        const char *e = p;
        while (*e && *e != '/')
            e++;
        size_t len = (size_t)(e - p);
        if (len == 0)
            break;
        if (len == 1 && p[0] == '.') {
        } else if (len == 2 && p[0] == '.' && p[1] == '.') {
            while (n > 0 && out[n - 1] != '/')
                n--;
            if (n > 0)
                n--;
        } else {
            out[n++] = '/';
            memcpy(out + n, p, len);
            n += len;
        }
        p = e;
    }
    if (n == 0)
        out[n++] = '/';
    out[n] = '\0';
    return out;
}

char *ortkit_build_which(const char *program)
{
    if (strchr(program, '/'))
        return access(program, X_OK) == 0 ? strdup(program) : NULL;
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    char buf[PATH_MAX];
    for (const char *p = path;;) {
        const char *e = strchr(p, ':');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len && snprintf(buf, sizeof buf, "%.*s/%s", (int)len, p, program) < (int)sizeof buf) {
            struct stat st;
            if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0)
                return strdup(buf);
        }
        if (!e)
            break;
        p = e + 1;
    }
    return NULL;
}

int ortkit_build_run(const char *const *argv, char **output, int *status)
{
    int fds[2];
    if (output)
        *output = NULL;
    if (pipe2(fds, O_CLOEXEC) != 0)
        return ortkit_build_fail(ORTKIT_E_IO, "pipe: %s", strerror(errno));
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return ortkit_build_fail(ORTKIT_E_IO, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, 0);
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        execvp(argv[0], (char *const *)argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    size_t cap = 64 * 1024, len = 0;
    char *buf = malloc(cap + 1);
    char sink[4096];
    for (;;) {
        char *dst = buf && len < cap ? buf + len : sink;
        size_t room = buf && len < cap ? cap - len : sizeof sink;
        ssize_t r = read(fds[0], dst, room);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        if (dst != sink)
            len += (size_t)r;
    }
    close(fds[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (status)
        *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    if (buf)
        buf[len] = '\0';
    if (output)
        *output = buf;
    else
        free(buf);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127 && len == 0)
        return ortkit_build_fail(ORTKIT_E_IO, "cannot run %s", argv[0]);
    return 0;
}

char *ortkit_build_shell_quote(const char *s)
{
    int plain = *s != '\0';
    for (const char *p = s; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("-_=+./:,@%^", *p))
            plain = 0;
    if (plain)
        return strdup(s);
    size_t n = 3;
    for (const char *p = s; *p; p++)
        n += *p == '\'' ? 4 : 1;
    char *out = malloc(n), *o = out;
    if (!out)
        return NULL;
    *o++ = '\'';
    for (const char *p = s; *p; p++) {
        if (*p == '\'') {
            memcpy(o, "'\\''", 4);
            o += 4;
        } else {
            *o++ = *p;
        }
    }
    *o++ = '\'';
    *o = '\0';
    return out;
}
