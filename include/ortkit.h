/*
 * ortkit.h - the one public header of ortkit.
 *
 * ortkit finds and loads ONNX Runtime (ORT) when the program runs, opens
 * models in sessions, and runs them on tensors.  Nothing here needs ORT's
 * headers or a link-time dependency on libonnxruntime.
 *
 * Conventions:
 *   - Functions return int: 0 (ORTKIT_OK) or a negative ortkit_status.
 *     ortkit_error_last() then describes the failure, naming the path,
 *     symbol, tensor or provider involved.
 *   - Handles are opaque, come from *_open / *_new and go back through
 *     *_free; *_free(NULL) does nothing.  The output parameter comes first.
 *   - Options structs start with a version field; initialise them with
 *     their _INIT macro.  A zero field means "the default".
 *   - The library never prints, never aborts and never exits.
 */
#ifndef ORTKIT_H
#define ORTKIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ORTKIT_VERSION_MAJOR 0
#define ORTKIT_VERSION_MINOR 1
#define ORTKIT_VERSION_PATCH 0
#define ORTKIT_VERSION_STRING "0.1.0"
#define ORTKIT_VERSION_NUMBER \
    (ORTKIT_VERSION_MAJOR * 10000 + ORTKIT_VERSION_MINOR * 100 + ORTKIT_VERSION_PATCH)

#if defined(ORTKIT_BUILDING) && defined(__GNUC__)
#define ORTKIT_API __attribute__((visibility("default")))
#else
#define ORTKIT_API
#endif

/* ------------------------------------------------------------------------
 * Errors
 * ---------------------------------------------------------------------- */

/* Return codes.  This list only ever grows at the end. */
typedef enum ortkit_status {
    ORTKIT_OK = 0,
    ORTKIT_E_INVALID_ARG = -1,       /* a NULL handle, a bad option value */
    ORTKIT_E_NOMEM = -2,             /* out of memory */
    ORTKIT_E_IO = -3,                /* a file is missing, unreadable or unwritable */
    ORTKIT_E_RUNTIME_NOT_FOUND = -4, /* no ONNX Runtime library was found */
    ORTKIT_E_RUNTIME_INVALID = -5,   /* not a library, or not ONNX Runtime */
    ORTKIT_E_RUNTIME_TOO_OLD = -6,   /* older than ORTKIT_MIN_ORT_API */
    ORTKIT_E_MODEL = -7,             /* the model is not valid ONNX, or ORT refuses it */
    ORTKIT_E_PROVIDER = -8,          /* an execution provider could not be added */
    ORTKIT_E_SHAPE = -9,             /* a tensor's type or shape does not fit */
    ORTKIT_E_NAME = -10,             /* unknown, missing or repeated input/output name */
    ORTKIT_E_RUN = -11,              /* ORT failed while running the model */
    ORTKIT_E_CANCELLED = -12,        /* the run was cancelled */
    ORTKIT_E_FORMAT = -13,           /* a malformed file (.npy, JSON, ...) */
    ORTKIT_E_UNSUPPORTED = -14,      /* valid, but not supported by ortkit or this runtime */
    ORTKIT_E_ORT = -15               /* any other error reported by ORT */
} ortkit_status;

/* The message of the last failure on this thread; never NULL ("" before any). */
ORTKIT_API const char *ortkit_error_last(void);
/* The code of the last failure on this thread (ORTKIT_OK before any). */
ORTKIT_API int ortkit_error_code(void);
/* A short constant name for a code: "ORTKIT_E_IO". */
ORTKIT_API const char *ortkit_status_name(int code);

/* ortkit's own version string, "0.1.0". */
ORTKIT_API const char *ortkit_version(void);

/* ------------------------------------------------------------------------
 * Element types (numbered as ONNX's TensorProto.DataType)
 * ---------------------------------------------------------------------- */

typedef enum ortkit_type {
    ORTKIT_TYPE_UNDEFINED = 0,
    ORTKIT_TYPE_FLOAT32 = 1,
    ORTKIT_TYPE_UINT8 = 2,
    ORTKIT_TYPE_INT8 = 3,
    ORTKIT_TYPE_UINT16 = 4,
    ORTKIT_TYPE_INT16 = 5,
    ORTKIT_TYPE_INT32 = 6,
    ORTKIT_TYPE_INT64 = 7,
    ORTKIT_TYPE_STRING = 8,
    ORTKIT_TYPE_BOOL = 9,
    ORTKIT_TYPE_FLOAT16 = 10,   /* raw IEEE half, 16 bits */
    ORTKIT_TYPE_FLOAT64 = 11,
    ORTKIT_TYPE_UINT32 = 12,
    ORTKIT_TYPE_UINT64 = 13,
    ORTKIT_TYPE_COMPLEX64 = 14,
    ORTKIT_TYPE_COMPLEX128 = 15,
    ORTKIT_TYPE_BFLOAT16 = 16,  /* raw bfloat16, 16 bits */
    ORTKIT_TYPE_FLOAT8E4M3FN = 17,
    ORTKIT_TYPE_FLOAT8E4M3FNUZ = 18,
    ORTKIT_TYPE_FLOAT8E5M2 = 19,
    ORTKIT_TYPE_FLOAT8E5M2FNUZ = 20,
    ORTKIT_TYPE_UINT4 = 21,     /* two per byte, low nibble first */
    ORTKIT_TYPE_INT4 = 22
} ortkit_type;

/* "float32", "int64", "bfloat16", ...; "undefined" for unknown values. */
ORTKIT_API const char *ortkit_type_name(ortkit_type type);
/* Parse a name from ortkit_type_name (also "float", "double", "half"). */
ORTKIT_API ortkit_type ortkit_type_from_name(const char *name);
/* Bits per element: 4, 8, 16, 32, 64, 128; 0 for strings and undefined. */
ORTKIT_API size_t ortkit_type_bits(ortkit_type type);

/* ------------------------------------------------------------------------
 * Tensors
 *
 * A tensor is plain memory plus a type and a shape; it does not depend on a
 * runtime.  A borrowed tensor points at the caller's memory, which must stay
 * valid while the tensor is in use; outputs of a run are owned tensors.
 * ---------------------------------------------------------------------- */

#define ORTKIT_MAX_RANK 32

typedef struct ortkit_tensor ortkit_tensor;

