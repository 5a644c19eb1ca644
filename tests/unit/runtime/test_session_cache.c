/* test_session_cache.c - the cache of optimised sessions: keys, hits, damaged and
 * foreign entries, eviction, two processes filling one entry, on both runtimes;
 * directories and entries others can write, links planted at fill names. */
#include "testutil.h"
#include "scratch.h"
#include "session_cache.h"
#include "session_cache_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const float a_vals[6] = {1, 2, 3, 4, 5, 6}, b_vals[6] = {0.5f, 0.25f, -1, 8, 0, 3};

/* Open add.onnx with opts; the cache's state, and the reason in *why. */
static ortkit_cache_state open_add(ortkit_runtime *rt, const ortkit_session_options *o, ortkit_session **out,
                                   const char **why)
{
    if (ortkit_session_open(out, rt, model_path("add.onnx"), o))
        fail_msg("cannot open add.onnx: %s", ortkit_error_last());
    return ortkit_session_cache(*out, why);
}

static ortkit_cache_state state_of(ortkit_runtime *rt, const ortkit_session_options *o)
{
    ortkit_session *s = NULL;
    ortkit_cache_state st = open_add(rt, o, &s, NULL);
    ortkit_session_free(s);
    return st;
}

/* a + b through s, compared with the sum. */
static void check_runs(ortkit_session *s)
{
    const int64_t shape[2] = {2, 3};
    ortkit_tensor *in[2] = {NULL, NULL}, *out[1] = {NULL};
    assert_int_equal(ortkit_tensor_new(&in[0], ORTKIT_TYPE_FLOAT32, shape, 2), 0);
    assert_int_equal(ortkit_tensor_new(&in[1], ORTKIT_TYPE_FLOAT32, shape, 2), 0);
    memcpy(ortkit_tensor_data(in[0]), a_vals, sizeof a_vals);
    memcpy(ortkit_tensor_data(in[1]), b_vals, sizeof b_vals);
    const char *names[2] = {"a", "b"};
    assert_int_equal(ortkit_session_run(s, NULL, names, (const ortkit_tensor *const *)in, 2, NULL, 0, out), 0);
    const float *sum = ortkit_tensor_data(out[0]);
    for (int i = 0; i < 6; i++)
        assert_true(sum[i] == a_vals[i] + b_vals[i]);
    ortkit_tensor_free(in[0]);
    ortkit_tensor_free(in[1]);
    ortkit_tensor_free(out[0]);
}

static size_t count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strstr(e->d_name, ORTKIT__CACHE_SUFFIX) != NULL && !strstr(e->d_name, ".tmp.");
    if (d)
        closedir(d);
    return n;
}

/* The path of the one entry in dir. */
static const char *only_entry(const char *dir)
{
    static char path[1024];
    DIR *d = opendir(dir);
    assert_non_null(d);
    path[0] = '\0';
    for (struct dirent *e; (e = readdir(d));)
        if (strstr(e->d_name, ORTKIT__CACHE_SUFFIX))
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    closedir(d);
    assert_true(path[0]);
    return path;
}

static void test_hit_and_same_results(void **state)
{
    (void)state;
    for (int r = 0; r < 2; r++) {
        const char *dir = at(r ? "hit-old" : "hit-new");
        ortkit_session_options o = ORTKIT_SESSION_OPTIONS_INIT;
        o.cache_dir = dir;
        ortkit_session *s = NULL;
        const char *why;
        assert_int_equal(open_add(runtimes[r], &o, &s, &why), ORTKIT_CACHE_FILLED);
        assert_string_equal(why, "");
        check_runs(s);
        ortkit_session_free(s);
        assert_int_equal(open_add(runtimes[r], &o, &s, &why), ORTKIT_CACHE_HIT);
        check_runs(s);
        /* Introspection reads the same from the cached graph. */
        assert_int_equal(ortkit_session_input_count(s), 2);
        assert_string_equal(ortkit_session_input(s, 0)->dims[0].symbol, "N");
        assert_string_equal(ortkit_session_metadata(s)->producer, "ortkit-tests");
        ortkit_session_free(s);
        assert_int_equal(count_entries(dir), 1);
        /* Without cache_dir the cache has no part. */
        assert_int_equal(state_of(runtimes[r], NULL), ORTKIT_CACHE_OFF);
    }
}

