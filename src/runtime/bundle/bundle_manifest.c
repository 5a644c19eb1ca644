/*
 * bundle_manifest.c - manifest.json: read it strictly, and write it.
 *
 * A manifest may come from anywhere (a download, a hand edit), so reading
 * trusts nothing: unknown keys, wrong types, fractions, numbers out of
 * range, paths that leave the bundle and a library that is not listed are
 * all refused with a message naming the key.
 */
#include "bundle.h"
#include "bundle_gpu.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STR_MAX 1024   /* any string in a manifest */
#define PROVIDERS_MAX 64
/* DT_NEEDED names a manifest may list as needed of the host. */
#define NEEDS_LIBRARIES_MAX 1024

/* ---- reading ---------------------------------------------------------------- */

typedef struct reader {
    ortkit__json_reader json; /* what: "'/x/manifest.json'" */
    ortkit_bundle *b;
} reader;

#define FAIL(r, ...) ortkit__json_fail(&(r)->json, __VA_ARGS__)

static int check_keys(const reader *r, const cJSON *obj, const char *where,
                      const char *const *allowed)
{
    return ortkit__json_check_keys(&r->json, obj, where, allowed);
}

static const cJSON *member(const cJSON *obj, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(obj, key);
}

/* A whole number in [min, max]; JSON numbers are doubles, so 2^53 bounds all. */
static int get_int(const reader *r, const cJSON *obj, const char *key, const char *where,
                   double min, double max, int64_t *out)
{
    return ortkit__json_get_whole(&r->json, obj, key, where, min, max, ORTKIT__JSON_REQUIRED, out);
}

/* A string without control characters, at most max bytes, kept with the
 * bundle; "" when it is missing (or null, if nullable). */
static int get_str(const reader *r, const cJSON *obj, const char *key, const char *where,
                   size_t max, int required, int nullable, const char **out)
{
    const char *s;
    int flags = ORTKIT__JSON_PLAIN | (required ? ORTKIT__JSON_REQUIRED : 0) |
                (nullable ? ORTKIT__JSON_NULLABLE : 0);
    int rc = ortkit__json_get_string(&r->json, obj, key, where, max, flags, &s);
    *out = "";
    if (rc || !s)
        return rc;
    if (!(*out = ortkit__bundle_keep(r->b, s)))
        return ortkit__error_nomem();
    return ORTKIT_OK;
}

static int get_bool(const reader *r, const cJSON *obj, const char *key, const char *where, int *out)
{
    *out = 0;
    return ortkit__json_get_bool(&r->json, obj, key, where, 0, out);
}

/* "1.30.0" (maybe with a suffix: "1.22.0-dev"): major and minor. */
static int parse_version(const char *s, int *major, int *minor)
{
    ortkit__version v;
    const char *rest;
    if (ortkit__version_parse(&v, s, &rest) != 0 || v.n < 2 || v.part[0] > 1000 ||
        v.part[1] > 100000 || (*rest && *rest != '-' && *rest != '+'))
        return -1;
    *major = (int)v.part[0];
    *minor = (int)v.part[1];
    return 0;
}

/* "12.9" -> (12, 9); "9.0" -> (9, 0): exactly two parts. */
static int parse_dotted_pair(const char *s, int *a, int *b)
{
    ortkit__version v;
    if (ortkit__version_parse(&v, s, NULL) != 0 || v.n != 2 || v.part[0] > 999 || v.part[1] > 99)
        return -1;
    *a = (int)v.part[0];
    *b = (int)v.part[1];
    return 0;
}

/* A path inside the bundle: relative, no "." or ".." parts, no empty parts,
 * only top-level files or files under lib/ and include/. */
