/*
 * runtime_open.c - opening a runtime is resolving a path, then loading it.
 * The two steps stay apart so that what lies between them (checks of the
 * resolved files) has one place, and `ortkit doctor` can show the account
 * the load acted on.
 */
#include "runtime.h"

#include <stdio.h>

static int check_options(const ortkit_runtime_options *opts)
{
    if (opts && opts->version != ORTKIT_RUNTIME_OPTIONS_VERSION)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                 "runtime options version %u is not %d; use ORTKIT_RUNTIME_OPTIONS_INIT",
                                 opts->version, ORTKIT_RUNTIME_OPTIONS_VERSION);
    return ORTKIT_OK;
}

int ortkit_runtime_open_resolved(ortkit_runtime **out, const ortkit_resolution *res,
                                 const ortkit_runtime_options *opts)
{
    if (!out || !res)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_runtime_open_resolved: NULL argument");
    *out = NULL;
    int rc = check_options(opts);
    if (rc)
        return rc;
    if ((rc = ortkit_resolution_status(res)))
        return ortkit__error_set(rc, "%s", ortkit_resolution_error(res));
    const char *path = ortkit_resolution_path(res);
    rc = ortkit__runtime_load(out, path[0] ? path : NULL, ortkit_resolution_source(res), opts);
    if (rc == ORTKIT_E_RUNTIME_NOT_FOUND && !path[0]) {
        /* The last place of the search failed too: name them all. */
        char where[1024];
        ortkit_runtime_search_paths(where, sizeof where);
        for (char *c = where; *c; c++)
            if (*c == '\n')
                *c = c[1] ? ';' : '\0';
        rc = ortkit__error_set(ORTKIT_E_RUNTIME_NOT_FOUND,
                               "no ONNX Runtime found (looked at: %s); set ORTKIT_RUNTIME to "
                               "libonnxruntime.so or its directory, or run scripts/setup.sh",
                               where);
    }
    return rc;
}

int ortkit_runtime_open(ortkit_runtime **out, const ortkit_runtime_options *opts)
{
    if (!out)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_runtime_open: out is NULL");
    *out = NULL;
    int rc = check_options(opts);
    if (rc)
        return rc;
    ortkit_resolution *res = NULL;
    if ((rc = ortkit_runtime_resolve(&res, opts, NULL, 0)))
        return rc;
    rc = ortkit_runtime_open_resolved(out, res, opts);
    ortkit_resolution_free(res);
    return rc;
}
