/*
 * builder.h - the builder, `ortkit build`'s internal module: a whole build
 * from options to report (build.c), and its parts: plan, pre-flight,
 * patches, the compile gate and its launcher, history, progress, report.
 * Used by `ortkit build` and the builder's tests; not installed.
 *
 * Internal names: ortkit__builder_<part>_<verb>.  Failures are recorded
 * through src/util's error channel (ortkit__error_message()).  The tool
 * links the builder and util statically and the library as a shared
 * object, which has its own, hidden copy of that channel: the builder
 * carries a library failure over into its own message (build.c).
 */
#ifndef ORTKIT_BUILDER_H
#define ORTKIT_BUILDER_H

#include "ortkit.h"
#include "util.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* ---- dependencies from supplied sources (deps.c) ------------------------- */

typedef enum ortkit__builder_dep_match {
    ORTKIT__DEP_EXACT = 0,    /* deps.txt's own file: its SHA1 checked */
    ORTKIT__DEP_VERSION = 1,  /* the version deps.txt pins */
    ORTKIT__DEP_ACCEPTED = 2, /* another version, taken with --accept-dep-version */
    ORTKIT__DEP_NAMED = 3     /* a source directory named with --dep: used as it is */
} ortkit__builder_dep_match;

typedef struct ortkit__builder_dep {
    char *name, *url;          /* deps.txt's */
    char sha1[41];             /* deps.txt's SHA1 of its file */
    char *pinned;              /* the version deps.txt names: "21.12", or a commit */
    int pinned_commit;
    const char *content;       /* the name FetchContent declares: "Protobuf" */
    const char *patch;         /* ORT's patch for it, under cmake/patches; NULL */
    const char *release_prefix;
    char *path;                /* what DIR supplied (NULL for --dep) */
    char *version;             /* its version, from its name */
    char *origin;              /* NAME.origin beside it, else NULL */
    char sha256[65];           /* of the archive; "" for a tree */
    int is_tree, patched;
    ortkit__builder_dep_match match;
    char *tree;                /* the source directory FetchContent gets */
} ortkit__builder_dep;

typedef struct ortkit__builder_deps {
    ortkit__builder_dep *d;    /* deps.txt's entries this build uses, in its order */
    size_t n;
    ortkit__strv unused;       /* deps.txt's other entries (tests, Windows, other EPs) */
    ortkit__strv ignored;      /* entries of DIR that are no dependency */
} ortkit__builder_deps;

/* The version in a deps.txt URL: a tag ("v21.12" -> "21.12", "boost-1.82.0"
 * -> "1.82.0") or a 40-digit commit (*commit = 1). */
int ortkit__builder_dep_version_from_url(char *buf, size_t size, int *commit, const char *url);
/* What a build uses beyond every build's dependencies (deps_read's kinds). */
#define ORTKIT__DEPS_CUDA 1   /* a CUDA build: cutlass, cudnn_frontend */
#define ORTKIT__DEPS_PYTHON 2 /* a build with the Python package: pybind11, dlpack */
/* deps.txt's entries a Linux build of these kinds uses. */
int ortkit__builder_deps_read(ortkit__builder_deps *out, const char *deps_txt, int kinds);
/*
 * Map each entry to DIR: NAME-VERSION as an archive (.tar.gz, .tar.xz,
 * .tar.bz2, .zip, ...) or a tree, or deps.txt's own file at DIR/<its URL
 * without https://> (ORT's mirror layout; its SHA1 must match).  A version
 * other than deps.txt's is refused unless its name is in accept; names in
 * named come from --dep and are left alone.  The first entry missing,
 * mismatched or supplied twice is the error, by name.
 */
int ortkit__builder_deps_resolve(ortkit__builder_deps *deps, const char *dir,
                                 const char *const *accept, size_t n_accept,
                                 const char *const *named, size_t n_named);
/* Each archive extracted once into cache/NAME-VERSION-KEY (KEY from the
 * archive's and ORT's patch's SHA-256), the patch applied: d->tree (dry:
 * only named, for a plan). */
int ortkit__builder_deps_prepare(ortkit__builder_deps *deps, const char *cache,
                                 const char *ort_source, int dry, FILE *log);
/* The list as the manifest's build.dependencies (a cJSON array). */
struct cJSON *ortkit__builder_deps_json(const ortkit__builder_deps *deps);
const char *ortkit__builder_dep_match_name(ortkit__builder_dep_match m);
void ortkit__builder_deps_free(ortkit__builder_deps *deps);

/* ---- the compiler cache and its remote storage (cache.c) ------------------ */

typedef enum ortkit__builder_cache_scheme {
    ORTKIT__CACHE_REDIS = 0, /* redis://[[USER:]PASSWORD@]HOST[:PORT][/DB] */
    ORTKIT__CACHE_HTTP = 1,  /* http://[USER:PASSWORD@]HOST[:PORT][/PATH] */
    ORTKIT__CACHE_HTTPS = 2  /* https://...: ccache 4.13+ through a storage helper */
} ortkit__builder_cache_scheme;

/* A remote storage URL for ccache (CCACHE_REMOTE_STORAGE), checked. */
typedef struct ortkit__builder_cache_remote {
    char url[1024];      /* as given: what ccache gets */
    char shown[1024];    /* the same with any password replaced by "***": what is printed */
    ortkit__builder_cache_scheme scheme;
    char host[256];
    unsigned port;       /* given, or the scheme's default (6379, 80, 443) */
    int port_given;
    long db;             /* redis: the database number, -1 when none is given */
    int has_password;
} ortkit__builder_cache_remote;

