/*
 * build.c - one whole build, from options to report: the variant and the
 * source tree, pre-flight, the plan, the build directory's lock, patches,
 * the required-operators file, the build under the gate, the report and
 * the bundle.  `ortkit build` only reads its options and prints; the
 * builder's tests reach every step here.
 */
#include "builder_build.h"
#include "builder_deps.h"
#include "builder_compiler_cache.h"
#include "builder_cross.h"
#include "builder_python.h"
#include "builder_plan.h"
#include "builder_ops.h"
#include "builder_preflight.h"
#include "builder_patch.h"
#include "builder_launcher.h"
#include "builder_report.h"
#include "builder_driver.h"
#include "builder_static.h"
#include "ortkit/tools/bundle_make.h"
#include "ortkit/tools/wheel.h"

#include <cjson/cJSON.h>
#include <gnu/libc-version.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A failure the library recorded, carried over into the builder's message:
 * inside the tool they are two copies of the error channel. */
static int library_failure(int rc)
{
    return ortkit__error_set(rc, "%s", ortkit_error_last());
}

/* Where the build goes, and what it builds, as absolute paths. */
static int resolve_paths(ortkit__builder_result *r, const ortkit__builder_options *o)
{
    int rc = ortkit__path_absolute(&r->source, o->source ? o->source : o->cmake_project);
    if (rc || o->build_dir)
        return rc ? rc : ortkit__path_absolute(&r->build_dir, o->build_dir);
    const char *base = r->variant ? r->variant->name : strrchr(r->source, '/') + 1;
    char *name = NULL;
    if (asprintf(&name, "build-%s", *base ? base : "project") < 0)
        return ortkit__error_nomem();
    rc = ortkit__path_absolute(&r->build_dir, name);
    free(name);
    return rc;
}

/* Pre-flight (it finds the CUDA toolkit the plan names); a plan alone only
 * names what pre-flight would look for. */
static int find_toolchain(ortkit__builder_result *r, const ortkit__builder_options *o)
{
    const ortkit_variant *v = r->variant;
    if (o->mode != ORTKIT__BUILDER_PLAN) {
        ortkit__builder_preflight pf = {v ? ORTKIT__BUILD_ORT : ORTKIT__BUILD_CMAKE, r->source,
                                        r->build_dir, v, o->cuda_home, o->min_disk,
                                        o->ccache, o->distcc_hosts,
                                        o->models.n > 0, ortkit__builder_remote(o),
                                        r->cross.active ? r->cross.prefix : NULL};
        int rc = ortkit__builder_preflight_run(&pf, &r->toolchain, r->cuda_home,
                                               sizeof r->cuda_home, r->cudnn_home,
                                               sizeof r->cudnn_home, o->warn);
        if (rc)
            return rc;
    } else if (v && v->cuda) {
        const char *env = ortkit__env("CUDA_HOME");
        snprintf(r->cuda_home, sizeof r->cuda_home, "%s",
                 o->cuda_home ? o->cuda_home : env && *env ? env : "/usr/local/cuda");
        env = ortkit__env("CUDNN_HOME");
        snprintf(r->cudnn_home, sizeof r->cudnn_home, "%s", env && *env ? env : r->cuda_home);
    }
    if (o->cudnn_home)
        snprintf(r->cudnn_home, sizeof r->cudnn_home, "%s", o->cudnn_home);
    return ORTKIT_OK;
}

/* The required-operators file; for a plan, written to a scratch file whose
 * text is kept in r->ops_text, then removed. */
static int write_ops_config(ortkit__builder_result *r, const ortkit__builder_options *o,
                            const char *path)
{
    char scratch[PATH_MAX];
    const char *dst = path;
    if (o->mode == ORTKIT__BUILDER_PLAN) {
        const char *tmp = ortkit__env("TMPDIR");
        int rc = ortkit__pathf(scratch, sizeof scratch, "%s/ortkit-ops.%ld.config",
                               tmp && *tmp ? tmp : "/tmp", (long)getpid());
        if (rc)
            return rc;
        dst = scratch;
    }
    size_t n_ops = 0;
    int gpu = r->variant && r->variant->cuda;
    int rc = ortkit__builder_ops_write(dst, (const char *const *)o->models.v, o->models.n, gpu, &n_ops);
    if (rc)
        return rc;
    if (o->mode == ORTKIT__BUILDER_PLAN) {
        rc = ortkit__file_read(&r->ops_text, NULL, dst, 1 << 20);
        unlink(dst);
    }
    return rc;
}

