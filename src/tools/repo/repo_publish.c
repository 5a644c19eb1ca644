/*
 * repo_publish.c - make a key pair; publish bundles into a repository.
 *
 * Publishing packs each bundle (verified first: a broken bundle is never
 * published) into its content-addressed archive, lists it in index.json in
 * place of an entry of the same name, and signs the index with a serial one
 * higher than before.  Archives that the new index no longer lists stay, so
 * a client that read the previous index can still fetch what it lists.
 */
#include "bundle.h"
#include "repo.h"

#include "abi.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_LIFETIME (30 * 24 * 3600)

ORTKIT__ABI_STRUCT(publish_abi, ortkit_repo_publish_options, "publish options",
                   "ORTKIT_REPO_PUBLISH_OPTIONS_INIT", ORTKIT_REPO_PUBLISH_OPTIONS_VERSION,
                   sizeof(ortkit_repo_publish_options));

/* A file only its owner can read, through a temporary name beside it. */
static int write_private(const char *path, const char *text, int force)
{
    struct stat st;
    if (!force && lstat(path, &st) == 0)
        return ortkit__error_set(ORTKIT_E_IO, "'%s' exists; remove it or replace it with force",
                                 path);
    return ortkit__file_write_atomic_mode(path, text, strlen(text), 0600);
}

int ortkit_repo_keygen(const char *secret_key, const char *public_key, const char *password,
                       int force)
{
    if (!secret_key || !public_key || !secret_key[0] || !public_key[0])
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_repo_keygen: name both key files");
    if (sodium_init() < 0)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "libsodium cannot start");
    struct stat st;
    if (!force && lstat(public_key, &st) == 0)
        return ortkit__error_set(ORTKIT_E_IO, "'%s' exists; remove it or replace it with force",
                                 public_key);
    ortkit__seckey sk;
    unsigned char pk[32];
    randombytes_buf(sk.id, sizeof sk.id);
    crypto_sign_keypair(pk, sk.sk);
    char *sec_text = NULL, *pub_text = NULL;
    int rc = ortkit__seckey_format(&sec_text, &sk, password,
                                   crypto_pwhash_scryptsalsa208sha256_OPSLIMIT_SENSITIVE,
                                   crypto_pwhash_scryptsalsa208sha256_MEMLIMIT_SENSITIVE);
    if (!rc)
        rc = ortkit__pubkey_format(&pub_text, &sk);
    if (!rc)
        rc = write_private(secret_key, sec_text, force);
    if (!rc && (rc = ortkit__file_write_atomic(public_key, pub_text, strlen(pub_text))))
        unlink(secret_key);
    sodium_memzero(&sk, sizeof sk);
    if (sec_text)
        sodium_memzero(sec_text, strlen(sec_text));
    free(sec_text);
    free(pub_text);
    return rc;
}

/* The repository's index as it is now (an empty one when there is none),
 * trusted only when its signature verifies with the public half of sk:
 * whoever can write the directory must not get an entry signed by the
 * publisher's next, unrelated publication. */
static int read_index(ortkit__repo_index *index, const char *dir, const ortkit__seckey *sk)
{
    char path[PATH_MAX], sig_path[PATH_MAX];
    int rc = ortkit__pathf(path, sizeof path, "%s/" REPO_INDEX, dir);
    memset(index, 0, sizeof *index);
    if (rc || (rc = ortkit__pathf(sig_path, sizeof sig_path, "%s/" REPO_SIGNATURE, dir)))
        return rc;
    struct stat st;
    if (lstat(path, &st) != 0 && errno == ENOENT) {
        if (lstat(sig_path, &st) == 0)
            return ortkit__error_set(ORTKIT_E_FORMAT, "'%s' has a signature but no index: not "
                                     "published over (restore the index or remove '%s')", dir,
                                     sig_path);
        return ORTKIT_OK;
    }
    char *text = NULL;
    size_t size = 0;
    if ((rc = ortkit__read_verified(&text, &size, path, sig_path, REPO_INDEX_MAX, sk)) ||
        (rc = ortkit__index_parse(index, text, size, path)))
        ortkit__error_wrap(rc, "the repository '%s' cannot be trusted to publish into: nothing "
                           "was carried or signed (publish into a new directory, or restore "
                           "the index its key signed)", dir);
    free(text);
    return rc;
}

