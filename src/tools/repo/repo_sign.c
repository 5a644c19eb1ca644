/*
 * repo_sign.c - minisign's key and signature files, with libsodium.
 *
 * A public key is "Ed" + an 8-byte key number + the Ed25519 key, in base64
 * under an untrusted comment.  A secret key is "Ed", the KDF ("Sc" for
 * scrypt, zeros for none), "B2", the KDF's salt and limits, then the key
 * number, the secret key and a BLAKE2b-256 checksum of them, XORed with
 * the scrypt stream when encrypted.  A signature is "ED" (Ed25519 over the
 * BLAKE2b-512 of the file; "Ed": over the file itself, minisign's legacy
 * form, read only), the key number and the signature, then a trusted
 * comment and a second signature over the first one and that comment.
 */
#include "repo.h"

#include <inttypes.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PUBKEY_BYTES (2 + 8 + 32)
#define SECKEY_BYTES (2 + 2 + 2 + 32 + 8 + 8 + 8 + 64 + 32)
#define SIG_BYTES (2 + 8 + 64)
#define COMMENT_UNTRUSTED "untrusted comment: "
#define COMMENT_TRUSTED "trusted comment: "

static int sodium_ready(void)
{
    if (sodium_init() < 0)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "libsodium cannot start");
    return ORTKIT_OK;
}

void ortkit__key_id_hex(char out[17], const unsigned char id[8])
{
    uint64_t n = 0;
    for (int i = 7; i >= 0; i--)
        n = (n << 8) | id[i];
    snprintf(out, 17, "%016" PRIX64, n);
}

/* The lines of a small text file: line i is [start[i], start[i] + len[i]),
 * without its "\n" or "\r\n". */
typedef struct lines {
    const char *start[4];
    size_t len[4];
    size_t n;
} lines;

static int split_lines(lines *l, const char *text, size_t size, const char *what)
{
    l->n = 0;
    const char *p = text, *end = text + size;
    if (memchr(text, '\0', size))
        return ortkit__error_set(ORTKIT_E_FORMAT, "%s: holds a NUL byte", what);
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl : end;
        size_t len = (size_t)(stop - p);
        if (len && p[len - 1] == '\r')
            len--;
        if (l->n == 4) {
            if (len)
                return ortkit__error_set(ORTKIT_E_FORMAT, "%s: more lines than it should have", what);
        } else {
            l->start[l->n] = p;
            l->len[l->n++] = len;
        }
        p = nl ? nl + 1 : end;
    }
    while (l->n && l->len[l->n - 1] == 0)
        l->n--;
    return ORTKIT_OK;
}

static int has_prefix(const lines *l, size_t i, const char *prefix)
{
    size_t n = strlen(prefix);
    return i < l->n && l->len[i] >= n && !memcmp(l->start[i], prefix, n);
}

/* Decode exactly want bytes of base64 from one line. */
static int decode(unsigned char *out, size_t want, const char *b64, size_t len, const char *what)
{
    size_t got = 0;
    const char *end = NULL;
    unsigned char buf[256];
    if (want > sizeof buf || len > 512 ||
        sodium_base642bin(buf, sizeof buf, b64, len, NULL, &got, &end,
                          sodium_base64_VARIANT_ORIGINAL) != 0 ||
        end != b64 + len || got != want)
        return ortkit__error_set(ORTKIT_E_FORMAT, "%s: not a minisign %s (bad base64 or length)",
                                 what, want == PUBKEY_BYTES   ? "public key"
                                       : want == SIG_BYTES    ? "signature"
                                       : want == SECKEY_BYTES ? "secret key"
                                                              : "signature");
    memcpy(out, buf, want);
    sodium_memzero(buf, sizeof buf);
    return ORTKIT_OK;
}

static char *encode(const unsigned char *bin, size_t n)
{
    size_t cap = sodium_base64_ENCODED_LEN(n, sodium_base64_VARIANT_ORIGINAL);
    char *out = malloc(cap);
    if (out)
        sodium_bin2base64(out, cap, bin, n, sodium_base64_VARIANT_ORIGINAL);
    return out;
}

