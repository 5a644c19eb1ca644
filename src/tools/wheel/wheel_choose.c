/*
 * wheel_choose.c - a wheel index opened and trusted in a repository's order
 * (the signature verifies with the trusted key before anything of the index
 * is read, it parses strictly, it has not expired, its serial is not older
 * than the newest seen from that key), judged for a host and a CPython by
 * the bundles' one selection order, and a wheel fetched from it.
 */
#include "wheel_internal.h"

#include "abi.h"
#include "repo.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

ORTKIT__ABI_STRUCT(open_abi, ortkit_repo_options, "repository options", "ORTKIT_REPO_OPTIONS_INIT",
                   ORTKIT_REPO_OPTIONS_VERSION, offsetof(ortkit_repo_options, timeout_s),
                   sizeof(ortkit_repo_options));

struct ortkit_wheel_index {
    ortkit_repo_info info;
    ortkit__wheel_list list;
    ortkit__source src;
    char *base, *source, *comment;
    char key_id[17];
    char ca_file[PATH_MAX];
};

void ortkit_wheel_index_free(ortkit_wheel_index *x)
{
    if (!x)
        return;
    ortkit__wheel_index_clear(&x->list);
    free(x->base);
    free(x->source);
    free(x->comment);
    free(x);
}

int ortkit_wheel_index_open(ortkit_wheel_index **out, const char *source, const ortkit_repo_options *opts)
{
    if (!out)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_wheel_index_open: out is NULL");
    *out = NULL;
    ortkit_repo_options o = ORTKIT_REPO_OPTIONS_INIT;
    if (!opts || !source)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_wheel_index_open: a wheel index "
                                 "needs a source and a trusted public key (options.pubkey)");
    if (ortkit__abi_read(&open_abi, &o, opts))
        return ORTKIT_E_INVALID_ARG;
    ortkit__pubkey pk;
    char *text = NULL, what[PATH_MAX + 32], comment[1024] = "";
    size_t size = 0;
    ortkit_wheel_index *x = calloc(1, sizeof *x);
    if (!x)
        return ortkit__error_nomem();
    int rc = ortkit__pubkey_load(&pk, o.pubkey);
    if (rc || (rc = ortkit__source_init(&x->src, &x->base, source, o.ca_file)) ||
        (rc = ortkit__source_limits(&x->src, &o)))
        goto cleanup;
    if (o.ca_file && o.ca_file[0]) {
        snprintf(x->ca_file, sizeof x->ca_file, "%s", o.ca_file);
        x->src.ca_file = x->ca_file;
    }
    snprintf(what, sizeof what, "%s/" WHEEL_INDEX, x->base);
    /* Trusted as a bundle repository's index is (repo_open.c). */
    if ((rc = ortkit__fetch_signed(&text, &size, comment, &x->src, WHEEL_INDEX, WHEEL_INDEX_SIG,
                                   WHEEL_INDEX_MAX, &pk, what)) ||
        (rc = ortkit__wheel_index_parse(&x->list, text, size, what)) ||
        (rc = ortkit__index_current(&x->info.last_serial, what, x->list.expires, o.now,
                                    "ortkit wheel publish", &pk, x->list.serial, text, size,
                                    o.state_dir)))
        goto cleanup;
    ortkit__key_id_hex(x->key_id, pk.id);
    if (!(x->comment = strdup(comment)) || !(x->source = strdup(source))) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    x->info.source = x->source;
    x->info.key_id = x->key_id;
    x->info.trusted_comment = x->comment;
    x->info.serial = x->list.serial;
    x->info.created = x->list.created;
    x->info.expires = x->list.expires;
cleanup:
    free(text);
    if (rc)
        ortkit_wheel_index_free(x);
    else
        *out = x;
    return rc;
}

const ortkit_repo_info *ortkit_wheel_index_info(const ortkit_wheel_index *x)
{
    return x ? &x->info : NULL;
}

size_t ortkit_wheel_index_count(const ortkit_wheel_index *x) { return x ? x->list.count : 0; }

const ortkit_wheel_entry *ortkit_wheel_index_get(const ortkit_wheel_index *x, size_t i)
{
    return x && i < x->list.count ? &x->list.entries[i] : NULL;
}

