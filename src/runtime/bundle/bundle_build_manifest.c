/*
 * bundle_build_manifest.c - the manifest's "build" key: how ortkit built
 * the library (the build environment's glibc, the floor asked for, every
 * third-party dependency compiled in, with its origin and hash, and the
 * compiler cache it went through), read as strictly as the rest of the
 * manifest.
 */
#include "bundle.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#define FAIL(r, ...) ortkit__json_fail((r), __VA_ARGS__)
#define DEPENDENCIES_MAX 256

static int glibc_ok(const char *s)
{
    ortkit__version v;
    return !s[0] || (ortkit__version_parse(&v, s, NULL) == 0 && v.n == 2);
}

static int sha256_ok(const char *s)
{
    return !s[0] || (strlen(s) == 64 && strspn(s, "0123456789abcdef") == 64);
}

static int keep(ortkit_bundle *b, const char **out, const char *s)
{
    return (*out = ortkit__bundle_keep(b, s ? s : "")) ? ORTKIT_OK : ortkit__error_nomem();
}

static int read_dependency(const ortkit__json_reader *r, ortkit_bundle *b, const cJSON *e,
                           size_t i, ortkit_bundle_dependency *d)
{
    static const char *const keys[] = {"name", "version", "pinned", "match", "origin", "sha256",
                                       "patched", NULL};
    static const char *const matches[] = {"sha1", "version", "accepted", "named", NULL};
    const size_t max[] = {64, 128, 128, 16, 1024, 64};
    const char *s[6];
    char where[48];
    snprintf(where, sizeof where, "build.dependencies[%zu]", i);
    if (!cJSON_IsObject(e))
        return FAIL(r, "'%s' must be an object", where);
    int rc = ortkit__json_check_keys(r, e, where, keys);
    for (int k = 0; !rc && k < 6; k++)
        rc = ortkit__json_get_string(r, e, keys[k], where, max[k],
                                     ORTKIT__JSON_REQUIRED | ORTKIT__JSON_PLAIN, &s[k]);
    if (rc || (rc = ortkit__json_get_bool(r, e, "patched", where, ORTKIT__JSON_REQUIRED, &d->patched)))
        return rc;
    if (!s[0][0] || strspn(s[0], "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(s[0]))
        return FAIL(r, "%s.name '%.64s' is not a deps.txt name like \"protobuf\"", where, s[0]);
    int known = 0;
    for (size_t k = 0; matches[k]; k++)
        known |= !strcmp(s[3], matches[k]);
    if (!known)
        return FAIL(r, "%s.match '%.16s' is none of sha1, version, accepted, named", where, s[3]);
    if (!sha256_ok(s[5]))
        return FAIL(r, "%s.sha256 must be 64 lowercase hex digits or empty", where);
    if ((rc = keep(b, &d->name, s[0])) || (rc = keep(b, &d->version, s[1])) ||
        (rc = keep(b, &d->pinned, s[2])) || (rc = keep(b, &d->match, s[3])) ||
        (rc = keep(b, &d->origin, s[4])) || (rc = keep(b, &d->sha256, s[5])))
        return rc;
    return ORTKIT_OK;
}

/* build.cache: null, or {"tool": "ccache", "remote": null | URL, "remote_hits": N}
 * (a missing remote is a local cache too). */
static int read_cache(const ortkit__json_reader *r, ortkit_bundle *b, const cJSON *build)
{
    static const char *const keys[] = {"tool", "remote", "remote_hits", "local", NULL};
    ortkit_manifest *m = &b->m;
    const cJSON *c = NULL;
    const char *tool = NULL, *remote = NULL, *local = NULL;
    int64_t hits = 0;
    int rc;
    if ((rc = ortkit__json_get_object(r, build, "cache", "build", ORTKIT__JSON_NULLABLE, &c)) || !c)
        return rc;
    if ((rc = ortkit__json_check_keys(r, c, "build.cache", keys)) ||
        (rc = ortkit__json_get_string(r, c, "tool", "build.cache", 16,
                                      ORTKIT__JSON_REQUIRED | ORTKIT__JSON_PLAIN, &tool)) ||
        (rc = ortkit__json_get_string(r, c, "remote", "build.cache", 1024,
                                      ORTKIT__JSON_NULLABLE | ORTKIT__JSON_PLAIN, &remote)) ||
        (rc = ortkit__json_get_whole(r, c, "remote_hits", "build.cache", 0, 9007199254740992.0,
                                     ORTKIT__JSON_REQUIRED, &hits)) ||
        (rc = ortkit__json_get_string(r, c, "local", "build.cache", 16, ORTKIT__JSON_PLAIN, &local)))
        return rc;
    /* Which local cache: a server's objects reach only "server" (and "none" reads none). */
    if (local && strcmp(local, "no-server") && strcmp(local, "server") && strcmp(local, "none"))
        return FAIL(r, "build.cache.local '%.16s' is not \"no-server\", \"server\" or \"none\"", local);
    if (local && !strcmp(local, "no-server") != !remote)
        return FAIL(r, "build.cache.local \"%s\" does not go with %s remote", local,
                    remote ? "a" : "no");
    if (local && (rc = keep(b, &m->build_cache_local, local)))
        return rc;
    if (strcmp(tool, "ccache"))
        return FAIL(r, "build.cache.tool '%.16s' is not \"ccache\"", tool);
    if (remote && (!remote[0] || strchr(remote, ' ')))
        return FAIL(r, "build.cache.remote must be a URL, or null when the cache was local only");
    if ((rc = keep(b, &m->build_cache, tool)))
        return rc;
    if (remote && (rc = keep(b, &m->build_cache_remote, remote)))
        return rc;
    m->build_cache_remote_hits = (uint64_t)hits;
    return ORTKIT_OK;
}

int ortkit__manifest_build_read(const ortkit__json_reader *r, ortkit_bundle *b, const cJSON *build)
{
    ortkit_manifest *m = &b->m;
    static const char *const keys[] = {"glibc", "glibc_floor", "dependencies", "cache", NULL};
    const char *glibc = NULL, *floor = NULL;
    int rc;
    if (!cJSON_IsObject(build))
        return FAIL(r, "'build' must be an object");
    if ((rc = ortkit__json_check_keys(r, build, "build", keys)) ||
        (rc = ortkit__json_get_string(r, build, "glibc", "build", 16,
                                      ORTKIT__JSON_NULLABLE | ORTKIT__JSON_PLAIN, &glibc)) ||
        (rc = ortkit__json_get_string(r, build, "glibc_floor", "build", 16,
                                      ORTKIT__JSON_NULLABLE | ORTKIT__JSON_PLAIN, &floor)))
        return rc;
    if (!glibc_ok(glibc ? glibc : "") || !glibc_ok(floor ? floor : ""))
        return FAIL(r, "build.%s is not a glibc version like \"2.31\"",
                    glibc_ok(glibc ? glibc : "") ? "glibc_floor" : "glibc");
    if ((rc = keep(b, &m->build_glibc, glibc)) || (rc = keep(b, &m->build_glibc_floor, floor)) ||
        (rc = read_cache(r, b, build)))
        return rc;
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(build, "dependencies");
    if (a && !cJSON_IsNull(a)) {
        if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) > DEPENDENCIES_MAX)
            return FAIL(r, "'build.dependencies' must be an array of at most %d objects",
                        DEPENDENCIES_MAX);
        ortkit_bundle_dependency *deps =
            ortkit__bundle_keep_zeroed(b, (size_t)cJSON_GetArraySize(a) + 1, sizeof *deps);
        if (!deps)
            return ortkit__error_nomem();
        size_t i = 0;
        for (const cJSON *e = a->child; e; e = e->next, i++) {
            if ((rc = read_dependency(r, b, e, i, &deps[i])))
                return rc;
            for (size_t k = 0; k < i; k++)
                if (!strcmp(deps[k].name, deps[i].name))
                    return FAIL(r, "'build.dependencies' names '%s' twice", deps[i].name);
        }
        m->build_dependencies = deps;
        m->build_dependency_count = i;
    }
    m->build_known = 1;
    return ORTKIT_OK;
}

