/*
 * host_libs.c - the shared libraries the dynamic loader can find on this
 * host, by file name: what a bundle's DT_NEEDED entries are looked up in.
 *
 * Looked for where ld.so looks for a name without a slash: the directories
 * of LD_LIBRARY_PATH, the ld.so cache (/etc/ld.so.cache, read directly; the
 * output of `ldconfig -p` when it cannot be read), and the default
 * directories.  Only entries for this machine's architecture count in the
 * cache.  DT_RUNPATH of the library that asks is not a host matter: what a
 * bundle carries beside its library is never asked of the host.
 */
#include "host_internal.h"
#include "host_libs.h"

#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LD_CACHE "/etc/ld.so.cache"
#define LD_CACHE_MAX ((size_t)64 << 20)
#define CACHE_MAGIC "glibc-ld.so.cache1.1"
#define CACHE_HEADER 48 /* magic, version, nlibs, len_strings, flags, extension, unused */
#define CACHE_ENTRY 24  /* flags, key, value, osversion, hwcap */
#define MAX_LIBRARIES 100000

/* The loader's built-in directories, and Debian's multiarch ones. */
static const char *const default_dirs[] = {
    "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib"};

static int default_dir_for(const char *dir, ortkit_arch arch)
{
    int x86 = strstr(dir, "x86_64") != NULL, arm = strstr(dir, "aarch64") != NULL;
    return !(x86 && arch != ORTKIT_ARCH_X86_64) && !(arm && arch != ORTKIT_ARCH_AARCH64);
}

typedef struct names {
    char **v;
    size_t n, cap;
    int failed;
} names;

static void add(names *l, const char *name, size_t len)
{
    if (l->failed || len == 0 || len > 255 || memchr(name, '/', len) || !memmem(name, len, ".so", 3) ||
        l->n >= MAX_LIBRARIES)
        return;
    if (ortkit__array_reserve(&l->v, &l->cap, l->n + 1, sizeof *l->v, 512)) {
        l->failed = 1;
        return;
    }
    if (!(l->v[l->n] = strndup(name, len)))
        l->failed = 1;
    else
        l->n++;
}

/* Libraries, and the dynamic loader, which a library may name too
 * (ld-linux-aarch64.so.1, ld-linux-x86-64.so.2) and which a directory holds
 * where the ld.so cache does not list it (an arm64 tree beside an x86-64
 * one: multiarch, read under qemu). */
static void add_dir(names *l, const char *dir)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));)
        if (strncmp(e->d_name, "lib", 3) == 0 || strncmp(e->d_name, "ld-linux", 8) == 0)
            add(l, e->d_name, strlen(e->d_name));
    if (d)
        closedir(d);
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Each entry of the ld.so cache for arch (glibc's format 1.1, alone or after
 * the old one): visit(ctx, name, path) until it returns nonzero; -1 when the
 * file is not one. */
static int walk_ld_cache(const unsigned char *c, size_t size, ortkit_arch arch,
                         int (*visit)(void *ctx, const char *name, size_t len, const char *path),
                         void *ctx)
{
    const unsigned char *h = memmem(c, size < 4096 ? size : 4096, CACHE_MAGIC, sizeof CACHE_MAGIC - 1);
    if (!h || (size_t)(h - c) + CACHE_HEADER > size)
        return -1;
    size_t avail = size - (size_t)(h - c);
    uint32_t nlibs = le32(h + 20);
    if ((uint64_t)nlibs * CACHE_ENTRY > avail - CACHE_HEADER)
        return -1;
    /* The loader's flags: an ELF libc6 library (type 3), and the ABI bits
     * that say which 64-bit machine (0x0300 x86-64, 0x0a00 AArch64). */
    uint32_t want = arch == ORTKIT_ARCH_X86_64 ? 0x0303 : arch == ORTKIT_ARCH_AARCH64 ? 0x0a03 : 0;
    for (uint32_t i = 0; i < nlibs; i++) {
        const unsigned char *e = h + CACHE_HEADER + (size_t)i * CACHE_ENTRY;
        uint32_t flags = le32(e), key = le32(e + 4), value = le32(e + 8);
        if ((flags & 0xffff) != want || key >= avail || value >= avail)
            continue;
        const unsigned char *name = h + key, *end = memchr(name, '\0', avail - key);
        const unsigned char *path = h + value;
        if (end && memchr(path, '\0', avail - value) &&
            visit(ctx, (const char *)name, (size_t)(end - name), (const char *)path))
            break;
    }
    return 0;
}

static int add_visit(void *ctx, const char *name, size_t len, const char *path)
{
    (void)path;
    add(ctx, name, len);
    return 0;
}

static int read_ld_cache(names *l, const unsigned char *c, size_t size, ortkit_arch arch)
{
    return walk_ld_cache(c, size, arch, add_visit, l);
}