static void test_key_follows_options(void **state)
{
    (void)state;
    const char *dir = at("key");
    ortkit_session_options o = ORTKIT_SESSION_OPTIONS_INIT;
    o.cache_dir = dir;
    assert_int_equal(state_of(runtimes[0], &o), ORTKIT_CACHE_FILLED);
    /* What does not change the optimised graph shares the entry. */
    ortkit_session_options same = o;
    same.intra_op_threads = 1;
    same.cpu_arena = ORTKIT_SWITCH_OFF;
    same.mem_pattern = ORTKIT_SWITCH_OFF;
    same.intra_op_spinning = ORTKIT_SWITCH_OFF;
    assert_int_equal(state_of(runtimes[0], &same), ORTKIT_CACHE_HIT);
    /* Each of these makes an entry of its own. */
    ortkit_session_options level = o, cpu = o, config = o;
    level.graph_opt = ORTKIT_GRAPH_OPT_BASIC;
    const char *cpu_only[] = {"cpu"};
    cpu.providers = cpu_only;
    cpu.provider_count = 1;
    const char *keys[] = {"session.disable_prepacking"}, *values[] = {"1"};
    config.config_keys = keys;
    config.config_values = values;
    config.config_count = 1;
    const ortkit_session_options *variants[] = {&level, &cpu, &config};
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(state_of(runtimes[0], variants[i]), ORTKIT_CACHE_FILLED);
        assert_int_equal(state_of(runtimes[0], variants[i]), ORTKIT_CACHE_HIT);
        assert_int_equal(count_entries(dir), 2 + i);
    }
    /* The other runtime, the same options: another entry. */
    assert_int_equal(state_of(runtimes[1], &o), ORTKIT_CACHE_FILLED);
    assert_int_equal(count_entries(dir), 5);
    /* Other model bytes: another entry. */
    ortkit_session *s = NULL;
    assert_int_equal(ortkit_session_open(&s, runtimes[0], model_path("dynamic.onnx"), &o), 0);
    assert_int_equal(ortkit_session_cache(s, NULL), ORTKIT_CACHE_FILLED);
    ortkit_session_free(s);
    assert_int_equal(count_entries(dir), 6);
}

static void test_skipped_with_reason(void **state)
{
    (void)state;
    ortkit_session_options o = ORTKIT_SESSION_OPTIONS_INIT;
    o.cache_dir = at("skip");
    const char *eps[] = {"cuda"};
    o.providers = eps;
    o.provider_count = 1;
    ortkit_session *s = NULL;
    const char *why;
    assert_int_equal(open_add(runtimes[0], &o, &s, &why), ORTKIT_CACHE_SKIPPED);
    assert_non_null(strstr(why, "only CPU sessions are cached"));
    check_runs(s);
    ortkit_session_free(s);
    /* A directory that cannot be made: the session opens all the same. */
    ortkit_session_options bad = ORTKIT_SESSION_OPTIONS_INIT;
    bad.cache_dir = model_path("add.onnx/sub");
    assert_int_equal(open_add(runtimes[0], &bad, &s, &why), ORTKIT_CACHE_SKIPPED);
    assert_true(why[0]);
    check_runs(s);
    ortkit_session_free(s);
}

/* Write bytes at offset of path. */
static void poke(const char *path, off_t offset, const void *bytes, size_t n)
{
    int fd = open(path, O_WRONLY);
    assert_true(fd >= 0);
    assert_int_equal(pwrite(fd, bytes, n, offset), (ssize_t)n);
    close(fd);
}

/* Open add.onnx cached in dir: the cache must end in state, its reason
 * holding reason (and also, unless NULL); the session runs either way. */