/*
 * Check a remote storage URL strictly: the scheme (redis, http, https), a
 * host name or IPv4 address, a port from 1 to 65535, a redis database
 * number or an http path, and ccache's attributes after '|' (read-only,
 * connect-timeout, operation-timeout; layout and keep-alive for http).  No
 * white space (ccache separates URLs with it), no query or fragment.  The
 * failure says what is wrong and never repeats a password.
 */
int ortkit__builder_cache_remote_parse(ortkit__builder_cache_remote *out, const char *url);
/* The password of a URL given without one, kept out of every command line:
 * the first line of password_file (the user's, mode 0600 or stricter), else
 * ORTKIT_CACHE_PASSWORD; put where the URL takes it (redis://SECRET@HOST,
 * http://USER:SECRET@HOST) and r parsed again.  Nothing to add: 0. */
int ortkit__builder_cache_remote_secret(ortkit__builder_cache_remote *r, const char *password_file);
/* The local cache a build through remote r keeps (CCACHE_DIR): a private
 * directory of its own, $XDG_CACHE_HOME/ortkit/ccache-remote/KEY, so what
 * the server sent never reaches the local cache of a build without it.
 * "" when r is NULL. */
int ortkit__builder_cache_local_dir(char *buf, size_t size, const ortkit__builder_cache_remote *r);
/* The scheme's name: "redis", "http", "https". */
const char *ortkit__builder_cache_scheme_name(ortkit__builder_cache_scheme s);
/*
 * What `ccache --version` says (text): its version into version, and
 * whether it can reach remote (NULL: only its version): a "Features:" line
 * naming redis-storage or http-storage, 4.7 or newer (the per-storage
 * counters the report reads), 4.13 or newer for https (a storage helper).
 */
int ortkit__builder_ccache_check(const char *text, const ortkit__builder_cache_remote *remote,
                                 char *version, size_t size);
/* A TCP connection to the remote's host and port within timeout_ms: 0, or
 * an error saying why not (for pre-flight's warning). */
int ortkit__builder_cache_remote_reach(const ortkit__builder_cache_remote *remote, int timeout_ms);

/* What the cache did with one compile, from ccache's stats log of it. */
typedef enum ortkit__builder_cache_outcome {
    ORTKIT__CACHE_NONE = 0,        /* not through ccache, or it said nothing */
    ORTKIT__CACHE_LOCAL_HIT = 1,   /* from the local cache directory */
    ORTKIT__CACHE_REMOTE_HIT = 2,  /* from the remote storage */
    ORTKIT__CACHE_MISS = 3,        /* compiled (and stored) */
    ORTKIT__CACHE_UNCACHEABLE = 4, /* run without caching: a link, an option ccache cannot cache */
    ORTKIT__CACHE_OUTCOMES
} ortkit__builder_cache_outcome;

/* "-", "local-hit", "remote-hit", "miss", "uncacheable"; and back (-1: unknown). */
const char *ortkit__builder_cache_outcome_name(ortkit__builder_cache_outcome o);
int ortkit__builder_cache_outcome_parse(const char *name);
/* Classify ccache's stats log of one compile (its counter names, one a
 * line); *remote_errors counts remote_storage_error and _timeout. */
ortkit__builder_cache_outcome ortkit__builder_ccache_outcome(const char *log, int *remote_errors);

/* ---- a build for another architecture (cross.c) ---------------------------- */

#define ORTKIT__PROTOC_GIVEN "--host-protoc"
#define ORTKIT__PROTOC_BUILT "built for this machine from the protobuf dependency's source"
#define ORTKIT__PROTOC_FETCHED "downloaded by ONNX Runtime's CMake (--fetch: deps.txt's protoc_linux_*)"
#define ORTKIT__PROTOC_MISSING "none: the build needs --host-protoc FILE, --deps DIR with protobuf's " \
                               "source, or --fetch"

typedef struct ortkit__builder_cross {
    int active;                 /* the variant's architecture is not this machine's */
    ortkit_arch build, target;
    char prefix[64];            /* "aarch64-linux-gnu-": the compilers pre-flight checks */
    char toolchain[4096];       /* the CMake toolchain file: given, or written by the build */
    char *toolchain_text;       /* what the build writes there; NULL when one was given */
    char protoc[4096];          /* a protoc that runs here (ONNX_CUSTOM_PROTOC_EXECUTABLE) */
    const char *protoc_from;    /* ORTKIT__PROTOC_*: where it comes from */
    char protoc_version[32];    /* what it says it is: "3.21.12" */
} ortkit__builder_cross;

/* A toolchain file for Debian's cross compilers PREFIXgcc/g++ (malloc'd). */
char *ortkit__builder_cross_toolchain_text(ortkit_arch target, const char *prefix);
/*
 * Whether variant v is a cross build here, and its parts: the toolchain
 * file (given, or state_dir/toolchain-ARCH.cmake to be written), the
 * compilers' prefix (default ARCH-linux-gnu-), a given host protoc.  The
 * cross options on a native build are refused.
 */
int ortkit__builder_cross_init(ortkit__builder_cross *c, const ortkit_variant *v,
                               const char *state_dir, const char *toolchain_file,
                               const char *prefix, const char *host_protoc);
/*
 * The host protoc of a cross build: the given one, else one built from the
 * protobuf dependency's tree (--deps) into BUILD/host-protoc (dry: only
 * named), else ONNX Runtime's download (fetch); none of them is an error
 * (in a plan, dry, it is said instead).
 * The one used must say protobuf's deps.txt version.
 */
