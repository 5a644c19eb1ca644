/*
 * wheel_index.c - an index of wheels: wheels.json written (wheel_list.c
 * reads it), the PEP 503 pages made from it, and publishing into it.
 *
 * Layout (any static web server serves it):
 *   index.html                        the variants, each a pip index
 *   VARIANT/index.html                PEP 503's root: the project onnxruntime
 *   VARIANT/onnxruntime/index.html    its files, each link with #sha256=
 *   VARIANT/onnxruntime/FILE.whl
 *   wheels.json, wheels.json.minisig  every wheel's facts, signed
 * One index per variant is PyTorch's convention (--index-url .../cu121):
 * pip pointed at VARIANT/ sees only that variant's wheels and picks the
 * one for its Python by tag.
 */
#include "wheel_internal.h"

#include "abi.h"
#include "repo.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_LIFETIME (30 * 24 * 3600)

ORTKIT__ABI_STRUCT(publish_abi, ortkit_wheel_publish_options, "wheel publish options",
                   "ORTKIT_WHEEL_PUBLISH_OPTIONS_INIT", ORTKIT_WHEEL_PUBLISH_OPTIONS_VERSION,
                   sizeof(ortkit_wheel_publish_options));

/* ---- writing ------------------------------------------------------------------------ */

static char *index_json(const ortkit__wheel_list *l)
{
    char when[32];
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    cJSON_AddNumberToObject(root, "schema", 1);
    cJSON_AddNumberToObject(root, "serial", (double)l->serial);
    ortkit__time_format(when, l->created);
    cJSON_AddStringToObject(root, "created", when);
    ortkit__time_format(when, l->expires);
    cJSON_AddStringToObject(root, "expires", when);
    cJSON_AddItemToObject(root, "wheels", cJSON_Duplicate(l->facts, 1));
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (text) {
        size_t n = strlen(text);
        char *nl = realloc(text, n + 2);
        if (!nl) {
            free(text);
            return NULL;
        }
        memcpy(nl + n, "\n", 2);
        text = nl;
    }
    return text;
}

/* A file name in an href: '+' (a local version) as %2B, as PyTorch's index writes it. */
static void href(char *out, size_t size, const char *name)
{
    size_t n = 0;
    for (const char *c = name; *c && n + 4 < size; c++)
        n += (size_t)(*c == '+' ? snprintf(out + n, size - n, "%%2B") : snprintf(out + n, size - n, "%c", *c));
    out[n] = '\0';
}

static int write_page(const char *dir, const char *rel, const char *title, const char *body)
{
    char path[PATH_MAX], *text = NULL;
    int rc = ortkit__pathf(path, sizeof path, "%s/%s", dir, rel);
    if (rc)
        return rc;
    if (asprintf(&text, "<!DOCTYPE html>\n<html>\n<head><meta name=\"pypi:repository-version\" "
                        "content=\"1.0\"><title>%s</title></head>\n<body>\n<h1>%s</h1>\n%s</body>\n</html>\n",
                 title, title, body) < 0)
        return ortkit__error_nomem();
    char *slash = strrchr(path, '/');
    *slash = '\0';
    rc = ortkit__mkdirs(path);
    *slash = '/';
    if (!rc)
        rc = ortkit__file_write_atomic(path, text, strlen(text));
    free(text);
    return rc;
}

static int append(char **body, size_t *len, const char *fmt, ...) ORTKIT_PRINTF(3, 4);
static int append(char **body, size_t *len, const char *fmt, ...)
{
    va_list ap;
    char *line = NULL;
    va_start(ap, fmt);
    int n = vasprintf(&line, fmt, ap);
    va_end(ap);
    if (n < 0)
        return ortkit__error_nomem();
    char *more = realloc(*body, *len + (size_t)n + 1);
    if (!more) {
        free(line);
        return ortkit__error_nomem();
    }
    memcpy(more + *len, line, (size_t)n + 1);
    *len += (size_t)n;
    *body = more;
    free(line);
    return ORTKIT_OK;
}