static int path_ok(const char *p, const char **why)
{
    if (!p[0])
        return *why = "is empty", 0;
    if (p[0] == '/')
        return *why = "is absolute", 0;
    if (strchr(p, '\\'))
        return *why = "holds a backslash", 0;
    for (const char *c = p; *c;) {
        size_t n = strcspn(c, "/");
        if (n == 0)
            return *why = "has an empty part", 0;
        if ((n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
            return *why = "leaves the bundle", 0;
        if (n > 255)
            return *why = "has a part longer than 255 bytes", 0;
        c += n;
        if (*c == '/' && !*++c)
            return *why = "ends with '/'", 0;
    }
    if (!strcmp(p, BUNDLE_MANIFEST))
        return *why = "is the manifest itself", 0;
    if (strchr(p, '/') && strncmp(p, "lib/", 4) && strncmp(p, "include/", 8))
        return *why = "is outside lib/ and include/", 0;
    return 1;
}

static int cmp_files(const void *a, const void *b)
{
    return strcmp(((const ortkit_bundle_file *)a)->path, ((const ortkit_bundle_file *)b)->path);
}

static int read_files(const reader *r, const cJSON *arr)
{
    ortkit_manifest *m = &r->b->m;
    if (!cJSON_IsArray(arr))
        return FAIL(r, "'files' must be an array");
    int n = cJSON_GetArraySize(arr);
    if (n < 1 || n > BUNDLE_MAX_FILES)
        return FAIL(r, "'files' has %d entries; expected 1 to %d", n, BUNDLE_MAX_FILES);
    ortkit_bundle_file *files = calloc((size_t)n, sizeof *files);
    if (!files)
        return ortkit__error_nomem();
    m->files = files;
    static const char *const keys[] = {"path", "size", "sha256", "link", NULL};
    int i = 0;
    for (const cJSON *f = arr->child; f; f = f->next, i++) {
        char where[32];
        snprintf(where, sizeof where, "files[%d]", i);
        if (!cJSON_IsObject(f))
            return FAIL(r, "'files[%d]' must be an object", i);
        int rc = check_keys(r, f, where, keys);
        if (!rc)
            rc = get_str(r, f, "path", where, STR_MAX, 1, 0, &files[i].path);
        if (rc)
            return rc;
        const char *why;
        if (!path_ok(files[i].path, &why))
            return FAIL(r, "files[%d].path '%.200s' %s", i, files[i].path, why);
        if (member(f, "link")) {
            if (member(f, "size") || member(f, "sha256"))
                return FAIL(r, "files[%d] is a link and has a size or SHA-256", i);
            if ((rc = get_str(r, f, "link", where, 255, 1, 0, &files[i].link)))
                return rc;
            const char *t = files[i].link;
            if (!t[0] || strchr(t, '/') || !strcmp(t, ".") || !strcmp(t, ".."))
                return FAIL(r, "files[%d].link '%.200s' must name a file in the same directory", i, t);
            files[i].sha256 = "";
            continue;
        }
        int64_t size;
        if ((rc = get_int(r, f, "size", where, 0, 9007199254740991.0, &size)) ||
            (rc = get_str(r, f, "sha256", where, 64, 1, 0, &files[i].sha256)))
            return rc;
        files[i].size = (uint64_t)size;
        files[i].link = "";
        if (strlen(files[i].sha256) != 64 ||
            strspn(files[i].sha256, "0123456789abcdef") != 64)
            return FAIL(r, "files[%d].sha256 must be 64 lowercase hex digits", i);
    }
    m->file_count = (size_t)n;
    qsort(files, m->file_count, sizeof *files, cmp_files);
    for (size_t k = 1; k < m->file_count; k++)
        if (!strcmp(files[k - 1].path, files[k].path))
            return FAIL(r, "'%.200s' is listed twice in 'files'", files[k].path);
    /* Each link points at a listed file of its directory; chains end in a file. */
    for (size_t k = 0; k < m->file_count; k++) {
        const ortkit_bundle_file *f = &files[k];
        for (int depth = 0; f->link[0]; depth++) {
            char target[2 * STR_MAX];
            const char *slash = strrchr(f->path, '/');
            snprintf(target, sizeof target, "%.*s%s", slash ? (int)(slash - f->path + 1) : 0,
                     f->path, f->link);
            const ortkit_bundle_file *t = ortkit__bundle_file(m, target);
            if (!t)
                return FAIL(r, "'%.200s' links to '%.200s', which is not listed", f->path, target);
            if (depth > 8)
                return FAIL(r, "'%.200s': links form a loop", files[k].path);
            f = t;
        }
    }
    return ORTKIT_OK;
}

static int read_requires(const reader *r, const cJSON *req)
{
    ortkit_manifest *m = &r->b->m;
    static const char *const keys[] = {"arch", "cpu_features", "cuda", "compute_capability",
                                       "exact_sm_only", "jetson", "min_driver", NULL};
    if (!cJSON_IsObject(req))
        return FAIL(r, "'requires' must be an object");
    const char *s;
    int rc = check_keys(r, req, "requires", keys);
    if (!rc)
        rc = get_str(r, req, "arch", "requires", 16, 1, 0, &s);
    if (rc)
        return rc;
    if (!strcmp(s, "x86_64"))
        m->arch = ORTKIT_ARCH_X86_64;
    else if (!strcmp(s, "aarch64"))
        m->arch = ORTKIT_ARCH_AARCH64;
    else
        return FAIL(r, "requires.arch '%s' is not x86_64 or aarch64", s);

    const cJSON *feats = member(req, "cpu_features");
    if (feats && !cJSON_IsArray(feats))
        return FAIL(r, "'requires.cpu_features' must be an array of feature names");
    for (const cJSON *f = feats ? feats->child : NULL; f; f = f->next) {
        if (!cJSON_IsString(f))
            return FAIL(r, "'requires.cpu_features' must hold feature names (strings)");
        int id = ortkit_cpu_feature_from_name(f->valuestring);
        if (id < 0)
            return FAIL(r, "unknown CPU feature '%.64s' in requires.cpu_features", f->valuestring);
        if (ortkit_cpu_feature_arch((ortkit_cpu_feature)id) != m->arch)
            return FAIL(r, "CPU feature '%s' in requires.cpu_features is not a feature of %s",
                        f->valuestring, ortkit_arch_name(m->arch));
        m->cpu_features |= ORTKIT_CPU_BIT(id);
    }

    int a, b;
    if ((rc = get_str(r, req, "cuda", "requires", 16, 0, 1, &s)))
        return rc;
    if (s[0]) {
        if (parse_dotted_pair(s, &a, &b) || a < 1 || a > 99 || b > 9)
            return FAIL(r, "requires.cuda '%s' is not a CUDA version like \"12.9\"", s);
        m->cuda = a * 1000 + b * 10;
    }
    if ((rc = get_str(r, req, "compute_capability", "requires", 16, 0, 1, &s)))
        return rc;
    if (s[0]) {
        if (parse_dotted_pair(s, &a, &b) || a < 1 || a > 99 || b > 9)
            return FAIL(r, "requires.compute_capability '%s' is not like \"9.0\"", s);
        m->sm = a * 10 + b;
    }
    if (!m->cuda != !m->sm)
        return FAIL(r, "requires.cuda and requires.compute_capability go together");
    if ((rc = get_bool(r, req, "exact_sm_only", "requires", &m->sm_exact)) ||
        (rc = get_bool(r, req, "jetson", "requires", &m->tegra)) ||
        (rc = get_str(r, req, "min_driver", "requires", 32, 0, 1, &m->min_driver)))
        return rc;
    if (m->min_driver[0] && strspn(m->min_driver, "0123456789.") != strlen(m->min_driver))
        return FAIL(r, "requires.min_driver '%s' is not a version like \"525.60.13\"", m->min_driver);
    return ORTKIT_OK;
}

/* The CUDA a CUDA build is made with, where gpu.platform did not say: a
 * variant's follows from requires.jetson and the architecture; an aarch64
 * GPU release without the key stays unknown (SBSA or L4T: its binaries
 * were never asked). */
static void set_platform(ortkit_manifest *m)
{
    if (!m->cuda || m->cuda_platform)
        return;
    if (m->arch == ORTKIT_ARCH_X86_64)
        m->cuda_platform = ORTKIT_CUDA_PLATFORM_X86_64;
    else if (m->tegra)
        m->cuda_platform = ORTKIT_CUDA_PLATFORM_L4T;
    else if (!m->gpu_known)
        m->cuda_platform = ORTKIT_CUDA_PLATFORM_SBSA;
}

/* Does the gpu key list SASS of that name ("sm_90a")? */
static int has_sass(const ortkit_manifest *m, const char *name)
{
    for (size_t i = 0; i < m->gpu_sass_count; i++)
        if (!strcmp(m->gpu_sass[i], name))
            return 1;
    return 0;
}

/* A known variant fixes the architecture, CUDA release and GPU target; a
 * manifest that says otherwise has been edited or is broken.  A CUDA build
 * imported with its providers' evidence (`ortkit build`) has its CUDA and
 * GPU code in "gpu": the variant's CUDA major and its SASS must be there. */
static int check_variant(const reader *r)
{
    const ortkit_manifest *m = &r->b->m;
    if (!strcmp(m->variant, "cpu")) {
        if (m->cuda)
            return FAIL(r, "variant 'cpu' cannot require CUDA");
        return ORTKIT_OK;
    }
    const ortkit_variant *v;
    if (ortkit_variant_parse(&v, m->variant) != 0)
        return ORTKIT_OK; /* a variant this ortkit does not know: selection says so */
    int gpu_ok = m->gpu_known ? v->cuda && v->cuda / 1000 == m->gpu_cuda / 1000 && has_sass(m, v->cubin)
                              : v->cuda == m->cuda && v->sm == m->sm;
    if (v->arch != m->arch || !gpu_ok || v->tegra != m->tegra || v->cuda_platform != m->cuda_platform ||
        (v->cpu_features & ~m->cpu_features))
        return FAIL(r, "'requires' does not match variant %s, which is built for %s%s%s",
                    v->name, ortkit_arch_name(v->arch), v->cuda ? " and SM " : "",
                    v->cuda ? v->cuda_architectures : "");
    return ORTKIT_OK;
}

/* A symbol version's number: dotted digits, "2.28", "3.4.22". */
static int symbol_version_ok(const char *s)
{
    size_t n = strlen(s);
    return n && strspn(s, "0123456789.") == n && s[0] != '.' && s[n - 1] != '.' && !strstr(s, "..");
}

/* "needs": what loading the bundle's ELF files needs of a host. */
/* A JSON array of at most max names (key names it in the messages; like,
 * what a name looks like), each checked by ok, into *out (ended by NULL,
 * the strings kept by the bundle) and *count. */
static int read_names(const reader *r, const cJSON *arr, const char *key, int max,
                      int (*ok)(const char *), const char *like, const char *const **out,
                      size_t *count)
{
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) > max)
        return FAIL(r, "'%s' must be an array of at most %d names", key, max);
    const char **list = calloc((size_t)cJSON_GetArraySize(arr) + 1, sizeof *list);
    if (!list)
        return ortkit__error_nomem();
    *out = list;
    for (const cJSON *it = arr->child; it; it = it->next) {
        if (!cJSON_IsString(it) || !ok(it->valuestring))
            return FAIL(r, "'%s' must hold %s", key, like);
        if (!(list[(*count)++] = ortkit__bundle_keep(r->b, it->valuestring)))
            return ortkit__error_nomem();
    }
    return ORTKIT_OK;
}

