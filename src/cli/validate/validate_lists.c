/*
 * validate_lists.c - the files `ortkit validate` reads besides the tests:
 * known failures ("PATTERN  reason ...") and tolerances ("PATTERN RTOL ATOL").
 * '#' starts a comment; a pattern is matched with fnmatch against the test's
 * name and against "suite/name".  The lists kept with the tool are chosen
 * by the runtime's version (v_known_pick).
 */
#include "validate_cli.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Far above any real list. */
#define V_LIST_MAX_BYTES ((size_t)16 << 20)

void v_list_free(v_list *list)
{
    if (!list)
        return;
    for (size_t i = 0; i < list->count; i++) {
        free(list->entries[i].pattern);
        free(list->entries[i].text);
    }
    free(list->entries);
    free(list->path);
    memset(list, 0, sizeof *list);
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

static int parse_tolerance(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v < 0)
        return -1;
    *out = v;
    return 0;
}

/* Parse one non-empty line into e; NULL, or what is wrong with it. */
static const char *parse_line(char *line, v_list_kind kind, v_entry *e)
{
    char *rest = line + strcspn(line, " \t");
    if (*rest)
        *rest++ = '\0';
    rest = trim(rest);
    e->pattern = strdup(line);
    if (kind == V_LIST_KNOWN_FAILURES) {
        if (!*rest)
            return "no reason given after the test name";
        e->text = strdup(rest);
        return e->pattern && e->text ? NULL : "out of memory";
    }
    char *second = rest + strcspn(rest, " \t");
    if (*second)
        *second++ = '\0';
    second = trim(second);
    if (parse_tolerance(rest, &e->rtol) || parse_tolerance(second, &e->atol))
        return "expected 'TEST RTOL ATOL' with two numbers >= 0";
    return e->pattern ? NULL : "out of memory";
}

/* Why the file at path could not be read: util's message less its
 * "cannot open 'path': " (the caller names the file its own way). */
static const char *reason(const char *path)
{
    const char *msg = ortkit__error_message(), *q = strstr(msg, path);
    if (q && q > msg && q[-1] == '\'' && !strncmp(q + strlen(path), "': ", 3))
        return q + strlen(path) + 3;
    return msg;
}

/* The line of an earlier entry with the same pattern, or 0. */
static int earlier_line(const v_list *list, const char *pattern)
{
    for (size_t i = 0; i + 1 < list->count; i++)
        if (!strcmp(list->entries[i].pattern, pattern))
            return list->entries[i].line;
    return 0;
}

int v_list_load(v_list *list, const char *path, v_list_kind kind)
{
    memset(list, 0, sizeof *list);
    const char *what = kind == V_LIST_KNOWN_FAILURES ? "known-failures" : "tolerances";
    char *text = NULL;
    size_t size = 0;
    if (ortkit__file_read(&text, &size, path, V_LIST_MAX_BYTES))
        return cli_fail("cannot open %s file '%s': %s", what, path, reason(path));
    if (memchr(text, '\0', size)) {
        free(text);
        return cli_fail("%s file '%s' holds a NUL byte: it is not text", what, path);
    }
    list->path = strdup(path);
    size_t room = 0;
    int lineno = 0, rc = list->path ? CLI_OK : cli_fail("out of memory");
    for (char *line = text, *next; !rc && *line; line = next) {
        lineno++;
        next = line + strcspn(line, "\n");
        if (*next)
            *next++ = '\0';
        line[strcspn(line, "#")] = '\0';
        char *s = trim(line);
        if (!*s)
            continue;
        if (list->count == room) {
            room = room ? room * 2 : 32;
            v_entry *bigger = realloc(list->entries, room * sizeof *bigger);
            if (!bigger) {
                rc = cli_fail("out of memory");
                break;
            }
            list->entries = bigger;
        }
        v_entry *e = &list->entries[list->count++];
        memset(e, 0, sizeof *e);
        e->line = lineno;
        const char *why = parse_line(s, kind, e);
        int first = why ? 0 : earlier_line(list, e->pattern);
        if (why)
            rc = cli_fail("%s:%d: %s", path, lineno, why);
        else if (first)
            /* Only the last of two would count: say so rather than guess. */
            rc = cli_fail("%s:%d: '%s' is listed again (first on line %d); keep one of the two",
                          path, lineno, e->pattern, first);
    }
    free(text);
    if (rc)
        v_list_free(list);
    return rc;
}

