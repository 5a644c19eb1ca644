/* host_json.c - a host written as JSON and read back, strictly: unknown keys and wrong types fail. */
#include "host_cuda.h"
#include "host_internal.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- JSON ---------------------------------------------------------------------- */

#define HOST_JSON_SCHEMA 1

static void format_cuda(char *buf, size_t size, int v)
{
    if (v > 0)
        snprintf(buf, size, "%d.%d", v / 1000, (v % 1000) / 10);
    else
        ortkit__host_copy_str(buf, size, "");
}

int ortkit_host_to_json(const ortkit_host *h, char **json_out)
{
    if (!h || !json_out)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_host_to_json: NULL argument");
    *json_out = NULL;
    int ok = 1, rc = ORTKIT_OK;
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return ortkit__error_nomem();
#define ADD(x) (ok &= (x) != NULL)
    ADD(cJSON_AddNumberToObject(root, "schema", HOST_JSON_SCHEMA));
    ADD(cJSON_AddStringToObject(root, "arch", ortkit_arch_name(h->arch)));

    cJSON *cpu = cJSON_AddObjectToObject(root, "cpu");
    if (!cpu)
        goto nomem;
    ADD(cJSON_AddStringToObject(cpu, "vendor", h->cpu_vendor));
    ADD(cJSON_AddStringToObject(cpu, "model", h->cpu_model));
    ADD(cJSON_AddNumberToObject(cpu, "logical_cpus", h->logical_cpus));
    ADD(cJSON_AddNumberToObject(cpu, "physical_cores", h->physical_cores));
    cJSON *cache = cJSON_AddObjectToObject(cpu, "cache");
    cJSON *features = cJSON_AddArrayToObject(cpu, "features");
    if (!cache || !features)
        goto nomem;
    ADD(cJSON_AddNumberToObject(cache, "l1d", (double)h->cache_l1d));
    ADD(cJSON_AddNumberToObject(cache, "l1i", (double)h->cache_l1i));
    ADD(cJSON_AddNumberToObject(cache, "l2", (double)h->cache_l2));
    ADD(cJSON_AddNumberToObject(cache, "l3", (double)h->cache_l3));
    for (int f = 0; f < ORTKIT_CPU_FEATURE_COUNT; f++) {
        if (!(h->cpu_features & ORTKIT_CPU_BIT(f)))
            continue;
        cJSON *s = cJSON_CreateString(ortkit_cpu_feature_name((ortkit_cpu_feature)f));
        if (!s || !cJSON_AddItemToArray(features, s)) {
            cJSON_Delete(s);
            goto nomem;
        }
    }
    if (h->arch == ORTKIT_ARCH_X86_64)
        ADD(cJSON_AddNumberToObject(cpu, "x86_64_level", h->x86_64_level));

    cJSON *mem = cJSON_AddObjectToObject(root, "memory");
    cJSON *os = cJSON_AddObjectToObject(root, "os");
    cJSON *nv = cJSON_AddObjectToObject(root, "nvidia");
    if (!mem || !os || !nv)
        goto nomem;
    ADD(cJSON_AddNumberToObject(mem, "total", (double)h->mem_total));
    ADD(cJSON_AddNumberToObject(mem, "available", (double)h->mem_available));
    ADD(cJSON_AddStringToObject(os, "name", h->os_name));
    ADD(cJSON_AddStringToObject(os, "release", h->os_release));
    ADD(cJSON_AddStringToObject(os, "distro", h->os_distro));
    ADD(cJSON_AddStringToObject(os, "glibc", h->glibc));
    /* Only when known: a description written without it reads back the same. */
    if (h->glibcxx && h->glibcxx[0])
        ADD(cJSON_AddStringToObject(os, "glibcxx", h->glibcxx));
    if (h->libraries_known) {
        cJSON *libs = cJSON_AddArrayToObject(os, "libraries");
        if (!libs)
            goto nomem;
        for (size_t i = 0; i < h->library_count; i++) {
            cJSON *s = cJSON_CreateString(h->libraries[i]);
            if (!s || !cJSON_AddItemToArray(libs, s)) {
                cJSON_Delete(s);
                goto nomem;
            }
        }
    }

    char cuda[16];
    format_cuda(cuda, sizeof cuda, h->cuda_driver);
    ADD(cJSON_AddStringToObject(nv, "platform", ortkit_cuda_platform_name(ortkit__host_platform(h))));
    ADD(cJSON_AddStringToObject(nv, "driver", h->driver_version));
    ADD(cJSON_AddStringToObject(nv, "cuda", cuda));
    ADD(cJSON_AddStringToObject(nv, "note", h->gpu_note));
    cJSON *gpus = cJSON_AddArrayToObject(nv, "gpus");
    if (!gpus)
        goto nomem;
    for (size_t i = 0; i < h->gpu_count; i++) {
        const ortkit_gpu *g = h->gpus[i];
        char cc[16];
        snprintf(cc, sizeof cc, "%d.%d", g->cc_major, g->cc_minor);
        cJSON *o = cJSON_CreateObject();
        if (!o || !cJSON_AddItemToArray(gpus, o)) {
            cJSON_Delete(o);
            goto nomem;
        }
        ADD(cJSON_AddStringToObject(o, "name", g->name));
        ADD(cJSON_AddStringToObject(o, "compute_capability", cc));
        ADD(cJSON_AddNumberToObject(o, "memory", (double)g->memory_bytes));
    }

    if (h->tegra) {
        cJSON *j = cJSON_AddObjectToObject(root, "jetson");
        if (!j)
            goto nomem;
        ADD(cJSON_AddStringToObject(j, "l4t", h->l4t_release));
        ADD(cJSON_AddStringToObject(j, "board", h->board));
    }
#undef ADD
    if (!ok)
        goto nomem;
    if (!(*json_out = cJSON_Print(root)))
        goto nomem;
    goto cleanup;
nomem:
    rc = ortkit__error_nomem();
cleanup:
    cJSON_Delete(root);
    return rc;
}

