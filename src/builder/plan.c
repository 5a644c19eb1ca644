/*
 * plan.c - variant + source tree + options -> the exact CMake configuration.
 *
 * Option names are ONNX Runtime's own (cmake/CMakeLists.txt of 1.21):
 * onnxruntime_BUILD_SHARED_LIB, onnxruntime_BUILD_UNIT_TESTS,
 * onnxruntime_USE_CUDA + onnxruntime_CUDA_HOME + onnxruntime_CUDNN_HOME,
 * onnxruntime_REDUCED_OPS_BUILD (whose kernel registrations are rewritten
 * beforehand by tools/ci_build/reduce_op_kernels.py, as build.py does), and
 * CMake's own FETCHCONTENT_* and CMAKE_* variables.
 */
#include "builder_plan.h"
#include "builder_options.h"
#include "builder_deps.h"
#include "builder_compiler_cache.h"
#include "builder_cross.h"
#include "builder_python.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define PUSH(sv, ...)                                          \
    do {                                                       \
        if ((rc = ortkit__strv_pushf((sv), __VA_ARGS__))) \
            goto cleanup;                                      \
    } while (0)

int ortkit__builder_cuda_architectures(const ortkit_variant *v, char *buf, size_t size)
{
    /* The variant's cubin ("sm_90a") names exactly the SASS it must carry;
     * "-real" keeps PTX out, so nothing relies on the driver's JIT. */
    if (!v || !v->cuda || strncmp(v->cubin, "sm_", 3) != 0)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "variant has no CUDA architecture");
    if ((size_t)snprintf(buf, size, "%s-real", v->cubin + 3) >= size)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "buffer too small");
    return 0;
}

static int push_launchers(ortkit__strv *sv, const ortkit__builder_config *cfg, int cuda)
{
    int rc = 0;
    if (!cfg->opts->launcher)
        return 0;
    /* CMake runs "<launcher...> <compiler> <args>": the gate sees every
     * compile (and link) and decides when it may start. */
    static const char *const langs[] = {"C", "CXX", "CUDA"};
    for (size_t i = 0; i < 3; i++) {
        if (i == 2 && !cuda)
            break;
        PUSH(sv, "-DCMAKE_%s_COMPILER_LAUNCHER=%s;build;--launch=%s/.ortkit", langs[i],
             cfg->opts->launcher, cfg->build_dir);
    }
    for (size_t i = 0; i < 2; i++)
        PUSH(sv, "-DCMAKE_%s_LINKER_LAUNCHER=%s;build;--launch=%s/.ortkit", langs[i],
             cfg->opts->launcher, cfg->build_dir);
cleanup:
    return rc;
}

static int push_defines(ortkit__strv *sv, const ortkit__builder_config *cfg)
{
    int rc = 0;
    for (size_t i = 0; i < cfg->opts->defines.n; i++)
        PUSH(sv, "-D%s", cfg->opts->defines.v[i]);
cleanup:
    return rc;
}

/* "cmake -S SOURCE[/SUB] -B BUILD -G Ninja": how every configure starts. */
static int push_cmake(ortkit__strv *c, const char *source, const char *sub, const char *build_dir)
{
    int rc = 0;
    PUSH(c, "cmake");
    PUSH(c, "-S");
    PUSH(c, "%s%s", source, sub);
    PUSH(c, "-B");
    PUSH(c, "%s", build_dir);
    PUSH(c, "-G");
    PUSH(c, "Ninja");
cleanup:
    return rc;
}

static int plan_cmake_project(ortkit__builder_plan *p, const ortkit__builder_config *cfg)
{
    ortkit__strv *c = &p->configure;
    int rc = push_cmake(c, cfg->source, "", cfg->build_dir);
    if (rc)
        return rc;
    PUSH(c, "-DCMAKE_BUILD_TYPE=Release");
    PUSH(c, "-DCMAKE_INSTALL_PREFIX=%s", p->stage_dir);
    if ((rc = push_launchers(c, cfg, 0)) || (rc = push_defines(c, cfg)))
        goto cleanup;
    PUSH(&p->summary, "project\t%s (a CMake project)", cfg->source);
cleanup:
    return rc;
}

