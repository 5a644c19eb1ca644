/*
 * bundle_writer.c - writing the parts of a bundle into a directory: copies,
 * RUNPATH $ORIGIN (with patchelf), the pkg-config and CMake files, and the
 * manifest with every file's size and SHA-256.
 */
#include "bundle_make.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ortkit__cancelled(const ortkit__cancel *cancel)
{
    if (cancel && cancel->fn && cancel->fn(cancel->arg))
        return ortkit__error_set(ORTKIT_E_CANCELLED, "cancelled");
    return ORTKIT_OK;
}

/* "a FIFO", "a socket", ...: what a file that cannot be copied is. */
static const char *kind_of(mode_t mode)
{
    return S_ISFIFO(mode) ? "a FIFO" : S_ISSOCK(mode) ? "a socket" : S_ISCHR(mode) ? "a character device"
         : S_ISBLK(mode) ? "a block device" : S_ISDIR(mode) ? "a directory" : "not a regular file";
}

int ortkit__copy_file(const char *from, const char *to, unsigned mode, const ortkit__cancel *cancel)
{
    int in;
    if (ortkit__file_open(&in, from, 0, NULL))
        return ORTKIT_E_IO;
    int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
    if (out < 0) {
        int rc = ortkit__error_set(ORTKIT_E_IO, "cannot create '%s': %s", to, strerror(errno));
        close(in);
        return rc;
    }
    int rc = ORTKIT_OK;
    static _Thread_local char buf[1 << 16];
    for (;;) {
        if ((rc = ortkit__cancelled(cancel)))
            break;
        size_t n;
        if ((rc = ortkit__file_read_block(in, buf, sizeof buf, &n, from)) || n == 0 ||
            (rc = ortkit__file_write_all(out, buf, n, to)))
            break;
    }
    if (!rc && fsync(out) != 0)
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot write '%s': %s", to, strerror(errno));
    if (close(out) != 0 && !rc)
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot write '%s': %s", to, strerror(errno));
    close(in);
    return rc;
}

/* ---- what import takes from its source ------------------------------------------ */

/* path is root or below it (root is resolved). */
static int inside(const char *path, const char *root)
{
    size_t n = strlen(root);
    if (n == 1 && root[0] == '/')
        return path[0] == '/';
    return !strncmp(path, root, n) && (path[n] == '\0' || path[n] == '/');
}

static int link_out(const char *rel, const char *target, const char *where, const char *root)
{
    return ortkit__error_set(ORTKIT_E_FORMAT,
                             "'%s' is a symbolic link to '%s', which leads out of the source "
                             "'%s'%s%s%s; import never copies what lies outside its source",
                             rel, target, root, where ? " (to '" : "", where ? where : "",
                             where ? "')" : "");
}