/* Reading is strict: a host file is often written by hand, and a typo
 * ("avx512_bf16", "cpu.feature") must not silently describe another machine.
 * Members that are missing or null keep the values they have. */

static const ortkit__json_reader reader = {"host JSON"};

static int check_keys(const cJSON *obj, const char *where, const char *const *allowed)
{
    return ortkit__json_check_keys(&reader, obj, where, allowed);
}

static int get_object(const cJSON *obj, const char *key, const char *where, const cJSON **out)
{
    return ortkit__json_get_object(&reader, obj, key, where, ORTKIT__JSON_NULLABLE, out);
}

/* Into a field of the host struct, which has a fixed size. */
static int get_string(const cJSON *obj, const char *key, const char *where, char *dst,
                      size_t size)
{
    const char *s;
    int rc = ortkit__json_get_string(&reader, obj, key, where, size - 1, ORTKIT__JSON_NULLABLE, &s);
    if (!rc && s)
        ortkit__host_copy_str(dst, size, s);
    return rc;
}

static int get_uint(const cJSON *obj, const char *key, const char *where, double max,
                    uint64_t *out)
{
    int64_t v = (int64_t)*out;
    int rc = ortkit__json_get_whole(&reader, obj, key, where, 0, max, ORTKIT__JSON_NULLABLE, &v);
    *out = (uint64_t)v;
    return rc;
}

static int get_int(const cJSON *obj, const char *key, const char *where, int max, int *out)
{
    int64_t v = *out;
    int rc = ortkit__json_get_whole(&reader, obj, key, where, 0, max, ORTKIT__JSON_NULLABLE, &v);
    *out = (int)v;
    return rc;
}

/* "570.124.06", "36.4.3": dotted numbers and nothing else. */
static int dotted_ok(const char *s)
{
    ortkit__version v;
    return ortkit__version_parse(&v, s, NULL) == 0;
}