/* A new zero-filled tensor.  Strings start empty. */
ORTKIT_API int ortkit_tensor_new(ortkit_tensor **out, ortkit_type type,
                                 const int64_t *shape, size_t rank);
/* A tensor over the caller's data, without copying; nbytes must match. */
ORTKIT_API int ortkit_tensor_borrow(ortkit_tensor **out, ortkit_type type,
                                    const int64_t *shape, size_t rank,
                                    void *data, size_t nbytes);
/* A string tensor holding copies of the NUL-terminated strings. */
ORTKIT_API int ortkit_tensor_new_strings(ortkit_tensor **out, const int64_t *shape,
                                         size_t rank, const char *const *strings);
ORTKIT_API void ortkit_tensor_free(ortkit_tensor *tensor);

ORTKIT_API ortkit_type ortkit_tensor_type(const ortkit_tensor *tensor);
ORTKIT_API size_t ortkit_tensor_rank(const ortkit_tensor *tensor);
ORTKIT_API const int64_t *ortkit_tensor_shape(const ortkit_tensor *tensor);
/* Number of elements (product of the shape; 1 for a scalar). */
ORTKIT_API size_t ortkit_tensor_count(const ortkit_tensor *tensor);
/* Bytes of element data; 0 for strings. */
ORTKIT_API size_t ortkit_tensor_nbytes(const ortkit_tensor *tensor);
/* The element data; NULL for strings. */
ORTKIT_API void *ortkit_tensor_data(const ortkit_tensor *tensor);
/* Element i of a string tensor (NUL-terminated), or NULL. */
ORTKIT_API const char *ortkit_tensor_string(const ortkit_tensor *tensor, size_t i);
/* Replace element i of a string tensor with a copy of value. */
ORTKIT_API int ortkit_tensor_set_string(ortkit_tensor *tensor, size_t i, const char *value);
/* Write "float32[1,3,224,224]" into buf (always NUL-terminated). */
ORTKIT_API void ortkit_tensor_describe(const ortkit_tensor *tensor, char *buf, size_t size);

/* .npy files (format versions 1.0 to 3.0, little-endian, C order). */
ORTKIT_API int ortkit_npy_read(ortkit_tensor **out, const char *path);
/* Parse an in-memory .npy image. */
ORTKIT_API int ortkit_npy_parse(ortkit_tensor **out, const void *data, size_t size);
/* Write atomically: a temporary file renamed into place. */
ORTKIT_API int ortkit_npy_write(const char *path, const ortkit_tensor *tensor);

/* ------------------------------------------------------------------------
 * Runtime: find, load and hand-shake with libonnxruntime
 * ---------------------------------------------------------------------- */

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

typedef struct ortkit_runtime_options {
    unsigned version;          /* ORTKIT_RUNTIME_OPTIONS_VERSION */
    /* A library file or a directory holding libonnxruntime.so*; NULL searches:
     * ORTKIT_RUNTIME; the bundle pinned by `bundle` or ORTKIT_BUNDLE, else
     * the best bundle that fits this host (see "Bundles and selection");
     * the set-up location, ONNXRUNTIME_DIR, `pkg-config libonnxruntime`,
     * the system library paths. */
    const char *path;
    ortkit_log_level log_level; /* ORT's own log messages on stderr */
    const char *log_id;         /* NULL: "ortkit" */
    /* When path is NULL and ORTKIT_RUNTIME unset: the bundle to use, by name
     * or ONNX Runtime version; an error if it is not found or does not fit.
     * NULL: ORTKIT_BUNDLE, else the best fitting bundle. */
    const char *bundle;
} ortkit_runtime_options;

#define ORTKIT_RUNTIME_OPTIONS_VERSION 1
#define ORTKIT_RUNTIME_OPTIONS_INIT {ORTKIT_RUNTIME_OPTIONS_VERSION, NULL, ORTKIT_LOG_DEFAULT, NULL, NULL}

/* Find and load a runtime.  opts may be NULL. */
ORTKIT_API int ortkit_runtime_open(ortkit_runtime **out, const ortkit_runtime_options *opts);
/* Sessions keep their runtime alive; freeing it early is safe. */
ORTKIT_API void ortkit_runtime_free(ortkit_runtime *rt);

/* The library file that was loaded (absolute). */
ORTKIT_API const char *ortkit_runtime_path(const ortkit_runtime *rt);
/* Where the path came from: "options", "ORTKIT_RUNTIME", "bundle NAME",
 * "default", "ONNXRUNTIME_DIR", "pkg-config", "system". */
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

/* ------------------------------------------------------------------------
 * Sessions
 * ---------------------------------------------------------------------- */

typedef struct ortkit_session ortkit_session;

typedef enum ortkit_switch {
    ORTKIT_SWITCH_DEFAULT = 0,
    ORTKIT_SWITCH_ON = 1,
    ORTKIT_SWITCH_OFF = 2
} ortkit_switch;

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
} ortkit_session_options;

#define ORTKIT_SESSION_OPTIONS_VERSION 1
#define ORTKIT_SESSION_OPTIONS_INIT {ORTKIT_SESSION_OPTIONS_VERSION, 0, 0, ORTKIT_GRAPH_OPT_DEFAULT, \
    ORTKIT_EXEC_DEFAULT, ORTKIT_SWITCH_DEFAULT, ORTKIT_SWITCH_DEFAULT, NULL, NULL, NULL, NULL, 0, \
    NULL, 0, ORTKIT_EP_FALLBACK}

/* Open a model file.  opts may be NULL. */
ORTKIT_API int ortkit_session_open(ortkit_session **out, ortkit_runtime *rt, const char *path,
                                   const ortkit_session_options *opts);
/* Open a model held in memory (ORT copies what it needs). */
ORTKIT_API int ortkit_session_open_memory(ortkit_session **out, ortkit_runtime *rt,
                                          const void *data, size_t size,
                                          const ortkit_session_options *opts);
ORTKIT_API void ortkit_session_free(ortkit_session *session);

/* What happened to each requested execution provider. */
typedef struct ortkit_provider_status {
    const char *requested; /* as the caller wrote it */
    const char *name;      /* ORT's name: "CUDAExecutionProvider" */
    int active;            /* 1: added to the session; 0: skipped */
    const char *reason;    /* why it was skipped ("" when active) */
} ortkit_provider_status;

