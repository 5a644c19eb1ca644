/*
 * session_create.c - the ONNX Runtime session made, the cache's way: from
 * the cached optimised graph on a hit, saving it on a fill, plainly
 * otherwise (session_cache.c decides which); and under the fallback policy
 * once more without the providers that broke the first try.
 */
#include "session_internal.h"
#include "session_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int session_create(ortkit_session *s, const char *path, const void *data, size_t size,
                          const ortkit_session_options *o, const char *optimized_tmp,
                          ortkit__model_format format)
{
    const OrtApi *api = s->rt->api;
    size_t n = o ? o->provider_count : 0;
    unsigned char *exclude = NULL;
    char exclude_reason[768] = "";
    for (;;) {
        OrtSessionOptions *so = NULL;
        int rc = ortkit__session_build_options(&so, s, o, optimized_tmp, format, exclude, exclude_reason);
        if (rc) {
            free(exclude);
            return rc;
        }
        OrtStatus *st = path ? api->CreateSession(s->rt->env, path, so, &s->ort)
                             : api->CreateSessionFromArray(s->rt->env, data, size, so, &s->ort);
        api->ReleaseSessionOptions(so);
        if (!st) {
            free(exclude);
            return ORTKIT_OK;
        }
        /* A provider can be accepted into the options and still fail when the
         * session starts (a missing CUDA library, no device).  Under the
         * fallback policy, drop the added providers and try once more. */
        int any_gpu = 0;
        for (size_t i = 0; i + 1 < s->provider_count; i++)
            any_gpu |= s->providers[i].active;
        if (!exclude && any_gpu && o->ep_policy == ORTKIT_EP_FALLBACK &&
            (exclude = calloc(n ? n : 1, 1))) {
            const char *msg = api->GetErrorMessage(st);
            snprintf(exclude_reason, sizeof exclude_reason, "session creation failed with it: %s",
                     msg ? msg : "");
            exclude_reason[strcspn(exclude_reason, "\r\n")] = '\0';
            api->ReleaseStatus(st);
            memset(exclude, 1, n ? n : 1);
            ortkit__session_free_providers(s);
            continue;
        }
        free(exclude);
        const char *msg = api->GetErrorMessage(st);
        if (msg && strcasestr(msg, "protobuf parsing failed") &&
            ortkit__session_explain_parse_failure(s, path, data, size)) {
            api->ReleaseStatus(st);
            return ORTKIT_E_MODEL;
        }
        return ortkit__ort_error(s->rt, st, ORTKIT_E_MODEL, "cannot open model '%s'", s->label);
    }
}

/*
 * Create the session through the cache's plan: from the cached graph on a
 * hit, saving the optimised graph on a fill, as without a cache otherwise.
 * A cached graph ONNX Runtime refuses is removed and made again; a fill that
 * fails is tried once more without the cache, so that a failure is always
 * the model's own.
 */
static int create_through_cache(ortkit_session *s, ortkit__cache_plan *c, const char *path,
                                const void *data, size_t size, const ortkit_session_options *o,
                                const char *optimized_tmp)
{
    int rc;
    if (c->state == ORTKIT_CACHE_HIT) {
        if (!(rc = session_create(s, NULL, c->graph, c->graph_size, o, NULL, ORTKIT__FORMAT_ORT))) {
            s->cache_map = c->map;
            s->cache_map_size = c->map_size;
            c->map = NULL; /* the session's now */
            return rc;
        }
        if (rc == ORTKIT_E_NOMEM)
            return rc;
        ortkit__session_free_providers(s);
        ortkit__session_cache_reject(c, ortkit_error_last());
    }
    if (c->state == ORTKIT_CACHE_FILLED) {
        if (!(rc = session_create(s, path, data, size, o, c->fill_tmp, ORTKIT__FORMAT_ONNX_SAVE_ORT))) {
            ortkit__session_cache_store(c);
            return ORTKIT_OK;
        }
        if (rc == ORTKIT_E_NOMEM)
            return rc;
        ortkit__session_free_providers(s);
        ortkit__session_cache_end(c);
        c->state = ORTKIT_CACHE_SKIPPED;
        snprintf(c->reason, sizeof c->reason, "the session could not be made and saved: %s",
                 ortkit_error_last());
    }
    return session_create(s, path, data, size, o, optimized_tmp, ORTKIT__FORMAT_ONNX);
}

int ortkit__session_create(ortkit_session *s, const char *path, const void *data, size_t size,
                           const ortkit_session_options *o, const char *optimized_tmp)
{
    ortkit__cache_plan cache;
    ortkit__session_cache_begin(&cache, s->rt, path, data, size, o);
    int rc = create_through_cache(s, &cache, path, data, size, o, optimized_tmp);
    s->cache_state = cache.state;
    ortkit__session_cache_end(&cache);
    if (!rc && !(s->cache_reason = ortkit__strdup(cache.reason)))
        rc = ORTKIT_E_NOMEM;
    return rc;
}
