/*
 * builder_build.h - the builder wing (src/builder), `ortkit build`: a whole
 * build from options to report (build.c); its parts have a header each
 * (builder_<part>.h: plan, pre-flight, patches, the compile gate and its
 * launcher, history, progress, report, ...).  Used by `ortkit build` and
 * the builder's tests; not installed.
 *
 * Internal names: ortkit__builder_<part>_<verb>.  Failures are recorded
 * through src/util's error channel (ortkit__error_message()).  The tool
 * links the builder and util statically and the library as a shared
 * object, which has its own, hidden copy of that channel: the builder
 * carries a library failure over into its own message (build.c).
 */
#ifndef ORTKIT_BUILDER_BUILD_H
#define ORTKIT_BUILDER_BUILD_H

#include "ortkit.h"
#include "util.h"
#include "builder_deps.h"
#include "builder_compiler_cache.h"
#include "builder_cross.h"
#include "builder_python.h"
#include "builder_plan.h"
#include "builder_preflight.h"
#include "builder_gate.h"
#include "builder_report.h"
#include "builder_options.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

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
    char report_name[40];          /* this run's report in BUILD/.ortkit/reports/, once it did work */
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