/* "12.8" -> (12, 8), "9.0" -> (9, 0); 0 on success. */
static int parse_major_minor(const char *s, int max_minor, int *major, int *minor)
{
    ortkit__version v;
    if (ortkit__version_parse(&v, s, NULL) != 0 || v.n != 2 || v.part[0] < 1 || v.part[0] > 99 ||
        v.part[1] > max_minor)
        return -1;
    *major = (int)v.part[0];
    *minor = (int)v.part[1];
    return 0;
}

static int read_cpu(ortkit__host_data *h, const cJSON *cpu)
{
    static const char *const keys[] = {"vendor", "model", "logical_cpus", "physical_cores",
                                       "cache", "features", "x86_64_level", NULL};
    static const char *const cache_keys[] = {"l1d", "l1i", "l2", "l3", NULL};
    const double max_cache = 1099511627776.0; /* 1 TiB */
    const cJSON *cache, *features;
    int rc, level = -1;
    if ((rc = check_keys(cpu, "cpu", keys)) || (rc = get_object(cpu, "cache", "cpu", &cache)) ||
        (rc = get_string(cpu, "vendor", "cpu", h->cpu_vendor, sizeof h->cpu_vendor)) ||
        (rc = get_string(cpu, "model", "cpu", h->cpu_model, sizeof h->cpu_model)) ||
        (rc = get_int(cpu, "logical_cpus", "cpu", 1 << 20, &h->logical_cpus)) ||
        (rc = get_int(cpu, "physical_cores", "cpu", 1 << 20, &h->physical_cores)) ||
        (rc = get_int(cpu, "x86_64_level", "cpu", 4, &level)))
        return rc;
    if (cache && ((rc = check_keys(cache, "cpu.cache", cache_keys)) ||
                  (rc = get_uint(cache, "l1d", "cpu.cache", max_cache, &h->cache_l1d)) ||
                  (rc = get_uint(cache, "l1i", "cpu.cache", max_cache, &h->cache_l1i)) ||
                  (rc = get_uint(cache, "l2", "cpu.cache", max_cache, &h->cache_l2)) ||
                  (rc = get_uint(cache, "l3", "cpu.cache", max_cache, &h->cache_l3))))
        return rc;

    features = cJSON_GetObjectItemCaseSensitive(cpu, "features");
    if (features && !cJSON_IsNull(features)) {
        if (!cJSON_IsArray(features))
            return ortkit__error_set(ORTKIT_E_FORMAT,
                                     "host JSON: 'cpu.features' must be an array, not %s",
                                     ortkit__json_type(features));
        int i = 0;
        for (const cJSON *it = features->child; it; it = it->next, i++) {
            if (!cJSON_IsString(it))
                return ortkit__error_set(ORTKIT_E_FORMAT,
                                         "host JSON: cpu.features[%d] must be a string, not %s",
                                         i, ortkit__json_type(it));
            int f = ortkit_cpu_feature_from_name(it->valuestring);
            if (f < 0)
                return ortkit__error_set(ORTKIT_E_FORMAT,
                                         "host JSON: unknown CPU feature '%s' in cpu.features",
                                         it->valuestring);
            if (ortkit_cpu_feature_arch((ortkit_cpu_feature)f) != h->arch)
                return ortkit__error_set(ORTKIT_E_FORMAT,
                                         "host JSON: CPU feature '%s' is for %s, but arch is %s",
                                         it->valuestring, ortkit_arch_name(ortkit_cpu_feature_arch((ortkit_cpu_feature)f)),
                                         ortkit_arch_name(h->arch));
            h->cpu_features |= ORTKIT_CPU_BIT(f);
        }
    }
    if (h->arch != ORTKIT_ARCH_X86_64) {
        if (level > 0)
            return ortkit__error_set(ORTKIT_E_FORMAT,
                                     "host JSON: 'cpu.x86_64_level' given, but arch is %s",
                                     ortkit_arch_name(h->arch));
    } else if (level == 0) {
        return ortkit__error_set(ORTKIT_E_FORMAT,
                                 "host JSON: 'cpu.x86_64_level' must be from 1 to 4, not 0");
    } else {
        /* Absent: what the listed features make. */
        h->x86_64_level = level > 0 ? level : ortkit__host_x86_level(h->cpu_features);
    }
    return 0;
}

