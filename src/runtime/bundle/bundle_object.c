/*
 * bundle_object.c - the bundle as a value: the strings and arrays its
 * manifest view points at (kept with it, freed with it), its accessors, the
 * names a bundle and its library files may have, and a listed file found by
 * path.  Below the manifest's readers (bundle_manifest.c and the readers of
 * its keys) and bundle.c, which opens one.
 */
#include "bundle.h"

#include <stdlib.h>
#include <string.h>

const char *ortkit__bundle_keep(ortkit_bundle *b, const char *s)
{
    if (ortkit__array_reserve(&b->strings, &b->string_cap, b->string_count + 1, sizeof *b->strings, 32))
        return NULL;
    char *copy = strdup(s ? s : "");
    if (copy)
        b->strings[b->string_count++] = copy;
    return copy;
}

void *ortkit__bundle_keep_zeroed(ortkit_bundle *b, size_t count, size_t size)
{
    /* Kept with the strings: each is one block freed with the bundle. */
    char *block = calloc(count ? count : 1, size);
    if (!block || !ortkit__bundle_keep(b, "")) {
        free(block);
        return NULL;
    }
    free(b->strings[b->string_count - 1]);
    b->strings[b->string_count - 1] = block;
    return block;
}

void ortkit_bundle_free(ortkit_bundle *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->string_count; i++)
        free(b->strings[i]);
    free(b->strings);
    for (size_t i = 0; i < b->problem_count; i++)
        free(b->problems[i]);
    free(b->problems);
    free((void *)b->m.providers);
    free((void *)b->m.needs_libraries);
    free((void *)b->m.files);
    free(b->library_path);
    free(b);
}

const ortkit_manifest *ortkit_bundle_manifest(const ortkit_bundle *b) { return b ? &b->m : NULL; }
const char *ortkit_bundle_damage(const ortkit_bundle *b) { return b ? b->damage : ""; }
size_t ortkit_bundle_problem_count(const ortkit_bundle *b) { return b ? b->problem_count : 0; }

const char *ortkit_bundle_problem(const ortkit_bundle *b, size_t i)
{
    return b && i < b->problem_count ? b->problems[i] : NULL;
}

int ortkit__bundle_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > BUNDLE_NAME_MAX || !strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", name[0]))
        return 0;
    return strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-") == n;
}

int ortkit__bundle_library_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (!n || n > 255 || strchr(s, '/') || !strcmp(s, ".") || !strcmp(s, ".."))
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x21 || (unsigned char)s[i] > 0x7e)
            return 0;
    return 1;
}

static int cmp_files(const void *a, const void *b)
{
    return strcmp(((const ortkit_bundle_file *)a)->path, ((const ortkit_bundle_file *)b)->path);
}

size_t ortkit__bundle_carries(const ortkit_manifest *m, const char *name)
{
    for (size_t i = 0; i < m->file_count; i++)
        if (!strcmp(ortkit__path_last(m->files[i].path), name))
            return i + 1;
    return 0;
}

const ortkit_bundle_file *ortkit__bundle_file(const ortkit_manifest *m, const char *path)
{
    ortkit_bundle_file key = {path, 0, "", ""};
    return bsearch(&key, m->files, m->file_count, sizeof key, cmp_files);
}