/* The static core: the static libraries the shared library's link took,
 * merged into BUILD/static/libonnxruntime.a, and what programs link after it. */
static int make_static_core(ortkit__builder_result *r, char *archive, size_t size)
{
    ortkit__builder_link link;
    int rc = ortkit__builder_link_read(&link, r->build_dir, "onnxruntime");
    if (rc)
        return rc;
    char dir[PATH_MAX];
    if (!(rc = ortkit__pathf(dir, sizeof dir, "%s/static", r->build_dir)) &&
        !(rc = ortkit__mkdirs(dir)) &&
        !(rc = ortkit__pathf(archive, size, "%s/libonnxruntime.a", dir)) &&
        !(rc = ortkit__builder_archive_merge(archive, &link.archives))) {
        free(r->static_libs);
        if (!(r->static_libs = ortkit__builder_link_words(&link)))
            rc = ortkit__error_nomem();
        r->static_archives = link.archives.n;
    }
    ortkit__builder_link_free(&link);
    return rc;
}

/* A CUDA build's bundle is made self-contained from the toolkit and cuDNN
 * it was built with (wherever the environment points), each library
 * checked for the right CUDA major and listed; what is not there stays
 * listed as missing in the manifest and in r->bundle_missing. */
static int complete_cuda_bundle(ortkit__builder_result *r, const char *dir)
{
    char dirs[4][PATH_MAX];
    const char *from[4];
    const char *homes[] = {r->cuda_home, r->cuda_home, r->cudnn_home, r->cudnn_home};
    size_t n = 0;
    for (size_t i = 0; i < 4; i++) {
        /* cuDNN inside the toolkit (pip's layout, the usual case): once. */
        if (!homes[i][0] || (i >= 2 && !strcmp(homes[i], r->cuda_home)) ||
            ortkit__pathf(dirs[n], sizeof dirs[n], "%s/%s", homes[i], i % 2 ? "lib" : "lib64"))
            continue;
        from[n] = dirs[n];
        n++;
    }
    ortkit_bundle_complete_options co = ORTKIT_BUNDLE_COMPLETE_OPTIONS_INIT;
    co.from = from;
    co.from_count = n;
    ortkit_bundle *b = NULL;
    if (ortkit_bundle_complete(&b, dir, &co) != 0)
        return ortkit__error_set(ORTKIT_E_IO, "the build succeeded and was bundled in %s, but its "
                                 "CUDA libraries could not be added: %s", dir, ortkit_error_last());
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    r->bundle_missing = m ? m->gpu_missing_count : 0;
    ortkit_bundle_free(b);
    return ORTKIT_OK;
}

/* What the built library needs of a host, as the bundle measured it. */
static int record_needs(ortkit__builder_result *r, const ortkit_manifest *m)
{
    snprintf(r->needs_glibc, sizeof r->needs_glibc, "%s", m->needs_glibc ? m->needs_glibc : "");
    snprintf(r->needs_glibcxx, sizeof r->needs_glibcxx, "%s", m->needs_glibcxx ? m->needs_glibcxx : "");
    snprintf(r->needs_cxxabi, sizeof r->needs_cxxabi, "%s", m->needs_cxxabi ? m->needs_cxxabi : "");
    size_t len = 1;
    for (size_t i = 0; i < m->needs_library_count; i++)
        len += strlen(m->needs_libraries[i]) + 1;
    free(r->needs_libraries);
    if (!(r->needs_libraries = calloc(1, len)))
        return ortkit__error_nomem();
    for (size_t i = 0; i < m->needs_library_count; i++) {
        if (i)
            strcat(r->needs_libraries, " ");
        strcat(r->needs_libraries, m->needs_libraries[i]);
    }
    return ORTKIT_OK;
}

/* The manifest's "build": the environment's glibc, the floor asked for,
 * and what went into the library. */
