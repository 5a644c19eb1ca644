/*
 * repo_index.c - index.json: what a repository offers, read strictly.
 *
 *   {"schema": 1, "serial": 7, "created": "2025-11-23T10:00:00Z",
 *    "expires": "2025-12-23T10:00:00Z",
 *    "bundles": [{"name": ..., "onnxruntime": "1.30.0", "variant": "cpu",
 *                 "archive": "archives/<sha256>.tar.zst", "size": ...,
 *                 "sha256": ..., "unpacked_size": ..., "manifest": {...}}]}
 *
 * Each entry carries the bundle's whole manifest, so a client judges it for
 * its host exactly as it would an installed bundle.  The name, version and
 * variant beside it are for people reading the file and must agree with
 * the manifest; the archive's path is its hash, so it can name nothing else.
 */
#include "bundle.h"
#include "repo.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int hex64(const char *s)
{
    return strlen(s) == 64 && strspn(s, "0123456789abcdef") == 64;
}

void ortkit__entry_free(ortkit_repo_entry *e)
{
    free((char *)e->name);
    free((char *)e->ort_version);
    free((char *)e->variant);
    free((char *)e->archive);
    free((char *)e->sha256);
    ortkit_bundle_free((ortkit_bundle *)e->bundle);
    memset(e, 0, sizeof *e);
}

void ortkit__index_free(ortkit__repo_index *index)
{
    if (!index)
        return;
    for (size_t i = 0; i < index->count; i++)
        ortkit__entry_free(&index->entries[i]);
    free(index->entries);
    memset(index, 0, sizeof *index);
}

static int read_entry(const ortkit__json_reader *r, const cJSON *o, const char *where,
                      ortkit_repo_entry *e)
{
    static const char *const keys[] = {"name", "onnxruntime", "variant", "archive", "size",
                                       "sha256", "unpacked_size", "manifest", NULL};
    const char *name = NULL, *ort = NULL, *variant = NULL, *archive = NULL, *sha = NULL;
    const cJSON *manifest = NULL;
    int64_t size = -1, unpacked = -1;
    int f = ORTKIT__JSON_REQUIRED | ORTKIT__JSON_PLAIN;
    int rc;
    if (!cJSON_IsObject(o))
        return ortkit__json_fail(r, "'%s' must be an object, not %s", where, ortkit__json_type(o));
    if ((rc = ortkit__json_check_keys(r, o, where, keys)) ||
        (rc = ortkit__json_get_string(r, o, "name", where, 64, f, &name)) ||
        (rc = ortkit__json_get_string(r, o, "onnxruntime", where, 64, f, &ort)) ||
        (rc = ortkit__json_get_string(r, o, "variant", where, 64, f, &variant)) ||
        (rc = ortkit__json_get_string(r, o, "archive", where, 128, f, &archive)) ||
        (rc = ortkit__json_get_string(r, o, "sha256", where, 64, f, &sha)) ||
        (rc = ortkit__json_get_whole(r, o, "size", where, 1, 9007199254740991.0, f, &size)) ||
        (rc = ortkit__json_get_whole(r, o, "unpacked_size", where, 0, 9007199254740991.0, f,
                                     &unpacked)) ||
        (rc = ortkit__json_get_object(r, o, "manifest", where, ORTKIT__JSON_REQUIRED, &manifest)))
        return rc;
    if (!hex64(sha))
        return ortkit__json_fail(r, "'%s.sha256' must be 64 lowercase hex digits", where);
    char want[128];
    snprintf(want, sizeof want, REPO_ARCHIVES "/%s.tar.zst", sha);
    if (strcmp(archive, want))
        return ortkit__json_fail(r, "'%s.archive' must be \"%s\" (named by its SHA-256)", where,
                                 want);
    char *text = cJSON_PrintUnformatted(manifest);
    if (!text)
        return ortkit__error_nomem();
    char what[160];
    snprintf(what, sizeof what, "%s: '%s.manifest'", r->what, where);
    ortkit_bundle *b = NULL;
    rc = ortkit__bundle_parse(&b, text, strlen(text), what);
    free(text);
    if (rc)
        return rc;
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    if (!ortkit__bundle_name_ok(name))
        rc = ortkit__json_fail(r, "'%s.name' is not a bundle name ([A-Za-z0-9][A-Za-z0-9._+-]*)",
                               where);
    else if (strcmp(name, m->name) || strcmp(ort, m->ort_version) || strcmp(variant, m->variant))
        rc = ortkit__json_fail(r, "'%s': name, onnxruntime and variant must be the manifest's "
                               "(%s, %s, %s)", where, m->name, m->ort_version, m->variant);
    if (rc) {
        ortkit_bundle_free(b);
        return rc;
    }
    e->bundle = b;
    e->size = (uint64_t)size;
    e->unpacked_size = (uint64_t)unpacked;
    if (!(e->name = ortkit__strdup(name)) || !(e->ort_version = ortkit__strdup(ort)) ||
        !(e->variant = ortkit__strdup(variant)) || !(e->archive = ortkit__strdup(archive)) ||
        !(e->sha256 = ortkit__strdup(sha)))
        return ortkit__error_nomem();
    return ORTKIT_OK;
}

static int read_time(const ortkit__json_reader *r, const cJSON *root, const char *key, int64_t *out)
{
    const char *text = NULL;
    int rc = ortkit__json_get_string(r, root, key, "", 32,
                                     ORTKIT__JSON_REQUIRED | ORTKIT__JSON_PLAIN, &text);
    if (!rc && (rc = ortkit__time_parse(out, text)))
        rc = ortkit__json_fail(r, "'%s': %s", key, ortkit_error_last());
    return rc;
}