static void expect_state(const char *dir, ortkit_cache_state state, const char *reason,
                         const char *also)
{
    ortkit_session_options o = ORTKIT_SESSION_OPTIONS_INIT;
    o.cache_dir = dir;
    ortkit_session *s = NULL;
    const char *why;
    assert_int_equal(open_add(runtimes[0], &o, &s, &why), state);
    if (!strstr(why, reason) || (also && !strstr(why, also)))
        fail_msg("reason '%s' lacks '%s'", why, reason);
    check_runs(s);
    ortkit_session_free(s);
}

static void expect_rebuilt(const char *dir, const char *reason)
{
    expect_state(dir, ORTKIT_CACHE_FILLED, reason, "removed and made again");
    ortkit_session_options o = ORTKIT_SESSION_OPTIONS_INIT;
    o.cache_dir = dir;
    assert_int_equal(state_of(runtimes[0], &o), ORTKIT_CACHE_HIT);
}

/* The session opens uncached, saying why. */
static void expect_skipped(const char *dir, const char *reason)
{
    expect_state(dir, ORTKIT_CACHE_SKIPPED, reason, NULL);
}

static void test_damaged_entries_are_rebuilt(void **state)
{
    (void)state;
    const char *dir = at("damaged");
    ortkit_session_options o = ORTKIT_SESSION_OPTIONS_INIT;
    o.cache_dir = dir;
    assert_int_equal(state_of(runtimes[0], &o), ORTKIT_CACHE_FILLED);
    const char *entry = only_entry(dir);
    struct stat st;
    assert_int_equal(stat(entry, &st), 0);

    /* One byte of the graph changed: the checksum no longer matches. */
    unsigned char x = 0xA5;
    poke(entry, ORTKIT__CACHE_HEADER_SIZE + 40, &x, 1);
    expect_rebuilt(dir, "does not match its checksum");
    /* Cut short. */
    assert_int_equal(truncate(entry, st.st_size - 100), 0);
    expect_rebuilt(dir, "bytes, its header says");
    assert_int_equal(truncate(entry, 10), 0);
    expect_rebuilt(dir, "cut short");
    /* Not an entry at all. */
    poke(entry, 0, "NOTMAGIC", 8);
    expect_rebuilt(dir, "is not an ortkit cache entry");
    /* A valid header whose graph ONNX Runtime cannot read: refused by ORT,
     * never used, made again. */
    FILE *f = fopen(entry, "r+b");
    assert_non_null(f);
    unsigned char header[ORTKIT__CACHE_HEADER_SIZE];
    assert_int_equal(fread(header, 1, sizeof header, f), sizeof header);
    fclose(f);
    static const char junk[] = "this is not a flatbuffer of an ORT-format model at all, none";
    uint64_t size = sizeof junk;
    unsigned char md[32];
    char hex[65];
    assert_int_equal(ortkit__sha256_hex(hex, junk, sizeof junk), 0);
    for (int i = 0; i < 32; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        md[i] = (unsigned char)v;
    }
    memcpy(header + 80, &size, 8);
    memcpy(header + 88, md, 32);
    f = fopen(entry, "wb");
    assert_non_null(f);
    fwrite(header, 1, sizeof header, f);
    fwrite(junk, 1, sizeof junk, f);
    fclose(f);
    expect_rebuilt(dir, "ONNX Runtime refused cache entry");
}

/* A good check is remembered under the entry's identity; a change made in
 * place, even one that puts the modification time back, is still caught. */
