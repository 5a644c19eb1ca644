/*
 * bundle_loaded.c - record in a bundle's manifest that its library was
 * loaded: what `ortkit bundle verify` does once a host that can load a
 * bundle imported without loading has loaded it (in a child process).
 *
 * The manifest is rewritten atomically; the verified-state cache keys on
 * the manifest's bytes, so the bundle is verified again in full and the new
 * state stored, never left matching an entry made for the old manifest.
 */
#include "bundle_make.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ortkit_bundle_record_load(ortkit_bundle *b, const char *version,
                              const char *const *providers, size_t count)
{
    if (!b || !version || (count && !providers))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_bundle_record_load: NULL argument");
    if (!b->m.dir[0])
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_bundle_record_load: bundle '%s' has "
                                 "no directory", b->m.name);
    if (strcmp(version, b->m.ort_version))
        return ortkit__error_set(ORTKIT_E_FORMAT, "bundle '%s': loaded, its library reports ONNX "
                                 "Runtime %s; the manifest says %s", b->m.name, version,
                                 b->m.ort_version);
    ortkit_manifest m = b->m;
    char from[256], path[PATH_MAX];
    snprintf(from, sizeof from, "%s%s", m.version_from,
             strstr(m.version_from, "loading") ? "" : m.version_from[0] ? ", confirmed by loading it"
                                                                          : "loading it");
    m.verified_by_loading = 1;
    m.version_from = from;
    if (count) {
        m.providers = providers;
        m.provider_count = count;
    }
    char *json = NULL;
    ortkit_bundle *check = NULL;
    int rc = ortkit__bundle_to_json(&json, &m);
    if (!rc)
        rc = ortkit__bundle_parse(&check, json, strlen(json), "the new manifest");
    if (!rc)
        rc = ortkit__pathf(path, sizeof path, "%s/%s", b->m.dir, BUNDLE_MANIFEST);
    if (!rc && (rc = ortkit__file_write_atomic(path, json, strlen(json))))
        ortkit__error_wrap(rc, "cannot record in bundle '%s' that it loads", b->m.name);
    free(json);
    if (rc) {
        ortkit_bundle_free(check);
        return rc;
    }
    /* The caller's view follows the file. */
    const char **list = NULL;
    if (count && (list = calloc(count + 1, sizeof *list)))
        for (size_t i = 0; i < count; i++)
            list[i] = ortkit__bundle_keep(b, providers[i]);
    if (list) {
        free((void *)b->m.providers);
        b->m.providers = list;
        b->m.provider_count = count;
    }
    b->m.verified_by_loading = 1;
    const char *kept = ortkit__bundle_keep(b, from);
    if (kept)
        b->m.version_from = kept;
    ortkit_bundle_free(check);
    return ortkit__bundle_check(b, 1, NULL);
}
