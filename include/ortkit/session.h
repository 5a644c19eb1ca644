/*
 * ortkit/session.h - a model opened on a runtime: options, execution
 * providers, inputs and outputs, metadata.
 *
 * Part of the stable API; programs include <ortkit.h>.
 */
#ifndef ORTKIT_INCLUDE_SESSION_H
#define ORTKIT_INCLUDE_SESSION_H

#include "ortkit/common.h"
#include "ortkit/runtime.h"
#include "ortkit/value.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ortkit_session ortkit_session;

typedef enum ortkit_graph_opt {
    ORTKIT_GRAPH_OPT_DEFAULT = 0, /* whatever the runtime does by default */
    ORTKIT_GRAPH_OPT_DISABLE = 1,
    ORTKIT_GRAPH_OPT_BASIC = 2,
    ORTKIT_GRAPH_OPT_EXTENDED = 3,
    ORTKIT_GRAPH_OPT_ALL = 4
} ortkit_graph_opt;

typedef enum ortkit_exec_mode {
    ORTKIT_EXEC_DEFAULT = 0, /* sequential */
    ORTKIT_EXEC_SEQUENTIAL = 1,
    ORTKIT_EXEC_PARALLEL = 2
} ortkit_exec_mode;

typedef enum ortkit_ep_policy {
    ORTKIT_EP_FALLBACK = 0, /* skip a provider that cannot be added; record why */
    ORTKIT_EP_STRICT = 1    /* fail when a requested provider cannot be added */
} ortkit_ep_policy;

/* Options: initialise with ORTKIT_SESSION_OPTIONS_INIT.  Later versions add
 * fields at the end; the library reads only the fields of the version a
 * program was built with, and gives the others their defaults. */
typedef struct ortkit_session_options {
    unsigned version;              /* ORTKIT_SESSION_OPTIONS_VERSION */
    int intra_op_threads;          /* 0: ORT's default (one per core) */
    int inter_op_threads;          /* 0: ORT's default */
    ortkit_graph_opt graph_opt;
    ortkit_exec_mode exec_mode;
    ortkit_switch mem_pattern;
    ortkit_switch cpu_arena;
    const char *profile_prefix;        /* non-NULL: write an ORT profile */
    const char *optimized_model_path;  /* non-NULL: save the optimised graph */
    /* Free-form session config entries: config_keys[i] = config_values[i]. */
    const char *const *config_keys;
    const char *const *config_values;
    size_t config_count;
    /* Execution providers in order of preference, e.g. "cuda", "tensorrt",
     * "CUDAExecutionProvider", with options after a colon:
     * "cuda:device_id=1,arena_extend_strategy=kSameAsRequested".
     * The CPU provider is always last and always present. */
    const char *const *providers;
    size_t provider_count;
    ortkit_ep_policy ep_policy;
    /* Version 2. */
    /* A directory that keeps the graph ONNX Runtime optimised, in ORT
     * format, for later sessions of the same model bytes, runtime, host CPU
     * and graph-changing options to load without optimising again.  NULL:
     * no cache.  Only CPU sessions are cached: with another provider
     * requested, or with optimized_model_path, the session opens as without
     * it (ortkit_session_cache says so). */
    const char *cache_dir;
    uint64_t cache_max_bytes;       /* 0: 1 GiB; least recently used entries go first */
    /* Whether idle intra-op / inter-op threads spin-wait for work (ORT's
     * default: on).  Off spends less CPU between runs, at some latency.
     * Sessions on a runtime with global thread pools use the runtime's
     * setting instead. */
    ortkit_switch intra_op_spinning;
    ortkit_switch inter_op_spinning;
} ortkit_session_options;

#define ORTKIT_SESSION_OPTIONS_VERSION 2
#define ORTKIT_SESSION_OPTIONS_INIT {ORTKIT_SESSION_OPTIONS_VERSION, 0, 0, ORTKIT_GRAPH_OPT_DEFAULT, \
    ORTKIT_EXEC_DEFAULT, ORTKIT_SWITCH_DEFAULT, ORTKIT_SWITCH_DEFAULT, NULL, NULL, NULL, NULL, 0, \
    NULL, 0, ORTKIT_EP_FALLBACK, NULL, 0, ORTKIT_SWITCH_DEFAULT, ORTKIT_SWITCH_DEFAULT}

/* Open a model file.  opts may be NULL. */
ORTKIT_API int ortkit_session_open(ortkit_session **out, ortkit_runtime *rt, const char *path,
                                   const ortkit_session_options *opts);
/* Open a model held in memory (ORT copies what it needs). */
ORTKIT_API int ortkit_session_open_memory(ortkit_session **out, ortkit_runtime *rt,
                                          const void *data, size_t size,
                                          const ortkit_session_options *opts);
ORTKIT_API void ortkit_session_free(ortkit_session *session);

/* What happened to each requested execution provider.  The structs below
 * are the session's, reached by pointer: later versions may add fields at
 * their end. */
