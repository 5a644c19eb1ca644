/*
 * patch.c - `--patch DIR`: a per-version patch set, as distributions carry.
 * The .patch files of DIR are applied in name order with `patch -p1`; each applied one
 * is recorded in <state>/patches-applied, so a rerun does not apply it
 * again.  A patch that is already in the tree (reverse-applies cleanly) is
 * recorded and skipped; one that neither applies nor is present fails.
 */
#include "builder.h"

#include <dirent.h>
#include <limits.h>
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

/* mode: "check" (dry run), "apply", or "present" (does it reverse-apply?). */
static int run_patch(const char *source, const char *file, const char *mode, char **out)
{
    const char *check[] = {"patch", "-p1", "--batch", "--forward", "-s", "--dry-run", "-d", source,
                           "-i", file, NULL};
    const char *apply[] = {"patch", "-p1", "--batch", "--forward", "-s", "-d", source, "-i", file,
                           NULL};
    const char *present[] = {"patch", "-p1", "--batch", "-R", "-s", "--dry-run", "-d", source,
                             "-i", file, NULL};
    const char *const *argv = !strcmp(mode, "check") ? check : !strcmp(mode, "apply") ? apply : present;
    int st = 0;
    if (ortkit__spawn(argv, 1, out, &st) != 0)
        return -1;
    return st;
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
        char file[PATH_MAX], *out = NULL;
        if ((rc = ortkit__pathf(file, sizeof file, "%s/%s", dir, names.v[i])))
            goto cleanup;
        /* Try first, so a patch that does not fit leaves the tree untouched. */
        int st = run_patch(source, file, "check", &out);
        if (st != 0) {
            free(out);
            out = NULL;
            if (run_patch(source, file, "present", &out) == 0) {
                if (log)
                    fprintf(log, "ortkit: patch %s is already in %s\n", names.v[i], source);
                (*skipped)++;
            } else {
                rc = ortkit__error_set(ORTKIT_E_IO, "patch %s does not apply to %s: %.*s",
                                       names.v[i], source,
                                       out ? (int)strcspn(out, "\n") : 0, out ? out : "");
                free(out);
                goto cleanup;
            }
        } else {
            free(out);
            out = NULL;
            if (run_patch(source, file, "apply", &out) != 0) {
                rc = ortkit__error_set(ORTKIT_E_IO, "patch %s failed on %s: %.*s", names.v[i],
                                       source, out ? (int)strcspn(out, "\n") : 0, out ? out : "");
                free(out);
                goto cleanup;
            }
            if (log)
                fprintf(log, "ortkit: applied %s to %s\n", names.v[i], source);
            (*applied)++;
        }
        free(out);
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
