/*
 * path_trust.c - whether anyone but this user (or root) could replace what a
 * path names: the rule bundles follow, for everything ortkit checks once and
 * another program (CMake, the dynamic loader) reads again by name.
 */
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int refuse(char *why, size_t size, const char *fmt, ...) ORTKIT_PRINTF(3, 4);
static int refuse(char *why, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (size)
        vsnprintf(why, size, fmt, ap);
    va_end(ap);
    return -1;
}

/* The user's or root's, and writable by no one else. */
int ortkit__path_owned(const char *path, const struct stat *st, char *why, size_t size)
{
    if (st->st_uid != geteuid() && st->st_uid != 0)
        return refuse(why, size, "%s belongs to uid %u, not to you or root", path,
                      (unsigned)st->st_uid);
    if (!S_ISLNK(st->st_mode) && (st->st_mode & (S_IWGRP | S_IWOTH)))
        return refuse(why, size, "%s is writable by %s (chmod go-w)", path,
                      st->st_mode & S_IWOTH ? "anyone" : "its group");
    return 0;
}

/* One directory holding the entry cst: its owner can swap the entry, and so
 * can anyone who may write it, unless it is sticky and the entry ours. */
static int passage(const char *dir, const struct stat *cst, char *why, size_t size)
{
    struct stat st;
    if (lstat(dir, &st) != 0)
        return refuse(why, size, "cannot look at %s: %s", dir, strerror(errno));
    if (st.st_uid != geteuid() && st.st_uid != 0)
        return refuse(why, size, "the directory %s belongs to uid %u, who could swap what is "
                      "in it", dir, (unsigned)st.st_uid);
    if ((st.st_mode & (S_IWGRP | S_IWOTH)) &&
        !((st.st_mode & S_ISVTX) && (cst->st_uid == geteuid() || cst->st_uid == 0)))
        return refuse(why, size, "the directory %s is writable by %s, who could swap what is in "
                      "it (chmod go-w)", dir, st.st_mode & S_IWOTH ? "anyone" : "its group");
    return 0;
}

int ortkit__path_walk(const char *path, char *end, size_t end_size,
                      int (*visit)(void *arg, const char *dir, const struct stat *entry),
                      void *arg, char *why, size_t size)
{
    char rest[PATH_MAX], cur[PATH_MAX] = "";
    if (path[0] == '/') {
        if (ortkit__pathf(rest, sizeof rest, "%s", path))
            return refuse(why, size, "%s", ortkit__error_message());
    } else if (!getcwd(cur, sizeof cur) || ortkit__pathf(rest, sizeof rest, "%s/%s", cur, path)) {
        return refuse(why, size, "cannot tell where %s is", path);
    }
    cur[0] = '\0'; /* the root */
    int links = 0;
    struct stat st;
    char *p = rest;
    while (*p) {
        while (*p == '/')
            p++;
        if (!*p)
            break;
        char name[NAME_MAX + 1], next[PATH_MAX];
        size_t n = strcspn(p, "/");
        if (n > NAME_MAX)
            return refuse(why, size, "a name in %s is too long", path);
        memcpy(name, p, n);
        name[n] = '\0';
        p += n;
        if (!strcmp(name, "."))
            continue;
        if (!strcmp(name, "..")) {
            char *slash = strrchr(cur, '/');
            if (slash)
                *slash = '\0';
            continue;
        }
        if (ortkit__pathf(next, sizeof next, "%s/%s", cur, name))
            return refuse(why, size, "%s", ortkit__error_message());
        if (lstat(next, &st) != 0)
            return refuse(why, size, "cannot look at %s: %s", next, strerror(errno));
        if (visit(arg, cur[0] ? cur : "/", &st))
            return -1;
        if (S_ISLNK(st.st_mode)) {
            char target[PATH_MAX], joined[PATH_MAX];
            ssize_t tn = readlink(next, target, sizeof target - 1);
            if (tn < 0 || ++links > 40)
                return refuse(why, size, "cannot follow the link %s", next);
            target[tn] = '\0';
            /* The link's target, then what was left of the path. */
            if (ortkit__pathf(joined, sizeof joined, "%s%s", target, p))
                return refuse(why, size, "%s", ortkit__error_message());
            snprintf(rest, sizeof rest, "%s", joined);
            p = rest;
            if (target[0] == '/')
                cur[0] = '\0';
            continue;
        }
        snprintf(cur, sizeof cur, "%s", next);
    }
    snprintf(end, end_size, "%s", cur[0] ? cur : "/");
    return 0;
}

typedef struct trust_walk {
    char *why;
    size_t size;
} trust_walk;

static int visit_passage(void *arg, const char *dir, const struct stat *entry)
{
    trust_walk *t = arg;
    return passage(dir, entry, t->why, t->size);
}

int ortkit__path_trusted(const char *path, char *why, size_t size)
{
    char cur[PATH_MAX];
    struct stat st;
    trust_walk t = {why, size};
    if (ortkit__path_walk(path, cur, sizeof cur, visit_passage, &t, why, size))
        return -1;
    /* What the path names, itself. */
    if (lstat(cur, &st) != 0)
        return refuse(why, size, "cannot look at %s: %s", path, strerror(errno));
    return ortkit__path_owned(cur, &st, why, size);
}