typedef struct ortkit_provider_status {
    const char *requested; /* as the caller wrote it */
    const char *name;      /* ORT's name: "CUDAExecutionProvider" */
    int active;            /* 1: added to the session; 0: skipped */
    const char *reason;    /* why it was skipped ("" when active): for CUDA and
                            * TensorRT the cause in words (a missing library and
                            * the CUDA major it must be, the driver against its
                            * floor, no CUDA-capable device, a crash while loading) */
    /* Added with the GPU providers. */
    const char *detail;    /* ONNX Runtime's (or the loader's) own message, "" if none */
    const char *method;    /* how a GPU provider is added: "bridge" (the provider
                            * bridge built into the runtime), "plugin" (a plugin
                            * EP library registered at run time), "" for others */
    const char *probe;     /* "ran": decided by a probe process now; "cached": by an
                            * earlier probe on this host; "off": not probed
                            * (ORTKIT_GPU_PROBE=off); "" for providers not probed */
} ortkit_provider_status;

/* Requested providers first, in order, then the CPU provider. */
ORTKIT_API size_t ortkit_session_provider_count(const ortkit_session *session);
ORTKIT_API const ortkit_provider_status *ortkit_session_provider(const ortkit_session *session,
                                                                 size_t i);

/* What the session cache did for a session opened with a cache_dir. */
typedef enum ortkit_cache_state {
    ORTKIT_CACHE_OFF = 0,     /* no cache_dir */
    ORTKIT_CACHE_HIT = 1,     /* loaded from the cache's optimised graph */
    ORTKIT_CACHE_FILLED = 2,  /* optimised from the model, then stored */
    ORTKIT_CACHE_SKIPPED = 3  /* opened without the cache; the reason says why */
} ortkit_cache_state;

/* The cache's part in opening session; *reason (may be NULL) is set to ""
 * or to why it was skipped, or why an entry was discarded and rebuilt. */
ORTKIT_API ortkit_cache_state ortkit_session_cache(const ortkit_session *session,
                                                   const char **reason);

/* Whether provider ("cuda", "tensorrt", or any name --ep takes, with
 * options after a colon) can be used with rt, without opening a model: for
 * CUDA and TensorRT the probe a session runs (in a separate process, its
 * answer cached per runtime and host).  Returns 0 when *out holds an
 * answer, usable (active = 1) or not; free it with ortkit_provider_status_free. */
ORTKIT_API int ortkit_runtime_provider_check(ortkit_provider_status **out, ortkit_runtime *rt,
                                             const char *provider);
ORTKIT_API void ortkit_provider_status_free(ortkit_provider_status *status);

/* Introspection.  The kinds of values (ortkit_value_kind) and full value
 * types (ortkit_value_type) are in ortkit/value.h. */

/* One dimension.  An element of an array the caller indexes, so its layout
 * is fixed: it never grows. */
typedef struct ortkit_dim {
    int64_t value;      /* -1 when not fixed */
    const char *symbol; /* the symbolic name ("batch"), or "" */
} ortkit_dim;

typedef struct ortkit_io_info {
    const char *name;
    ortkit_value_kind kind;
    ortkit_type type;       /* element type (of the tensor inside, for sequences/optionals) */
    size_t rank;            /* SIZE_MAX when the rank is unknown (the model gives no shape) */
    const ortkit_dim *dims; /* rank entries; NULL when the rank is unknown */
    /* The whole type, nested kinds included: "sequence<map<int64,float32>>". */
    const ortkit_value_type *value_type;
} ortkit_io_info;

ORTKIT_API size_t ortkit_session_input_count(const ortkit_session *session);
ORTKIT_API const ortkit_io_info *ortkit_session_input(const ortkit_session *session, size_t i);
ORTKIT_API size_t ortkit_session_output_count(const ortkit_session *session);
ORTKIT_API const ortkit_io_info *ortkit_session_output(const ortkit_session *session, size_t i);
/* Index of the named input/output, or -1. */
ORTKIT_API long ortkit_session_input_index(const ortkit_session *session, const char *name);
ORTKIT_API long ortkit_session_output_index(const ortkit_session *session, const char *name);
/* Write "float32[N,3,224,224]" into buf (always NUL-terminated); a tensor
 * of unknown rank (a type without a shape) is "float32[?...]"; other kinds
 * as ortkit_value_type_describe writes them: "sequence<float32>". */
ORTKIT_API void ortkit_io_describe(const ortkit_io_info *info, char *buf, size_t size);

typedef struct ortkit_model_metadata {
    const char *producer;
    const char *graph_name;
    const char *graph_description;
    const char *domain;
    const char *description;
    int64_t version;
    size_t custom_count;
    const char *const *custom_keys;
    const char *const *custom_values;
} ortkit_model_metadata;

ORTKIT_API const ortkit_model_metadata *ortkit_session_metadata(const ortkit_session *session);

#ifdef __cplusplus
}
#endif

#endif /* ORTKIT_INCLUDE_SESSION_H */