/* Requested providers first, in order, then the CPU provider. */
ORTKIT_API size_t ortkit_session_provider_count(const ortkit_session *session);
ORTKIT_API const ortkit_provider_status *ortkit_session_provider(const ortkit_session *session,
                                                                 size_t i);

/* Introspection. */
typedef enum ortkit_value_kind {
    ORTKIT_KIND_UNKNOWN = 0,
    ORTKIT_KIND_TENSOR = 1,
    ORTKIT_KIND_SEQUENCE = 2,
    ORTKIT_KIND_MAP = 3,
    ORTKIT_KIND_OPTIONAL = 4,
    ORTKIT_KIND_SPARSE_TENSOR = 5
} ortkit_value_kind;

typedef struct ortkit_dim {
    int64_t value;      /* -1 when not fixed */
    const char *symbol; /* the symbolic name ("batch"), or "" */
} ortkit_dim;

typedef struct ortkit_io_info {
    const char *name;
    ortkit_value_kind kind;
    ortkit_type type;       /* element type (of the tensor inside, for sequences/optionals) */
    size_t rank;            /* SIZE_MAX when the rank is unknown */
    const ortkit_dim *dims; /* rank entries */
} ortkit_io_info;

ORTKIT_API size_t ortkit_session_input_count(const ortkit_session *session);
ORTKIT_API const ortkit_io_info *ortkit_session_input(const ortkit_session *session, size_t i);
ORTKIT_API size_t ortkit_session_output_count(const ortkit_session *session);
ORTKIT_API const ortkit_io_info *ortkit_session_output(const ortkit_session *session, size_t i);
/* Index of the named input/output, or -1. */
ORTKIT_API long ortkit_session_input_index(const ortkit_session *session, const char *name);
ORTKIT_API long ortkit_session_output_index(const ortkit_session *session, const char *name);
/* Write "float32[N,3,224,224]" into buf (always NUL-terminated). */
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

/* ------------------------------------------------------------------------
 * Running
 *
 * A session may be run from many threads at once.
 * ---------------------------------------------------------------------- */

/* Lets another thread cancel a run in progress. */
typedef struct ortkit_run_control ortkit_run_control;

ORTKIT_API int ortkit_run_control_new(ortkit_run_control **out, ortkit_session *session);
/* Thread-safe.  Runs using this control fail with ORTKIT_E_CANCELLED until reset. */
ORTKIT_API void ortkit_run_control_cancel(ortkit_run_control *control);
ORTKIT_API void ortkit_run_control_reset(ortkit_run_control *control);
ORTKIT_API void ortkit_run_control_free(ortkit_run_control *control);

/*
 * Run the model.  Inputs are matched by name and checked against the model
 * before ORT sees them; their memory is used in place.  output_names may be
 * NULL (n_outputs == 0) for every output in model order; outputs must then
 * have room for ortkit_session_output_count() entries.  On success each
 * outputs[i] is a new tensor for the caller to free; on failure none are set.
 * control may be NULL.
 */
ORTKIT_API int ortkit_session_run(ortkit_session *session, ortkit_run_control *control,
                                  const char *const *input_names,
                                  const ortkit_tensor *const *inputs, size_t n_inputs,
                                  const char *const *output_names, size_t n_outputs,
                                  ortkit_tensor **outputs);

/* The simple case: inputs in model order, every output in model order. */
ORTKIT_API int ortkit_session_infer(ortkit_session *session,
                                    const ortkit_tensor *const *inputs, size_t n_inputs,
                                    ortkit_tensor **outputs, size_t n_outputs);

/* ------------------------------------------------------------------------
 * Host and variants
 *
 * ortkit_host describes a machine: CPU, memory, OS, NVIDIA GPUs and driver.
 * ortkit_host_detect() fills it for this machine; JSON lets tests and users
 * describe other machines.  A variant is one build configuration of ORT
 * (CUDA toolkit, GPU architecture, CPU instruction set); one table lists
 * them all, with their names, build flags and what they need of a host.
 * ---------------------------------------------------------------------- */

typedef enum ortkit_arch {
    ORTKIT_ARCH_UNKNOWN = 0,
    ORTKIT_ARCH_X86_64 = 1,
    ORTKIT_ARCH_AARCH64 = 2
} ortkit_arch;

/* "x86_64", "aarch64", "unknown". */
ORTKIT_API const char *ortkit_arch_name(ortkit_arch arch);

/* CPU features, as bit numbers in ortkit_host.cpu_features.  x86-64
 * features count only when the OS saves their registers (XCR0). */
typedef enum ortkit_cpu_feature {
    /* x86-64 */
    ORTKIT_CPU_SSE3 = 0,
    ORTKIT_CPU_SSSE3,
    ORTKIT_CPU_SSE4_1,
    ORTKIT_CPU_SSE4_2,
    ORTKIT_CPU_POPCNT,
    ORTKIT_CPU_CX16,
    ORTKIT_CPU_LAHF,
    ORTKIT_CPU_MOVBE,
    ORTKIT_CPU_LZCNT,
    ORTKIT_CPU_BMI1,
    ORTKIT_CPU_BMI2,
    ORTKIT_CPU_AVX,
    ORTKIT_CPU_AVX2,
    ORTKIT_CPU_FMA,
    ORTKIT_CPU_F16C,
    ORTKIT_CPU_AVX512F,
    ORTKIT_CPU_AVX512CD,
    ORTKIT_CPU_AVX512BW,
    ORTKIT_CPU_AVX512DQ,
    ORTKIT_CPU_AVX512VL,
    ORTKIT_CPU_AVX512VNNI,
    ORTKIT_CPU_AVX512BF16,
    ORTKIT_CPU_AVXVNNI,
    ORTKIT_CPU_AMX_TILE,
    ORTKIT_CPU_AMX_INT8,
    ORTKIT_CPU_AMX_BF16,
    /* arm64 */
    ORTKIT_CPU_ASIMD,
    ORTKIT_CPU_FP16,    /* half-precision scalar and vector arithmetic */
    ORTKIT_CPU_DOTPROD,
    ORTKIT_CPU_I8MM,
    ORTKIT_CPU_BF16,
    ORTKIT_CPU_SVE,
    ORTKIT_CPU_SVE2,
    ORTKIT_CPU_FEATURE_COUNT
} ortkit_cpu_feature;

#define ORTKIT_CPU_BIT(f) (UINT64_C(1) << (f))