int ortkit__builder_cross_protoc(ortkit__builder_cross *c, const ortkit__builder_deps *deps,
                                 int fetch, const char *build_dir, int ccache, int jobs, int dry,
                                 FILE *log);
/* A CUDA variant for another architecture is planned, not built: that needs
 * the target's CUDA toolkit and cuDNN. */
int ortkit__builder_cross_buildable(const ortkit__builder_cross *c, const ortkit_variant *v);
/* `PROTOC --version`'s libprotoc version ("3.21.12"). */
int ortkit__builder_protoc_version(char *out, size_t size, const char *protoc);
/* Whether protoc's version is deps.txt's protobuf tag ("3.21.12" for "21.12"). */
int ortkit__builder_protoc_matches(const char *protoc_version, const char *pinned);
void ortkit__builder_cross_free(ortkit__builder_cross *c);

/* ---- the Python package (python.c) ------------------------------------------ */

/* A CPython a build makes ONNX Runtime's Python package for (--python). */
typedef struct ortkit__builder_python {
    char interpreter[4096];    /* as found on PATH, or as given */
    char version[16];          /* "3.11" */
    char include[4096];        /* its C headers (sysconfig's include) */
    char numpy_include[4096];  /* numpy's C headers the extension compiles against */
    char numpy_from[32];       /* "--numpy-include" or "the interpreter's numpy" */
    char numpy_headers[128];   /* "numpy headers ABI 0x02000000, C API 0x00000013 (...)" */
} ortkit__builder_python;

/* Ask interpreter what it is (CPython >= 3.10) and find the numpy headers
 * (numpy_include, else the interpreter's numpy). */
int ortkit__builder_python_probe(ortkit__builder_python *out, const char *interpreter,
                                 const char *numpy_include);

/* ---- plan (plan.c) -------------------------------------------------------- */

typedef enum ortkit__builder_kind {
    ORTKIT__BUILD_ORT = 0,  /* an ONNX Runtime source tree and a variant */
    ORTKIT__BUILD_CMAKE = 1 /* any CMake project, built through the same engine */
} ortkit__builder_kind;

typedef struct ortkit__builder_options ortkit__builder_options;

/* What a plan is made from: the options as given (opts: the launcher, Eigen,
 * LTO, --fetch, --dep, -D, --static, --glibc-floor, the compiler cache;
 * NULL: none of them), and what the build resolved from them. */
typedef struct ortkit__builder_config {
    ortkit__builder_kind kind;
    const ortkit__builder_options *opts;
    const char *source;             /* absolute */
    const char *build_dir;          /* absolute */
    const ortkit_variant *variant;  /* ORT builds */
    const char *ort_version;        /* "1.21.0" from VERSION_NUMBER, or NULL */
    const char *cuda_home;          /* GPU variants: found (--cuda-home, CUDA_HOME, nvcc, ...) */
    const char *cudnn_home;
    const char *ops_config;         /* required-operators file (--ops-from), or NULL */
    const char *python;             /* python3 for ORT's op reduction script */
    const ortkit__builder_deps *dep_sources; /* --deps: compiled in from these; NULL */
    const char *deps_dir;           /* where they came from (--deps DIR), absolute */
    const char *glibc_here;         /* the build environment's glibc ("2.31"), or NULL */
    const ortkit__builder_cross *cross; /* a build for another architecture, or NULL */
    /* --python: the interpreter this configuration builds the extension for
     * (NULL: no Python package), and every one the build makes wheels for. */
    const ortkit__builder_python *ext_python;
    const ortkit__builder_python *ext_pythons;
    size_t n_ext_pythons;
} ortkit__builder_config;

typedef struct ortkit__builder_plan {
    ortkit__strv configure; /* cmake's argv */
    ortkit__strv reduce;    /* op reduction argv; empty when none */
    ortkit__strv summary;   /* "label\tvalue" lines for people */
    ortkit__strv sharing;   /* "part\twhat the variant's flags reach" (ORT builds) */
    char *cpu_flags_cmake;  /* CMAKE_PROJECT_INCLUDE's text: the variant's flags for ORT's own
                             * code only (NULL: no flags); written to cpu_flags_path */
    char *cpu_flags_path;
    const char *toolchain_path;  /* a cross build's toolchain file, and the text the build */
    const char *toolchain_text;  /* writes there (NULL: given by the user); the cross's */
    char *stage_dir;        /* cmake --install goes here */
    char *state_dir;        /* <build>/.ortkit (0700): the gate's socket, history, lock */
} ortkit__builder_plan;

int ortkit__builder_plan_make(ortkit__builder_plan *out, const ortkit__builder_config *cfg);
void ortkit__builder_plan_free(ortkit__builder_plan *plan);
/* The plan as text: the summary, then the commands, one argument a line. */
int ortkit__builder_plan_write(const ortkit__builder_plan *plan, FILE *out);
/* The configure command as one shell line (for logs and the stamp file). */
char *ortkit__builder_plan_command_line(const ortkit__strv *argv);
/* CMAKE_CUDA_ARCHITECTURES for a variant: SASS only, "90a-real". */
int ortkit__builder_cuda_architectures(const ortkit_variant *v, char *buf, size_t size);

/* ---- a matrix of variants for a CI system (matrix.c) ----------------------- */

