/*
 * preflight.c - everything that can be known to fail before the first
 * compile: the source tree, tool versions, the compiler accepting the
 * variant's CPU flags, the CUDA toolkit and cuDNN, free disk; and the lock
 * that keeps two builds out of one build directory.
 */
#include "builder_preflight.h"
#include "builder_compiler_cache.h"
#include "builder_plan.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int ortkit__builder_ort_version(char *buf, size_t size, const char *source)
{
    char path[PATH_MAX], *text = NULL;
    if (!is_dir(source))
        return ortkit__error_set(ORTKIT_E_IO, "source '%s' is not a directory", source);
    int rc = ortkit__pathf(path, sizeof path, "%s/VERSION_NUMBER", source);
    if (rc)
        return rc;
    if (!is_file(path))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                 "'%s' is not an ONNX Runtime source tree: it has no VERSION_NUMBER",
                                 source);
    if ((rc = ortkit__file_read(&text, NULL, path, 256)))
        return rc;
    text[strcspn(text, " \t\r\n")] = '\0';
    ortkit__version v;
    const char *rest;
    if (ortkit__version_parse(&v, text, &rest) != 0 || v.n < 3) {
        free(text);
        return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                 "'%s' is not an ONNX Runtime source tree: VERSION_NUMBER holds no "
                                 "version",
                                 source);
    }
    snprintf(buf, size, "%s", text);
    free(text);
    if (ortkit__pathf(path, sizeof path, "%s/cmake/CMakeLists.txt", source) != 0 ||
        ortkit__file_read(&text, NULL, path, 1 << 20) != 0)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                 "'%s' is not an ONNX Runtime source tree: no cmake/CMakeLists.txt",
                                 source);
    int ok = strstr(text, "project(onnxruntime") != NULL;
    free(text);
    if (!ok)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                 "'%s' is not an ONNX Runtime source tree: cmake/CMakeLists.txt "
                                 "is not ONNX Runtime's",
                                 source);
    return 0;
}

/* The first "N.N[.N]" after marker in text. */
static void find_version(char *out, size_t size, const char *text, const char *marker)
{
    out[0] = '\0';
    const char *p = marker ? strstr(text, marker) : text;
    if (!p)
        return;
    p += marker ? strlen(marker) : 0;
    while (*p && !isdigit((unsigned char)*p))
        p++;
    size_t n = 0;
    while ((isdigit((unsigned char)p[n]) || p[n] == '.') && n + 1 < size)
        n++;
    while (n && p[n - 1] == '.')
        n--;
    memcpy(out, p, n);
    out[n] = '\0';
}

static int tool_version(char *out, size_t size, char *where, size_t where_size,
                        const char *tool, const char *marker)
{
    char *path = NULL, *text = NULL;
    if (ortkit__path_which(&path, tool) != 0)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "%s not found on PATH", tool);
    const char *argv[] = {path, "--version", NULL};
    int st = 0, rc = ortkit__spawn(argv, 1, &text, &st);
    if (!rc && st == 0 && text)
        find_version(out, size, text, marker);
    if (where)
        snprintf(where, where_size, "%s", path);
    free(text);
    free(path);
    if (rc || st != 0 || !out[0])
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "cannot tell the version of %s", tool);
    return 0;
}

/* The cmake_minimum_required of a CMakeLists.txt ("3.28"); 3.21 at least,
 * since the linker launcher needs it. */
static void cmake_minimum(char *out, size_t size, const char *lists)
{
    char *text = NULL;
    snprintf(out, size, "3.21");
    if (ortkit__file_read(&text, NULL, lists, 1 << 20) != 0)
        return;
    char v[32];
    find_version(v, sizeof v, text, "cmake_minimum_required(VERSION");
    if (v[0] && ortkit__version_compare(v, out) > 0)
        snprintf(out, size, "%s", v);
    free(text);
}