int ortkit__source_resolve(char *out, struct stat *st, const char *root, const char *rel)
{
    char full[PATH_MAX], prefix[PATH_MAX], target[PATH_MAX], real[PATH_MAX];
    int rc = ortkit__pathf(full, sizeof full, "%s%s%s", root, rel[0] ? "/" : "", rel);
    if (rc)
        return rc;
    /* Each link on the way, in order: the first that leads out (or loops)
     * is the one named, with its own target. */
    for (size_t i = 0; rel[i]; i++) {
        if (rel[i + 1] != '/' && rel[i + 1] != '\0')
            continue;
        struct stat ls;
        if ((rc = ortkit__pathf(prefix, sizeof prefix, "%s/%.*s", root, (int)(i + 1), rel)))
            return rc;
        if (lstat(prefix, &ls) != 0)
            return ortkit__error_set(ORTKIT_E_IO, "cannot read '%.*s': %s", (int)(i + 1), rel,
                                     strerror(errno));
        if (!S_ISLNK(ls.st_mode))
            continue;
        ssize_t n = readlink(prefix, target, sizeof target - 1);
        if (n < 0)
            return ortkit__error_set(ORTKIT_E_IO, "cannot read link '%.*s': %s", (int)(i + 1), rel,
                                     strerror(errno));
        target[n] = '\0';
        if (!realpath(prefix, real)) {
            if (errno == ELOOP)
                return ortkit__error_set(ORTKIT_E_FORMAT, "'%.*s' is a symbolic link to '%s', "
                                         "which loops", (int)(i + 1), rel, target);
            if (errno == ENOENT && target[0] == '/')
                return link_out(rel, target, NULL, root); /* absolute: out, whether there or not */
            return ortkit__error_set(ORTKIT_E_IO, "'%.*s' is a symbolic link to '%s': %s",
                                     (int)(i + 1), rel, target, strerror(errno));
        }
        if (!inside(real, root)) {
            char named[PATH_MAX];
            snprintf(named, sizeof named, "%.*s", (int)(i + 1), rel);
            return link_out(named, target, strcmp(target, real) ? real : NULL, root);
        }
    }
    if (!realpath(full, out))
        return ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': %s", rel, strerror(errno));
    if (!inside(out, root)) /* by a way no single link shows; refused all the same */
        return ortkit__error_set(ORTKIT_E_FORMAT, "'%s' leads out of the source '%s' (to '%s'); "
                                 "import never copies what lies outside its source", rel, root, out);
    if (stat(out, st) != 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': %s", rel, strerror(errno));
    return ORTKIT_OK;
}

#define TREE_MAX_DEPTH 8

typedef struct tree_walk {
    const char *root;
    const ortkit__cancel *cancel;
    struct {
        dev_t dev;
        ino_t ino;
    } open[TREE_MAX_DEPTH + 2]; /* the directories on the current path */
    int depth;
} tree_walk;

/* The directory rel (resolved: real, status st) into to (NULL: check only). */
static int walk(tree_walk *w, const char *rel, const char *real, const struct stat *st, const char *to)
{
    for (int i = 0; i < w->depth; i++)
        if (w->open[i].dev == st->st_dev && w->open[i].ino == st->st_ino) {
            char target[PATH_MAX] = "", full[PATH_MAX];
            ssize_t n = ortkit__pathf(full, sizeof full, "%s/%s", w->root, rel) ? -1
                        : readlink(full, target, sizeof target - 1);
            target[n > 0 ? n : 0] = '\0';
            return n > 0 ? ortkit__error_set(ORTKIT_E_FORMAT, "'%s' is a symbolic link to '%s', "
                                             "which makes a loop (a directory inside itself)",
                                             rel, target)
                         : ortkit__error_set(ORTKIT_E_FORMAT, "'%s' is a directory inside itself "
                                             "(a loop)", rel);
        }
    if (w->depth > TREE_MAX_DEPTH)
        return ortkit__error_set(ORTKIT_E_FORMAT, "'%s' is nested more than %d directories deep",
                                 rel, TREE_MAX_DEPTH);
    DIR *d = opendir(real);
    if (!d)
        return ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': %s", rel, strerror(errno));
    int rc = to ? ortkit__mkdirs(to) : ORTKIT_OK;
    w->open[w->depth].dev = st->st_dev;
    w->open[w->depth].ino = st->st_ino;
    w->depth++;
    for (struct dirent *e; !rc && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char child[PATH_MAX], child_real[PATH_MAX], dst[PATH_MAX];
        struct stat cs;
        if ((rc = ortkit__cancelled(w->cancel)) ||
            (rc = ortkit__pathf(child, sizeof child, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name)) ||
            (to && (rc = ortkit__pathf(dst, sizeof dst, "%s/%s", to, e->d_name))) ||
            (rc = ortkit__source_resolve(child_real, &cs, w->root, child)))
            break;
        if (S_ISDIR(cs.st_mode))
            rc = walk(w, child, child_real, &cs, to ? dst : NULL);
        else if (!S_ISREG(cs.st_mode))
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' is %s; import copies only regular files "
                                   "and directories", child, kind_of(cs.st_mode));
        else if (to)
            rc = ortkit__copy_file(child_real, dst, 0644, w->cancel);
    }
    w->depth--;
    closedir(d);
    return rc;
}

int ortkit__copy_tree(const char *root, const char *rel, const char *to, const ortkit__cancel *cancel)
{
    tree_walk w = {.root = root, .cancel = cancel};
    char real[PATH_MAX];
    struct stat st;
    int rc = ortkit__source_resolve(real, &st, root, rel);
    if (rc)
        return rc;
    if (!S_ISDIR(st.st_mode))
        return ortkit__error_set(ORTKIT_E_FORMAT, "'%s' is %s, not a directory", rel,
                                 kind_of(st.st_mode));
    return walk(&w, rel, real, &st, to);
}