static int read_needs(const reader *r, const cJSON *needs)
{
    ortkit_manifest *m = &r->b->m;
    static const char *const keys[] = {"glibc", "glibcxx", "cxxabi", "libraries", "exec_stack", NULL};
    if (!cJSON_IsObject(needs))
        return FAIL(r, "'needs' must be an object");
    int rc = check_keys(r, needs, "needs", keys);
    static const char *const names[] = {"glibc", "glibcxx", "cxxabi"};
    const char **fields[] = {&m->needs_glibc, &m->needs_glibcxx, &m->needs_cxxabi};
    for (size_t i = 0; !rc && i < 3; i++) {
        if ((rc = get_str(r, needs, names[i], "needs", 24, 0, 1, fields[i])))
            break;
        if ((*fields[i])[0] && !symbol_version_ok(*fields[i]))
            return FAIL(r, "needs.%s '%s' is not a version like \"%s\"", names[i], *fields[i],
                        i == 0 ? "2.28" : i == 1 ? "3.4.22" : "1.3.11");
    }
    if (rc)
        return rc;
    const cJSON *libs = member(needs, "libraries");
    if (libs && (rc = read_names(r, libs, "needs.libraries", NEEDS_LIBRARIES_MAX,
                                 ortkit__bundle_library_name_ok,
                                 "library file names like \"libm.so.6\"", &m->needs_libraries,
                                 &m->needs_library_count)))
        return rc;
    if ((rc = get_bool(r, needs, "exec_stack", "needs", &m->needs_exec_stack)))
        return rc;
    m->needs_known = 1;
    return ORTKIT_OK;
}

