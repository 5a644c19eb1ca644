/* human.c - sizes and durations as people write them. */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void ortkit__human_duration(char *buf, size_t size, double s)
{
    if (s < 1e-3)
        snprintf(buf, size, "%.1f us", s * 1e6);
    else if (s < 1)
        snprintf(buf, size, "%.2f ms", s * 1e3);
    else
        snprintf(buf, size, "%.2f s", s);
}

void ortkit__human_duration3(char *buf, size_t size, double s)
{
    double v = s < 1e-3 ? s * 1e6 : s < 1 ? s * 1e3 : s;
    const char *unit = s < 1e-3 ? "us" : s < 1 ? "ms" : "s";
    snprintf(buf, size, v < 10 ? "%.2f %s" : v < 100 ? "%.1f %s" : "%.0f %s", v, unit);
}

void ortkit__human_bytes(char *buf, size_t size, double b)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    size_t u = 0;
    while (b >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
        b /= 1024;
        u++;
    }
    snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", b, units[u]);
}

void ortkit__human_memory(char *buf, size_t size, uint64_t bytes)
{
    double b = (double)bytes;
    if (b >= (double)ORTKIT__GiB)
        snprintf(buf, size, "%.2f GiB", b / (double)ORTKIT__GiB);
    else if (b >= (double)ORTKIT__MiB)
        snprintf(buf, size, "%.0f MiB", b / (double)ORTKIT__MiB);
    else if (b >= (double)ORTKIT__KiB)
        snprintf(buf, size, "%.0f KiB", b / (double)ORTKIT__KiB);
    else
        snprintf(buf, size, "%llu B", (unsigned long long)bytes);
}

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
