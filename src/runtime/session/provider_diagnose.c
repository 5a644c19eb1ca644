/*
 * provider_diagnose.c - the probe's answer in words: which library is
 * missing and the CUDA major it must be, where it was looked for and what
 * provides it; the driver against the floor the provider's CUDA needs; "no
 * CUDA-capable device"; a cuDNN built for another CUDA major; a crash while
 * loading.  ONNX Runtime's own message is kept apart, as the detail.
 */
#include "provider_probe.h"

#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Driver floors (NVIDIA's release notes): CUDA 13.x needs 580.65.06; any
 * 12.x runs on 525.60.13 (minor-version compatibility); 11.x on 450.80.02. */
static const char *driver_floor(int cuda_major)
{
    return cuda_major >= 13 ? "580.65.06" : cuda_major == 12 ? "525.60.13"
                                          : cuda_major == 11 ? "450.80.02" : NULL;
}

/* Which package provides a CUDA library, by its soname's stem. */
static const struct provider_of {
    const char *stem, *what, *debian, *pip;
} providers_of[] = {
    {"libcublasLt.so.", "cuBLASLt", "libcublaslt%d", "nvidia-cublas-cu%d"},
    {"libcublas.so.", "cuBLAS", "libcublas%d", "nvidia-cublas-cu%d"},
    {"libcudart.so.", "the CUDA runtime", "libcudart%d", "nvidia-cuda-runtime-cu%d"},
    {"libcurand.so.", "cuRAND", "libcurand10", "nvidia-curand-cu%d"},
    {"libcufft.so.", "cuFFT", "libcufft11", "nvidia-cufft-cu%d"},
    {"libcudnn", "cuDNN 9", "libcudnn9-cuda-%d", "nvidia-cudnn-cu%d"},
    {"libnvinfer", "TensorRT", "libnvinfer10", "tensorrt-cu%d-libs"},
    {"libnvrtc.so.", "NVRTC", "libnvrtc%d", "nvidia-cuda-nvrtc-cu%d"},
};

typedef struct text {
    char *buf;
    size_t size, len;
} text;

static void add(text *t, const char *fmt, ...) ORTKIT_PRINTF(2, 3);
static void add(text *t, const char *fmt, ...)
{
    if (t->len >= t->size)
        return;
    if (t->len)
        t->len += (size_t)snprintf(t->buf + t->len, t->size - t->len, "; ");
    if (t->len >= t->size)
        return;
    va_list ap;
    va_start(ap, fmt);
    t->len += (size_t)vsnprintf(t->buf + t->len, t->size - t->len, fmt, ap);
    va_end(ap);
}

void ortkit__driver_version_parse(char *buf, size_t size, const char *proc_text)
{
    /* The first word of the first line made of digits and dots, with a dot:
     * "x86_64" and "for" are passed over, whichever module wrote it. */
    buf[0] = '\0';
    size_t line = strcspn(proc_text, "\n");
    for (size_t i = 0; i < line;) {
        size_t len = strcspn(proc_text + i, " \t\n");
        if (len && len < size && strspn(proc_text + i, "0123456789.") == len && proc_text[i] != '.' &&
            memchr(proc_text + i, '.', len)) {
            memcpy(buf, proc_text + i, len);
            buf[len] = '\0';
            return;
        }
        i += len ? len : 1;
    }
}

/* The driver kernel module's version ("580.65.06"), or "" without one. */
static void kernel_driver(char *buf, size_t size)
{
    char *v = NULL;
    size_t n = 0;
    buf[0] = '\0';
    if (ortkit__file_read(&v, &n, "/proc/driver/nvidia/version", 64 << 10) == 0)
        ortkit__driver_version_parse(buf, size, v);
    free(v);
}

/* Dotted versions compared part by part. */
static int version_below(const char *have, const char *floor)
{
    while (*have || *floor) {
        long a = strtol(have, (char **)&have, 10), b = strtol(floor, (char **)&floor, 10);
        if (a != b)
            return a < b;
        have += *have == '.';
        floor += *floor == '.';
    }
    return 0;
}

