/*
 * bundle_gpu_manifest.c - the manifest's "gpu" key: what a GPU release's
 * providers need (CUDA, cuDNN, driver, GPU targets, CUDA libraries), read
 * as strictly as the rest of the manifest.
 */
#include "bundle_gpu.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(r, ...) ortkit__json_fail((r), __VA_ARGS__)

static int driver_ok(const char *s)
{
    ortkit__version v;
    const char *rest = NULL;
    return ortkit__version_parse(&v, s, &rest) == 0 && v.n >= 2 && v.n <= 3 && (!rest || !*rest);
}

/* A library file name: "libcudart.so.12". */
static int soname_ok(const char *s)
{
    size_t n = strlen(s);
    return n > 6 && n <= 128 && !strncmp(s, "lib", 3) && strstr(s, ".so") &&
           strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-") == n;
}

static int keep(ortkit_bundle *b, const char **out, const char *s)
{
    return (*out = ortkit__bundle_keep(b, s)) ? ORTKIT_OK : ortkit__error_nomem();
}

/* An array of strings, each checked by ok (kind names it in messages). */
static int read_list(const ortkit__json_reader *r, ortkit_bundle *b, const cJSON *gpu, const char *key,
                     int (*ok)(const char *, int), int arg, const char *kind, size_t max,
                     const char *const **out, size_t *count)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(gpu, key);
    *out = NULL;
    *count = 0;
    if (!a || cJSON_IsNull(a))
        return ORTKIT_OK;
    if (!cJSON_IsArray(a) || (size_t)cJSON_GetArraySize(a) > max)
        return FAIL(r, "'gpu.%s' must be an array of at most %zu %s", key, max, kind);
    const char **list = ortkit__bundle_keep_zeroed(b, (size_t)cJSON_GetArraySize(a) + 1, sizeof *list);
    if (!list)
        return ortkit__error_nomem();
    for (const cJSON *e = a->child; e; e = e->next) {
        if (!cJSON_IsString(e) || strlen(e->valuestring) > 1024 || !ok(e->valuestring, arg))
            return FAIL(r, "'gpu.%s' must hold %s", key, kind);
        for (size_t i = 0; i < *count; i++)
            if (!strcmp(list[i], e->valuestring))
                return FAIL(r, "'gpu.%s' names '%s' twice", key, e->valuestring);
        int rc = keep(b, &list[(*count)++], e->valuestring);
        if (rc)
            return rc;
    }
    *out = list;
    return ORTKIT_OK;
}

static int target_ok(const char *s, int ptx)
{
    ortkit__gpu_target t;
    return ortkit__gpu_target_parse(&t, s, ptx) == 0;
}

static int soname_ok_arg(const char *s, int unused)
{
    (void)unused;
    return soname_ok(s);
}

/* "libcudnn.so.9: cuDNN 9 for CUDA 12": a soname, then words in plain text. */
static int missing_ok(const char *s, int unused)
{
    (void)unused;
    char name[129];
    size_t n = strcspn(s, ":");
    if (n > 128)
        return 0;
    snprintf(name, sizeof name, "%.*s", (int)n, s);
    for (const char *c = s; *c; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e)
            return 0;
    return soname_ok(name);
}

static int read_libraries(const ortkit__json_reader *r, ortkit_bundle *b, const cJSON *gpu)
{
    ortkit_manifest *m = &b->m;
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(gpu, "libraries");
    if (!a || cJSON_IsNull(a))
        return ORTKIT_OK;
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) > GPU_NEEDS_MAX * 4)
        return FAIL(r, "'gpu.libraries' must be an array of at most %d objects", GPU_NEEDS_MAX * 4);
    ortkit_bundle_gpu_library *libs =
        ortkit__bundle_keep_zeroed(b, (size_t)cJSON_GetArraySize(a), sizeof *libs);
    if (!libs)
        return ortkit__error_nomem();
    static const char *const keys[] = {"soname", "version", "path", "sha256", "origin", NULL};
    const char **origins = ortkit__bundle_keep_zeroed(b, (size_t)cJSON_GetArraySize(a) + 1,
                                                      sizeof *origins);
    if (!origins)
        return ortkit__error_nomem();
    int any_origin = 0;
    size_t i = 0;
    for (const cJSON *e = a->child; e; e = e->next, i++) {
        char where[40];
        const char *s[4];
        snprintf(where, sizeof where, "gpu.libraries[%zu]", i);
        if (!cJSON_IsObject(e))
            return FAIL(r, "'%s' must be an object", where);
        int rc = ortkit__json_check_keys(r, e, where, keys);
        for (int k = 0; !rc && k < 4; k++)
            rc = ortkit__json_get_string(r, e, keys[k], where, 256,
                                         ORTKIT__JSON_REQUIRED | ORTKIT__JSON_PLAIN, &s[k]);
        if (rc)
            return rc;
        if (!soname_ok(s[0]))
            return FAIL(r, "%s.soname '%.64s' is not a library name like \"libcudart.so.12\"", where, s[0]);
        if (strncmp(s[2], "lib/", 4) || strchr(s[2] + 4, '/') || strcmp(s[2] + 4, s[0]))
            return FAIL(r, "%s.path '%.64s' must be lib/ and its soname", where, s[2]);
        if (strlen(s[3]) != 64 || strspn(s[3], "0123456789abcdef") != 64)
            return FAIL(r, "%s.sha256 must be 64 lowercase hex digits", where);
        if ((rc = keep(b, &libs[i].soname, s[0])) || (rc = keep(b, &libs[i].version, s[1])) ||
            (rc = keep(b, &libs[i].path, s[2])) || (rc = keep(b, &libs[i].sha256, s[3])))
            return rc;
        /* Where complete copied it from: a path, as it was. */
        const char *origin = NULL;
        if ((rc = ortkit__json_get_string(r, e, "origin", where, 4096, ORTKIT__JSON_PLAIN, &origin)))
            return rc;
        if (origin && origin[0] != '/')
            return FAIL(r, "%s.origin '%.64s' must be an absolute path", where, origin);
        if (origin && (rc = keep(b, &origins[i], origin)))
            return rc;
        any_origin |= origin != NULL;
    }
    m->gpu_library_origins = any_origin ? origins : NULL;
    m->gpu_libraries = libs;
    m->gpu_library_count = i;
    return ORTKIT_OK;
}

