/*
 * ortkit/runtime.h - find, load and hand-shake with libonnxruntime.
 *
 * Part of the stable API; programs include <ortkit.h>.
 */
#ifndef ORTKIT_INCLUDE_RUNTIME_H
#define ORTKIT_INCLUDE_RUNTIME_H

#include "ortkit/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The oldest ORT C API level ortkit accepts (ORT 1.17). */
#define ORTKIT_MIN_ORT_API 17

typedef struct ortkit_runtime ortkit_runtime;

typedef enum ortkit_log_level {
    ORTKIT_LOG_DEFAULT = 0, /* warnings and errors are kept quiet: ORT's "error" level */
    ORTKIT_LOG_VERBOSE = 1,
    ORTKIT_LOG_INFO = 2,
    ORTKIT_LOG_WARNING = 3,
    ORTKIT_LOG_ERROR = 4,
    ORTKIT_LOG_FATAL = 5
} ortkit_log_level;

/* A setting left to ONNX Runtime's default, or turned on or off. */
typedef enum ortkit_switch {
    ORTKIT_SWITCH_DEFAULT = 0,
    ORTKIT_SWITCH_ON = 1,
    ORTKIT_SWITCH_OFF = 2
} ortkit_switch;

typedef enum ortkit_arena_extend {
    ORTKIT_ARENA_EXTEND_DEFAULT = 0,      /* each session's own arena, ORT's default growth */
    ORTKIT_ARENA_EXTEND_POWER_OF_TWO = 1, /* grow by doubling chunks (ORT's default) */
    ORTKIT_ARENA_EXTEND_REQUESTED = 2     /* grow by exactly what is asked for */
} ortkit_arena_extend;

/* ONNX Runtime's own table of entry points (onnxruntime_c_api.h); ortkit's
 * headers only name it. */
struct OrtApiBase;

/* Options: initialise with ORTKIT_RUNTIME_OPTIONS_INIT.  Later versions add
 * fields at the end; the library reads only the fields of the version a
 * program was built with, and gives the others their defaults. */
typedef struct ortkit_runtime_options {
    unsigned version;          /* ORTKIT_RUNTIME_OPTIONS_VERSION */
    /* A library file or a directory holding libonnxruntime.so*; NULL searches:
     * ORTKIT_RUNTIME; the bundle pinned by `bundle` or ORTKIT_BUNDLE, else
     * the best bundle that fits this host (see <ortkit/bundle.h>); the
     * set-up location, ONNXRUNTIME_DIR, `pkg-config libonnxruntime`, the
     * system library paths. */
    const char *path;
    ortkit_log_level log_level; /* ORT's own log messages on stderr */
    const char *log_id;         /* NULL: "ortkit" */
    /* When path is NULL and ORTKIT_RUNTIME unset: the bundle to use, by name
     * or ONNX Runtime version; an error if it is not found or does not fit.
     * NULL: ORTKIT_BUNDLE, else the best fitting bundle. */
    const char *bundle;
    /* Version 2. */
    /* ON: one intra-op and one inter-op thread pool for every session of
     * this runtime, instead of a pair per session (which oversubscribes the
     * CPU when many sessions run at once).  The counts are the pools'
     * threads (0: ORT's default, one per core); global_spinning whether
     * their idle threads spin-wait (ORT's default: on). */
    ortkit_switch global_thread_pools;
    int global_intra_threads;
    int global_inter_threads;
    ortkit_switch global_spinning;
    /* How the CPU memory arena grows.  Any value but DEFAULT gives the
     * runtime one shared CPU arena with that strategy, which its sessions
     * use unless they turn their arena off. */
    ortkit_arena_extend cpu_arena_extend;
    /* Version 3. */
    /* The program's own OrtGetApiBase, for an ONNX Runtime linked into the
     * program (statically, or as its own DT_NEEDED libonnxruntime.so):
     * ortkit uses that runtime and searches and loads nothing, so
     * ORTKIT_RUNTIME and ORTKIT_BUNDLE are ignored; setting path or bundle
     * too is an error.  The runtime's source is then "program" and its path
     * the file holding it (the executable itself for a static link).  GPU
     * providers of a runtime inside the executable cannot be probed first,
     * so they are refused unless ORTKIT_GPU_PROBE=off (docs/USER_GUIDE.md).
     * NULL: search as above. */
    const struct OrtApiBase *(*api_base)(void);
    /* Version 4. */
    /* The model the program will run (a file), the sizes it runs it at and
     * its sessions' intra-op threads.  When the best fitting bundles are
     * chosen among (no path, ORTKIT_RUNTIME or pin decides), what `ortkit
     * bundle choose --measure` remembered for this model, these sizes and
     * threads, this host and these bundles decides: the fastest bundle
     * whose outputs agreed with the others', instead of the declared order
     * (docs/BUNDLES.md, "Choosing by measurement").  Without such a
     * measurement the declared order stands; ortkit_resolution_measured()
     * says which.  model_shapes: "SYMBOL=SIZE" for a symbolic dimension,
     * "INPUT=[D0,D1,...]" for an input's whole shape, separated by commas
     * ("batch=1,sequence=512"); NULL: none given.  model_threads: 0 is ONNX
     * Runtime's default.  NULL model: no measurement is looked for. */
    const char *model;
    const char *model_shapes;
    int model_threads;
} ortkit_runtime_options;

