/* human_parse.c - sizes as people type them ("512M", "2 GiB", "1.5g"), and UTC times. */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int ortkit__human_parse_size(const char *s, uint64_t *out)
{
    if (!s || !*s)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "no size given");
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || !(v >= 0) || isinf(v))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "'%s' is not a size", s);
    while (*end == ' ')
        end++;
    double mul = 1;
    switch (toupper((unsigned char)*end)) {
    case 'K': mul = (double)ORTKIT__KiB; end++; break;
    case 'M': mul = (double)ORTKIT__MiB; end++; break;
    case 'G': mul = (double)ORTKIT__GiB; end++; break;
    case 'T': mul = (double)ORTKIT__GiB * 1024; end++; break;
    case '\0': break;
    case 'B': break;
    default: return ortkit__error_set(ORTKIT_E_INVALID_ARG, "'%s' is not a size", s);
    }
    /* "G", "GB", "GiB", "g" all mean binary units. */
    if (mul > 1 && (*end == 'i' || *end == 'I'))
        end++;
    if (*end == 'B' || *end == 'b')
        end++;
    double bytes = v * mul;
    if (*end)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "'%s' is not a size", s);
    if (bytes >= 18446744073709551616.0) /* 2^64: what a uint64_t holds */
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "'%s' is too large: at most 16 EiB", s);
    *out = (uint64_t)bytes;
    return ORTKIT_OK;
}

int ortkit__time_parse(int64_t *out, const char *text)
{
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    const char *end = text ? strptime(text, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;
    if (!end || *end || strlen(text) != 20)
        return ortkit__error_set(ORTKIT_E_FORMAT, "'%s' is not a UTC time such as "
                                 "2025-11-23T10:00:00Z", text ? text : "");
    *out = (int64_t)timegm(&tm);
    return ORTKIT_OK;
}
