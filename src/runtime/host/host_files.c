/*
 * host_files.c - how host detection reads the machine: small text files
 * under /proc, /sys and /etc, below a root prefix that tests can move
 * (ortkit__host_set_root), and the string helpers the readers share.
 */
#include "host_internal.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per thread: ortkit_host_detect_root may run beside ortkit_host_detect. */
static _Thread_local char root_prefix[ORTKIT__HOST_ROOT_MAX];
static _Thread_local int root_set;

/* "/" reads as "": the files of this machine, still read as a tree's. */
void ortkit__host_set_root(const char *root)
{
    snprintf(root_prefix, sizeof root_prefix, "%s", root ? root : "");
    size_t n = strlen(root_prefix);
    while (n > 0 && root_prefix[n - 1] == '/')
        root_prefix[--n] = '\0';
    root_set = root != NULL;
}

int ortkit__host_root_moved(void) { return root_set; }

int ortkit__host_root_get(char *buf, size_t size)
{
    snprintf(buf, size, "%s", root_prefix);
    return root_set;
}

int ortkit__host_file_path(char *buf, size_t size, const char *path)
{
    int n = snprintf(buf, size, "%s%s", root_prefix, path);
    return n < 0 || (size_t)n >= size ? -1 : 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **ortkit__host_list_dir(const char *path)
{
    char full[ORTKIT__HOST_ROOT_MAX + 512];
    DIR *d = ortkit__host_file_path(full, sizeof full, path) ? NULL : opendir(full);
    if (!d)
        return NULL;
    ortkit__strv list = {0};
    int failed = 0;
    for (struct dirent *e; !failed && (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            failed = ortkit__strv_push(&list, e->d_name) != ORTKIT_OK;
    closedir(d);
    /* What could be read, as before a failure; an empty directory is none. */
    if (list.n == 0) {
        ortkit__strv_free(&list);
        return NULL;
    }
    qsort(list.v, list.n, sizeof *list.v, cmp_names);
    return list.v;
}

void ortkit__host_list_free(char **list)
{
    for (size_t i = 0; list && list[i]; i++)
        free(list[i]);
    free(list);
}

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
    char full[ORTKIT__HOST_ROOT_MAX + 512];
    FILE *f;
    if (ortkit__host_file_path(full, sizeof full, path) || ortkit__file_fopen(&f, full))
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