/*
 * One job of a matrix: a variant, the wave it runs in, and what it builds
 * first for later jobs or takes from the shared cache.  The rule:
 *   - variants share by platform (architecture, Jetson or not): the
 *     dependencies, compiled without CPU flags; and by CUDA version and SM:
 *     the device code, compiled without them too;
 *   - wave 1: one job per platform, its baseline CPU-only variant when the
 *     set has one (else its first CUDA variant), builds the dependencies;
 *   - wave 2: the first variant of every other CUDA/SM group builds that
 *     group's device code, taking the dependencies;
 *   - wave 3: the rest build only their own ISA's code;
 *   - within a wave: platform (x86_64 first), CPU-only before CUDA, CUDA
 *     version, SM, then ISA from the baseline up (x86-64, avx2, avx512,
 *     avx512bf16, avx512vnni; armv8.0, armv8.2, armv9).
 */
typedef struct ortkit__builder_job_plan {
    const ortkit_variant *variant;
    int wave;                /* 1, 2 or 3 */
    char platform[32];       /* "x86_64", "aarch64", "aarch64 (Jetson)" */
    char group[64];          /* "x86_64 cpu", "x86_64 cuda12.9 sm_90a" */
    char device_code[48];    /* "CUDA 12.9 sm_90a device code", "" for CPU only */
    ortkit__strv seeds;      /* what it builds first for the others */
    ortkit__strv takes;      /* what it takes from the shared cache */
} ortkit__builder_job_plan;

#define ORTKIT__MATRIX_WAVES 3
#define ORTKIT__MATRIX_RULE                                                                     \
    "wave 1: one job per platform (its baseline CPU-only variant, else its first CUDA "        \
    "variant) builds the dependencies; wave 2: the first variant of every other CUDA/SM "      \
    "group builds that group's device code; wave 3: the rest build only their own CPU-flag "   \
    "code; within a wave: platform, CPU-only before CUDA, CUDA version, SM, ISA from the "     \
    "baseline up"

/* The jobs for variants (each once; *out freed with ortkit__builder_matrix_free). */
int ortkit__builder_matrix_order(ortkit__builder_job_plan **out, size_t *n,
                                 const ortkit_variant *const *variants, size_t n_variants);
void ortkit__builder_matrix_free(ortkit__builder_job_plan *jobs, size_t n);

/* ---- --ops-from (ops.c) ---------------------------------------------------- */

/* Write ORT's required-operators configuration for the models' operators
 * (domain;opset;Op,Op,... lines, subgraphs included); with device_copies
 * (a build with a GPU provider) also the kernels that copy between the
 * device and the CPU. */
int ortkit__builder_ops_write(const char *path, const char *const *models, size_t n_models,
                              int device_copies, size_t *n_ops);

/* ---- pre-flight (preflight.c) ------------------------------------------ */

typedef struct ortkit__builder_toolchain {
    char cmake[32], ninja[32], cc[96], cxx[96], nvcc[32], cudnn[32], ccache[32];
    char cmake_path[256], ninja_path[256];
} ortkit__builder_toolchain;

typedef struct ortkit__builder_preflight {
    ortkit__builder_kind kind;
    const char *source;
    const char *build_dir;
    const ortkit_variant *variant;
    const char *cuda_home;   /* NULL: CUDA_HOME, then nvcc on PATH, then /usr/local/cuda */
    uint64_t min_disk;       /* 0: a default for the kind of build */
    int cache_ccache;
    const char *distcc_hosts;
    int reduce_ops;          /* --ops-from: ORT's reduction script must be able to run */
    const ortkit__builder_cache_remote *cache_remote; /* ccache must reach it (warned when not) */
    const char *cross_prefix; /* a cross build: its compilers PREFIXgcc, PREFIXg++; NULL */
} ortkit__builder_preflight;

/* The ORT version of a source tree ("1.21.0"); fails when it is not one. */
int ortkit__builder_ort_version(char *buf, size_t size, const char *source);
/*
 * Check everything that can fail before compiling; the first failure is the
 * error.  Warnings (other compilers running) go to warn (may be NULL).
 * found_cuda_home receives the toolkit that was checked (GPU variants).
 */
int ortkit__builder_preflight_run(const ortkit__builder_preflight *pf, ortkit__builder_toolchain *tc,
                                  char *found_cuda_home, size_t cuda_size,
                                  char *found_cudnn_home, size_t cudnn_size,
                                  void (*warn)(const char *msg));
/* Heavy compilers running now (cc1plus, cc1, nvcc, cicc, ptxas): "cc1plus (pid 12)". */
int ortkit__builder_heavy_compilers(char *buf, size_t size, size_t *count);

/* The build directory's lock: flock on <state>/lock, holding our PID. */
typedef struct ortkit__builder_lock {
    int fd;
} ortkit__builder_lock;
int ortkit__builder_lock_take(ortkit__builder_lock *lock, const char *state_dir);
void ortkit__builder_lock_release(ortkit__builder_lock *lock);

/* ---- patches (patch.c) ---------------------------------------------------- */

/* Apply the .patch files of DIR in name order with `patch -p1`, those the source tree
 * does not have yet, and record them in <state>/patches-applied.  *applied counts the
 * ones applied now, *skipped those already in. */
int ortkit__builder_patch_apply(const char *patch_dir, const char *source, const char *state_dir,
                                FILE *log, size_t *applied, size_t *skipped);

/* ---- history of compiles (history.c) ------------------------------------ */

typedef struct ortkit__builder_hist_entry {
    char *key;        /* source file (or link output) */
    uint64_t peak;    /* bytes */
    double wall, cpu; /* seconds */
} ortkit__builder_hist_entry;