/* "onnxruntime": the version, its API level (which must match it), how the
 * version was learnt; and "headers", when the bundle carries newer ones. */
static int read_onnxruntime(const reader *r, const cJSON *root)
{
    ortkit_manifest *m = &r->b->m;
    int64_t level;
    int rc;
    const cJSON *ort = member(root, "onnxruntime");
    static const char *const ort_keys[] = {"version", "api_level", "version_from", NULL};
    if (!ort)
        return FAIL(r, "missing 'onnxruntime'");
    if (!cJSON_IsObject(ort))
        return FAIL(r, "'onnxruntime' must be an object");
    int major, minor;
    if ((rc = check_keys(r, ort, "onnxruntime", ort_keys)) ||
        (rc = get_str(r, ort, "version", "onnxruntime", 32, 1, 0, &m->ort_version)) ||
        (rc = get_int(r, ort, "api_level", "onnxruntime", 1, 1000, &level)) ||
        (rc = get_str(r, ort, "version_from", "onnxruntime", 160, 0, 0, &m->version_from)))
        return rc;
    if (parse_version(m->ort_version, &major, &minor))
        return FAIL(r, "onnxruntime.version '%s' is not a version like \"1.30.0\"", m->ort_version);
    if (major == 1 && level != minor)
        return FAIL(r, "onnxruntime.api_level %lld does not match version %s (API %d)",
                    (long long)level, m->ort_version, minor);
    m->api_level = (int)level;

    const cJSON *hdr = member(root, "headers");
    static const char *const hdr_keys[] = {"api_level", NULL};
    if (hdr) {
        if (!cJSON_IsObject(hdr))
            return FAIL(r, "'headers' must be an object");
        if ((rc = check_keys(r, hdr, "headers", hdr_keys)) ||
            (rc = get_int(r, hdr, "api_level", "headers", 1, 1000, &level)))
            return rc;
        m->headers_api_level = (int)level;
    }
    return ORTKIT_OK;
}

