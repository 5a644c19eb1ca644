/*
 * test_util.c - the helpers below everything (src/util): the error channel,
 * files, paths, running programs, memory and CPUs, string vectors.
 */
#include "testutil.h"

#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[] = "/tmp/ortkit_test_util_XXXXXX";

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static int teardown(void **state)
{
    (void)state;
    return nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* A path under the test's directory. */
static const char *at(const char *name)
{
    static char buf[4][1024];
    static int next;
    char *p = buf[next++ % 4];
    snprintf(p, sizeof buf[0], "%s/%s", dir, name);
    return p;
}

/* How many entries a directory holds (. and .. aside). */
static int entries(const char *path)
{
    DIR *d = opendir(path);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return d ? n : -1;
}

/* ---- errors ---------------------------------------------------------------- */

static void *other_thread(void *arg)
{
    (void)arg;
    return (void *)ortkit__error_message();
}

static void test_error_set_and_wrap(void **state)
{
    (void)state;
    assert_int_equal(ortkit__error_set(ORTKIT_E_IO, "cannot open '%s'", "m.onnx"), ORTKIT_E_IO);
    assert_string_equal(ortkit__error_message(), "cannot open 'm.onnx'");
    assert_int_equal(ortkit__error_code(), ORTKIT_E_IO);
    /* The public accessors read the same channel. */
    assert_string_equal(ortkit_error_last(), "cannot open 'm.onnx'");
    assert_int_equal(ortkit_error_code(), ORTKIT_E_IO);

    assert_int_equal(ortkit__error_wrap(ORTKIT_E_MODEL, "loading '%s'", "x"), ORTKIT_E_MODEL);
    assert_string_equal(ortkit__error_message(), "loading 'x': cannot open 'm.onnx'");
    assert_int_equal(ortkit__error_code(), ORTKIT_E_MODEL);

    /* The message itself as an argument: formatted before it is replaced. */
    ortkit__error_set(ORTKIT_E_IO, "%s (again)", ortkit__error_message());
    assert_string_equal(ortkit__error_message(), "loading 'x': cannot open 'm.onnx' (again)");

    assert_int_equal(ortkit__error_nomem(), ORTKIT_E_NOMEM);
    assert_string_equal(ortkit__error_message(), "out of memory");

    /* A long message is cut at the buffer, never overrun, wrapped or not. */
    char big[3000];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    ortkit__error_set(ORTKIT_E_IO, "%s", big);
    assert_int_equal(strlen(ortkit__error_message()), 1023);
    ortkit__error_wrap(ORTKIT_E_IO, "%s", big);
    assert_int_equal(strlen(ortkit__error_message()), 1023);

    /* Running out of memory for a known size says how much. */
    assert_int_equal(ortkit__error_nomem_size((size_t)3 << 30), ORTKIT_E_NOMEM);
    assert_string_equal(ortkit__error_message(),
                        "out of memory: cannot allocate 3.0 GiB (3221225472 bytes)");

    /* Per thread: another thread has seen no failure. */
    pthread_t t;
    void *seen = NULL;
    assert_int_equal(pthread_create(&t, NULL, other_thread, NULL), 0);
    pthread_join(t, &seen);
    assert_string_equal((const char *)seen, "");
}

/* ---- files ------------------------------------------------------------------ */

static void test_file_read_limits(void **state)
{
    (void)state;
    char data[100];
    memset(data, 'x', sizeof data);
    assert_int_equal(ortkit__file_write_atomic(at("hundred"), data, sizeof data), 0);

    char *text = NULL;
    size_t size = 0;
    assert_int_equal(ortkit__file_read(&text, &size, at("hundred"), 100), 0);
    assert_int_equal(size, 100);
    assert_int_equal(strlen(text), 100);
    free(text);

    /* One byte over the limit: refused, never cut short. */
    assert_int_equal(ortkit__file_read(&text, &size, at("hundred"), 99), ORTKIT_E_IO);
    assert_null(text);
    assert_int_equal(size, 0);
    assert_error_has("larger than 99 bytes");

    assert_int_equal(ortkit__file_read(&text, NULL, at("missing"), 100), ORTKIT_E_IO);
    assert_error_has("cannot open");
    assert_int_equal(ortkit__file_read(&text, NULL, dir, 100), ORTKIT_E_IO);
    assert_error_has("is a directory");

    /* Files of /proc say they are empty: read to their end, within the limit. */
    assert_int_equal(ortkit__file_read(&text, &size, "/proc/self/status", 1 << 20), 0);
    assert_true(size > 0 && strstr(text, "VmRSS:"));
    free(text);
    assert_int_equal(ortkit__file_read(&text, &size, "/proc/self/status", 16), ORTKIT_E_IO);
    assert_null(text);
    assert_error_has("larger than 16 bytes");

    /* An empty file is an empty string. */
    assert_int_equal(ortkit__file_write_atomic(at("empty"), "", 0), 0);
    assert_int_equal(ortkit__file_read(&text, &size, at("empty"), 0), 0);
    assert_int_equal(size, 0);
    assert_string_equal(text, "");
    free(text);
}

/* Only regular files are opened for reading, and nothing waits: a FIFO
 * without a writer, a device, a directory are refused with what they are. */
static void test_file_only_regular(void **state)
{
    (void)state;
    char *text = NULL;
    size_t size = 9;
    assert_int_equal(mkfifo(at("fifo"), 0600), 0);
    double t0 = ortkit__clock_now();
    assert_int_equal(ortkit__file_read(&text, &size, at("fifo"), 100), ORTKIT_E_IO);
    assert_true(ortkit__clock_now() - t0 < 1.0);
    assert_null(text);
    assert_int_equal(size, 0);
    assert_error_has("cannot read '");
    assert_error_has("/fifo': it is a FIFO (named pipe), not a regular file");
    assert_int_equal(ortkit__file_read(&text, NULL, "/dev/null", 100), ORTKIT_E_IO);
    assert_error_has("cannot read '/dev/null': it is a device, not a regular file");
    assert_int_equal(ortkit__file_read(&text, NULL, dir, 100), ORTKIT_E_IO);
    assert_error_has("it is a directory, not a regular file");

    /* The descriptor and the stream: blocking again once open, the file's stat. */
    assert_int_equal(ortkit__file_write_atomic(at("regular"), "abc", 3), 0);
    int fd = -1;
    struct stat st;
    assert_int_equal(ortkit__file_open(&fd, at("regular"), 0, &st), 0);
    assert_true(fd >= 0);
    assert_int_equal(st.st_size, 3);
    assert_int_equal(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
    assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
    close(fd);
    assert_int_equal(ortkit__file_open(&fd, at("fifo"), 0, NULL), ORTKIT_E_IO);
    assert_int_equal(fd, -1);
    FILE *f = NULL;
    assert_int_equal(ortkit__file_fopen(&f, at("regular")), 0);
    char buf[8] = "";
    assert_non_null(fgets(buf, sizeof buf, f));
    assert_string_equal(buf, "abc");
    fclose(f);
    assert_int_equal(ortkit__file_fopen(&f, at("fifo")), ORTKIT_E_IO);
    assert_null(f);

    /* O_NOFOLLOW passes through: a link is refused, its target is not. */
    assert_int_equal(symlink(at("regular"), at("link")), 0);
    assert_int_equal(ortkit__file_open(&fd, at("link"), O_NOFOLLOW, NULL), ORTKIT_E_IO);
    assert_int_equal(ortkit__file_open(&fd, at("link"), 0, NULL), 0);
    close(fd);

    /* Only a check, for paths another library opens. */
    assert_int_equal(ortkit__file_check(at("regular"), "model", NULL), 0);
    memset(&st, 0, sizeof st);
    assert_int_equal(ortkit__file_check(at("link"), NULL, &st), 0);
    assert_true(S_ISREG(st.st_mode)); /* the link's target */
    assert_int_equal(st.st_size, 3);
    assert_int_equal(ortkit__file_check(at("fifo"), "model", NULL), ORTKIT_E_IO);
    assert_error_has("cannot open model '");
    assert_error_has("fifo': it is a FIFO (named pipe), not a regular file");
    assert_int_equal(ortkit__file_check(at("missing"), NULL, NULL), ORTKIT_E_IO);
    assert_error_has("missing': No such file or directory");
    if (geteuid() != 0) { /* root reads anything */
        assert_int_equal(chmod(at("regular"), 0200), 0);
        assert_int_equal(ortkit__file_check(at("regular"), "model", NULL), ORTKIT_E_IO);
        assert_error_has("regular': Permission denied");
        assert_int_equal(chmod(at("regular"), 0644), 0);
    }
    assert_string_equal(ortkit__file_kind(S_IFSOCK), "a socket");
    assert_string_equal(ortkit__file_kind(S_IFBLK), "a device");
}

/* ---- digests ---------------------------------------------------------------- */

static void test_digest(void **state)
{
    (void)state;
    static const char abc_sha256[] =
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    unsigned char md[ORTKIT__SHA256_SIZE];
    char hex[ORTKIT__SHA256_HEX];
    assert_int_equal(ortkit__sha256(md, "abc", 3), 0);
    ortkit__hex(hex, md, sizeof md);
    assert_string_equal(hex, abc_sha256);
    assert_int_equal(ortkit__sha256_hex(hex, "", 0), 0);
    assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    ortkit__hex(hex, (const unsigned char *)"\x00\x0f\xf0\xff", 4);
    assert_string_equal(hex, "000ff0ff");

    /* Streamed in pieces, and begun again: the same digest. */
    ortkit__sha256_ctx h = {0};
    assert_int_equal(ortkit__sha256_init(&h), 0);
    ortkit__sha256_update(&h, "xyz", 3);
    assert_int_equal(ortkit__sha256_init(&h), 0); /* starts over */
    ortkit__sha256_update(&h, "a", 1);
    ortkit__sha256_update(&h, "", 0);
    ortkit__sha256_update(&h, "bc", 2);
    assert_int_equal(ortkit__sha256_final(&h, md), 0);
    assert_null(h.md);
    ortkit__hex(hex, md, sizeof md);
    assert_string_equal(hex, abc_sha256);
    ortkit__sha256_discard(&h); /* after _final: nothing to free */
    ortkit__sha256_update(&h, "a", 1); /* not begun: the final says so */
    assert_int_equal(ortkit__sha256_final(&h, md), ORTKIT_E_IO);

    /* Files: the size too; SHA-1 for deps.txt; a link refused by
     * ortkit__sha256_file, followed when the caller allows it. */
    FILE *f = fopen(at("abc"), "w");
    assert_non_null(f);
    fputs("abc", f);
    fclose(f);
    uint64_t size = 0;
    assert_int_equal(ortkit__sha256_file(hex, &size, at("abc")), 0);
    assert_string_equal(hex, abc_sha256);
    assert_int_equal(size, 3);
    char sha1[41];
    assert_int_equal(ortkit__digest_file(ORTKIT__SHA1, sha1, sizeof sha1, NULL, at("abc"), 0), 0);
    assert_string_equal(sha1, "a9993e364706816aba3e25717850c26c9cd0d89d");
    assert_int_equal(ortkit__digest_file(ORTKIT__SHA256, sha1, sizeof sha1, NULL, at("abc"), 0),
                     ORTKIT_E_INVALID_ARG);
    assert_int_equal(symlink(at("abc"), at("abc-link")), 0);
    assert_int_equal(ortkit__sha256_file(hex, &size, at("abc-link")), ORTKIT_E_IO);
    assert_string_equal(hex, "");
    assert_int_equal(size, 0);
    assert_int_equal(ortkit__digest_file(ORTKIT__SHA256, hex, sizeof hex, NULL, at("abc-link"), 0), 0);
    assert_string_equal(hex, abc_sha256);
    assert_int_equal(ortkit__sha256_file(hex, &size, at("no-such-file")), ORTKIT_E_IO);
    assert_error_has("no-such-file");
}

/* ---- the environment -------------------------------------------------------- */

/* What a walk of src/ found. */
static struct {
    int bad;            /* failures, each printed */
    unsigned char *seen; /* per table row: some file names it */
} env_scan;

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && !strcmp(s + n - t, tail);
}

/* One file of src/: no getenv but in env.c, every literal name read
 * through ortkit__env is in the table, and which rows it names. */
static int scan_env_file(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)ftw;
    if (flag != FTW_F || !(ends_with(path, ".c") || ends_with(path, ".h")))
        return 0;
    char *text = NULL;
    if (ortkit__file_read(&text, NULL, path, (size_t)8 << 20) != 0) {
        print_message("cannot read %s\n", path);
        env_scan.bad++;
        return 0;
    }
    int is_env = ends_with(path, "/src/util/env.c");
    if (!is_env && strstr(text, "getenv(")) {
        print_message("%s reads the environment itself: use ortkit__env()\n", path);
        env_scan.bad++;
    }
    static const char *const readers[] = {"ortkit__env(\"", "ortkit__env_nonempty(\""};
    for (size_t r = 0; r < 2; r++) {
        for (const char *p = strstr(text, readers[r]); p; p = strstr(p + 1, readers[r])) {
            const char *name = p + strlen(readers[r]);
            size_t len = strcspn(name, "\"");
            char buf[64];
            snprintf(buf, sizeof buf, "%.*s", (int)len, name);
            if (!ortkit__env_find(buf)) {
                print_message("%s reads %s, which src/util/env.c's table lacks\n", path, buf);
                env_scan.bad++;
            }
        }
    }
    for (size_t i = 0; i < ortkit__env_count(); i++) {
        char quoted[80];
        snprintf(quoted, sizeof quoted, is_env ? "ortkit__env(\"%s\")" : "\"%s\"",
                 ortkit__env_at(i)->name);
        if (strstr(text, quoted))
            env_scan.seen[i] = 1;
    }
    free(text);
    return 0;
}