typedef struct ortkit__builder_history {
    ortkit__builder_hist_entry *e;
    size_t n, cap;
    double last_wall;   /* wall time of the last whole build, 0 if none */
    long last_steps;    /* its ninja steps */
} ortkit__builder_history;

int ortkit__builder_history_load(ortkit__builder_history *h, const char *path);
int ortkit__builder_history_save(const ortkit__builder_history *h, const char *path);
const ortkit__builder_hist_entry *ortkit__builder_history_find(const ortkit__builder_history *h,
                                                               const char *key);
int ortkit__builder_history_put(ortkit__builder_history *h, const char *key, uint64_t peak,
                                double wall, double cpu);
void ortkit__builder_history_free(ortkit__builder_history *h);

/* ---- the compile gate (gate.c): admission control, pure accounting ------- */

typedef enum ortkit__builder_lang {
    ORTKIT__LANG_C = 0,
    ORTKIT__LANG_CXX = 1,
    ORTKIT__LANG_CUDA = 2,
    ORTKIT__LANG_LINK = 3,
    ORTKIT__LANG_COUNT
} ortkit__builder_lang;

const char *ortkit__builder_lang_name(ortkit__builder_lang lang);
int ortkit__builder_lang_parse(const char *name); /* -1 when unknown */

typedef enum ortkit__builder_hold {
    ORTKIT__HOLD_NONE = 0,
    ORTKIT__HOLD_SLOTS = 1,  /* all CPU slots busy */
    ORTKIT__HOLD_BUDGET = 2, /* its expected peak does not fit the budget now */
    ORTKIT__HOLD_SYSTEM = 3  /* the system's available memory is low */
} ortkit__builder_hold;

typedef struct ortkit__builder_job {
    uint64_t id;
    pid_t pid;                /* the launcher */
    ortkit__builder_lang lang;
    char *path;
    uint64_t estimate;        /* expected peak, bytes */
    int learnt;               /* estimate from history */
    uint64_t rss;             /* sampled now (the launcher's descendants) */
    uint64_t rss_max;         /* sampled peak */
    double t_request, t_admit;
    int admitted;
    ortkit__builder_hold held; /* the first reason it waited, if it did */
    int bypassed;             /* later requests admitted while this one waited */
} ortkit__builder_job;

typedef struct ortkit__builder_gate_stats {
    uint64_t requests, admitted, finished;
    uint64_t held_slots, held_budget, held_system; /* compiles that had to wait, by reason */
    uint64_t alone_over_budget; /* admitted alone although its estimate exceeds the budget */
    int max_running;
    uint64_t max_reserved;   /* highest sum of reservations */
    uint64_t max_in_use;     /* highest sum of max(reservation, sampled RSS) */
    uint64_t max_sampled;    /* highest sum of sampled RSS */
} ortkit__builder_gate_stats;

typedef struct ortkit__builder_gate {
    uint64_t budget;
    int slots;
    uint64_t low_water;      /* hold while MemAvailable, less what running jobs may still
                              * grow by, would fall below this */
    uint64_t lang_default[ORTKIT__LANG_COUNT];
    double margin;           /* learnt peaks are scaled by this (1.10) */
    int max_bypass;          /* later jobs admitted past a waiting one before it blocks them */
    const ortkit__builder_history *history;
    ortkit__builder_job **jobs; /* waiting and running, in request order */
    size_t n_jobs, cap;
    uint64_t next_id;
    int running;
    uint64_t reserved;       /* sum of the running jobs' estimates */
    uint64_t mem_available;  /* last system reading; UINT64_MAX: no watch */
    ortkit__builder_gate_stats stats;
} ortkit__builder_gate;

/* Defaults: per-language peaks C 0.5 GB, C++ 1.5 GB, CUDA 5 GB, link 1.5 GB. */
void ortkit__builder_gate_init(ortkit__builder_gate *g, uint64_t budget, int slots,
                               const ortkit__builder_history *history);
void ortkit__builder_gate_free(ortkit__builder_gate *g);
/* The expected peak of a compile of path in lang; *learnt set when history knew it. */
uint64_t ortkit__builder_gate_estimate(const ortkit__builder_gate *g, ortkit__builder_lang lang,
                                       const char *path, int *learnt);
/* A new request, queued; NULL when out of memory. */
ortkit__builder_job *ortkit__builder_gate_request(ortkit__builder_gate *g, pid_t pid,
                                                  ortkit__builder_lang lang, const char *path,
                                                  double now);
/*
 * Admit what can run now; calls admit(job, ctx) for each admitted job, in
 * request order with bounded bypassing.  Returns how many were admitted.
 */
int ortkit__builder_gate_schedule(ortkit__builder_gate *g, double now,
                                  void (*admit)(ortkit__builder_job *job, void *ctx), void *ctx);
/* A job finished or its launcher went away: release and free it. */
void ortkit__builder_gate_release(ortkit__builder_gate *g, ortkit__builder_job *job);
/* Update a running job's sampled RSS and the system's available memory. */
void ortkit__builder_gate_sample(ortkit__builder_gate *g, ortkit__builder_job *job, uint64_t rss);
void ortkit__builder_gate_set_available(ortkit__builder_gate *g, uint64_t mem_available);
/* Memory the gate counts as in use: sum over running jobs of max(estimate, rss). */
uint64_t ortkit__builder_gate_in_use(const ortkit__builder_gate *g);

/* ---- the launcher (launcher.c) --------------------------------------------- */

