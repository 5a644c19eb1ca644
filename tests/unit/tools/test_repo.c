/*
 * test_repo.c - the repository's parsers and checks: minisign key and
 * signature files (both signature forms, encrypted and unencrypted keys,
 * every tampering), index.json (strict reading, writing back), times, the
 * rollback state, and archives that try to leave the bundle.
 */
#include "testutil.h"

#include "repo.h"
#include "scratch.h"

#include <archive.h>
#include <archive_entry.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

static ortkit__seckey key;

static int setup(void **state)
{
    (void)state;
    if (sodium_init() < 0 || scratch_make("repo"))
        return -1;
    unsigned char pk[32];
    randombytes_buf(key.id, sizeof key.id);
    crypto_sign_keypair(pk, key.sk);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return scratch_remove();
}

static void public_of(ortkit__pubkey *pk, const ortkit__seckey *sk)
{
    char *text = NULL;
    assert_int_equal(ortkit__pubkey_format(&text, sk), 0);
    assert_int_equal(ortkit__pubkey_parse(pk, text, strlen(text)), 0);
    free(text);
}

/* ---- keys -------------------------------------------------------------------------- */

static void test_pubkey_forms(void **state)
{
    (void)state;
    ortkit__pubkey pk, again;
    char *text = NULL;
    public_of(&pk, &key);
    assert_memory_equal(pk.id, key.id, 8);
    assert_int_equal(ortkit__pubkey_format(&text, &key), 0);
    assert_non_null(strstr(text, "untrusted comment: minisign public key "));
    /* The base64 line alone, and the key as options take it. */
    char *line = strchr(text, '\n') + 1;
    line[strcspn(line, "\n")] = '\0';
    assert_int_equal(ortkit__pubkey_parse(&again, line, strlen(line)), 0);
    assert_memory_equal(&again, &pk, sizeof pk);
    assert_int_equal(ortkit__pubkey_load(&again, line), 0);
    assert_memory_equal(&again, &pk, sizeof pk);
    free(text);
    static const char *const bad[] = {
        "", "untrusted comment: x\n", "untrusted comment: x\nnot base64!\n",
        "untrusted comment: x\nRWQ=\n", /* too short */
        "untrusted comment: x\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n", /* not "Ed" */
        "untrusted comment: x\na\nb\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_not_equal(ortkit__pubkey_parse(&again, bad[i], strlen(bad[i])), 0);
    assert_int_equal(ortkit__pubkey_load(&again, NULL), ORTKIT_E_INVALID_ARG);
}

static void test_seckey_round_trip(void **state)
{
    (void)state;
    ortkit__seckey back;
    char *text = NULL;
    assert_int_equal(ortkit__seckey_format(&text, &key, NULL, 0, 0), 0);
    assert_int_equal(ortkit__seckey_parse(&back, text, strlen(text), NULL), 0);
    assert_memory_equal(&back, &key, sizeof key);
    /* A damaged checksum is refused... */
    char *b64 = strchr(text, '\n') + 1;
    size_t n = strcspn(b64, "\n");
    b64[n - 6] = b64[n - 6] == 'A' ? 'B' : 'A';
    assert_int_equal(ortkit__seckey_parse(&back, text, strlen(text), NULL), ORTKIT_E_FORMAT);
    assert_error_has("checksum");
    free(text);
    /* ...but minisign -W's unencrypted key has none (zeros), and is read. */
    unsigned char bin[158] = {'E', 'd', 0, 0, 'B', '2'};
    memcpy(bin + 54, key.id, 8);
    memcpy(bin + 62, key.sk, 64);
    char line[300], file[400];
    sodium_bin2base64(line, sizeof line, bin, sizeof bin, sodium_base64_VARIANT_ORIGINAL);
    snprintf(file, sizeof file, "untrusted comment: minisign encrypted secret key\n%s\n", line);
    assert_int_equal(ortkit__seckey_parse(&back, file, strlen(file), NULL), 0);
    assert_memory_equal(&back, &key, sizeof key);
}

static void test_seckey_encrypted(void **state)
{
    (void)state;
    ortkit__seckey back;
    char *text = NULL;
    /* The smallest scrypt limits: the format, not the cost, is under test. */
    assert_int_equal(ortkit__seckey_format(&text, &key, "secret",
                                           crypto_pwhash_scryptsalsa208sha256_OPSLIMIT_MIN,
                                           crypto_pwhash_scryptsalsa208sha256_MEMLIMIT_MIN), 0);
    assert_int_equal(ortkit__seckey_parse(&back, text, strlen(text), "secret"), 0);
    assert_memory_equal(&back, &key, sizeof key);
    assert_int_equal(ortkit__seckey_parse(&back, text, strlen(text), "wrong"), ORTKIT_E_FORMAT);
    assert_error_has("wrong password");
    assert_int_equal(ortkit__seckey_parse(&back, text, strlen(text), NULL), ORTKIT_E_INVALID_ARG);
    assert_error_has("encrypted");
    free(text);
}

/* ---- signatures -------------------------------------------------------------------- */

static void test_sign_verify(void **state)
{
    (void)state;
    ortkit__pubkey pk;
    ortkit__signature sig;
    public_of(&pk, &key);
    const char data[] = "{\"serial\": 1}\n";
    char *text = NULL;
    assert_int_equal(ortkit__sign(&text, &key, data, strlen(data), "serial 1"), 0);
    assert_int_equal(ortkit__signature_parse(&sig, text, strlen(text)), 0);
    assert_true(sig.prehashed);
    assert_string_equal(sig.trusted_comment, "serial 1");
    assert_int_equal(ortkit__verify(&sig, &pk, data, strlen(data), "index"), 0);
    /* The file changed, the trusted comment changed, another key. */
    assert_int_equal(ortkit__verify(&sig, &pk, "{\"serial\": 2}\n", 14, "index"), ORTKIT_E_FORMAT);
    assert_error_has("does not verify");
    ortkit__signature forged = sig;
    snprintf(forged.trusted_comment, sizeof forged.trusted_comment, "serial 9");
    assert_int_equal(ortkit__verify(&forged, &pk, data, strlen(data), "index"), ORTKIT_E_FORMAT);
    assert_error_has("trusted comment");
    ortkit__pubkey other = pk;
    other.id[0] ^= 1;
    assert_int_equal(ortkit__verify(&sig, &other, data, strlen(data), "index"), ORTKIT_E_FORMAT);
    assert_error_has("is signed with key");
    /* CRLF line ends read the same. */
    char crlf[1024];
    size_t j = 0;
    for (const char *p = text; *p && j + 2 < sizeof crlf; p++) {
        if (*p == '\n')
            crlf[j++] = '\r';
        crlf[j++] = *p;
    }
    assert_int_equal(ortkit__signature_parse(&forged, crlf, j), 0);
    assert_memory_equal(&forged, &sig, sizeof sig);
    free(text);
    static const char *const bad[] = {"", "untrusted comment: x\n",
                                      "untrusted comment: x\nAAAA\ntrusted comment: y\nAAAA\n",
                                      "a\nb\nc\nd\ne\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_not_equal(ortkit__signature_parse(&sig, bad[i], strlen(bad[i])), 0);
}

/* minisign's legacy form, "Ed": the signature is over the file itself. */
static void test_legacy_signature(void **state)
{
    (void)state;
    ortkit__pubkey pk;
    ortkit__signature sig;
    public_of(&pk, &key);
    const char data[] = "legacy";
    unsigned char bin[74] = {'E', 'd'}, global[64], msg[64 + 1];
    memcpy(bin + 2, key.id, 8);
    crypto_sign_detached(bin + 10, NULL, (const unsigned char *)data, strlen(data), key.sk);
    memcpy(msg, bin + 10, 64);
    msg[64] = 'c';
    crypto_sign_detached(global, NULL, msg, sizeof msg, key.sk);
    char b1[200], b2[200], text[600];
    sodium_bin2base64(b1, sizeof b1, bin, sizeof bin, sodium_base64_VARIANT_ORIGINAL);
    sodium_bin2base64(b2, sizeof b2, global, sizeof global, sodium_base64_VARIANT_ORIGINAL);
    snprintf(text, sizeof text, "untrusted comment: x\n%s\ntrusted comment: c\n%s\n", b1, b2);
    assert_int_equal(ortkit__signature_parse(&sig, text, strlen(text)), 0);
    assert_false(sig.prehashed);
    assert_int_equal(ortkit__verify(&sig, &pk, data, strlen(data), "file"), 0);
}

/* ---- the index --------------------------------------------------------------------- */

#define SHA "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define MANIFEST                                                                              \
    "{\"schema\": 1, \"name\": \"ort-1.30.0-cpu\", \"onnxruntime\": {\"version\": \"1.30.0\", " \
    "\"api_level\": 30}, \"variant\": \"cpu\", \"requires\": {\"arch\": \"x86_64\", "           \
    "\"cpu_features\": [], \"cuda\": null, \"compute_capability\": null, \"exact_sm_only\": "   \
    "false, \"jetson\": false, \"min_driver\": null}, \"library\": "                            \
    "\"lib/libonnxruntime.so.1.30.0\", \"providers\": [\"CPUExecutionProvider\"], \"files\": "  \
    "[{\"path\": \"lib/libonnxruntime.so.1.30.0\", \"size\": 1, \"sha256\": \"" SHA "\"}]}"

static char *index_text(const char *name, const char *archive, const char *extra)
{
    char *text = malloc(8192);
    snprintf(text, 8192,
             "{\"schema\": 1, \"serial\": 3, \"created\": \"2025-01-01T00:00:00Z\", "
             "\"expires\": \"2025-02-01T00:00:00Z\"%s, \"bundles\": [{\"name\": \"%s\", "
             "\"onnxruntime\": \"1.30.0\", \"variant\": \"cpu\", \"archive\": \"%s\", \"size\": 10, "
             "\"sha256\": \"" SHA "\", \"unpacked_size\": 1, \"manifest\": " MANIFEST "}]}",
             extra, name, archive);
    return text;
}

static void test_index_read_write(void **state)
{
    (void)state;
    ortkit__repo_index idx, again;
    char *text = index_text("ort-1.30.0-cpu", "archives/" SHA ".tar.zst", "");
    assert_int_equal(ortkit__index_parse(&idx, text, strlen(text), "index"), 0);
    assert_int_equal(idx.serial, 3);
    assert_int_equal(idx.expires, 1738368000);
    assert_int_equal(idx.count, 1);
    assert_string_equal(idx.entries[0].name, "ort-1.30.0-cpu");
    assert_int_equal(idx.entries[0].size, 10);
    assert_string_equal(ortkit_bundle_manifest(idx.entries[0].bundle)->library,
                        "lib/libonnxruntime.so.1.30.0");
    char *out = NULL, *out2 = NULL;
    assert_int_equal(ortkit__index_to_json(&out, &idx), 0);
    assert_int_equal(ortkit__index_parse(&again, out, strlen(out), "again"), 0);
    assert_int_equal(ortkit__index_to_json(&out2, &again), 0);
    assert_string_equal(out, out2);
    ortkit__index_free(&idx);
    ortkit__index_free(&again);
    free(out);
    free(out2);
    free(text);
}

static void test_index_refused(void **state)
{
    (void)state;
    static const struct {
        const char *name, *archive, *extra, *why;
    } cases[] = {
        {"ort-1.30.0-cpu", "archives/../../etc/passwd", "", "named by its SHA-256"},
        {"ort-1.30.0-cpu", "/archives/" SHA ".tar.zst", "", "named by its SHA-256"},
        {"other", "archives/" SHA ".tar.zst", "", "must be the manifest's"},
        {"../x", "archives/" SHA ".tar.zst", "", "not a bundle name"},
        {"ort-1.30.0-cpu", "archives/" SHA ".tar.zst", ", \"mirror\": 1", "unknown key 'mirror'"},
    };
    ortkit__repo_index idx;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = index_text(cases[i].name, cases[i].archive, cases[i].extra);
        assert_int_equal(ortkit__index_parse(&idx, text, strlen(text), "index"), ORTKIT_E_FORMAT);
        assert_error_has(cases[i].why);
        assert_null(idx.entries);
        free(text);
    }
    static const char *const texts[] = {
        "", "[]", "{\"schema\": 2, \"serial\": 1}",
        "{\"schema\": 1, \"serial\": 0, \"created\": \"2025-01-01T00:00:00Z\", \"expires\": "
        "\"2025-01-01T00:00:00Z\", \"bundles\": []}",
        "{\"schema\": 1, \"serial\": 1, \"created\": \"yesterday\", \"expires\": "
        "\"2025-01-01T00:00:00Z\", \"bundles\": []}",
        "{\"schema\": 1, \"serial\": 1, \"created\": \"2025-01-01T00:00:00Z\", \"expires\": "
        "\"2025-01-01T00:00:00Z\", \"bundles\": {}}"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        assert_int_not_equal(ortkit__index_parse(&idx, texts[i], strlen(texts[i]), "index"), 0);
    /* One name twice. */
    char *one = index_text("ort-1.30.0-cpu", "archives/" SHA ".tar.zst", "");
    char *entry = strstr(one, "{\"name\"");
    size_t elen = strlen(entry) - 2; /* without "]}" */
    char *two = malloc(strlen(one) + elen + 8);
    sprintf(two, "%.*s%.*s, %s", (int)(entry - one), one, (int)elen, entry, entry);
    assert_int_equal(ortkit__index_parse(&idx, two, strlen(two), "index"), ORTKIT_E_FORMAT);
    assert_error_has("listed twice");
    free(one);
    free(two);
}

static void test_times(void **state)
{
    (void)state;
    int64_t t = 0;
    char text[32];
    assert_int_equal(ortkit__time_parse(&t, "2025-11-23T10:00:00Z"), 0);
    ortkit__time_format(text, t);
    assert_string_equal(text, "2025-11-23T10:00:00Z");
    assert_int_not_equal(ortkit__time_parse(&t, "2025-11-23 10:00:00"), 0);
    assert_int_not_equal(ortkit__time_parse(&t, "2025-11-23T10:00:00Z+"), 0);
    assert_int_not_equal(ortkit__time_parse(&t, NULL), 0);
}

/* ---- the rollback state ------------------------------------------------------------ */

static void test_state(void **state)
{
    (void)state;
    char *dir = NULL;
    uint64_t last = 0;
    ortkit__pubkey a, b, c;
    memset(&a, 0, sizeof a);
    memcpy(a.id, "ABCDEFGH", 8);
    memset(a.pk, 1, sizeof a.pk);
    b = a;
    b.pk[31] ^= 1; /* the same key number, another key: anyone can make one */
    c = a;
    c.id[0] = 'Z';
    assert_int_equal(ortkit__state_dir(&dir, at("state/repos")), 0);
    struct stat st;
    assert_int_equal(stat(dir, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    assert_int_equal(ortkit__state_check(&last, dir, &a, 5, SHA), 0);
    assert_int_equal(last, 0);
    assert_int_equal(ortkit__state_check(&last, dir, &a, 5, SHA), 0); /* the same again */
    assert_int_equal(last, 5);
    assert_int_equal(ortkit__state_check(&last, dir, &a, 4, SHA), ORTKIT_E_FORMAT);
    assert_error_has("rollback");
    char other[65];
    memset(other, 'e', 64);
    other[64] = '\0';
    assert_int_equal(ortkit__state_check(&last, dir, &a, 5, other), ORTKIT_E_FORMAT);
    assert_error_has("other contents");
    assert_int_equal(ortkit__state_check(&last, dir, &a, 6, other), 0);
    assert_int_equal(ortkit__state_check(&last, dir, &c, 1, SHA), 0); /* another key */
    assert_int_equal(last, 0);
    /* A key sharing a's number with a serial of 2^53-1 is no rollback for a. */
    assert_int_equal(ortkit__state_check(&last, dir, &b, 9007199254740991ULL, SHA), 0);
    assert_int_equal(last, 0);
    assert_int_equal(ortkit__state_check(&last, dir, &a, 7, SHA), 0);
    assert_int_equal(last, 6);
    free(dir);
}

/* ---- archives that try to leave -------------------------------------------------- */

/* One entry in a tar + zstd archive, or (gzip) a release's tar + gzip. */
static void write_archive_as(const char *path, const char *name, unsigned type, const char *link,
                             int gzip)
{
    struct archive *a = archive_write_new();
    struct archive_entry *e = archive_entry_new();
    if (gzip)
        archive_write_add_filter_gzip(a);
    else
        archive_write_add_filter_zstd(a);
    archive_write_set_format_pax_restricted(a);
    assert_int_equal(archive_write_open_filename(a, path), ARCHIVE_OK);
    archive_entry_set_pathname(e, name);
    archive_entry_set_filetype(e, type);
    archive_entry_set_perm(e, 0644);
    archive_entry_set_size(e, type == AE_IFREG ? 4 : 0);
    if (link)
        archive_entry_set_symlink(e, link);
    assert_int_equal(archive_write_header(a, e), ARCHIVE_OK);
    if (type == AE_IFREG)
        assert_int_equal(archive_write_data(a, "data", 4), 4);
    archive_write_close(a);
    archive_write_free(a);
    archive_entry_free(e);
}

static void write_archive(const char *path, const char *name, unsigned type, const char *link)
{
    write_archive_as(path, name, type, link, 0);
}

static void test_unpack_refuses(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        unsigned type;
        const char *link, *why;
    } cases[] = {
        {"../evil", AE_IFREG, NULL, "leaves the bundle"},
        {"/etc/evil", AE_IFREG, NULL, "leaves the bundle"},
        {"lib/../../evil", AE_IFREG, NULL, "leaves the bundle"},
        {"lib", AE_IFLNK, "/etc", "leaves its directory"},
        {"lib", AE_IFLNK, "../x", "leaves its directory"},
        {"fifo", AE_IFIFO, NULL, "not a regular file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char dir[64];
        snprintf(dir, sizeof dir, "unpack%zu", i);
        mkdir(at(dir), 0755);
        write_archive(at("bad.tar.zst"), cases[i].name, cases[i].type, cases[i].link);
        assert_int_equal(ortkit__unpack(at("bad.tar.zst"), at(dir), 1000), ORTKIT_E_FORMAT);
        assert_error_has(cases[i].why);
    }
    /* More bytes than the index says. */
    mkdir(at("budget"), 0755);
    write_archive(at("big.tar.zst"), "file", AE_IFREG, NULL);
    assert_int_equal(ortkit__unpack(at("big.tar.zst"), at("budget"), 3), ORTKIT_E_FORMAT);
    assert_error_has("more than the index says");
    mkdir(at("fits"), 0755);
    assert_int_equal(ortkit__unpack(at("big.tar.zst"), at("fits"), 4), 0);
    assert_int_equal(access(at("fits/file"), F_OK), 0);
}

/* A release tarball is unpacked by the same rules, a leading "./" allowed. */
static void test_unpack_gzip(void **state)
{
    (void)state;
    mkdir(at("tgz-ok"), 0755);
    write_archive_as(at("ok.tgz"), "./onnxruntime-linux-x64-1.30.0", AE_IFDIR, NULL, 1);
    assert_int_equal(ortkit__unpack_gzip(at("ok.tgz"), at("tgz-ok"), 1000), 0);
    assert_int_equal(access(at("tgz-ok/onnxruntime-linux-x64-1.30.0"), F_OK), 0);
    mkdir(at("tgz-up"), 0755);
    write_archive_as(at("up.tgz"), "./../evil", AE_IFREG, NULL, 1);
    assert_int_equal(ortkit__unpack_gzip(at("up.tgz"), at("tgz-up"), 1000), ORTKIT_E_FORMAT);
    assert_error_has("leaves the bundle");
    mkdir(at("tgz-link"), 0755);
    write_archive_as(at("link.tgz"), "LICENSE", AE_IFLNK, "/etc/passwd", 1);
    assert_int_equal(ortkit__unpack_gzip(at("link.tgz"), at("tgz-link"), 1000), ORTKIT_E_FORMAT);
    assert_error_has("leaves its directory");
    mkdir(at("tgz-big"), 0755);
    write_archive_as(at("big.tgz"), "file", AE_IFREG, NULL, 1);
    assert_int_equal(ortkit__unpack_gzip(at("big.tgz"), at("tgz-big"), 3), ORTKIT_E_FORMAT);
    assert_error_has("more than a release may hold");
    /* A zstd archive is not a release tarball. */
    assert_int_not_equal(ortkit__unpack_gzip(at("big.tar.zst"), at("tgz-big"), 1000), 0);
}

/* The SHA-256s ortkit carries for Microsoft's GitHub releases: every row in
 * the range, a hash of 64 lower-case hex digits, the file named as
 * Microsoft names it, and no row twice. */
static void test_release_table(void **state)
{
    (void)state;
    size_t n = ortkit__release_count();
    assert_true(n > 0);
    assert_null(ortkit__release_at(n));
    for (size_t i = 0; i < n; i++) {
        const ortkit__release *r = ortkit__release_at(i);
        ortkit__version v;
        char file[256];
        assert_int_equal(ortkit__version_parse(&v, r->version, NULL), 0);
        assert_int_equal(v.n, 3);
        assert_true(ortkit__version_compare(r->version, ORTKIT__RELEASE_FIRST) >= 0);
        assert_true(ortkit__version_compare(r->version, ORTKIT__RELEASE_LAST ".999") <= 0);
        assert_int_equal(strlen(r->sha256), 64);
        assert_int_equal(strspn(r->sha256, "0123456789abcdef"), 64);
        assert_true(!strcmp(r->arch, "x64") || !strcmp(r->arch, "aarch64"));
        assert_int_equal(ortkit__release_file(file, sizeof file, r->version, r->arch, r->flavour),
                         0);
        assert_string_equal(r->file, file);
        assert_ptr_equal(ortkit__release_find(r->version, r->arch, r->flavour), r);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(ortkit__release_at(j)->sha256, r->sha256);
    }
    /* Microsoft's names: "-gpu-" for CUDA 12 up to 1.26, one per CUDA major after. */
    char file[256];
    assert_int_equal(ortkit__release_file(file, sizeof file, "1.23.2", "x64", "cuda12"), 0);
    assert_string_equal(file, "onnxruntime-linux-x64-gpu-1.23.2.tgz");
    assert_int_equal(ortkit__release_file(file, sizeof file, "1.30.0", "x64", "cuda12"), 0);
    assert_string_equal(file, "onnxruntime-linux-x64-gpu_cuda12-1.30.0.tgz");
    assert_int_equal(ortkit__release_file(file, sizeof file, "1.30.0", "aarch64", "cpu"), 0);
    assert_string_equal(file, "onnxruntime-linux-aarch64-1.30.0.tgz");
    assert_int_equal(ortkit__release_file(file, sizeof file, "1.30.0", "x64", "rocm"),
                     ORTKIT_E_INVALID_ARG);
    assert_null(ortkit__release_find("1.99.0", "x64", "cpu"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pubkey_forms),     cmocka_unit_test(test_seckey_round_trip),
        cmocka_unit_test(test_seckey_encrypted), cmocka_unit_test(test_sign_verify),
        cmocka_unit_test(test_legacy_signature), cmocka_unit_test(test_index_read_write),
        cmocka_unit_test(test_index_refused),    cmocka_unit_test(test_times),
        cmocka_unit_test(test_state),            cmocka_unit_test(test_unpack_refuses),
        cmocka_unit_test(test_unpack_gzip),      cmocka_unit_test(test_release_table),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