/* "\tlibm.so.6 (libc6,x86-64) => /lib/x86_64-linux-gnu/libm.so.6" */
static void read_ldconfig_output(names *l, const char *text, ortkit_arch arch)
{
    const char *tag = arch == ORTKIT_ARCH_X86_64 ? "x86-64" : "AArch64";
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *p = line + strspn(line, " \t");
        const char *open = memchr(p, '(', len - (size_t)(p - line));
        if (open && open > p && memmem(open, len - (size_t)(open - line), tag, strlen(tag)))
            add(l, p, (size_t)(open - p - 1));
        line = end ? end + 1 : NULL;
    }
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void ortkit__host_libraries_free(ortkit__host_data *h)
{
    for (size_t i = 0; i < h->library_count; i++)
        free(h->libraries[i]);
    free(h->libraries);
    h->libraries = NULL;
    h->library_count = 0;
    h->libraries_known = 0;
}

int ortkit__host_set_libraries(ortkit__host_data *h, char **list, size_t n)
{
    names l = {list, n, n, 0};
    qsort(l.v, l.n, sizeof *l.v, cmp_names);
    size_t kept = 0;
    for (size_t i = 0; i < l.n; i++) {
        if (kept && !strcmp(l.v[kept - 1], l.v[i]))
            free(l.v[i]);
        else
            l.v[kept++] = l.v[i];
    }
    h->libraries = l.v;
    h->library_count = kept;
    h->libraries_known = 1;
    return ORTKIT_OK;
}

void ortkit__host_detect_libraries(ortkit__host_data *h)
{
    if (ortkit__host_root_moved() || h->arch == ORTKIT_ARCH_UNKNOWN)
        return; /* a test's machine: its libraries are not this one's */
    names l = {0};
    const char *env = ortkit__env("LD_LIBRARY_PATH");
    char *copy = env ? strdup(env) : NULL;
    for (char *save = NULL, *dir = copy ? strtok_r(copy, ":;", &save) : NULL; dir;
         dir = strtok_r(NULL, ":;", &save))
        add_dir(&l, dir);
    free(copy);

    char *cache = NULL;
    size_t size = 0;
    int cache_ok = ortkit__file_read(&cache, &size, LD_CACHE, LD_CACHE_MAX) == 0 &&
                   read_ld_cache(&l, (const unsigned char *)cache, size, h->arch) == 0;
    free(cache);
    if (!cache_ok) {
        const char *const a1[] = {"/sbin/ldconfig", "-p", NULL};
        const char *const a2[] = {"ldconfig", "-p", NULL};
        char *out = NULL;
        int status = -1;
        if (ortkit__spawn(a1, 0, &out, &status) != 0 || status != 0) {
            free(out);
            out = NULL;
            if (ortkit__spawn(a2, 0, &out, &status) != 0 || status != 0) {
                free(out);
                out = NULL;
            }
        }
        if (out)
            read_ldconfig_output(&l, out, h->arch);
        free(out);
    }
    for (size_t i = 0; i < sizeof default_dirs / sizeof *default_dirs; i++)
        if (default_dir_for(default_dirs[i], h->arch))
            add_dir(&l, default_dirs[i]);
    if (l.failed) {
        for (size_t i = 0; i < l.n; i++)
            free(l.v[i]);
        free(l.v);
        return; /* out of memory: unknown, which judges nothing */
    }
    ortkit__host_set_libraries(h, l.v, l.n);
}

/* ---- where the dynamic loader would find one library --------------------- */

typedef struct wanted {
    const char *name;
    char *path;
} wanted;

static int find_visit(void *ctx, const char *name, size_t len, const char *path)
{
    wanted *w = ctx;
    if (strlen(w->name) != len || strncmp(w->name, name, len) || access(path, R_OK) != 0)
        return 0;
    w->path = strdup(path);
    return 1;
}

/* dir/name when it is a file that can be read (a link to one counts). */
static char *in_dir(const char *dir, const char *name)
{
    char path[PATH_MAX];
    struct stat st;
    if (ortkit__pathf(path, sizeof path, "%s/%s", dir, name) || stat(path, &st) != 0 ||
        !S_ISREG(st.st_mode) || access(path, R_OK) != 0)
        return NULL;
    return strdup(path);
}

int ortkit__host_library_path(char **out, const char *name)
{
    *out = NULL;
    ortkit_arch arch = ortkit_arch_here();
    /* LD_LIBRARY_PATH first, as ld.so takes it for a name without a slash. */
    ortkit__path_list it = {ortkit__env("LD_LIBRARY_PATH"), NULL, 0};
    while (!*out && ortkit__path_list_next(&it)) {
        char dir[PATH_MAX];
        if (it.len && !ortkit__path_list_entry(&it, dir, sizeof dir))
            *out = in_dir(dir, name);
    }
    char *cache = NULL;
    size_t size = 0;
    wanted w = {name, NULL};
    if (!*out && ortkit__file_read(&cache, &size, LD_CACHE, LD_CACHE_MAX) == 0) {
        walk_ld_cache((const unsigned char *)cache, size, arch, find_visit, &w);
        *out = w.path;
    }
    free(cache);
    for (size_t i = 0; !*out && i < sizeof default_dirs / sizeof *default_dirs; i++)
        if (default_dir_for(default_dirs[i], arch))
            *out = in_dir(default_dirs[i], name);
    return *out ? ORTKIT_OK : ORTKIT_E_RUNTIME_NOT_FOUND;
}