/* RUNPATH $ORIGIN on every ELF file in dir, so each finds its neighbours. */
int ortkit__set_runpaths(const char *dir, const ortkit__cancel *cancel)
{
    DIR *d = opendir(dir);
    if (!d)
        return ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': %s", dir, strerror(errno));
    int rc = ORTKIT_OK;
    for (struct dirent *e; !rc && (e = readdir(d));) {
        char path[PATH_MAX];
        struct stat st;
        if ((rc = ortkit__cancelled(cancel)) ||
            (rc = ortkit__pathf(path, sizeof path, "%s/%s", dir, e->d_name)))
            break;
        if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || ortkit__elf_is(path) != 1)
            continue;
        ortkit__elf elf;
        if ((rc = ortkit__elf_read(&elf, path)))
            break;
        int fine = ortkit__elf_origin(elf.runpath) && !elf.rpath;
        ortkit__elf_free(&elf);
        if (fine)
            continue;
        const char *const argv[] = {"patchelf", "--set-rpath", "$ORIGIN", path, NULL};
        char *output = NULL;
        int status;
        if ((rc = ortkit__spawn(argv, 1, &output, &status))) {
            rc = ortkit__error_wrap(rc, "cannot set RUNPATH of %s (install patchelf)", e->d_name);
        } else if (status != 0) {
            if (output)
                output[strcspn(output, "\n")] = '\0';
            rc = ortkit__error_set(ORTKIT_E_IO, "patchelf failed on %s: %s", e->d_name,
                                   output && output[0] ? output : "no message");
        } else if (!(rc = ortkit__elf_read(&elf, path))) {
            if (!ortkit__elf_origin(elf.runpath))
                rc = ortkit__error_set(ORTKIT_E_IO, "patchelf did not set RUNPATH $ORIGIN on %s",
                                       e->d_name);
            ortkit__elf_free(&elf);
        }
        free(output);
    }
    closedir(d);
    return rc;
}

static int write_text(const char *dir, const char *rel, const char *text)
{
    char path[PATH_MAX];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, rel) >= sizeof path)
        return ortkit__error_set(ORTKIT_E_IO, "path too long in '%s'", dir);
    return ortkit__file_write_atomic(path, text, strlen(text));
}

/*
 * The .pc file and the CMake package.  A shared bundle's link the library
 * with an RPATH to lib/; a static bundle's name the archive and what links
 * after it (Libs.private, so `pkg-config --static --libs` gives the whole
 * line in link order; for CMake an imported STATIC target that links with
 * the C++ driver), with an RPATH only for provider libraries beside it.
 */