int ortkit__manifest_build_write(cJSON *root, const ortkit_manifest *m)
{
    if (!m->build_known)
        return ORTKIT_OK;
    cJSON *o = cJSON_AddObjectToObject(root, "build");
    if (!o)
        return ortkit__error_nomem();
    cJSON_AddItemToObject(o, "glibc", m->build_glibc && m->build_glibc[0]
                                          ? cJSON_CreateString(m->build_glibc) : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "glibc_floor", m->build_glibc_floor && m->build_glibc_floor[0]
                                                ? cJSON_CreateString(m->build_glibc_floor)
                                                : cJSON_CreateNull());
    cJSON *a = cJSON_AddArrayToObject(o, "dependencies");
    for (size_t i = 0; a && i < m->build_dependency_count; i++) {
        const ortkit_bundle_dependency *d = &m->build_dependencies[i];
        cJSON *e = cJSON_CreateObject();
        if (!e || !cJSON_AddItemToArray(a, e))
            return ortkit__error_nomem();
        ortkit__json_add_strings(e, "name", d->name, "version", d->version, "pinned", d->pinned,
                                 "match", d->match, "origin", d->origin, "sha256", d->sha256, NULL);
        cJSON_AddBoolToObject(e, "patched", d->patched);
    }
    /* Written only when the build said: a manifest without it reads as before. */
    if (m->build_cache) {
        cJSON *c = cJSON_AddObjectToObject(o, "cache");
        if (!c)
            return ortkit__error_nomem();
        cJSON_AddStringToObject(c, "tool", m->build_cache);
        cJSON_AddItemToObject(c, "remote", m->build_cache_remote ? cJSON_CreateString(m->build_cache_remote)
                                                                 : cJSON_CreateNull());
        cJSON_AddNumberToObject(c, "remote_hits", (double)m->build_cache_remote_hits);
        if (m->build_cache_local)
            cJSON_AddStringToObject(c, "local", m->build_cache_local);
    }
    return ORTKIT_OK;
}