static void test_verified_once_then_remembered(void **state)
{
    (void)state;
    const char *dir = at("verified");
    ortkit_session_options o = ORTKIT_SESSION_OPTIONS_INIT;
    o.cache_dir = dir;
    assert_int_equal(state_of(runtimes[0], &o), ORTKIT_CACHE_FILLED);
    assert_int_equal(state_of(runtimes[0], &o), ORTKIT_CACHE_HIT);
    char entry[1024], memo[1024];
    snprintf(entry, sizeof entry, "%s", only_entry(dir));
    snprintf(memo, sizeof memo, "%.*s%s", (int)(strlen(entry) - strlen(ORTKIT__CACHE_SUFFIX)), entry,
             ORTKIT__CACHE_VERIFIED_SUFFIX);
    struct stat before, after;
    assert_int_equal(stat(memo, &before), 0);
    assert_int_equal(state_of(runtimes[0], &o), ORTKIT_CACHE_HIT);
    assert_int_equal(stat(memo, &after), 0);
    assert_true(before.st_ino == after.st_ino); /* read, not written again */

    struct stat st;
    assert_int_equal(stat(entry, &st), 0);
    unsigned char x;
    FILE *f = fopen(entry, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, ORTKIT__CACHE_HEADER_SIZE + 40, SEEK_SET), 0);
    assert_int_equal(fread(&x, 1, 1, f), 1);
    fclose(f);
    x ^= 0x5A;
    poke(entry, ORTKIT__CACHE_HEADER_SIZE + 40, &x, 1);
    struct timespec times[2] = {st.st_atim, st.st_mtim};
    assert_int_equal(utimensat(AT_FDCWD, entry, times, 0), 0);
    expect_rebuilt(dir, "does not match its checksum");

    /* An entry evicted takes its record with it. */
    assert_int_equal(access(memo, F_OK), 0);
    assert_int_equal(ortkit__session_cache_evict(dir, 0, NULL), 1);
    assert_int_equal(access(memo, F_OK), -1);
}

static void test_foreign_entry_refused(void **state)
{
    (void)state;
    const char *dir = at("foreign");
    ortkit_session_options o = ORTKIT_SESSION_OPTIONS_INIT, basic = ORTKIT_SESSION_OPTIONS_INIT;
    o.cache_dir = basic.cache_dir = dir;
    basic.graph_opt = ORTKIT_GRAPH_OPT_BASIC;
    assert_int_equal(state_of(runtimes[0], &o), ORTKIT_CACHE_FILLED);
    char mine[1024];
    snprintf(mine, sizeof mine, "%s", only_entry(dir));
    assert_int_equal(state_of(runtimes[0], &basic), ORTKIT_CACHE_FILLED);
    /* The other options' entry, whole and intact, put under this key's name. */
    char other[1024] = "";
    DIR *d = opendir(dir);
    for (struct dirent *e; (e = readdir(d));)
        if (strstr(e->d_name, ORTKIT__CACHE_SUFFIX) && !strstr(mine, e->d_name))
            snprintf(other, sizeof other, "%s/%s", dir, e->d_name);
    closedir(d);
    assert_true(other[0]);
    assert_int_equal(rename(other, mine), 0);
    expect_rebuilt(dir, "holds the key");
}

/* The session cache is used only in a directory no one else can write,
 * holding entries no one else can write; ortkit makes the file ONNX Runtime
 * fills, so links planted at its name are never written through. */
