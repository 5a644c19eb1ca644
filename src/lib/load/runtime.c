/*
 * runtime.c - find libonnxruntime, load it, and hand-shake with it.
 * Every dlopen/dlsym of ONNX Runtime in ortkit is in this file.
 */
#include "runtime.h"
#include "bundle.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef ORTKIT_DEFAULT_RUNTIME
#define ORTKIT_DEFAULT_RUNTIME ""
#endif

/* Library file names tried inside a directory, best first. */
static const char *const lib_names[] = {"libonnxruntime.so", "libonnxruntime.so.1"};

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The library inside dir (or dir/lib), or a versioned libonnxruntime.so.1.x.y. */
static char *find_in_dir(const char *dir)
{
    char path[PATH_MAX];
    static const char *const subdirs[] = {"", "/lib", "/lib64"};
    for (size_t s = 0; s < sizeof subdirs / sizeof subdirs[0]; s++) {
        for (size_t i = 0; i < sizeof lib_names / sizeof lib_names[0]; i++) {
            snprintf(path, sizeof path, "%s%s/%s", dir, subdirs[s], lib_names[i]);
            if (exists(path))
                return strdup(path);
        }
        snprintf(path, sizeof path, "%s%s", dir, subdirs[s]);
        DIR *d = opendir(path);
        if (!d)
            continue;
        char *found = NULL;
        for (struct dirent *e; !found && (e = readdir(d));)
            if (!strncmp(e->d_name, "libonnxruntime.so.", 18)) {
                size_t n = strlen(path) + strlen(e->d_name) + 2;
                if ((found = malloc(n)))
                    snprintf(found, n, "%s/%s", path, e->d_name);
            }
        closedir(d);
        if (found)
            return found;
    }
    return NULL;
}

/* A user-named location: a file is taken as is, a directory is searched. */
static int resolve_explicit(char **out, const char *where, const char *what)
{
    if (is_dir(where)) {
        *out = find_in_dir(where);
        if (!*out)
            return ortkit__error_set(ORTKIT_E_RUNTIME_NOT_FOUND,
                                     "no libonnxruntime.so* in directory '%s' (from %s)", where, what);
        return ORTKIT_OK;
    }
    if (!exists(where))
        return ortkit__error_set(ORTKIT_E_RUNTIME_NOT_FOUND, "runtime '%s' (from %s): %s", where,
                                 what, strerror(errno));
    /* Absolute, so dlopen takes it as a file and not a name to search for. */
    *out = realpath(where, NULL);
    return *out ? ORTKIT_OK : ortkit__error_nomem();
}

/* pkg-config's libdir for libonnxruntime, or NULL (also when pkg-config is absent). */
static char *pkg_config_libdir(void)
{
    static const char *const argv[] = {"pkg-config", "--variable=libdir", "libonnxruntime", NULL};
    char *out = NULL;
    int status;
    if (ortkit__spawn(argv, 0, &out, &status) != ORTKIT_OK || status != 0 || !out) {
        free(out);
        return NULL;
    }
    out[strcspn(out, "\r\n")] = '\0';
    char *found = out[0] ? find_in_dir(out) : NULL;
    free(out);
    return found;
}

static const char *env_nonempty(const char *name)
{
    const char *v = getenv(name);
    return v && v[0] ? v : NULL;
}

