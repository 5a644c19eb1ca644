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
#include <sys/stat.h>
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
    assert_int_equal(ortkit__file_check(at("regular"), "model"), 0);
    assert_int_equal(ortkit__file_check(at("link"), NULL), 0);
    assert_int_equal(ortkit__file_check(at("fifo"), "model"), ORTKIT_E_IO);
    assert_error_has("cannot open model '");
    assert_error_has("fifo': it is a FIFO (named pipe), not a regular file");
    assert_int_equal(ortkit__file_check(at("missing"), NULL), ORTKIT_E_IO);
    assert_error_has("missing': No such file or directory");
    assert_string_equal(ortkit__file_kind(S_IFSOCK), "a socket");
    assert_string_equal(ortkit__file_kind(S_IFBLK), "a device");
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_error_set_and_wrap),
        cmocka_unit_test(test_file_read_limits),
        cmocka_unit_test(test_file_only_regular),
        cmocka_unit_test(test_file_write_atomic),
        cmocka_unit_test(test_mkdirs),
        cmocka_unit_test(test_pathf),
        cmocka_unit_test(test_path_absolute),
        cmocka_unit_test(test_path_which),
        cmocka_unit_test(test_spawn_output_and_status),
        cmocka_unit_test(test_spawn_signal_and_missing),
        cmocka_unit_test(test_spawn_deadline_past_eof),
        cmocka_unit_test(test_proc),
        cmocka_unit_test(test_strv_and_quote),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
