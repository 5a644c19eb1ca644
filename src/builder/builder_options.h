/* builder_options.h - everything a build is asked to do, in one struct (options.c). */
#ifndef ORTKIT_BUILDER_OPTIONS_H
#define ORTKIT_BUILDER_OPTIONS_H

#include "ortkit.h"
#include "util.h"
#include "builder_compiler_cache.h"
#include "builder_gate.h"
#include "builder_plan.h"

#include <stdint.h>
#include <stdio.h>

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
struct ortkit__builder_options { /* typedef'd in builder_plan.h */
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

#endif