static int check_compiler(char *version, size_t vsize, const char *env, const char *fallback,
                          const char *lang_flag, const char *ext, const char *flags,
                          const char *scratch, const char *what)
{
    const char *cc = env ? ortkit__env(env) : NULL;
    if (!cc || !*cc)
        cc = fallback;
    char *path = NULL, *text = NULL;
    if (ortkit__path_which(&path, cc) != 0)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "the %s compiler '%s' is not found", what, cc);
    const char *vargv[] = {path, "--version", NULL};
    int st = 0;
    if (ortkit__spawn(vargv, 1, &text, &st) == 0 && text) {
        text[strcspn(text, "\n")] = '\0';
        snprintf(version, vsize, "%s", text);
    }
    free(text);
    text = NULL;

    /* A test compile of an empty file with the variant's flags: a compiler
     * that rejects -march=armv9-a+sve2 fails here, not after an hour. */
    char src[PATH_MAX], obj[PATH_MAX];
    int rc;
    if ((rc = ortkit__pathf(src, sizeof src, "%s/preflight%s", scratch, ext)) ||
        (rc = ortkit__pathf(obj, sizeof obj, "%s/preflight.o", scratch)) ||
        (rc = ortkit__file_write_atomic(src, "int ortkit_preflight;\n", 22))) {
        free(path);
        return rc;
    }
    ortkit__strv argv = {0};
    rc = ortkit__strv_push(&argv, path);
    if (!rc && lang_flag)
        rc = ortkit__strv_push(&argv, lang_flag);
    char *copy = NULL, *save = NULL;
    if (!rc && !(copy = ortkit__strdup(flags)))
        rc = ORTKIT_E_NOMEM;
    for (char *t = copy ? strtok_r(copy, " ", &save) : NULL; !rc && t; t = strtok_r(NULL, " ", &save))
        rc = ortkit__strv_push(&argv, t);
    free(copy);
    if (!rc)
        rc = ortkit__strv_push(&argv, "-c");
    if (!rc)
        rc = ortkit__strv_push(&argv, src);
    if (!rc)
        rc = ortkit__strv_push(&argv, "-o");
    if (!rc)
        rc = ortkit__strv_push(&argv, obj);
    if (!rc)
        rc = ortkit__spawn((const char *const *)argv.v, 1, &text, &st);
    if (!rc && st != 0) {
        const char *msg = text ? text : "";
        size_t len = strcspn(msg, "\n");
        rc = ortkit__error_set(ORTKIT_E_UNSUPPORTED, "the %s compiler %s rejects the flags '%s': %.*s",
                               what, path, flags && *flags ? flags : lang_flag ? lang_flag : "",
                               (int)len, msg);
    }
    unlink(src);
    unlink(obj);
    free(text);
    free(path);
    ortkit__strv_free(&argv);
    return rc;
}

/* The toolkit to check: the caller's, CUDA_HOME, nvcc on PATH, /usr/local/cuda. */
static int find_cuda(char *home, size_t size, const char *given)
{
    const char *env = ortkit__env("CUDA_HOME");
    if (given)
        snprintf(home, size, "%s", given);
    else if (env && *env)
        snprintf(home, size, "%s", env);
    else {
        char *nvcc = NULL;
        if (ortkit__path_which(&nvcc, "nvcc") == 0) {
            char *slash = strrchr(nvcc, '/');
            *slash = '\0';
            slash = strrchr(nvcc, '/');
            if (slash)
                *slash = '\0';
            snprintf(home, size, "%s", nvcc);
            free(nvcc);
        } else {
            snprintf(home, size, "/usr/local/cuda");
        }
    }
    char nvcc[PATH_MAX];
    int rc = ortkit__pathf(nvcc, sizeof nvcc, "%s/bin/nvcc", home);
    if (rc)
        return rc;
    if (access(nvcc, X_OK) != 0)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED,
                                 "no CUDA toolkit: %s not found (set CUDA_HOME or --cuda-home)", nvcc);
    return 0;
}

