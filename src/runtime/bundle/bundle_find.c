/*
 * bundle_find.c - where bundles are looked for, and what is found there.
 *
 * In order: each directory of ORTKIT_PATH; the user's data directory
 * ($XDG_DATA_HOME/ortkit/bundles, else ~/.local/share/ortkit/bundles); each
 * system data directory ($XDG_DATA_DIRS, else /usr/local/share:/usr/share,
 * + /ortkit/bundles); the build's default directory (set-up imports there).
 * Each holds bundle directories, one per bundle, named as the bundle.
 */
#include "bundle.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef ORTKIT_DEFAULT_BUNDLES
#define ORTKIT_DEFAULT_BUNDLES ""
#endif

#define MAX_DIRS 64
#define MAX_ENTRIES 4096

typedef struct dir_slot {
    ortkit_bundle_dir pub;
    char *path;
    char note[256];
} dir_slot;

typedef struct entry_slot {
    ortkit_bundle_entry pub;
    char *name, *dir;
    char *error;
    ortkit_bundle *bundle;
    size_t dir_index;
} entry_slot;

struct ortkit_bundle_list {
    dir_slot dirs[MAX_DIRS];
    size_t dir_count;
    entry_slot *entries;
    size_t entry_count;
};

int ortkit__bundle_user_dir(char *buf, size_t size)
{
    int rc = ortkit__xdg_dir(buf, size, "XDG_DATA_HOME", ".local/share", "ortkit/bundles");
    return rc ? ortkit__error_wrap(rc, "no user data directory") : ORTKIT_OK;
}

static int add_dir(ortkit_bundle_list *l, const char *path, const char *source)
{
    if (l->dir_count == MAX_DIRS)
        return ORTKIT_OK;
    for (size_t i = 0; i < l->dir_count; i++)
        if (!strcmp(l->dirs[i].path, path))
            return ORTKIT_OK; /* searched already, earlier in the order */
    dir_slot *d = &l->dirs[l->dir_count];
    if (!(d->path = strdup(path)))
        return ortkit__error_nomem();
    d->pub.path = d->path;
    d->pub.source = source;
    d->pub.note = d->note;
    l->dir_count++;
    return ORTKIT_OK;
}

/* Each entry of a colon-separated list, with suffix appended. */
static int add_list(ortkit_bundle_list *l, const char *list, const char *suffix, const char *source)
{
    char path[PATH_MAX];
    for (ortkit__path_list it = {.rest = list}; ortkit__path_list_next(&it);) {
        if (it.len + strlen(suffix) < sizeof path) {
            snprintf(path, sizeof path, "%.*s%s", (int)it.len, it.entry, suffix);
            int rc = add_dir(l, path, source);
            if (rc)
                return rc;
        }
    }
    return ORTKIT_OK;
}