int ortkit__pubkey_parse(ortkit__pubkey *out, const char *text, size_t size)
{
    lines l;
    int rc = split_lines(&l, text, size, "public key");
    if (rc)
        return rc;
    /* A file (comment, key) or the key alone, as `minisign -P` takes it. */
    size_t at = has_prefix(&l, 0, COMMENT_UNTRUSTED) ? 1 : 0;
    if (l.n != at + 1)
        return ortkit__error_set(ORTKIT_E_FORMAT, "public key: expected an untrusted comment "
                                 "line and one line of base64");
    unsigned char bin[PUBKEY_BYTES];
    if ((rc = decode(bin, sizeof bin, l.start[at], l.len[at], "public key")))
        return rc;
    if (memcmp(bin, "Ed", 2))
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "public key: algorithm '%.2s' is not "
                                 "Ed25519 ('Ed')", (const char *)bin);
    memcpy(out->id, bin + 2, 8);
    memcpy(out->pk, bin + 10, 32);
    return ORTKIT_OK;
}

int ortkit__pubkey_load(ortkit__pubkey *out, const char *path_or_key)
{
    if (!path_or_key || !path_or_key[0])
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "no trusted public key: give the "
                                 "repository's minisign public key (a file or \"RW...\")");
    size_t n = strlen(path_or_key);
    /* Base64 may hold '/': the key's text is a key unless a file has that name. */
    if (n == 56 && !strncmp(path_or_key, "RW", 2) && access(path_or_key, F_OK) != 0)
        return ortkit__pubkey_parse(out, path_or_key, n);
    char *text = NULL;
    size_t size = 0;
    int rc = ortkit__file_read(&text, &size, path_or_key, REPO_SIGNATURE_MAX);
    if (!rc && (rc = ortkit__pubkey_parse(out, text, size)))
        ortkit__error_wrap(rc, "'%s'", path_or_key);
    free(text);
    return rc;
}

static void seckey_checksum(unsigned char chk[32], const unsigned char *sig_alg,
                            const ortkit__seckey *k)
{
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, 32);
    crypto_generichash_update(&st, sig_alg, 2);
    crypto_generichash_update(&st, k->id, 8);
    crypto_generichash_update(&st, k->sk, 64);
    crypto_generichash_final(&st, chk, 32);
}

static uint64_t le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static void put_le64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++, v >>= 8)
        p[i] = (unsigned char)v;
}

/* XOR the key number, key and checksum with scrypt(password, salt). */
static int scrypt_xor(unsigned char *data, size_t n, const char *password, const unsigned char *salt,
                      uint64_t ops, uint64_t mem)
{
    unsigned char stream[104];
    if (n > sizeof stream || mem > (uint64_t)SIZE_MAX ||
        crypto_pwhash_scryptsalsa208sha256(stream, n, password, strlen(password), salt,
                                           (unsigned long long)ops, (size_t)mem) != 0)
        return ortkit__error_set(ORTKIT_E_NOMEM, "secret key: cannot derive the key from the "
                                 "password (scrypt needs %" PRIu64 " MiB)", mem >> 20);
    for (size_t i = 0; i < n; i++)
        data[i] ^= stream[i];
    sodium_memzero(stream, sizeof stream);
    return ORTKIT_OK;
}

int ortkit__seckey_parse(ortkit__seckey *out, const char *text, size_t size, const char *password)
{
    int rc = sodium_ready();
    if (rc)
        return rc;
    lines l;
    if ((rc = split_lines(&l, text, size, "secret key")))
        return rc;
    if (l.n != 2 || !has_prefix(&l, 0, COMMENT_UNTRUSTED))
        return ortkit__error_set(ORTKIT_E_FORMAT, "secret key: expected an untrusted comment "
                                 "line and one line of base64");
    unsigned char bin[SECKEY_BYTES];
    if ((rc = decode(bin, sizeof bin, l.start[1], l.len[1], "secret key")))
        return rc;
    const unsigned char *kdf = bin + 2, *salt = bin + 6;
    unsigned char *keynum = bin + 54;
    if (memcmp(bin, "Ed", 2) || memcmp(bin + 4, "B2", 2)) {
        rc = ortkit__error_set(ORTKIT_E_UNSUPPORTED, "secret key: not an Ed25519 key with a "
                               "BLAKE2b checksum");
        goto cleanup;
    }
    if (!memcmp(kdf, "Sc", 2)) {
        if (!password) {
            rc = ortkit__error_set(ORTKIT_E_INVALID_ARG, "secret key: it is encrypted; give "
                                   "its password");
            goto cleanup;
        }
        if ((rc = scrypt_xor(keynum, 104, password, salt, le64(bin + 38), le64(bin + 46))))
            goto cleanup;
    } else if (kdf[0] || kdf[1]) {
        rc = ortkit__error_set(ORTKIT_E_UNSUPPORTED, "secret key: unknown key derivation '%.2s'",
                               (const char *)kdf);
        goto cleanup;
    }
    memcpy(out->id, keynum, 8);
    memcpy(out->sk, keynum + 8, 64);
    /* minisign -W leaves an unencrypted key's checksum zero, and so does not check it. */
    unsigned char chk[32], zero[32] = {0};
    int encrypted = !memcmp(kdf, "Sc", 2);
    seckey_checksum(chk, bin, out);
    if ((encrypted || sodium_memcmp(zero, keynum + 72, 32) != 0) &&
        sodium_memcmp(chk, keynum + 72, 32) != 0)
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "secret key: its checksum does not match%s",
                               encrypted ? ": wrong password?" : " (damaged)");
