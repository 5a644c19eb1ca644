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

void ortkit__repo_take_index(ortkit_repo *r, ortkit__repo_index *index)
{
    ortkit__index_free(&r->index);
    r->index = *index;
    memset(index, 0, sizeof *index);
    r->info.serial = r->index.serial;
    r->info.created = r->index.created;
    r->info.expires = r->index.expires;
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
    ortkit__signature sig;
    ortkit__repo_index index = {0};
    ortkit_repo *r = NULL;
    char *text = NULL, *sig_text = NULL, *state = NULL;
    size_t size = 0, sig_size = 0;
    char what[PATH_MAX + 32], sha[65];
    int rc;
    if (o.timeout_s < 0 || o.min_rate_window_s < 0) {
        rc = ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_repo_open: a negative time limit");
        goto cleanup;
    }
    if ((rc = ortkit__pubkey_load(&pk, o.pubkey)) || (rc = ortkit__repo_new(&r, source, o.ca_file)))
        goto cleanup;
    r->src.timeout_s = o.timeout_s > 0 ? o.timeout_s : REPO_DEFAULT_TIMEOUT_S;
    r->src.min_rate = o.min_rate ? o.min_rate : REPO_DEFAULT_MIN_RATE;
    r->src.min_rate_window_s = o.min_rate_window_s > 0 ? o.min_rate_window_s
                                                       : REPO_DEFAULT_MIN_RATE_WINDOW_S;
    snprintf(what, sizeof what, "%s/" REPO_INDEX, r->base);
    if ((rc = ortkit__fetch_small(&text, &size, &r->src, REPO_INDEX, REPO_INDEX_MAX)) ||
        (rc = ortkit__fetch_small(&sig_text, &sig_size, &r->src, REPO_SIGNATURE,
                                  REPO_SIGNATURE_MAX)))
        goto cleanup;
    if ((rc = ortkit__signature_parse(&sig, sig_text, sig_size))) {
        ortkit__error_wrap(rc, "%s/" REPO_SIGNATURE, r->base);
        goto cleanup;
    }
    if ((rc = ortkit__verify(&sig, &pk, text, size, what)) ||
        (rc = ortkit__index_parse(&index, text, size, what)))
        goto cleanup;
    int64_t now = o.now ? o.now : (int64_t)time(NULL);
    if (now >= index.expires) {
        char when[32];
        ortkit__time_format(when, index.expires);
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "%s expired at %s: refused (the publisher "
                               "signs a new one with 'ortkit bundle publish')", what, when);
        goto cleanup;
    }
    ortkit__key_id_hex(r->key_id, pk.id);
    if ((rc = ortkit__sha256_hex(sha, text, size)) ||
        (rc = ortkit__state_dir(&state, o.state_dir)) ||
        (rc = ortkit__state_check(&r->info.last_serial, state, &pk, index.serial, sha)))
        goto cleanup;
    if (!(r->comment = ortkit__strdup(sig.trusted_comment))) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    r->info.trusted_comment = r->comment;
    ortkit__repo_take_index(r, &index);
cleanup:
    ortkit__index_free(&index);
    free(text);
    free(sig_text);
    free(state);
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