/* gpu.platform: absent in manifests written before ortkit told SBSA from
 * L4T; given, it must agree with the architecture and requires.jetson. */
static int read_platform(const ortkit__json_reader *r, ortkit_manifest *m, const char *name)
{
    int p = ortkit_cuda_platform_from_name(name);
    if (p < 0)
        return FAIL(r, "gpu.platform '%.16s' is not \"x86_64\", \"sbsa\" or \"l4t\"", name);
    if ((p == ORTKIT_CUDA_PLATFORM_X86_64) != (m->arch == ORTKIT_ARCH_X86_64))
        return FAIL(r, "gpu.platform '%s' is not a platform of %s", name, ortkit_arch_name(m->arch));
    if ((p == ORTKIT_CUDA_PLATFORM_L4T) != (m->tegra != 0))
        return FAIL(r, "gpu.platform '%s' and requires.jetson %s disagree", name,
                    m->tegra ? "true" : "false");
    m->cuda_platform = (ortkit_cuda_platform)p;
    return ORTKIT_OK;
}

int ortkit__manifest_gpu_read(const ortkit__json_reader *r, ortkit_bundle *b, const cJSON *gpu)
{
    ortkit_manifest *m = &b->m;
    static const char *const keys[] = {"cuda", "platform", "cudnn", "min_driver", "ptx_driver",
                                       "sass", "ptx", "needs", "libraries", "missing", "complete",
                                       NULL};
    const char *s, *platform = NULL;
    int64_t cudnn = 0;
    int rc;
    if (!cJSON_IsObject(gpu))
        return FAIL(r, "'gpu' must be an object");
    if ((rc = ortkit__json_check_keys(r, gpu, "gpu", keys)) ||
        (rc = ortkit__json_get_string(r, gpu, "cuda", "gpu", 16, ORTKIT__JSON_REQUIRED | ORTKIT__JSON_PLAIN, &s)))
        return rc;
    ortkit__version v;
    const char *rest = NULL;
    if (ortkit__version_parse(&v, s, &rest) != 0 || v.n != 2 || (rest && *rest) || v.part[0] < 10 ||
        v.part[0] > 99 || v.part[1] > 9)
        return FAIL(r, "gpu.cuda '%.16s' is not a CUDA version like \"12.2\"", s);
    m->gpu_cuda = (int)(v.part[0] * 1000 + v.part[1] * 10);
    if ((rc = ortkit__json_get_string(r, gpu, "platform", "gpu", 16, ORTKIT__JSON_PLAIN, &platform)))
        return rc;
    if (platform && (rc = read_platform(r, m, platform)))
        return rc;
    if ((rc = ortkit__json_get_whole(r, gpu, "cudnn", "gpu", 0, 99, ORTKIT__JSON_REQUIRED, &cudnn)))
        return rc;
    m->gpu_cudnn = (int)cudnn;
    const char *min = NULL, *ptx = NULL;
    if ((rc = ortkit__json_get_string(r, gpu, "min_driver", "gpu", 32,
                                      ORTKIT__JSON_REQUIRED | ORTKIT__JSON_PLAIN, &min)) ||
        (rc = ortkit__json_get_string(r, gpu, "ptx_driver", "gpu", 32,
                                      ORTKIT__JSON_NULLABLE | ORTKIT__JSON_PLAIN, &ptx)))
        return rc;
    if (!driver_ok(min) || (ptx && !driver_ok(ptx)))
        return FAIL(r, "gpu.%s '%.32s' is not a driver version like \"525.60.13\"",
                    driver_ok(min) ? "ptx_driver" : "min_driver", driver_ok(min) ? ptx : min);
    if ((rc = keep(b, &m->gpu_min_driver, min)) || (rc = keep(b, &m->gpu_ptx_driver, ptx ? ptx : "")) ||
        (rc = read_list(r, b, gpu, "sass", target_ok, 0, "GPU targets like \"sm_80\" or \"sm_90a\"",
                        ORTKIT__GPU_TARGETS_MAX, &m->gpu_sass, &m->gpu_sass_count)) ||
        (rc = read_list(r, b, gpu, "ptx", target_ok, 1, "PTX targets like \"compute_80\"",
                        ORTKIT__GPU_TARGETS_MAX, &m->gpu_ptx, &m->gpu_ptx_count)) ||
        (rc = read_list(r, b, gpu, "needs", soname_ok_arg, 0, "library names like \"libcudart.so.12\"",
                        GPU_NEEDS_MAX, &m->gpu_needs, &m->gpu_need_count)) ||
        (rc = read_list(r, b, gpu, "missing", missing_ok, 0,
                        "a library name, a colon and what it must be", GPU_NEEDS_MAX, &m->gpu_missing,
                        &m->gpu_missing_count)) ||
        (rc = read_libraries(r, b, gpu)) ||
        (rc = ortkit__json_get_bool(r, gpu, "complete", "gpu", ORTKIT__JSON_REQUIRED, &m->gpu_complete)))
        return rc;
    if (ptx && !m->gpu_ptx_count)
        return FAIL(r, "gpu.ptx_driver is set and gpu.ptx is empty");
    if (m->gpu_complete != !m->gpu_missing_count)
        return FAIL(r, "gpu.complete is %s and gpu.missing has %zu entries",
                    m->gpu_complete ? "true" : "false", m->gpu_missing_count);
    if (m->cuda && m->cuda / 1000 != m->gpu_cuda / 1000)
        return FAIL(r, "requires.cuda and gpu.cuda name different CUDA majors");
    for (size_t i = 0; i < m->gpu_library_count; i++)
        if (!ortkit__bundle_file(m, m->gpu_libraries[i].path) && m->file_count)
            return FAIL(r, "gpu.libraries names '%.64s', which is not listed in 'files'",
                        m->gpu_libraries[i].path);
    m->gpu_known = 1;
    /* Ranked as a CUDA build of that release. */
    m->cuda = m->gpu_cuda;
    return ORTKIT_OK;
}