/* Every page again from the list: the variants, and each variant's project page. */
static int write_pages(const char *dir, const ortkit__wheel_list *l)
{
    char *top = NULL;
    size_t top_len = 0;
    int rc = append(&top, &top_len, "<p>ONNX Runtime's Python package, one pip index per variant: "
                                    "<code>pip install --index-url URL/VARIANT/ onnxruntime</code>; "
                                    "<code>ortkit wheel choose URL</code> says which fits a host.</p>\n");
    for (size_t i = 0; i < l->count && !rc; i++) {
        const char *ip = l->entries[i].index_path;
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = !strcmp(l->entries[j].index_path, ip);
        if (seen)
            continue;
        rc = append(&top, &top_len, "<a href=\"%s\">%.*s</a><br>\n", ip, (int)strlen(ip) - 1, ip);
        char *proj = NULL, rel[PATH_MAX], title[256];
        size_t proj_len = 0;
        for (size_t j = i; j < l->count && !rc; j++) {
            const ortkit_wheel_entry *e = &l->entries[j];
            if (strcmp(e->index_path, ip))
                continue;
            const char *name = strrchr(e->file, '/') + 1;
            char h[600];
            href(h, sizeof h, name);
            rc = append(&proj, &proj_len, "<a href=\"%s#sha256=%s\" data-requires-python=\"==%s.*\">%s</a><br>\n",
                        h, e->sha256, e->python, name);
        }
        snprintf(title, sizeof title, "Links for " WHEEL_PACKAGE " (%.*s)", (int)strlen(ip) - 1, ip);
        if (!rc && !(rc = ortkit__pathf(rel, sizeof rel, "%s" WHEEL_PACKAGE "/index.html", ip)))
            rc = write_page(dir, rel, title, proj ? proj : "");
        free(proj);
        snprintf(title, sizeof title, "Simple index (%.*s)", (int)strlen(ip) - 1, ip);
        if (!rc && !(rc = ortkit__pathf(rel, sizeof rel, "%sindex.html", ip)))
            rc = write_page(dir, rel, title, "<a href=\"" WHEEL_PACKAGE "/\">" WHEEL_PACKAGE "</a><br>\n");
    }
    if (!rc)
        rc = write_page(dir, "index.html", "ONNX Runtime wheels by ortkit", top);
    free(top);
    return rc;
}

/* ---- publishing -------------------------------------------------------------------- */

/* The index already there, verified with the key's public half, and every
 * file it lists still the one it signed. */
static int read_existing(ortkit__wheel_list *l, const char *dir, const ortkit__seckey *sk)
{
    char path[PATH_MAX], sig_path[PATH_MAX];
    memset(l, 0, sizeof *l);
    int rc = ortkit__pathf(path, sizeof path, "%s/" WHEEL_INDEX, dir);
    if (rc || (rc = ortkit__pathf(sig_path, sizeof sig_path, "%s/" WHEEL_INDEX_SIG, dir)))
        return rc;
    struct stat st;
    if (lstat(path, &st) != 0 && errno == ENOENT) {
        if (lstat(sig_path, &st) == 0)
            return ortkit__error_set(ORTKIT_E_FORMAT, "'%s' has a signature but no " WHEEL_INDEX
                                     ": not published over (restore it or remove '%s')", dir, sig_path);
        return ORTKIT_OK;
    }
    char *text = NULL;
    size_t size = 0;
    if ((rc = ortkit__read_verified(&text, &size, path, sig_path, WHEEL_INDEX_MAX, sk)) ||
        (rc = ortkit__wheel_index_parse(l, text, size, path)))
        goto cleanup;
    for (size_t i = 0; i < l->count && !rc; i++) {
        const ortkit_wheel_entry *e = &l->entries[i];
        char file[PATH_MAX], sha[ORTKIT__SHA256_HEX];
        uint64_t got = 0;
        if (!(rc = ortkit__pathf(file, sizeof file, "%s/%s", dir, e->file)) &&
            (ortkit__sha256_file(sha, &got, file) != 0 || got != e->size || strcmp(sha, e->sha256)))
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' is missing or not the file the index "
                                   "signed", file);
    }
cleanup:
    if (rc) {
        ortkit__wheel_index_clear(l);
        ortkit__error_wrap(rc, "the index '%s' cannot be trusted to publish into: nothing was "
                           "copied or signed (publish into a new directory, or restore what its "
                           "key signed)", dir);
    }
    free(text);
    return rc;
}

/* The wheel copied to dir/rel through a temporary name: a failure leaves what was there. */
static int copy_in(const char *from, const char *dir, const char *rel)
{
    char to[PATH_MAX], *data = NULL;
    size_t size = 0;
    int rc = ortkit__pathf(to, sizeof to, "%s/%s", dir, rel);
    if (rc)
        return rc;
    char *slash = strrchr(to, '/');
    *slash = '\0';
    rc = ortkit__mkdirs(to);
    *slash = '/';
    if (!rc && !(rc = ortkit__file_read(&data, &size, from, (size_t)WHEEL_MAX_BYTES)))
        rc = ortkit__file_write_atomic(to, data, size);
    free(data);
    return rc;
}