static int add_entry(ortkit_bundle_list *l, size_t dir_index, const char *name)
{
    dir_slot *d = &l->dirs[dir_index];
    if (l->entry_count == MAX_ENTRIES)
        return ORTKIT_OK;
    if (l->entry_count % 16 == 0) {
        entry_slot *grown = realloc(l->entries, (l->entry_count + 16) * sizeof *grown);
        if (!grown)
            return ortkit__error_nomem();
        l->entries = grown;
    }
    entry_slot *e = &l->entries[l->entry_count];
    memset(e, 0, sizeof *e);
    e->dir_index = dir_index;
    size_t n = strlen(d->path) + strlen(name) + 2;
    if (!(e->name = strdup(name)) || !(e->dir = malloc(n))) {
        free(e->name);
        return ortkit__error_nomem();
    }
    snprintf(e->dir, n, "%s/%s", d->path, name);
    if (ortkit_bundle_open(&e->bundle, e->dir) != 0 && !(e->error = strdup(ortkit_error_last()))) {
        free(e->name);
        free(e->dir);
        return ortkit__error_nomem();
    }
    l->entry_count++;
    d->pub.bundle_count++;
    return ORTKIT_OK;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The bundles in one directory, in name order so every listing is the same. */
static int scan_dir(ortkit_bundle_list *l, size_t dir_index)
{
    dir_slot *d = &l->dirs[dir_index];
    struct stat st;
    if (stat(d->path, &st) != 0) {
        d->pub.state = errno == ENOENT ? ORTKIT_BUNDLE_DIR_MISSING : ORTKIT_BUNDLE_DIR_UNREADABLE;
        snprintf(d->note, sizeof d->note, "%s", strerror(errno));
        return ORTKIT_OK;
    }
    if (!S_ISDIR(st.st_mode)) {
        d->pub.state = ORTKIT_BUNDLE_DIR_UNREADABLE;
        snprintf(d->note, sizeof d->note, "not a directory");
        return ORTKIT_OK;
    }
    DIR *dir = opendir(d->path);
    if (!dir) {
        d->pub.state = ORTKIT_BUNDLE_DIR_UNREADABLE;
        snprintf(d->note, sizeof d->note, "%s", strerror(errno));
        return ORTKIT_OK;
    }
    char **names = NULL;
    size_t count = 0;
    int rc = ORTKIT_OK;
    for (struct dirent *e; (e = readdir(dir)) && count < MAX_ENTRIES;) {
        /* Dot names: ".", "..", and imports in progress (".NAME.tmp-..."). */
        if (e->d_name[0] == '.')
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s/%s", d->path, e->d_name, BUNDLE_MANIFEST);
        if (lstat(path, &st) != 0)
            continue; /* not a bundle: no manifest */
        char **grown = realloc(names, (count + 1) * sizeof *names);
        if (!grown || !(grown[count] = strdup(e->d_name))) {
            names = grown ? grown : names;
            rc = ortkit__error_nomem();
            break;
        }
        names = grown;
        count++;
    }
    closedir(dir);
    if (!rc && count > 1)
        qsort(names, count, sizeof *names, cmp_names);
    for (size_t i = 0; !rc && i < count; i++)
        rc = add_entry(l, dir_index, names[i]);
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
    return rc;
}

int ortkit_bundle_list_open(ortkit_bundle_list **out)
{
    if (!out)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_bundle_list_open: out is NULL");
    *out = NULL;
    ortkit_bundle_list *l = calloc(1, sizeof *l);
    if (!l)
        return ortkit__error_nomem();
    char user[PATH_MAX];
    const char *v = ortkit__env("ORTKIT_PATH");
    const char *sys = ortkit__env("XDG_DATA_DIRS");
    int rc = ORTKIT_OK;
    if (v && (rc = add_list(l, v, "", "ORTKIT_PATH")))
        goto fail;
    if (ortkit__bundle_user_dir(user, sizeof user) == 0 && (rc = add_dir(l, user, "user")))
        goto fail;
    if ((rc = add_list(l, sys && sys[0] ? sys : "/usr/local/share:/usr/share", "/ortkit/bundles",
                       "system")))
        goto fail;
    if (ORTKIT_DEFAULT_BUNDLES[0] && (rc = add_dir(l, ORTKIT_DEFAULT_BUNDLES, "default")))
        goto fail;
    for (size_t i = 0; i < l->dir_count; i++)
        if ((rc = scan_dir(l, i)))
            goto fail;
    /* Fill the public views now that the arrays no longer move. */
    for (size_t k = 0; k < l->entry_count; k++) {
        entry_slot *e = &l->entries[k];
        e->pub.name = e->name;
        e->pub.dir = e->dir;
        e->pub.source = l->dirs[e->dir_index].pub.source;
        e->pub.bundle = e->bundle;
        e->pub.error = e->error ? e->error : "";
    }
    *out = l;
    return ORTKIT_OK;
fail:
    ortkit_bundle_list_free(l);
    return rc;
}

void ortkit_bundle_list_free(ortkit_bundle_list *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->dir_count; i++)
        free(l->dirs[i].path);
    for (size_t i = 0; i < l->entry_count; i++) {
        free(l->entries[i].name);
        free(l->entries[i].dir);
        free(l->entries[i].error);
        ortkit_bundle_free(l->entries[i].bundle);
    }
    free(l->entries);
    free(l);
}

size_t ortkit_bundle_list_count(const ortkit_bundle_list *l) { return l ? l->entry_count : 0; }
size_t ortkit_bundle_list_dir_count(const ortkit_bundle_list *l) { return l ? l->dir_count : 0; }

const ortkit_bundle_entry *ortkit_bundle_list_get(const ortkit_bundle_list *l, size_t i)
{
    return l && i < l->entry_count ? &l->entries[i].pub : NULL;
}

const ortkit_bundle_dir *ortkit_bundle_list_dir(const ortkit_bundle_list *l, size_t i)
{
    return l && i < l->dir_count ? &l->dirs[i].pub : NULL;
}