/* FETCHCONTENT_SOURCE_DIR_<NAME>: CMake upper-cases the dependency's name. */
static int push_dep(ortkit__strv *c, const char *spec)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || !eq[1])
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "--dep wants NAME=DIR, got '%s'", spec);
    char name[64];
    size_t n = (size_t)(eq - spec);
    if (n >= sizeof name)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "dependency name too long: '%s'", spec);
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)spec[i];
        if (!isalnum(ch) && ch != '_' && ch != '-')
            return ortkit__error_set(ORTKIT_E_INVALID_ARG, "bad dependency name in '%s'", spec);
        name[i] = (char)toupper(ch);
    }
    name[n] = '\0';
    return ortkit__strv_pushf(c, "-DFETCHCONTENT_SOURCE_DIR_%s=%s", name, eq + 1);
}

/*
 * The variant's CPU flags reach ONNX Runtime's own code only: CMake
 * includes this file after every project() call, so ORT's adds the flags
 * and each dependency's (added below ORT's with FetchContent) takes them
 * away again.  Dependencies need no ISA flags, and compiled without them
 * they are the same compiles in every variant (a compiler cache serves the
 * second variant's).
 */
static int cpu_flags_cmake(ortkit__builder_plan *p, const char *flags)
{
    if (asprintf(&p->cpu_flags_cmake,
                 "# Written by ortkit build: the variant's CPU flags for ONNX Runtime's own C and\n"
                 "# C++ code; its dependencies (their own project()) compile without them, and so\n"
                 "# does CUDA device code (CMAKE_CUDA_FLAGS is left alone).\n"
                 "if(PROJECT_NAME STREQUAL \"onnxruntime\")\n"
                 "  string(APPEND CMAKE_C_FLAGS \" %s\")\n"
                 "  string(APPEND CMAKE_CXX_FLAGS \" %s\")\n"
                 "else()\n"
                 "  string(REPLACE \" %s\" \"\" CMAKE_C_FLAGS \"${CMAKE_C_FLAGS}\")\n"
                 "  string(REPLACE \" %s\" \"\" CMAKE_CXX_FLAGS \"${CMAKE_CXX_FLAGS}\")\n"
                 "endif()\n",
                 flags, flags, flags, flags) < 0) {
        p->cpu_flags_cmake = NULL;
        return ortkit__error_nomem();
    }
    return 0;
}

/* Each supplied dependency's source directory, and no find_package: nothing from the system. */
static int push_dep_sources(ortkit__builder_plan *p, const ortkit__builder_config *cfg)
{
    int rc = 0;
    const ortkit__builder_deps *ds = cfg->dep_sources;
    ortkit__strv *c = &p->configure, *s = &p->summary;
    size_t n_named = 0;
    PUSH(c, "-DFETCHCONTENT_TRY_FIND_PACKAGE_MODE=NEVER");
    for (size_t i = 0; i < ds->n; i++) {
        const ortkit__builder_dep *d = &ds->d[i];
        if (d->match == ORTKIT__DEP_NAMED) {
            n_named++;
            continue;
        }
        char upper[64];
        size_t k = 0;
        for (; d->content[k] && k + 1 < sizeof upper; k++)
            upper[k] = (char)toupper((unsigned char)d->content[k]);
        upper[k] = '\0';
        PUSH(c, "-DFETCHCONTENT_SOURCE_DIR_%s=%s", upper, d->tree ? d->tree : "?");
        /* ORT looks for SafeInt.hpp on the system first (find_path into
         * this variable): set, the search is skipped. */
        if (!strcmp(d->name, "safeint"))
            PUSH(c, "-Dsafeint_SOURCE_DIR=%s", d->tree ? d->tree : "?");
    }
    PUSH(s, "dependencies\tcompiled in, from %s (cmake/deps.txt: %zu used by this build%s, %zu "
            "not); none from the system",
         cfg->deps_dir, ds->n, n_named ? ", some named with --dep" : "", ds->unused.n);
    for (size_t i = 0; i < ds->n; i++) {
        const ortkit__builder_dep *d = &ds->d[i];
        const char *file = d->path ? strrchr(d->path, '/') : NULL;
        if (d->match == ORTKIT__DEP_NAMED) {
            PUSH(s, "dependency\t%s: named with --dep (deps.txt: %s%.12s)", d->name,
                 d->pinned_commit ? "commit " : "", d->pinned);
            continue;
        }
        PUSH(s, "dependency\t%s %s%s (deps.txt: %s%.12s%s) from %s, sha256 %.12s%s%s", d->name,
             d->version, d->match == ORTKIT__DEP_EXACT ? ", deps.txt's own file (SHA1 checked)"
                         : d->match == ORTKIT__DEP_VERSION ? ", the pinned version"
                                                           : ", ANOTHER VERSION (--accept-dep-version)",
             d->pinned_commit ? "commit " : "", d->pinned, d->pinned_commit && strlen(d->pinned) > 12 ? "..." : "",
             file ? file + 1 : "?", d->is_tree ? "(a tree)" : d->sha256,
             d->patched ? "; ORT's patch " : "", d->patched ? d->patch : "");
        if (d->origin)
            PUSH(s, "  origin\t%s", d->origin);
    }
    for (size_t i = 0; i < ds->ignored.n; i++)
        PUSH(s, "ignored\t%s/%s: no dependency of this build", cfg->deps_dir, ds->ignored.v[i]);
cleanup:
    return rc;
}