/* Every archive the new index carries over from the old one must still be
 * the one that index signed: its size and SHA-256. */
static int check_carried(const ortkit__repo_index *index, size_t old_count,
                         const unsigned char *replaced, const char *dir)
{
    for (size_t i = 0; i < old_count; i++) {
        const ortkit_repo_entry *e = &index->entries[i];
        if (replaced[i])
            continue;
        char path[PATH_MAX], hex[65];
        uint64_t size = 0;
        int rc = ortkit__pathf(path, sizeof path, "%s/%s", dir, e->archive);
        if (!rc)
            rc = ortkit__sha256_file(hex, &size, path);
        if (rc)
            return ortkit__error_wrap(rc, "'%s' (bundle %s), listed by the signed index, cannot "
                                      "be checked: not published", path, e->name);
        if (size != e->size || strcmp(hex, e->sha256))
            return ortkit__error_set(ORTKIT_E_FORMAT, "'%s' (bundle %s) is not the archive the "
                                     "signed index lists (%llu bytes, SHA-256 %.16s...; the "
                                     "index: %llu, %.16s...): it was changed; not published "
                                     "(publish the bundle again to replace it)", path, e->name,
                                     (unsigned long long)size, hex,
                                     (unsigned long long)e->size, e->sha256);
    }
    return ORTKIT_OK;
}

/* An entry for the bundle at path, its archive packed into dir. */
static int make_entry(ortkit_repo_entry *e, const char *path, const char *dir)
{
    memset(e, 0, sizeof *e);
    ortkit_bundle *b = NULL, *listed = NULL;
    char *json = NULL, sha[65], archive[128];
    uint64_t size = 0, unpacked = 0;
    int rc = ortkit_bundle_open(&b, path);
    if (rc)
        return rc;
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    if (ortkit_bundle_damage(b)[0]) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' is damaged: %s; not published", path,
                               ortkit_bundle_damage(b));
        goto cleanup;
    }
    if ((rc = ortkit_bundle_verify(b))) {
        ortkit__error_wrap(rc, "'%s' does not verify; not published", path);
        goto cleanup;
    }
    if ((rc = ortkit__pack(sha, &size, &unpacked, b, dir)) ||
        (rc = ortkit__bundle_to_json(&json, m)) ||
        (rc = ortkit__bundle_parse(&listed, json, strlen(json), path)))
        goto cleanup;
    snprintf(archive, sizeof archive, REPO_ARCHIVES "/%s.tar.zst", sha);
    e->bundle = listed;
    listed = NULL;
    e->size = size;
    e->unpacked_size = unpacked;
    if (!(e->name = ortkit__strdup(m->name)) || !(e->ort_version = ortkit__strdup(m->ort_version)) ||
        !(e->variant = ortkit__strdup(m->variant)) || !(e->archive = ortkit__strdup(archive)) ||
        !(e->sha256 = ortkit__strdup(sha)))
        rc = ortkit__error_nomem();
cleanup:
    free(json);
    ortkit_bundle_free(listed);
    ortkit_bundle_free(b);
    return rc;
}

/* Put e in the index, in place of an entry of the same name (e is emptied);
 * replaced[i] marks an entry of the old index (i < old_count) put aside. */
static int add_entry(ortkit__repo_index *index, ortkit_repo_entry *e, unsigned char *replaced,
                     size_t old_count)
{
    for (size_t i = 0; i < index->count; i++) {
        if (!strcmp(index->entries[i].name, e->name)) {
            if (i < old_count)
                replaced[i] = 1;
            ortkit__entry_free(&index->entries[i]);
            index->entries[i] = *e;
            memset(e, 0, sizeof *e);
            return ORTKIT_OK;
        }
    }
    if (index->count == REPO_MAX_ENTRIES)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "a repository lists at most %d bundles",
                                 REPO_MAX_ENTRIES);
    ortkit_repo_entry *grown = realloc(index->entries, (index->count + 1) * sizeof *grown);
    if (!grown)
        return ortkit__error_nomem();
    index->entries = grown;
    index->entries[index->count++] = *e;
    memset(e, 0, sizeof *e);
    return ORTKIT_OK;
}

