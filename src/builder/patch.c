/*
 * patch.c - `--patch DIR`: a per-version patch set, as distributions carry.
 * The .patch files of DIR are applied in name order with `patch -p1`
 * without fuzz (as dpkg-source does: a hunk applied with fuzz can land a
 * second time where its context repeats), each recorded in
 * <state>/patches-applied once it is in.
 *
 * What is in is decided by the tree, not by the record: several build
 * directories share one source tree, and a tree may be unpacked afresh
 * under a build directory that had patched the old one.  First the whole
 * set is looked for: reverse-applied, last first and without fuzz, to
 * copies of the files it names (each patch meets exactly the context it
 * left), as a run in another build directory leaves it.  Otherwise patch
 * by patch: one that applies is applied; one that does not and
 * reverse-applies to copies (with patch's default fuzz: a later patch may
 * have changed the lines around it) is already in; one that would apply
 * and is also found is refused, not applied twice; one that neither
 * applies nor is present fails.  (GNU patch's -R --dry-run exits 0 on a
 * patch that is not reversed, "Ignoring -R", so the reversal is real, on
 * copies.)  A patch that fails half-way (a git-style one may have made a
 * link first) is undone from copies kept before it ran: on any failure the
 * tree is as it was.  A patch naming a path outside the tree is refused
 * (GNU patch would skip it and still succeed).
 */
#include "builder_patch.h"
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

/* mode: "check" (dry run) or "apply", without fuzz; "reverse" (for real,
 * refusing a patch that is not reversed: --forward with -R) with patch's
 * default fuzz, or "unapply", the same without fuzz. */