/* Short name used in JSON and tables: "avx512bf16", "amx-int8", "sve2";
 * NULL when out of range. */
ORTKIT_API const char *ortkit_cpu_feature_name(ortkit_cpu_feature f);
/* Label for people: "AVX-512 BF16", "SVE2". */
ORTKIT_API const char *ortkit_cpu_feature_label(ortkit_cpu_feature f);
/* The architecture a feature belongs to. */
ORTKIT_API ortkit_arch ortkit_cpu_feature_arch(ortkit_cpu_feature f);
/* Parse a short name; -1 when unknown. */
ORTKIT_API int ortkit_cpu_feature_from_name(const char *name);

#define ORTKIT_HOST_MAX_GPUS 16

typedef struct ortkit_gpu {
    char name[96];          /* "NVIDIA H100 80GB HBM3" */
    int cc_major;           /* compute capability 9.0: 9 and 0 */
    int cc_minor;
    uint64_t memory_bytes;  /* 0 when unknown */
} ortkit_gpu;

typedef struct ortkit_host {
    ortkit_arch arch;
    /* CPU */
    char cpu_vendor[32];    /* "GenuineIntel", "AuthenticAMD", "ARM", ... */
    char cpu_model[96];     /* "Intel(R) Xeon(R) Platinum 8480+", "Neoverse-V1" */
    int logical_cpus;       /* online hardware threads; 0 when unknown */
    int physical_cores;
    uint64_t cache_l1d;     /* bytes, as seen by one core; 0 when unknown */
    uint64_t cache_l1i;
    uint64_t cache_l2;
    uint64_t cache_l3;
    uint64_t cpu_features;  /* ORTKIT_CPU_BIT(feature) for each feature present */
    int x86_64_level;       /* psABI level 1..4 (x86-64-v4); 0 on other architectures */
    /* memory and OS */
    uint64_t mem_total;     /* bytes */
    uint64_t mem_available;
    char os_name[32];       /* "Linux" */
    char os_release[64];    /* kernel release */
    char os_distro[96];     /* PRETTY_NAME of /etc/os-release */
    char glibc[16];         /* "2.36"; "" without glibc */
    /* NVIDIA */
    char driver_version[32];  /* "570.124.06"; "" without a driver */
    int cuda_driver;          /* highest CUDA the driver runs, 1000*major + 10*minor: 12080 */
    int gpu_count;
    ortkit_gpu gpus[ORTKIT_HOST_MAX_GPUS];
    char gpu_note[160];       /* why no GPU was found, or other remarks; "" when none */
    /* Jetson: Linux for Tegra */
    int tegra;                /* 1 on a Jetson */
    char l4t_release[32];     /* "36.4.3" (from /etc/nv_tegra_release) */
    char board[96];           /* "NVIDIA Jetson AGX Orin Developer Kit" */
} ortkit_host;

/* Detect this machine.  Missing information is left zero or ""; no NVIDIA
 * driver is a normal answer (gpu_count 0, gpu_note says why). */
ORTKIT_API int ortkit_host_detect(ortkit_host *out);
/* Does the host have feature f? */
ORTKIT_API int ortkit_host_has(const ortkit_host *host, ortkit_cpu_feature f);
/* The host as JSON (pretty-printed); free *json_out with free(). */
ORTKIT_API int ortkit_host_to_json(const ortkit_host *host, char **json_out);
/* Read a host from JSON as written by ortkit_host_to_json.  Unknown keys,
 * unknown features and wrong types fail with ORTKIT_E_FORMAT. */
ORTKIT_API int ortkit_host_from_json(ortkit_host *out, const char *json);
/* Read a host from a JSON file. */
ORTKIT_API int ortkit_host_load(ortkit_host *out, const char *path);

/* The CPU instruction set a variant is built for. */
typedef enum ortkit_isa {
    ORTKIT_ISA_AVX2 = 0,        /* -mavx2 -mfma */
    ORTKIT_ISA_AVX512 = 1,      /* -mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma */
    ORTKIT_ISA_AVX512BF16 = 2,  /* AVX-512 + -mavx512bf16 */
    ORTKIT_ISA_AVX512VNNI = 3,  /* AVX-512 + -mavx512vnni */
    ORTKIT_ISA_ARMV8_2 = 4,     /* -march=armv8.2-a+fp16+dotprod */
    ORTKIT_ISA_ARMV9 = 5        /* -march=armv9-a+sve2 */
} ortkit_isa;

/* "avx2", "avx512", "avx512bf16", "avx512vnni", "armv8.2", "armv9". */
ORTKIT_API const char *ortkit_isa_name(ortkit_isa isa);

typedef struct ortkit_variant {
    const char *name;        /* canonical: "cuda12.9-sm90-avx512", "cpu-avx2" */
    const char *flox_name;   /* "onnxruntime-python313-cuda12_9-sm90-avx512" */
    ortkit_arch arch;
    ortkit_isa isa;
    int cuda;                /* CUDA toolkit, 1000*major + 10*minor (12090); 0: CPU only */
    int sm;                  /* target GPU, 10*major + minor (90, 120); 0: CPU only */
    int sm_exact;            /* 1: arch-specific cubins (sm_90a) that run on that SM only */
    int tegra;               /* 1: built for Jetson (Linux for Tegra) */
    int flox;                /* 1: one of the 66 variants of the Flox matrix */
    const char *cuda_architectures; /* CMAKE_CUDA_ARCHITECTURES: "90"; "" for CPU only */
    const char *cubin;       /* the SASS it carries: "sm_90a"; "" for CPU only */
    const char *cpu_flags;   /* compiler flags: "-mavx2 -mfma" */
    uint64_t cpu_features;   /* ORTKIT_CPU_BIT()s the CPU must have */
    /* Driver floor ortkit requires: minor-version compatibility for CUDA
     * 12.x (525.60.13), 13.x (580.65.06); for Jetson, the L4T release. */
    const char *min_driver;
    const char *toolkit_driver; /* the toolkit's own minimum: "575.51.03"; "" */
    const char *python;      /* Python of the Flox build: "3.13" */
    /* Why no such build can exist ("" when it can): kept because the Flox
     * matrix names it (CUDA 12.4 for SM 10.0/12.0); it never fits a host. */
    const char *defect;
} ortkit_variant;