/* nvidia.platform: one of the names, and one the architecture can take. */
static int read_platform(ortkit__host_data *h, const char *name)
{
    int p = ortkit_cuda_platform_from_name(name);
    if (p < 0)
        return ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: 'nvidia.platform' must be \"x86_64\", "
                                 "\"sbsa\" or \"l4t\", not \"%s\"", name);
    if ((p == ORTKIT_CUDA_PLATFORM_X86_64) != (h->arch == ORTKIT_ARCH_X86_64))
        return ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: 'nvidia.platform' is \"%s\", but arch "
                                 "is %s", name, ortkit_arch_name(h->arch));
    h->cuda_platform = (ortkit_cuda_platform)p;
    return ORTKIT_OK;
}

static int read_nvidia(ortkit__host_data *h, const cJSON *nv)
{
    static const char *const keys[] = {"platform", "driver", "cuda", "gpus", "note", NULL};
    static const char *const gpu_keys[] = {"name", "compute_capability", "memory", NULL};
    char cuda[16] = "", platform[16] = "";
    int rc;
    if ((rc = check_keys(nv, "nvidia", keys)) ||
        (rc = get_string(nv, "platform", "nvidia", platform, sizeof platform)) ||
        (platform[0] && (rc = read_platform(h, platform))) ||
        (rc = get_string(nv, "driver", "nvidia", h->driver_version, sizeof h->driver_version)) ||
        (rc = get_string(nv, "cuda", "nvidia", cuda, sizeof cuda)) ||
        (rc = get_string(nv, "note", "nvidia", h->gpu_note, sizeof h->gpu_note)))
        return rc;
    if (h->driver_version[0] && !dotted_ok(h->driver_version))
        return ortkit__error_set(ORTKIT_E_FORMAT,
                                 "host JSON: 'nvidia.driver' must look like \"570.124.06\", not \"%s\"",
                                 h->driver_version);
    if (cuda[0]) {
        int major, minor;
        if (parse_major_minor(cuda, 99, &major, &minor))
            return ortkit__error_set(ORTKIT_E_FORMAT,
                                     "host JSON: 'nvidia.cuda' must look like \"12.8\", not \"%s\"",
                                     cuda);
        h->cuda_driver = major * 1000 + minor * 10;
    }
    const cJSON *gpus = cJSON_GetObjectItemCaseSensitive(nv, "gpus");
    if (!gpus || cJSON_IsNull(gpus))
        return 0;
    if (!cJSON_IsArray(gpus))
        return ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: 'nvidia.gpus' must be an array, not %s",
                                 ortkit__json_type(gpus));
    if (cJSON_GetArraySize(gpus) > ORTKIT__HOST_MAX_GPUS)
        return ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: 'nvidia.gpus' lists %d GPUs; at most %d",
                                 cJSON_GetArraySize(gpus), ORTKIT__HOST_MAX_GPUS);
    for (const cJSON *it = gpus->child; it; it = it->next) {
        char where[32], cc[16] = "";
        ortkit__gpu_data *g = &h->gpus[h->gpu_count];
        snprintf(where, sizeof where, "nvidia.gpus[%d]", h->gpu_count);
        if (!cJSON_IsObject(it))
            return ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: '%s' must be an object, not %s",
                                     where, ortkit__json_type(it));
        if ((rc = check_keys(it, where, gpu_keys)) ||
            (rc = get_string(it, "name", where, g->name, sizeof g->name)) ||
            (rc = get_string(it, "compute_capability", where, cc, sizeof cc)) ||
            (rc = get_uint(it, "memory", where, 9007199254740992.0, &g->memory_bytes)))
            return rc;
        if (parse_major_minor(cc, 9, &g->cc_major, &g->cc_minor))
            return ortkit__error_set(ORTKIT_E_FORMAT,
                                     "host JSON: '%s.compute_capability' must look like \"9.0\", not \"%s\"",
                                     where, cc);
        h->gpu_count++;
    }
    return 0;
}

