/*
 * bundle_parts.c - the manifest's "parts": what the core and each provider
 * library need of a host, apart.  A GPU release carries the CUDA and
 * TensorRT providers beside a core that needs neither: the host that lacks
 * TensorRT can still load the core and use CUDA, and one without a driver
 * its CPU.  So each part's needs are read from its own files (DT_NEEDED,
 * followed through the libraries the bundle carries), and selection and
 * `ortkit doctor` judge them part by part.
 */
#include "bundle.h"
#include "bundle_gpu.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(r, ...) ortkit__json_fail((r), __VA_ARGS__)
#define PARTS_MAX 32
#define PART_FILES_MAX 256
#define PART_LIBS_MAX 512
#define PROVIDER_PREFIX "lib/libonnxruntime_providers_"

/* The provider a library file holds, by ONNX Runtime's names. */
static const struct {
    const char *file, *provider;
} known[] = {
    {"cuda", "CUDAExecutionProvider"},        {"tensorrt", "TensorrtExecutionProvider"},
    {"openvino", "OpenVINOExecutionProvider"}, {"dnnl", "DnnlExecutionProvider"},
    {"rocm", "ROCMExecutionProvider"},        {"migraphx", "MIGraphXExecutionProvider"},
    {"vitisai", "VitisAIExecutionProvider"},  {"qnn", "QNNExecutionProvider"},
    {"nv_tensorrt_rtx", "NvTensorRTRTXExecutionProvider"}, {"webgpu", "WebGpuExecutionProvider"},
};

/* "lib/libonnxruntime_providers_cuda.so" -> "CUDAExecutionProvider"; the
 * shared bridge and other files: NULL.  An unknown provider keeps its file's
 * word ("libonnxruntime_providers_acl.so": "acl"). */
static const char *provider_of(const char *path, char *buf, size_t size)
{
    size_t n = strlen(PROVIDER_PREFIX), len = strlen(path);
    if (strncmp(path, PROVIDER_PREFIX, n) || len < n + 4 || strcmp(path + len - 3, ".so") ||
        strchr(path + n, '/'))
        return NULL;
    snprintf(buf, size, "%.*s", (int)(len - n - 3), path + n);
    if (!strcmp(buf, "shared"))
        return NULL;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(buf, known[i].file))
            return known[i].provider;
    return buf;
}

/* The bundle's file in lib/ named name (a link resolved to its file), or NULL. */
static const ortkit_bundle_file *lib_file(const ortkit_manifest *m, const char *name)
{
    char path[PATH_MAX];
    for (int hops = 0; hops < 8; hops++) {
        if ((size_t)snprintf(path, sizeof path, "lib/%s", name) >= sizeof path)
            return NULL;
        const ortkit_bundle_file *f = ortkit__bundle_file(m, path);
        if (!f || !f->link[0])
            return f;
        name = f->link;
    }
    return NULL;
}

typedef struct strset {
    const char **s;
    size_t n, cap;
} strset;