static cJSON *string_list(const char *const *list, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(list[i]));
    return a;
}

int ortkit__manifest_gpu_write(cJSON *root, const ortkit_manifest *m)
{
    if (!m->gpu_known)
        return ORTKIT_OK;
    char text[16];
    cJSON *g = cJSON_AddObjectToObject(root, "gpu");
    if (!g)
        return ortkit__error_nomem();
    snprintf(text, sizeof text, "%d.%d", m->gpu_cuda / 1000, (m->gpu_cuda % 1000) / 10);
    cJSON_AddStringToObject(g, "cuda", text);
    /* Written where it decides: an x86_64 release is x86_64's, and stays
     * readable by an ortkit that does not know the key. */
    if (m->arch == ORTKIT_ARCH_AARCH64 && m->cuda_platform)
        cJSON_AddStringToObject(g, "platform", ortkit_cuda_platform_name(m->cuda_platform));
    cJSON_AddNumberToObject(g, "cudnn", m->gpu_cudnn);
    cJSON_AddStringToObject(g, "min_driver", m->gpu_min_driver);
    cJSON_AddItemToObject(g, "ptx_driver", m->gpu_ptx_driver && m->gpu_ptx_driver[0]
                                               ? cJSON_CreateString(m->gpu_ptx_driver)
                                               : cJSON_CreateNull());
    cJSON_AddItemToObject(g, "sass", string_list(m->gpu_sass, m->gpu_sass_count));
    cJSON_AddItemToObject(g, "ptx", string_list(m->gpu_ptx, m->gpu_ptx_count));
    cJSON_AddItemToObject(g, "needs", string_list(m->gpu_needs, m->gpu_need_count));
    cJSON *libs = cJSON_AddArrayToObject(g, "libraries");
    for (size_t i = 0; libs && i < m->gpu_library_count; i++) {
        const ortkit_bundle_gpu_library *l = &m->gpu_libraries[i];
        cJSON *e = cJSON_CreateObject();
        if (!e || !cJSON_AddItemToArray(libs, e))
            break;
        cJSON_AddStringToObject(e, "soname", l->soname);
        cJSON_AddStringToObject(e, "version", l->version);
        cJSON_AddStringToObject(e, "path", l->path);
        /* A library just added takes its hash from the files' list. */
        const ortkit_bundle_file *f = l->sha256[0] ? NULL : ortkit__bundle_file(m, l->path);
        cJSON_AddStringToObject(e, "sha256", f ? f->sha256 : l->sha256);
        if (m->gpu_library_origins && m->gpu_library_origins[i])
            cJSON_AddStringToObject(e, "origin", m->gpu_library_origins[i]);
    }
    cJSON_AddItemToObject(g, "missing", string_list(m->gpu_missing, m->gpu_missing_count));
    cJSON_AddBoolToObject(g, "complete", m->gpu_complete);
    return ORTKIT_OK;
}