/* Decide which file to load; *source says why.  *path NULL: leave it to dlopen. */
static int discover(char **path, const char **source, const ortkit_runtime_options *opts)
{
    *path = NULL;
    const char *v;
    if (opts && opts->path && opts->path[0]) {
        *source = "options";
        return resolve_explicit(path, opts->path, "options");
    }
    if ((v = env_nonempty("ORTKIT_RUNTIME"))) {
        *source = "ORTKIT_RUNTIME";
        return resolve_explicit(path, v, "ORTKIT_RUNTIME");
    }
    /* Bundles: the one pinned, else the best that fits this host (an unfit
     * one is never loaded); none found or none fitting: search on. */
    static _Thread_local char bundle_source[BUNDLE_NAME_MAX + 8];
    int pinned = opts && opts->bundle && opts->bundle[0];
    char *name = NULL;
    int rc = ortkit__bundle_discover(path, &name, pinned ? opts->bundle : env_nonempty("ORTKIT_BUNDLE"),
                                     pinned ? "the options" : "ORTKIT_BUNDLE");
    if (rc)
        return rc;
    if (*path) {
        snprintf(bundle_source, sizeof bundle_source, "bundle %s", name);
        free(name);
        *source = bundle_source;
        return ORTKIT_OK;
    }
    if (ORTKIT_DEFAULT_RUNTIME[0] && exists(ORTKIT_DEFAULT_RUNTIME)) {
        *source = "default";
        return resolve_explicit(path, ORTKIT_DEFAULT_RUNTIME, "ortkit's default location");
    }
    if ((v = env_nonempty("ONNXRUNTIME_DIR"))) {
        *source = "ONNXRUNTIME_DIR";
        return resolve_explicit(path, v, "ONNXRUNTIME_DIR");
    }
    if ((*path = pkg_config_libdir())) {
        *source = "pkg-config";
        return ORTKIT_OK;
    }
    *source = "system";
    return ORTKIT_OK;
}

int ortkit_runtime_search_paths(char *buf, size_t size)
{
    if (!buf || !size)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_runtime_search_paths: no buffer");
    const char *rt = env_nonempty("ORTKIT_RUNTIME"), *od = env_nonempty("ONNXRUNTIME_DIR");
    snprintf(buf, size,
             "ORTKIT_RUNTIME=%s\n"
             "bundles: ORTKIT_BUNDLE, else the best fit in ORTKIT_PATH, the user's, the system's "
             "and the default bundle directories (ortkit bundle list)\n"
             "default: %s\n"
             "ONNXRUNTIME_DIR=%s\n"
             "pkg-config libonnxruntime\n"
             "system library paths (libonnxruntime.so.1, libonnxruntime.so)\n",
             rt ? rt : "(unset)", ORTKIT_DEFAULT_RUNTIME[0] ? ORTKIT_DEFAULT_RUNTIME : "(none)",
             od ? od : "(unset)");
    return ORTKIT_OK;
}

int ortkit__ort_error(const ortkit_runtime *rt, OrtStatus *status, int code, const char *prefix_fmt,
                      ...)
{
    char prefix[512];
    va_list ap;
    va_start(ap, prefix_fmt);
    vsnprintf(prefix, sizeof prefix, prefix_fmt, ap);
    va_end(ap);
    const char *msg = status ? rt->api->GetErrorMessage(status) : "unknown error";
    /* ORT messages often end in a newline or carry its own file:line prefix. */
    char clean[768];
    snprintf(clean, sizeof clean, "%s", msg ? msg : "");
    clean[strcspn(clean, "\r\n")] = '\0';
    ortkit__error_set(code, "%s: %s", prefix, clean);
    if (status)
        rt->api->ReleaseStatus(status);
    return code;
}

static OrtLoggingLevel ort_log_level(ortkit_log_level level)
{
    switch (level) {
    case ORTKIT_LOG_VERBOSE: return ORT_LOGGING_LEVEL_VERBOSE;
    case ORTKIT_LOG_INFO: return ORT_LOGGING_LEVEL_INFO;
    case ORTKIT_LOG_WARNING: return ORT_LOGGING_LEVEL_WARNING;
    case ORTKIT_LOG_ERROR: return ORT_LOGGING_LEVEL_ERROR;
    /* ORT logs every failure it also returns; ortkit passes those on, so by
     * default only fatal messages are let through to stderr. */
    default: return ORT_LOGGING_LEVEL_FATAL;
    }
}

static void runtime_destroy(ortkit_runtime *rt)
{
    if (rt->cpu_memory)
        rt->api->ReleaseMemoryInfo(rt->cpu_memory);
    if (rt->env)
        rt->api->ReleaseEnv(rt->env);
    for (size_t i = 0; i < rt->provider_count; i++)
        free(rt->providers[i]);
    free(rt->providers);
    free(rt->path);
    free(rt->source);
    /* A loaded ONNX Runtime is never dlclose()d: it starts thread pools and
     * registers static state that does not survive unloading, and tensors
     * returned by a run may still point into its allocator. */
    free(rt);
}

