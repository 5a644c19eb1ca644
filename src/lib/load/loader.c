/*
 * loader.c - load one libonnxruntime and hand-shake with it: a path in, a
 * loaded runtime out.  Which path is the resolver's business (resolve.c).
 * Every dlopen/dlsym of ONNX Runtime in ortkit is in this file.
 */
#include "runtime.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Names dlopen searches for when no path was resolved, best last. */
static const char *const lib_names[] = {"libonnxruntime.so", "libonnxruntime.so.1"};

int ortkit__ort_error(const ortkit_runtime *rt, OrtStatus *status, int code, const char *prefix_fmt,
                      ...)
{
    char prefix[512];
    va_list ap;
    va_start(ap, prefix_fmt);
    vsnprintf(prefix, sizeof prefix, prefix_fmt, ap);
    va_end(ap);
    const char *msg = status ? rt->api->GetErrorMessage(status) : "unknown error";
    /* ORT messages often end in a newline or carry its own file:line prefix. */
    char clean[768];
    snprintf(clean, sizeof clean, "%s", msg ? msg : "");
    clean[strcspn(clean, "\r\n")] = '\0';
    ortkit__error_set(code, "%s: %s", prefix, clean);
    if (status)
        rt->api->ReleaseStatus(status);
    return code;
}

static void runtime_destroy(ortkit_runtime *rt)
{
    if (rt->cpu_memory)
        rt->api->ReleaseMemoryInfo(rt->cpu_memory);
    if (rt->env)
        rt->api->ReleaseEnv(rt->env);
    for (size_t i = 0; i < rt->provider_count; i++)
        free(rt->providers[i]);
    free(rt->providers);
    free(rt->path);
    free(rt->source);
    /* A loaded ONNX Runtime is never dlclose()d: it starts thread pools and
     * registers static state that does not survive unloading, and tensors
     * returned by a run may still point into its allocator. */
    free(rt);
}

static int handshake(ortkit_runtime *rt, const char *name)
{
    dlerror();
    const OrtApiBase *(*get_base)(void);
    *(void **)&get_base = dlsym(rt->handle, "OrtGetApiBase");
    if (!get_base)
        return ortkit__error_set(ORTKIT_E_RUNTIME_INVALID,
                                 "'%s' has no symbol OrtGetApiBase: not an ONNX Runtime library", name);
    const OrtApiBase *base = get_base();
    if (!base || !base->GetVersionString || !base->GetApi)
        return ortkit__error_set(ORTKIT_E_RUNTIME_INVALID,
                                 "'%s' is not a working ONNX Runtime library: %s", name,
                                 !base ? "OrtGetApiBase() returned NULL"
                                       : "the table OrtGetApiBase() returned has a NULL entry");
    const char *version = base->GetVersionString();
    ortkit__version v;
    const char *rest;
    if (!version)
        return ortkit__error_set(ORTKIT_E_RUNTIME_INVALID,
                                 "'%s' is not a working ONNX Runtime library: GetVersionString() "
                                 "returned NULL", name);
    if (ortkit__version_parse(&v, version, &rest) != 0 || v.n < 2 || v.part[0] > 1000 ||
        v.part[1] > 100000)
        return ortkit__error_set(ORTKIT_E_RUNTIME_INVALID,
                                 "'%s' reports no usable version string (\"%.64s\")", name,
                                 version);
    int major = (int)v.part[0], minor = (int)v.part[1];
    snprintf(rt->version, sizeof rt->version, "%s", version);
    if (major != 1 || minor < ORTKIT_MIN_ORT_API)
        return ortkit__error_set(ORTKIT_E_RUNTIME_TOO_OLD,
                                 "ONNX Runtime %s at '%s' is not supported: ortkit needs 1.%d (API %d) "
                                 "or newer in the 1.x series",
                                 version, name, ORTKIT_MIN_ORT_API, ORTKIT_MIN_ORT_API);
    /* The API table is append-only: ask for the older of the two levels and
     * never call past it.  GetApi(N) on an older runtime returns NULL and
     * prints to stderr, so N is never more than the runtime's minor. */
    rt->api_level = minor < ORT_API_VERSION ? minor : ORT_API_VERSION;
    rt->base = base;
    rt->api = base->GetApi((uint32_t)rt->api_level);
    if (!rt->api)
        return ortkit__error_set(ORTKIT_E_RUNTIME_INVALID,
                                 "ONNX Runtime %s at '%s' refused API level %d", version, name,
                                 rt->api_level);
    return ORTKIT_OK;
}

