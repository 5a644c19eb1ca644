/* gpu_target.c - GPU code targets by name: SASS "sm_90a", PTX "compute_80"
 * (what a GPU bundle's manifest lists and a host's SM is judged against; the
 * fat-binary reader that finds them in a library is the tools', fatbin.c). */
#include "gpu_target.h"

#include <stdio.h>
#include <string.h>

const char *ortkit__gpu_target_name(const ortkit__gpu_target *t, int ptx, char *buf, size_t size)
{
    if (t->suffix)
        snprintf(buf, size, "%s_%d%c", ptx ? "compute" : "sm", t->sm, t->suffix);
    else
        snprintf(buf, size, "%s_%d", ptx ? "compute" : "sm", t->sm);
    return buf;
}

int ortkit__gpu_target_parse(ortkit__gpu_target *out, const char *text, int ptx)
{
    const char *prefix = ptx ? "compute_" : "sm_";
    size_t n = strlen(prefix);
    if (strncmp(text, prefix, n))
        return -1;
    const char *p = text + n;
    int sm = 0, digits = 0;
    for (; *p >= '0' && *p <= '9' && digits < 4; p++, digits++)
        sm = sm * 10 + (*p - '0');
    if (digits < 2 || digits > 3 || text[n] == '0')
        return -1;
    char suffix = 0;
    if (*p == 'a' || *p == 'f')
        suffix = *p++;
    if (*p || (ptx && suffix))
        return -1;
    out->sm = sm;
    out->suffix = suffix;
    return 0;
}