cleanup:
    sodium_memzero(bin, sizeof bin);
    if (rc)
        sodium_memzero(out, sizeof *out);
    return rc;
}

static int key_file(char **out, const char *comment, const unsigned char *bin, size_t n)
{
    char *b64 = encode(bin, n);
    int rc = ORTKIT_OK;
    size_t cap = b64 ? strlen(comment) + strlen(b64) + 4 : 0;
    if (!b64 || !(*out = malloc(cap)))
        rc = ortkit__error_nomem();
    else
        snprintf(*out, cap, "%s\n%s\n", comment, b64);
    if (b64)
        sodium_memzero(b64, strlen(b64));
    free(b64);
    return rc;
}

int ortkit__pubkey_format(char **out, const ortkit__seckey *sk)
{
    unsigned char bin[PUBKEY_BYTES];
    memcpy(bin, "Ed", 2);
    memcpy(bin + 2, sk->id, 8);
    crypto_sign_ed25519_sk_to_pk(bin + 10, sk->sk);
    char hex[17], comment[64];
    ortkit__key_id_hex(hex, sk->id);
    snprintf(comment, sizeof comment, COMMENT_UNTRUSTED "minisign public key %s", hex);
    return key_file(out, comment, bin, sizeof bin);
}

int ortkit__seckey_format(char **out, const ortkit__seckey *sk, const char *password,
                          uint64_t opslimit, uint64_t memlimit)
{
    int rc = sodium_ready();
    if (rc)
        return rc;
    unsigned char bin[SECKEY_BYTES] = {0};
    unsigned char *keynum = bin + 54;
    memcpy(bin, "Ed", 2);
    memcpy(bin + 4, "B2", 2);
    memcpy(keynum, sk->id, 8);
    memcpy(keynum + 8, sk->sk, 64);
    seckey_checksum(keynum + 72, bin, sk);
    if (password) {
        memcpy(bin + 2, "Sc", 2);
        randombytes_buf(bin + 6, 32);
        put_le64(bin + 38, opslimit);
        put_le64(bin + 46, memlimit);
        rc = scrypt_xor(keynum, 104, password, bin + 6, opslimit, memlimit);
    }
    if (!rc)
        rc = key_file(out, password ? COMMENT_UNTRUSTED "minisign encrypted secret key"
                                    : COMMENT_UNTRUSTED "minisign secret key (not encrypted)",
                      bin, sizeof bin);
    sodium_memzero(bin, sizeof bin);
    return rc;
}

int ortkit__signature_parse(ortkit__signature *out, const char *text, size_t size)
{
    memset(out, 0, sizeof *out);
    lines l;
    int rc = split_lines(&l, text, size, "signature");
    if (rc)
        return rc;
    if (l.n != 4 || !has_prefix(&l, 0, COMMENT_UNTRUSTED) || !has_prefix(&l, 2, COMMENT_TRUSTED))
        return ortkit__error_set(ORTKIT_E_FORMAT, "signature: expected 4 lines (untrusted "
                                 "comment, signature, trusted comment, global signature)");
    unsigned char bin[SIG_BYTES];
    if ((rc = decode(bin, sizeof bin, l.start[1], l.len[1], "signature")) ||
        (rc = decode(out->global_sig, 64, l.start[3], l.len[3], "signature")))
        return rc;
    if (!memcmp(bin, "ED", 2))
        out->prehashed = 1;
    else if (memcmp(bin, "Ed", 2))
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "signature: algorithm '%.2s' is not "
                                 "Ed25519 ('ED' or 'Ed')", (const char *)bin);
    memcpy(out->id, bin + 2, 8);
    memcpy(out->sig, bin + 10, 64);
    size_t n = l.len[2] - strlen(COMMENT_TRUSTED);
    if (n >= sizeof out->trusted_comment)
        return ortkit__error_set(ORTKIT_E_FORMAT, "signature: the trusted comment is longer "
                                 "than %zu bytes", sizeof out->trusted_comment - 1);
    memcpy(out->trusted_comment, l.start[2] + strlen(COMMENT_TRUSTED), n);
    out->trusted_comment[n] = '\0';
    return ORTKIT_OK;
}