static char *account_json(const ortkit__builder_result *r, const ortkit__builder_options *o)
{
    cJSON *j = cJSON_CreateObject();
    if (!j)
        return NULL;
    cJSON_AddStringToObject(j, "glibc", r->glibc_here);
    cJSON_AddItemToObject(j, "glibc_floor", o->glibc_floor ? cJSON_CreateString(o->glibc_floor)
                                                           : cJSON_CreateNull());
    cJSON_AddItemToObject(j, "dependencies", ortkit__builder_deps_json(&r->dep_sources));
    /* Objects from a shared cache are trusted as its server is: said. */
    const ortkit__builder_cache_stats *cs = &r->report.cache;
    if (o->ccache) {
        cJSON *c = cJSON_AddObjectToObject(j, "cache");
        cJSON_AddStringToObject(c, "tool", "ccache");
        cJSON_AddItemToObject(c, "remote", o->has_cache_remote ? cJSON_CreateString(o->cache_remote.shown)
                                                           : cJSON_CreateNull());
        cJSON_AddNumberToObject(c, "remote_hits", (double)cs->outcome[ORTKIT__CACHE_REMOTE_HIT]);
        /* Which local cache (driver.c keeps a server's objects in one of its own). */
        cJSON_AddStringToObject(c, "local", !o->has_cache_remote ? "no-server"
                                            : o->cache_remote_only ? "none" : "server");
    }
    char *text = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    return text;
}

/* The one place the builder hands its result to the bundle module.  A CUDA
 * build is imported with its providers' evidence (CUDA, cuDNN, the GPU code
 * in their fat binaries, held to the variant's), then completed. */
static int make_bundle(ortkit__builder_result *r, const ortkit__builder_options *o)
{
    ortkit_bundle_import_options io = ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT;
    char archive[PATH_MAX], providers[PATH_MAX];
    int rc;
    io.variant = r->variant->name;
    io.into = o->bundle_into;
    io.force = 1;
    if (r->variant->cuda) {
        if ((rc = ortkit__pathf(providers, sizeof providers, "%s/lib", r->plan.stage_dir)))
            return rc;
        io.providers = providers;
    }
    if (o->static_core) {
        if ((rc = make_static_core(r, archive, sizeof archive)))
            return ortkit__error_wrap(rc, "the build succeeded, but its static core could not be "
                                      "made (the build is in %s)", r->build_dir);
        io.static_archive = archive;
        io.static_libs = r->static_libs;
    }
    char *build_json = account_json(r, o);
    if (!build_json)
        return ortkit__error_nomem();
    io.build_json = build_json;
    ortkit_bundle *b = NULL;
    rc = ortkit_bundle_import(&b, r->plan.stage_dir, &io);
    free(build_json);
    if (rc != 0)
        return ortkit__error_set(ORTKIT_E_IO,
                                 "the build succeeded, but making its bundle failed: %s (the build "
                                 "is in %s)",
                                 ortkit_error_last(), r->plan.stage_dir);
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    snprintf(r->bundle, sizeof r->bundle, "%s", m && m->dir ? m->dir : "");
    rc = m ? record_needs(r, m) : ORTKIT_OK;
    ortkit_bundle_free(b);
    if (rc)
        return rc;
    return r->variant->cuda && r->bundle[0] ? complete_cuda_bundle(r, r->bundle) : ORTKIT_OK;
}

/* --glibc-floor held against what the library turned out to need. */
static int check_floor(const ortkit__builder_result *r, const ortkit__builder_options *o)
{
    if (!o->glibc_floor || !r->needs_glibc[0] ||
        ortkit__version_compare(r->needs_glibc, o->glibc_floor) <= 0)
        return ORTKIT_OK;
    return ortkit__error_set(ORTKIT_E_UNSUPPORTED,
                             "the library built needs glibc %s, newer than --glibc-floor %s (the "
                             "bundle %s says so and loads only on such hosts): build in an older "
                             "environment", r->needs_glibc, o->glibc_floor, r->bundle);
}

