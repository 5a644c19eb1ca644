/*
 * loader.c - load one libonnxruntime and hand-shake with it: a path in, a
 * loaded runtime out.  Which path is the resolver's business (resolve.c).
 * It never searches: a bare name would let dlopen choose a file unseen.
 * A runtime linked into the program comes in as its OrtGetApiBase instead,
 * and goes through the same hand-shake.  Every dlopen/dlsym of ONNX Runtime
 * in ortkit is in this file.
 */
#include "runtime_internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void runtime_destroy(ortkit_runtime *rt)
{
    if (rt->cpu_memory)
        rt->api->ReleaseMemoryInfo(rt->cpu_memory);
    if (rt->env)
        rt->api->ReleaseEnv(rt->env);
    ortkit__strv_free(&rt->providers);
    free(rt->path);
    free(rt->source);
    /* A loaded ONNX Runtime is never dlclose()d: it starts thread pools and
     * registers static state that does not survive unloading, and tensors
     * returned by a run may still point into its allocator. */
    free(rt);
}

/* The same for a library dlopen()ed and a runtime linked into the program:
 * get_base is its OrtGetApiBase, name the file that holds it. */
static int handshake(ortkit_runtime *rt, const OrtApiBase *(*get_base)(void), const char *name)
{
    const OrtApiBase *base = get_base();
    if (!base || !base->GetVersionString || !base->GetApi)
        return ortkit__error_set(ORTKIT_E_RUNTIME_INVALID,
                                 "'%s' is not a working ONNX Runtime library: %s", name,
                                 !base ? "OrtGetApiBase() returned NULL"
                                       : "the table OrtGetApiBase() returned has a NULL entry");
    const char *version = base->GetVersionString();
    ortkit__version v;
    const char *rest;
    if (!version)
        return ortkit__error_set(ORTKIT_E_RUNTIME_INVALID,
                                 "'%s' is not a working ONNX Runtime library: GetVersionString() "
                                 "returned NULL", name);
    if (ortkit__version_parse(&v, version, &rest) != 0 || v.n < 2 || v.part[0] > 1000 ||
        v.part[1] > 100000)
        return ortkit__error_set(ORTKIT_E_RUNTIME_INVALID,
                                 "'%s' reports no usable version string (\"%.64s\")", name,
                                 version);
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
    rt->base = base;
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
    for (int i = 0; !rc && i < n; i++)
        rc = ortkit__strv_push(&rt->providers, list[i]);
    ortkit__ort_discard(rt->api, rt->api->ReleaseAvailableProviders(list, n));
    return rc;
}

/* A runtime not hand-shaken yet: one reference and where it came from. */
static ortkit_runtime *runtime_new(const char *source)
{
    ortkit_runtime *rt = calloc(1, sizeof *rt);
    if (!rt || !(rt->source = ortkit__strdup(source))) {
        free(rt);
        ortkit__error_nomem();
        return NULL;
    }
    atomic_init(&rt->refs, 1);
    return rt;
}

/* What a hand-shaken runtime needs before use, however it came. */
static int runtime_start(ortkit_runtime *rt, const ortkit_runtime_options *opts)
{
    int rc;
    if ((rc = ortkit__runtime_env_create(rt, opts)) || (rc = load_providers(rt)))
        return rc;
    OrtStatus *st = rt->api->CreateCpuMemoryInfo(OrtArenaAllocator, OrtMemTypeDefault, &rt->cpu_memory);
    if (st)
        return ortkit__ort_error(rt, st, ORTKIT_E_ORT, "cannot describe CPU memory to the runtime");
    return ORTKIT_OK;
}

/* A runtime that failed before use. */
static void runtime_discard(ortkit_runtime *rt)
{
    /* Only a library that failed the hand-shake is unloaded: nothing of it ran. */
    if (rt->handle && !rt->env) {
        dlclose(rt->handle);
        rt->api = NULL;
    }
    if (!rt->api)
        rt->env = NULL;
    runtime_destroy(rt);
}

