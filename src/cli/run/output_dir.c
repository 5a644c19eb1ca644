/* output_dir.c - the outputs of `ortkit run -o DIR` saved all or nothing. */
#include "output_dir.h"
#include "interrupt.h"
#include "test_hooks.h"
#include "value_files.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Output names as file names: anything but [A-Za-z0-9._-] becomes '_'. */
static void file_name_for(const char *name, char *buf, size_t size)
{
    size_t i = 0;
    for (; name[i] && i + 1 < size; i++) {
        char ch = name[i];
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                 ch == '.' || ch == '_' || ch == '-';
        buf[i] = ok ? ch : '_';
    }
    buf[i] = '\0';
    if (!strcmp(buf, ".") || !strcmp(buf, "..") || !buf[0])
        snprintf(buf, size, "output");
}

static int cmp_out_file(const void *x, const void *y)
{
    const out_file *a = x, *b = y;
    int c = strcmp(a->name, b->name);
    return c ? c : (a->output > b->output) - (a->output < b->output);
}

int output_dir_plan(out_file **out, const ortkit_session *s, size_t n, const char *dir)
{
    out_file *f = calloc(n + 1, sizeof *f), *sorted = calloc(n + 1, sizeof *sorted);
    if (!f || !sorted) {
        free(f);
        free(sorted);
        return cli_fail("out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        file_name_for(ortkit_session_output(s, i)->name, f[i].name, sizeof f[i].name);
        f[i].output = i;
        f[i].track = -1;
    }
    memcpy(sorted, f, n * sizeof *f);
    qsort(sorted, n, sizeof *sorted, cmp_out_file);
    for (size_t i = 1; i < n; i++) {
        if (strcmp(sorted[i - 1].name, sorted[i].name))
            continue;
        int rc = cli_fail("outputs '%s' and '%s' would both be saved as '%s/%s.npy' (characters "
                          "other than letters, digits, '.', '_' and '-' become '_'); nothing was "
                          "written",
                          ortkit_session_output(s, sorted[i - 1].output)->name,
                          ortkit_session_output(s, sorted[i].output)->name, dir, sorted[i].name);
        free(f);
        free(sorted);
        return rc;
    }
    free(sorted);
    *out = f;
    return CLI_OK;
}

static int cmp_staged(const void *x, const void *y)
{
    const out_file *a = x, *b = y;
    if (a->dev != b->dev)
        return a->dev < b->dev ? -1 : 1;
    if (a->ino != b->ino)
        return a->ino < b->ino ? -1 : 1;
    return (a->output > b->output) - (a->output < b->output);
}

/* Two outputs staged as one file (names that differ only in case, on a file
 * system that ignores it): CLI_FAIL after saying so, else CLI_OK. */
static int same_file(const char *dir, const char *staging, out_file *f, const ortkit_session *s,
                     size_t n)
{
    out_file *sorted = calloc(n + 1, sizeof *sorted);
    if (!sorted)
        return cli_fail("out of memory");
    for (size_t i = 0; i < n; i++) {
        char path[PATH_MAX];
        struct stat st;
        if (ortkit__pathf(path, sizeof path, "%s/%s%s", staging, f[i].name, f[i].ext) ||
            stat(path, &st)) {
            free(sorted);
            return cli_fail("cannot read back '%s/%s%s': %s", staging, f[i].name, f[i].ext,
                            strerror(errno));
        }
        f[i].dev = st.st_dev;
        f[i].ino = st.st_ino;
    }
    memcpy(sorted, f, n * sizeof *f);
    qsort(sorted, n, sizeof *sorted, cmp_staged);
    int rc = CLI_OK;
    for (size_t i = 1; i < n && !rc; i++)
        if (sorted[i - 1].dev == sorted[i].dev && sorted[i - 1].ino == sorted[i].ino)
            rc = cli_fail("outputs '%s' and '%s' would both be saved as '%s/%s%s' on this file "
                          "system; nothing was written",
                          ortkit_session_output(s, sorted[i - 1].output)->name,
                          ortkit_session_output(s, sorted[i].output)->name, dir, sorted[i].name,
                          sorted[i].ext);
    free(sorted);
    return rc;
}

/* The test hook (test_hooks.h; the tool has none): pause after each output
 * is staged, so that a test can interrupt a save half-way. */
static void test_pause(void)
{
    double seconds = cli_hook_save_pause(), until = ortkit__clock_now() + seconds;
    while (seconds > 0 && !cli_interrupted() && ortkit__clock_now() < until)
        nanosleep(&(struct timespec){0, 10000000}, NULL);
}

/* Put every staged output into DIR, or none: a file it replaces is first
 * kept in the staging directory (a hard link, else renamed there) and put
 * back if a later one fails. */
static int commit(const char *dir, const char *staging, out_file *f, size_t n)
{
    char from[PATH_MAX], to[PATH_MAX], old[PATH_MAX];
    size_t i = 0;
    for (; i < n; i++) {
        struct stat st;
        if (ortkit__pathf(from, sizeof from, "%s/%s%s", staging, f[i].name, f[i].ext) ||
            ortkit__pathf(to, sizeof to, "%s/%s%s", dir, f[i].name, f[i].ext) ||
            ortkit__pathf(old, sizeof old, "%s/old-%zu", staging, i)) {
            cli_fail("output directory '%s': path too long", dir);
            break;
        }
        if (lstat(to, &st) == 0) {
            if (link(to, old) != 0 && rename(to, old) != 0) {
                cli_fail("cannot replace '%s': %s", to, strerror(errno));
                break;
            }
            f[i].had_old = 1;
        } else if (errno != ENOENT) {
            cli_fail("cannot write '%s': %s", to, strerror(errno));
            break;
        }
        if (rename(from, to) != 0) {
            cli_fail("cannot write '%s': %s", to, strerror(errno));
            break;
        }
        f[i].placed = 1;
    }
    if (i == n)
        return CLI_OK;
    for (size_t j = i + 1; j-- > 0;) {
        if ((!f[j].had_old && !f[j].placed) ||
            ortkit__pathf(to, sizeof to, "%s/%s%s", dir, f[j].name, f[j].ext) ||
            ortkit__pathf(old, sizeof old, "%s/old-%zu", staging, j))
            continue;
        if (f[j].had_old)
            rename(old, to);
        else
            unlink(to);
    }
    return CLI_FAIL;
}

/* The directories inside the staging directory: sequences staged, and
 * sequences a commit moved aside (old-N). */
static void unstage_dirs(const char *staging, out_file *f, size_t n)
{
    char path[PATH_MAX];
    for (size_t i = 0; i < n; i++) {
        if (!ortkit__pathf(path, sizeof path, "%s/%s", staging, f[i].name) && !f[i].ext[0])
            cli_remove_flat_dir(path);
        if (!ortkit__pathf(path, sizeof path, "%s/old-%zu", staging, i))
            cli_remove_flat_dir(path);
        cli_interrupt_untrack(f[i].track);
        f[i].track = -1;
    }
}

/* Each output is written into a staging directory inside DIR
 * (DIR/.ortkit-run-PID-XXXXXX, so that the next run can tell one whose
 * process is gone), every destination is checked, and only then are they
 * renamed into place. */
int output_dir_save(const char *dir, out_file *f, const ortkit_session *s, ortkit_value **outs,
                    size_t n)
{
    struct stat st;
    int created = 0, rc = CLI_FAIL, track_dir = -1, track_staging = -1;
    size_t existed = 0;
    char staging[PATH_MAX], path[PATH_MAX];
    cli_interrupt_hold();
    if (stat(dir, &st) != 0) {
        /* DIR and the parents it lacks: made here, so removed on failure. */
        if (errno != ENOENT) {
            rc = cli_fail("cannot create output directory '%s': %s", dir, strerror(errno));
            goto release;
        }
        if (ortkit__mkdirs_made(dir, &existed)) {
            rc = cli_fail("cannot create output directory '%s': %s", dir, ortkit__error_message());
            goto release;
        }
        created = 1;
        track_dir = cli_interrupt_track_made(dir, existed);
    } else if (!S_ISDIR(st.st_mode)) {
        rc = cli_fail("output directory '%s' is not a directory", dir);
        goto release;
    }
    cli_remove_stale(dir, ".ortkit-run-");
    if (ortkit__pathf(staging, sizeof staging, "%s/.ortkit-run-%ld-XXXXXX", dir, (long)getpid())) {
        cli_fail("output directory '%s': path too long", dir);
        goto done;
    }
    if (!mkdtemp(staging)) {
        cli_fail("cannot write into '%s': %s", dir, strerror(errno));
        goto done;
    }
    track_staging = cli_interrupt_track(staging, CLI_TRACK_FLAT_DIR);
    for (size_t i = 0; i < n; i++) {
        snprintf(f[i].ext, sizeof f[i].ext, "%s", value_file_ext(outs[i]));
        f[i].track = -1;
        if (ortkit__pathf(path, sizeof path, "%s/%s%s", dir, f[i].name, f[i].ext)) {
            cli_fail("output directory '%s': path too long", dir);
            goto unstage;
        }
        if (f[i].ext[0] && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            cli_fail("output '%s': cannot replace '%s': it is a directory",
                     ortkit_session_output(s, i)->name, path);
            goto unstage;
        }
    }
    for (size_t i = 0; i < n && !cli_interrupted(); i++) {
        const char *name = ortkit_session_output(s, i)->name;
        char what[600];
        snprintf(what, sizeof what, "output '%.500s'", name);
        if (ortkit__pathf(path, sizeof path, "%s/%s", staging, f[i].name)) {
            cli_fail("output directory '%s': path too long", dir);
            goto unstage;
        }
        int failed = value_save(path, what, outs[i]);
        if (!f[i].ext[0]) /* a sequence's directory, even half-made */
            f[i].track = cli_interrupt_track(path, CLI_TRACK_FLAT_DIR);
        if (failed)
            goto unstage;
        test_pause();
    }
    if (cli_interrupted()) {
        rc = cli_interrupt_fail("nothing was written to '%s'", dir);
        goto unstage;
    }
    /* Names that differ only in case are one file on some file systems:
     * two outputs staged as one file are refused too. */
    if (same_file(dir, staging, f, s, n))
        goto unstage;
    rc = commit(dir, staging, f, n);
unstage:
    unstage_dirs(staging, f, n);
    cli_remove_flat_dir(staging);
    cli_interrupt_untrack(track_staging);
done:
    if (rc && created)
        ortkit__rmdirs_made(dir, existed);
    cli_interrupt_untrack(track_dir);
release:
    /* Once the outputs are in place an interrupt is too late to undo them:
     * the run ends as it would have. */
    cli_interrupt_release();
    return rc;
}
