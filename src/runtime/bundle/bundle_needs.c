/*
 * bundle_needs.c - can a host load a bundle's files: the C library, the C++
 * library and every library they need that the bundle does not carry.  One
 * judgement, used by selection (is a bundle loadable here?) and by import
 * (may the library be loaded to check it?).
 */
#include "bundle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SAY(...) ((void)snprintf(why + strlen(why), size - strlen(why), __VA_ARGS__))

unsigned ortkit__needs_ignored(void)
{
    const char *env = ortkit__env("ORTKIT_IGNORE_NEEDS");
    unsigned bits = 0;
    if (!env)
        return 0;
    char copy[128];
    snprintf(copy, sizeof copy, "%s", env);
    for (char *save = NULL, *w = strtok_r(copy, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
        if (!strcmp(w, "glibc"))
            bits |= ORTKIT__IGNORE_GLIBC;
        else if (!strcmp(w, "glibcxx") || !strcmp(w, "libstdc++"))
            bits |= ORTKIT__IGNORE_GLIBCXX;
        else if (!strcmp(w, "libraries"))
            bits |= ORTKIT__IGNORE_LIBRARIES;
        else if (!strcmp(w, "all"))
            bits |= ORTKIT__IGNORE_GLIBC | ORTKIT__IGNORE_GLIBCXX | ORTKIT__IGNORE_LIBRARIES;
    }
    return bits;
}

/* s when it is a whole dotted version ("2.36", "3.4.30"), else "". */
static const char *clean_version(const char *s)
{
    ortkit__version v;
    const char *rest = NULL;
    if (!s || ortkit__version_parse(&v, s, &rest) != 0 || v.n < 2 || (rest && *rest))
        return "";
    return s;
}

/* A newer need than the host has: refused, or noted when overridden. */
static int version_need(const char *need, const char *have, const char *what, const char *prefix,
                        int ignored, char *why, size_t size)
{
    have = clean_version(have);
    if (!need || !need[0] || !have[0] || ortkit__version_compare(need, have) <= 0)
        return 1;
    why[0] = '\0';
    SAY("needs %s%.24s%s, this host has %.24s", prefix, need, what, have);
    if (!ignored)
        return 0;
    SAY(" (ignored: ORTKIT_IGNORE_NEEDS)");
    return 2;
}

int ortkit__needs_met(const ortkit_host *h, const char *glibc, const char *glibcxx, int exec_stack,
                      const char *const *libraries, size_t library_count, char *why, size_t size)
{
    unsigned ignore = ortkit__needs_ignored();
    char note[256] = "";
    why[0] = '\0';
    int r = version_need(glibc, h->glibc, "", "glibc ", ignore & ORTKIT__IGNORE_GLIBC, why, size);
    if (r == 0)
        return 0;
    if (r == 2)
        snprintf(note, sizeof note, "%s", why);
    r = version_need(glibcxx, h->glibcxx, " (libstdc++)", "GLIBCXX_", ignore & ORTKIT__IGNORE_GLIBCXX,
                     why, size);
    if (r == 0)
        return 0;
    if (r == 2)
        snprintf(note + strlen(note), sizeof note - strlen(note), "%s%s", note[0] ? "; " : "", why);
    /* glibc 2.41 stopped making the stack executable for a library loaded
     * after start-up: one that asks for it no longer loads. */
    const char *have = clean_version(h->glibc);
    if (exec_stack && have[0] && ortkit__version_compare(have, "2.41") >= 0) {
        why[0] = '\0';
        SAY("needs an executable stack, which glibc 2.41 and newer (this host has %.24s) refuse to "
            "a library loaded by a running program; build it linked with -z noexecstack", have);
        if (!(ignore & ORTKIT__IGNORE_GLIBC))
            return 0;
        SAY(" (ignored: ORTKIT_IGNORE_NEEDS)");
        snprintf(note + strlen(note), sizeof note - strlen(note), "%s%s", note[0] ? "; " : "", why);
    }

    /* The libraries: every one the host lacks is named, so one look says all. */
    char missing[256] = "";
    size_t n_missing = 0;
    int unknown = 0;
    for (size_t i = 0; i < library_count; i++) {
        int has = ortkit_host_has_library(h, libraries[i]);
        unknown |= has < 0;
        if (has == 0 && n_missing++ < 4)
            snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%s",
                     missing[0] ? ", " : "", libraries[i]);
    }
    why[0] = '\0';
    if (n_missing) {
        if (n_missing > 4)
            snprintf(missing + strlen(missing), sizeof missing - strlen(missing), " and %zu more",
                     n_missing - 4);
        SAY("needs %s, not in the bundle, not on this host", missing);
        if (!(ignore & ORTKIT__IGNORE_LIBRARIES))
            return 0;
        SAY(" (ignored: ORTKIT_IGNORE_NEEDS)");
    } else if (unknown && library_count) {
        SAY("its %zu needed libraries are not judged: the host does not list its libraries",
            library_count);
    }
    if (note[0]) {
        char tail[256];
        snprintf(tail, sizeof tail, "%s", why);
        snprintf(why, size, "%s%s%s", note, tail[0] ? "; " : "", tail);
    }
    return 1;
}