static int run_patch(const char *source, const char *file, const char *mode, char **out)
{
    const char *check[] = {"patch", "-p1", "--batch", "--forward", "--fuzz=0", "-s", "--dry-run",
                           "-d", source, "-i", file, NULL};
    const char *apply[] = {"patch", "-p1", "--batch", "--forward", "--fuzz=0", "-s", "-d", source,
                           "-i", file, NULL};
    const char *reverse[] = {"patch", "-p1", "--batch", "-R", "--forward", "-s", "-d", source,
                             "-i", file, NULL};
    const char *unapply[] = {"patch", "-p1", "--batch", "-R", "--forward", "--fuzz=0", "-s", "-d",
                             source, "-i", file, NULL};
    const char *const *argv = !strcmp(mode, "check")     ? check
                              : !strcmp(mode, "apply")   ? apply
                              : !strcmp(mode, "reverse") ? reverse
                                                         : unapply;
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

/* Do the patches at paths[0..n) reverse-apply, last first and for real, to
 * copies (in scratch/in) of the files they name?  mode: "reverse" (patch's
 * default fuzz) or "unapply" (none).  Anything that goes wrong means "no":
 * the caller then reports what it finds. */
static int reverses(const char *source, char *const *paths, size_t n, const char *mode,
                    const char *scratch)
{
    ortkit__strv names = {0};
    ortkit__builder_patch_kept k = {0};
    char copy[PATH_MAX];
    int in = 0;
    for (size_t i = 0; i < n; i++)
        if (ortkit__builder_patch_names(&names, paths[i]))
            goto cleanup;
    if (ortkit__pathf(copy, sizeof copy, "%s/in", scratch) || ortkit__mkdirs(copy) ||
        ortkit__builder_patch_keep(&k, source, &names, copy))
        goto cleanup;
    in = 1;
    for (size_t i = n; in && i-- > 0;) {
        char *out = NULL;
        in = run_patch(copy, paths[i], mode, &out) == 0;
        free(out);
    }
cleanup:
    ortkit__builder_patch_kept_free(&k);
    ortkit__strv_free(&names);
    return in;
}

/* Is the set DIR/names[0..n) in the tree as a run of ours leaves it?  It
 * reverse-applies, last first and without fuzz, so each patch meets exactly
 * the context it left. */
static int set_in(const char *source, const char *dir, char *const *names, size_t n,
                  const char *state_dir)
{
    ortkit__strv paths = {0};
    char scratch[PATH_MAX];
    int in = 0;
    for (size_t i = 0; i < n; i++)
        if (ortkit__strv_pushf(&paths, "%s/%s", dir, names[i]))
            goto cleanup;
    if (!ortkit__pathf(scratch, sizeof scratch, "%s/.ortkit-patch-XXXXXX", state_dir) &&
        mkdtemp(scratch)) {
        in = reverses(source, paths.v, paths.n, "unapply", scratch);
        nftw(scratch, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    }
cleanup:
    ortkit__strv_free(&paths);
    return in;
}

/* Apply one patch; on any failure the tree is put back as it was. */
static int apply_one(const char *source, const char *file, const char *name, const char *state_dir,
                     int was_recorded, FILE *log, size_t *applied, size_t *skipped)
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
    int fits = run_patch(source, file, "check", &out) == 0;
    /* Already in: it reverse-applies, with fuzz (a later patch may have
     * changed the lines around it). */
    char *const one[] = {(char *)file};
    int in = reverses(source, one, 1, "reverse", scratch);
    if (fits && in) {
        rc = ortkit__error_set(ORTKIT_E_IO, "patch %s would apply to %s, but it is already in it "
                               "(its context repeats there): not applied a second time; unpack a "
                               "fresh source tree", name, source);
        goto cleanup;
    }
    if (!fits) {
        if (in) {
            if (log && !was_recorded)
                fprintf(log, "ortkit: patch %s is already in %s\n", name, source);
            (*skipped)++;
        } else {
            rc = ortkit__error_set(ORTKIT_E_IO, "patch %s does not apply to %s%s: %.*s", name,
                                   source, was_recorded ? " (this build directory applied it "
                                   "before: the tree has changed since)" : "",
                                   out ? (int)strcspn(out, "\n") : 0, out ? out : "");
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
        fprintf(log, "ortkit: applied %s to %s%s\n", name, source,
                was_recorded ? " (again: this build directory had applied it, the tree had lost it)"
                             : "");
    (*applied)++;
cleanup:
    free(out);
    if (made)
        nftw(scratch, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    ortkit__builder_patch_kept_free(&k);
    ortkit__strv_free(&names);
    return rc;
}

/* The .patch files of dir (absolute; given: as the user named it), in name order. */
static int list_patches(ortkit__strv *names, const char *dir, const char *given)
{
    DIR *d = opendir(dir);
    if (!d)
        return ortkit__error_set(ORTKIT_E_IO, "cannot open patch directory '%s'", given);
    struct dirent *e;
    int rc = 0;
    while (!rc && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n > 6 && !strcmp(e->d_name + n - 6, ".patch"))
            rc = ortkit__strv_push(names, e->d_name);
    }
    closedir(d);
    if (!rc && names->n)
        qsort(names->v, names->n, sizeof *names->v, cmp_str);
    return rc;
}

/* name added to the record (list, its text), written whole each time. */
static int record_add(const char *record, char **list, const char *name)
{
    size_t len = *list ? strlen(*list) : 0;
    char *next = malloc(len + strlen(name) + 2);
    if (!next)
        return ortkit__error_nomem();
    sprintf(next, "%s%s\n", *list ? *list : "", name);
    free(*list);
    *list = next;
    return ortkit__file_write_atomic(record, next, strlen(next));
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
    if ((rc = list_patches(&names, dir, patch_dir)))
        goto cleanup;
    if ((rc = ortkit__mkdirs(state_dir)))
        goto cleanup;
    if ((rc = ortkit__pathf(record, sizeof record, "%s/patches-applied", state_dir)))
        goto cleanup;
    if (access(record, F_OK) == 0 && (rc = ortkit__file_read(&list, NULL, record, 1 << 20)))
        goto cleanup;
    /* The tree decides, not the record: a tree unpacked afresh under a build
     * directory that had patched the old one gets the set again.  The longest
     * first part of the set that the tree holds (the whole set reverse-applies,
     * or all but the patches added to the set since) is in; patches of it that
     * overlap need each other's context, which only the part as a whole
     * gives them. */
    size_t in_part = 0;
    for (size_t k = names.n; k > 0 && !in_part; k--)
        if (set_in(source, dir, names.v, k, state_dir))
            in_part = k;
    for (size_t i = 0; !rc && i < names.n; i++) {
        char file[PATH_MAX];
        int was_recorded = recorded(list, names.v[i]);
        if (i < in_part && in_part < names.n &&
            !(rc = ortkit__pathf(file, sizeof file, "%s/%s", dir, names.v[i])) &&
            run_patch(source, file, "check", NULL) == 0) {
            /* In, and it would apply again where its context repeats. */
            rc = ortkit__error_set(ORTKIT_E_IO, "patch %s would apply to %s, but it is already "
                                   "in it (its context repeats there): not applied a second time; "
                                   "unpack a fresh source tree", names.v[i], source);
            break;
        }
        if (rc)
            break;
        if (i < in_part) {
            if (log && !was_recorded)
                fprintf(log, "ortkit: patch %s is already in %s\n", names.v[i], source);
            (*skipped)++;
        } else if ((rc = ortkit__pathf(file, sizeof file, "%s/%s", dir, names.v[i])) ||
                   (rc = apply_one(source, file, names.v[i], state_dir, was_recorded, log, applied,
                                   skipped))) {
            break;
        }
        /* Recorded after each, so an interrupted run's record says what is in. */
        if (!was_recorded)
            rc = record_add(record, &list, names.v[i]);
    }
cleanup:
    free(dir);
    free(list);
    ortkit__strv_free(&names);
    return rc;
}

/* Each patch of the set on copies, in order, on top of the ones before. */
static int check_on_copies(const char *dir, const ortkit__strv *names, const char *copy,
                           ortkit__builder_patch_verdict *verdicts)
{
    int rc = ORTKIT_OK;
    for (size_t i = 0; i < names->n; i++) {
        char file[PATH_MAX], *out = NULL;
        if ((rc = ortkit__pathf(file, sizeof file, "%s/%s", dir, names->v[i])))
            return rc;
        if (run_patch(copy, file, "apply", &out) == 0) {
            verdicts[i] = ORTKIT__PATCH_APPLIES;
        } else {
            /* Not applied: in already (it reverse-applies, then is put back)? */
            char *back = NULL;
            int in = run_patch(copy, file, "unapply", &back) == 0 &&
                     run_patch(copy, file, "apply", NULL) == 0;
            verdicts[i] = in ? ORTKIT__PATCH_IN : ORTKIT__PATCH_FAILS;
            free(back);
        }
        free(out);
    }
    return rc;
}

int ortkit__builder_patch_check(const char *patch_dir, const char *source, ortkit__strv *names,
                                ortkit__builder_patch_verdict **verdicts)
{
    ortkit__strv paths = {0};
    ortkit__builder_patch_kept k = {0};
    char scratch[PATH_MAX], *dir = NULL;
    int rc, made = 0;
    *verdicts = NULL;
    if ((rc = ortkit__path_absolute(&dir, patch_dir)) || (rc = list_patches(names, dir, patch_dir)))
        goto cleanup;
    if (!names->n) {
        rc = ortkit__error_set(ORTKIT_E_INVALID_ARG, "'%s' holds no .patch files", patch_dir);
        goto cleanup;
    }
    for (size_t i = 0; i < names->n; i++) {
        char file[PATH_MAX];
        if ((rc = ortkit__pathf(file, sizeof file, "%s/%s", dir, names->v[i])) ||
            (rc = ortkit__builder_patch_names(&paths, file)))
            goto cleanup;
    }
    const char *tmp = ortkit__env("TMPDIR");
    if ((rc = ortkit__pathf(scratch, sizeof scratch, "%s/ortkit-patch-check-XXXXXX",
                            tmp && *tmp ? tmp : "/tmp")))
        goto cleanup;
    if (!mkdtemp(scratch)) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot create a directory in '%s'", tmp ? tmp : "/tmp");
        goto cleanup;
    }
    made = 1;
    if ((rc = ortkit__builder_patch_keep(&k, source, &paths, scratch)))
        goto cleanup;
    if (!(*verdicts = calloc(names->n, sizeof **verdicts))) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    rc = check_on_copies(dir, names, scratch, *verdicts);
cleanup:
    if (made)
        nftw(scratch, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    ortkit__builder_patch_kept_free(&k);
    ortkit__strv_free(&paths);
    free(dir);
    return rc;
}