/*
 * What the variant's flags reach, by language and part: compiles without
 * them are the same in other variants (a shared cache serves them once),
 * compiles with them are this variant's own.
 */
static int plan_sharing(ortkit__builder_plan *p, const ortkit_variant *v)
{
    int rc = 0;
    ortkit__strv *sh = &p->sharing;
    const char *arch = ortkit_arch_name(v->arch);
    if (v->cpu_flags[0])
        PUSH(sh, "ORT's C/C++\tvariant-specific: %s (cpu-flags.cmake, project onnxruntime only)",
             v->cpu_flags);
    else
        PUSH(sh, "ORT's C/C++\tshared by the %s variants without CPU flags", arch);
    PUSH(sh, "deps' C/C++\tshared by every %s variant: no CPU flags (each dependency's own "
             "project() removes them)", arch);
    if (v->cuda)
        PUSH(sh, "CUDA (.cu)\tshared by every %s variant of CUDA %d.%d for %s: nvcc gets no CPU "
                 "flags (CMAKE_CUDA_FLAGS empty, none through -Xcompiler)",
             arch, v->cuda / 1000, (v->cuda % 1000) / 10, v->cubin);
    PUSH(sh, "links\tvariant-specific (they take the variant's objects)");
cleanup:
    return rc;
}

/* Which cache the compiles go through, and where it is shared. */
static int plan_cache(ortkit__builder_plan *p, const ortkit__builder_config *cfg)
{
    int rc = 0;
    ortkit__strv *s = &p->summary;
    int ccache = cfg->opts->ccache;
    if (!ccache)
        PUSH(s, "cache\tnone");
    else if (!cfg->opts->has_cache_remote)
        PUSH(s, "cache\tccache, local only (its cache directory: CCACHE_DIR or ccache's default)");
    else {
        const ortkit__builder_cache_remote *r = &cfg->opts->cache_remote;
        char db[32] = "";
        if (r->db >= 0)
            snprintf(db, sizeof db, ", database %ld", r->db);
        PUSH(s, "cache\tccache, remote %s (%s at %s port %u%s; CCACHE_REMOTE_STORAGE)%s", r->shown,
             ortkit__builder_cache_scheme_name(r->scheme), r->host, r->port, db,
             cfg->opts->cache_remote_only ? ", remote only (CCACHE_REMOTE_ONLY)" : ", and the local cache");
    }
    if (ccache && cfg->opts->cache_basedir)
        PUSH(s, "cache basedir\t%s (CCACHE_BASEDIR: paths under it compared relative to the build "
                "directory)", cfg->opts->cache_basedir);
    else if (ccache)
        PUSH(s, "cache basedir\tnone: a compile that names the build directory (its generated "
                "headers) is shared only with build directories of the same path; --cache-basedir "
                "DIR above them shares it too");
cleanup:
    return rc;
}