v_entry *v_list_match(v_list *list, const ortkit_conformance_test *t)
{
    char qualified[512];
    snprintf(qualified, sizeof qualified, "%s/%s", t->suite, t->name);
    v_entry *last = NULL;
    for (size_t i = 0; list && i < list->count; i++) {
        v_entry *e = &list->entries[i];
        if (!fnmatch(e->pattern, t->name, 0) || !fnmatch(e->pattern, qualified, 0)) {
            e->matched = 1;
            last = e;
        }
    }
    return last;
}

/* MAJOR.MINOR of a list's file name "known_failures_MAJOR.MINOR.txt": 0, or -1. */
static int list_release(const char *name, int *major, int *minor)
{
    int end = -1;
    if (sscanf(name, "known_failures_%d.%d.txt%n", major, minor, &end) != 2 || end < 0 || name[end] ||
        !isdigit((unsigned char)name[15]) || *major < 0 || *minor < 0)
        return -1;
    return 0;
}

/* Of the lists in dir, the runtime's own (major.minor) or else the nearest:
 * same major, closest minor, the older on a tie.  1 with *best_minor set;
 * 0 when dir holds no list of that major; *any says whether it holds a list. */
static int nearest_in(const char *dir, int major, int minor, int *best_minor, int *any)
{
    DIR *d = opendir(dir);
    int found = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        int ma, mi;
        if (list_release(e->d_name, &ma, &mi))
            continue;
        *any = 1;
        if (ma != major)
            continue;
        int dist = abs(mi - minor), best = abs(*best_minor - minor);
        if (!found || dist < best || (dist == best && mi < *best_minor))
            *best_minor = mi;
        found = 1;
    }
    if (d)
        closedir(d);
    return found;
}

void v_known_pick(v_known_choice *out, const char *rel_dirs, const char *version)
{
    memset(out, 0, sizeof *out);
    int major, minor, best = 0, any = 0, found = 0;
    char dir[4096];
    if (sscanf(version, "%d.%d", &major, &minor) != 2 || cli_self_exe(dir, sizeof dir))
        return;
    char *slash = strrchr(dir, '/');
    if (!slash)
        return;
    *slash = '\0';
    /* The first directory that holds lists: beside the tool in a build tree, else installed. */
    for (ortkit__path_list it = {.rest = rel_dirs}; !any && ortkit__path_list_next(&it);) {
        char d[4096];
        if (ortkit__pathf(d, sizeof d, "%s/%.*s", dir, (int)it.len, it.entry))
            continue;
        found = nearest_in(d, major, minor, &best, &any);
        if (found && ortkit__pathf(out->path, sizeof out->path, "%s/known_failures_%d.%d.txt", d, major, best))
            found = 0;
    }
    if (!found) {
        out->path[0] = '\0';
        snprintf(out->note, sizeof out->note,
                 "no known-failures list for ONNX Runtime %s nor for any other %d.x release: "
                 "every failure counts", version, major);
        return;
    }
    char real[4096];
    if (realpath(out->path, real))
        snprintf(out->path, sizeof out->path, "%s", real);
    snprintf(out->release, sizeof out->release, "%d.%d", major, best);
    if (best != minor)
        snprintf(out->note, sizeof out->note,
                 "no known-failures list for ONNX Runtime %s; using known_failures_%s.txt, the "
                 "nearest release's (same major, closest minor, the older on a tie)",
                 version, out->release);
}