/* The gate's socket, in the state directory. */
#define ORTKIT__BUILDER_GATE_SOCKET "gate.sock"
/*
 * Open the build's state directory (O_RDONLY | O_DIRECTORY, not through a
 * link) into *dirfd after checking that only this user can reach it: the
 * directory owned by this user and writable by nobody else, its parent (the
 * build directory) owned by this user or root and writable by nobody else
 * unless sticky.  create: make both when missing (the state directory
 * 0700) and close a state directory others can only read to 0700.  Without
 * create, a missing one is no error: *dirfd is -1.  A refusal names the
 * directory and what to do.
 */
int ortkit__builder_state_dir_open(const char *state_dir, int create, int *dirfd);
struct sockaddr_un;
/* The gate's socket address (STATE/gate.sock, for bind() and connect()) in
 * the state directory open as dirfd; a path too long for sun_path is reached
 * through /proc/self/fd/DIRFD.  Returns the address's length. */
size_t ortkit__builder_gate_sockaddr(struct sockaddr_un *sa, const char *state_dir, int dirfd);
/* The peer's process and user, as the kernel recorded them (SO_PEERCRED);
 * -1 with errno set when it cannot say. */
int ortkit__builder_peer_cred(int fd, pid_t *pid, uid_t *uid);
/* The PID in the state directory's lock file (open as dirfd), when it is a
 * regular file of this user's; 0 when none. */
pid_t ortkit__builder_lock_holder(int dirfd);
/* `ortkit build --launch STATE_DIR COMPILER ARGS...`: returns the exit status. */
int ortkit__builder_launch(int argc, char **argv);
/* The source file and language of a compiler command line (index into argv or -1). */
int ortkit__builder_classify(char *const *argv, int argc, ortkit__builder_lang *lang);

/* ---- what variants share, read from the configured build (sharing.c) ------ */

/* A compile's part of the build: ONNX Runtime's own code, or a dependency's. */
enum { ORTKIT__PART_ORT = 0, ORTKIT__PART_DEPS = 1, ORTKIT__PARTS };

typedef struct ortkit__builder_sharing {
    int known;                 /* the build's commands were read */
    char flags[256];           /* the variant's CPU flags */
    /* compiles by [part][language][0: without the flags (shared), 1: with them] */
    uint64_t n[ORTKIT__PARTS][ORTKIT__LANG_COUNT][2];
    uint64_t stray;            /* compiles that need no CPU flags (CUDA, a dependency's) with them */
    ortkit__strv stray_files;  /* the first ten of them */
} ortkit__builder_sharing;

/*
 * One line of `ninja -t commands`: a compile through the gate's launcher is
 * counted by part (its source under the ONNX Runtime tree or the build
 * directory, not BUILD/_deps: ORT's; else a dependency's), language, and
 * whether it carries any of the variant's flags (as a word, or inside
 * -Xcompiler=A,B).  Anything else (links, custom commands) is skipped.
 */
int ortkit__builder_sharing_add(ortkit__builder_sharing *s, const char *line, const char *source,
                                const char *build_dir);
/* Every compile of the configured build in build_dir (ninja -t commands,
 * through a scratch file in the state directory). */
int ortkit__builder_sharing_read(ortkit__builder_sharing *s, const char *build_dir,
                                 const char *state_dir, const char *source, const char *flags);
void ortkit__builder_sharing_free(ortkit__builder_sharing *s);

/* ---- records, report (report.c) ------------------------------------------ */

typedef struct ortkit__builder_record {
    char *path;
    ortkit__builder_lang lang;
    double wall, cpu, waited; /* seconds */
    uint64_t peak;            /* bytes: ru_maxrss of the compiler tree */
    uint64_t estimate;
    int status;
    ortkit__builder_hold held;
    ortkit__builder_cache_outcome cache; /* what ccache did with it */
    double saved;             /* a hit: the file's last real compile less this one; < 0: not known */
} ortkit__builder_record;

/* The compiler cache as a build used it (--cache ccache), for the report. */
typedef struct ortkit__builder_cache_stats {
    int on;                    /* compiles went through ccache */
    char remote[1024];         /* --cache-remote as shown (no password), "" when none */
    int remote_only;
    char local_dir[4096];      /* with a remote: its own local cache (CCACHE_DIR); "" without */
    uint64_t outcome[ORTKIT__CACHE_OUTCOMES]; /* compiles by what ccache did */
    uint64_t remote_errors;    /* ccache's remote_storage_error and _timeout */
    double hit_wall;           /* what the hits took */
    double saved;              /* what they saved, where the file's real compile is known */
    uint64_t unpriced;         /* hits of files with no real compile in this build's history */
} ortkit__builder_cache_stats;

typedef struct ortkit__builder_report {
    ortkit__builder_record *r;
    size_t n, cap;
    double wall;          /* ninja's run: the compiles and links */
    double configure_wall; /* configuring (0 when the configuration was unchanged) */
    double install_wall;  /* cmake --install into the stage */
    double cpu;           /* sum of compile CPU time */
    uint64_t budget;
    int slots;
    long steps_total, steps_done, steps_at_start;
    ortkit__builder_gate_stats gate;
    int ungated;          /* compiles that ran without the gate */
    ortkit__builder_cache_stats cache;
    ortkit__builder_sharing sharing; /* ORT builds: what the variant's flags reach */
} ortkit__builder_report;

int ortkit__builder_report_add(ortkit__builder_report *rep, const char *path,
                               ortkit__builder_lang lang, double wall, double cpu, double waited,
                               uint64_t peak, uint64_t estimate, int status,
                               ortkit__builder_hold held);