int ortkit__write_dev_files(const ortkit__layout *lay)
{
    char *pc = NULL, *cfg = NULL, *ver = NULL, *props = NULL;
    const char *soname = lay->soname[0] ? lay->soname : lay->real_name;
    int is_static = lay->static_libs != NULL;
    const char *rpath = !is_static || lay->static_providers ? " -Wl,-rpath,${libdir}" : "";
    int rc = ORTKIT_OK;
    /* For CMake the words are a list. */
    char *libs_list = ortkit__strdup(is_static ? lay->static_libs : "");
    for (char *c = libs_list; c && *c; c++)
        if (*c == ' ')
            *c = ';';
    if (!libs_list || (is_static
             ? asprintf(&props,
                        "    IMPORTED_LOCATION \"${_onnxruntime_prefix}/lib/libonnxruntime.a\"\n"
                        "    IMPORTED_LINK_INTERFACE_LANGUAGES CXX\n"
                        "    INTERFACE_LINK_LIBRARIES \"%s\"\n%s",
                        libs_list,
                        lay->static_providers
                            ? "    INTERFACE_LINK_OPTIONS \"LINKER:-rpath,${_onnxruntime_prefix}/lib\"\n"
                            : "")
             : asprintf(&props,
                        "    IMPORTED_LOCATION \"${_onnxruntime_prefix}/lib/%s\"\n"
                        "    IMPORTED_SONAME \"%s\"\n",
                        lay->real_name, soname)) < 0 ||
        asprintf(&pc,
                 "# libonnxruntime%s from the ortkit bundle %s (variant %s).\n"
                 "# Relocatable: the prefix is found from where this file lies.\n"
                 "%s"
                 "prefix=${pcfiledir}/../..\n"
                 "libdir=${prefix}/lib\n"
                 "includedir=${prefix}/include\n\n"
                 "Name: libonnxruntime\n"
                 "Description: ONNX Runtime %s%s (ortkit bundle %s)\n"
                 "URL: https://onnxruntime.ai\n"
                 "Version: %s\n"
                 "Libs: -L${libdir} -lonnxruntime%s\n"
                 "%s%s%s"
                 "Cflags: -I${includedir}\n",
                 is_static ? " (static)" : "", lay->name, lay->variant,
                 is_static ? "# Link with `pkg-config --static --libs libonnxruntime`.\n" : "",
                 lay->version, is_static ? ", static" : "", lay->name, lay->version, rpath,
                 is_static ? "Libs.private: " : "", is_static ? lay->static_libs : "",
                 is_static ? "\n" : "") < 0 ||
        asprintf(&cfg,
                 "# The onnxruntime package of the ortkit bundle %s (variant %s)%s.\n"
                 "# Every path is found from this file's own location, so the bundle can move.\n"
                 "get_filename_component(_onnxruntime_prefix \"${CMAKE_CURRENT_LIST_DIR}/../../..\" ABSOLUTE)\n"
                 "if(NOT TARGET onnxruntime::onnxruntime)\n"
                 "  add_library(onnxruntime::onnxruntime %s IMPORTED)\n"
                 "  set_target_properties(onnxruntime::onnxruntime PROPERTIES\n"
                 "%s"
                 "    INTERFACE_INCLUDE_DIRECTORIES \"${_onnxruntime_prefix}/include\")\n"
                 "endif()\n"
                 "set(onnxruntime_VERSION \"%s\")\n"
                 "set(onnxruntime_INCLUDE_DIRS \"${_onnxruntime_prefix}/include\")\n"
                 "set(onnxruntime_LIBRARIES onnxruntime::onnxruntime)\n"
                 "set(onnxruntime_FOUND TRUE)\n"
                 "unset(_onnxruntime_prefix)\n",
                 lay->name, lay->variant, is_static ? ": a static core" : "",
                 is_static ? "STATIC" : "SHARED", props, lay->version) < 0 ||
        asprintf(&ver,
                 "# Version check for the onnxruntime package of the ortkit bundle %s.\n"
                 "set(PACKAGE_VERSION \"%s\")\n"
                 "if(PACKAGE_FIND_VERSION AND PACKAGE_VERSION VERSION_LESS PACKAGE_FIND_VERSION)\n"
                 "  set(PACKAGE_VERSION_COMPATIBLE FALSE)\n"
                 "elseif(PACKAGE_FIND_VERSION_MAJOR AND NOT PACKAGE_FIND_VERSION_MAJOR STREQUAL \"%.*s\")\n"
                 "  set(PACKAGE_VERSION_COMPATIBLE FALSE)\n"
                 "else()\n"
                 "  set(PACKAGE_VERSION_COMPATIBLE TRUE)\n"
                 "  if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)\n"
                 "    set(PACKAGE_VERSION_EXACT TRUE)\n"
                 "  endif()\n"
                 "endif()\n"
                 "if(NOT CMAKE_SIZEOF_VOID_P STREQUAL \"8\")\n"
                 "  set(PACKAGE_VERSION \"${PACKAGE_VERSION} (64-bit)\")\n"
                 "  set(PACKAGE_VERSION_UNSUITABLE TRUE)\n"
                 "endif()\n",
                 lay->name, lay->version, (int)strcspn(lay->version, "."), lay->version) < 0) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    char dir[PATH_MAX];
    if ((rc = ortkit__pathf(dir, sizeof dir, "%s/lib/pkgconfig", lay->dir)) ||
        (rc = ortkit__mkdirs(dir)) ||
        (rc = ortkit__pathf(dir, sizeof dir, "%s/lib/cmake/onnxruntime", lay->dir)) ||
        (rc = ortkit__mkdirs(dir)) ||
        (rc = write_text(lay->dir, "lib/pkgconfig/libonnxruntime.pc", pc)) ||
        (rc = write_text(lay->dir, "lib/cmake/onnxruntime/onnxruntimeConfig.cmake", cfg)) ||
        (rc = write_text(lay->dir, "lib/cmake/onnxruntime/onnxruntimeConfigVersion.cmake", ver)))
        goto cleanup;
cleanup:
    free(libs_list);
    free(props);
    free(pc);
    free(cfg);
    free(ver);
    return rc;
}