static int check_cuda(const ortkit__builder_preflight *pf, ortkit__builder_toolchain *tc, char *home,
                      size_t hsize, char *cudnn_home, size_t csize)
{
    const ortkit_variant *v = pf->variant;
    int rc = find_cuda(home, hsize, pf->cuda_home);
    if (rc)
        return rc;
    char nvcc[PATH_MAX], *text = NULL;
    if ((rc = ortkit__pathf(nvcc, sizeof nvcc, "%s/bin/nvcc", home)))
        return rc;
    const char *argv[] = {nvcc, "--version", NULL};
    int st = 0;
    if (ortkit__spawn(argv, 1, &text, &st) == 0 && st == 0 && text)
        find_version(tc->nvcc, sizeof tc->nvcc, text, "release");
    free(text);
    if (!tc->nvcc[0])
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "%s --version names no release", nvcc);
    char want[16];
    snprintf(want, sizeof want, "%d.%d", v->cuda / 1000, (v->cuda % 1000) / 10);
    if (strcmp(tc->nvcc, want) != 0)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED,
                                 "variant %s needs CUDA %s, but the toolkit in %s is CUDA %s", v->name,
                                 want, home, tc->nvcc);

    /* cuDNN: its version header, wherever the toolkit or the system put it. */
    const char *env = ortkit__env("CUDNN_HOME");
    const char *cands[] = {env && *env ? env : NULL, home, "/usr", NULL};
    const char *subdirs[] = {"include", "include/x86_64-linux-gnu", "include/aarch64-linux-gnu"};
    for (size_t i = 0; i < 3; i++) {
        if (!cands[i])
            continue;
        for (size_t k = 0; k < 3; k++) {
            char hdr[PATH_MAX];
            if (ortkit__pathf(hdr, sizeof hdr, "%s/%s/cudnn_version.h", cands[i], subdirs[k]) ||
                ortkit__file_read(&text, NULL, hdr, 1 << 16) != 0)
                continue;
            char maj[8] = "", min[8] = "", pat[8] = "";
            find_version(maj, sizeof maj, text, "#define CUDNN_MAJOR");
            find_version(min, sizeof min, text, "#define CUDNN_MINOR");
            find_version(pat, sizeof pat, text, "#define CUDNN_PATCHLEVEL");
            free(text);
            snprintf(tc->cudnn, sizeof tc->cudnn, "%s.%s.%s", maj, min, pat);
            snprintf(cudnn_home, csize, "%s", cands[i]);
            return 0;
        }
    }
    return ortkit__error_set(ORTKIT_E_UNSUPPORTED,
                             "cuDNN not found: no cudnn_version.h under %s%s%s or /usr (set "
                             "CUDNN_HOME)",
                             home, env && *env ? ", " : "", env && *env ? env : "");
}

static int check_disk(const char *build_dir, uint64_t need)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", build_dir);
    struct statvfs vfs;
    /* The build directory may not exist yet: ask its nearest existing parent. */
    while (statvfs(dir, &vfs) != 0) {
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir) {
            snprintf(dir, sizeof dir, "/");
            if (statvfs(dir, &vfs) != 0)
                return 0;
            break;
        }
        *slash = '\0';
    }
    uint64_t avail = (uint64_t)vfs.f_bavail * (uint64_t)vfs.f_frsize;
    if (avail < need) {
        char a[32], b[32];
        ortkit__human_memory(a, sizeof a, avail);
        ortkit__human_memory(b, sizeof b, need);
        return ortkit__error_set(ORTKIT_E_IO, "not enough free disk for %s: %s free, needs %s",
                                 build_dir, a, b);
    }
    return 0;
}