static void missing(text *t, const ortkit__probe_request *req, const char *soname)
{
    const char *ld = ortkit__env("LD_LIBRARY_PATH");
    char where[6144];
    snprintf(where, sizeof where, "looked %s%s%sin LD_LIBRARY_PATH (%s), the ld cache and the "
             "system library directories", req->origin ? "beside the provider in " : "",
             req->origin ? req->provider_dir : "", req->origin ? ", " : "",
             ld && ld[0] ? ld : "unset");
    int major = req->cuda_major;
    if (!strcmp(soname, "libcuda.so.1")) {
        const char *floor = driver_floor(major);
        add(t, "the NVIDIA driver's libcuda.so.1 is not installed (%s): install the NVIDIA driver"
            "%s%s%s", where, floor ? ", " : "", floor ? floor : "", floor ? " or newer" : "");
        return;
    }
    for (size_t i = 0; i < sizeof providers_of / sizeof providers_of[0]; i++) {
        const struct provider_of *p = &providers_of[i];
        if (strncmp(soname, p->stem, strlen(p->stem)))
            continue;
        char debian[64], pip[64];
        snprintf(debian, sizeof debian, p->debian, major);
        snprintf(pip, sizeof pip, p->pip, major);
        if (major)
            add(t, "%s (%s for CUDA %d) not found (%s): Debian's %s or pip's %s provides it, or "
                "a CUDA bundle that carries it", soname, p->what, major, where, debian, pip);
        else
            add(t, "%s (%s) not found (%s)", soname, p->what, where);
        return;
    }
    add(t, "%s not found (%s)", soname, where);
}

/* How the loader found a library: from LD_LIBRARY_PATH, beside the
 * provider, or the ld cache / system directories. */
static const char *found_through(const ortkit__probe_request *req, const char *path)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    if (!strcmp(dir, req->provider_dir))
        return "beside the provider";
    int in_ld = 0;
    ortkit__path_list it = {.rest = ortkit__env("LD_LIBRARY_PATH")};
    while (!in_ld && ortkit__path_list_next(&it))
        in_ld = it.len == strlen(dir) && !strncmp(it.entry, dir, it.len);
    return in_ld ? "through LD_LIBRARY_PATH" : "through the ld cache";
}

static void signal_name(char *buf, size_t size, int sig)
{
    const char *abbrev = ortkit__signal_abbrev(sig);
    snprintf(buf, size, "signal %d%s%s", sig, abbrev ? ", SIG" : "", abbrev ? abbrev : "");
}