/* The operator reduction's command, when a build keeps only some operators. */
static int plan_reduce(ortkit__builder_plan *p, const ortkit__builder_config *cfg, int cuda)
{
    int rc = 0;
    if (cfg->ops_config) {
        ortkit__strv *r = &p->reduce;
        PUSH(r, "%s", cfg->python ? cfg->python : "python3");
        PUSH(r, "%s/tools/ci_build/reduce_op_kernels.py", cfg->source);
        PUSH(r, "%s", cfg->ops_config);
        PUSH(r, "--cmake_build_dir");
        PUSH(r, "%s", cfg->build_dir);
        if (cuda)
            PUSH(r, "--use_cuda");
    }
cleanup:
    return rc;
}

/* The CMake command line that configures ONNX Runtime (arch: the CUDA
 * architectures, for a CUDA variant). */
static int plan_configure(ortkit__builder_plan *p, const ortkit__builder_config *cfg, const char *arch)
{
    int rc = 0;
    const ortkit_variant *v = cfg->variant;
    ortkit__strv *c = &p->configure;
    int cuda = v->cuda != 0;
    if ((rc = push_cmake(c, cfg->source, "/cmake", cfg->build_dir)))
        return rc;
    /* ORT sets COMPILE_WARNING_AS_ERROR on its targets, so a compiler newer
     * than its CI's stops on new warnings in system headers (gcc 14 in
     * Eigen's AVX code); a release build keeps warnings as warnings. */
    PUSH(c, "--compile-no-warning-as-error");
    PUSH(c, "-DCMAKE_BUILD_TYPE=Release");
    PUSH(c, "-DCMAKE_INSTALL_PREFIX=%s", p->stage_dir);
    const ortkit__builder_cross *x = cfg->cross && cfg->cross->active ? cfg->cross : NULL;
    if (x) {
        PUSH(c, "-DCMAKE_TOOLCHAIN_FILE=%s", x->toolchain);
        /* ORT's CMake then builds protobuf without its protoc and runs this one. */
        if (x->protoc[0])
            PUSH(c, "-DONNX_CUSTOM_PROTOC_EXECUTABLE=%s", x->protoc);
        p->toolchain_path = x->toolchain;
        p->toolchain_text = x->toolchain_text;
    }
    PUSH(c, "-Donnxruntime_BUILD_SHARED_LIB=ON");
    PUSH(c, "-Donnxruntime_BUILD_UNIT_TESTS=OFF");
    const ortkit__builder_python *py = cfg->ext_python;
    if (py) {
        /* The interpreter and numpy's headers named, so CMake's FindPython
         * searches nothing (the numpy headers need no importable numpy). */
        PUSH(c, "-Donnxruntime_ENABLE_PYTHON=ON");
        /* What FindPython cached of another interpreter would stay (a build
         * directory configured again for the next CPython found no
         * Development.Module): dropped before it looks. */
        PUSH(c, "-U");
        PUSH(c, "_Python_*");
        PUSH(c, "-U");
        PUSH(c, "Python_*");
        PUSH(c, "-DPython_EXECUTABLE=%s", py->interpreter);
        PUSH(c, "-DPython_NumPy_INCLUDE_DIR=%s", py->numpy_include);
    } else {
        PUSH(c, "-Donnxruntime_ENABLE_PYTHON=OFF");
    }
    PUSH(c, "-Donnxruntime_USE_XNNPACK=OFF");
    PUSH(c, "-Donnxruntime_USE_DNNL=OFF");
    PUSH(c, "-Donnxruntime_USE_TENSORRT=OFF");
    PUSH(c, "-Donnxruntime_USE_CUDA=%s", cuda ? "ON" : "OFF");
    if (cuda) {
        PUSH(c, "-Donnxruntime_CUDA_HOME=%s", cfg->cuda_home);
        PUSH(c, "-Donnxruntime_CUDNN_HOME=%s", cfg->cudnn_home);
        PUSH(c, "-DCMAKE_CUDA_COMPILER=%s/bin/nvcc", cfg->cuda_home);
        PUSH(c, "-DCMAKE_CUDA_ARCHITECTURES=%s", arch);
        /* One nvcc thread per compile: the gate, not nvcc, decides parallelism. */
        PUSH(c, "-Donnxruntime_NVCC_THREADS=1");
    }
    PUSH(c, "-Donnxruntime_ENABLE_LTO=%s", cfg->opts->lto ? "ON" : "OFF");
    PUSH(c, "-Donnxruntime_REDUCED_OPS_BUILD=%s", cfg->ops_config ? "ON" : "OFF");
    if (!cfg->opts->fetch || cfg->dep_sources)
        PUSH(c, "-DFETCHCONTENT_FULLY_DISCONNECTED=ON");
    for (size_t i = 0; i < cfg->opts->deps.n; i++)
        if ((rc = push_dep(c, cfg->opts->deps.v[i])))
            goto cleanup;
    if (cfg->opts->eigen_dir) {
        PUSH(c, "-Donnxruntime_USE_PREINSTALLED_EIGEN=ON");
        PUSH(c, "-Deigen_SOURCE_PATH=%s", cfg->opts->eigen_dir);
    }
    if (v->cpu_flags[0]) {
        if ((rc = cpu_flags_cmake(p, v->cpu_flags)) ||
            asprintf(&p->cpu_flags_path, "%s/cpu-flags.cmake", p->state_dir) < 0) {
            p->cpu_flags_path = NULL;
            rc = rc ? rc : ortkit__error_nomem();
            goto cleanup;
        }
        PUSH(c, "-DCMAKE_PROJECT_INCLUDE=%s", p->cpu_flags_path);
    }
    /* Set, not left to the cache, where an older plan put the variant's
     * flags, nor to the environment (CFLAGS, CXXFLAGS, CUDAFLAGS seed them). */
    PUSH(c, "-DCMAKE_C_FLAGS=");
    PUSH(c, "-DCMAKE_CXX_FLAGS=");
    /* No library asks for an executable stack: MLAS's assembly carries no
     * .note.GNU-stack, which Debian 11's GNU ld (2.35) takes for
     * "executable" (trixie's 2.44 does not; ORT's CMake says nothing), and
     * glibc 2.41 and newer refuse to load such a library ("cannot enable
     * executable stack"). */
    PUSH(c, "-DCMAKE_SHARED_LINKER_FLAGS=-Wl,-z,noexecstack");
    PUSH(c, "-DCMAKE_MODULE_LINKER_FLAGS=-Wl,-z,noexecstack");
    /* CUDA device code gets no CPU flags at all: nvcc's own flags are these
     * (empty) and ORT's, and CMake hands nvcc none of CMAKE_CXX_FLAGS, so
     * the .cu compiles of every x86 variant of one CUDA and SM are the same
     * (docs/BUILD.md, "What variants share"). */
    if (cuda)
        PUSH(c, "-DCMAKE_CUDA_FLAGS=");
    if (!(rc = push_launchers(c, cfg, cuda)))
        rc = push_defines(c, cfg);
cleanup:
    return rc;
}