/* What ccache did with the compile just added (and the time a hit saved,
 * < 0 when not known): into its record and the report's cache figures. */
void ortkit__builder_report_cache(ortkit__builder_report *rep, ortkit__builder_cache_outcome outcome,
                                  int remote_errors, double saved);
/* "12 hits (12 remote, 0 local), 0 misses": the cache figures in a line. */
void ortkit__builder_cache_line(const ortkit__builder_cache_stats *c, char *buf, size_t size);
void ortkit__builder_report_free(ortkit__builder_report *rep);
/* For people. */
void ortkit__builder_report_print(const ortkit__builder_report *rep, FILE *out);
/* As JSON text (malloc'd). */
char *ortkit__builder_report_json(const ortkit__builder_report *rep, const char *extra_json);

/* ---- progress line (progress.c) ------------------------------------------ */

typedef struct ortkit__builder_progress {
    int enabled;           /* draw at all (a tty, or --progress) */
    int drawn;             /* a line is on screen */
    double t_start, t_drawn;
    long done, total, at_start;
    double eta_hint;       /* seconds per step from history; 0 when none */
    const ortkit__builder_cache_stats *cache; /* shown when on; NULL: none */
} ortkit__builder_progress;

/* Parse a ninja status prefix "[ortkit F/T R] "; 1 when it was one. */
int ortkit__builder_progress_parse(const char *line, long *done, long *total, long *running);
/* Redraw the line (at most ~5 times a second unless force). */
void ortkit__builder_progress_draw(ortkit__builder_progress *p, int running, uint64_t in_use,
                                   uint64_t budget, int force, FILE *out);
void ortkit__builder_progress_clear(ortkit__builder_progress *p, FILE *out);
/* The text of the line, without drawing (for tests). */
void ortkit__builder_progress_format(const ortkit__builder_progress *p, char *buf, size_t size,
                                     int running, uint64_t in_use, uint64_t budget, double now);

/* The first compiler error in a log: "file:line:col: error: ..." (or a
 * linker / CMake error); 0 when one was found. */
int ortkit__builder_first_error(const char *log_path, char *buf, size_t size);

/* ---- running a plan (driver.c, server.c) ---------------------------------- */

/* One run of a plan: the options as given (the gate's budget and slots,
 * the compiler chain and cache, the status line), and what this run is. */
typedef struct ortkit__builder_execute_options {
    const ortkit__builder_options *opts;
    const ortkit__builder_plan *plan;
    const char *build_dir;
    int kind;                 /* ortkit__builder_kind */
    const char *variant_flags; /* ORT builds: the variant's CPU flags, for the sharing account */
    const char *source;        /* ORT builds: the source tree (ORT's own code is under it) */
    const char *target;       /* ninja target; NULL: default */
    int install;              /* cmake --install into plan->stage_dir */
} ortkit__builder_execute_options;

/* Configure when needed, build under the gate, install; fills the report.
 * Returns 0, ORTKIT_E_CANCELLED on an interrupt, or an error. */
int ortkit__builder_execute(const ortkit__builder_execute_options *opts, ortkit__builder_report *rep);
/* A SIGINT/SIGTERM handler: the build stops cleanly when it has run. */
void ortkit__builder_interrupt(int sig);

/* ---- a static core (static.c) ---------------------------------------------- */

/* Ask CMake's file API for the code model (written before configuring). */
int ortkit__builder_file_api_query(const char *build_dir);
/* 1 when a reply is there. */
int ortkit__builder_file_api_ready(const char *build_dir);

/* What a shared library target's link takes, from the file API's reply. */
typedef struct ortkit__builder_link {
    ortkit__strv archives; /* static libraries of the build, absolute, in link order, once each */
    ortkit__strv libs;     /* the rest as words a program links: -lNAME, -l:FILE, -pthread */
} ortkit__builder_link;
int ortkit__builder_link_read(ortkit__builder_link *out, const char *build_dir, const char *target);
void ortkit__builder_link_free(ortkit__builder_link *link);
/* libs joined by spaces (malloc'd); NULL when out of memory. */
char *ortkit__builder_link_words(const ortkit__builder_link *link);
/* One archive at out holding every member of archives (an `ar -M`
 * script), written under a temporary name and renamed: a failure leaves
 * what was at out. */
int ortkit__builder_archive_merge(const char *out, const ortkit__strv *archives);

/* ---- a whole build (build.c) ------------------------------------------------ */

typedef enum ortkit__builder_mode {
    ORTKIT__BUILDER_BUILD = 0, /* pre-flight, configure, build, install, bundle, report */
    ORTKIT__BUILDER_PLAN = 1,  /* the plan only (--dry-run): nothing is checked or written */
    ORTKIT__BUILDER_CHECK = 2  /* pre-flight only (--check) */
} ortkit__builder_mode;

/*
 * Everything a build is asked to do: `ortkit build`'s option table binds
 * each option straight into one of these fields (src/cli/build/cmd_build.c),
 * and nothing copies them elsewhere; the plan and the driver read them here.
 */