int ortkit__runtime_load(ortkit_runtime **out, const char *path, const char *source,
                         const ortkit_runtime_options *opts)
{
    *out = NULL;
    int rc = ORTKIT_OK;
    ortkit_runtime *rt = runtime_new(source);
    if (!rt)
        return ORTKIT_E_NOMEM;
    if (path && !(rt->path = ortkit__strdup(path))) {
        rc = ORTKIT_E_NOMEM;
        goto fail;
    }

    if (path) {
        rt->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!rt->handle) {
            const char *why = dlerror();
            /* glibc 2.41 and newer: what to do about it is not in its words. */
            int stack = why && strstr(why, "executable stack");
            rc = ortkit__error_set(ORTKIT_E_RUNTIME_INVALID, "cannot load runtime '%s' (from %s): %s%s",
                                   path, source, why ? why : "unknown error",
                                   stack ? " (it asks for an executable stack, which this glibc "
                                           "refuses to a library loaded by a running program: use a "
                                           "build linked with -z noexecstack)" : "");
            goto fail;
        }
    } else {
        /* Which file is the resolver's to say (its system step finds the
         * one ld.so would): a bare name would let dlopen choose unseen. */
        rc = ortkit__error_set(ORTKIT_E_RUNTIME_NOT_FOUND, "no runtime was resolved to load");
        goto fail;
    }
    /* The file dlopen really loaded, for messages and `ortkit version`. */
    Dl_info info;
    const OrtApiBase *(*get_base)(void);
    dlerror();
    *(void **)&get_base = dlsym(rt->handle, "OrtGetApiBase");
    if (get_base && dladdr(*(void **)&get_base, &info) && info.dli_fname) {
        char *real = realpath(info.dli_fname, NULL);
        if (real) {
            free(rt->path);
            rt->path = real;
        }
    }
    if (!get_base) {
        rc = ortkit__error_set(ORTKIT_E_RUNTIME_INVALID, "'%s' has no symbol OrtGetApiBase: not an "
                               "ONNX Runtime library", rt->path);
        goto fail;
    }
    if ((rc = handshake(rt, get_base, rt->path)) || (rc = runtime_start(rt, opts)))
        goto fail;
    *out = rt;
    return ORTKIT_OK;
fail:
    runtime_discard(rt);
    return rc;
}

/*
 * The file that holds a runtime linked into the program, into rt->path: the
 * one its API table lies in (the function itself may be a PLT entry in the
 * executable when the program is not position-independent; the table is
 * ONNX Runtime's own data), or the executable (/proc/self/exe, the name the
 * dynamic loader gives it being argv[0]).  An address no loaded object
 * holds is taken as the executable's: nothing else could be probed anyway.
 */
static int locate_program(ortkit_runtime *rt, const OrtApiBase *(*get_base)(void))
{
    const void *addr = get_base(); /* a getter of a static table: the hand-shake calls it again */
    if (!addr)
        addr = *(void **)&get_base;
    Dl_info info;
    struct link_map *map = NULL;
    const char *file = "/proc/self/exe";
    if (dladdr1(addr, &info, (void **)&map, RTLD_DL_LINKMAP) && map && map->l_name &&
        map->l_name[0] && info.dli_fname && info.dli_fname[0])
        file = info.dli_fname; /* a shared object's: the main program's map has no name */
    else
        rt->in_executable = 1;
    char *real = realpath(file, NULL);
    rt->path = real ? real : ortkit__strdup(file);
    return rt->path ? ORTKIT_OK : ortkit__error_nomem();
}

int ortkit__runtime_load_program(ortkit_runtime **out, const OrtApiBase *(*get_base)(void),
                                 const ortkit_runtime_options *opts)
{
    *out = NULL;
    int rc;
    ortkit_runtime *rt = runtime_new("program");
    if (!rt)
        return ORTKIT_E_NOMEM;
    if ((rc = locate_program(rt, get_base)))
        goto fail;
    if ((rc = handshake(rt, get_base, rt->path))) {
        rc = ortkit__error_wrap(rc, "the ONNX Runtime linked into the program (the runtime "
                                "options' api_base)");
        goto fail;
    }
    if ((rc = runtime_start(rt, opts)))
        goto fail;
    *out = rt;
    return ORTKIT_OK;
fail:
    runtime_discard(rt); /* no handle: the program's runtime is never unloaded */
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
size_t ortkit_runtime_provider_count(const ortkit_runtime *rt) { return rt ? rt->providers.n : 0; }

const char *ortkit_runtime_provider(const ortkit_runtime *rt, size_t i)
{
    return rt && i < rt->providers.n ? rt->providers.v[i] : NULL;
}
