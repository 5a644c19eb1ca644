/*
 * repo_install.c - install one entry of a verified index.
 *
 * Everything happens beside the destination, under a lock that makes
 * installs into one directory take turns: the archive is downloaded into
 * .ortkit-download-<sha256>.part (kept when a transfer breaks, so the next
 * attempt resumes), checked, unpacked into a fresh .ortkit-unpack-*
 * directory, verified as a bundle, compared with the manifest the signed
 * index lists, and only then renamed into place (exchanged atomically with
 * a bundle of the same name, which is removed after).  A failure at any
 * step removes what the step made, and the destination stays as it was.
 * What a killed install left is told by its name (the PID of the unpack
 * directory, the archive hash of the part) and removed by the next one.
 */
#include "bundle.h"
#include "repo.h"

#include "abi.h"

#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

ORTKIT__ABI_STRUCT(install_abi, ortkit_repo_install_options, "install options",
                   "ORTKIT_REPO_INSTALL_OPTIONS_INIT", ORTKIT_REPO_INSTALL_OPTIONS_VERSION,
                   offsetof(ortkit_repo_install_options, force),
                   sizeof(ortkit_repo_install_options));

typedef struct report_owned {
    ortkit_repo_report pub;
    char name[BUNDLE_NAME_MAX + 1];
    char dir[PATH_MAX];
} report_owned;

void ortkit_repo_report_free(ortkit_repo_report *report) { free(report); }

/* Do a and b describe the same bundle, whatever their directories' names? */
static int same_manifest(int *same, const ortkit_bundle *a, const ortkit_bundle *b, const char *name)
{
    ortkit_manifest ma = *ortkit_bundle_manifest(a), mb = *ortkit_bundle_manifest(b);
    ma.name = mb.name = name;
    char *ta = NULL, *tb = NULL;
    int rc = ortkit__bundle_to_json(&ta, &ma);
    if (!rc)
        rc = ortkit__bundle_to_json(&tb, &mb);
    *same = !rc && !strcmp(ta, tb);
    free(ta);
    free(tb);
    return rc;
}

/* What is at dir now (an install replaces only what cannot be used). */
enum { EXISTING_NONE, EXISTING_SAME, EXISTING_DAMAGED, EXISTING_OTHER };

/* The bundle at dir: not there, entry's (it opens and verifies), damaged
 * (it does not open or verify), or another that verifies. */
static int existing_state(int *state, const char *dir, const ortkit_repo_entry *e)
{
    struct stat st;
    *state = EXISTING_NONE;
    if (lstat(dir, &st) != 0)
        return errno == ENOENT ? ORTKIT_OK
                               : ortkit__error_set(ORTKIT_E_IO, "cannot look at '%s': %s", dir,
                                                   strerror(errno));
    *state = EXISTING_DAMAGED;
    if (!S_ISDIR(st.st_mode))
        return ortkit__error_set(ORTKIT_E_IO, "'%s' is in the way: it is not a directory; remove "
                                 "it to install '%s' there", dir, e->name);
    /* A directory that is no bundle at all is not an install's to remove. */
    char manifest[PATH_MAX];
    int rc = ortkit__pathf(manifest, sizeof manifest, "%s/" BUNDLE_MANIFEST, dir);
    if (rc)
        return rc;
    if (lstat(manifest, &st) != 0)
        return ortkit__error_set(ORTKIT_E_IO, "'%s' is in the way: it is not a bundle (no %s); "
                                 "remove it to install '%s' there", dir, BUNDLE_MANIFEST, e->name);
    ortkit_bundle *b = NULL;
    int same = 0;
    if (ortkit_bundle_open(&b, dir) == 0 && !ortkit_bundle_damage(b)[0] &&
        ortkit_bundle_verify(b) == 0)
        *state = same_manifest(&same, b, e->bundle, e->name) == 0 && same ? EXISTING_SAME
                                                                          : EXISTING_OTHER;
    ortkit_bundle_free(b);
    return ORTKIT_OK;
}

#define UNPACK_PREFIX ".ortkit-unpack-"
#define PART_PREFIX ".ortkit-download-"
#define PART_SUFFIX ".part"

