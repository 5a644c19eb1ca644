/*
 * session_gpu.c - CUDA and TensorRT: which way the loaded runtime adds them
 * (the provider bridge built into older GPU builds, or a plugin EP library
 * registered at run time on 1.22 and newer), the probe that decides whether
 * they can be added without risking this process, and the plugin path.
 */
#include "session_gpu.h"
#include "session_internal.h"
#include "ort_plugin.h"
#include "provider_probe.h"

#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct gpu_provider {
    const char *ort_name;
    const char *library;
    const char *registration; /* the name it is registered under in the env */
    unsigned bit;
} gpu_providers[] = {
    {"CUDAExecutionProvider", "libonnxruntime_providers_cuda.so", "ortkit.cuda", 1u},
    {"TensorrtExecutionProvider", "libonnxruntime_providers_tensorrt.so", "ortkit.tensorrt", 2u},
};

/* Registration changes the shared environment: one at a time. */
static pthread_mutex_t register_lock = PTHREAD_MUTEX_INITIALIZER;

static const struct gpu_provider *find(const char *ort_name)
{
    for (size_t i = 0; i < sizeof gpu_providers / sizeof gpu_providers[0]; i++)
        if (!strcmp(gpu_providers[i].ort_name, ort_name))
            return &gpu_providers[i];
    return NULL;
}

int ortkit__gpu_provider(const char *ort_name) { return find(ort_name) != NULL; }

const char *ortkit__gpu_library(const char *ort_name)
{
    const struct gpu_provider *g = find(ort_name);
    return g ? g->library : NULL;
}

/* The plugin library beside the runtime, into buf; 0 when it is there. */
static int plugin_path(const ortkit_runtime *rt, const struct gpu_provider *g, char *buf, size_t size)
{
    char dir[PATH_MAX];
    if (ortkit__pathf(dir, sizeof dir, "%s", rt->path) ||
        ortkit__pathf(buf, size, "%s/%s", dirname(dir), g->library))
        return -1;
    return access(buf, R_OK) == 0 ? 0 : -1;
}

void ortkit__gpu_decide(const ortkit_runtime *rt, const char *ort_name, int built_in,
                        const char *options, ortkit__probe_verdict *v)
{
    memset(v, 0, sizeof *v);
    const struct gpu_provider *g = find(ort_name);
    ortkit__plugin_api p;
    char lib[PATH_MAX];
    if (built_in && g && plugin_path(rt, g, lib, sizeof lib) != 0) {
        /* npm's and PyPI's CPU packages list CUDA but ship no provider library. */
        snprintf(v->method, sizeof v->method, "bridge");
        snprintf(v->reason, sizeof v->reason,
                 "ONNX Runtime %s at '%s' lists %s but %s is not beside it (a CPU package; a GPU "
                 "build or bundle of ONNX Runtime provides it)", rt->version, rt->path, ort_name,
                 g->library);
        return;
    } else if (built_in && g) {
        snprintf(v->method, sizeof v->method, "bridge");
    } else if (g && ortkit__plugin_api_get(&p, rt) && plugin_path(rt, g, lib, sizeof lib) == 0) {
        snprintf(v->method, sizeof v->method, "plugin");
    } else {
        snprintf(v->reason, sizeof v->reason,
                 "ONNX Runtime %s at '%s' was built without %s%s%s%s", rt->version, rt->path,
                 ort_name, g ? " and has no plugin library " : "", g ? g->library : "",
                 g ? " beside it (a GPU build or bundle of ONNX Runtime provides one)" : "");
        return;
    }
    const char *mode = ortkit__env("ORTKIT_GPU_PROBE");
    if ((mode && !strcmp(mode, "off")) || !rt->probe_providers) {
        /* Trusted without a probe: the probe process itself, or a caller
         * that turned probing off. */
        v->usable = 1;
        snprintf(v->probe, sizeof v->probe, "off");
        return;
    }
    ortkit__provider_probe(rt, ort_name, g->library, options, v);
}

/* Register g's library in rt's environment once.  0, or 1 with v filled. */
static int register_plugin(const ortkit_runtime *rt, const ortkit__plugin_api *p,
                           const struct gpu_provider *g, ortkit__probe_verdict *v)
{
    ortkit_runtime *mut = (ortkit_runtime *)rt; /* the flag word only */
    if (atomic_load(&mut->plugins_registered) & g->bit)
        return 0;
    char lib[PATH_MAX];
    int rc = 0;
    pthread_mutex_lock(&register_lock);
    if (!(atomic_load(&mut->plugins_registered) & g->bit)) {
        OrtStatus *st = plugin_path(rt, g, lib, sizeof lib) ? NULL
                        : p->register_library(rt->env, g->registration, lib);
        if (st || !lib[0]) {
            const char *msg = st ? rt->api->GetErrorMessage(st) : "the library is gone";
            snprintf(v->reason, sizeof v->reason,
                     "ONNX Runtime cannot register the plugin library %s", g->library);
            snprintf(v->detail, sizeof v->detail, "%s", msg ? msg : "");
            v->detail[strcspn(v->detail, "\r\n")] = '\0';
            if (st)
                rt->api->ReleaseStatus(st);
            rc = 1;
        } else {
            atomic_fetch_or(&mut->plugins_registered, g->bit);
        }
    }
    pthread_mutex_unlock(&register_lock);
    return rc;
}