/* The plan in words, for people. */
static int plan_summary(ortkit__builder_plan *p, const ortkit__builder_config *cfg, const char *arch)
{
    const ortkit__builder_cross *x = cfg->cross && cfg->cross->active ? cfg->cross : NULL;
    const ortkit__builder_python *py = cfg->ext_python;
    const ortkit_variant *v = cfg->variant;
    ortkit__strv *s = &p->summary;
    int rc = 0, cuda = v->cuda != 0;
    char flox[128] = "";
    (void)ortkit_variant_name(v, flox, sizeof flox, ORTKIT_VARIANT_FLOX);
    PUSH(s, "variant\t%s (Flox: %s)", v->name, flox);
    PUSH(s, "source\t%s (ONNX Runtime %s)", cfg->source,
         cfg->ort_version ? cfg->ort_version : "?");
    if (x) {
        PUSH(s, "target\t%s, cross-compiled on %s: compilers %sgcc and %sg++%s (toolchain %s)",
             ortkit_arch_name(x->target), ortkit_arch_name(x->build), x->prefix, x->prefix,
             x->toolchain_text ? "" : " unless the toolchain file names others", x->toolchain);
        if (cuda)
            PUSH(s, "  not here\ta CUDA variant is not cross-compiled (it needs the %s CUDA toolkit "
                    "and cuDNN): this plan builds on an %s machine", ortkit_arch_name(x->target),
                 ortkit_arch_name(x->target));
        if (x->protoc[0])
            PUSH(s, "protoc\t%s: %s", x->protoc, x->protoc_from ? x->protoc_from : "?");
        else
            PUSH(s, "protoc\t%s", x->protoc_from ? x->protoc_from : "?");
    }
    PUSH(s, "cpu\t%s %s: %s%s", ortkit_arch_name(v->arch), ortkit_isa_name(v->isa),
         v->cpu_flags[0] ? v->cpu_flags : "(no flags)",
         v->cpu_flags[0] ? " (ONNX Runtime's own code; its dependencies compile without them)" : "");
    if (cuda)
        PUSH(s, "cuda\t%d.%d for SM %d.%d: %s SASS only (CMAKE_CUDA_ARCHITECTURES=%s); toolkit %s, "
                "cuDNN %s",
             v->cuda / 1000, (v->cuda % 1000) / 10, v->sm / 10, v->sm % 10, v->cubin, arch,
             cfg->cuda_home, cfg->cudnn_home);
    PUSH(s, "providers\tCPU%s (TensorRT, DNNL, XNNPACK off)", cuda ? ", CUDA" : "");
    if (cfg->opts->static_core)
        PUSH(s, "outputs\tstatic core: the shared library's static libraries merged into "
                "libonnxruntime.a after the build (providers stay shared); unit tests and Python off");
    else if (py)
        PUSH(s, "outputs\tshared library, and ONNX Runtime's Python package (the module "
                "onnxruntime: its Python files and the pybind11 extension "
                "onnxruntime_pybind11_state, linked from the same objects) as a wheel for each "
                "CPython below; unit tests off");
    else
        PUSH(s, "outputs\tshared library; unit tests and Python off");
    for (size_t i = 0; py && i < cfg->n_ext_pythons; i++) {
        const ortkit__builder_python *e = &cfg->ext_pythons[i];
        PUSH(s, "python\tCPython %s (%s): headers %s; %s from %s (%s)%s", e->version,
             e->interpreter, e->include, e->numpy_headers, e->numpy_include, e->numpy_from,
             i == 0 ? "; the build's" : "; then the build directory configured again for it, "
                                        "only the extension compiled again");
    }
    if (py)
        PUSH(s, "rtti\ton (pybind11 needs it: ONNX Runtime turns RTTI off only without Python "
                "and CUDA, so this build's objects are not a C-only build's)");
    if (cfg->dep_sources) {
        if ((rc = push_dep_sources(p, cfg)))
            goto cleanup;
    } else {
        PUSH(s, "dependencies\t%s%s%s%s",
             cfg->opts->fetch ? "CMake may download (cmake/deps.txt)" : "offline (system packages",
             cfg->opts->eigen_dir ? "; Eigen from " : "", cfg->opts->eigen_dir ? cfg->opts->eigen_dir : "",
             cfg->opts->fetch ? "" : ")");
    }
    for (size_t i = 0; i < cfg->opts->deps.n; i++)
        PUSH(s, "dependency\t%s (--dep)", cfg->opts->deps.v[i]);
    /* Said only when asked for: the environment's glibc alone is in the report. */
    if (cfg->opts->glibc_floor)
        PUSH(s, "glibc floor\tat most %s (--glibc-floor)%s%s", cfg->opts->glibc_floor,
             cfg->glibc_here ? "; this environment's C library is glibc " : "",
             cfg->glibc_here ? cfg->glibc_here : "");
    /* Whether the bundle runs beyond this machine, said before it is built. */
    char here[48] = "";
    if (cfg->glibc_here)
        snprintf(here, sizeof here, " (glibc %s)", cfg->glibc_here);
    if (!cfg->dep_sources)
        PUSH(s, "ships\tno: the library links %s and needs the glibc of the environment it is "
                "built in; a bundle that ships: --recipe debian11 in a Debian 11 root "
                "(docs/BUILD.md, \"Builds that ship\")",
             cfg->opts->fetch ? "what CMake downloads" : "this system's shared protobuf, ONNX, abseil "
                                                   "and re2 libraries");
    else if (!cfg->opts->glibc_floor)
        PUSH(s, "ships\twhere glibc is at least this environment's%s: dependencies compiled in; "
                "--glibc-floor VERSION holds it to a floor", here);
    else
        PUSH(s, "ships\tyes: dependencies compiled in, glibc %s at most (checked on the built "
                "library)", cfg->opts->glibc_floor);
    PUSH(s, "lto\t%s", cfg->opts->lto ? "on" : "off");
    if (cfg->ops_config)
        PUSH(s, "operators\treduced to %s", cfg->ops_config);
    else
        PUSH(s, "operators\tall");
cleanup:
    return rc;
}

