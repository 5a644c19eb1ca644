/*
 * runtime_internal.h - the loaded ONNX Runtime, for the modules that call into it.
 * Only loader.c touches dlopen/dlsym; the others go through rt->api.
 */
#ifndef ORTKIT_RUNTIME_INTERNAL_H
#define ORTKIT_RUNTIME_INTERNAL_H

#include "core.h"

#include <onnxruntime_c_api.h>

struct ortkit_runtime {
    atomic_int refs;
    void *handle;       /* dlopen handle, kept open for the life of the process */
    const OrtApi *api;  /* the table for api_level; call nothing newer */
    OrtEnv *env;
    OrtMemoryInfo *cpu_memory; /* describes caller-owned input buffers */
    int api_level;
    char *path;
    char *source;
    char version[64];
    ortkit__strv providers;    /* the providers the library was built with */
    int global_pools;          /* sessions share the environment's thread pools */
    int shared_arena;          /* the environment holds a CPU arena for sessions to share */
    char library_sha256[65];   /* "" until the session cache needs it */

    /* Added with the GPU providers. */
    const OrtApiBase *base;              /* for GetApi(22): the plugin-EP functions */
    int probe_providers; /* set by runtime_open.c: GPU providers are probed before use */
    atomic_uint plugins_registered;      /* bit per plugin library registered in env */

    /* Added with runtimes linked into the program (source "program"). */
    int in_executable; /* it lies in the main executable: no library file holds it */
};

/*
 * Whether a GPU provider can be added, decided outside the process (the
 * session module's provider_probe.c spawns ortkit-probe) for a runtime
 * opened with probe_providers set.
 */
typedef struct ortkit__probe_verdict {
    int usable;          /* 1: add it; 0: reason says why not */
    char method[16];     /* "bridge" or "plugin" */
    char probe[16];      /* "ran", "cached", "off" (not probed), "" */
    char reason[1536];   /* the cause in words, "" when usable */
    char detail[1024];   /* ONNX Runtime's or the loader's own message */
} ortkit__probe_verdict;

/* Release a status we have no use for (from calls that cannot really fail). */
static inline void ortkit__ort_discard(const OrtApi *api, OrtStatus *status)
{
    if (status)
        api->ReleaseStatus(status);
}

/* Load the library at path (absolute; NULL: dlopen's own search for
 * libonnxruntime.so.1, then libonnxruntime.so) and hand-shake with it.
 * source says where the path came from ("bundle NAME", "ORTKIT_RUNTIME"). */
int ortkit__runtime_load(ortkit_runtime **out, const char *path, const char *source,
                         const ortkit_runtime_options *opts);

/* Take the runtime linked into the program through its own OrtGetApiBase
 * (get_base): nothing is opened and no handle kept; the hand-shake is a
 * loaded library's.  Its path is the file that holds the runtime (the
 * executable itself when linked statically), its source "program". */
int ortkit__runtime_load_program(ortkit_runtime **out, const OrtApiBase *(*get_base)(void),
                                 const ortkit_runtime_options *opts);

/* Create rt->env as the options say (log level, global thread pools, a
 * shared CPU arena); rt->cpu_memory must exist. */
int ortkit__runtime_env_create(ortkit_runtime *rt, const ortkit_runtime_options *opts);

/* Keep a runtime alive while a session uses it. */
void ortkit__runtime_ref(ortkit_runtime *rt);

/* Turn an OrtStatus into an ortkit error (releasing it); returns code.
 * prefix_fmt names what was being done: "cannot open 'm.onnx'". */
int ortkit__ort_error(const ortkit_runtime *rt, OrtStatus *status, int code,
                      const char *prefix_fmt, ...) ORTKIT_PRINTF(4, 5);

#endif
