/*
 * static.c - a static core from a finished build: which static libraries
 * the shared library's link took, in order, read from CMake's own account
 * of its target graph (the file API's code model: no directory scan, so an
 * archive left over from an older configuration is never merged), merged
 * into one libonnxruntime.a with an `ar -M` script; and what a program must link
 * after it, as -l words for a pkg-config file.
 */
#include "builder_static.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define API_DIR ".cmake/api/v1"
#define REPLY_MAX ((size_t)64 << 20)

int ortkit__builder_file_api_query(const char *build_dir)
{
    char path[PATH_MAX];
    int rc;
    if ((rc = ortkit__pathf(path, sizeof path, "%s/" API_DIR "/query", build_dir)) ||
        (rc = ortkit__mkdirs(path)) ||
        (rc = ortkit__pathf(path, sizeof path, "%s/" API_DIR "/query/codemodel-v2", build_dir)))
        return rc;
    return access(path, F_OK) == 0 ? ORTKIT_OK : ortkit__file_write_atomic(path, "", 0);
}

/* The newest reply index (CMake names them index-<time>.json: the largest
 * name is the current one); 0 when there is none. */
static int newest_index(char *name, size_t size, const char *reply_dir)
{
    DIR *d = opendir(reply_dir);
    name[0] = '\0';
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (!strncmp(e->d_name, "index-", 6) && n > 11 && !strcmp(e->d_name + n - 5, ".json") &&
            n < size && strcmp(e->d_name, name) > 0)
            snprintf(name, size, "%s", e->d_name);
    }
    if (d)
        closedir(d);
    return name[0] != '\0';
}

int ortkit__builder_file_api_ready(const char *build_dir)
{
    char dir[PATH_MAX], name[256];
    return ortkit__pathf(dir, sizeof dir, "%s/" API_DIR "/reply", build_dir) == 0 &&
           newest_index(name, sizeof name, dir);
}

/* A reply file, parsed; its name comes from another reply file, so it must
 * be a plain name inside the reply directory. */
static int read_reply(cJSON **out, const char *reply_dir, const char *name)
{
    char path[PATH_MAX], *text = NULL;
    size_t size = 0;
    *out = NULL;
    if (!name || !name[0] || strchr(name, '/') || name[0] == '.')
        return ortkit__error_set(ORTKIT_E_FORMAT, "CMake's file API reply in '%s' names a file "
                                 "'%s' that is not in it", reply_dir, name ? name : "");
    int rc = ortkit__pathf(path, sizeof path, "%s/%s", reply_dir, name);
    if (rc || (rc = ortkit__file_read(&text, &size, path, REPLY_MAX)))
        return rc;
    *out = cJSON_ParseWithLength(text, size);
    free(text);
    if (!*out)
        return ortkit__error_set(ORTKIT_E_FORMAT, "'%s' is not JSON", path);
    return ORTKIT_OK;
}

static const char *str_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The jsonFile of the named target in the first configuration. */
static int find_target(char *file, size_t size, const char *reply_dir, const char *target)
{
    char index[256];
    cJSON *idx = NULL, *model = NULL;
    int rc;
    if (!newest_index(index, sizeof index, reply_dir))
        return ortkit__error_set(ORTKIT_E_IO, "'%s' holds no CMake file API reply: "
                                 "configure the build again (ortkit build writes the query "
                                 "before configuring)", reply_dir);
    if ((rc = read_reply(&idx, reply_dir, index)))
        return rc;
    const char *model_file = NULL;
    const cJSON *o;
    cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(idx, "objects"))
        if (str_of(o, "kind") && !strcmp(str_of(o, "kind"), "codemodel"))
            model_file = str_of(o, "jsonFile");
    if (!model_file) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "CMake's reply %s/%s has no code model", reply_dir,
                               index);
        goto cleanup;
    }
    if ((rc = read_reply(&model, reply_dir, model_file)))
        goto cleanup;
    const cJSON *configs = cJSON_GetObjectItemCaseSensitive(model, "configurations");
    const cJSON *t;
    file[0] = '\0';
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(configs, 0), "targets"))
        if (str_of(t, "name") && !strcmp(str_of(t, "name"), target) && str_of(t, "jsonFile"))
            snprintf(file, size, "%s", str_of(t, "jsonFile"));
    if (!file[0])
        rc = ortkit__error_set(ORTKIT_E_INVALID_ARG, "the build in '%s' has no CMake target '%s'",
                               reply_dir, target);
cleanup:
    cJSON_Delete(idx);
    cJSON_Delete(model);
    return rc;
}

/* Keep each word once, at its last place: a library must follow every
 * library that uses it. */