/* A provider's name: letters, digits and '_', at most 64. */
static int provider_name_ok(const char *s)
{
    return s[0] && strlen(s) <= 64 &&
           strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(s);
}

/* "providers": the execution providers the runtime lists, by name. */
static int read_providers(const reader *r, const cJSON *prov)
{
    ortkit_manifest *m = &r->b->m;
    return read_names(r, prov, "providers", PROVIDERS_MAX, provider_name_ok,
                      "provider names like \"CPUExecutionProvider\"", &m->providers,
                      &m->provider_count);
}

static int read_manifest(const reader *r, const cJSON *root)
{
    ortkit_manifest *m = &r->b->m;
    static const char *const keys[] = {"schema", "name", "created_by", "onnxruntime", "headers",
                                       "variant", "requires", "library", "providers", "files",
                                       "needs", "verified_by_loading", "gpu", "linkage", "parts",
                                       "build",
                                       NULL};
    if (!cJSON_IsObject(root))
        return FAIL(r, "not a JSON object");
    int64_t schema;
    int rc = get_int(r, root, "schema", "", 0, 1e9, &schema);
    if (rc)
        return rc;
    if (schema != ORTKIT_BUNDLE_SCHEMA)
        return FAIL(r, "schema %lld is not %d, the one this ortkit reads", (long long)schema,
                    ORTKIT_BUNDLE_SCHEMA);
    m->schema = (int)schema;
    if ((rc = check_keys(r, root, "", keys)) ||
        (rc = get_str(r, root, "name", "", BUNDLE_NAME_MAX, 1, 0, &m->name)) ||
        (rc = get_str(r, root, "created_by", "", 64, 0, 0, &m->created_by)) ||
        (rc = get_str(r, root, "variant", "", 64, 1, 0, &m->variant)) ||
        (rc = get_str(r, root, "library", "", STR_MAX, 1, 0, &m->library)))
        return rc;
    if (!ortkit__bundle_name_ok(m->name))
        return FAIL(r, "name '%s' is not a bundle name (letters, digits, '.', '_', '+', '-')",
                    m->name);

    if ((rc = read_onnxruntime(r, root)))
        return rc;

    const cJSON *req = member(root, "requires");
    if (!req)
        return FAIL(r, "missing 'requires'");
    if ((rc = read_requires(r, req)))
        return rc;

    const cJSON *prov = member(root, "providers");
    if (prov && (rc = read_providers(r, prov)))
        return rc;

    m->needs_glibc = m->needs_glibcxx = m->needs_cxxabi = "";
    const cJSON *needs = member(root, "needs");
    if (needs && (rc = read_needs(r, needs)))
        return rc;

    /* Absent in manifests written before it: those were all made by loading. */
    m->verified_by_loading = 1;
    if (member(root, "verified_by_loading") &&
        (rc = get_bool(r, root, "verified_by_loading", "", &m->verified_by_loading)))
        return rc;

    /* Absent in every manifest before static bundles: a shared library. */
    m->linkage = "shared";
    if (member(root, "linkage") &&
        (rc = get_str(r, root, "linkage", "", 16, 1, 0, &m->linkage)))
        return rc;
    int is_static = !strcmp(m->linkage, "static");
    if (!is_static && strcmp(m->linkage, "shared"))
        return FAIL(r, "linkage '%.16s' is neither \"shared\" nor \"static\"", m->linkage);

    const cJSON *files = member(root, "files");
    if (!files)
        return FAIL(r, "missing 'files'");
    if ((rc = read_files(r, files)))
        return rc;
    const ortkit_bundle_file *lib = ortkit__bundle_file(m, m->library);
    if (!lib)
        return FAIL(r, "library '%.200s' is not listed in 'files'", m->library);
    if (is_static ? strcmp(m->library, "lib/libonnxruntime.a") != 0
                  : strncmp(m->library, "lib/libonnxruntime.so", 21) || strchr(m->library + 4, '/'))
        return FAIL(r, "library '%.200s' is not %s", m->library,
                    is_static ? "lib/libonnxruntime.a (a static bundle)" : "lib/libonnxruntime.so*");
    if (lib->link[0])
        return FAIL(r, "library '%.200s' must be a file, not a link", m->library);
    const cJSON *gpu = member(root, "gpu");
    if (gpu && (rc = ortkit__manifest_gpu_read(&r->json, r->b, gpu)))
        return rc;
    /* Absent before 0.4, and in bundles without provider libraries. */
    const cJSON *parts = member(root, "parts");
    if (parts && (rc = ortkit__manifest_parts_read(&r->json, r->b, parts)))
        return rc;
    /* Absent in bundles ortkit did not build. */
    const cJSON *build = member(root, "build");
    if (build && (rc = ortkit__manifest_build_read(&r->json, r->b, build)))
        return rc;
    set_platform(&r->b->m);
    return check_variant(r);
}