/* What the report says about the build besides its figures. */
static cJSON *build_facts(const ortkit__builder_result *r, const ortkit__builder_options *o)
{
    const ortkit__builder_toolchain *tc = &r->toolchain;
    cJSON *j = cJSON_CreateObject();
    if (!j)
        return NULL;
    if (r->variant) {
        cJSON_AddStringToObject(j, "variant", r->variant->name);
        cJSON_AddStringToObject(j, "cpu_flags", r->variant->cpu_flags);
        cJSON_AddStringToObject(j, "ort_version", r->version);
    } else {
        cJSON_AddStringToObject(j, "project", o->cmake_project);
    }
    cJSON *t = cJSON_AddObjectToObject(j, "toolchain");
    if (t) {
        cJSON_AddStringToObject(t, "cmake", tc->cmake);
        cJSON_AddStringToObject(t, "ninja", tc->ninja);
        cJSON_AddStringToObject(t, "cc", tc->cc);
        cJSON_AddStringToObject(t, "cxx", tc->cxx);
        if (tc->nvcc[0])
            cJSON_AddStringToObject(t, "nvcc", tc->nvcc);
        if (tc->cudnn[0])
            cJSON_AddStringToObject(t, "cudnn", tc->cudnn);
        if (tc->ccache[0])
            cJSON_AddStringToObject(t, "ccache", tc->ccache);
    }
    if (r->cross.active) {
        const ortkit__builder_cross *x = &r->cross;
        cJSON *c = cJSON_AddObjectToObject(j, "cross");
        cJSON_AddStringToObject(c, "build", ortkit_arch_name(x->build));
        cJSON_AddStringToObject(c, "target", ortkit_arch_name(x->target));
        cJSON_AddStringToObject(c, "toolchain", x->toolchain);
        cJSON_AddStringToObject(c, "compilers", x->prefix);
        cJSON_AddStringToObject(c, "protoc", x->protoc);
        cJSON_AddStringToObject(c, "protoc_version", x->protoc_version);
        cJSON_AddStringToObject(c, "protoc_from", x->protoc_from ? x->protoc_from : "");
    }
    cJSON_AddItemToObject(j, "configure",
                          cJSON_CreateStringArray((const char *const *)r->plan.configure.v,
                                                  (int)r->plan.configure.n));
    cJSON_AddStringToObject(j, "chain", ortkit__builder_chain(o) ? ortkit__builder_chain(o) : "none");
    cJSON_AddStringToObject(j, "build_dir", r->build_dir);
    cJSON_AddStringToObject(j, "stage", r->plan.stage_dir);
    if (r->bundle[0]) {
        cJSON_AddStringToObject(j, "bundle", r->bundle);
        if (r->variant && r->variant->cuda)
            cJSON_AddNumberToObject(j, "bundle_cuda_libraries_missing", (double)r->bundle_missing);
    }
    if (r->dep_sources.n)
        cJSON_AddItemToObject(j, "dependencies", ortkit__builder_deps_json(&r->dep_sources));
    if (r->variant) {
        cJSON *fl = cJSON_AddObjectToObject(j, "glibc");
        cJSON_AddStringToObject(fl, "environment", r->glibc_here);
        if (o->glibc_floor)
            cJSON_AddStringToObject(fl, "floor", o->glibc_floor);
    }
    if (r->needs_libraries) {
        cJSON *nd = cJSON_AddObjectToObject(j, "needs");
        cJSON_AddStringToObject(nd, "glibc", r->needs_glibc);
        cJSON_AddStringToObject(nd, "glibcxx", r->needs_glibcxx);
        cJSON_AddStringToObject(nd, "cxxabi", r->needs_cxxabi);
        cJSON_AddStringToObject(nd, "libraries", r->needs_libraries);
    }
    if (r->n_pythons) {
        cJSON *py = cJSON_AddObjectToObject(j, "python");
        cJSON *list = cJSON_AddArrayToObject(py, "interpreters");
        for (size_t i = 0; i < r->n_pythons; i++) {
            cJSON *e = cJSON_CreateObject();
            cJSON_AddStringToObject(e, "version", r->pythons[i].version);
            cJSON_AddStringToObject(e, "interpreter", r->pythons[i].interpreter);
            cJSON_AddStringToObject(e, "numpy_include", r->pythons[i].numpy_include);
            cJSON_AddStringToObject(e, "numpy_headers", r->pythons[i].numpy_headers);
            /* The first is built with everything else; each further one alone. */
            cJSON_AddNumberToObject(e, "rebuild_wall_s", r->python_rebuild_wall[i]);
            cJSON_AddItemToArray(list, e);
        }
        cJSON *ext = cJSON_AddObjectToObject(py, "extension");
        cJSON_AddNumberToObject(ext, "steps", (double)r->python_steps);
        cJSON_AddNumberToObject(ext, "cpu_s", r->python_cpu);
        cJSON_AddNumberToObject(ext, "wall_s_summed", r->python_wall);
        cJSON_AddNumberToObject(ext, "build_cpu_s", r->report.cpu);
        cJSON_AddItemToObject(py, "wheels", cJSON_CreateStringArray((const char *const *)r->wheels.v,
                                                                    (int)r->wheels.n));
    }
    if (r->static_libs) {
        cJSON *st = cJSON_AddObjectToObject(j, "static");
        cJSON_AddNumberToObject(st, "archives_merged", (double)r->static_archives);
        cJSON_AddStringToObject(st, "links_after", r->static_libs);
    }
    return j;
}