typedef enum ortkit_variant_form {
    ORTKIT_VARIANT_CANONICAL = 0, /* cuda12.9-sm90-avx512 */
    ORTKIT_VARIANT_FLOX = 1       /* onnxruntime-python313-cuda12_9-sm90-avx512 */
} ortkit_variant_form;

ORTKIT_API size_t ortkit_variant_count(void);
/* Row i of the table, or NULL when i is out of range. */
ORTKIT_API const ortkit_variant *ortkit_variant_get(size_t i);
/* Find a variant by canonical or Flox name (case-insensitive). */
ORTKIT_API int ortkit_variant_parse(const ortkit_variant **out, const char *name);
/* Write a variant's name in the given form; fails when buf is too small. */
ORTKIT_API int ortkit_variant_name(const ortkit_variant *v, char *buf, size_t size,
                                   ortkit_variant_form form);
/*
 * Can this host run this variant?  1: yes; why is "" or a caveat (e.g. a
 * driver below the toolkit's own minimum, accepted through minor-version
 * compatibility).  0: no; why says exactly why.  Negative on bad arguments.
 * why may be NULL.
 */
ORTKIT_API int ortkit_variant_fits(const ortkit_variant *v, const ortkit_host *host,
                                   char *why, size_t why_size);

/* ------------------------------------------------------------------------
 * Model files, read without a runtime
 * ---------------------------------------------------------------------- */

typedef struct ortkit_opset {
    const char *domain; /* "" is the default ONNX domain */
    int64_t version;
} ortkit_opset;

typedef struct ortkit_model_file {
    int64_t ir_version;
    size_t opset_count;
    const ortkit_opset *opsets;
    size_t node_count;        /* nodes of the main graph */
    size_t initializer_count; /* initialisers of the main graph */
} ortkit_model_file;

/* Decode a model file's header: IR version, operator sets, graph size. */
ORTKIT_API int ortkit_model_file_read(ortkit_model_file **out, const char *path);
ORTKIT_API void ortkit_model_file_free(ortkit_model_file *model);

/* ------------------------------------------------------------------------
 * Validation
 *
 * What `ortkit validate` is made of, usable on its own: values decoded from
 * ONNX protobuf files (the input_N.pb / output_N.pb of ONNX backend tests),
 * tensors compared as ONNX Runtime's test runner compares them, and backend
 * test directories found on disk and run in this process.  Isolating each
 * test in a child process, with a timeout, is left to the caller: a library
 * does not fork.
 * ---------------------------------------------------------------------- */

/* Decode a serialised onnx.TensorProto: raw_data or the typed fields, every
 * element type.  Data kept in an external file is refused with
 * ORTKIT_E_UNSUPPORTED; malformed bytes fail with ORTKIT_E_FORMAT. */
ORTKIT_API int ortkit_tensor_proto_parse(ortkit_tensor **out, const void *data, size_t size);
ORTKIT_API int ortkit_tensor_proto_read(ortkit_tensor **out, const char *path);

/* A value from an ONNX protobuf file: a tensor, a sequence, or an optional. */
typedef struct ortkit_proto_value ortkit_proto_value;
struct ortkit_proto_value {
    ortkit_value_kind kind;  /* ORTKIT_KIND_TENSOR, _SEQUENCE or _OPTIONAL */
    const char *name;        /* the proto's name field; "" when it has none */
    ortkit_tensor *tensor;   /* kind TENSOR: the tensor; otherwise NULL */
    size_t count;            /* SEQUENCE: its length; OPTIONAL: 0 (empty) or 1 */
    ortkit_proto_value *const *items;
};

/* Decode a TensorProto, SequenceProto or OptionalProto.  The bytes do not say
 * which they are, so kind does (the model's type for that input or output).
 * Maps and sparse tensors fail with ORTKIT_E_UNSUPPORTED. */
ORTKIT_API int ortkit_proto_value_parse(ortkit_proto_value **out, ortkit_value_kind kind,
                                        const void *data, size_t size);
ORTKIT_API int ortkit_proto_value_read(ortkit_proto_value **out, ortkit_value_kind kind,
                                       const char *path);
ORTKIT_API void ortkit_proto_value_free(ortkit_proto_value *value);

/* Tolerances of ONNX Runtime's test runner. */
#define ORTKIT_COMPARE_RTOL 1e-3
#define ORTKIT_COMPARE_ATOL 1e-5

typedef struct ortkit_compare {
    int equal;          /* 1: same type and shape, every element within tolerance */
    size_t mismatches;  /* elements out of tolerance (or not identical) */
    size_t worst;       /* flat index of the largest difference; of the first mismatch for strings */
    double max_diff;    /* |expected - actual| there; INFINITY for NaN against a number */
    double expected;    /* the values there (numeric types; for complex, the worse part) */
    double actual;
    char where[64];     /* the element as an index: "[1,0,2]"; "" for empty tensors */
    char message[256];  /* what differs, for people; "" when equal */
} ortkit_compare;

/*
 * Compare as ONNX Runtime's test runner does: floating-point elements match
 * when |expected - actual| <= atol + rtol * |expected|, NaN matches NaN and an
 * infinity only itself; integers, booleans and strings must be equal; type
 * and shape must be the same.  Returns 0 with the answer in *out (out->equal);
 * negative only on bad arguments.
 */
ORTKIT_API int ortkit_tensor_compare(ortkit_compare *out, const ortkit_tensor *expected,
                                     const ortkit_tensor *actual, double rtol, double atol);
/* Bit for bit (determinism): 0.0 differs from -0.0 and NaNs must have the same
 * bits.  max_diff still measures the numeric difference. */
ORTKIT_API int ortkit_tensor_identical(ortkit_compare *out, const ortkit_tensor *expected,
                                       const ortkit_tensor *actual);

/* One ONNX backend test: a directory with model.onnx and test_data_set_N/
 * directories of input_N.pb and output_N.pb files. */
typedef struct ortkit_conformance_test {
    const char *name;  /* the directory's name: "test_abs" */
    const char *suite; /* the directory holding it: "node"; "" for a test given directly */
    const char *dir;   /* its path */
    const char *op;    /* the operator it tests, from the model's nodes: "Abs"; "" when unknown */
    int64_t opset;     /* the model's ai.onnx opset; 0 when the model is unreadable */
} ortkit_conformance_test;

/* The tests found under some directories. */
typedef struct ortkit_conformance ortkit_conformance;