static int handshake(ortkit_runtime *rt, const char *name)
{
    dlerror();
    const OrtApiBase *(*get_base)(void);
    *(void **)&get_base = dlsym(rt->handle, "OrtGetApiBase");
    if (!get_base)
        return ortkit__error_set(ORTKIT_E_RUNTIME_INVALID,
                                 "'%s' has no symbol OrtGetApiBase: not an ONNX Runtime library", name);
    const OrtApiBase *base = get_base();
    const char *version = base && base->GetVersionString ? base->GetVersionString() : NULL;
    ortkit__version v;
    const char *rest;
    if (!version || ortkit__version_parse(&v, version, &rest) != 0 || v.n < 2 || v.part[0] > 1000 ||
        v.part[1] > 100000)
        return ortkit__error_set(ORTKIT_E_RUNTIME_INVALID,
                                 "'%s' reports no usable version string (\"%s\")", name,
                                 version ? version : "(null)");
    int major = (int)v.part[0], minor = (int)v.part[1];
    snprintf(rt->version, sizeof rt->version, "%s", version);
    if (major != 1 || minor < ORTKIT_MIN_ORT_API)
        return ortkit__error_set(ORTKIT_E_RUNTIME_TOO_OLD,
                                 "ONNX Runtime %s at '%s' is not supported: ortkit needs 1.%d (API %d) "
                                 "or newer in the 1.x series",
                                 version, name, ORTKIT_MIN_ORT_API, ORTKIT_MIN_ORT_API);
    /* The API table is append-only: ask for the older of the two levels and
     * never call past it.  GetApi(N) on an older runtime returns NULL and
     * prints to stderr, so N is never more than the runtime's minor. */
    rt->api_level = minor < ORT_API_VERSION ? minor : ORT_API_VERSION;
    rt->api = base->GetApi((uint32_t)rt->api_level);
    if (!rt->api)
        return ortkit__error_set(ORTKIT_E_RUNTIME_INVALID,
                                 "ONNX Runtime %s at '%s' refused API level %d", version, name,
                                 rt->api_level);
    return ORTKIT_OK;
}

static int load_providers(ortkit_runtime *rt)
{
    char **list = NULL;
    int n = 0;
    OrtStatus *st = rt->api->GetAvailableProviders(&list, &n);
    if (st)
        return ortkit__ort_error(rt, st, ORTKIT_E_ORT, "cannot list the runtime's providers");
    int rc = ORTKIT_OK;
    rt->providers = calloc(n > 0 ? (size_t)n : 1, sizeof *rt->providers);
    if (!rt->providers)
        rc = ortkit__error_nomem();
    for (int i = 0; !rc && i < n; i++) {
        if (!(rt->providers[i] = ortkit__strdup(list[i])))
            rc = ORTKIT_E_NOMEM;
        else
            rt->provider_count++;
    }
    ortkit__ort_discard(rt->api, rt->api->ReleaseAvailableProviders(list, n));
    return rc;
}