/* os.libraries: file names, as the dynamic loader looks them up. */
static int read_libraries(ortkit__host_data *h, const cJSON *os)
{
    const cJSON *libs = cJSON_GetObjectItemCaseSensitive(os, "libraries");
    if (!libs)
        return ORTKIT_OK;
    int n = cJSON_IsArray(libs) ? cJSON_GetArraySize(libs) : -1;
    if (n < 0 || n > 100000)
        return ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: 'os.libraries' must be an array of "
                                 "at most 100000 library file names");
    char **list = calloc((size_t)n + 1, sizeof *list);
    if (!list)
        return ortkit__error_nomem();
    size_t k = 0;
    int rc = ORTKIT_OK;
    for (const cJSON *l = libs->child; l; l = l->next) {
        const char *s = cJSON_IsString(l) ? l->valuestring : NULL;
        size_t len = s ? strlen(s) : 0;
        int ok = len > 0 && len <= 255 && !strchr(s, '/');
        for (size_t i = 0; ok && i < len; i++)
            ok = (unsigned char)s[i] > 0x20 && (unsigned char)s[i] < 0x7f;
        if (!ok) {
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: 'os.libraries' must hold library "
                                   "file names like \"libm.so.6\"");
            break;
        }
        if (!(list[k] = strdup(s))) {
            rc = ortkit__error_nomem();
            break;
        }
        k++;
    }
    if (rc) {
        for (size_t i = 0; i < k; i++)
            free(list[i]);
        free(list);
        return rc;
    }
    return ortkit__host_set_libraries(h, list, k);
}