static int add_wheel(ortkit__wheel_list *l, const char *dir, const char *path)
{
    ortkit_wheel *w = NULL;
    int rc = ortkit_wheel_open(&w, path);
    if (rc)
        return rc;
    const ortkit_wheel_info *in = ortkit_wheel_info_get(w);
    char sha[ORTKIT__SHA256_HEX], ip[128], rel[PATH_MAX];
    uint64_t size = 0;
    cJSON *entry = NULL, *facts = NULL;
    if ((rc = ortkit__sha256_file(sha, &size, path)) ||
        (rc = ortkit__pathf(ip, sizeof ip, "%s/", in->variant)) ||
        (rc = ortkit__pathf(rel, sizeof rel, "%s" WHEEL_PACKAGE "/%s", ip, in->file)) ||
        (rc = copy_in(path, dir, rel)))
        goto cleanup;
    if (!(facts = cJSON_Parse(in->facts_json)) || !(entry = cJSON_CreateObject())) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    ortkit__json_add_strings(entry, "file", rel, "index", ip, "sha256", sha, NULL);
    cJSON_AddNumberToObject(entry, "size", (double)size);
    cJSON_AddItemToObject(entry, "facts", facts);
    facts = NULL;
    if (!l->facts && !(l->facts = cJSON_CreateArray())) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    /* The same file replaces its entry; a new one goes at the end. */
    int at = 0;
    const cJSON *old;
    cJSON_ArrayForEach(old, l->facts) {
        const char *f = ortkit__json_str(old, "file");
        if (f && !strcmp(f, rel))
            break;
        at++;
    }
    if (at < cJSON_GetArraySize(l->facts))
        cJSON_ReplaceItemInArray(l->facts, at, entry);
    else
        cJSON_AddItemToArray(l->facts, entry);
    entry = NULL;
cleanup:
    cJSON_Delete(entry);
    cJSON_Delete(facts);
    ortkit_wheel_free(w);
    return rc;
}

int ortkit_wheel_publish(const char *dir, const char *const *wheels, size_t count,
                         const ortkit_wheel_publish_options *opts)
{
    ortkit_wheel_publish_options o = ORTKIT_WHEEL_PUBLISH_OPTIONS_INIT;
    if (!opts || !opts->secret_key)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_wheel_publish: no secret key "
                                 "(options.secret_key)");
    if (ortkit__abi_read(&publish_abi, &o, opts))
        return ORTKIT_E_INVALID_ARG;
    if (!dir || !dir[0] || !count || !wheels)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_wheel_publish: no index or no wheel");
    ortkit__seckey sk;
    ortkit__wheel_list l, fresh;
    memset(&l, 0, sizeof l);
    memset(&fresh, 0, sizeof fresh);
    char *key_text = NULL, *text = NULL, *sig = NULL, lock[PATH_MAX], path[PATH_MAX], sig_path[PATH_MAX];
    char when[32], comment[256];
    size_t key_size = 0;
    int fd = -1;
    int rc = ortkit__file_read(&key_text, &key_size, o.secret_key, 4096);
    if (!rc && (rc = ortkit__seckey_parse(&sk, key_text, key_size, o.password)))
        ortkit__error_wrap(rc, "%s", o.secret_key);
    if (rc || (rc = ortkit__mkdirs(dir)) ||
        (rc = ortkit__pathf(lock, sizeof lock, "%s/.publish.lock", dir)) || (rc = ortkit__lock(&fd, lock)) ||
        (rc = read_existing(&l, dir, &sk)))
        goto cleanup;
    uint64_t serial = l.serial;
    for (size_t i = 0; i < count && !rc; i++)
        if ((rc = add_wheel(&l, dir, wheels[i])))
            ortkit__error_wrap(rc, "nothing was signed");
    if (rc)
        goto cleanup;
    if (o.serial && o.serial <= serial) {
        rc = ortkit__error_set(ORTKIT_E_INVALID_ARG, "serial %" PRIu64 " is not higher than the "
                               "index's %" PRIu64 ": a serial only grows", o.serial, serial);
        goto cleanup;
    }
    l.serial = o.serial ? o.serial : serial + 1;
    l.created = (int64_t)time(NULL);
    l.expires = o.expires ? o.expires : l.created + DEFAULT_LIFETIME;
    ortkit__time_format(when, l.expires);
    snprintf(comment, sizeof comment, "ortkit wheel index serial %" PRIu64 ", expires %s", l.serial, when);
    /* Written and read back as a client reads it, so the pages follow what is signed. */
    if (!(text = index_json(&l))) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    if ((rc = ortkit__wheel_index_parse(&fresh, text, strlen(text), WHEEL_INDEX)) ||
        (rc = ortkit__sign(&sig, &sk, text, strlen(text), comment)) ||
        (rc = write_pages(dir, &fresh)) ||
        (rc = ortkit__pathf(path, sizeof path, "%s/" WHEEL_INDEX, dir)) ||
        (rc = ortkit__pathf(sig_path, sizeof sig_path, "%s/" WHEEL_INDEX_SIG, dir)) ||
        (rc = ortkit__file_write_atomic(path, text, strlen(text))))
        goto cleanup;
    rc = ortkit__file_write_atomic(sig_path, sig, strlen(sig));
cleanup:
    if (fd >= 0)
        close(fd);
    sodium_memzero(&sk, sizeof sk);
    if (key_text)
        sodium_memzero(key_text, key_size);
    free(key_text);
    free(text);
    free(sig);
    ortkit__wheel_index_clear(&l);
    ortkit__wheel_index_clear(&fresh);
    return rc;
}