static int strset_add(strset *set, const char *s, size_t max)
{
    for (size_t i = 0; i < set->n; i++)
        if (!strcmp(set->s[i], s))
            return 0;
    if (set->n == max)
        return 0;
    if (ortkit__array_reserve(&set->s, &set->cap, set->n + 2, sizeof *set->s, 16))
        return ORTKIT_E_NOMEM;
    set->s[set->n++] = s;
    set->s[set->n] = NULL;
    return 1;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* One part: its root file and what it reaches inside the bundle (never the
 * core, which is a part of its own); what it needs from outside. */
static int collect_part(ortkit_bundle *b, const char *dir, const char *name, const char *root,
                        ortkit_bundle_part **out)
{
    const ortkit_manifest *m = &b->m;
    strset files = {0}, libs = {0};
    int rc = strset_add(&files, root, PART_FILES_MAX) < 0 ? ORTKIT_E_NOMEM : ORTKIT_OK;
    for (size_t i = 0; !rc && i < files.n; i++) {
        char full[PATH_MAX];
        ortkit__elf e;
        if ((rc = ortkit__pathf(full, sizeof full, "%s/%s", dir, files.s[i])))
            break;
        if (ortkit__elf_read(&e, full) != 0)
            continue; /* not an ELF file: nothing it needs */
        for (size_t k = 0; !rc && k < e.needed_count; k++) {
            const ortkit_bundle_file *f = lib_file(m, e.needed[k]);
            if (f && !strcmp(f->path, m->library) && strcmp(root, m->library))
                continue; /* a provider that links the core: the core's needs are its own */
            const char *kept = f ? NULL : ortkit__bundle_keep(b, e.needed[k]);
            int added = f ? strset_add(&files, f->path, PART_FILES_MAX)
                          : kept ? strset_add(&libs, kept, PART_LIBS_MAX) : ortkit__error_nomem();
            if (added < 0)
                rc = added;
        }
        ortkit__elf_free(&e);
    }
    ortkit_bundle_part *p = rc ? NULL : ortkit__bundle_keep_zeroed(b, 1, sizeof *p);
    const char **fl = p ? ortkit__bundle_keep_zeroed(b, files.n + 1, sizeof *fl) : NULL;
    const char **ll = fl ? ortkit__bundle_keep_zeroed(b, libs.n + 1, sizeof *ll) : NULL;
    if (!rc && !ll)
        rc = ortkit__error_nomem();
    if (!rc) {
        qsort(files.s, files.n, sizeof *files.s, cmp_str);
        if (libs.n)
            qsort(libs.s, libs.n, sizeof *libs.s, cmp_str);
        memcpy(fl, files.s, files.n * sizeof *fl);
        if (libs.n)
            memcpy(ll, libs.s, libs.n * sizeof *ll);
        p->name = ortkit__bundle_keep(b, name);
        p->files = fl;
        p->file_count = files.n;
        p->libraries = ll;
        p->library_count = libs.n;
        *out = p;
        if (!p->name)
            rc = ortkit__error_nomem();
    }
    free(files.s);
    free(libs.s);
    return rc;
}

int ortkit__parts_collect(ortkit_bundle *b, const char *dir)
{
    ortkit_manifest *m = &b->m;
    m->part_count = 0;
    m->parts = NULL;
    if (ortkit__bundle_is_static(m))
        return ORTKIT_OK; /* the core is linked into programs: theirs to need */
    const ortkit_bundle_part **parts = ortkit__bundle_keep_zeroed(b, PARTS_MAX + 1, sizeof *parts);
    if (!parts)
        return ortkit__error_nomem();
    size_t n = 1;
    int rc = collect_part(b, dir, "core", m->library, (ortkit_bundle_part **)&parts[0]);
    /* The files are sorted: providers come in the order of their files. */
    for (size_t i = 0; !rc && i < m->file_count && n < PARTS_MAX; i++) {
        char word[128];
        const char *prov = m->files[i].link[0] ? NULL : provider_of(m->files[i].path, word, sizeof word);
        if (prov)
            rc = collect_part(b, dir, prov, m->files[i].path, (ortkit_bundle_part **)&parts[n++]);
    }
    /* Without a provider library there is one part: the needs say it all. */
    if (!rc && n > 1) {
        m->parts = parts;
        m->part_count = n;
    }
    return rc;
}

/* ---- the manifest's "parts" ---------------------------------------------- */

int ortkit__manifest_parts_write(cJSON *root, const ortkit_manifest *m)
{
    if (!m->part_count)
        return ORTKIT_OK;
    cJSON *a = cJSON_AddArrayToObject(root, "parts");
    for (size_t i = 0; a && i < m->part_count; i++) {
        const ortkit_bundle_part *p = m->parts[i];
        cJSON *o = cJSON_CreateObject(), *files, *libs;
        if (!o || !cJSON_AddItemToArray(a, o) || !cJSON_AddStringToObject(o, "name", p->name) ||
            !(files = cJSON_AddArrayToObject(o, "files")) || !(libs = cJSON_AddArrayToObject(o, "libraries")))
            return ortkit__error_nomem();
        for (size_t k = 0; k < p->file_count; k++)
            cJSON_AddItemToArray(files, cJSON_CreateString(p->files[k]));
        for (size_t k = 0; k < p->library_count; k++)
            cJSON_AddItemToArray(libs, cJSON_CreateString(p->libraries[k]));
    }
    return a ? ORTKIT_OK : ortkit__error_nomem();
}

static int name_ok(const char *s)
{
    size_t n = strlen(s);
    return n && n <= 64 &&
           strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n;
}

/* parts[i].files or .libraries: strings, each checked; files listed in the bundle. */
static int read_names(const ortkit__json_reader *r, ortkit_bundle *b, const cJSON *o,
                      const char *where, const char *key, size_t max, const char *const **out,
                      size_t *count)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key);
    int is_files = !strcmp(key, "files");
    if (!cJSON_IsArray(a) || (size_t)cJSON_GetArraySize(a) > max)
        return FAIL(r, "'%s.%s' must be an array of at most %zu names", where, key, max);
    const char **list = ortkit__bundle_keep_zeroed(b, (size_t)cJSON_GetArraySize(a) + 1, sizeof *list);
    if (!list)
        return ortkit__error_nomem();
    *count = 0;
    for (const cJSON *e = a->child; e; e = e->next) {
        if (!cJSON_IsString(e) || !ortkit__bundle_library_name_ok(is_files && !strncmp(e->valuestring, "lib/", 4)
                                                  ? e->valuestring + 4 : e->valuestring) ||
            (is_files && strncmp(e->valuestring, "lib/", 4)))
            return FAIL(r, "'%s.%s' must hold %s", where, key,
                        is_files ? "paths in lib/ like \"lib/libonnxruntime_providers_cuda.so\""
                                 : "library file names like \"libcudart.so.12\"");
        if (is_files && !ortkit__bundle_file(&b->m, e->valuestring))
            return FAIL(r, "%s.files names '%.200s', which is not in 'files'", where, e->valuestring);
        if (!(list[(*count)++] = ortkit__bundle_keep(b, e->valuestring)))
            return ortkit__error_nomem();
    }
    *out = list;
    return ORTKIT_OK;
}