/*
 * Find tests.  A root holding model.onnx is one test; otherwise its
 * subdirectories are searched, two levels deep (data/node/test_abs).  A
 * directory named test_* without model.onnx is kept, so that running it
 * fails and says why.  Tests are sorted by suite, then name.  A root that is
 * missing, unreadable or holds no test fails with ORTKIT_E_IO naming it.
 */
ORTKIT_API int ortkit_conformance_find(ortkit_conformance **out, const char *const *roots,
                                       size_t root_count);
ORTKIT_API size_t ortkit_conformance_count(const ortkit_conformance *tests);
ORTKIT_API const ortkit_conformance_test *ortkit_conformance_get(const ortkit_conformance *tests,
                                                                 size_t i);
ORTKIT_API void ortkit_conformance_free(ortkit_conformance *tests);

typedef struct ortkit_conformance_options {
    unsigned version;     /* ORTKIT_CONFORMANCE_OPTIONS_VERSION */
    double rtol;          /* 0: ORTKIT_COMPARE_RTOL; negative: no relative tolerance */
    double atol;          /* 0: ORTKIT_COMPARE_ATOL; negative: no absolute tolerance */
    int repeat;           /* runs of each data set (0: 1); every run is compared with the
                           * first bit for bit, and must match when the session has one
                           * intra-op thread */
    double soak_seconds;  /* > 0: run the data sets again and again for this long, and
                           * measure resident memory */
    const ortkit_session_options *session; /* NULL: the defaults */
} ortkit_conformance_options;

#define ORTKIT_CONFORMANCE_OPTIONS_VERSION 1
#define ORTKIT_CONFORMANCE_OPTIONS_INIT {ORTKIT_CONFORMANCE_OPTIONS_VERSION, 0, 0, 0, 0, NULL}

typedef enum ortkit_conformance_outcome {
    ORTKIT_CONFORMANCE_PASS = 0,
    /* wrong or unstable outputs, a refused model, a failed run, broken test data */
    ORTKIT_CONFORMANCE_FAIL = 1,
    /* needs what ortkit cannot pass or return: a sequence, a map, an empty optional */
    ORTKIT_CONFORMANCE_UNSUPPORTED = 2
} ortkit_conformance_outcome;

/* Plain data, so a child process can hand it to its parent as bytes. */
typedef struct ortkit_conformance_result {
    ortkit_conformance_outcome outcome;
    /* where it failed: "data", "model", "provider", "run", "compare", "repeat" */
    char stage[16];
    char message[1024];    /* why it failed or is unsupported; "" on a pass */
    char provider[64];     /* the first provider the session got: "CPUExecutionProvider" */
    unsigned data_sets;    /* data sets run */
    unsigned long runs;    /* model runs */
    double seconds;        /* wall time, session creation included */
    double max_diff;       /* largest |expected - actual| over every output compared ... */
    char worst[160];       /* ... and where: "output 'y' [0,3]" */
    int unstable;          /* repeat: an output differed bit for bit between runs */
    double unstable_diff;  /* the largest such difference */
    int64_t rss_start_kb;  /* soak: resident memory after the first pass over the data */
    int64_t rss_end_kb;    /* and at the end; 0 without a soak */
} ortkit_conformance_result;

/* Run one test directory in this process.  Returns 0 when *out holds a result
 * (a pass, a failure or unsupported); negative only on bad arguments. */
ORTKIT_API int ortkit_conformance_run(ortkit_conformance_result *out, ortkit_runtime *rt,
                                      const char *dir, const ortkit_conformance_options *opts);

/* ------------------------------------------------------------------------
 * Bundles and selection
 *
 * A bundle is a directory holding one ONNX Runtime build, usable from
 * wherever it lies: lib/ (libonnxruntime and its provider libraries, each
 * with RUNPATH $ORIGIN; the CUDA libraries of a CUDA build), include/,
 * lib/pkgconfig/libonnxruntime.pc, a CMake package (lib/cmake/onnxruntime),
 * the licence files, and manifest.json: what the build is, what it needs of
 * a host, and the size and SHA-256 of every file.  Bundles are searched in
 * ORTKIT_PATH, the user's and the system's ortkit data directories and the
 * build's default directory; with no explicit runtime, ortkit_runtime_open()
 * loads the best one that fits the host.  See docs/BUNDLES.md.
 * ---------------------------------------------------------------------- */

/* The manifest schema this ortkit writes and reads. */
#define ORTKIT_BUNDLE_SCHEMA 1

typedef struct ortkit_bundle ortkit_bundle;

typedef struct ortkit_bundle_file {
    const char *path;   /* relative to the bundle: "lib/libonnxruntime.so.1.30.0" */
    uint64_t size;      /* bytes; 0 for a link */
    const char *sha256; /* 64 lowercase hex digits; "" for a link */
    const char *link;   /* a symbolic link's target, a name in the same directory; "" */
} ortkit_bundle_file;

typedef struct ortkit_manifest {
    int schema;               /* ORTKIT_BUNDLE_SCHEMA */
    const char *name;         /* the bundle's directory name (the manifest's when parsed) */
    const char *dir;          /* its absolute directory; "" when parsed from memory */
    const char *created_by;   /* "ortkit 0.1.0" */
    const char *ort_version;  /* "1.30.0" */
    int api_level;            /* the runtime's own C API level: its minor version */
    int headers_api_level;    /* ORT_API_VERSION of include/; 0 when unknown */
    /* "cpu" (any CPU of the architecture), or a variant of the table:
     * "cpu-avx512", "cuda12.9-sm90-avx512". */
    const char *variant;
    /* What it needs of a host. */
    ortkit_arch arch;
    uint64_t cpu_features;    /* ORTKIT_CPU_BIT()s the CPU must have */
    int cuda;                 /* CUDA toolkit, 1000*major + 10*minor; 0: CPU only */
    int sm;                   /* GPU target, 10*major + minor; 0: CPU only */
    int sm_exact;             /* 1: arch-specific cubins, that SM only */
    int tegra;                /* 1: built for Jetson */
    const char *min_driver;   /* "525.60.13" (an L4T release on Jetson); "" */
    const char *library;      /* "lib/libonnxruntime.so.1.30.0" */
    size_t provider_count;    /* the execution providers the runtime reports */
    const char *const *providers;
    size_t file_count;        /* every file but manifest.json, sorted by path */
    const ortkit_bundle_file *files;
} ortkit_manifest;