int ortkit__gpu_append_plugin(const ortkit_runtime *rt, OrtSessionOptions *so, const char *ort_name,
                              char *const *keys, char *const *values, size_t n,
                              ortkit__probe_verdict *v)
{
    const struct gpu_provider *g = find(ort_name);
    ortkit__plugin_api p;
    if (!g || !ortkit__plugin_api_get(&p, rt)) {
        snprintf(v->reason, sizeof v->reason, "ONNX Runtime %s has no plugin-EP API", rt->version);
        return 1;
    }
    if (register_plugin(rt, &p, g, v))
        return 1;
    const OrtEpDevice *const *devices = NULL;
    size_t count = 0;
    OrtStatus *st = p.get_ep_devices(rt->env, &devices, &count);
    if (st) {
        snprintf(v->reason, sizeof v->reason, "ONNX Runtime cannot list its EP devices");
        snprintf(v->detail, sizeof v->detail, "%s", rt->api->GetErrorMessage(st));
        rt->api->ReleaseStatus(st);
        return 1;
    }
    /* device_id picks among this provider's devices; the rest are the
     * provider's own options. */
    long want = 0;
    const char **k = calloc(n + 1, sizeof *k), **val = calloc(n + 1, sizeof *val);
    size_t kept = 0;
    if (!k || !val) {
        free(k);
        free(val);
        return ortkit__error_nomem();
    }
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(keys[i], "device_id")) {
            want = strtol(values[i], NULL, 10);
            continue;
        }
        k[kept] = keys[i];
        val[kept++] = values[i];
    }
    const OrtEpDevice *chosen = NULL;
    long seen = 0;
    for (size_t i = 0; i < count && !chosen; i++)
        if (!strcmp(p.ep_name(devices[i]), ort_name) && seen++ == want)
            chosen = devices[i];
    int rc = 0;
    if (!chosen) {
        if (seen == 0)
            snprintf(v->reason, sizeof v->reason, "no CUDA-capable device: the plugin library %s "
                     "registered but reports no device", g->library);
        else
            snprintf(v->reason, sizeof v->reason, "device_id %ld: %s has %ld device%s", want,
                     ort_name, seen, seen == 1 ? "" : "s");
        rc = 1;
    } else if ((st = p.append_v2(so, rt->env, &chosen, 1, k, val, kept))) {
        snprintf(v->reason, sizeof v->reason, "ONNX Runtime refused %s", ort_name);
        snprintf(v->detail, sizeof v->detail, "%s", rt->api->GetErrorMessage(st));
        v->detail[strcspn(v->detail, "\r\n")] = '\0';
        rt->api->ReleaseStatus(st);
        rc = 1;
    }
    free(k);
    free(val);
    return rc;
}

void ortkit_provider_status_free(ortkit_provider_status *ps)
{
    if (!ps)
        return;
    free((char *)ps->requested);
    free((char *)ps->name);
    free((char *)ps->reason);
    free((char *)ps->detail);
    free((char *)ps->method);
    free((char *)ps->probe);
    free(ps);
}

int ortkit_runtime_provider_check(ortkit_provider_status **out, ortkit_runtime *rt,
                                  const char *provider)
{
    if (!out)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_runtime_provider_check: out is NULL");
    *out = NULL;
    if (!rt || !provider)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_runtime_provider_check: NULL argument");
    /* The name as a session takes it: "cuda", "CUDAExecutionProvider", options after ':'. */
    size_t len = strcspn(provider, ":");
    const char *ort_name = ortkit__provider_ort_name(provider, len);
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)len, provider);
    ortkit__probe_verdict *v = calloc(1, sizeof *v);
    ortkit_provider_status *ps = calloc(1, sizeof *ps);
    int rc = ORTKIT_E_NOMEM;
    if (!v || !ps)
        goto cleanup;
    if (ort_name && ortkit__gpu_provider(ort_name)) {
        ortkit__gpu_decide(rt, ort_name, ortkit__strv_has(&rt->providers, ort_name),
                           provider[len] ? provider + len + 1 : "", v);
    } else {
        if (!ort_name)
            ort_name = name;
        v->usable = ortkit__strv_has(&rt->providers, ort_name);
        if (!v->usable)
            snprintf(v->reason, sizeof v->reason, "ONNX Runtime %s at '%s' was built without %s",
                     rt->version, rt->path, ort_name);
    }
    ps->requested = ortkit__strdup(provider);
    ps->name = ortkit__strdup(ort_name);
    ps->active = v->usable;
    ps->reason = ortkit__strdup(v->usable ? "" : v->reason);
    ps->detail = ortkit__strdup(v->usable ? "" : v->detail);
    ps->method = ortkit__strdup(v->method);
    ps->probe = ortkit__strdup(v->probe);
    if (!ps->requested || !ps->name || !ps->reason || !ps->detail || !ps->method || !ps->probe)
        goto cleanup;
    *out = ps;
    ps = NULL;
    rc = ORTKIT_OK;
cleanup:
    if (rc)
        ortkit__error_nomem();
    ortkit_provider_status_free(ps);
    free(v);
    return rc;
}