/* The PID in ".ortkit-unpack-NAME-PID-XXXXXX"; 0 for a name without one
 * (made before names carried it). */
static long unpack_pid(const char *entry)
{
    const char *last = strrchr(entry, '-');
    if (!last || last == entry)
        return 0;
    const char *p = last;
    while (p > entry && p[-1] >= '0' && p[-1] <= '9')
        p--;
    if (p == last || p[-1] != '-')
        return 0;
    return strtol(p, NULL, 10);
}

static int listed(const ortkit_repo *repo, const char *sha, size_t len)
{
    for (size_t i = 0; i < ortkit_repo_count(repo); i++)
        if (strlen(ortkit_repo_get(repo, i)->sha256) == len &&
            !strncmp(ortkit_repo_get(repo, i)->sha256, sha, len))
            return 1;
    return 0;
}

/* Under the install lock, what killed installs left (a SIGKILL, a second
 * Ctrl-C) goes, as import removes its own: unpack directories whose process
 * is gone (or that carry no PID: only a holder of the lock makes them), and
 * partial downloads of archives this repository's signed index no longer
 * lists (they can never be resumed from it). */
static void remove_stale(const char *into, const ortkit_repo *repo)
{
    DIR *d = opendir(into);
    if (!d)
        return;
    size_t plen = strlen(PART_PREFIX), slen = strlen(PART_SUFFIX);
    for (struct dirent *e; (e = readdir(d));) {
        const char *n = e->d_name;
        size_t len = strlen(n);
        char path[PATH_MAX];
        if (ortkit__pathf(path, sizeof path, "%s/%s", into, n))
            continue;
        if (!strncmp(n, UNPACK_PREFIX, strlen(UNPACK_PREFIX))) {
            long pid = unpack_pid(n);
            if (pid <= 0 || (pid != (long)getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH))
                ortkit__rmtree(path);
        } else if (len > plen + slen && !strncmp(n, PART_PREFIX, plen) &&
                   !strcmp(n + len - slen, PART_SUFFIX) && !listed(repo, n + plen, len - plen - slen)) {
            unlink(path);
        }
    }
    closedir(d);
}

/* Unpack and verify into a fresh directory beside the destination. */
static int stage(char *tmp, size_t tmp_size, const char *into, const char *archive,
                 const ortkit_repo_entry *e)
{
    int rc = ortkit__pathf(tmp, tmp_size, "%s/" UNPACK_PREFIX "%s-%ld-XXXXXX", into, e->name,
                           (long)getpid());
    if (rc)
        return rc;
    if (!mkdtemp(tmp)) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot create a directory in '%s': %s", into,
                               strerror(errno));
        tmp[0] = '\0';
        return rc;
    }
    chmod(tmp, 0755);
    /* The budget: the files the manifest lists, and the manifest itself. */
    if ((rc = ortkit__unpack(archive, tmp, e->unpacked_size + BUNDLE_MANIFEST_MAX)))
        return rc;
    int fd = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        if (syncfs(fd) != 0)
            rc = ortkit__error_set(ORTKIT_E_IO, "cannot sync '%s': %s", tmp, strerror(errno));
        close(fd);
    }
    ortkit_bundle *b = NULL;
    int same = 0;
    if (rc || (rc = ortkit_bundle_open(&b, tmp)))
        goto cleanup;
    if (ortkit_bundle_damage(b)[0]) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "the archive of '%s' holds a damaged bundle: %s",
                               e->name, ortkit_bundle_damage(b));
        goto cleanup;
    }
    if ((rc = ortkit_bundle_verify(b))) {
        ortkit__error_wrap(rc, "the archive of '%s' does not verify as a bundle", e->name);
        goto cleanup;
    }
    if ((rc = same_manifest(&same, b, e->bundle, e->name)))
        goto cleanup;
    if (!same)
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "the archive of '%s' holds another bundle than "
                               "the one the signed index lists", e->name);
cleanup:
    ortkit_bundle_free(b);
    return rc;
}