int ortkit_runtime_open(ortkit_runtime **out, const ortkit_runtime_options *opts)
{
    if (!out)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_runtime_open: out is NULL");
    *out = NULL;
    if (opts && opts->version != ORTKIT_RUNTIME_OPTIONS_VERSION)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                 "runtime options version %u is not %d; use ORTKIT_RUNTIME_OPTIONS_INIT",
                                 opts->version, ORTKIT_RUNTIME_OPTIONS_VERSION);
    char *path = NULL;
    const char *source = NULL;
    int rc = discover(&path, &source, opts);
    if (rc)
        return rc;

    ortkit_runtime *rt = calloc(1, sizeof *rt);
    if (!rt) {
        free(path);
        return ortkit__error_nomem();
    }
    atomic_init(&rt->refs, 1);
    rt->path = path;
    if (!(rt->source = ortkit__strdup(source))) {
        rc = ORTKIT_E_NOMEM;
        goto fail;
    }

    if (path) {
        rt->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!rt->handle) {
            const char *why = dlerror();
            rc = ortkit__error_set(ORTKIT_E_RUNTIME_INVALID, "cannot load runtime '%s' (from %s): %s",
                                   path, source, why ? why : "unknown error");
            goto fail;
        }
    } else {
        for (size_t i = sizeof lib_names / sizeof lib_names[0]; !rt->handle && i-- > 0;)
            rt->handle = dlopen(lib_names[i], RTLD_NOW | RTLD_LOCAL);
        if (!rt->handle) {
            char where[1024];
            ortkit_runtime_search_paths(where, sizeof where);
            for (char *c = where; *c; c++)
                if (*c == '\n')
                    *c = c[1] ? ';' : '\0';
            rc = ortkit__error_set(ORTKIT_E_RUNTIME_NOT_FOUND,
                                   "no ONNX Runtime found (looked at: %s); set ORTKIT_RUNTIME to "
                                   "libonnxruntime.so or its directory, or run scripts/setup.sh",
                                   where);
            goto fail;
        }
    }
    /* The file dlopen really loaded, for messages and `ortkit version`. */
    Dl_info info;
    void *sym = dlsym(rt->handle, "OrtGetApiBase");
    if (sym && dladdr(sym, &info) && info.dli_fname) {
        char *real = realpath(info.dli_fname, NULL);
        if (real) {
            free(rt->path);
            rt->path = real;
        }
    }
    if (!rt->path && !(rt->path = ortkit__strdup(lib_names[1]))) {
        rc = ORTKIT_E_NOMEM;
        goto fail;
    }
    if ((rc = handshake(rt, rt->path)))
        goto fail;

    const char *log_id = opts && opts->log_id ? opts->log_id : "ortkit";
    OrtStatus *st = rt->api->CreateEnv(ort_log_level(opts ? opts->log_level : ORTKIT_LOG_DEFAULT),
                                       log_id, &rt->env);
    if (st) {
        rc = ortkit__ort_error(rt, st, ORTKIT_E_ORT, "cannot create the ONNX Runtime environment");
        goto fail;
    }
    if ((rc = load_providers(rt)))
        goto fail;
    st = rt->api->CreateCpuMemoryInfo(OrtArenaAllocator, OrtMemTypeDefault, &rt->cpu_memory);
    if (st) {
        rc = ortkit__ort_error(rt, st, ORTKIT_E_ORT, "cannot describe CPU memory to the runtime");
        goto fail;
    }
    *out = rt;
    return ORTKIT_OK;
fail:
    /* Only a library that failed the hand-shake is unloaded: nothing of it ran. */
    if (rt->handle && !rt->env) {
        dlclose(rt->handle);
        rt->api = NULL;
    }
    if (!rt->api)
        rt->env = NULL;
    runtime_destroy(rt);
    return rc;
}

void ortkit__runtime_ref(ortkit_runtime *rt) { atomic_fetch_add(&rt->refs, 1); }

void ortkit_runtime_free(ortkit_runtime *rt)
{
    if (rt && atomic_fetch_sub(&rt->refs, 1) == 1)
        runtime_destroy(rt);
}

const char *ortkit_runtime_path(const ortkit_runtime *rt) { return rt ? rt->path : ""; }
const char *ortkit_runtime_source(const ortkit_runtime *rt) { return rt ? rt->source : ""; }
const char *ortkit_runtime_version(const ortkit_runtime *rt) { return rt ? rt->version : ""; }
int ortkit_runtime_api_level(const ortkit_runtime *rt) { return rt ? rt->api_level : 0; }
size_t ortkit_runtime_provider_count(const ortkit_runtime *rt) { return rt ? rt->provider_count : 0; }

const char *ortkit_runtime_provider(const ortkit_runtime *rt, size_t i)
{
    return rt && i < rt->provider_count ? rt->providers[i] : NULL;
}
