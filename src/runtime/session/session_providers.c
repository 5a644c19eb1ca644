/*
 * session_providers.c - the execution providers a session asks for, added
 * to its options in order: each one's "key=value,..." options, the GPU
 * providers as the probe says (session_gpu.c), the rest as the runtime was
 * built, and a status for each (added, or why not) in s->providers.  The
 * names themselves are providers.c's.
 */
#include "session_internal.h"
#include "session_gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "k=v,k2=v2" -> parallel arrays of copies.  Returns count, or -1. */
static long split_options(const char *spec, char ***keys, char ***values)
{
    *keys = *values = NULL;
    if (!spec || !*spec)
        return 0;
    size_t cap = 1;
    for (const char *c = spec; *c; c++)
        cap += *c == ',';
    *keys = calloc(cap, sizeof **keys);
    *values = calloc(cap, sizeof **values);
    char *copy = strdup(spec);
    long n = 0;
    if (!*keys || !*values || !copy)
        goto fail;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq || eq == tok) {
            ortkit__error_set(ORTKIT_E_INVALID_ARG, "provider option '%s' is not key=value", tok);
            goto fail;
        }
        *eq = '\0';
        (*keys)[n] = strdup(tok);
        (*values)[n] = strdup(eq + 1);
        if (!(*keys)[n] || !(*values)[n]) {
            n++;
            ortkit__error_nomem();
            goto fail;
        }
        n++;
    }
    free(copy);
    return n;
fail:
    for (long i = 0; *keys && i < n; i++) {
        free((*keys)[i]);
        free((*values)[i]);
    }
    free(*keys);
    free(*values);
    free(copy);
    *keys = *values = NULL;
    return -1;
}

static int options_valid(const char *spec)
{
    char **keys, **values;
    long n = split_options(spec, &keys, &values);
    for (long k = 0; k < n; k++) {
        free(keys[k]);
        free(values[k]);
    }
    if (n >= 0) {
        free(keys);
        free(values);
    }
    return n >= 0;
}