/* An ONNX Runtime build: the variant checked, then its commands and its account. */
static int plan_ort(ortkit__builder_plan *p, const ortkit__builder_config *cfg)
{
    int rc = 0;
    const ortkit_variant *v = cfg->variant;
    char arch[32] = "";
    if (!v)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "an ONNX Runtime build needs a variant");
    if (v->defect[0])
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "variant %s cannot be built: %s", v->name,
                                 v->defect);
    int cuda = v->cuda != 0;
    if (cuda) {
        if (!cfg->cuda_home || !cfg->cudnn_home)
            return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                     "variant %s needs the CUDA toolkit and cuDNN locations",
                                     v->name);
        if ((rc = ortkit__builder_cuda_architectures(v, arch, sizeof arch)))
            return rc;
    }
    if ((rc = plan_reduce(p, cfg, cuda)) || (rc = plan_configure(p, cfg, arch)) ||
        (rc = plan_summary(p, cfg, arch)))
        return rc;
    return plan_sharing(p, v);
}

int ortkit__builder_plan_make(ortkit__builder_plan *out, const ortkit__builder_config *given)
{
    static const ortkit__builder_options none;
    int rc;
    memset(out, 0, sizeof *out);
    if (!given || !given->source || !given->build_dir)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "a plan needs a source and a build directory");
    ortkit__builder_config with_opts = *given;
    const ortkit__builder_config *cfg = &with_opts;
    if (!with_opts.opts)
        with_opts.opts = &none;
    if (asprintf(&out->stage_dir, "%s/stage", cfg->build_dir) < 0 ||
        asprintf(&out->state_dir, "%s/.ortkit", cfg->build_dir) < 0) {
        out->stage_dir = out->state_dir = NULL;
        rc = ortkit__error_nomem();
        goto fail;
    }
    rc = cfg->kind == ORTKIT__BUILD_CMAKE ? plan_cmake_project(out, cfg) : plan_ort(out, cfg);
    if (rc)
        goto fail;
    if ((rc = plan_cache(out, cfg)) ||
        (rc = ortkit__strv_pushf(&out->summary, "build\t%s", cfg->build_dir)) ||
        (rc = ortkit__strv_pushf(&out->summary, "stage\t%s", out->stage_dir)) ||
        (rc = ortkit__strv_pushf(&out->summary, "gate\t%s",
                                      cfg->opts->launcher ? "every compile and link through "
                                                            "`ortkit build --launch`"
                                                          : "none")))
        goto fail;
    return 0;