/* ORT_API_VERSION of the headers copied, so users know what they compile against. */
int ortkit__headers_api_level(const char *dir)
{
    char path[PATH_MAX], *text = NULL;
    size_t size;
    if (ortkit__pathf(path, sizeof path, "%s/include/onnxruntime_c_api.h", dir) != 0 ||
        ortkit__file_read(&text, &size, path, (size_t)16 << 20) != 0)
        return 0;
    const char *p = strstr(text, "#define ORT_API_VERSION ");
    int level = p ? atoi(p + 24) : 0;
    free(text);
    return level > 0 && level <= 1000 ? level : 0;
}

/* ---- the manifest ---------------------------------------------------------- */

typedef struct file_list {
    ortkit_bundle_file *files;
    size_t count, cap;
} file_list;

static int cmp_files(const void *a, const void *b)
{
    return strcmp(((const ortkit_bundle_file *)a)->path, ((const ortkit_bundle_file *)b)->path);
}

static int collect(ortkit_bundle *b, file_list *fl, const char *root, const char *rel, int depth,
                   const ortkit__cancel *cancel)
{
    char path[PATH_MAX];
    int rc = ortkit__pathf(path, sizeof path, "%s%s%s", root, rel[0] ? "/" : "", rel);
    if (rc)
        return rc;
    DIR *d = opendir(path);
    if (!d)
        return ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': %s", path, strerror(errno));
    for (struct dirent *e; !rc && (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char child[PATH_MAX], full[PATH_MAX], target[PATH_MAX];
        struct stat st;
        if ((rc = ortkit__cancelled(cancel)) ||
            (rc = ortkit__pathf(child, sizeof child, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name)) ||
            (rc = ortkit__pathf(full, sizeof full, "%s/%s", root, child)))
            break;
        if (!rel[0] && !strcmp(e->d_name, BUNDLE_MANIFEST))
            continue;
        if (lstat(full, &st) != 0) {
            rc = ortkit__error_set(ORTKIT_E_IO, "cannot stat '%s': %s", full, strerror(errno));
            break;
        }
        if (S_ISDIR(st.st_mode)) {
            rc = depth < 16 ? collect(b, fl, root, child, depth + 1, cancel)
                            : ortkit__error_set(ORTKIT_E_IO, "'%s' is nested too deep", full);
            continue;
        }
        if (fl->count == fl->cap) {
            size_t cap = fl->cap ? fl->cap * 2 : 32;
            ortkit_bundle_file *grown = cap <= BUNDLE_MAX_FILES ? realloc(fl->files, cap * sizeof *grown) : NULL;
            if (!grown) {
                rc = cap > BUNDLE_MAX_FILES
                         ? ortkit__error_set(ORTKIT_E_IO, "more than %d files", BUNDLE_MAX_FILES)
                         : ortkit__error_nomem();
                break;
            }
            fl->files = grown;
            fl->cap = cap;
        }
        ortkit_bundle_file *f = &fl->files[fl->count];
        memset(f, 0, sizeof *f);
        if (!(f->path = ortkit__bundle_keep(b, child))) {
            rc = ortkit__error_nomem();
            break;
        }
        if (S_ISLNK(st.st_mode)) {
            ssize_t n = readlink(full, target, sizeof target - 1);
            if (n < 0) {
                rc = ortkit__error_set(ORTKIT_E_IO, "cannot read link '%s': %s", full, strerror(errno));
                break;
            }
            target[n] = '\0';
            if (!(f->link = ortkit__bundle_keep(b, target)) || !(f->sha256 = ortkit__bundle_keep(b, "")))
                rc = ortkit__error_nomem();
        } else {
            char hex[65];
            if (!(rc = ortkit__sha256_file(hex, &f->size, full)) &&
                (!(f->sha256 = ortkit__bundle_keep(b, hex)) || !(f->link = ortkit__bundle_keep(b, ""))))
                rc = ortkit__error_nomem();
        }
        if (!rc)
            fl->count++;
    }
    closedir(d);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Is a file of that name (its last component) in the bundle? */
static int carried(const file_list *fl, const char *name)
{
    for (size_t i = 0; i < fl->count; i++)
        if (!strcmp(ortkit__path_last(fl->files[i].path), name))
            return 1;
    return 0;
}

static void keep_higher(char *best, size_t size, const char *v)
{
    if (v[0] && (!best[0] || ortkit__version_compare(v, best) > 0))
        snprintf(best, size, "%s", v);
}

/* What loading the bundle's ELF files needs of a host, read from each one:
 * the highest symbol versions any requires, and the libraries they name that
 * the bundle does not carry.  *libs is malloc'd; its strings are kept in b. */
static int collect_needs(ortkit_bundle *b, const file_list *fl, const char *dir, const char ***libs,
                         const ortkit__cancel *cancel)
{
    char glibc[ORTKIT__ELF_VERSION_MAX] = "", glibcxx[ORTKIT__ELF_VERSION_MAX] = "",
         cxxabi[ORTKIT__ELF_VERSION_MAX] = "";
    size_t count = 0, cap = 0;
    const char **list = NULL;
    int rc = ORTKIT_OK;
    for (size_t i = 0; !rc && i < fl->count; i++) {
        const ortkit_bundle_file *f = &fl->files[i];
        char full[PATH_MAX];
        if (f->link[0])
            continue;
        if ((rc = ortkit__cancelled(cancel)) ||
            (rc = ortkit__pathf(full, sizeof full, "%s/%s", dir, f->path)))
            break;
        int is = ortkit__elf_is(full);
        if (is < 0) {
            rc = ortkit__error_wrap(ORTKIT_E_IO, "cannot read '%s'", full);
            break;
        }
        ortkit__elf e;
        if (!is || (rc = ortkit__elf_read(&e, full)))
            continue;
        keep_higher(glibc, sizeof glibc, e.need_glibc);
        keep_higher(glibcxx, sizeof glibcxx, e.need_glibcxx);
        keep_higher(cxxabi, sizeof cxxabi, e.need_cxxabi);
        b->m.needs_exec_stack |= e.exec_stack;
        for (size_t j = 0; !rc && j < e.needed_count; j++) {
            const char *n = e.needed[j];
            int seen = carried(fl, n);
            for (size_t k = 0; !seen && k < count; k++)
                seen = !strcmp(list[k], n);
            if (seen)
                continue;
            if (count + 1 >= cap) {
                size_t grown_cap = cap ? cap * 2 : 16;
                const char **grown = realloc(list, grown_cap * sizeof *grown);
                if (!grown) {
                    rc = ortkit__error_nomem();
                    break;
                }
                list = grown;
                cap = grown_cap;
            }
            if (!(list[count] = ortkit__bundle_keep(b, n)))
                rc = ortkit__error_nomem();
            else
                list[++count] = NULL;
        }
        ortkit__elf_free(&e);
    }
    if (!rc && !list && !(list = calloc(1, sizeof *list)))
        rc = ortkit__error_nomem();
    if (rc) {
        free(list);
        return rc;
    }
    qsort(list, count, sizeof *list, cmp_str);
    b->m.needs_known = 1;
    b->m.needs_library_count = count;
    b->m.needs_libraries = list;
    *libs = list;
    if (!(b->m.needs_glibc = ortkit__bundle_keep(b, glibc)) ||
        !(b->m.needs_glibcxx = ortkit__bundle_keep(b, glibcxx)) ||
        !(b->m.needs_cxxabi = ortkit__bundle_keep(b, cxxabi)))
        return ortkit__error_nomem();
    return ORTKIT_OK;
}

int ortkit__write_manifest(const char *dir, const ortkit_manifest *fields, const ortkit__cancel *cancel)
{
    const char **libs = NULL;
    ortkit_bundle *b = calloc(1, sizeof *b), *check = NULL;
    file_list fl = {0};
    char *json = NULL;
    if (!b)
        return ortkit__error_nomem();
    int rc = collect(b, &fl, dir, "", 0, cancel);
    if (rc)
        goto cleanup;
    b->m = *fields;
    b->m.file_count = fl.count;
    b->m.files = fl.files;
    qsort(fl.files, fl.count, sizeof *fl.files, cmp_files);
    if ((rc = collect_needs(b, &fl, dir, &libs, cancel)) || (rc = ortkit__parts_collect(b, dir)) ||
        (rc = ortkit__bundle_to_json(&json, &b->m)))
        goto cleanup;
    /* What is written must read back: the same strict reader checks it. */
    if ((rc = ortkit__bundle_parse(&check, json, strlen(json), "the new manifest")))
        goto cleanup;
    char path[PATH_MAX];
    if (!(rc = ortkit__pathf(path, sizeof path, "%s/%s", dir, BUNDLE_MANIFEST)))
        rc = ortkit__file_write_atomic(path, json, strlen(json));
cleanup:
    /* The view points at the caller's strings and at fl: detach it before freeing. */
    memset(&b->m, 0, sizeof b->m);
    free(fl.files);
    free(libs);
    ortkit_bundle_free(b);
    ortkit_bundle_free(check);
    free(json);
    return rc;
}