static int load_providers(ortkit_runtime *rt)
{
    char **list = NULL;
    int n = 0;
    OrtStatus *st = rt->api->GetAvailableProviders(&list, &n);
    if (st)
        return ortkit__ort_error(rt, st, ORTKIT_E_ORT, "cannot list the runtime's providers");
    int rc = ORTKIT_OK;
    rt->providers = calloc(n > 0 ? (size_t)n : 1, sizeof *rt->providers);
    if (!rt->providers)
        rc = ortkit__error_nomem();
    for (int i = 0; !rc && i < n; i++) {
        if (!(rt->providers[i] = ortkit__strdup(list[i])))
            rc = ORTKIT_E_NOMEM;
        else
            rt->provider_count++;
    }
    ortkit__ort_discard(rt->api, rt->api->ReleaseAvailableProviders(list, n));
    return rc;
}

int ortkit__runtime_load(ortkit_runtime **out, const char *path, const char *source,
                         const ortkit_runtime_options *opts)
{
    *out = NULL;
    int rc = ORTKIT_OK;
    ortkit_runtime *rt = calloc(1, sizeof *rt);
    if (!rt)
        return ortkit__error_nomem();
    atomic_init(&rt->refs, 1);
    if ((path && !(rt->path = ortkit__strdup(path))) || !(rt->source = ortkit__strdup(source))) {
        rc = ORTKIT_E_NOMEM;
        goto fail;
    }

    if (path) {
        rt->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!rt->handle) {
            const char *why = dlerror();
            rc = ortkit__error_set(ORTKIT_E_RUNTIME_INVALID, "cannot load runtime '%s' (from %s): %s",
                                   path, source, why ? why : "unknown error");
            goto fail;
        }
    } else {
        for (size_t i = sizeof lib_names / sizeof lib_names[0]; !rt->handle && i-- > 0;)
            rt->handle = dlopen(lib_names[i], RTLD_NOW | RTLD_LOCAL);
        if (!rt->handle) {
            rc = ortkit__error_set(ORTKIT_E_RUNTIME_NOT_FOUND, "no %s or %s in the system's "
                                   "library paths", lib_names[1], lib_names[0]);
            goto fail;
        }
    }
    /* The file dlopen really loaded, for messages and `ortkit version`. */
    Dl_info info;
    void *sym = dlsym(rt->handle, "OrtGetApiBase");
    if (sym && dladdr(sym, &info) && info.dli_fname) {
        char *real = realpath(info.dli_fname, NULL);
        if (real) {
            free(rt->path);
            rt->path = real;
        }
    }
    if (!rt->path && !(rt->path = ortkit__strdup(lib_names[1]))) {
        rc = ORTKIT_E_NOMEM;
        goto fail;
    }
    if ((rc = handshake(rt, rt->path)))
        goto fail;

    if ((rc = ortkit__runtime_env_create(rt, opts)) || (rc = load_providers(rt)))
        goto fail;
    OrtStatus *st = rt->api->CreateCpuMemoryInfo(OrtArenaAllocator, OrtMemTypeDefault, &rt->cpu_memory);
    if (st) {
        rc = ortkit__ort_error(rt, st, ORTKIT_E_ORT, "cannot describe CPU memory to the runtime");
        goto fail;
    }
    *out = rt;
    return ORTKIT_OK;
fail:
    /* Only a library that failed the hand-shake is unloaded: nothing of it ran. */
    if (rt->handle && !rt->env) {
        dlclose(rt->handle);
        rt->api = NULL;
    }
    if (!rt->api)
        rt->env = NULL;
    runtime_destroy(rt);
    return rc;
}

void ortkit__runtime_ref(ortkit_runtime *rt) { atomic_fetch_add(&rt->refs, 1); }

void ortkit_runtime_free(ortkit_runtime *rt)
{
    if (rt && atomic_fetch_sub(&rt->refs, 1) == 1)
        runtime_destroy(rt);
}

const char *ortkit_runtime_path(const ortkit_runtime *rt) { return rt ? rt->path : ""; }
const char *ortkit_runtime_source(const ortkit_runtime *rt) { return rt ? rt->source : ""; }
const char *ortkit_runtime_version(const ortkit_runtime *rt) { return rt ? rt->version : ""; }
int ortkit_runtime_api_level(const ortkit_runtime *rt) { return rt ? rt->api_level : 0; }
size_t ortkit_runtime_provider_count(const ortkit_runtime *rt) { return rt ? rt->provider_count : 0; }

const char *ortkit_runtime_provider(const ortkit_runtime *rt, size_t i)
{
    return rt && i < rt->provider_count ? rt->providers[i] : NULL;
}