int ortkit__bundle_parse(ortkit_bundle **out, const char *json, size_t size, const char *what)
{
    *out = NULL;
    if (size > BUNDLE_MANIFEST_MAX)
        return ortkit__error_set(ORTKIT_E_FORMAT, "%s: larger than %zu bytes", what,
                                 BUNDLE_MANIFEST_MAX);
    ortkit_bundle *b = calloc(1, sizeof *b);
    if (!b)
        return ortkit__error_nomem();
    reader r = {{what}, b};
    int rc = ORTKIT_OK;
    cJSON *root = NULL;
    /* cJSON ends a string at a NUL byte and stops reading after the first
     * value: neither may hide part of a manifest. */
    const char *nul = memchr(json, '\0', size), *end = NULL;
    size_t escaped = 0;
    if (nul) {
        rc = FAIL(&r, "not valid JSON (a NUL byte at byte %zu)", (size_t)(nul - json));
        goto cleanup;
    }
    if (ortkit__json_nul_escape(json, size, &escaped)) {
        rc = FAIL(&r, "a string holds \\u0000 at byte %zu: control characters are refused",
                  escaped);
        goto cleanup;
    }
    root = cJSON_ParseWithLengthOpts(json, size, &end, 0);
    if (!root) {
        const char *at = cJSON_GetErrorPtr();
        size_t off = at && at >= json && at <= json + size ? (size_t)(at - json) : size;
        rc = ortkit__json_too_deep(json, json + off)
                 ? FAIL(&r, "not valid JSON: nested deeper than %d levels", ortkit__json_depth_limit())
                 : FAIL(&r, "not valid JSON (near byte %zu)", off);
        goto cleanup;
    }
    while (end < json + size && strchr(" \t\r\n", *end))
        end++;
    if (end != json + size) {
        rc = FAIL(&r, "not valid JSON (text after the value at byte %zu)", (size_t)(end - json));
        goto cleanup;
    }
    if ((rc = read_manifest(&r, root)))
        goto cleanup;
    if (!(b->m.dir = ortkit__bundle_keep(b, "")) || !(b->library_path = strdup(""))) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    if (!b->m.created_by[0] && !(b->m.created_by = ortkit__bundle_keep(b, "")))
        rc = ortkit__error_nomem();
    /* The manifest as read, for what remembers a bundle by its contents. */
    if (!rc)
        rc = ortkit__sha256_hex(b->manifest_sha256, json, size);
cleanup:
    cJSON_Delete(root);
    if (rc)
        ortkit_bundle_free(b);
    else
        *out = b;
    return rc;
}

