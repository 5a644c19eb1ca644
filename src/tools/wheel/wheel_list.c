/*
 * wheel_list.c - wheels.json read strictly: what an index lists, each entry
 * a file under its own pip index with its SHA-256, size and facts (the
 * bundle facts parsed as a manifest is).  Publishing and opening an index
 * (wheel_index.c, wheel_choose.c) both read it here.
 */
#include "wheel_internal.h"

#include "repo.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

void ortkit__wheel_index_clear(ortkit__wheel_list *l)
{
    for (size_t i = 0; i < l->count; i++) {
        ortkit_bundle_free((ortkit_bundle *)l->entries[i].bundle);
        free((char *)l->entries[i].file);
        free((char *)l->entries[i].index_path);
        free((char *)l->entries[i].version);
        free((char *)l->entries[i].python);
        free((char *)l->entries[i].platform_tag);
        free((char *)l->entries[i].sha256);
    }
    cJSON_Delete(l->facts);
    free(l->entries);
    memset(l, 0, sizeof *l);
}

/* A relative path the index may name: VARIANT/onnxruntime/FILE.whl, no "..". */
static int file_ok(const char *file, const char *index_path)
{
    size_t k = strlen(index_path);
    if (!k || index_path[k - 1] != '/' || strncmp(file, index_path, k) != 0 ||
        strncmp(file + k, WHEEL_PACKAGE "/", sizeof WHEEL_PACKAGE) != 0)
        return 0;
    const char *name = file + k + sizeof WHEEL_PACKAGE;
    ortkit__wheel_name fn;
    if (strchr(name, '/') || ortkit__wheel_name_parse(&fn, name))
        return 0;
    for (const char *c = index_path; c < index_path + k - 1; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-' || *c == '.'))
            return 0;
    return index_path[0] != '.';
}

int ortkit__wheel_index_parse(ortkit__wheel_list *out, const char *text, size_t size, const char *what)
{
    memset(out, 0, sizeof *out);
    cJSON *root = cJSON_ParseWithLength(text, size);
    int rc = ORTKIT_OK;
    const cJSON *wheels = cJSON_GetObjectItemCaseSensitive(root, "wheels"),
                *schema = cJSON_GetObjectItemCaseSensitive(root, "schema"),
                *serial = cJSON_GetObjectItemCaseSensitive(root, "serial");
    const char *created = ortkit__json_str(root, "created"), *expires = ortkit__json_str(root, "expires");
    if (!cJSON_IsObject(root) || !cJSON_IsNumber(schema) || schema->valueint != 1 ||
        !cJSON_IsNumber(serial) || serial->valuedouble < 1 || serial->valuedouble > 9e15 ||
        !cJSON_IsArray(wheels) || !created || !expires ||
        ortkit__time_parse(&out->created, created) || ortkit__time_parse(&out->expires, expires)) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "%s: not a wheel index (schema 1: serial, created, "
                               "expires, wheels)", what);
        goto cleanup;
    }
    out->serial = (uint64_t)serial->valuedouble;
    size_t n = (size_t)cJSON_GetArraySize(wheels);
    if (n > WHEEL_INDEX_MAX_ENTRIES) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "%s: more than %d wheels", what, WHEEL_INDEX_MAX_ENTRIES);
        goto cleanup;
    }
    if (n && !(out->entries = calloc(n, sizeof *out->entries))) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    const cJSON *w;
    cJSON_ArrayForEach(w, wheels) {
        ortkit_wheel_entry *e = &out->entries[out->count];
        const cJSON *sz = cJSON_GetObjectItemCaseSensitive(w, "size"),
                    *facts = cJSON_GetObjectItemCaseSensitive(w, "facts");
        const char *file = ortkit__json_str(w, "file"), *ip = ortkit__json_str(w, "index"), *sha = ortkit__json_str(w, "sha256");
        const cJSON *bundle = cJSON_GetObjectItemCaseSensitive(facts, "bundle"),
                    *wh = cJSON_GetObjectItemCaseSensitive(facts, "wheel");
        const char *version = ortkit__json_str(wh, "version"), *py = ortkit__json_str(wh, "python"),
                   *plat = ortkit__json_str(wh, "platform_tag");
        size_t at = out->count;
        if (!file || !ip || !file_ok(file, ip) || !sha || strlen(sha) != 64 ||
            strspn(sha, "0123456789abcdef") != 64 || !cJSON_IsNumber(sz) || sz->valuedouble < 1 ||
            sz->valuedouble > 1e15 || !cJSON_IsObject(bundle) || !version || !py || !plat) {
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "%s: wheels[%zu] is not a wheel entry (file "
                                   "under its index, sha256, size, facts)", what, at);
            goto cleanup;
        }
        for (size_t j = 0; j < at; j++)
            if (!strcmp(out->entries[j].file, file)) {
                rc = ortkit__error_set(ORTKIT_E_FORMAT, "%s: '%s' is listed twice", what, file);
                goto cleanup;
            }
        char *btext = cJSON_PrintUnformatted(bundle);
        ortkit_bundle *b = NULL;
        rc = btext ? ortkit_bundle_parse(&b, btext, strlen(btext)) : ortkit__error_nomem();
        free(btext);
        if (rc) {
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "%s: wheels[%zu]'s facts: %s", what, at,
                                   ortkit_error_last());
            goto cleanup;
        }
        out->count++;
        e->bundle = b;
        e->size = (uint64_t)sz->valuedouble;
        if (!(e->file = strdup(file)) || !(e->index_path = strdup(ip)) || !(e->sha256 = strdup(sha)) ||
            !(e->version = strdup(version)) || !(e->python = strdup(py)) ||
            !(e->platform_tag = strdup(plat))) {
            rc = ortkit__error_nomem();
            goto cleanup;
        }
    }
    /* The facts as published, kept to be written again. */
    out->facts = cJSON_DetachItemFromObjectCaseSensitive(root, "wheels");
cleanup:
    cJSON_Delete(root);
    if (rc)
        ortkit__wheel_index_clear(out);
    return rc;
}

