/*
 * patch.c - `--patch DIR`: a per-version patch set, as distributions carry.
 * The .patch files of DIR are applied in name order with `patch -p1`; each applied one
 * is recorded in <state>/patches-applied, so a rerun does not apply it
 * again.  A patch that is already in the tree is recorded and skipped; one
 * that neither applies nor is present fails.  "Already in" is decided by
 * really reverse-applying the patch to copies of the files it names (GNU
 * patch's -R --dry-run exits 0 on a patch that is not reversed, "Ignoring
 * -R"), and a patch that fails half-way (a git-style one may have made a
 * link first) is undone from copies kept before it ran: on any failure the
 * tree is as it was.  A patch naming a path outside the tree is refused
 * (GNU patch would skip it and still succeed).
 */
#include "builder.h"
#include "patch_files.h"

#include <dirent.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int recorded(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && !strncmp(p, name, n))
            return 1;
        p = e ? e + 1 : NULL;
    }
    return 0;
}

/* mode: "check" (dry run), "apply", or "reverse" (for real, refusing a
 * patch that is not reversed: --forward with -R). */
static int run_patch(const char *source, const char *file, const char *mode, char **out)
{
    const char *check[] = {"patch", "-p1", "--batch", "--forward", "-s", "--dry-run", "-d", source,
                           "-i", file, NULL};
    const char *apply[] = {"patch", "-p1", "--batch", "--forward", "-s", "-d", source, "-i", file,
                           NULL};
    const char *reverse[] = {"patch", "-p1", "--batch", "-R", "--forward", "-s", "-d", source,
                             "-i", file, NULL};
    const char *const *argv = !strcmp(mode, "check") ? check : !strcmp(mode, "apply") ? apply : reverse;
    int st = 0;
    if (ortkit__spawn(argv, 1, out, &st) != 0)
        return -1;
    return st;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

/* Is the patch in the tree?  It reverse-applies, for real, to copies of the
 * files it names (in scratch/in). */
static int already_in(const char *source, const char *file, const ortkit__strv *names,
                      const char *scratch)
{
    char copy[PATH_MAX];
    ortkit__builder_patch_kept k;
    if (ortkit__pathf(copy, sizeof copy, "%s/in", scratch) || ortkit__mkdirs(copy))
        return 0;
    int in = !ortkit__builder_patch_keep(&k, source, names, copy);
    ortkit__builder_patch_kept_free(&k);
    char *out = NULL;
    in = in && run_patch(copy, file, "reverse", &out) == 0;
    free(out);
    return in;
}

/* Apply one patch; on any failure the tree is put back as it was. */
static int apply_one(const char *source, const char *file, const char *name, const char *state_dir,
                     FILE *log, size_t *applied, size_t *skipped)
{
    ortkit__strv names = {0};
    ortkit__builder_patch_kept k = {0};
    char scratch[PATH_MAX], kept[PATH_MAX], *out = NULL;
    int rc, made = 0;
    if ((rc = ortkit__builder_patch_names(&names, file)) ||
        (rc = ortkit__pathf(scratch, sizeof scratch, "%s/.ortkit-patch-XXXXXX", state_dir)))
        goto cleanup;
    if (!mkdtemp(scratch)) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot create a directory in '%s'", state_dir);
        goto cleanup;
    }
    made = 1;
    /* Try first, so a patch that does not fit is not even started. */
    if (run_patch(source, file, "check", &out) != 0) {
        if (already_in(source, file, &names, scratch)) {
            if (log)
                fprintf(log, "ortkit: patch %s is already in %s\n", name, source);
            (*skipped)++;
        } else {
            rc = ortkit__error_set(ORTKIT_E_IO, "patch %s does not apply to %s: %.*s", name,
                                   source, out ? (int)strcspn(out, "\n") : 0, out ? out : "");
        }
        goto cleanup;
    }
    free(out);
    out = NULL;
    if ((rc = ortkit__pathf(kept, sizeof kept, "%s/kept", scratch)) ||
        (rc = ortkit__mkdirs(kept)) || (rc = ortkit__builder_patch_keep(&k, source, &names, kept)))
        goto cleanup;
    if (run_patch(source, file, "apply", &out) != 0) {
        int restored = ortkit__builder_patch_restore(&k);
        rc = ortkit__error_set(ORTKIT_E_IO, "patch %s failed on %s: %.*s; %s", name, source,
                               out ? (int)strcspn(out, "\n") : 0, out ? out : "",
                               restored ? "and the tree could not be put back as it was"
                                        : "the tree was put back as it was");
        goto cleanup;
    }
    if (log)
        fprintf(log, "ortkit: applied %s to %s\n", name, source);
    (*applied)++;
cleanup:
    free(out);
    if (made)
        nftw(scratch, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    ortkit__builder_patch_kept_free(&k);
    ortkit__strv_free(&names);
    return rc;
}

int ortkit__builder_patch_apply(const char *patch_dir, const char *source, const char *state_dir,
                                FILE *log, size_t *applied, size_t *skipped)
{
    char record[PATH_MAX], *list = NULL;
    ortkit__strv names = {0};
    int rc = 0;
    *applied = *skipped = 0;
    /* patch runs in the source tree (-d), so the files need absolute names. */
    char *dir = NULL;
    if ((rc = ortkit__path_absolute(&dir, patch_dir)))
        return rc;
    DIR *d = opendir(dir);
    if (!d) {
        free(dir);
        return ortkit__error_set(ORTKIT_E_IO, "cannot open patch directory '%s'", patch_dir);
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n > 6 && !strcmp(e->d_name + n - 6, ".patch") && (rc = ortkit__strv_push(&names, e->d_name)))
            break;
    }
    closedir(d);
    if (rc)
        goto cleanup;
    if (names.n)
        qsort(names.v, names.n, sizeof *names.v, cmp_str);
    if ((rc = ortkit__mkdirs(state_dir)))
        goto cleanup;
    if ((rc = ortkit__pathf(record, sizeof record, "%s/patches-applied", state_dir)))
        goto cleanup;
    if (access(record, F_OK) == 0 && (rc = ortkit__file_read(&list, NULL, record, 1 << 20)))
        goto cleanup;
    for (size_t i = 0; i < names.n; i++) {
        if (recorded(list, names.v[i])) {
            (*skipped)++;
            continue;
        }
        char file[PATH_MAX];
        if ((rc = ortkit__pathf(file, sizeof file, "%s/%s", dir, names.v[i])) ||
            (rc = apply_one(source, file, names.v[i], state_dir, log, applied, skipped)))
            goto cleanup;
        /* Record after each, so an interrupted run knows what is in. */
        size_t len = list ? strlen(list) : 0;
        char *next = malloc(len + strlen(names.v[i]) + 2);
        if (!next) {
            rc = ortkit__error_nomem();
            goto cleanup;
        }
        sprintf(next, "%s%s\n", list ? list : "", names.v[i]);
        free(list);
        list = next;
        if ((rc = ortkit__file_write_atomic(record, list, strlen(list))))
            goto cleanup;
    }
cleanup:
    free(dir);
    free(list);
    ortkit__strv_free(&names);
    return rc;
}
