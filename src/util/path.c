/* path.c - paths that are never cut short, absolute paths, PATH lookup. */
#include "util.h"

#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <link.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ortkit__pathf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= size)
        return ortkit__error_set(ORTKIT_E_IO, "path too long: '%.80s...'", size ? buf : "");
    return ORTKIT_OK;
}

const char *ortkit__path_last(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int ortkit__path_absolute(char **result, const char *path)
{
    char *joined = NULL;
    *result = NULL;
    if (path[0] == '/') {
        joined = strdup(path);
    } else {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd))
            return ortkit__error_set(ORTKIT_E_IO, "cannot tell the current directory: %s",
                                     strerror(errno));
        if (asprintf(&joined, "%s/%s", cwd, path) < 0)
            joined = NULL;
    }
    char *out = joined ? malloc(strlen(joined) + 2) : NULL;
    if (!out) {
        free(joined);
        return ortkit__error_nomem();
    }
    /* "." and ".." and repeated slashes are resolved by name: the path may
     * not exist yet, so realpath() cannot be used. */
    size_t n = 0;
    for (const char *p = joined; *p;) {
        while (*p == '/')
            p++;
        const char *e = p;
        while (*e && *e != '/')
            e++;
        size_t len = (size_t)(e - p);
        if (len == 0)
            break;
        if (len == 2 && p[0] == '.' && p[1] == '.') {
            while (n > 0 && out[n - 1] != '/')
                n--;
            if (n > 0)
                n--;
        } else if (!(len == 1 && p[0] == '.')) {
            out[n++] = '/';
            memcpy(out + n, p, len);
            n += len;
        }
        p = e;
    }
    if (n == 0)
        out[n++] = '/';
    out[n] = '\0';
    free(joined);
    *result = out;
    return ORTKIT_OK;
}

static int executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int ortkit__path_list_next(ortkit__path_list *it)
{
    while (it->rest && *it->rest) {
        const char *p = it->rest;
        size_t len = strcspn(p, ":");
        it->rest = p + len + (p[len] == ':');
        if (len) {
            it->entry = p;
            it->len = len;
            return 1;
        }
    }
    it->rest = it->entry = NULL;
    it->len = 0;
    return 0;
}

int ortkit__path_list_entry(const ortkit__path_list *it, char *buf, size_t size)
{
    return ortkit__pathf(buf, size, "%.*s", (int)it->len, it->entry ? it->entry : "");
}

int ortkit__path_which(char **out, const char *program)
{
    *out = NULL;
    if (strchr(program, '/')) {
        if (!executable(program))
            return ortkit__error_set(ORTKIT_E_IO, "'%s' is not an executable file", program);
        return (*out = ortkit__strdup(program)) ? ORTKIT_OK : ORTKIT_E_NOMEM;
    }
    const char *path = ortkit__env("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    for (ortkit__path_list it = {.rest = path}; ortkit__path_list_next(&it);) {
        char *candidate = NULL;
        if (asprintf(&candidate, "%.*s/%s", (int)it.len, it.entry, program) < 0)
            return ortkit__error_nomem();
        if (executable(candidate)) {
            *out = candidate;
            return ORTKIT_OK;
        }
        free(candidate);
    }
    return ortkit__error_set(ORTKIT_E_IO, "%s not found on PATH", program);
}

int ortkit__self_find(char *buf, size_t size, const char *rel_dirs, const char *name, int mode)
{
    char self[PATH_MAX];
    Dl_info info;
    struct link_map *map = NULL;
    char file[PATH_MAX], exe[PATH_MAX];
    if (!dladdr1((void *)ortkit__self_find, &info, (void **)&map, RTLD_DL_LINKMAP) || !info.dli_fname)
        return -1;
    const char *where = info.dli_fname;
    /* In the program itself (it linked libortkit.a), the loader names it by
     * argv[0]: a bare name when it came from PATH, relative to a directory
     * the program may have left.  The kernel knows the file. */
    if (!map || !map->l_name || !map->l_name[0]) {
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0)
            return -1;
        exe[n] = '\0';
        where = exe;
    }
    if (!realpath(where, file) || snprintf(self, sizeof self, "%s", dirname(file)) >= (int)sizeof self)
        return -1;
    for (ortkit__path_list it = {.rest = rel_dirs}; ortkit__path_list_next(&it);)
        if (snprintf(buf, size, "%s/%.*s/%s", self, (int)it.len, it.entry, name) < (int)size &&
            access(buf, mode) == 0)
            return 0;
    return -1;
}