/*
 * The report as JSON into r->report_json, also written to
 * BUILD/ortkit-report.json.  A rerun that compiled nothing leaves an
 * existing report alone: it holds the figures of the build that did the work.
 */
static int save_report(ortkit__builder_result *r, const ortkit__builder_options *o)
{
    cJSON *facts = build_facts(r, o);
    char *facts_text = facts ? cJSON_PrintUnformatted(facts) : NULL;
    cJSON_Delete(facts);
    free(r->report_json);
    r->report_json = facts_text ? ortkit__builder_report_json(&r->report, facts_text) : NULL;
    free(facts_text);
    if (!r->report_json)
        return ortkit__error_nomem();
    char path[PATH_MAX];
    int rc = ortkit__pathf(path, sizeof path, "%s/ortkit-report.json", r->build_dir);
    if (!rc && (r->report.n > 0 || access(path, F_OK) != 0))
        rc = ortkit__file_write_atomic(path, r->report_json, strlen(r->report_json));
    /* A run that did work keeps its own report too: a later rerun that only
     * relinks replaces ortkit-report.json, not the figures of the big build. */
    if (!rc && r->report.n > 0) {
        if (!r->report_name[0]) {
            time_t now = time(NULL);
            struct tm tm;
            gmtime_r(&now, &tm);
            strftime(r->report_name, sizeof r->report_name, "%Y%m%dT%H%M%SZ", &tm);
            snprintf(r->report_name + strlen(r->report_name),
                     sizeof r->report_name - strlen(r->report_name), "-%ld.json", (long)getpid());
        }
        if ((rc = ortkit__pathf(path, sizeof path, "%s/reports", r->plan.state_dir)) ||
            (rc = ortkit__mkdirs(path)) ||
            (rc = ortkit__pathf(path, sizeof path, "%s/reports/%s", r->plan.state_dir,
                                r->report_name)))
            return rc;
        rc = ortkit__file_write_atomic(path, r->report_json, strlen(r->report_json));
    }
    return rc;
}

/* How a plan runs: the gate, the cache, progress; a target (or NULL) and install. */
static ortkit__builder_execute_options exec_options(const ortkit__builder_result *r,
                                                   const ortkit__builder_options *o,
                                                   const ortkit__builder_plan *plan,
                                                   const char *target, int install)
{
    const ortkit_variant *v = r->variant;
    ortkit__builder_execute_options eo = {
        .opts = o, .plan = plan, .build_dir = r->build_dir,
        .kind = v ? ORTKIT__BUILD_ORT : ORTKIT__BUILD_CMAKE,
        .variant_flags = v ? v->cpu_flags : NULL, .source = r->source, .target = target,
        .install = install};
    return eo;
}

/* The extension for a further CPython: the build directory configured again
 * with only Python_EXECUTABLE changed, the extension's target built (its
 * post-build step copies it into BUILD/onnxruntime/capi). */
static int build_extension_for(ortkit__builder_result *r, const ortkit__builder_options *o,
                               const ortkit__builder_config *cfg, size_t i)
{
    ortkit__builder_config c = *cfg;
    c.ext_python = &r->pythons[i];
    ortkit__builder_plan plan;
    ortkit__builder_report rep;
    memset(&rep, 0, sizeof rep);
    int rc = ortkit__builder_plan_make(&plan, &c);
    if (rc)
        return rc;
    ortkit__builder_execute_options eo = exec_options(r, o, &plan, "onnxruntime_pybind11_state", 0);
    rc = ortkit__builder_execute(&eo, &rep);
    r->python_rebuild_wall[i] = rep.wall + rep.configure_wall;
    ortkit__builder_report_free(&rep);
    ortkit__builder_plan_free(&plan);
    return rc;
}

