/*
 * provider_probe.c - whether a GPU provider can be added is decided in a
 * separate process: libexec/ortkit/ortkit-probe, started with posix_spawn
 * (never fork: the caller may be threaded), with a time limit.  A driver
 * library that crashes while the provider registers kills the probe, not
 * the caller.  The answer is cached per runtime + host, so programs pay
 * the probe once, not on every open.
 *
 * A runtime linked into the program is probed through the library file
 * that holds it; one inside the executable cannot be, and its GPU providers
 * are refused with the reason.
 *
 * The cache key is a SHA-256 over what decides the answer and is cheap to
 * read: the runtime and provider files (path, device, inode, size, times),
 * the provider and its options, the driver (/proc/driver/nvidia/version)
 * and its GPUs (/proc/driver/nvidia/gpus/<bus>/information), where
 * libraries are looked for (LD_LIBRARY_PATH and its directories' times,
 * /etc/ld.so.cache), CUDA_VISIBLE_DEVICES, and ortkit's version.
 */
#include "provider_probe.h"
#include "ort_library.h"
#include "elf_reader.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

#define CACHE_MAGIC "ortkit-probe-cache 1\n"
#define OUTPUT_MAX ((size_t)64 << 10)

/* ---- the cache key ---------------------------------------------------------- */

static void hash_text(ortkit__sha256_ctx *md, const char *label, const char *text)
{
    ortkit__sha256_update(md, label, strlen(label) + 1);
    ortkit__sha256_update(md, text ? text : "", text ? strlen(text) + 1 : 0);
}

