/*
 * bundle_probe.c - the bundle operation that loads a library: import reads
 * the version and providers the runtime reports.  The bundle module itself
 * only reads files (verification included); this is where it meets the
 * loader.
 */
#include "bundle_make.h"
#include "runtime_internal.h"

#include <stdio.h>
#include <stdlib.h>

static int probe_by_loading(ortkit__probe *out, const char *library)
{
    ortkit_runtime *rt = NULL;
    int rc = ortkit__runtime_load(&rt, library, "options", NULL);
    if (rc)
        return rc;
    snprintf(out->version, sizeof out->version, "%s", ortkit_runtime_version(rt));
    size_t n = ortkit_runtime_provider_count(rt);
    if (!(out->providers = calloc(n + 1, sizeof *out->providers)))
        rc = ortkit__error_nomem();
    for (size_t i = 0; !rc && i < n; i++) {
        if (!(out->providers[i] = ortkit__strdup(ortkit_runtime_provider(rt, i))))
            rc = ORTKIT_E_NOMEM;
        else
            out->provider_count++;
    }
    ortkit_runtime_free(rt);
    if (rc)
        ortkit__probe_free(out);
    return rc;
}

int ortkit_bundle_import(ortkit_bundle **out, const char *src, const ortkit_bundle_import_options *opts)
{
    return ortkit__bundle_import_with(out, src, opts, probe_by_loading);
}