/* --python: a wheel for each CPython, from BUILD/onnxruntime and the
 * bundle's facts; the first from the build itself. */
static int make_wheels(ortkit__builder_result *r, const ortkit__builder_options *o,
                       const ortkit__builder_config *cfg)
{
    if (!r->n_pythons || !r->bundle[0])
        return ORTKIT_OK;
    char into[PATH_MAX], pkg[PATH_MAX];
    int rc = o->wheel_into ? ortkit__pathf(into, sizeof into, "%s", o->wheel_into)
                           : ortkit__pathf(into, sizeof into, "%s/wheels", r->build_dir);
    if (rc || (rc = ortkit__pathf(pkg, sizeof pkg, "%s/onnxruntime", r->build_dir)))
        return rc;
    ortkit__builder_python_account(&r->report, &r->python_cpu, &r->python_wall, &r->python_steps);
    for (size_t i = 0; i < r->n_pythons; i++) {
        const ortkit__builder_python *py = &r->pythons[i];
        if (i > 0 && (rc = build_extension_for(r, o, cfg, i)))
            return ortkit__error_wrap(rc, "the extension for CPython %s", py->version);
        ortkit_wheel_pack_options wo = ORTKIT_WHEEL_PACK_OPTIONS_INIT;
        wo.bundle = r->bundle;
        wo.python = py->version;
        wo.into = into;
        wo.numpy_headers = py->numpy_headers;
        char *path = NULL;
        if (ortkit_wheel_pack(&path, pkg, &wo) != 0)
            return ortkit__error_set(ORTKIT_E_IO, "the build succeeded, but its wheel for CPython %s "
                                     "could not be made: %s", py->version, ortkit_error_last());
        rc = ortkit__strv_push(&r->wheels, path);
        free(path);
        if (rc)
            return rc;
    }
    return ORTKIT_OK;
}

/* Lock, patch, write the operators file, build, report, bundle, wheels. */
static int build_locked(ortkit__builder_result *r, const ortkit__builder_options *o,
                        const ortkit__builder_config *cfg, const char *ops_path)
{
    const ortkit_variant *v = r->variant;
    int rc;
    if (o->patch_dir) {
        size_t applied = 0, skipped = 0;
        if ((rc = ortkit__builder_patch_apply(o->patch_dir, r->source, r->plan.state_dir, o->log,
                                              &applied, &skipped)))
            return rc;
    }
    if (o->models.n && (rc = write_ops_config(r, o, ops_path)))
        return rc;
    if (r->plan.toolchain_text &&
        (rc = ortkit__file_write_atomic(r->plan.toolchain_path, r->plan.toolchain_text,
                                        strlen(r->plan.toolchain_text))))
        return rc;
    if (r->plan.cpu_flags_path &&
        (rc = ortkit__file_write_atomic(r->plan.cpu_flags_path, r->plan.cpu_flags_cmake,
                                        strlen(r->plan.cpu_flags_cmake))))
        return rc;
    if (o->catch_signals) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = ortkit__builder_interrupt; /* no SA_RESTART: poll and waitpid see it */
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
    }
    ortkit__builder_execute_options eo = exec_options(r, o, &r->plan, o->target, o->target == NULL);
    if ((rc = ortkit__builder_execute(&eo, &r->report)))
        return rc;
    /* Saved before bundling too, so that a failed bundle step keeps the
     * figures of the build it follows. */
    if ((rc = save_report(r, o)))
        return rc;
    /* A partial build (a target) is neither installed nor bundled. */
    if (v && !o->no_bundle && !o->target && (rc = make_bundle(r, o)))
        return rc;
    if (v && !o->no_bundle && !o->target && (rc = make_wheels(r, o, cfg)))
        return rc;
    if ((rc = save_report(r, o)))
        return rc;
    return check_floor(r, o);
}

/* --deps: deps.txt's entries mapped to DIR, checked, and (unless only a
 * plan is wanted) extracted into the user's cache with ORT's patches. */