static void hash_stat(ortkit__sha256_ctx *md, const char *path)
{
    struct stat st;
    char buf[256] = "absent";
    if (stat(path, &st) == 0)
        snprintf(buf, sizeof buf, "%llu:%llu:%lld:%lld.%ld:%lld.%ld",
                 (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
                 (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
                 (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
    hash_text(md, path, buf);
}

static void hash_file(ortkit__sha256_ctx *md, const char *path)
{
    char *text = NULL;
    size_t n = 0;
    if (ortkit__file_read(&text, &n, path, 64 << 10) == 0)
        hash_text(md, path, text);
    else
        hash_text(md, path, "absent");
    free(text);
}

static int cache_key(char hex[65], const ortkit_runtime *rt, const ortkit__probe_request *req,
                     const char *options)
{
    ortkit__sha256_ctx h = {0}, *md = &h;
    unsigned char sum[ORTKIT__SHA256_SIZE];
    if (ortkit__sha256_init(md))
        return -1;
    hash_text(md, "ortkit", ORTKIT_VERSION_STRING);
    hash_stat(md, rt->path);
    hash_stat(md, req->provider_path);
    hash_text(md, "provider", req->ort_name);
    hash_text(md, "options", options);
    hash_file(md, "/proc/driver/nvidia/version");
    DIR *gpus = opendir("/proc/driver/nvidia/gpus");
    for (struct dirent *e; gpus && (e = readdir(gpus));) {
        char info[PATH_MAX];
        if (e->d_name[0] != '.' &&
            !ortkit__pathf(info, sizeof info, "/proc/driver/nvidia/gpus/%s/information", e->d_name))
            hash_file(md, info);
    }
    if (gpus)
        closedir(gpus);
    const char *lib_path = ortkit__env("LD_LIBRARY_PATH");
    hash_text(md, "LD_LIBRARY_PATH", lib_path);
    hash_text(md, "CUDA_VISIBLE_DEVICES", ortkit__env("CUDA_VISIBLE_DEVICES"));
    hash_text(md, "ORTKIT_GPU_PROBE", ortkit__env("ORTKIT_GPU_PROBE"));
    for (ortkit__path_list it = {.rest = lib_path}; ortkit__path_list_next(&it);) {
        char d[PATH_MAX];
        if (ortkit__path_list_entry(&it, d, sizeof d) == 0)
            hash_stat(md, d); /* a library dropped into one changes its times */
    }
    hash_stat(md, "/etc/ld.so.cache");
    if (ortkit__sha256_final(md, sum))
        return -1;
    ortkit__hex(hex, sum, sizeof sum);
    return 0;
}

/* ---- what the probe is told ------------------------------------------------- */

/* Libraries every program has; the provider's own dependencies are the rest. */
static int system_library(const char *soname)
{
    static const char *const prefixes[] = {"libc.so", "libm.so", "libdl.so", "librt.so",
                                           "libpthread.so", "libstdc++.so", "libgcc_s.so",
                                           "ld-linux", "libz.so"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (!strncmp(soname, prefixes[i], strlen(prefixes[i])))
            return 1;
    return 0;
}

/* The provider's ELF facts: its dependencies (into argv from *argc), the
 * CUDA major its libcudart names, whether it loads from its own directory. */
static int read_provider(ortkit__probe_request *req, ortkit__elf *elf)
{
    memset(elf, 0, sizeof *elf);
    if (ortkit__elf_read(elf, req->provider_path))
        return -1;
    req->origin = (elf->runpath && ortkit__elf_origin(elf->runpath)) ||
                  (elf->rpath && ortkit__elf_origin(elf->rpath));
    for (size_t i = 0; i < elf->needed_count; i++) {
        int major;
        if (sscanf(elf->needed[i], "libcudart.so.%d", &major) == 1)
            req->cuda_major = major;
    }
    return 0;
}

/* environ with ORTKIT_GPU_PROBE=off: the probe's own session trusts. */
static char **probe_environ(void)
{
    size_t n = 0;
    while (environ && environ[n])
        n++;
    char **env = calloc(n + 2, sizeof *env);
    size_t k = 0;
    for (size_t i = 0; env && i < n; i++)
        if (strncmp(environ[i], "ORTKIT_GPU_PROBE=", 17))
            env[k++] = environ[i];
    if (env)
        env[k] = (char *)"ORTKIT_GPU_PROBE=off";
    return env;
}

static double probe_timeout(void)
{
    const char *t = ortkit__env("ORTKIT_GPU_PROBE_TIMEOUT");
    double s = t ? strtod(t, NULL) : 0;
    return s > 0 ? s : 120.0;
}

/* Run the probe: *output, *status, *timed_out.  Negative when it cannot run. */
static int run_probe(const ortkit_runtime *rt, const ortkit__probe_request *req,
                     const ortkit__elf *elf, const char *options, char **output, int *status,
                     int *timed_out, double timeout_s)
{
    char provider[512];
    snprintf(provider, sizeof provider, "%s%s%s", req->ort_name, options[0] ? ":" : "", options);
    size_t n = 0;
    const char **args = calloc(elf->needed_count + 10, sizeof *args);
    char **env = probe_environ();
    ortkit__probe_answer a = {0};
    int rc = ORTKIT_E_NOMEM;
    if (!args || !env)
        goto cleanup;
    args[n++] = rt->path;
    args[n++] = provider;
    if (req->origin) {
        args[n++] = "--origin";
        args[n++] = req->provider_dir;
    }
    if (req->cuda_major)
        args[n++] = "--cudnn";
    args[n++] = "--";
    int libcuda = 0;
    for (size_t i = 0; i < elf->needed_count; i++) {
        if (!system_library(elf->needed[i]))
            args[n++] = elf->needed[i];
        libcuda |= !strcmp(elf->needed[i], "libcuda.so.1");
    }
    if (!libcuda && req->cuda_major) /* the CUDA runtime loads the driver's library itself */
        args[n++] = "libcuda.so.1";
    if ((rc = ortkit__probe_run(&a, args, env, timeout_s, 0)) == 0) {
        *output = a.output;
        a.output = NULL;
        *status = a.status;
        *timed_out = a.timed_out;
    }
cleanup:
    ortkit__probe_answer_free(&a);
    free(args);
    free(env);
    return rc;
}

/* ---- the prober -------------------------------------------------------------- */

static void cache_path(char *buf, size_t size, const char *key)
{
    char dir[PATH_MAX];
    buf[0] = '\0';
    if (ortkit__cache_dir(dir, sizeof dir, "probe") == 0 &&
        ortkit__pathf(buf, size, "%s/%s", dir, key))
        buf[0] = '\0';
}

/* A cached answer: "ortkit-probe-cache 1\nSTATUS TIMED_OUT\n" and the output. */
static int cache_read(const char *file, char **output, int *status, int *timed_out)
{
    char *text = NULL;
    size_t n = 0;
    if (!file[0] || ortkit__file_read(&text, &n, file, OUTPUT_MAX))
        return -1;
    size_t magic = strlen(CACHE_MAGIC);
    char *body;
    if (n < magic || memcmp(text, CACHE_MAGIC, magic) ||
        sscanf(text + magic, "%d %d", status, timed_out) != 2 ||
        !(body = strchr(text + magic, '\n'))) {
        free(text);
        return -1;
    }
    memmove(text, body + 1, strlen(body + 1) + 1);
    *output = text;
    return 0;
}

static void cache_write(const char *file, const char *output, int status, int timed_out)
{
    if (!file[0])
        return;
    size_t size = strlen(output) + 64;
    char *text = malloc(size);
    if (!text)
        return;
    int n = snprintf(text, size, CACHE_MAGIC "%d %d\n%s", status, timed_out, output);
    if (n > 0)
        (void)ortkit__file_write_atomic(file, text, (size_t)n); /* no cache: probe again next time */
    free(text);
}

int ortkit__provider_probe(const ortkit_runtime *rt, const char *ort_name, const char *lib,
                           const char *options, ortkit__probe_verdict *v)
{
    ortkit__probe_request req = {.ort_name = ort_name};
    char provider_path[PATH_MAX], exe[PATH_MAX], key[65], file[PATH_MAX];
    ortkit__elf elf;
    char runtime_dir[PATH_MAX];
    /* The probe loads the runtime from its file; an executable cannot be
     * dlopen()ed, so a runtime linked into one cannot be tried first, and an
     * untried provider is never added behind the caller's back. */
    if (rt->in_executable) {
        snprintf(v->reason, sizeof v->reason,
                 "ONNX Runtime %s is linked into the program '%.400s', and ortkit-probe can only "
                 "try %s in a runtime it loads from a library file; link libonnxruntime.so "
                 "instead of the static library, or set ORTKIT_GPU_PROBE=off to add it unprobed "
                 "(a crash in the driver's libraries then takes the program down)", rt->version,
                 rt->path, ort_name);
        return ORTKIT_OK;
    }
    snprintf(runtime_dir, sizeof runtime_dir, "%s", rt->path);
    snprintf(req.provider_dir, sizeof req.provider_dir, "%s", dirname(runtime_dir));
    if (!lib || ortkit__pathf(provider_path, sizeof provider_path, "%s/%s", req.provider_dir, lib)) {
        snprintf(v->reason, sizeof v->reason, "no provider library for %s", ort_name);
        return ORTKIT_E_INVALID_ARG;
    }
    req.provider_path = provider_path;
    if (read_provider(&req, &elf)) {
        snprintf(v->reason, sizeof v->reason, "the provider library '%.900s' cannot be read: %.400s",
                 provider_path, ortkit__error_message());
        return ORTKIT_E_IO;
    }
    /* Offered as a plugin to a CPU build's core, a bridge provider passes
     * the probe's one node and crashes later: refused before probing. */
    if (!strcmp(v->method, "plugin") && ortkit__bridge_lacks_cuda_core(provider_path, rt->path)) {
        snprintf(v->reason, sizeof v->reason,
                 "ONNX Runtime %s at '%.400s' was built without CUDA, and %.400s beside it is a "
                 "provider-bridge library that needs a core built with CUDA (with this one it crashes "
                 "on If, Loop, Einsum, GatherElements and other shared kernels); use the "
                 "libonnxruntime.so of the same GPU release", rt->version, rt->path, provider_path);
        ortkit__elf_free(&elf);
        return ORTKIT_OK;
    }
    char *output = NULL;
    int status = 0, timed_out = 0, rc = ORTKIT_OK;
    double timeout_s = probe_timeout();
    file[0] = '\0';
    if (cache_key(key, rt, &req, options) == 0)
        cache_path(file, sizeof file, key);
    if (cache_read(file, &output, &status, &timed_out) == 0) {
        snprintf(v->probe, sizeof v->probe, "cached");
    } else if (ortkit__probe_find(exe, sizeof exe) != 0) {
        snprintf(v->reason, sizeof v->reason,
                 "ortkit-probe is not installed beside libortkit (libexec/ortkit/ortkit-probe; "
                 "ORTKIT_PROBE_EXE names another), so %s is not trusted in this process", ort_name);
        rc = ORTKIT_E_IO;
        goto cleanup;
    } else if ((rc = run_probe(rt, &req, &elf, options, &output, &status, &timed_out,
                               timeout_s))) {
        snprintf(v->reason, sizeof v->reason, "the probe could not be run: %s",
                 ortkit__error_message());
        goto cleanup;
    } else {
        snprintf(v->probe, sizeof v->probe, "ran");
        if (!timed_out) /* a hang may be passing (a busy disk): asked again next time */
            cache_write(file, output, status, timed_out);
    }
    ortkit__probe_diagnose(&req, output, status, timed_out, timeout_s, v);
cleanup:
    free(output);
    ortkit__elf_free(&elf);
    return rc;
}