/* Add one provider to the options; returns an OrtStatus (NULL on success). */
static OrtStatus *append_provider(const ortkit_runtime *rt, OrtSessionOptions *so,
                                  const ortkit__provider_name *p, char **keys, char **values,
                                  size_t n)
{
    const OrtApi *api = rt->api;
    const char *const *k = (const char *const *)keys, *const *v = (const char *const *)values;
    OrtStatus *st = NULL;
    /* CUDA and TensorRT take their options in a V2 struct of their own
     * (OrtCUDAProviderOptionsV2, ...): made, filled, appended, released. */
#define APPEND_V2(KIND)                                                                       \
    do {                                                                                      \
        Ort##KIND##ProviderOptionsV2 *po = NULL;                                              \
        if (!(st = api->Create##KIND##ProviderOptions(&po)) &&                                \
            !(st = api->Update##KIND##ProviderOptions(po, k, v, n)))                          \
            st = api->SessionOptionsAppendExecutionProvider_##KIND##_V2(so, po);              \
        if (po)                                                                               \
            api->Release##KIND##ProviderOptions(po);                                          \
    } while (0)
    if (!strcmp(p->ort_name, "CUDAExecutionProvider"))
        APPEND_V2(CUDA);
    else if (!strcmp(p->ort_name, "TensorrtExecutionProvider"))
        APPEND_V2(TensorRT);
    else
        st = api->SessionOptionsAppendExecutionProvider(so, p->generic, k, v, n);
#undef APPEND_V2
    return st;
}

/* gpu: the probe's verdict for CUDA and TensorRT, NULL for others. */
static int set_status(ortkit_provider_status *ps, const char *requested, const char *name,
                      int active, const char *reason, const ortkit__probe_verdict *gpu)
{
    ps->requested = ortkit__strdup(requested);
    ps->name = ortkit__strdup(name);
    ps->reason = ortkit__strdup(reason);
    ps->detail = ortkit__strdup(gpu && !active ? gpu->detail : "");
    ps->method = ortkit__strdup(gpu ? gpu->method : "");
    ps->probe = ortkit__strdup(gpu ? gpu->probe : "");
    ps->active = active;
    return ps->requested && ps->name && ps->reason && ps->detail && ps->method && ps->probe
               ? ORTKIT_OK
               : ORTKIT_E_NOMEM;
}

/*
 * Add the requested providers in order.  exclude[i] set: leave provider i
 * out (it broke session creation before).  Fills s->providers.
 */
int ortkit__session_add_providers(ortkit_session *s, OrtSessionOptions *so,
                                  const ortkit_session_options *o, const unsigned char *exclude,
                                  const char *exclude_reason)
{
    const ortkit_runtime *rt = s->rt;
    size_t n = o ? o->provider_count : 0;
    s->providers = calloc(n + 1, sizeof *s->providers);
    if (!s->providers)
        return ortkit__error_nomem();
    for (size_t i = 0; i < n; i++) {
        const char *req = o->providers[i] ? o->providers[i] : "";
        size_t len = strcspn(req, ":");
        const ortkit__provider_name *p = ortkit__provider_lookup(req, len);
        ortkit_provider_status *ps = &s->providers[s->provider_count++];
        char reason[1536] = "";
        char name[128];
        ortkit__probe_verdict gpu_verdict, *gpu = NULL;
        if (p && req[len] && !options_valid(req + len + 1)) /* before any probe */
            return ortkit__error_wrap(ORTKIT_E_INVALID_ARG, "execution provider '%s'", req);
        _Static_assert(sizeof reason == sizeof gpu_verdict.reason, "reasons of one size");
        snprintf(name, sizeof name, "%.*s", (int)len, req);
        if (!p) {
            snprintf(reason, sizeof reason, "unknown execution provider '%s'", name);
        } else if (!strcmp(p->ort_name, "CPUExecutionProvider")) {
            s->provider_count--; /* the CPU provider is always added last */
            continue;
        } else if (exclude && exclude[i]) {
            snprintf(reason, sizeof reason, "%s", exclude_reason);
        } else if (ortkit__gpu_provider(p->ort_name) &&
                   (ortkit__gpu_decide(rt, p->ort_name, ortkit__strv_has(&rt->providers, p->ort_name),
                                       req[len] ? req + len + 1 : "", gpu = &gpu_verdict),
                    !gpu->usable)) {
            memcpy(reason, gpu->reason, sizeof reason); /* the same size */
        } else if (!gpu && !ortkit__strv_has(&rt->providers, p->ort_name)) {
            snprintf(reason, sizeof reason, "ONNX Runtime %s at '%s' was built without %s",
                     rt->version, rt->path, p->ort_name);
        } else {
            char **keys, **values;
            long nk = split_options(req[len] ? req + len + 1 : "", &keys, &values);
            if (nk < 0)
                return ortkit__error_wrap(ORTKIT_E_INVALID_ARG, "execution provider '%s'", req);
            OrtStatus *st = NULL;
            int plugin_rc = 0;
            if (gpu && !strcmp(gpu->method, "plugin"))
                plugin_rc = ortkit__gpu_append_plugin(rt, so, p->ort_name, keys, values,
                                                      (size_t)nk, gpu);
            else
                st = append_provider(rt, so, p, keys, values, (size_t)nk);
            if (plugin_rc > 0)
                memcpy(reason, gpu->reason, sizeof reason);
            for (long k = 0; k < nk; k++) {
                free(keys[k]);
                free(values[k]);
            }
            free(keys);
            free(values);
            if (plugin_rc < 0)
                return plugin_rc;
            if (st) {
                const char *msg = rt->api->GetErrorMessage(st);
                snprintf(reason, sizeof reason, "%s", msg ? msg : "ONNX Runtime refused it");
                reason[strcspn(reason, "\r\n")] = '\0';
                rt->api->ReleaseStatus(st);
            }
        }
        int active = reason[0] == '\0';
        if (set_status(ps, req, p ? p->ort_name : name, active, reason, gpu))
            return ORTKIT_E_NOMEM;
        if (!active && o->ep_policy == ORTKIT_EP_STRICT)
            return ortkit__error_set(ORTKIT_E_PROVIDER,
                                     "execution provider '%s' cannot be used: %s%s%s%s", req, reason,
                                     ps->detail[0] ? " (ONNX Runtime: " : "", ps->detail,
                                     ps->detail[0] ? ")" : "");
    }
    return set_status(&s->providers[s->provider_count++], "cpu", "CPUExecutionProvider", 1, "", NULL);
}

void ortkit__session_free_providers(ortkit_session *s)
{
    for (size_t i = 0; i < s->provider_count; i++) {
        free((char *)s->providers[i].requested);
        free((char *)s->providers[i].name);
        free((char *)s->providers[i].reason);
        free((char *)s->providers[i].detail);
        free((char *)s->providers[i].method);
        free((char *)s->providers[i].probe);
    }
    free(s->providers);
    s->providers = NULL;
    s->provider_count = 0;
}
