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
    for (size_t i = 0; !rc && i < ortkit_runtime_provider_count(rt); i++)
        rc = ortkit__strv_push(&out->providers, ortkit_runtime_provider(rt, i));
    ortkit_runtime_free(rt);
    if (rc)
        ortkit__strv_free(&out->providers);
    return rc;
}

int ortkit_bundle_import(ortkit_bundle **out, const char *src, const ortkit_bundle_import_options *opts)
{
    return ortkit__bundle_import_with(out, src, opts, probe_by_loading);
}
