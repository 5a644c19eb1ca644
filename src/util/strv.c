/* strv.c - argv-style string lists, and quoting for a shell. */
#include "util.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ortkit__strv_push(ortkit__strv *sv, const char *s)
{
    if (ortkit__array_reserve(&sv->v, &sv->cap, sv->n + 2, sizeof *sv->v, 16))
        return ORTKIT_E_NOMEM;
    if (!(sv->v[sv->n] = ortkit__strdup(s)))
        return ORTKIT_E_NOMEM;
    sv->v[++sv->n] = NULL;
    return ORTKIT_OK;
}

int ortkit__strv_pushf(ortkit__strv *sv, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (n < 0)
        return ortkit__error_nomem();
    int rc = ortkit__strv_push(sv, s);
    free(s);
    return rc;
}

int ortkit__strv_has(const ortkit__strv *sv, const char *s)
{
    for (size_t i = 0; sv && s && i < sv->n; i++)
        if (!strcmp(sv->v[i], s))
            return 1;
    return 0;
}

void ortkit__strv_free(ortkit__strv *sv)
{
    for (size_t i = 0; i < sv->n; i++)
        free(sv->v[i]);
    free(sv->v);
    sv->v = NULL;
    sv->n = sv->cap = 0;
}

char *ortkit__shell_quote(const char *s)
{
    int plain = *s != '\0';
    for (const char *p = s; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("-_=+./:,@%^", *p))
            plain = 0;
    if (plain)
        return ortkit__strdup(s);
    size_t n = 3;
    for (const char *p = s; *p; p++)
        n += *p == '\'' ? 4 : 1;
    char *out = malloc(n), *o = out;
    if (!out) {
        ortkit__error_nomem();
        return NULL;
    }
    *o++ = '\'';
    for (const char *p = s; *p; p++) {
        if (*p == '\'') {
            memcpy(o, "'\\''", 4);
            o += 4;
        } else {
            *o++ = *p;
        }
    }
    *o++ = '\'';
    *o = '\0';
    return out;
}
