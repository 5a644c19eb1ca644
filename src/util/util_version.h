/* util_version.h - version numbers (version.c). */
#ifndef ORTKIT_UTIL_VERSION_H
#define ORTKIT_UTIL_VERSION_H

#include "util_base.h"

#define ORTKIT__VERSION_MAX_PARTS 8

/* "1.30.0" -> {1, 30, 0}, n = 3. */
typedef struct ortkit__version {
    long part[ORTKIT__VERSION_MAX_PARTS];
    size_t n;
} ortkit__version;

/*
 * The dotted decimal version at the start of s: "1.30.0", "12.9",
 * "570.124.06".  With rest, *rest is what follows the numbers ("-dev" in
 * "1.22.0-dev"); without, nothing may follow.  ORTKIT_E_FORMAT when s does
 * not start with a digit, a part exceeds 999999999, a dot is not followed by
 * a digit, or (without rest) anything follows.
 */
int ortkit__version_parse(ortkit__version *out, const char *s, const char **rest);
/* Compare the leading dotted numbers of a and b part by part, a missing
 * part (or text that is no version) counting as 0: < 0, 0 or > 0. */
int ortkit__version_compare(const char *a, const char *b);

#endif