/* Open the bundle in dir: its manifest is read and checked strictly (unknown
 * keys, wrong types, paths leaving the bundle fail with ORTKIT_E_FORMAT).
 * Cheap checks of the library (present, its size, its ELF machine) are made
 * too; what they find is ortkit_bundle_damage(), not a failure to open. */
ORTKIT_API int ortkit_bundle_open(ortkit_bundle **out, const char *dir);
/* Parse manifest JSON held in memory (a bundle without a directory). */
ORTKIT_API int ortkit_bundle_parse(ortkit_bundle **out, const char *json, size_t size);
ORTKIT_API void ortkit_bundle_free(ortkit_bundle *bundle);
ORTKIT_API const ortkit_manifest *ortkit_bundle_manifest(const ortkit_bundle *bundle);
/* The library's absolute path; "" for a parsed bundle. */
ORTKIT_API const char *ortkit_bundle_library_path(const ortkit_bundle *bundle);
/* Why the bundle cannot be used, found when it was opened ("" when nothing):
 * "lib/libonnxruntime.so.1.30.0 is 1024 bytes, the manifest says 45828512". */
ORTKIT_API const char *ortkit_bundle_damage(const ortkit_bundle *bundle);

typedef struct ortkit_bundle_import_options {
    unsigned version;     /* ORTKIT_BUNDLE_IMPORT_OPTIONS_VERSION */
    const char *name;     /* NULL: "ort-<version>-<variant>" */
    /* NULL or "cpu": a build for any CPU of the library's architecture;
     * else a variant name ("cuda12.9-sm90-avx512"), which a CUDA build needs. */
    const char *variant;
    const char *into;     /* NULL: the user's bundle directory */
    int force;            /* replace a bundle of the same name */
} ortkit_bundle_import_options;

#define ORTKIT_BUNDLE_IMPORT_OPTIONS_VERSION 1
#define ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT {ORTKIT_BUNDLE_IMPORT_OPTIONS_VERSION, NULL, NULL, NULL, 0}

/*
 * Make a bundle from src: a libonnxruntime.so* file, a directory holding
 * one, or an unpacked release (lib/ and include/).  The library is loaded
 * to read its version and providers.  The bundle is built under a temporary
 * name in the destination and renamed into place: a failure leaves nothing
 * behind, and an existing bundle is replaced only with force (and kept if
 * the import fails).  *out (may be NULL) receives the new bundle.
 */
ORTKIT_API int ortkit_bundle_import(ortkit_bundle **out, const char *src,
                                    const ortkit_bundle_import_options *opts);

/*
 * Check a bundle against its manifest: every file's size and SHA-256, no
 * missing or extra files, links as listed, each ELF file in lib/ built for
 * the manifest's architecture with RUNPATH $ORIGIN, and the library loads
 * and reports the manifest's version (it is loaded only when its own checks
 * passed).  Every problem found is kept; ORTKIT_OK when there are none, else
 * ORTKIT_E_FORMAT.
 */
ORTKIT_API int ortkit_bundle_verify(ortkit_bundle *bundle);
ORTKIT_API size_t ortkit_bundle_problem_count(const ortkit_bundle *bundle);
/* "lib/libonnxruntime.so.1.30.0: SHA-256 differs from the manifest ..." */
ORTKIT_API const char *ortkit_bundle_problem(const ortkit_bundle *bundle, size_t i);

/* The directories searched for bundles, in order. */
typedef enum ortkit_bundle_dir_state {
    ORTKIT_BUNDLE_DIR_OK = 0,
    ORTKIT_BUNDLE_DIR_MISSING = 1,   /* does not exist (a warning only on ORTKIT_PATH) */
    ORTKIT_BUNDLE_DIR_UNREADABLE = 2 /* not a directory, or cannot be read: a warning */
} ortkit_bundle_dir_state;

typedef struct ortkit_bundle_dir {
    const char *path;
    const char *source;  /* "ORTKIT_PATH", "user", "system", "default" */
    ortkit_bundle_dir_state state;
    const char *note;    /* why it is unreadable; "" */
    size_t bundle_count; /* bundles found in it */
} ortkit_bundle_dir;

/* A bundle found by the search. */
typedef struct ortkit_bundle_entry {
    const char *name;             /* its directory name */
    const char *dir;              /* its directory */
    const char *source;           /* the search directory's source */
    const ortkit_bundle *bundle;  /* NULL when its manifest cannot be used */
    const char *error;            /* why not ("" when bundle is set) */
} ortkit_bundle_entry;

typedef struct ortkit_bundle_list ortkit_bundle_list;

/* Search ORTKIT_PATH (colon-separated), $XDG_DATA_HOME/ortkit/bundles
 * (~/.local/share/ortkit/bundles), each of $XDG_DATA_DIRS + /ortkit/bundles
 * (/usr/local/share, /usr/share) and the build's default directory.  A
 * directory that cannot be read is noted, not fatal. */
ORTKIT_API int ortkit_bundle_list_open(ortkit_bundle_list **out);
ORTKIT_API void ortkit_bundle_list_free(ortkit_bundle_list *list);
ORTKIT_API size_t ortkit_bundle_list_count(const ortkit_bundle_list *list);
ORTKIT_API const ortkit_bundle_entry *ortkit_bundle_list_get(const ortkit_bundle_list *list,
                                                             size_t i);
ORTKIT_API size_t ortkit_bundle_list_dir_count(const ortkit_bundle_list *list);
ORTKIT_API const ortkit_bundle_dir *ortkit_bundle_list_dir(const ortkit_bundle_list *list,
                                                           size_t i);

/* What selection thinks of one bundle. */
typedef struct ortkit_bundle_verdict {
    int fits;      /* 1: it can run on the host */
    char why[256]; /* unfit: exactly why; fit: a caveat or "" */
} ortkit_bundle_verdict;

#define ORTKIT_BUNDLE_NONE SIZE_MAX

typedef struct ortkit_bundle_choice {
    size_t index;      /* the chosen bundle, or ORTKIT_BUNDLE_NONE */
    char reason[512];  /* why that one, or why none */
} ortkit_bundle_choice;