static int push_last(ortkit__strv *sv, const char *word)
{
    for (size_t i = 0; i < sv->n; i++) {
        if (!strcmp(sv->v[i], word)) {
            char *w = sv->v[i];
            memmove(&sv->v[i], &sv->v[i + 1], (sv->n - i - 1) * sizeof *sv->v);
            sv->v[sv->n - 1] = w;
            return ORTKIT_OK;
        }
    }
    return ortkit__strv_push(sv, word);
}

static int push_once(ortkit__strv *sv, const char *word)
{
    for (size_t i = 0; i < sv->n; i++)
        if (!strcmp(sv->v[i], word))
            return ORTKIT_OK;
    return ortkit__strv_push(sv, word);
}

/* The system's library directories, where -lNAME finds a library. */
static int in_system_dir(const char *path)
{
    static const char *const dirs[] = {"/usr/lib/", "/lib/", "/usr/lib64/", "/lib64/",
                                       "/usr/local/lib/"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        if (!strncmp(path, dirs[i], strlen(dirs[i])))
            return 1;
    return 0;
}

/* One "libraries" fragment of the link, sorted into the archives to merge
 * and the words a program links after them. */
static int sort_fragment(ortkit__builder_link *out, const char *build_dir, const char *frag)
{
    size_t n = strlen(frag);
    if (!strcmp(frag, "-pthread") || (!strncmp(frag, "-l", 2) && n > 2))
        return push_last(&out->libs, frag);
    if (frag[0] == '-')
        return ORTKIT_OK; /* -Wl,-rpath,... and other flags of the shared library's own link */
    char path[PATH_MAX];
    int rc = frag[0] == '/' ? ortkit__pathf(path, sizeof path, "%s", frag)
                            : ortkit__pathf(path, sizeof path, "%s/%s", build_dir, frag);
    if (rc)
        return rc;
    size_t bl = strlen(build_dir);
    int in_build = !strncmp(path, build_dir, bl) && path[bl] == '/';
    if (n > 2 && !strcmp(frag + n - 2, ".a") && in_build)
        return push_once(&out->archives, path);
    /* "/usr/lib/../../elsewhere" is not a system directory. */
    char real[PATH_MAX];
    if (!in_build && realpath(path, real))
        snprintf(path, sizeof path, "%s", real);
    if (!in_build && in_system_dir(path)) {
        const char *base = strrchr(path, '/') + 1;
        /* libNAME.so is -lNAME, and so is libNAME.so.1.2 where the
         * development link libNAME.so beside it names the same library
         * (CMake gives imported targets' real files); any other file, such
         * as a static libNAME.a, is named whole. */
        const char *so = strstr(base, ".so");
        char word[PATH_MAX + 4], dev[PATH_MAX];
        int named = !strncmp(base, "lib", 3) && so && so > base + 3 &&
                    (so[3] == '\0' ||
                     (so[3] == '.' && ortkit__pathf(dev, sizeof dev, "%.*s", (int)(so + 3 - path),
                                                    path) == 0 && access(dev, F_OK) == 0));
        if (named)
            snprintf(word, sizeof word, "-l%.*s", (int)(so - base - 3), base + 3);
        else
            snprintf(word, sizeof word, "-l:%s", base);
        return push_last(&out->libs, word);
    }
    return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "the link of the shared library takes '%s', "
                             "which is neither a static library of the build nor in the system's "
                             "library directories: a static bundle cannot name it for programs",
                             frag);
}

int ortkit__builder_link_read(ortkit__builder_link *out, const char *build_dir, const char *target)
{
    memset(out, 0, sizeof *out);
    char reply_dir[PATH_MAX], file[256];
    cJSON *t = NULL;
    int rc;
    if ((rc = ortkit__pathf(reply_dir, sizeof reply_dir, "%s/" API_DIR "/reply", build_dir)) ||
        (rc = find_target(file, sizeof file, reply_dir, target)) ||
        (rc = read_reply(&t, reply_dir, file)))
        return rc;
    const cJSON *link = cJSON_GetObjectItemCaseSensitive(t, "link");
    const char *type = str_of(t, "type");
    if (!link || !type || strcmp(type, "SHARED_LIBRARY")) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "CMake target '%s' is %s, not a shared library "
                               "with a link step", target, type ? type : "of no type");
        goto cleanup;
    }
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(link, "commandFragments")) {
        const char *role = str_of(f, "role"), *frag = str_of(f, "fragment");
        if (role && frag && !strcmp(role, "libraries")) {
            /* A fragment may hold several words ("-Xlinker -rpath"): each alone. */
            char *copy = ortkit__strdup(frag), *save = NULL;
            if (!copy) {
                rc = ortkit__error_nomem();
                goto cleanup;
            }
            for (char *w = strtok_r(copy, " ", &save); !rc && w; w = strtok_r(NULL, " ", &save))
                rc = sort_fragment(out, build_dir, w);
            free(copy);
            if (rc)
                goto cleanup;
        }
    }
    if (!out->archives.n) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "CMake target '%s' links no static library of the "
                               "build: nothing to make a static core of", target);
        goto cleanup;
    }
    /* The C++ runtime the shared library brought with it; a C program's
     * link does not add it. */
    const char *lang = str_of(link, "language");
    if (lang && !strcmp(lang, "CXX") &&
        ((rc = push_last(&out->libs, "-lstdc++")) || (rc = push_last(&out->libs, "-lm"))))
        goto cleanup;