/* The table is the whole truth: src/ reads the environment only through
 * ortkit__env, only names in the table, and every name in the table is
 * read somewhere.  (A name that is not a literal at the call is checked
 * when it is read: it reads as unset.) */
static void test_env_table(void **state)
{
    (void)state;
    size_t n = ortkit__env_count();
    assert_true(n >= 20);
    for (size_t i = 0; i < n; i++) {
        const ortkit__env_var *e = ortkit__env_at(i);
        assert_true(e->name[0] && e->what[0] && e->part[0]);
        assert_ptr_equal(ortkit__env_find(e->name), e);
        for (size_t k = 0; k < i; k++)
            assert_string_not_equal(ortkit__env_at(k)->name, e->name);
    }
    assert_null(ortkit__env_at(n));
    assert_null(ortkit__env_find("ORTKIT_NO_SUCH_VARIABLE"));

    env_scan.bad = 0;
    env_scan.seen = calloc(n, 1);
    assert_non_null(env_scan.seen);
    assert_int_equal(nftw(ORTKIT_TEST_SOURCE_DIR "/src", scan_env_file, 16, FTW_PHYS), 0);
    for (size_t i = 0; i < n; i++) {
        if (!env_scan.seen[i]) {
            print_message("src/util/env.c lists %s, which nothing in src/ reads\n",
                          ortkit__env_at(i)->name);
            env_scan.bad++;
        }
    }
    free(env_scan.seen);
    assert_int_equal(env_scan.bad, 0);

    /* Reads: set, empty, unset. */
    setenv("ORTKIT_FORCE_ISA", "avx2", 1);
    assert_string_equal(ortkit__env("ORTKIT_FORCE_ISA"), "avx2");
    assert_string_equal(ortkit__env_nonempty("ORTKIT_FORCE_ISA"), "avx2");
    setenv("ORTKIT_FORCE_ISA", "", 1);
    assert_string_equal(ortkit__env("ORTKIT_FORCE_ISA"), "");
    assert_null(ortkit__env_nonempty("ORTKIT_FORCE_ISA"));
    unsetenv("ORTKIT_FORCE_ISA");
    assert_null(ortkit__env("ORTKIT_FORCE_ISA"));
}