#define ORTKIT_RUNTIME_OPTIONS_VERSION 4
#define ORTKIT_RUNTIME_OPTIONS_INIT {ORTKIT_RUNTIME_OPTIONS_VERSION, NULL, ORTKIT_LOG_DEFAULT, NULL, \
    NULL, ORTKIT_SWITCH_DEFAULT, 0, 0, ORTKIT_SWITCH_DEFAULT, ORTKIT_ARENA_EXTEND_DEFAULT, NULL, \
    NULL, NULL, 0}

/* Find and load a runtime (or take the program's own: api_base).  opts may
 * be NULL. */
ORTKIT_API int ortkit_runtime_open(ortkit_runtime **out, const ortkit_runtime_options *opts);
/* Sessions keep their runtime alive; freeing it early is safe. */
ORTKIT_API void ortkit_runtime_free(ortkit_runtime *rt);

/* The library file that was loaded (absolute); for a runtime linked into
 * the program, the file that holds it. */
ORTKIT_API const char *ortkit_runtime_path(const ortkit_runtime *rt);
/* Where the path came from: "options", "ORTKIT_RUNTIME", "bundle NAME",
 * "default", "ONNXRUNTIME_DIR", "pkg-config", "system", or "program" (the
 * options' api_base: nothing was loaded). */
ORTKIT_API const char *ortkit_runtime_source(const ortkit_runtime *rt);
/* The runtime's version string, "1.30.0". */
ORTKIT_API const char *ortkit_runtime_version(const ortkit_runtime *rt);
/* The API level in use: min(ortkit's header level, the runtime's). */
ORTKIT_API int ortkit_runtime_api_level(const ortkit_runtime *rt);
/* The execution providers this runtime was built with, in its own order. */
ORTKIT_API size_t ortkit_runtime_provider_count(const ortkit_runtime *rt);
ORTKIT_API const char *ortkit_runtime_provider(const ortkit_runtime *rt, size_t i);

/* The places the search looks, in order, one per line (for diagnostics). */
ORTKIT_API int ortkit_runtime_search_paths(char *buf, size_t size);

/* A device an execution provider can run on, as ONNX Runtime 1.22 and newer
 * discover them: its own CPU device, and the devices of the plugin provider
 * libraries registered with it (the CUDA plugin once a session used it).
 * Library-allocated, reached by pointer: later versions add fields at the end. */
typedef struct ortkit_ep_device {
    const char *ep_name;     /* "CPUExecutionProvider" */
    const char *ep_vendor;   /* "Microsoft" */
    const char *device_type; /* "cpu", "gpu", "npu" or "unknown" */
    const char *vendor;      /* the hardware's vendor, "" when unknown */
    unsigned vendor_id;      /* PCI vendor id, 0 when unknown */
    unsigned device_id;
} ortkit_ep_device;

typedef struct ortkit_ep_devices ortkit_ep_devices;

/* The EP devices rt's runtime knows now.  A runtime older than 1.22 has
 * none: the list is empty, not an error. */
ORTKIT_API int ortkit_runtime_ep_devices(ortkit_ep_devices **out, ortkit_runtime *rt);
ORTKIT_API size_t ortkit_ep_devices_count(const ortkit_ep_devices *list);
ORTKIT_API const ortkit_ep_device *ortkit_ep_devices_get(const ortkit_ep_devices *list, size_t i);
ORTKIT_API void ortkit_ep_devices_free(ortkit_ep_devices *list);

#ifdef __cplusplus
}
#endif

#endif /* ORTKIT_INCLUDE_RUNTIME_H */
