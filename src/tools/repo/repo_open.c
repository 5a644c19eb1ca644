/*
 * repo_open.c - open a repository: fetch its index and signature, and trust
 * the index only in this order: the signature verifies with the trusted key
 * (nothing of the index is read before), the index parses strictly, it has
 * not expired, and its serial is not older than the newest seen (rollback).
 */
#include "repo.h"

#include "abi.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

ORTKIT__ABI_STRUCT(open_abi, ortkit_repo_options, "repository options", "ORTKIT_REPO_OPTIONS_INIT",
                   ORTKIT_REPO_OPTIONS_VERSION, offsetof(ortkit_repo_options, timeout_s),
                   sizeof(ortkit_repo_options));

void ortkit_repo_free(ortkit_repo *repo)
{
    if (!repo)
        return;
    ortkit__index_free(&repo->index);
    free(repo->base);
    free(repo->source);
    free(repo->comment);
    free(repo);
}

int ortkit__repo_new(ortkit_repo **out, const char *source, const char *ca_file)
{
    *out = NULL;
    ortkit_repo *r = calloc(1, sizeof *r);
    if (!r)
        return ortkit__error_nomem();
    int rc = ortkit__source_init(&r->src, &r->base, source, ca_file);
    if (!rc && !(r->source = ortkit__strdup(source)))
        rc = ortkit__error_nomem();
    if (!rc && ca_file && ca_file[0]) {
        snprintf(r->ca_file, sizeof r->ca_file, "%s", ca_file);
        r->src.ca_file = r->ca_file;
    }
    if (rc) {
        ortkit_repo_free(r);
        return rc;
    }
    r->info.source = r->source;
    r->info.key_id = r->key_id;
    r->info.trusted_comment = "";
    *out = r;
    return ORTKIT_OK;
}

int ortkit__repo_take_index(ortkit_repo *r, ortkit__repo_index *index, const unsigned char key_id[8],
                            const char *comment)
{
    char *copy = ortkit__strdup(comment);
    if (!copy)
        return ortkit__error_nomem(); /* the repository as it was, its comment included */
    ortkit__key_id_hex(r->key_id, key_id);
    free(r->comment);
    r->info.trusted_comment = r->comment = copy;
    ortkit__index_free(&r->index);
    r->index = *index;
    memset(index, 0, sizeof *index);
    r->info.serial = r->index.serial;
    r->info.created = r->index.created;
    r->info.expires = r->index.expires;
    return ORTKIT_OK;
}

int ortkit__source_limits(ortkit__source *src, const ortkit_repo_options *o)
{
    if (o->timeout_s < 0 || o->min_rate_window_s < 0)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "a negative time limit for downloads");
    src->timeout_s = o->timeout_s > 0 ? o->timeout_s : REPO_DEFAULT_TIMEOUT_S;
    src->min_rate = o->min_rate ? o->min_rate : REPO_DEFAULT_MIN_RATE;
    src->min_rate_window_s = o->min_rate_window_s > 0 ? o->min_rate_window_s
                                                      : REPO_DEFAULT_MIN_RATE_WINDOW_S;
    return ORTKIT_OK;
}

int ortkit__fetch_signed(char **text, size_t *size, char comment[1024], const ortkit__source *src,
                         const char *name, const char *sig_name, size_t max,
                         const ortkit__pubkey *pk, const char *what)
{
    char *sig_text = NULL;
    size_t sig_size = 0;
    ortkit__signature sig;
    *text = NULL;
    int rc = ortkit__fetch_small(text, size, src, name, max);
    if (!rc && !(rc = ortkit__fetch_small(&sig_text, &sig_size, src, sig_name, REPO_SIGNATURE_MAX))) {
        if ((rc = ortkit__signature_parse(&sig, sig_text, sig_size)))
            ortkit__error_wrap(rc, "%s/%s", src->base, sig_name);
        else if (!(rc = ortkit__verify(&sig, pk, *text, *size, what)))
            snprintf(comment, 1024, "%s", sig.trusted_comment);
    }
    free(sig_text);
    if (rc) {
        free(*text);
        *text = NULL;
    }
    return rc;
}