/* Put staged at dest: renamed there, or exchanged with what is there. */
static int swap_in(const char *staged, const char *dest, int existing)
{
    if (!existing) {
        if (rename(staged, dest) != 0)
            return ortkit__error_set(ORTKIT_E_IO, "cannot rename '%s' to '%s': %s", staged, dest,
                                     strerror(errno));
        return ORTKIT_OK;
    }
    if (renameat2(AT_FDCWD, staged, AT_FDCWD, dest, RENAME_EXCHANGE) != 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot exchange '%s' with '%s': %s", staged, dest,
                                 strerror(errno));
    ortkit__rmtree(staged); /* the old bundle, now at the staged name */
    return ORTKIT_OK;
}

int ortkit_repo_install(ortkit_repo_report **out, ortkit_repo *repo, size_t i,
                        const ortkit_repo_install_options *opts)
{
    if (out)
        *out = NULL;
    const ortkit_repo_entry *e = ortkit_repo_get(repo, i);
    if (!e)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_repo_install: no entry %zu", i);
    ortkit_repo_install_options o = ORTKIT_REPO_INSTALL_OPTIONS_INIT;
    if (opts && ortkit__abi_read(&install_abi, &o, opts))
        return ORTKIT_E_INVALID_ARG;
    report_owned *r = calloc(1, sizeof *r);
    if (!r)
        return ortkit__error_nomem();
    char into[PATH_MAX], dest[PATH_MAX], lock[PATH_MAX], part[PATH_MAX] = "", tmp[PATH_MAX] = "";
    int fd = -1, existing = 0, keep_part = 1;
    int rc = o.into ? ortkit__pathf(into, sizeof into, "%s", o.into)
                    : ortkit__bundle_user_dir(into, sizeof into);
    if (rc || (rc = ortkit__mkdirs(into)) ||
        (rc = ortkit__pathf(dest, sizeof dest, "%s/%s", into, e->name)) ||
        (rc = ortkit__pathf(lock, sizeof lock, "%s/.ortkit-install.lock", into)) ||
        (rc = ortkit__pathf(part, sizeof part, "%s/" PART_PREFIX "%s" PART_SUFFIX, into,
                            e->sha256)) ||
        (rc = ortkit__lock(&fd, lock)))
        goto cleanup;
    remove_stale(into, repo);
    snprintf(r->name, sizeof r->name, "%s", e->name);
    snprintf(r->dir, sizeof r->dir, "%s", dest);
    r->pub.name = r->name;
    r->pub.dir = r->dir;
    if ((rc = existing_state(&existing, dest, e)))
        goto cleanup;
    if (existing == EXISTING_SAME) { /* another install, or an earlier one, put it there */
        r->pub.outcome = ORTKIT_REPO_UNCHANGED;
        keep_part = 0;
        goto cleanup;
    }
    /* A healthy bundle of the same name may be the user's own: as import does,
     * only force replaces it. */
    if (existing == EXISTING_OTHER && !o.force) {
        rc = ortkit__error_set(ORTKIT_E_IO, "'%s' holds another bundle named '%s' that verifies: "
                               "not replaced (remove it, install into another directory, or "
                               "replace it with --force)", dest, e->name);
        goto cleanup;
    }
    ortkit__fetch_job job = {e->archive,     part, e->size, e->sha256, o.progress,
                             o.progress_arg, 0,    0,       0,         NULL};
    rc = ortkit__fetch_file(&repo->src, &job);
    r->pub.downloaded = job.downloaded;
    r->pub.resumed_from = job.resumed_from;
    if (rc)
        goto cleanup;
    keep_part = 0; /* whole and right: whatever follows, it is not resumed */
    if ((rc = stage(tmp, sizeof tmp, into, part, e)) ||
        (rc = swap_in(tmp, dest, existing != EXISTING_NONE)))
        goto cleanup;
    tmp[0] = '\0';
    r->pub.outcome = existing != EXISTING_NONE ? ORTKIT_REPO_REPLACED : ORTKIT_REPO_INSTALLED;
cleanup:
    if (tmp[0])
        ortkit__rmtree(tmp);
    if (!keep_part && part[0])
        unlink(part);
    if (fd >= 0)
        close(fd);
    if (rc || !out)
        free(r);
    else
        *out = &r->pub;
    return rc;
}