struct ortkit__builder_options {
    ortkit__builder_mode mode;
    const char *source;        /* an ONNX Runtime source tree, built for variant; or */
    const char *variant;
    const char *cmake_project; /* any CMake project */
    const char *build_dir;     /* NULL: ./build-<variant, or the project's name> */
    const char *launcher;      /* the ortkit executable, for the compile gate; NULL: no gate */
    const char *cuda_home;     /* NULL: CUDA_HOME, nvcc on PATH, /usr/local/cuda */
    const char *cudnn_home;    /* NULL: CUDNN_HOME, the toolkit, /usr */
    const char *eigen_dir;
    const char *patch_dir;     /* its *.patch applied once each */
    const char *bundle_into;   /* NULL: the user's bundle directory */
    int no_bundle;
    int static_core;           /* a static bundle: libonnxruntime.a merged from the build */
    const char *target;        /* a ninja target: a partial build, not installed nor bundled */
    int ccache;                /* --cache ccache */
    const char *distcc_hosts;  /* --distcc HOSTS */
    int has_cache_remote;      /* --cache-remote (with ccache): cache_remote holds it, checked */
    ortkit__builder_cache_remote cache_remote;
    int cache_remote_only;     /* --cache-remote-only: CCACHE_REMOTE_ONLY */
    const char *cache_basedir; /* --cache-basedir: CCACHE_BASEDIR */
    uint64_t budget;           /* 0: available memory less a reserve */
    uint64_t min_disk;         /* 0: a default for the kind of build */
    uint64_t lang_mem[ORTKIT__LANG_COUNT]; /* 0: the gate's defaults */
    long slots, ninja_jobs;    /* 0: cores; twice the slots */
    int lto, fetch;
    ortkit__strv models;       /* --ops-from: keep only their operators */
    ortkit__strv deps;         /* --dep NAME=DIR */
    const char *deps_dir;      /* --deps: dependency sources, compiled in */
    ortkit__strv accept_versions; /* --accept-dep-version NAME */
    const char *glibc_floor;   /* --glibc-floor "2.31"; NULL */
    const char *toolchain_file; /* a cross build: --toolchain-file, --cross-prefix, */
    const char *cross_prefix;   /* --host-protoc; NULL: ortkit's defaults */
    const char *host_protoc;
    ortkit__strv defines;      /* -D KEY=VALUE */
    ortkit__strv pythons;      /* --python: CPythons to make wheels for, the first the build's */
    const char *numpy_include; /* --numpy-include: numpy's C headers; NULL: each interpreter's numpy */
    const char *wheel_into;    /* where the wheels go; NULL: BUILD/wheels */
    int progress, quiet;       /* the status line; no "configuring" line */
    int catch_signals;         /* SIGINT/SIGTERM stop the build cleanly, to be resumed */
    FILE *log;                 /* patches applied; NULL: not said */
    void (*warn)(const char *msg); /* pre-flight's warnings; NULL: not said */
};

/* The compiler chain the options ask for: "ccache", "distcc",
 * "ccache+distcc" or NULL. */
const char *ortkit__builder_chain(const ortkit__builder_options *o);
/* --cache-remote, or NULL. */
const ortkit__builder_cache_remote *ortkit__builder_remote(const ortkit__builder_options *o);
/* Free the lists the options hold (not the strings they point to). */
void ortkit__builder_options_free(ortkit__builder_options *o);

typedef struct ortkit__builder_result {
    const ortkit_variant *variant; /* NULL for a CMake project */
    char *source, *build_dir;      /* absolute */
    char version[32];              /* ONNX Runtime's, from the source tree */
    char cuda_home[4096], cudnn_home[4096];
    ortkit__builder_toolchain toolchain; /* what pre-flight found */
    ortkit__builder_plan plan;
    char *ops_text;                /* the required operators a plan would write */
    ortkit__builder_report report;
    char *report_json;             /* as written to BUILD/ortkit-report.json */
    char bundle[4096];             /* the bundle made, "" when none */
    size_t bundle_missing;         /* CUDA builds: libraries its bundle still lacks */
    char *static_libs;             /* --static: what programs link after the archive */
    ortkit__builder_deps dep_sources; /* --deps: what went in */
    ortkit__builder_cross cross;   /* the target architecture and how it is built for */
    char *deps_dir;                /* --deps DIR, absolute */
    char glibc_here[16];           /* this environment's glibc, "2.31" */
    /* What the built library needs, measured on it (the bundle's manifest). */
    char needs_glibc[16], needs_glibcxx[16], needs_cxxabi[16];
    char *needs_libraries;         /* space-separated, NULL when none */
    size_t static_archives;        /* --static: static libraries merged into it */
    /* --python: the interpreters, the wheels made (one each), what the
     * extension's compiles and link took in the build (CPU and wall
     * seconds summed, steps), and each further interpreter's rebuild. */
    ortkit__builder_python *pythons;
    size_t n_pythons;
    ortkit__strv wheels;
    double python_cpu, python_wall;
    size_t python_steps;
    double *python_rebuild_wall;   /* [n_pythons]: 0 for the first */
} ortkit__builder_result;

/* The extension's share of a build's report: its compiles (ORT's
 * onnxruntime/python sources) and its link, summed. */
void ortkit__builder_python_account(const ortkit__builder_report *rep, double *cpu, double *wall,
                                    size_t *steps);

/*
 * Everything `ortkit build` does between reading its options and printing:
 * the variant and the source tree checked, pre-flight, the plan, the build
 * directory's lock, patches, the operators file, the build itself, the
 * report (also BUILD/ortkit-report.json) and the bundle.  What a mode
 * stops after is in *out either way; free it with ortkit__builder_result_free.
 * Returns 0, ORTKIT_E_CANCELLED when interrupted (a rerun resumes), or an
 * error.
 */
int ortkit__builder_build(ortkit__builder_result *out, const ortkit__builder_options *opts);
void ortkit__builder_result_free(ortkit__builder_result *r);

#endif