cleanup:
    cJSON_Delete(t);
    if (rc)
        ortkit__builder_link_free(out);
    return rc;
}

void ortkit__builder_link_free(ortkit__builder_link *l)
{
    ortkit__strv_free(&l->archives);
    ortkit__strv_free(&l->libs);
}

char *ortkit__builder_link_words(const ortkit__builder_link *l)
{
    size_t n = 1;
    for (size_t i = 0; i < l->libs.n; i++)
        n += strlen(l->libs.v[i]) + 1;
    char *s = malloc(n), *p = s;
    if (!s)
        return NULL;
    *p = '\0';
    for (size_t i = 0; i < l->libs.n; i++)
        p += sprintf(p, "%s%s", i ? " " : "", l->libs.v[i]);
    return s;
}

/* MRI scripts have no quoting: a name must be plain to be taken whole. */
static int mri_name_ok(const char *path)
{
    return path[0] && strspn(path, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                   "0123456789_./-") == strlen(path);
}

int ortkit__builder_archive_merge(const char *out, const ortkit__strv *archives)
{
    char tmp[PATH_MAX], script_path[PATH_MAX];
    int rc;
    if ((rc = ortkit__pathf(tmp, sizeof tmp, "%s.tmp-%ld", out, (long)getpid())) ||
        (rc = ortkit__pathf(script_path, sizeof script_path, "%s.mri-%ld", out, (long)getpid())))
        return rc;
    for (size_t i = 0; i <= archives->n; i++) {
        const char *p = i < archives->n ? archives->v[i] : tmp;
        if (!mri_name_ok(p))
            return ortkit__error_set(ORTKIT_E_INVALID_ARG, "cannot merge static libraries through "
                                     "'%s': ar's MRI scripts take only letters, digits and _./- in "
                                     "a path (move the build directory)", p);
    }
    /* An MRI script (`ar -M`, in every binutils): every member of each
     * archive, duplicates of a name included, and the symbol index. */
    ortkit__strv lines = {0};
    size_t len = 0;
    rc = ortkit__strv_pushf(&lines, "CREATE %s\n", tmp);
    for (size_t i = 0; !rc && i < archives->n; i++)
        rc = ortkit__strv_pushf(&lines, "ADDLIB %s\n", archives->v[i]);
    if (!rc)
        rc = ortkit__strv_push(&lines, "SAVE\nEND\n");
    char *script = NULL;
    for (size_t i = 0; !rc && i < lines.n; i++)
        len += strlen(lines.v[i]);
    if (!rc && !(script = malloc(len + 1)))
        rc = ortkit__error_nomem();
    for (size_t i = 0, at = 0; !rc && i < lines.n; i++) {
        memcpy(script + at, lines.v[i], strlen(lines.v[i]));
        at += strlen(lines.v[i]);
    }
    ortkit__strv_free(&lines);
    if (rc || (rc = ortkit__file_write_atomic(script_path, script, len))) {
        free(script);
        return rc;
    }
    free(script);
    unlink(tmp);
    /* ar -M reads its script from standard input only. */
    const char *argv[] = {"/bin/sh", "-c", "exec ar -M <\"$0\"", script_path, NULL};
    char *output = NULL;
    int status = 0;
    rc = ortkit__spawn(argv, 1, &output, &status);
    unlink(script_path);
    if (!rc && (status != 0 || (output && strstr(output, "ar: ")))) {
        /* ar -M says "ar: ..." and may still exit 0 on a bad member. */
        const char *why = output && strstr(output, "ar: ") ? strstr(output, "ar: ") : output;
        char first[512];
        snprintf(first, sizeof first, "%s", why && why[0] ? why : "it failed");
        first[strcspn(first, "\n")] = '\0';
        rc = ortkit__error_set(ORTKIT_E_IO, "ar could not merge %zu static libraries into '%s': %s",
                               archives->n, out, first);
    } else if (rc) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot run ar (binutils) to merge the static "
                               "libraries: %s", ortkit__error_message());
    }
    free(output);
    if (!rc && rename(tmp, out) != 0)
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot rename '%s' to '%s': %s", tmp, out,
                               strerror(errno));
    if (rc)
        unlink(tmp);
    return rc;
}