static void test_untrusted_places(void **state)
{
    (void)state;
    /* A directory open to others (/tmp: as root its mode, else its owner). */
    expect_skipped("/tmp", geteuid() == 0 ? "open to others (mode 1777)" : "not to this user");
    const char *open_dir = at("open");
    assert_int_equal(mkdir(open_dir, 0700), 0);
    assert_int_equal(chmod(open_dir, 0755), 0);
    expect_skipped(open_dir, "open to others (mode 0755)");
    assert_int_equal(count_entries(open_dir), 0);
    /* A link to a private directory is not followed. */
    const char *mine = at("mine"), *link = at("mine-link");
    assert_int_equal(mkdir(mine, 0700), 0);
    assert_int_equal(symlink(mine, link), 0);
    expect_skipped(link, "is not a directory");
    if (geteuid() == 0) { /* another account's directory */
        const char *theirs = at("theirs");
        assert_int_equal(mkdir(theirs, 0700), 0);
        assert_int_equal(chown(theirs, 65534, 65534), 0);
        expect_skipped(theirs, "belongs to uid 65534");
    }
    /* A new directory is made private. */
    const char *dir = at("private");
    ortkit_session_options o = ORTKIT_SESSION_OPTIONS_INIT;
    o.cache_dir = dir;
    assert_int_equal(state_of(runtimes[0], &o), ORTKIT_CACHE_FILLED);
    struct stat st;
    assert_int_equal(stat(dir, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    char entry[1024];
    snprintf(entry, sizeof entry, "%s", only_entry(dir));
    /* Entries others can write, or that are not the user's, are refused. */
    assert_int_equal(chmod(entry, 0666), 0);
    expect_rebuilt(dir, "can be written by others");
    if (geteuid() == 0) {
        snprintf(entry, sizeof entry, "%s", only_entry(dir));
        assert_int_equal(chown(entry, 65534, 65534), 0);
        expect_rebuilt(dir, "belongs to another user");
    }
    /* A session keeps its entry mapped: no other account may be able to
     * truncate it under the mapping (SIGBUS).  As root, a child that
     * becomes uid 65534 tries. */
    snprintf(entry, sizeof entry, "%s", only_entry(dir));
    assert_int_equal(stat(entry, &st), 0);
    assert_int_equal(st.st_mode & 022, 0);
    if (geteuid() == 0) {
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            if (setgid(65534) != 0 || setuid(65534) != 0)
                _exit(2);
            int fd = open(entry, O_WRONLY);
            _exit(fd < 0 && truncate(entry, 0) != 0 ? 0 : 1);
        }
        int ws = 0;
        assert_int_equal(waitpid(pid, &ws, 0), pid);
        assert_true(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
    }
    /* Links at every name a fill of this process could take: the fill is
     * skipped rather than written through them, and the victim is intact. */
    snprintf(entry, sizeof entry, "%s", only_entry(dir));
    const char *victim = at("victim");
    FILE *f = fopen(victim, "w");
    assert_non_null(f);
    fputs("the victim's own bytes\n", f);
    fclose(f);
    size_t stem = strlen(entry) - strlen(ORTKIT__CACHE_SUFFIX);
    for (unsigned n = 0; n < 4096; n++) {
        char planted[1100];
        snprintf(planted, sizeof planted, "%.*s.ort.tmp.%ld.%u", (int)stem, entry, (long)getpid(), n);
        assert_int_equal(symlink(victim, planted), 0);
    }
    assert_int_equal(unlink(entry), 0);
    expect_skipped(dir, "File exists");
    char buf[64] = "";
    f = fopen(victim, "r");
    assert_non_null(f);
    assert_non_null(fgets(buf, sizeof buf, f));
    fclose(f);
    assert_string_equal(buf, "the victim's own bytes\n");
}

/* Three entries of 1000 bytes, used 30, 20 and 10 seconds ago. */
static void make_aged(const char *dir)
{
    assert_int_equal(mkdir(dir, 0700), 0);
    static const char *const names[] = {"old", "mid", "new"};
    char buf[1000] = {0};
    time_t now = time(NULL);
    for (int i = 0; i < 3; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s%s", dir, names[i], ORTKIT__CACHE_SUFFIX);
        FILE *f = fopen(path, "wb");
        fwrite(buf, 1, sizeof buf, f);
        fclose(f);
        struct timespec t[2] = {{now - 30 + 10 * i, 0}, {now - 30 + 10 * i, 0}};
        assert_int_equal(utimensat(AT_FDCWD, path, t, 0), 0);
    }
}

static int exists(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s%s", dir, name, ORTKIT__CACHE_SUFFIX);
    return access(path, F_OK) == 0;
}

static void test_lru_eviction(void **state)
{
    (void)state;
    const char *dir = at("lru");
    make_aged(dir);
    assert_int_equal(ortkit__session_cache_evict(dir, 3000, NULL), 0);
    assert_int_equal(ortkit__session_cache_evict(dir, 2500, NULL), 1);
    assert_false(exists(dir, "old"));
    assert_true(exists(dir, "mid") && exists(dir, "new"));
    /* The entry being kept is never removed, whatever its age. */
    char keep[1024];
    snprintf(keep, sizeof keep, "%s/mid%s", dir, ORTKIT__CACHE_SUFFIX);
    assert_int_equal(ortkit__session_cache_evict(dir, 1000, keep), 1);
    assert_true(exists(dir, "mid"));
    assert_false(exists(dir, "new"));

    /* Through a session: a hit makes an entry the most recent, so the
     * next fill beyond the bound removes the others. */
    const char *dir2 = at("lru2");
    make_aged(dir2);
    ortkit_session_options o = ORTKIT_SESSION_OPTIONS_INIT;
    o.cache_dir = dir2;
    o.cache_max_bytes = 1; /* only the entry just made stays */
    assert_int_equal(state_of(runtimes[0], &o), ORTKIT_CACHE_FILLED);
    assert_int_equal(count_entries(dir2), 1);
    assert_false(exists(dir2, "old") || exists(dir2, "mid") || exists(dir2, "new"));
}

static int group_teardown(void **state)
{
    free_runtimes(state);
    return scratch_remove();
}

/*
 * Processes filling one entry at once, before this process loads ONNX
 * Runtime (a process with ORT's threads is not safe to fork): each opens
 * its own runtime when the parent says go, and every one must open its
 * session, from the cache or not; the entry left must then be a hit.
 */
#define FILLERS 4
static void test_concurrent_fill(void **state)
{
    (void)state;
    char dir[600];
    snprintf(dir, sizeof dir, "%s/concurrent", scratch);
    int go[2];
    assert_int_equal(pipe(go), 0);
    pid_t pids[FILLERS];
    for (int i = 0; i < FILLERS; i++) {
        pids[i] = fork();
        assert_true(pids[i] >= 0);
        if (pids[i] == 0) {
            close(go[1]);
            char c;
            if (read(go[0], &c, 1) != 1)
                _exit(3);
            ortkit_runtime_options ro = ORTKIT_RUNTIME_OPTIONS_INIT;
            ro.path = ORTKIT_TEST_RUNTIME_NEW;
            ortkit_runtime *rt = NULL;
            ortkit_session *s = NULL;
            ortkit_session_options o = ORTKIT_SESSION_OPTIONS_INIT;
            o.cache_dir = dir;
            if (ortkit_runtime_open(&rt, &ro) || ortkit_session_open(&s, rt, model_path("add.onnx"), &o))
                _exit(1);
            ortkit_cache_state st = ortkit_session_cache(s, NULL);
            _exit(st == ORTKIT_CACHE_FILLED || st == ORTKIT_CACHE_HIT ? 0 : 2);
        }
    }
    close(go[0]);
    assert_int_equal(write(go[1], "gogo", FILLERS), FILLERS); /* all at once */
    close(go[1]);
    for (int i = 0; i < FILLERS; i++) {
        int status;
        assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    assert_int_equal(count_entries(dir), 1);
    /* No temporary file is left behind. */
    DIR *d = opendir(dir);
    for (struct dirent *e; (e = readdir(d));)
        assert_null(strstr(e->d_name, ".tmp."));
    closedir(d);
}

static void test_concurrent_fill_then_hit(void **state)
{
    (void)state;
    ortkit_session_options o = ORTKIT_SESSION_OPTIONS_INIT;
    o.cache_dir = at("concurrent");
    ortkit_session *s = NULL;
    assert_int_equal(open_add(runtimes[0], &o, &s, NULL), ORTKIT_CACHE_HIT);
    check_runs(s);
    ortkit_session_free(s);
}

int main(void)
{
    if (scratch_make("session-cache"))
        return 1;
    const struct CMUnitTest before_ort[] = {cmocka_unit_test(test_concurrent_fill)};
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_concurrent_fill_then_hit),
        cmocka_unit_test(test_hit_and_same_results),
        cmocka_unit_test(test_key_follows_options),
        cmocka_unit_test(test_skipped_with_reason),
        cmocka_unit_test(test_damaged_entries_are_rebuilt),
        cmocka_unit_test(test_verified_once_then_remembered),
        cmocka_unit_test(test_foreign_entry_refused),
        cmocka_unit_test(test_untrusted_places),
        cmocka_unit_test(test_lru_eviction),
    };
    int failed = cmocka_run_group_tests_name("session cache, before ONNX Runtime loads", before_ort, NULL, NULL);
    failed += cmocka_run_group_tests_name("session cache", tests, open_runtimes, group_teardown);
    return failed;
}
