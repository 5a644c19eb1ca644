/* version.c - dotted version numbers: "1.30.0", "12.9", "570.124.06". */
#include "util.h"

#include <ctype.h>
#include <string.h>

#define PART_MAX 999999999L

/* The numbers at the start of s; -1 on a malformed start or a part too
 * large, leaving the parts read so far. */
static int parse_parts(ortkit__version *out, const char *s, const char **end)
{
    memset(out, 0, sizeof *out);
    const char *p = s;
    if (!s || !isdigit((unsigned char)*p))
        return -1;
    for (;;) {
        long v = 0;
        for (; isdigit((unsigned char)*p); p++) {
            v = v * 10 + (*p - '0');
            if (v > PART_MAX)
                return -1;
        }
        out->part[out->n++] = v;
        if (*p != '.' || out->n == ORTKIT__VERSION_MAX_PARTS)
            break;
        if (!isdigit((unsigned char)p[1]))
            return -1;
        p++;
    }
    *end = p;
    return 0;
}

int ortkit__version_parse(ortkit__version *out, const char *s, const char **rest)
{
    const char *end;
    if (parse_parts(out, s, &end) != 0 || (!rest && *end))
        return ortkit__error_set(ORTKIT_E_FORMAT, "'%.64s' is not a version", s ? s : "");
    if (rest)
        *rest = end;
    return ORTKIT_OK;
}

int ortkit__version_compare(const char *a, const char *b)
{
    ortkit__version x, y;
    const char *end;
    /* What does not parse keeps its leading parts, and the rest count as 0;
     * nothing is recorded: comparing is not failing. */
    (void)parse_parts(&x, a, &end);
    (void)parse_parts(&y, b, &end);
    for (size_t i = 0; i < ORTKIT__VERSION_MAX_PARTS; i++)
        if (x.part[i] != y.part[i])
            return x.part[i] < y.part[i] ? -1 : 1;
    return 0;
}