static int sign_and_write(const char *dir, const ortkit__repo_index *index, const ortkit__seckey *sk,
                          const char *comment)
{
    char *text = NULL, *sig = NULL, path[PATH_MAX], sig_path[PATH_MAX];
    int rc = ortkit__index_to_json(&text, index);
    if (!rc)
        rc = ortkit__sign(&sig, sk, text, strlen(text), comment);
    /* Both are made before either is written, so the two renames follow each other. */
    if (!rc && !(rc = ortkit__pathf(path, sizeof path, "%s/" REPO_INDEX, dir)) &&
        !(rc = ortkit__pathf(sig_path, sizeof sig_path, "%s/" REPO_SIGNATURE, dir)) &&
        !(rc = ortkit__file_write_atomic(path, text, strlen(text))))
        rc = ortkit__file_write_atomic(sig_path, sig, strlen(sig));
    free(text);
    free(sig);
    return rc;
}

int ortkit_repo_publish(ortkit_repo **out, const char *dir, const char *const *bundles, size_t count,
                        const ortkit_repo_publish_options *opts)
{
    if (out)
        *out = NULL;
    ortkit_repo_publish_options o = ORTKIT_REPO_PUBLISH_OPTIONS_INIT;
    if (!opts || !opts->secret_key)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_repo_publish: no secret key "
                                 "(options.secret_key)");
    if (ortkit__abi_read(&publish_abi, &o, opts))
        return ORTKIT_E_INVALID_ARG;
    if (!dir || !dir[0] || (count && !bundles))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_repo_publish: no repository");
    ortkit__seckey sk;
    ortkit__repo_index index = {0};
    ortkit_repo_entry e = {0};
    ortkit_repo *r = NULL;
    char *key_text = NULL, archives[PATH_MAX], lock[PATH_MAX], comment[1024];
    size_t key_size = 0;
    int fd = -1;
    int rc = ortkit__file_read(&key_text, &key_size, o.secret_key, 4096);
    if (!rc && (rc = ortkit__seckey_parse(&sk, key_text, key_size, o.password)))
        ortkit__error_wrap(rc, "'%s'", o.secret_key);
    if (rc || (rc = ortkit__pathf(archives, sizeof archives, "%s/" REPO_ARCHIVES, dir)) ||
        (rc = ortkit__mkdirs(archives)) ||
        (rc = ortkit__pathf(lock, sizeof lock, "%s/.ortkit-publish.lock", dir)) ||
        (rc = ortkit__lock(&fd, lock)) || (rc = read_index(&index, dir, &sk)))
        goto cleanup;
    size_t old_count = index.count;
    unsigned char *replaced = calloc(old_count + 1, 1);
    if (!replaced) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    for (size_t i = 0; !rc && i < count; i++)
        if (!(rc = make_entry(&e, bundles[i], dir)))
            rc = add_entry(&index, &e, replaced, old_count);
    /* The entries replaced were just packed from bundles that verified. */
    if (!rc)
        rc = check_carried(&index, old_count, replaced, dir);
    free(replaced);
    if (rc)
        goto cleanup;
    if (o.serial && o.serial <= index.serial) {
        rc = ortkit__error_set(ORTKIT_E_INVALID_ARG, "serial %" PRIu64 " is not higher than the "
                               "repository's %" PRIu64 ": a serial only grows", o.serial,
                               index.serial);
        goto cleanup;
    }
    index.serial = o.serial ? o.serial : index.serial + 1;
    index.created = (int64_t)time(NULL);
    index.expires = o.expires ? o.expires : index.created + DEFAULT_LIFETIME;
    char when[32];
    ortkit__time_format(when, index.expires);
    if (o.comment)
        snprintf(comment, sizeof comment, "%s", o.comment);
    else
        snprintf(comment, sizeof comment, "ortkit repository serial %" PRIu64 ", expires %s",
                 index.serial, when);
    if ((rc = sign_and_write(dir, &index, &sk, comment)) || !out ||
        (rc = ortkit__repo_new(&r, dir, NULL)))
        goto cleanup;
    if ((rc = ortkit__repo_take_index(r, &index, sk.id, comment)))
        goto cleanup;
    *out = r;
    r = NULL;
cleanup:
    sodium_memzero(&sk, sizeof sk);
    if (key_text)
        sodium_memzero(key_text, key_size);
    free(key_text);
    ortkit__index_free(&index);
    ortkit__entry_free(&e);
    ortkit_repo_free(r);
    if (fd >= 0)
        close(fd);
    return rc;
}
