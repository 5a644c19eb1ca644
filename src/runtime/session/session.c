/*
 * session.c - opening a session: the caller's options read within their
 * version, the model checked, the optimised model's temporary name, then
 * the session made (session_create.c), described (session_io.c) and its
 * unshaped inputs and outputs found (session_model.c); and freeing it.
 * Options are session_options.c's, providers session_providers.c's;
 * running is run.c's.
 */
#include "session_internal.h"
#include "abi.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

void ortkit_session_free(ortkit_session *s)
{
    if (!s)
        return;
    if (s->ort)
        s->rt->api->ReleaseSession(s->ort);
    if (s->cache_map)
        munmap(s->cache_map, s->cache_map_size);
    ortkit__session_free_io(s);
    ortkit__session_free_providers(s);
    free(s->label);
    free(s->cache_reason);
    ortkit_runtime_free(s->rt);
    free(s);
}

ORTKIT__ABI_STRUCT(options_abi, ortkit_session_options, "session options",
                   "ORTKIT_SESSION_OPTIONS_INIT", ORTKIT_SESSION_OPTIONS_VERSION,
                   offsetof(ortkit_session_options, cache_dir), sizeof(ortkit_session_options));

static int session_open(ortkit_session **out, ortkit_runtime *rt, const char *path,
                        const void *data, size_t size, const ortkit_session_options *o)
{
    if (!out)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_session_open: out is NULL");
    *out = NULL;
    if (!rt)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_session_open: runtime is NULL");
    ortkit_session_options copy = ORTKIT_SESSION_OPTIONS_INIT;
    if (o) {
        if (ortkit__abi_read(&options_abi, &copy, o))
            return ORTKIT_E_INVALID_ARG;
        o = &copy;
    }
    if (o && o->provider_count && !o->providers)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "provider_count is %zu but providers is NULL",
                                 o->provider_count);
    const char *label = path ? path : "<memory>";
    if (path) {
        struct stat st;
        int rc = ortkit__file_check(path, "model", &st); /* ORT opens it: a FIFO would block there */
        if (rc)
            return rc;
        if (st.st_size == 0)
            return ortkit__error_set(ORTKIT_E_MODEL, "cannot open model '%s': the file is empty", path);
    } else if (!data || size == 0) {
        return ortkit__error_set(ORTKIT_E_MODEL, "cannot open model from memory: no data");
    }

    ortkit_session *s = calloc(1, sizeof *s);
    if (!s)
        return ortkit__error_nomem();
    ortkit__runtime_ref(rt);
    s->rt = rt;
    char *optimized_tmp = NULL;
    int rc = ORTKIT_OK;
    if (!(s->label = ortkit__strdup(label))) {
        rc = ORTKIT_E_NOMEM;
        goto fail;
    }
    /* ORT writes the optimised model itself; aim it at a temporary name and
     * rename only when the session opened, so a failure leaves nothing. */
    if (o && o->optimized_model_path) {
        static atomic_uint counter;
        size_t len = strlen(o->optimized_model_path) + 48;
        if (!(optimized_tmp = malloc(len))) {
            rc = ortkit__error_nomem();
            goto fail;
        }
        /* ORT opens the name and follows links: ortkit makes the file, new. */
        rc = ORTKIT_E_IO;
        for (int tries = 0; rc && tries < 16; tries++) {
            snprintf(optimized_tmp, len, "%s.tmp.%ld.%u", o->optimized_model_path,
                     (long)getpid(), atomic_fetch_add(&counter, 1));
            if ((rc = ortkit__file_create_new(optimized_tmp, 0666)) && errno != EEXIST)
                break;
        }
        if (rc) {
            ortkit__error_wrap(rc, "cannot write optimised model '%s'", o->optimized_model_path);
            free(optimized_tmp);
            optimized_tmp = NULL; /* not ortkit's to remove */
            goto fail;
        }
    }
    if ((rc = ortkit__session_create(s, path, data, size, o, optimized_tmp)) ||
        (rc = ortkit__session_describe(s)))
        goto fail;
    ortkit__session_find_unshaped(s, path, data, size);
    if (optimized_tmp && rename(optimized_tmp, o->optimized_model_path) != 0) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot write optimised model '%s': %s",
                               o->optimized_model_path, strerror(errno));
        goto fail;
    }
    free(optimized_tmp);
    *out = s;
    return ORTKIT_OK;
fail:
    if (optimized_tmp)
        unlink(optimized_tmp);
    free(optimized_tmp);
    ortkit_session_free(s);
    return rc;
}

int ortkit_session_open(ortkit_session **out, ortkit_runtime *rt, const char *path,
                        const ortkit_session_options *opts)
{
    if (!path)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_session_open: path is NULL");
    return session_open(out, rt, path, NULL, 0, opts);
}

int ortkit_session_open_memory(ortkit_session **out, ortkit_runtime *rt, const void *data,
                               size_t size, const ortkit_session_options *opts)
{
    return session_open(out, rt, NULL, data, size, opts);
}

ortkit_cache_state ortkit_session_cache(const ortkit_session *s, const char **reason)
{
    if (reason)
        *reason = s && s->cache_reason ? s->cache_reason : "";
    return s ? s->cache_state : ORTKIT_CACHE_OFF;
}

size_t ortkit_session_provider_count(const ortkit_session *s) { return s ? s->provider_count : 0; }

const ortkit_provider_status *ortkit_session_provider(const ortkit_session *s, size_t i)
{
    return s && i < s->provider_count ? &s->providers[i] : NULL;
}