/* $HOME and the XDG base directories, by one rule: absolute or ignored. */
static void test_xdg_dirs(void **state)
{
    (void)state;
    const char *old_home = getenv("HOME"), *old_xdg = getenv("XDG_STATE_HOME");
    char *home = old_home ? strdup(old_home) : NULL, *xdg = old_xdg ? strdup(old_xdg) : NULL;
    char buf[64];
    setenv("HOME", "/home/u", 1);
    setenv("XDG_STATE_HOME", "/state", 1);
    assert_string_equal(ortkit__home_dir(), "/home/u");
    assert_int_equal(ortkit__xdg_dir(buf, sizeof buf, "XDG_STATE_HOME", ".local/state", "o/r"), 0);
    assert_string_equal(buf, "/state/o/r");
    setenv("XDG_STATE_HOME", "relative", 1); /* invalid: ignored */
    assert_int_equal(ortkit__xdg_dir(buf, sizeof buf, "XDG_STATE_HOME", ".local/state", "o/r"), 0);
    assert_string_equal(buf, "/home/u/.local/state/o/r");
    unsetenv("XDG_STATE_HOME");
    assert_int_equal(ortkit__xdg_dir(buf, sizeof buf, "XDG_STATE_HOME", ".local/state", "o/r"), 0);
    assert_string_equal(buf, "/home/u/.local/state/o/r");
    assert_int_equal(ortkit__xdg_dir(buf, 8, "XDG_STATE_HOME", ".local/state", "o/r"), ORTKIT_E_IO);
    assert_string_equal(buf, "");
    assert_error_has("the path in HOME is too long");
    setenv("HOME", "home/u", 1);
    assert_null(ortkit__home_dir());
    assert_int_equal(ortkit__xdg_dir(buf, sizeof buf, "XDG_STATE_HOME", ".local/state", "o/r"),
                     ORTKIT_E_IO);
    assert_error_has("neither XDG_STATE_HOME nor HOME is an absolute path");
    unsetenv("HOME");
    assert_null(ortkit__home_dir());
    if (home)
        setenv("HOME", home, 1);
    if (xdg)
        setenv("XDG_STATE_HOME", xdg, 1);
    free(home);
    free(xdg);
}