int ortkit_host_from_json(ortkit_host **out, const char *json)
{
    static const char *const keys[] = {"schema", "arch", "cpu", "memory", "os",
                                       "nvidia", "jetson", NULL};
    static const char *const mem_keys[] = {"total", "available", NULL};
    static const char *const os_keys[] = {"name", "release", "distro", "glibc", "glibcxx",
                                          "libraries", NULL};
    static const char *const jetson_keys[] = {"l4t", "board", NULL};
    const double max_mem = 9007199254740992.0; /* 2^53: exact in JSON numbers */
    if (!out || !json)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_host_from_json: NULL argument");
    *out = NULL;

    ortkit__host_data h;
    memset(&h, 0, sizeof h);
    const char *end = NULL;
    size_t escaped = 0;
    if (ortkit__json_nul_escape(json, strlen(json), &escaped))
        return ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: a string holds \\u0000 at byte %zu: "
                                 "control characters are refused", escaped);
    cJSON *root = cJSON_ParseWithOpts(json, &end, 1);
    int rc = ORTKIT_OK;
    const cJSON *cpu, *mem, *os, *nv, *jet;
    if (!root) {
        int line = 1, col = 1;
        for (const char *p = json; end && p < end && *p; p++, col++)
            if (*p == '\n')
                line++, col = 0;
        if (ortkit__json_too_deep(json, end))
            return ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: arrays and objects nest deeper "
                                     "than %d levels, the most ortkit reads (at line %d, column %d)",
                                     ortkit__json_depth_limit(), line, col);
        return ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: syntax error at line %d, column %d",
                                 line, col);
    }
    if (!cJSON_IsObject(root)) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: must be an object, not %s",
                               ortkit__json_type(root));
        goto cleanup;
    }
    uint64_t schema = HOST_JSON_SCHEMA;
    char arch[16] = "";
    if ((rc = check_keys(root, "", keys)) || (rc = get_uint(root, "schema", "", 1e6, &schema)) ||
        (rc = get_string(root, "arch", "", arch, sizeof arch)))
        goto cleanup;
    if (schema != HOST_JSON_SCHEMA) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: schema %llu is not known (this ortkit reads %d)",
                               (unsigned long long)schema, HOST_JSON_SCHEMA);
        goto cleanup;
    }
    if (!strcmp(arch, "x86_64"))
        h.arch = ORTKIT_ARCH_X86_64;
    else if (!strcmp(arch, "aarch64") || !strcmp(arch, "arm64"))
        h.arch = ORTKIT_ARCH_AARCH64;
    else {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: 'arch' must be \"x86_64\" or \"aarch64\"%s%s%s",
                               arch[0] ? ", not \"" : " and is missing", arch, arch[0] ? "\"" : "");
        goto cleanup;
    }
    if ((rc = get_object(root, "cpu", "", &cpu)) || (rc = get_object(root, "memory", "", &mem)) ||
        (rc = get_object(root, "os", "", &os)) || (rc = get_object(root, "nvidia", "", &nv)) ||
        (rc = get_object(root, "jetson", "", &jet)))
        goto cleanup;
    if (cpu && (rc = read_cpu(&h, cpu)))
        goto cleanup;
    if (!cpu && h.arch == ORTKIT_ARCH_X86_64)
        h.x86_64_level = 1;
    if (mem && ((rc = check_keys(mem, "memory", mem_keys)) ||
                (rc = get_uint(mem, "total", "memory", max_mem, &h.mem_total)) ||
                (rc = get_uint(mem, "available", "memory", max_mem, &h.mem_available))))
        goto cleanup;
    if (os && ((rc = check_keys(os, "os", os_keys)) ||
               (rc = get_string(os, "name", "os", h.os_name, sizeof h.os_name)) ||
               (rc = get_string(os, "release", "os", h.os_release, sizeof h.os_release)) ||
               (rc = get_string(os, "distro", "os", h.os_distro, sizeof h.os_distro)) ||
               (rc = get_string(os, "glibc", "os", h.glibc, sizeof h.glibc)) ||
               (rc = get_string(os, "glibcxx", "os", h.glibcxx, sizeof h.glibcxx)) ||
               (rc = read_libraries(&h, os))))
        goto cleanup;
    if (nv && (rc = read_nvidia(&h, nv)))
        goto cleanup;
    if (jet) {
        if ((rc = check_keys(jet, "jetson", jetson_keys)) ||
            (rc = get_string(jet, "l4t", "jetson", h.l4t_release, sizeof h.l4t_release)) ||
            (rc = get_string(jet, "board", "jetson", h.board, sizeof h.board)))
            goto cleanup;
        if (!dotted_ok(h.l4t_release)) {
            rc = ortkit__error_set(ORTKIT_E_FORMAT,
                                   "host JSON: 'jetson.l4t' must look like \"36.4.3\", not \"%s\"",
                                   h.l4t_release);
            goto cleanup;
        }
        h.tegra = 1;
    }
    /* Absent in descriptions written before it: what the rest says. */
    if (!h.cuda_platform)
        h.cuda_platform = ortkit__host_platform_of(h.arch, h.tegra, h.l4t_release);
    else if (h.cuda_platform == ORTKIT_CUDA_PLATFORM_L4T && !h.tegra) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: 'nvidia.platform' is \"l4t\", Jetson's "
                               "own CUDA, but there is no 'jetson' section with its L4T release");
        goto cleanup;
    }
    ortkit__host_data *d = ortkit__host_new();
    if (!d) {
        rc = ORTKIT_E_NOMEM;
        goto cleanup;
    }
    *d = h;
    h.libraries = NULL; /* the new host's now */
    h.library_count = 0;
    *out = ortkit__host_publish(d);
cleanup:
    ortkit__host_libraries_free(&h);
    cJSON_Delete(root);
    return rc;
}

int ortkit_host_load(ortkit_host **out, const char *path)
{
    if (!out || !path)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_host_load: NULL argument");
    *out = NULL;
    char *text = NULL;
    size_t size;
    int rc = ortkit__file_read(&text, &size, path, 1 << 20);
    if (rc != 0)
        return rc;
    if (strlen(text) != size)
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s': host JSON holds a NUL byte", path);
    else if ((rc = ortkit_host_from_json(out, text)) != 0)
        ortkit__error_wrap(rc, "'%s'", path);
    free(text);
    return rc;
}