int ortkit__builder_heavy_compilers(char *buf, size_t size, size_t *count)
{
    static const char *const heavy[] = {"cc1plus", "cc1", "nvcc", "cicc", "ptxas", "clang++",
                                        "clang", "lto1", NULL};
    size_t n = 0, len = 0;
    buf[0] = '\0';
    DIR *d = opendir("/proc");
    if (!d) {
        *count = 0;
        return 0;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        char path[300], comm[64] = "";
        snprintf(path, sizeof path, "/proc/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        if (fgets(comm, sizeof comm, f))
            comm[strcspn(comm, "\n")] = '\0';
        fclose(f);
        for (size_t i = 0; heavy[i]; i++) {
            if (strcmp(comm, heavy[i]) != 0)
                continue;
            if (len < size)
                len += (size_t)snprintf(buf + len, size - len, "%s%s (pid %s)", n ? ", " : "",
                                        comm, e->d_name);
            n++;
            break;
        }
    }
    closedir(d);
    *count = n;
    return 0;
}

/* ccache's version, and (--cache-remote) whether it can reach the remote:
 * a back end it was built with, and the server answering (a warning: the
 * build works without it, only slower). */
static int check_ccache(ortkit__builder_toolchain *tc, const char *path,
                        const ortkit__builder_cache_remote *remote, void (*warn)(const char *msg))
{
    const char *argv[] = {path, "--version", NULL};
    char *text = NULL;
    int st = 0, rc = ortkit__spawn(argv, 1, &text, &st);
    if (!rc)
        rc = ortkit__builder_ccache_check(st == 0 ? text : NULL, remote, tc->ccache, sizeof tc->ccache);
    free(text);
    if (rc || !remote)
        return rc;
    if (ortkit__builder_cache_remote_reach(remote, 2000) != 0 && warn) {
        char msg[1600];
        snprintf(msg, sizeof msg, "--cache-remote %s: %s; ccache compiles without it (every "
                 "compile a miss) until it answers", remote->shown, ortkit__error_message());
        warn(msg);
    }
    return 0;
}

int ortkit__builder_preflight_run(const ortkit__builder_preflight *pf, ortkit__builder_toolchain *tc,
                                  char *found_cuda_home, size_t cuda_size, char *found_cudnn_home,
                                  size_t cudnn_size, void (*warn)(const char *msg))
{
    int rc;
    char lists[PATH_MAX], need[32], scratch[PATH_MAX], ver[32];
    memset(tc, 0, sizeof *tc);
    int ort = pf->kind == ORTKIT__BUILD_ORT;
    if (ort && (rc = ortkit__builder_ort_version(ver, sizeof ver, pf->source)))
        return rc;
    snprintf(lists, sizeof lists, "%s%s/CMakeLists.txt", pf->source, ort ? "/cmake" : "");
    if (!ort && !is_file(lists))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "'%s' has no CMakeLists.txt", pf->source);

    /* Disk before anything writes to the build directory. */
    uint64_t min_disk = pf->min_disk ? pf->min_disk
                        : !ort       ? 256 * ORTKIT__MiB
                        : pf->variant && pf->variant->cuda ? 20 * ORTKIT__GiB
                                                           : 6 * ORTKIT__GiB;
    if ((rc = check_disk(pf->build_dir, min_disk)))
        return rc;

    cmake_minimum(need, sizeof need, lists);
    if ((rc = tool_version(tc->cmake, sizeof tc->cmake, tc->cmake_path, sizeof tc->cmake_path,
                           "cmake", "version")))
        return rc;
    if (ortkit__version_compare(tc->cmake, need) < 0)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "cmake %s is too old: %s needs %s or newer",
                                 tc->cmake, ort ? "this ONNX Runtime" : "this project", need);
    if ((rc = tool_version(tc->ninja, sizeof tc->ninja, tc->ninja_path, sizeof tc->ninja_path,
                           "ninja", NULL)))
        return rc;
    if (ortkit__version_compare(tc->ninja, "1.10.0") < 0)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "ninja %s is too old: 1.10 or newer is needed",
                                 tc->ninja);
    char *found = NULL;
    if (pf->cache_ccache && ortkit__path_which(&found, "ccache") != 0)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "--cache ccache: ccache not found on PATH");
    if (found && (rc = check_ccache(tc, found, pf->cache_remote, warn))) {
        free(found);
        return rc;
    }
    free(found);
    found = NULL;
    if (pf->distcc_hosts && ortkit__path_which(&found, "distcc") != 0)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "--distcc: distcc not found on PATH");
    free(found);

    /* --ops-from runs ORT's reduce_op_kernels.py, which imports flatbuffers
     * only to fail half-way through the configure step without it. */
    if (ort && pf->reduce_ops) {
        const char *argv[] = {"python3", "-c", "import flatbuffers", NULL};
        int status = 1;
        if (ortkit__spawn(argv, 0, NULL, &status) != 0 || status != 0)
            return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "--ops-from runs ONNX Runtime's "
                                     "tools/ci_build/reduce_op_kernels.py, which needs python3 with "
                                     "the flatbuffers module (Debian: python3-flatbuffers)");
    }
    if ((rc = ortkit__pathf(scratch, sizeof scratch, "%s/.ortkit", pf->build_dir)) ||
        (rc = ortkit__mkdirs(scratch)))
        return rc;
    const char *flags = ort && pf->variant ? pf->variant->cpu_flags : "";
    /* A cross build's compilers are the prefixed ones its toolchain names
     * (CC and CXX name this machine's, for the host protoc). */
    char cross_cc[96], cross_cxx[96];
    if (pf->cross_prefix) {
        snprintf(cross_cc, sizeof cross_cc, "%sgcc", pf->cross_prefix);
        snprintf(cross_cxx, sizeof cross_cxx, "%sg++", pf->cross_prefix);
    }
    if ((rc = check_compiler(tc->cc, sizeof tc->cc, pf->cross_prefix ? NULL : "CC",
                             pf->cross_prefix ? cross_cc : "cc", NULL, ".c", flags, scratch, "C")) ||
        (rc = check_compiler(tc->cxx, sizeof tc->cxx, pf->cross_prefix ? NULL : "CXX",
                             pf->cross_prefix ? cross_cxx : "c++", ort ? "-std=c++17" : NULL,
                             ".cc", flags, scratch, "C++")))
        return rc;
    if (ort && pf->variant && pf->variant->cuda &&
        (rc = check_cuda(pf, tc, found_cuda_home, cuda_size, found_cudnn_home, cudnn_size)))
        return rc;

    char others[1024];
    size_t count = 0;
    ortkit__builder_heavy_compilers(others, sizeof others, &count);
    if (count && warn) {
        char msg[1200];
        snprintf(msg, sizeof msg,
                 "%zu compiler%s already running: %s; the gate counts only its own compiles but "
                 "holds back while the system's available memory is low",
                 count, count == 1 ? " is" : "s are", others);
        warn(msg);
    }
    return 0;
}