static int supply_deps(ortkit__builder_result *r, const ortkit__builder_options *o)
{
    char path[PATH_MAX], cache[PATH_MAX];
    ortkit__strv named = {0};
    int rc = ortkit__pathf(path, sizeof path, "%s/cmake/deps.txt", r->source);
    int kinds = (r->variant->cuda ? ORTKIT__DEPS_CUDA : 0) | (o->pythons.n ? ORTKIT__DEPS_PYTHON : 0);
    if (rc || (rc = ortkit__builder_deps_read(&r->dep_sources, path, kinds)))
        return rc;
    /* --dep NAME=DIR and --eigen name their own sources. */
    for (size_t i = 0; i < o->deps.n; i++) {
        const char *eq = strchr(o->deps.v[i], '=');
        if ((rc = ortkit__strv_pushf(&named, "%.*s", (int)(eq ? eq - o->deps.v[i] : 0), o->deps.v[i])))
            goto cleanup;
    }
    if (o->eigen_dir && (rc = ortkit__strv_push(&named, "eigen")))
        goto cleanup;
    if ((rc = ortkit__path_absolute(&r->deps_dir, o->deps_dir)))
        goto cleanup;
    if ((rc = ortkit__builder_deps_resolve(&r->dep_sources, r->deps_dir, (const char *const *)o->accept_versions.v,
                                           o->accept_versions.n, (const char *const *)named.v,
                                           named.n)))
        goto cleanup;
    if (ortkit__cache_dir(cache, sizeof cache, "dep-sources") != 0) {
        rc = ortkit__error_set(ORTKIT_E_IO, "no cache directory of yours alone for the dependency "
                               "sources: set XDG_CACHE_HOME or HOME to a directory you own");
        goto cleanup;
    }
    rc = ortkit__builder_deps_prepare(&r->dep_sources, cache, r->source,
                                      o->mode == ORTKIT__BUILDER_PLAN, o->log);
cleanup:
    ortkit__strv_free(&named);
    return rc;
}