int ortkit__index_parse(ortkit__repo_index *out, const char *json, size_t size, const char *what)
{
    memset(out, 0, sizeof *out);
    ortkit__json_reader r = {what};
    size_t at = 0;
    if (ortkit__json_nul_escape(json, size, &at))
        return ortkit__json_fail(&r, "a string holds an escaped NUL (\\u0000) at byte %zu", at);
    cJSON *root = cJSON_ParseWithLength(json, size);
    if (!root)
        return ortkit__json_fail(&r, "not valid JSON%s",
                                 ortkit__json_too_deep(json, cJSON_GetErrorPtr())
                                     ? " (nested too deep)" : "");
    static const char *const keys[] = {"schema", "serial", "created", "expires", "bundles", NULL};
    int64_t schema = 0, serial = 0;
    const cJSON *bundles;
    int rc;
    if (!cJSON_IsObject(root)) {
        rc = ortkit__json_fail(&r, "must be a JSON object");
        goto cleanup;
    }
    if ((rc = ortkit__json_check_keys(&r, root, "", keys)) ||
        (rc = ortkit__json_get_whole(&r, root, "schema", "", 1, 1000, ORTKIT__JSON_REQUIRED,
                                     &schema)))
        goto cleanup;
    if (schema != ORTKIT_REPO_SCHEMA) {
        rc = ortkit__error_set(ORTKIT_E_UNSUPPORTED, "%s: schema %lld is not the one this ortkit "
                               "reads (%d): update ortkit", what, (long long)schema,
                               ORTKIT_REPO_SCHEMA);
        goto cleanup;
    }
    if ((rc = ortkit__json_get_whole(&r, root, "serial", "", 1, 9007199254740991.0,
                                     ORTKIT__JSON_REQUIRED, &serial)) ||
        (rc = read_time(&r, root, "created", &out->created)) ||
        (rc = read_time(&r, root, "expires", &out->expires)))
        goto cleanup;
    out->serial = (uint64_t)serial;
    bundles = cJSON_GetObjectItemCaseSensitive(root, "bundles");
    if (!cJSON_IsArray(bundles)) {
        rc = ortkit__json_fail(&r, "'bundles' must be an array");
        goto cleanup;
    }
    size_t n = (size_t)cJSON_GetArraySize(bundles);
    if (n > REPO_MAX_ENTRIES) {
        rc = ortkit__json_fail(&r, "more than %d bundles", REPO_MAX_ENTRIES);
        goto cleanup;
    }
    if (n && !(out->entries = calloc(n, sizeof *out->entries))) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    const cJSON *it;
    cJSON_ArrayForEach(it, bundles) {
        char where[32];
        snprintf(where, sizeof where, "bundles[%zu]", out->count);
        ortkit_repo_entry *e = &out->entries[out->count++];
        if ((rc = read_entry(&r, it, where, e)))
            goto cleanup;
        for (size_t j = 0; j + 1 < out->count; j++)
            if (!strcmp(out->entries[j].name, e->name)) {
                rc = ortkit__json_fail(&r, "'%s': the name '%s' is listed twice", where, e->name);
                goto cleanup;
            }
    }
cleanup:
    cJSON_Delete(root);
    if (rc)
        ortkit__index_free(out);
    return rc;
}

int ortkit__index_to_json(char **out, const ortkit__repo_index *index)
{
    *out = NULL;
    char created[32], expires[32];
    ortkit__time_format(created, index->created);
    ortkit__time_format(expires, index->expires);
    cJSON *root = cJSON_CreateObject(), *list;
    if (!root)
        return ortkit__error_nomem();
    cJSON_AddNumberToObject(root, "schema", ORTKIT_REPO_SCHEMA);
    cJSON_AddNumberToObject(root, "serial", (double)index->serial);
    cJSON_AddStringToObject(root, "created", created);
    cJSON_AddStringToObject(root, "expires", expires);
    int rc = ORTKIT_OK;
    if (!(list = cJSON_AddArrayToObject(root, "bundles")))
        rc = ortkit__error_nomem();
    for (size_t i = 0; !rc && i < index->count; i++) {
        const ortkit_repo_entry *e = &index->entries[i];
        char *text = NULL;
        cJSON *o = cJSON_CreateObject(), *m = NULL;
        if (!o || (rc = ortkit__bundle_to_json(&text, ortkit_bundle_manifest(e->bundle))) ||
            !(m = cJSON_Parse(text))) {
            cJSON_Delete(o);
            free(text);
            rc = rc ? rc : ortkit__error_nomem();
            break;
        }
        free(text);
        cJSON_AddStringToObject(o, "name", e->name);
        cJSON_AddStringToObject(o, "onnxruntime", e->ort_version);
        cJSON_AddStringToObject(o, "variant", e->variant);
        cJSON_AddStringToObject(o, "archive", e->archive);
        cJSON_AddNumberToObject(o, "size", (double)e->size);
        cJSON_AddStringToObject(o, "sha256", e->sha256);
        cJSON_AddNumberToObject(o, "unpacked_size", (double)e->unpacked_size);
        cJSON_AddItemToObject(o, "manifest", m);
        cJSON_AddItemToArray(list, o);
    }
    char *text = rc ? NULL : cJSON_Print(root);
    cJSON_Delete(root);
    if (rc)
        return rc;
    size_t n = text ? strlen(text) : 0;
    char *with_nl = text ? realloc(text, n + 2) : NULL;
    if (!with_nl) {
        free(text);
        return ortkit__error_nomem();
    }
    memcpy(with_nl + n, "\n", 2);
    *out = with_nl;
    return ORTKIT_OK;
}
