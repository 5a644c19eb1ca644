/* human.c - sizes and durations written for people (human_parse.c reads them). */
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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

void ortkit__time_format(char out[32], int64_t t)
{
    time_t tt = (time_t)t;
    struct tm tm;
    if (!gmtime_r(&tt, &tm) || !strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm))
        snprintf(out, 32, "?");
}
