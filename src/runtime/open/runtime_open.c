/*
 * runtime_open.c - opening a runtime is resolving a path, then loading it.
 * The two steps stay apart so that what lies between them (checks of the
 * resolved files) has one place, and `ortkit doctor` can show the account
 * the load acted on.
 */
#include "abi.h"
#include "runtime_internal.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

ORTKIT__ABI_STRUCT(options_abi, ortkit_runtime_options, "runtime options",
                   "ORTKIT_RUNTIME_OPTIONS_INIT", ORTKIT_RUNTIME_OPTIONS_VERSION,
                   offsetof(ortkit_runtime_options, global_thread_pools),
                   offsetof(ortkit_runtime_options, api_base),
                   offsetof(ortkit_runtime_options, model), sizeof(ortkit_runtime_options));

/* The caller's options in the current layout (fields its version lacks get
 * their defaults); NULL stays NULL. */
static int read_options(ortkit_runtime_options *copy, const ortkit_runtime_options **opts)
{
    if (!*opts)
        return ORTKIT_OK;
    ortkit_runtime_options defaults = ORTKIT_RUNTIME_OPTIONS_INIT;
    *copy = defaults;
    if (ortkit__abi_read(&options_abi, copy, *opts))
        return ORTKIT_E_INVALID_ARG;
    *opts = copy;
    return ORTKIT_OK;
}

/* The runtime linked into the program: nothing to resolve or load.  Both
 * ways of naming another runtime are refused rather than one ignored; the
 * environment's are not the program's choice, and a second ONNX Runtime
 * loaded beside the program's own would be two runtimes in one process. */
static int open_program(ortkit_runtime **out, const ortkit_runtime_options *opts)
{
    const char *also = opts->path && opts->path[0]       ? "path"
                       : opts->bundle && opts->bundle[0] ? "bundle"
                                                         : NULL;
    if (also)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "runtime options: api_base and %s are both "
                                 "set: api_base uses the ONNX Runtime linked into the program and "
                                 "loads nothing; set one of them", also);
    int rc = ortkit__runtime_load_program(out, opts->api_base, opts);
    if (rc == ORTKIT_OK) /* a runtime inside the executable is refused by the probe itself */
        (*out)->probe_providers = 1;
    return rc;
}

/* Whether the search failed at its last place, the system's: nothing
 * before it decided, so no runtime is anywhere ortkit looks. */
static int searched_everywhere(const ortkit_resolution *res)
{
    size_t n = ortkit_resolution_step_count(res);
    const ortkit_resolve_step *last = n ? ortkit_resolution_step(res, n - 1) : NULL;
    return last && last->verdict == ORTKIT_RESOLVE_FAILED && !strcmp(last->source, "system");
}

/* No runtime anywhere: the ways to get one, and every place looked at. */
static int nothing_found(void)
{
    char where[1024];
    ortkit_runtime_search_paths(where, sizeof where);
    for (char *c = where; *c; c++)
        if (*c == '\n')
            *c = c[1] ? ';' : '\0';
    return ortkit__error_set(ORTKIT_E_RUNTIME_NOT_FOUND,
                             "no ONNX Runtime found: get Microsoft's with 'ortkit bundle fetch "
                             "1.30.0', install one from a repository with 'ortkit bundle "
                             "install URL --pubkey KEY', or set ORTKIT_RUNTIME to a "
                             "libonnxruntime.so (looked at: %s)", where);
}

int ortkit_runtime_open_resolved(ortkit_runtime **out, const ortkit_resolution *res,
                                 const ortkit_runtime_options *opts)
{
    if (!out || !res)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_runtime_open_resolved: NULL argument");
    *out = NULL;
    ortkit_runtime_options copy;
    int rc = read_options(&copy, &opts);
    if (rc)
        return rc;
    if (opts && opts->api_base)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_runtime_open_resolved: the options' "
                                 "api_base is set: a runtime linked into the program is opened "
                                 "with ortkit_runtime_open, a resolution names a file to load");
    if ((rc = ortkit_resolution_status(res)))
        return searched_everywhere(res) ? nothing_found()
                                        : ortkit__error_set(rc, "%s", ortkit_resolution_error(res));
    const char *path = ortkit_resolution_path(res);
    rc = ortkit__runtime_load(out, path, ortkit_resolution_source(res), opts);
    if (rc == ORTKIT_OK) /* GPU providers are added only after a probe process says they can be */
        (*out)->probe_providers = 1;
    const ortkit_bundle *b = ortkit_resolution_bundle(res);
    if (rc == ORTKIT_OK && b && strcmp(ortkit_runtime_version(*out), ortkit_bundle_manifest(b)->ort_version)) {
        /* Verified files that still claim another version: refuse them. */
        rc = ortkit__error_set(ORTKIT_E_RUNTIME_INVALID, "bundle '%s': the library reports ONNX "
                               "Runtime %s, its manifest says %s", ortkit_bundle_manifest(b)->name,
                               ortkit_runtime_version(*out), ortkit_bundle_manifest(b)->ort_version);
        ortkit_runtime_free(*out);
        *out = NULL;
    }
    return rc;
}

int ortkit_runtime_open(ortkit_runtime **out, const ortkit_runtime_options *opts)
{
    if (!out)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_runtime_open: out is NULL");
    *out = NULL;
    ortkit_runtime_options copy;
    int rc = read_options(&copy, &opts);
    if (rc)
        return rc;
    if (opts && opts->api_base)
        return open_program(out, opts);
    ortkit_resolution *res = NULL;
    if ((rc = ortkit_runtime_resolve(&res, opts, NULL, 0)))
        return rc;
    rc = ortkit_runtime_open_resolved(out, res, opts);
    ortkit_resolution_free(res);
    return rc;
}