int ortkit__index_current(uint64_t *last, const char *what, int64_t expires, int64_t now,
                          const char *republish, const ortkit__pubkey *pk, uint64_t serial,
                          const char *text, size_t size, const char *state_option)
{
    char sha[65], *state = NULL;
    if ((now ? now : (int64_t)time(NULL)) >= expires) {
        char when[32];
        ortkit__time_format(when, expires);
        return ortkit__error_set(ORTKIT_E_FORMAT, "%s expired at %s: refused (the publisher "
                                 "signs a new one with '%s')", what, when, republish);
    }
    int rc = ortkit__sha256_hex(sha, text, size);
    if (!rc && !(rc = ortkit__state_dir(&state, state_option)))
        rc = ortkit__state_check(last, state, pk, serial, sha);
    free(state);
    return rc;
}

int ortkit_repo_open(ortkit_repo **out, const char *source, const ortkit_repo_options *opts)
{
    if (!out)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_repo_open: out is NULL");
    *out = NULL;
    ortkit_repo_options o = ORTKIT_REPO_OPTIONS_INIT;
    if (!opts)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_repo_open: no options: a "
                                 "repository needs a trusted public key (options.pubkey)");
    if (ortkit__abi_read(&open_abi, &o, opts))
        return ORTKIT_E_INVALID_ARG;
    ortkit__pubkey pk;
    ortkit__repo_index index = {0};
    ortkit_repo *r = NULL;
    char *text = NULL, what[PATH_MAX + 32], comment[1024] = "";
    size_t size = 0;
    int rc;
    if ((rc = ortkit__pubkey_load(&pk, o.pubkey)) || (rc = ortkit__repo_new(&r, source, o.ca_file)) ||
        (rc = ortkit__source_limits(&r->src, &o)))
        goto cleanup;
    snprintf(what, sizeof what, "%s/" REPO_INDEX, r->base);
    if ((rc = ortkit__fetch_signed(&text, &size, comment, &r->src, REPO_INDEX, REPO_SIGNATURE,
                                   REPO_INDEX_MAX, &pk, what)) ||
        (rc = ortkit__index_parse(&index, text, size, what)) ||
        (rc = ortkit__index_current(&r->info.last_serial, what, index.expires, o.now,
                                    "ortkit bundle publish", &pk, index.serial, text, size,
                                    o.state_dir)))
        goto cleanup;
    rc = ortkit__repo_take_index(r, &index, pk.id, comment);
cleanup:
    ortkit__index_free(&index);
    free(text);
    if (rc)
        ortkit_repo_free(r);
    else
        *out = r;
    return rc;
}

const ortkit_repo_info *ortkit_repo_info_get(const ortkit_repo *repo)
{
    return repo ? &repo->info : NULL;
}

size_t ortkit_repo_count(const ortkit_repo *repo) { return repo ? repo->index.count : 0; }

const ortkit_repo_entry *ortkit_repo_get(const ortkit_repo *repo, size_t i)
{
    return repo && i < repo->index.count ? &repo->index.entries[i] : NULL;
}

int ortkit_repo_choose(ortkit_bundle_choice **out, const ortkit_repo *repo, const ortkit_host *host,
                       const char *pin)
{
    if (out)
        *out = NULL;
    if (!repo || !host || !out)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_repo_choose: NULL argument");
    size_t n = repo->index.count;
    const ortkit_bundle **list = calloc(n + 1, sizeof *list);
    if (!list)
        return ortkit__error_nomem();
    for (size_t i = 0; i < n; i++)
        list[i] = repo->index.entries[i].bundle;
    int rc = ortkit_bundle_select(out, host, list, n, pin);
    free(list);
    return rc;
}
