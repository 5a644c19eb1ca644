/*
 * host_files.c - how host detection reads the machine: small text files
 * under /proc, /sys and /etc, below a root prefix that tests can move
 * (ortkit__host_set_root), and the string helpers the readers share.
 */
#include "host_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char root_prefix[256];

void ortkit__host_set_root(const char *root)
{
    snprintf(root_prefix, sizeof root_prefix, "%s", root ? root : "");
}

int ortkit__host_root_moved(void) { return root_prefix[0] != '\0'; }

/* Copy, cutting what does not fit: the struct's fields have fixed sizes. */
void ortkit__host_copy_str(char *dst, size_t size, const char *src)
{
    size_t n = src ? strnlen(src, size - 1) : 0;
    if (n)
        memcpy(dst, src, n);
    dst[n] = '\0';
}

/* Trim leading and trailing white space in place. */
char *ortkit__host_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* Read a small file below the root prefix into buf; returns bytes or -1.
 * Files in /proc and /sys report size 0, so read until EOF. */
long ortkit__host_read_text(const char *path, char *buf, size_t size)
{
    char full[512];
    snprintf(full, sizeof full, "%s%s", root_prefix, path);
    FILE *f;
    if (ortkit__file_fopen(&f, full))
        return -1;
    size_t n = fread(buf, 1, size - 1, f);
    fclose(f);
    buf[n] = '\0';
    return (long)n;
}

int ortkit__host_read_long(const char *path, long *out)
{
    char buf[64];
    if (ortkit__host_read_text(path, buf, sizeof buf) <= 0)
        return -1;
    char *end;
    *out = strtol(buf, &end, 10);
    return end == buf ? -1 : 0;
}