/* ---- the build directory's lock ------------------------------------------ */

int ortkit__builder_lock_take(ortkit__builder_lock *lock, const char *state_dir)
{
    char path[PATH_MAX];
    lock->fd = -1;
    int rc = ortkit__mkdirs(state_dir);
    if (rc || (rc = ortkit__pathf(path, sizeof path, "%s/lock", state_dir)))
        return rc;
    /* O_CLOEXEC: a compiler that outlives us must not keep the lock. */
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot open '%s': %s", path, strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        char holder[32] = "";
        ssize_t r = pread(fd, holder, sizeof holder - 1, 0);
        holder[r > 0 ? r : 0] = '\0';
        holder[strcspn(holder, "\n")] = '\0';
        close(fd);
        /* Name the build directory, not its .ortkit state inside. */
        size_t n = strlen(state_dir);
        if (n > 8 && !strcmp(state_dir + n - 8, "/.ortkit"))
            n -= 8;
        return ortkit__error_set(ORTKIT_E_IO,
                                 "build directory %.*s is in use by another ortkit build (pid %s)",
                                 (int)n, state_dir, holder[0] ? holder : "?");
    }
    char pid[32];
    int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
        close(fd);
        return ortkit__error_set(ORTKIT_E_IO, "cannot write '%s'", path);
    }
    lock->fd = fd;
    return 0;
}

void ortkit__builder_lock_release(ortkit__builder_lock *lock)
{
    if (lock->fd >= 0) {
        if (ftruncate(lock->fd, 0) != 0) {
            /* The flock is what counts; a stale PID in the file is harmless. */
        }
        close(lock->fd);
    }
    lock->fd = -1;
}