static void blake2b_512(unsigned char out[64], const void *data, size_t size)
{
    crypto_generichash(out, 64, data, size, NULL, 0);
}

int ortkit__sign(char **out, const ortkit__seckey *sk, const void *data, size_t size,
                 const char *trusted_comment)
{
    *out = NULL;
    int rc = sodium_ready();
    if (rc)
        return rc;
    if (strchr(trusted_comment, '\n') || strchr(trusted_comment, '\r') ||
        strlen(trusted_comment) >= 1024)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "a trusted comment is one line of at "
                                 "most 1023 bytes");
    unsigned char bin[SIG_BYTES], hash[64], global[64];
    memcpy(bin, "ED", 2);
    memcpy(bin + 2, sk->id, 8);
    blake2b_512(hash, data, size);
    crypto_sign_detached(bin + 10, NULL, hash, sizeof hash, sk->sk);
    size_t tn = strlen(trusted_comment);
    unsigned char *msg = malloc(64 + tn + 1);
    if (!msg)
        return ortkit__error_nomem();
    memcpy(msg, bin + 10, 64);
    memcpy(msg + 64, trusted_comment, tn);
    crypto_sign_detached(global, NULL, msg, 64 + tn, sk->sk);
    free(msg);
    char *b1 = encode(bin, sizeof bin), *b2 = encode(global, sizeof global);
    size_t cap = b1 && b2 ? strlen(b1) + strlen(b2) + tn + 128 : 0;
    if (!cap || !(*out = malloc(cap)))
        rc = ortkit__error_nomem();
    else
        snprintf(*out, cap, COMMENT_UNTRUSTED "signature from ortkit secret key\n%s\n"
                 COMMENT_TRUSTED "%s\n%s\n", b1, trusted_comment, b2);
    free(b1);
    free(b2);
    return rc;
}

int ortkit__verify(const ortkit__signature *sig, const ortkit__pubkey *pk, const void *data,
                   size_t size, const char *what)
{
    int rc = sodium_ready();
    if (rc)
        return rc;
    char want[17], got[17];
    ortkit__key_id_hex(want, pk->id);
    ortkit__key_id_hex(got, sig->id);
    if (memcmp(sig->id, pk->id, 8))
        return ortkit__error_set(ORTKIT_E_FORMAT, "%s is signed with key %s, not with the "
                                 "trusted key %s", what, got, want);
    unsigned char hash[64];
    int bad;
    if (sig->prehashed) {
        blake2b_512(hash, data, size);
        bad = crypto_sign_verify_detached(sig->sig, hash, sizeof hash, pk->pk);
    } else {
        bad = crypto_sign_verify_detached(sig->sig, data, size, pk->pk);
    }
    if (bad)
        return ortkit__error_set(ORTKIT_E_FORMAT, "%s: the signature does not verify with key "
                                 "%s: the file was changed after it was signed", what, want);
    size_t tn = strlen(sig->trusted_comment);
    unsigned char *msg = malloc(64 + tn + 1);
    if (!msg)
        return ortkit__error_nomem();
    memcpy(msg, sig->sig, 64);
    memcpy(msg + 64, sig->trusted_comment, tn);
    bad = crypto_sign_verify_detached(sig->global_sig, msg, 64 + tn, pk->pk);
    free(msg);
    if (bad)
        return ortkit__error_set(ORTKIT_E_FORMAT, "%s: the trusted comment of its signature "
                                 "was changed after it was signed", what);
    return ORTKIT_OK;
}

int ortkit__read_verified(char **text, size_t *size, const char *path, const char *sig_path,
                          size_t max, const ortkit__seckey *sk)
{
    char *sig_text = NULL;
    size_t sig_size = 0;
    ortkit__signature sig;
    ortkit__pubkey pk;
    memcpy(pk.id, sk->id, sizeof pk.id);
    memcpy(pk.pk, sk->sk + 32, sizeof pk.pk); /* libsodium keeps the public key there */
    *text = NULL;
    int rc = ortkit__file_read(text, size, path, max);
    if (!rc && !(rc = ortkit__file_read(&sig_text, &sig_size, sig_path, 4096)) &&
        !(rc = ortkit__signature_parse(&sig, sig_text, sig_size)))
        rc = ortkit__verify(&sig, &pk, *text, *size, path);
    free(sig_text);
    if (rc) {
        free(*text);
        *text = NULL;
    }
    return rc;
}