void ortkit__probe_diagnose(const ortkit__probe_request *req, const char *output, int status,
                            int timed_out, double timeout_s, ortkit__probe_verdict *v)
{
    text t = {v->reason, sizeof v->reason, 0};
    v->reason[0] = v->detail[0] = '\0';
    char stage[32] = "start", libcuda[PATH_MAX] = "", fail[1024] = "";
    int ok = 0, any_missing = 0;
    char *copy = strdup(output ? output : "");
    for (char *save = NULL, *l = copy ? strtok_r(copy, "\n", &save) : NULL; l;
         l = strtok_r(NULL, "\n", &save)) {
        char *f[4] = {0};
        int n = 0;
        for (char *s2 = NULL, *p = strtok_r(l, "\t", &s2); p && n < 4; p = strtok_r(NULL, "\t", &s2))
            f[n++] = p;
        if (n >= 2 && !strcmp(f[0], "stage")) {
            snprintf(stage, sizeof stage, "%s", f[1]);
        } else if (n >= 3 && !strcmp(f[0], "need")) {
            if (!strcmp(f[2], "missing")) {
                missing(&t, req, f[1]);
                any_missing = 1;
            } else if (!strcmp(f[1], "libcuda.so.1") && n >= 4) {
                snprintf(libcuda, sizeof libcuda, "%s", f[3]);
            }
        } else if (n >= 3 && !strcmp(f[0], "cudnn")) {
            if (!strcmp(f[1], "-")) {
                missing(&t, req, "libcudnn.so.9");
                any_missing = 1;
            } else if (n >= 4 && req->cuda_major) {
                long cudart = strtol(f[2], NULL, 10), version = strtol(f[3], NULL, 10);
                if (cudart >= 1000 && cudart / 1000 != req->cuda_major)
                    add(&t, "libcudnn.so.9 resolved %s to %s, a cuDNN %ld.%ld built for CUDA %ld: "
                        "this provider needs a cuDNN 9 built for CUDA %d (Debian's "
                        "libcudnn9-cuda-%d, pip's nvidia-cudnn-cu%d)",
                        found_through(req, f[1]), f[1], version / 10000, version / 100 % 100,
                        cudart / 1000, req->cuda_major, req->cuda_major, req->cuda_major);
            }
        } else if (n >= 1 && !strcmp(f[0], "ok")) {
            ok = 1;
        } else if (n >= 3 && !strcmp(f[0], "fail")) {
            snprintf(fail, sizeof fail, "%s", f[2]);
        }
    }
    free(copy);

    /* The driver: the kernel module's version, else the user-space library's. */
    char driver[64] = "", lib_version[64] = "";
    kernel_driver(driver, sizeof driver);
    char real[PATH_MAX];
    const char *so = libcuda[0] && realpath(libcuda, real) ? strstr(real, "libcuda.so.") : NULL;
    if (so && strchr(so + 11, '.'))
        snprintf(lib_version, sizeof lib_version, "%s", so + 11);
    const char *floor = driver_floor(req->cuda_major);
    const char *have = driver[0] ? driver : lib_version;

    if (timed_out) {
        add(&t, "the probe did not finish within %.0f s (it hung while loading: %s stage); "
            "ORTKIT_GPU_PROBE_TIMEOUT sets the limit", timeout_s, stage);
    } else if (!ok && !fail[0] &&
               (status > 128 || (strcmp(stage, "libraries") && strcmp(stage, "start")))) {
        /* A probe that ends without an answer died on the way: killed by a
         * signal, or by a handler of its own (a sanitizer's) with a status. */
        char sig[48];
        if (status > 128)
            signal_name(sig, sizeof sig, status - 128);
        else
            snprintf(sig, sizeof sig, "exit status %d without an answer", status);
        add(&t, "the provider crashed while loading (%s, %s stage): the probe process died, this "
            "one did not", sig, stage);
        if (libcuda[0] && !driver[0])
            add(&t, "libcuda.so.1 at %s%s%s%s is installed but no NVIDIA kernel driver is loaded "
                "(no /proc/driver/nvidia/version)", libcuda, lib_version[0] ? " (driver " : "",
                lib_version, lib_version[0] ? ")" : "");
    }
    /* The floor explains a failure; a probe that ran the model outranks it. */
    int below_floor = !ok && floor && have[0] && version_below(have, floor);
    if (below_floor)
        add(&t, "driver %s is older than %s, the floor for CUDA %d", have, floor, req->cuda_major);
    if (fail[0]) {
        /* ORT's CUDA messages open with two C++ signatures: keep from the error on. */
        const char *cuda_error = strstr(fail, "CUDA failure ");
        snprintf(v->detail, sizeof v->detail, "%s", cuda_error ? cuda_error : fail);
        if (strcasestr(fail, "no CUDA-capable device") || strstr(fail, "CUDA failure 100:"))
            add(&t, "no CUDA-capable device is detected (%s%s%s)", libcuda[0] ? "libcuda.so.1 at " : "",
                libcuda, driver[0] ? "" : libcuda[0] ? "; no NVIDIA kernel driver is loaded"
                                                      : "no NVIDIA kernel driver is loaded");
        /* Without libcuda the runtime says "insufficient" too; the missing
         * library has been named, and no driver is not an old one. */
        else if ((strcasestr(fail, "driver version is insufficient") || strstr(fail, "CUDA failure 35:")) &&
                 !below_floor && libcuda[0])
            add(&t, "the NVIDIA driver%s%s is too old for this provider's CUDA %d%s%s%s",
                have[0] ? " " : "", have, req->cuda_major, floor ? " (needs " : "",
                floor ? floor : "", floor ? ")" : "");
        else if (!t.len && !any_missing)
            add(&t, "ONNX Runtime could not add %s", req->ort_name);
    }
    if (!t.len && !ok)
        add(&t, "the probe failed (exit status %d, %s stage) without saying why", status, stage);
    v->usable = t.len == 0 && ok;
    if (v->usable)
        v->detail[0] = '\0';
}
