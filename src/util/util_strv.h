/* util_strv.h - strings (strv.c). */
#ifndef ORTKIT_UTIL_STRV_H
#define ORTKIT_UTIL_STRV_H

#include "util_base.h"

/* A growable argv-style list of strings: v[n] is NULL. */
typedef struct ortkit__strv {
    char **v;
    size_t n, cap;
} ortkit__strv;

int ortkit__strv_push(ortkit__strv *sv, const char *s);
int ortkit__strv_pushf(ortkit__strv *sv, const char *fmt, ...) ORTKIT_PRINTF(2, 3);
void ortkit__strv_free(ortkit__strv *sv);
/* Does the list hold s (byte for byte)? */
int ortkit__strv_has(const ortkit__strv *sv, const char *s);
/* s quoted for a POSIX shell (single quotes only when needed); malloc'd. */
char *ortkit__shell_quote(const char *s);

#endif
