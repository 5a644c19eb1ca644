/* builder_plan.h - the builder: plan (plan.c). */
#ifndef ORTKIT_BUILDER_PLAN_H
#define ORTKIT_BUILDER_PLAN_H

#include "ortkit.h"
#include "util.h"
#include "builder_deps.h"
#include "builder_cross.h"
#include "builder_python.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

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
/* The plan as the view `--dry-run --json` prints (plan_view.c), and that
 * view drawn as text: the summary, then the commands, one argument a line. */
struct cJSON *ortkit__builder_plan_view(const ortkit__builder_plan *plan);
int ortkit__builder_plan_text(const struct cJSON *view, FILE *out);
/* The plan as text (its view, drawn). */
int ortkit__builder_plan_write(const ortkit__builder_plan *plan, FILE *out);
/* The configure command as one shell line (for logs and the stamp file). */
char *ortkit__builder_plan_command_line(const ortkit__strv *argv);
/* CMAKE_CUDA_ARCHITECTURES for a variant: SASS only, "90a-real". */
int ortkit__builder_cuda_architectures(const ortkit_variant *v, char *buf, size_t size);

#endif