/*
 * Choose the bundle to load on a host, without touching any file.  Among
 * the bundles that fit: a GPU build first (it fits only when a GPU can run
 * its cubins and the driver is new enough), then the highest GPU target,
 * the highest CPU level, the newest ONNX Runtime, the newest CUDA, and the
 * first in the list (search order).  A bundle of the same name as an
 * earlier one is shadowed.  pin (NULL: none) restricts the choice to the
 * bundle of that name or to that ONNX Runtime version ("1.17.3", "1.17").
 * bundles[i] may be NULL (an unusable manifest).  verdicts (may be NULL)
 * has count entries.  Fails with ORTKIT_E_RUNTIME_NOT_FOUND when nothing
 * fits or the pin names nothing, ORTKIT_E_UNSUPPORTED when what it names
 * does not fit; out->reason says why in both cases.
 */
ORTKIT_API int ortkit_bundle_select(ortkit_bundle_choice *out, ortkit_bundle_verdict *verdicts,
                                    const ortkit_host *host, const ortkit_bundle *const *bundles,
                                    size_t count, const char *pin);

/* ------------------------------------------------------------------------
 * Resolving: which library ortkit_runtime_open() loads, and why
 *
 * Opening a runtime is two steps: resolve (decide which file, from the
 * options, the environment, the bundles and the usual places; nothing is
 * loaded) and load (dlopen that file and hand-shake with it).
 * ortkit_runtime_open() does both; a program that wants to show or check
 * the decision first resolves, then calls ortkit_runtime_open_resolved().
 * ---------------------------------------------------------------------- */

typedef enum ortkit_resolve_verdict {
    ORTKIT_RESOLVE_SKIPPED = 0,     /* nothing to look at here (a variable unset) */
    ORTKIT_RESOLVE_PASSED = 1,      /* looked at, nothing usable: the search went on */
    ORTKIT_RESOLVE_TAKEN = 2,       /* the library to load */
    ORTKIT_RESOLVE_FAILED = 3,      /* an explicit choice that cannot be met: no library */
    ORTKIT_RESOLVE_NOT_REACHED = 4  /* after the place that decided (looked at only to explain) */
} ortkit_resolve_verdict;

/* "skipped", "passed", "taken", "failed", "not reached". */
ORTKIT_API const char *ortkit_resolve_verdict_name(ortkit_resolve_verdict verdict);

/* One place of the search. */
typedef struct ortkit_resolve_step {
    /* "options", "ORTKIT_RUNTIME", "bundles", "default", "ONNXRUNTIME_DIR",
     * "pkg-config", "system" */
    const char *source;
    const char *where;   /* the value looked at (a path, a pin, a package); "" */
    ortkit_resolve_verdict verdict;
    const char *detail;  /* what was found there, or why it was passed over */
} ortkit_resolve_step;

typedef struct ortkit_resolution ortkit_resolution;

/* Flags of ortkit_runtime_resolve(). */
#define ORTKIT_RESOLVE_EXPLAIN 1u /* look at every place, even past the one that decides */

/*
 * Decide which library ortkit_runtime_open(opts) would load.  host (NULL:
 * this machine, detected only if bundles are found) is the machine bundles
 * are judged for.  Returns 0 when *out holds an account, whether or not a
 * library was found (see ortkit_resolution_status); negative only on bad
 * arguments, out of memory, or a bundle directory that cannot be listed.
 */
ORTKIT_API int ortkit_runtime_resolve(ortkit_resolution **out, const ortkit_runtime_options *opts,
                                      const ortkit_host *host, unsigned flags);
ORTKIT_API void ortkit_resolution_free(ortkit_resolution *res);
/* ORTKIT_OK when a library was found, else the code ortkit_runtime_open() fails with ... */
ORTKIT_API int ortkit_resolution_status(const ortkit_resolution *res);
/* ... and its message ("" when found). */
ORTKIT_API const char *ortkit_resolution_error(const ortkit_resolution *res);
/* The library's absolute path; "" when it is left to the system's library search. */
ORTKIT_API const char *ortkit_resolution_path(const ortkit_resolution *res);
/* Where it came from, as ortkit_runtime_source() will say. */
ORTKIT_API const char *ortkit_resolution_source(const ortkit_resolution *res);
/* Every place looked at, in search order. */
ORTKIT_API size_t ortkit_resolution_step_count(const ortkit_resolution *res);
ORTKIT_API const ortkit_resolve_step *ortkit_resolution_step(const ortkit_resolution *res, size_t i);
/* The bundle pin in force (the options' bundle, else ORTKIT_BUNDLE), or NULL;
 * *from (may be NULL) says which: "the options", "ORTKIT_BUNDLE". */
ORTKIT_API const char *ortkit_resolution_pin(const ortkit_resolution *res, const char **from);
/* The bundles found, when the search looked at them (else NULL) ... */
ORTKIT_API const ortkit_bundle_list *ortkit_resolution_bundles(const ortkit_resolution *res);
/* ... the host they were judged for (NULL when there were none to judge) ... */
ORTKIT_API const ortkit_host *ortkit_resolution_host(const ortkit_resolution *res);
/* ... what selection thought of bundle i of that list, and its choice
 * (NULL when no bundle was judged). */
ORTKIT_API const ortkit_bundle_verdict *ortkit_resolution_verdict(const ortkit_resolution *res,
                                                                  size_t i);
ORTKIT_API const ortkit_bundle_choice *ortkit_resolution_choice(const ortkit_resolution *res);

/* Load the library a resolution found (fails as ortkit_runtime_open() when it
 * found none).  opts gives the logging settings; its path and bundle are not used. */
ORTKIT_API int ortkit_runtime_open_resolved(ortkit_runtime **out, const ortkit_resolution *res,
                                            const ortkit_runtime_options *opts);

/* A live check of a runtime: a one-node model (Neg on float32[4]) built in
 * memory and run on one execution provider (NULL: the CPU). */
typedef struct ortkit_selftest {
    int ok;             /* 1: the provider ran it and the result was right */
    char provider[64];  /* the provider that ran it */
    double seconds;     /* session creation and one run */
    char detail[256];   /* what went wrong; "" when ok */
} ortkit_selftest;

/* Returns 0 when *out holds an answer (ok or not); negative on bad arguments. */
ORTKIT_API int ortkit_selftest_run(ortkit_selftest *out, ortkit_runtime *rt, const char *provider);

#ifdef __cplusplus
}
#endif

#endif /* ORTKIT_H */