fail:
    ortkit__builder_plan_free(out);
    return rc;
}

void ortkit__builder_plan_free(ortkit__builder_plan *plan)
{
    if (!plan)
        return;
    ortkit__strv_free(&plan->configure);
    ortkit__strv_free(&plan->reduce);
    ortkit__strv_free(&plan->summary);
    ortkit__strv_free(&plan->sharing);
    free(plan->stage_dir);
    free(plan->state_dir);
    free(plan->cpu_flags_cmake);
    free(plan->cpu_flags_path);
    memset(plan, 0, sizeof *plan);
}

char *ortkit__builder_plan_command_line(const ortkit__strv *argv)
{
    size_t cap = 1, len = 0;
    for (size_t i = 0; i < argv->n; i++)
        cap += strlen(argv->v[i]) * 4 + 3;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    out[0] = '\0';
    for (size_t i = 0; i < argv->n; i++) {
        char *q = ortkit__shell_quote(argv->v[i]);
        if (!q) {
            free(out);
            return NULL;
        }
        len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? " " : "", q);
        free(q);
    }
    return out;
}

int ortkit__builder_plan_write(const ortkit__builder_plan *plan, FILE *out)
{
    cJSON *view = ortkit__builder_plan_view(plan);
    int rc = view ? ortkit__builder_plan_text(view, out) : ortkit__error_nomem();
    cJSON_Delete(view);
    return rc;
}