int ortkit__builder_build(ortkit__builder_result *r, const ortkit__builder_options *o)
{
    memset(r, 0, sizeof *r);
    int rc;
    if (!o->source == !o->cmake_project)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                 "a build needs a source tree or a CMake project, not both");
    if (o->static_core && !o->source)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "--static makes a bundle of an ONNX Runtime "
                                 "build: it needs --source and --variant");
    if (o->static_core && o->no_bundle)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "--static makes a static bundle: it cannot "
                                 "go with --no-bundle");
    if (o->pythons.n && (!o->source || o->static_core || o->no_bundle))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "--python makes wheels of an ONNX Runtime "
                                 "build's bundle: it needs --source and --variant, and goes with "
                                 "neither --static nor --no-bundle");
    int ccache = o->ccache;
    if ((o->has_cache_remote || o->cache_remote_only || o->cache_basedir) && !ccache)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "--cache-remote, --cache-remote-only and "
                                 "--cache-basedir are ccache's: they go with --cache ccache");
    if (o->cache_remote_only && !o->has_cache_remote)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "--cache-remote-only goes with --cache-remote URL");
    if (o->cache_basedir && o->cache_basedir[0] != '/')
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "--cache-basedir wants an absolute directory");
    if (o->source) {
        if (!o->variant)
            return ortkit__error_set(ORTKIT_E_INVALID_ARG, "a source tree needs a variant");
        if ((rc = ortkit_variant_parse(&r->variant, o->variant)))
            return library_failure(rc);
    }
    if ((rc = resolve_paths(r, o)))
        return rc;
    const ortkit_variant *v = r->variant;
    if (v && (rc = ortkit__builder_ort_version(r->version, sizeof r->version, r->source)))
        return rc;
    if (v && v->defect[0])
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "variant %s cannot be built: %s", v->name,
                                 v->defect);
    snprintf(r->glibc_here, sizeof r->glibc_here, "%s", gnu_get_libc_version());
    if (v && o->glibc_floor && o->mode != ORTKIT__BUILDER_PLAN &&
        ortkit__version_compare(r->glibc_here, o->glibc_floor) > 0)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED,
                                 "this environment's C library is glibc %s, newer than --glibc-floor "
                                 "%s: a library built here may need glibc %s; build in an older "
                                 "root (scripts/build_root.sh makes Debian 11's, glibc 2.31)",
                                 r->glibc_here, o->glibc_floor, r->glibc_here);
    char state_dir[PATH_MAX];
    if ((rc = ortkit__pathf(state_dir, sizeof state_dir, "%s/.ortkit", r->build_dir)) ||
        (rc = ortkit__builder_cross_init(&r->cross, v, state_dir, o->toolchain_file,
                                         o->cross_prefix, o->host_protoc)) ||
        (o->mode != ORTKIT__BUILDER_PLAN && (rc = ortkit__builder_cross_buildable(&r->cross, v))))
        return rc;
    if ((rc = find_toolchain(r, o)))
        return rc;
    if (o->pythons.n && r->cross.active)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "--python with a cross build: the extension "
                                 "needs the target's CPython; build the wheel on a %s machine",
                                 ortkit_arch_name(r->cross.target));
    if (o->pythons.n && (!(r->pythons = calloc(o->pythons.n, sizeof *r->pythons)) ||
                         !(r->python_rebuild_wall = calloc(o->pythons.n, sizeof(double)))))
        return ortkit__error_nomem();
    for (size_t i = 0; i < o->pythons.n; i++) {
        if ((rc = ortkit__builder_python_probe(&r->pythons[i], o->pythons.v[i], o->numpy_include)))
            return rc;
        r->n_pythons++;
        for (size_t j = 0; j < i; j++)
            if (!strcmp(r->pythons[j].version, r->pythons[i].version))
                return ortkit__error_set(ORTKIT_E_INVALID_ARG, "--python %s and --python %s are both "
                                         "CPython %s: one wheel each", o->pythons.v[j], o->pythons.v[i],
                                         r->pythons[i].version);
    }
    if (o->mode == ORTKIT__BUILDER_CHECK)
        return rc;
    if (v && o->deps_dir && (rc = supply_deps(r, o)))
        return rc;
    if (v && (rc = ortkit__builder_cross_protoc(&r->cross, o->deps_dir ? &r->dep_sources : NULL,
                                                o->fetch, r->build_dir, ccache, o->slots,
                                                o->mode == ORTKIT__BUILDER_PLAN, o->log)))
        return rc;

    char ops_path[PATH_MAX];
    if ((rc = ortkit__pathf(ops_path, sizeof ops_path, "%s/.ortkit/required_operators.config",
                            r->build_dir)))
        return rc;
    ortkit__builder_config cfg = {
        .kind = v ? ORTKIT__BUILD_ORT : ORTKIT__BUILD_CMAKE, .opts = o, .source = r->source,
        .build_dir = r->build_dir, .variant = v, .ort_version = r->version,
        .cuda_home = r->cuda_home[0] ? r->cuda_home : NULL,
        .cudnn_home = r->cudnn_home[0] ? r->cudnn_home : NULL,
        .ops_config = o->models.n ? ops_path : NULL, .python = "python3",
        .dep_sources = o->deps_dir ? &r->dep_sources : NULL, .deps_dir = r->deps_dir,
        .glibc_here = v ? r->glibc_here : NULL, .cross = &r->cross,
        .ext_python = r->n_pythons ? &r->pythons[0] : NULL, .ext_pythons = r->pythons,
        .n_ext_pythons = r->n_pythons};
    if ((rc = ortkit__builder_plan_make(&r->plan, &cfg)))
        return rc;
    if (o->mode == ORTKIT__BUILDER_PLAN)
        return o->models.n ? write_ops_config(r, o, ops_path) : ORTKIT_OK;

    /* The state directory (lock, history, the gate's socket) is made 0700
     * and checked before anything goes in it. */
    int state_fd = -1;
    if ((rc = ortkit__builder_state_dir_open(r->plan.state_dir, 1, &state_fd)))
        return rc;
    close(state_fd);
    ortkit__builder_lock lock = {-1};
    if ((rc = ortkit__builder_lock_take(&lock, r->plan.state_dir)))
        return rc;
    rc = build_locked(r, o, &cfg, ops_path);
    ortkit__builder_lock_release(&lock);
    return rc;
}

void ortkit__builder_result_free(ortkit__builder_result *r)
{
    ortkit__builder_plan_free(&r->plan);
    ortkit__builder_report_free(&r->report);
    free(r->report_json);
    free(r->ops_text);
    free(r->static_libs);
    free(r->needs_libraries);
    free(r->deps_dir);
    ortkit__builder_deps_free(&r->dep_sources);
    ortkit__builder_cross_free(&r->cross);
    free(r->pythons);
    free(r->python_rebuild_wall);
    ortkit__strv_free(&r->wheels);
    free(r->source);
    free(r->build_dir);
    memset(r, 0, sizeof *r);
}