int ortkit_wheel_index_url(char **wheel_url, char **index_url, const ortkit_wheel_index *x, size_t i)
{
    if (wheel_url)
        *wheel_url = NULL;
    if (index_url)
        *index_url = NULL;
    const ortkit_wheel_entry *e = ortkit_wheel_index_get(x, i);
    if (!e)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_wheel_index_url: no entry %zu", i);
    char *name = NULL, *enc = NULL;
    const char *file = strrchr(e->file, '/') + 1;
    /* '+' of the local version escaped, as the index's own links write it. */
    size_t n = 0;
    if (!(enc = malloc(strlen(file) * 3 + 1)))
        return ortkit__error_nomem();
    for (const char *c = file; *c; c++)
        n += (size_t)(*c == '+' ? sprintf(enc + n, "%%2B") : sprintf(enc + n, "%c", *c));
    int rc = ORTKIT_OK;
    /* A directory's files as pip takes them: file:// URLs of absolute paths. */
    char *abs = NULL, *base = x->base;
    if (!x->src.remote) {
        if ((rc = ortkit__path_absolute(&abs, x->base))) {
            free(enc);
            return rc;
        }
        base = NULL;
        if (asprintf(&base, "file://%s", abs) < 0)
            base = NULL;
        free(abs);
        if (!base) {
            free(enc);
            return ortkit__error_nomem();
        }
    }
    if ((wheel_url && asprintf(&name, "%s/%.*s%s", base, (int)(file - e->file), e->file, enc) < 0) ||
        (index_url && asprintf(index_url, "%s/%s", base, e->index_path) < 0)) {
        free(name);
        name = NULL;
        rc = ortkit__error_nomem();
    }
    free(enc);
    if (base != x->base)
        free(base);
    if (wheel_url)
        *wheel_url = name;
    return rc;
}

int ortkit_wheel_choose(ortkit_bundle_choice **out, const ortkit_wheel_index *x, const ortkit_host *host,
                        const char *python)
{
    if (out)
        *out = NULL;
    if (!out || !x || !host || !python)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_wheel_choose: NULL argument");
    char tag[16];
    int rc = ortkit__wheel_python_tag(tag, sizeof tag, python, NULL, NULL);
    if (rc)
        return rc;
    size_t n = x->list.count;
    const ortkit_bundle **list = calloc(n + 1, sizeof *list);
    if (!list)
        return ortkit__error_nomem();
    /* A wheel for another CPython is passed to selection as no bundle: it
     * never fits, and its entry's python says why. */
    for (size_t i = 0; i < n; i++)
        list[i] = !strcmp(x->list.entries[i].python, python) ? x->list.entries[i].bundle : NULL;
    rc = ortkit_bundle_select(out, host, list, n, NULL);
    free(list);
    if (rc && !*out)
        return ortkit__error_set(rc, "%s", ortkit_error_last());
    return rc;
}

int ortkit_wheel_index_fetch(char **path, ortkit_wheel_index *x, size_t i, const char *dir)
{
    if (path)
        *path = NULL;
    const ortkit_wheel_entry *e = ortkit_wheel_index_get(x, i);
    if (!path || !e || !dir)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_wheel_index_fetch: no entry %zu", i);
    const char *file = strrchr(e->file, '/') + 1;
    char part[PATH_MAX], dest[PATH_MAX];
    char why[512];
    int rc = ortkit__mkdirs(dir);
    /* The wheel is checked here and read again by pip, by name: no one else
     * may be able to swap it in between (the rule bundles follow). */
    if (!rc && ortkit__path_trusted(dir, why, sizeof why) != 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot download the wheel into %s: %s; choose a "
                                 "directory of yours alone", dir, why);
    if (rc || (rc = ortkit__pathf(part, sizeof part, "%s/%s.part", dir, file)) ||
        (rc = ortkit__pathf(dest, sizeof dest, "%s/%s", dir, file)))
        return rc;
    ortkit__fetch_job job = {.rel = e->file, .part = part, .size = e->size, .sha256 = e->sha256};
    if ((rc = ortkit__fetch_file(&x->src, &job)))
        return rc;
    ortkit_wheel *w = NULL;
    if ((rc = ortkit__wheel_open_as(&w, part, file))) {
        unlink(part);
        return rc;
    }
    ortkit_wheel_free(w);
    if (rename(part, dest) != 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot rename %s to %s", part, dest);
    if (!(*path = strdup(dest)))
        return ortkit__error_nomem();
    return ORTKIT_OK;
}