static void test_file_write_atomic(void **state)
{
    (void)state;
    assert_int_equal(ortkit__mkdirs(at("w")), 0);
    const char *path = at("w/f.txt");
    assert_int_equal(ortkit__file_write_atomic(path, "one", 3), 0);
    assert_int_equal(ortkit__file_write_atomic(path, "second", 6), 0);
    char *text = NULL;
    assert_int_equal(ortkit__file_read(&text, NULL, path, 64), 0);
    assert_string_equal(text, "second");
    free(text);
    /* Only the file itself: no temporary name is left beside it. */
    assert_int_equal(entries(at("w")), 1);

    /* The umask applies as to any new file. */
    mode_t old = umask(077);
    int rc = ortkit__file_write_atomic(at("w/private"), "p", 1);
    umask(old);
    assert_int_equal(rc, 0);
    struct stat st;
    assert_int_equal(stat(at("w/private"), &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);

    /* A rename that fails (a directory is in the way) removes its temporary file. */
    assert_int_equal(ortkit__mkdirs(at("w/taken")), 0);
    assert_int_equal(ortkit__file_write_atomic(at("w/taken"), "x", 1), ORTKIT_E_IO);
    assert_error_has("cannot rename into");
    assert_int_equal(entries(at("w")), 3);

    /* No directory to write in. */
    assert_int_equal(ortkit__file_write_atomic(at("nodir/f"), "x", 1), ORTKIT_E_IO);
    assert_error_has("cannot create");
}

static void test_mkdirs(void **state)
{
    (void)state;
    assert_int_equal(ortkit__mkdirs(at("a/b/c")), 0);
    assert_int_equal(ortkit__mkdirs(at("a/b/c")), 0); /* already there */
    assert_int_equal(ortkit__mkdirs(at("a/b/")), 0);
    struct stat st;
    assert_int_equal(stat(at("a/b/c"), &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(ortkit__file_write_atomic(at("a/file"), "x", 1), 0);
    assert_int_equal(ortkit__mkdirs(at("a/file/d")), ORTKIT_E_IO);
    assert_error_has("cannot create");

    /* What existed is said, and an undo stops there. */
    size_t existed = 0, base = strlen(at(""));
    assert_int_equal(ortkit__mkdirs_made(at("a/b/c"), &existed), 0);
    assert_int_equal(existed, strlen(at("a/b/c"))); /* nothing made */
    char deep[PATH_MAX];
    snprintf(deep, sizeof deep, "%s", at("a/m/n/o/"));
    assert_int_equal(ortkit__mkdirs_made(deep, &existed), 0);
    assert_int_equal(existed, base + 1); /* ".../a" */
    assert_int_equal(ortkit__rmdirs_made(deep, existed), 0);
    assert_int_equal(stat(at("a/m"), &st), -1);
    assert_int_equal(stat(at("a/b/c"), &st), 0);
    /* A directory that is not empty stays, and so do its parents. */
    assert_int_equal(ortkit__mkdirs_made(at("a/p/q"), &existed), 0);
    assert_int_equal(ortkit__file_write_atomic(at("a/p/keep"), "x", 1), 0);
    assert_int_equal(ortkit__rmdirs_made(at("a/p/q"), existed), -1);
    assert_int_equal(stat(at("a/p/q"), &st), -1);
    assert_int_equal(stat(at("a/p/keep"), &st), 0);
    /* A failure half-way undoes what the call made. */
    assert_int_equal(ortkit__mkdirs_made(at("a/s/t/../../file/d"), &existed), ORTKIT_E_IO);
    assert_error_has("file/d': Not a directory");
    assert_int_equal(stat(at("a/s"), &st), -1);
}

/* ---- paths --------------------------------------------------------------------- */

static void test_pathf(void **state)
{
    (void)state;
    char buf[16];
    assert_int_equal(ortkit__pathf(buf, sizeof buf, "%s/%s", "/a", "b"), 0);
    assert_string_equal(buf, "/a/b");
    /* Exactly full (15 characters and the NUL) fits; one more does not. */
    assert_int_equal(ortkit__pathf(buf, sizeof buf, "%s", "/23456789012345"), 0);
    assert_int_equal(ortkit__pathf(buf, sizeof buf, "%s", "/234567890123456"), ORTKIT_E_IO);
    assert_error_has("path too long");
}

static void check_absolute(const char *in, const char *want)
{
    char *out = NULL;
    assert_int_equal(ortkit__path_absolute(&out, in), 0);
    assert_string_equal(out, want);
    free(out);
}

static void test_path_absolute(void **state)
{
    (void)state;
    check_absolute("/a/./b/../c", "/a/c");
    check_absolute("//a//b/", "/a/b");
    check_absolute("/..", "/");
    check_absolute("/", "/");
    char cwd[1024], want[1100];
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(want, sizeof want, "%s/x", strcmp(cwd, "/") ? cwd : "");
    check_absolute("x/y/..", want);
}

/* Colon-separated lists: every non-empty entry, in order, none cut. */
static void test_path_list(void **state)
{
    (void)state;
    char seen[256] = "";
    for (ortkit__path_list it = {.rest = "::/a:/b/c::d:"}; ortkit__path_list_next(&it);) {
        char entry[64];
        assert_int_equal(ortkit__path_list_entry(&it, entry, sizeof entry), 0);
        strcat(seen, "[");
        strcat(seen, entry);
        strcat(seen, "]");
    }
    assert_string_equal(seen, "[/a][/b/c][d]");
    ortkit__path_list none = {.rest = NULL}, empty = {.rest = ""}, colons = {.rest = ":::"};
    assert_int_equal(ortkit__path_list_next(&none), 0);
    assert_int_equal(ortkit__path_list_next(&empty), 0);
    assert_int_equal(ortkit__path_list_next(&colons), 0);
    assert_int_equal(ortkit__path_list_next(&colons), 0); /* at the end it stays there */
    /* An entry too long for the caller's buffer is refused, not cut. */
    ortkit__path_list it = {.rest = "/a/long/entry:x"};
    assert_int_equal(ortkit__path_list_next(&it), 1);
    char small[8];
    assert_int_equal(ortkit__path_list_entry(&it, small, sizeof small), ORTKIT_E_IO);
    assert_int_equal(ortkit__path_list_next(&it), 1);
    assert_int_equal(it.len, 1);
    assert_int_equal(it.entry[0], 'x');
}

static void test_path_which(void **state)
{
    (void)state;
    char *p = NULL;
    assert_int_equal(ortkit__path_which(&p, "sh"), 0);
    assert_true(p[0] == '/' && strstr(p, "/sh"));
    assert_int_equal(access(p, X_OK), 0);
    free(p);
    assert_int_equal(ortkit__path_which(&p, "/bin/sh"), 0);
    assert_string_equal(p, "/bin/sh");
    free(p);
    assert_int_equal(ortkit__path_which(&p, "ortkit-no-such-program"), ORTKIT_E_IO);
    assert_null(p);
    assert_error_has("not found on PATH");
    /* A file that is not executable is not a program. */
    assert_int_equal(ortkit__file_write_atomic(at("plain"), "x", 1), 0);
    assert_int_equal(ortkit__path_which(&p, at("plain")), ORTKIT_E_IO);
    assert_error_has("is not an executable file");
}

/* ---- running programs ---------------------------------------------------------- */

static void test_spawn_output_and_status(void **state)
{
    (void)state;
    const char *both[] = {"sh", "-c", "echo out; echo err >&2; exit 3", NULL};
    char *out = NULL;
    int status = -1;
    assert_int_equal(ortkit__spawn(both, 1, &out, &status), 0);
    assert_int_equal(status, 3);
    assert_string_equal(out, "out\nerr\n");
    free(out);
    /* stderr dropped. */
    assert_int_equal(ortkit__spawn(both, 0, &out, &status), 0);
    assert_string_equal(out, "out\n");
    free(out);
    /* No output wanted. */
    assert_int_equal(ortkit__spawn(both, 1, NULL, &status), 0);
    assert_int_equal(status, 3);

    /* stdin is /dev/null: a program that reads it ends at once. */
    const char *cat[] = {"cat", NULL};
    assert_int_equal(ortkit__spawn(cat, 1, &out, &status), 0);
    assert_int_equal(status, 0);
    assert_string_equal(out, "");
    free(out);

    /* Arguments pass as they are, without a shell. */
    const char *echo[] = {"echo", "a b", "'c'", "$HOME", NULL};
    assert_int_equal(ortkit__spawn(echo, 0, &out, &status), 0);
    assert_string_equal(out, "a b 'c' $HOME\n");
    free(out);
}

static void test_spawn_signal_and_missing(void **state)
{
    (void)state;
    const char *killed[] = {"sh", "-c", "kill -TERM $$", NULL};
    int status = -1;
    char *out = NULL;
    assert_int_equal(ortkit__spawn(killed, 1, &out, &status), 0);
    assert_int_equal(status, 128 + SIGTERM);
    free(out);

    /* Under qemu-user the child's failed exec is its exit status 127, not
     * posix_spawn's error: the emulator runs CLONE_VFORK as a fork. */
    const char *missing[] = {"ortkit-no-such-program", "--version", NULL};
    out = (char *)"untouched";
    if (!test_emulated()) {
        assert_int_equal(ortkit__spawn(missing, 1, &out, &status), ORTKIT_E_IO);
        assert_null(out);
        assert_error_has("cannot run 'ortkit-no-such-program'");
    }

    /* More output than is kept: the child is never blocked, the rest dropped. */
    const char *flood[] = {"sh", "-c", "yes | head -c 5000000", NULL};
    assert_int_equal(ortkit__spawn(flood, 0, &out, &status), 0);
    assert_int_equal(status, 0);
    assert_int_equal(strlen(out), ORTKIT__SPAWN_OUTPUT_MAX - 1);
    free(out);
}

/* Is pid gone (or a zombie nobody reaped yet)? */
static int gone(long pid)
{
    char path[64], stat_text[256] = "";
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;
    size_t n = fread(stat_text, 1, sizeof stat_text - 1, f);
    fclose(f);
    stat_text[n] = '\0';
    const char *paren = strrchr(stat_text, ')');
    return paren && paren[1] == ' ' && paren[2] == 'Z';
}

/* The time limit holds to the child's end: one that closes its output and
 * hangs is killed at the deadline, with what it started in its group. */
static void test_spawn_deadline_past_eof(void **state)
{
    (void)state;
    /* Its output ends at once; the wait for its end is what must stop. */
    const char *closes[] = {"sh", "-c", "echo started; exec >&-; sleep 30", NULL};
    int status = -1, timed_out = 0;
    char *out = NULL;
    double t0 = ortkit__clock_now();
    assert_int_equal(ortkit__spawn_timed(closes, NULL, 0.5, 0, &out, &status, &timed_out), 0);
    assert_true(ortkit__clock_now() - t0 < 5);
    assert_int_equal(timed_out, 1);
    assert_string_equal(out, "started\n");
    free(out);
    /* A child of its own keeps the output open: the whole group goes. */
    const char *hang[] = {"sh", "-c", "sleep 30 & echo $!; exec >&-; sleep 30", NULL};
    t0 = ortkit__clock_now();
    assert_int_equal(ortkit__spawn_timed(hang, NULL, 0.5, 0, &out, &status, &timed_out), 0);
    double took = ortkit__clock_now() - t0;
    assert_true(took >= 0.45 && took < 5);
    assert_int_equal(timed_out, 1);
    assert_int_equal(status, 128 + SIGKILL);
    long grandchild = strtol(out, NULL, 10);
    assert_true(grandchild > 0);
    for (int i = 0; i < 100 && !gone(grandchild); i++)
        usleep(10000);
    assert_true(gone(grandchild));
    free(out);
    /* A child that ends in time is not counted as timed out, and what it
     * left running in its group is ended with it. */
    const char *leaves[] = {"sh", "-c", "sleep 30 >/dev/null & echo $!", NULL};
    assert_int_equal(ortkit__spawn_timed(leaves, NULL, 10, 0, &out, &status, &timed_out), 0);
    assert_int_equal(timed_out, 0);
    assert_int_equal(status, 0);
    grandchild = strtol(out, NULL, 10);
    for (int i = 0; i < 100 && !gone(grandchild); i++)
        usleep(10000);
    assert_true(gone(grandchild));
    free(out);
}

/* ---- memory, CPUs, clock -------------------------------------------------------- */

static void test_proc(void **state)
{
    (void)state;
    uint64_t avail = 1, total = 1;
    assert_int_equal(ortkit__meminfo_parse("MemTotal:       16303580 kB\nMemFree:  1 kB\n"
                                           "MemAvailable:    9512344 kB\n",
                                           &avail, &total),
                     0);
    assert_int_equal(total, 16303580ull * 1024);
    assert_int_equal(avail, 9512344ull * 1024);
    /* "MemAvailable" must start a line and end at its colon. */
    assert_int_equal(ortkit__meminfo_parse("MemTotal: 10 kB\nXMemAvailable: 5 kB\n", &avail, &total),
                     ORTKIT_E_FORMAT);
    assert_int_equal(total, 10240);
    assert_int_equal(avail, 0);

    assert_int_equal(ortkit__proc_meminfo(&avail, &total), 0);
    assert_true(total > 0 && avail > 0 && avail <= total);
    uint64_t rss = ortkit__proc_rss();
    assert_true(rss > 0 && rss < total);
    assert_true(ortkit__proc_cpus() >= 1);

    double t0 = ortkit__clock_now();
    usleep(20000);
    double t1 = ortkit__clock_now();
    assert_true(t1 - t0 >= 0.019 && t1 - t0 < 5);
}

/* ---- strings -------------------------------------------------------------------- */

static void test_strv_and_quote(void **state)
{
    (void)state;
    ortkit__strv sv = {0};
    for (int i = 0; i < 40; i++)
        assert_int_equal(ortkit__strv_pushf(&sv, "arg%d", i), 0);
    assert_int_equal(ortkit__strv_push(&sv, NULL), 0);
    assert_int_equal(sv.n, 41);
    assert_string_equal(sv.v[39], "arg39");
    assert_string_equal(sv.v[40], "");
    assert_null(sv.v[41]);
    ortkit__strv_free(&sv);
    assert_null(sv.v);
    assert_int_equal(sv.n, 0);

    static const struct { const char *in, *out; } q[] = {
        {"plain-1.0/x:y,z@a%b^c=d+e", "plain-1.0/x:y,z@a%b^c=d+e"},
        {"", "''"},
        {"a b", "'a b'"},
        {"it's", "'it'\\''s'"},
        {"$HOME;rm", "'$HOME;rm'"},
    };
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        char *s = ortkit__shell_quote(q[i].in);
        assert_string_equal(s, q[i].out);
        free(s);
    }
}

/* A program that linked libortkit.a finds its own parts from its file even
 * when it was started by a bare name (argv[0] "test_util", as from PATH)
 * from another directory: this test runs itself so, in /. */
static void test_self_find_bare_argv0(void **state)
{
    (void)state;
    if (test_emulated())
        skip(); /* qemu-user without binfmt cannot exec an aarch64 program again */
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(n > 0);
    self[n] = '\0';
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char *argv[] = {"test_util", NULL};
        char *envp[] = {"ORTKIT_TEST_SELF_FIND=1", NULL};
        if (chdir("/") == 0)
            execve(self, argv, envp);
        _exit(127);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* The child of test_self_find_bare_argv0: its own file, found beside itself. */
static int self_find_child(void)
{
    char want[PATH_MAX], found[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", want, sizeof want - 1);
    if (n <= 0)
        return 2;
    want[n] = '\0';
    const char *base = strrchr(want, '/') + 1;
    if (ortkit__self_find(found, sizeof found, ".", base, R_OK) != 0)
        return 1;
    char real[PATH_MAX];
    return realpath(found, real) && !strcmp(real, want) ? 0 : 3;
}

int main(void)
{
    if (getenv("ORTKIT_TEST_SELF_FIND"))
        return self_find_child();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_error_set_and_wrap),
        cmocka_unit_test(test_file_read_limits),
        cmocka_unit_test(test_file_only_regular),
        cmocka_unit_test(test_digest),
        cmocka_unit_test(test_env_table),
        cmocka_unit_test(test_xdg_dirs),
        cmocka_unit_test(test_file_write_atomic),
        cmocka_unit_test(test_mkdirs),
        cmocka_unit_test(test_pathf),
        cmocka_unit_test(test_self_find_bare_argv0),
        cmocka_unit_test(test_path_absolute),
        cmocka_unit_test(test_path_list),
        cmocka_unit_test(test_path_which),
        cmocka_unit_test(test_spawn_output_and_status),
        cmocka_unit_test(test_spawn_signal_and_missing),
        cmocka_unit_test(test_spawn_deadline_past_eof),
        cmocka_unit_test(test_proc),
        cmocka_unit_test(test_strv_and_quote),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