int ortkit__manifest_parts_read(const ortkit__json_reader *r, ortkit_bundle *b, const cJSON *a)
{
    ortkit_manifest *m = &b->m;
    static const char *const keys[] = {"name", "files", "libraries", NULL};
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) < 1 || cJSON_GetArraySize(a) > PARTS_MAX)
        return FAIL(r, "'parts' must be an array of 1 to %d objects", PARTS_MAX);
    const ortkit_bundle_part **parts =
        ortkit__bundle_keep_zeroed(b, (size_t)cJSON_GetArraySize(a) + 1, sizeof *parts);
    if (!parts)
        return ortkit__error_nomem();
    size_t n = 0;
    for (const cJSON *o = a->child; o; o = o->next, n++) {
        char where[32];
        const char *name;
        snprintf(where, sizeof where, "parts[%zu]", n);
        if (!cJSON_IsObject(o))
            return FAIL(r, "'%s' must be an object", where);
        ortkit_bundle_part *p = ortkit__bundle_keep_zeroed(b, 1, sizeof *p);
        if (!p)
            return ortkit__error_nomem();
        int rc = ortkit__json_check_keys(r, o, where, keys);
        if (!rc)
            rc = ortkit__json_get_string(r, o, "name", where, 64, ORTKIT__JSON_REQUIRED, &name);
        if (rc)
            return rc;
        if (!name_ok(name) || (n == 0) != !strcmp(name, "core"))
            return FAIL(r, "%s.name '%.64s' must be %s", where, name,
                        n == 0 ? "\"core\" (the first part)" : "a provider's name like \"CUDAExecutionProvider\"");
        for (size_t k = 0; k < n; k++)
            if (!strcmp(parts[k]->name, name))
                return FAIL(r, "'parts' names '%s' twice", name);
        if (!(p->name = ortkit__bundle_keep(b, name)) ||
            (rc = read_names(r, b, o, where, "files", PART_FILES_MAX, &p->files, &p->file_count)) ||
            (rc = read_names(r, b, o, where, "libraries", PART_LIBS_MAX, &p->libraries,
                             &p->library_count)))
            return rc ? rc : ortkit__error_nomem();
        parts[n] = p;
    }
    int has_library = 0;
    for (size_t k = 0; k < parts[0]->file_count; k++)
        has_library |= !strcmp(parts[0]->files[k], m->library);
    if (!has_library)
        return FAIL(r, "parts[0].files must hold the library '%.200s'", m->library);
    m->parts = parts;
    m->part_count = n;
    return ORTKIT_OK;
}