int ortkit_bundle_parse(ortkit_bundle **out, const char *json, size_t size)
{
    if (!out || !json)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_bundle_parse: NULL argument");
    return ortkit__bundle_parse(out, json, size, "manifest");
}

/* ---- writing ----------------------------------------------------------------- */

static cJSON *string_or_null(const char *s) { return s && s[0] ? cJSON_CreateString(s) : cJSON_CreateNull(); }

int ortkit__bundle_to_json(char **out, const ortkit_manifest *m)
{
    *out = NULL;
    char text[32];
    cJSON *root = cJSON_CreateObject(), *o;
    if (!root)
        return ortkit__error_nomem();
    cJSON_AddNumberToObject(root, "schema", m->schema);
    cJSON_AddStringToObject(root, "name", m->name);
    cJSON_AddStringToObject(root, "created_by", m->created_by);
    if ((o = cJSON_AddObjectToObject(root, "onnxruntime"))) {
        cJSON_AddStringToObject(o, "version", m->ort_version);
        cJSON_AddNumberToObject(o, "api_level", m->api_level);
        if (m->version_from && m->version_from[0])
            cJSON_AddStringToObject(o, "version_from", m->version_from);
    }
    if (m->headers_api_level && (o = cJSON_AddObjectToObject(root, "headers")))
        cJSON_AddNumberToObject(o, "api_level", m->headers_api_level);
    cJSON_AddStringToObject(root, "variant", m->variant);
    if ((o = cJSON_AddObjectToObject(root, "requires"))) {
        cJSON_AddStringToObject(o, "arch", ortkit_arch_name(m->arch));
        cJSON *feats = cJSON_AddArrayToObject(o, "cpu_features");
        for (int f = 0; feats && f < ORTKIT_CPU_FEATURE_COUNT; f++)
            if (m->cpu_features & ORTKIT_CPU_BIT(f))
                cJSON_AddItemToArray(feats, cJSON_CreateString(ortkit_cpu_feature_name((ortkit_cpu_feature)f)));
        snprintf(text, sizeof text, "%d.%d", m->cuda / 1000, (m->cuda % 1000) / 10);
        /* A GPU release's CUDA is in "gpu", with its many targets. */
        cJSON_AddItemToObject(o, "cuda", string_or_null(m->cuda && !m->gpu_known ? text : NULL));
        snprintf(text, sizeof text, "%d.%d", m->sm / 10, m->sm % 10);
        cJSON_AddItemToObject(o, "compute_capability", string_or_null(m->sm ? text : NULL));
        cJSON_AddBoolToObject(o, "exact_sm_only", m->sm_exact);
        cJSON_AddBoolToObject(o, "jetson", m->tegra);
        cJSON_AddItemToObject(o, "min_driver", string_or_null(m->min_driver));
    }
    cJSON_AddStringToObject(root, "library", m->library);
    /* Written only for a static bundle: shared ones stay as they always were. */
    if (m->linkage && !strcmp(m->linkage, "static"))
        cJSON_AddStringToObject(root, "linkage", "static");
    cJSON *prov = cJSON_AddArrayToObject(root, "providers");
    for (size_t i = 0; prov && i < m->provider_count; i++)
        cJSON_AddItemToArray(prov, cJSON_CreateString(m->providers[i]));
    if (m->needs_known && (o = cJSON_AddObjectToObject(root, "needs"))) {
        cJSON_AddItemToObject(o, "glibc", string_or_null(m->needs_glibc));
        cJSON_AddItemToObject(o, "glibcxx", string_or_null(m->needs_glibcxx));
        cJSON_AddItemToObject(o, "cxxabi", string_or_null(m->needs_cxxabi));
        cJSON *libs = cJSON_AddArrayToObject(o, "libraries");
        for (size_t i = 0; libs && i < m->needs_library_count; i++)
            cJSON_AddItemToArray(libs, cJSON_CreateString(m->needs_libraries[i]));
        /* Written only when true: manifests of libraries that ask for none
         * stay as they were. */
        if (m->needs_exec_stack)
            cJSON_AddTrueToObject(o, "exec_stack");
    }
    cJSON_AddBoolToObject(root, "verified_by_loading", m->verified_by_loading);
    if (ortkit__manifest_gpu_write(root, m) || ortkit__manifest_parts_write(root, m) ||
        ortkit__manifest_build_write(root, m)) {
        cJSON_Delete(root);
        return ortkit__error_nomem();
    }
    cJSON *files = cJSON_AddArrayToObject(root, "files");
    for (size_t i = 0; files && i < m->file_count; i++) {
        const ortkit_bundle_file *f = &m->files[i];
        cJSON *e = cJSON_CreateObject();
        if (!e || !cJSON_AddItemToArray(files, e))
            break;
        cJSON_AddStringToObject(e, "path", f->path);
        if (f->link[0]) {
            cJSON_AddStringToObject(e, "link", f->link);
        } else {
            cJSON_AddNumberToObject(e, "size", (double)f->size);
            cJSON_AddStringToObject(e, "sha256", f->sha256);
        }
    }
    char *json = cJSON_Print(root);
    cJSON_Delete(root);
    if (!json)
        return ortkit__error_nomem();
    size_t n = strlen(json);
    char *withnl = realloc(json, n + 2);
    if (!withnl) {
        free(json);
        return ortkit__error_nomem();
    }
    withnl[n] = '\n';
    withnl[n + 1] = '\0';
    *out = withnl;
    return ORTKIT_OK;
}
