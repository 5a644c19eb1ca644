/* cmd_build.c - `ortkit build`: an ONNX Runtime variant from source, under the compile gate. */
#include "builder_compiler_cache.h"
#include "builder_plan.h"
#include "builder_matrix.h"
#include "builder_preflight.h"
#include "builder_gate.h"
#include "builder_launcher.h"
#include "builder_report.h"
#include "builder_build.h"
#include "builder_patch.h"
#include "build_recipe.h"
#include "cli.h"
#include "opt.h"
#include "view.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The options go straight into the builder's (o); what only the command
 * line has (what to print, --matrix, where a password came from) is here. */
typedef struct build_args {
    ortkit__builder_options o;
    const char *matrix, *remote_arg, *password_file; /* --cache-remote as given (no password) */
    const char *recipe; /* read before the options (build_recipe.c): never set here */
    int dry, check, patch_check, json, password_in_argv;
} build_args;

/* --cache-remote URL: checked here, and never echoed (it may hold a password). */
static int set_cache_remote(cli_opt_parser *p, void *field, char *value)
{
    build_args *a = field;
    (void)p;
    if (ortkit__builder_cache_remote_parse(&a->o.cache_remote, value))
        return cli_usage("build", "%s", ortkit__error_message());
    a->o.has_cache_remote = 1;
    a->remote_arg = value;
    /* Every user can read a command line (/proc/PID/cmdline): the password
     * is blanked in ours at once, and said (ORTKIT_CACHE_PASSWORD keeps it out). */
    if (a->o.cache_remote.has_password) {
        char *auth = strstr(value, "://") + 3, *end = auth + strcspn(auth, "/|"), *at = NULL;
        size_t len = strlen(value) + 3 - strlen(a->o.cache_remote.shown); /* the password's */
        for (char *c = auth; c < end; c++)
            if (*c == '@')
                at = c;
        if (at && (size_t)(at - auth) >= len)
            memset(at - len, '*', len);
        a->password_in_argv = 1;
    }
    return 0;
}

/* -D KEY=VALUE and --dep NAME=DIR: a name before the '='. */
static int add_pair(cli_opt_parser *p, void *strv, char *value)
{
    if (!strchr(value, '=') || value[0] == '=')
        return cli_opt_bad_value(p, NULL);
    return ortkit__strv_push(strv, value) ? cli_fail("out of memory") : 0;
}

static int set_glibc_floor(cli_opt_parser *p, void *field, char *value)
{
    ortkit__version v;
    if (ortkit__version_parse(&v, value, NULL) || v.n != 2)
        return cli_opt_bad_value(p, NULL);
    *(const char **)field = value;
    return 0;
}

/* --lang-mem LANG=SIZE. */
static int set_lang_mem(cli_opt_parser *p, void *field, char *value)
{
    uint64_t *lang_mem = field, v;
    char lang[16];
    const char *eq = strchr(value, '=');
    int l = -1;
    if (eq && (size_t)(eq - value) < sizeof lang) {
        snprintf(lang, sizeof lang, "%.*s", (int)(eq - value), value);
        l = ortkit__builder_lang_parse(lang);
    }
    if (l < 0)
        return cli_opt_bad_value(p, NULL);
    if (ortkit__human_parse_size(eq + 1, &v))
        return cli_usage("build", "%s wants %s: %s", p->named, p->opt->want, ortkit__error_message());
    lang_mem[l] = v;
    return 0;
}

static const int ccache[] = {1};

static const cli_opt build_opts[] = {
    {0, "source", 0, "DIR", 0, "the ONNX Runtime source tree (VERSION_NUMBER, cmake/)",
     CLI_OPT_STRING(build_args, o.source)},
    {0, "recipe", 0, "NAME", 0,
     "take the options of a kind of build environment first, from share/ortkit/recipes/"
     "NAME.recipe or a file: debian11 (a bundle that ships, built in a Debian 11 root), "
     "debian13 (this machine's libraries); options given here win", CLI_OPT_STRING(build_args, recipe)},
    {0, "variant", 0, "NAME", 0, "cpu-avx2, cuda12.9-sm90-avx512, ... (or the Flox name)",
     CLI_OPT_STRING(build_args, o.variant)},
    {0, "build-dir", 0, "DIR", 0, "where to build (default: ./build-<variant>)",
     CLI_OPT_STRING(build_args, o.build_dir)},
    {0, "mem-budget", 0, "SIZE", 0,
     "memory the compiles may use together, e.g. 6G (default: available memory less "
     "max(1 GiB, 10%))", CLI_OPT_SIZE(build_args, o.budget, 64 * ORTKIT__MiB)},
    {0, "jobs", 'j', "N", 0, "CPU slots: compiles at once at most (default: cores)",
     CLI_OPT_LONG(build_args, o.slots, 1, 4096)},
    {0, "cache", 0, "ccache", 0, "compile through ccache", CLI_OPT_CHOICE(build_args, o.ccache, ccache)},
    {0, "cache-remote", 0, "URL", 0,
     "with --cache ccache: share the cache through a server, redis://HOST[:PORT][/DB] or "
     "http://HOST[:PORT][/PATH] (ccache's remote storage; a password is never printed)",
     CLI_OPT_CALL_ARGS(set_cache_remote)},
    {0, "cache-password-file", 0, "FILE", 0,
     "the password of --cache-remote's URL, from FILE (yours, mode 600), not the command line "
     "(or ORTKIT_CACHE_PASSWORD)", CLI_OPT_STRING(build_args, password_file)},
    {0, "cache-remote-only", 0, NULL, 0,
     "use only the remote storage, no local cache directory (CCACHE_REMOTE_ONLY)",
     CLI_OPT_FLAG(build_args, o.cache_remote_only)},
    {0, "cache-basedir", 0, "DIR", 0,
     "with --cache ccache: paths under DIR count relative to the build directory, so build "
     "directories under it share compiles (CCACHE_BASEDIR)", CLI_OPT_STRING(build_args, o.cache_basedir)},
    {0, "distcc", 0, "HOSTS", 0, "compile through distcc on HOSTS (DISTCC_HOSTS syntax)",
     CLI_OPT_STRING(build_args, o.distcc_hosts)},
    {0, "lto", 0, NULL, 0, "link-time optimisation (onnxruntime_ENABLE_LTO)",
     CLI_OPT_FLAG(build_args, o.lto)},
    {0, "ops-from", 0, "MODEL", CLI_OPT_REPEATS,
     "keep only the operators MODEL uses (repeatable; more models may follow the options)",
     CLI_OPT_STRV(build_args, o.models)},
    {0, "patch", 0, "DIR", 0, "apply DIR/*.patch (patch -p1, in name order, once)",
     CLI_OPT_STRING(build_args, o.patch_dir)},
    {0, "cuda-home", 0, "DIR", 0,
     "CUDA toolkit (default: CUDA_HOME, nvcc on PATH, /usr/local/cuda)",
     CLI_OPT_STRING(build_args, o.cuda_home)},
    {0, "cudnn-home", 0, "DIR", 0, "cuDNN (default: CUDNN_HOME, the toolkit, /usr)",
     CLI_OPT_STRING(build_args, o.cudnn_home)},
    {0, "eigen", 0, "DIR", 0, "a preinstalled Eigen (onnxruntime_USE_PREINSTALLED_EIGEN)",
     CLI_OPT_STRING(build_args, o.eigen_dir)},
    {0, "dep", 0, "NAME=DIR", CLI_OPT_REPEATS,
     "a dependency's source (FETCHCONTENT_SOURCE_DIR_<NAME>)", CLI_OPT_CALL(build_args, o.deps, add_pair)},
    {0, "deps", 0, "DIR", 0,
     "compile ONNX Runtime's dependencies (cmake/deps.txt) into the library from the sources in "
     "DIR: NAME-VERSION archives or trees, or deps.txt's own files (docs/BUILD.md)",
     CLI_OPT_STRING(build_args, o.deps_dir)},
    {0, "accept-dep-version", 0, "NAME", CLI_OPT_REPEATS,
     "with --deps: take NAME although its version is not the one deps.txt pins (recorded)",
     CLI_OPT_STRV(build_args, o.accept_versions)},
    {0, "glibc-floor", 0, "VERSION", 0,
     "the newest glibc the library may need, e.g. 2.31: refused before compiling when this "
     "environment's glibc is newer, and checked on the built library",
     CLI_OPT_CALL(build_args, o.glibc_floor, set_glibc_floor), .want = "a glibc version such as 2.31"},
    {0, "fetch", 0, NULL, 0, "let CMake download missing dependencies", CLI_OPT_FLAG(build_args, o.fetch)},
    {0, NULL, 'D', "KEY=VALUE", CLI_OPT_REPEATS, "pass a CMake definition through (repeatable)",
     CLI_OPT_CALL(build_args, o.defines, add_pair)},
    {0, "bundle-into", 0, "DIR", 0,
     "where the bundle goes (default: the user's bundle directory)", CLI_OPT_STRING(build_args, o.bundle_into)},
    {0, "no-bundle", 0, NULL, 0, "stop after installing into BUILD/stage",
     CLI_OPT_FLAG(build_args, o.no_bundle)},
    {0, "static", 0, NULL, 0,
     "make a static bundle: one libonnxruntime.a merged from the build's static libraries, "
     "providers stay shared beside it", CLI_OPT_FLAG(build_args, o.static_core)},
    {0, "python", 0, "PYTHON", CLI_OPT_REPEATS,
     "also build ONNX Runtime's Python package (the module onnxruntime) for this CPython >= 3.10 "
     "and make a wheel of it (repeatable: the first is the build's, each further one compiles "
     "only the extension again)", CLI_OPT_STRV(build_args, o.pythons)},
    {0, "numpy-include", 0, "DIR", 0,
     "with --python: numpy's C headers to compile against (default: each interpreter's numpy; "
     "numpy 2.x headers make a wheel that runs with numpy 1.x and 2.x)",
     CLI_OPT_STRING(build_args, o.numpy_include)},
    {0, "wheel-into", 0, "DIR", 0, "with --python: where the wheels go (default: BUILD/wheels)",
     CLI_OPT_STRING(build_args, o.wheel_into)},
    {0, "cmake-project", 0, "DIR", 0, "build any CMake project through the same engine",
     CLI_OPT_STRING(build_args, o.cmake_project)},
    {0, "matrix", 0, "VARIANT,...", 0,
     "plan these variants (with --source and the options each job takes) and write the jobs "
     "for a CI matrix, ordered so shared work is built first (docs/BUILD.md); builds nothing",
     CLI_OPT_STRING(build_args, matrix)},
    {0, "dry-run", 0, NULL, 0, "print the plan (commands and summary) and stop",
     CLI_OPT_FLAG(build_args, dry)},
    {0, "check", 0, NULL, 0, "run the pre-flight checks, print the toolchain, and stop",
     CLI_OPT_FLAG(build_args, check)},
    {0, "patch-check", 0, NULL, 0,
     "with --source and --patch: say whether each patch applies as a build would apply it "
     "(in name order, each on top of the ones before, without fuzz), on copies; touches nothing",
     CLI_OPT_FLAG(build_args, patch_check)},
    {0, "progress", 0, NULL, 0, "draw the status line even when stderr is not a terminal",
     CLI_OPT_SET(build_args, o.progress, 1)},
    {0, "no-progress", 0, NULL, 0, "never draw it", CLI_OPT_SET(build_args, o.progress, 0)},
    {0, "json", 0, NULL, 0, "print the plan or the build report as JSON", CLI_OPT_FLAG(build_args, json)},
    CLI_OPT_HEADING("a variant for another architecture (cpu-armv8.2 on x86-64) is cross-compiled:"),
    {0, "toolchain-file", 0, "FILE", 0,
     "the CMake toolchain file (default: one written for Debian's ARCH-linux-gnu-gcc/g++)",
     CLI_OPT_STRING(build_args, o.toolchain_file)},
    {0, "cross-prefix", 0, "PREFIX", 0,
     "the cross compilers are PREFIXgcc and PREFIXg++ (default: ARCH-linux-gnu-)",
     CLI_OPT_STRING(build_args, o.cross_prefix)},
    {0, "host-protoc", 0, "FILE", 0,
     "a protoc that runs on this machine, of the protobuf version the source pins (default: "
     "built from --deps's protobuf source)", CLI_OPT_STRING(build_args, o.host_protoc)},
    CLI_OPT_HEADING("tuning and tests:"),
    {0, "lang-mem", 0, "LANG=SIZE", CLI_OPT_REPEATS,
     "the memory a LANG step (c, c++, cuda or link) is assumed to need until the build has "
     "measured it (defaults 512M, 1.5G, 5G, 1.5G)", CLI_OPT_CALL(build_args, o.lang_mem, set_lang_mem),
     .want = "c|c++|cuda|link=SIZE"},
    {0, "ninja-jobs", 0, "N", 0,
     "steps ninja may start at once (default: twice the CPU slots, at least slots + 4): the "
     "gate, not ninja, limits the compiles", CLI_OPT_LONG(build_args, o.ninja_jobs, 1, 100000)},
    {0, "min-disk", 0, "SIZE", 0,
     "free disk the pre-flight checks ask for (default: 6G, 20G for a CUDA variant, 256M for "
     "--cmake-project)", CLI_OPT_SIZE(build_args, o.min_disk, 0), .want = "a size"},
    {0, "target", 0, "NAME", 0,
     "build only this ninja target; nothing is installed or bundled", CLI_OPT_STRING(build_args, o.target)},
    CLI_OPT_ARGS(0, CLI_OPT_ANY, NULL),
    CLI_OPT_END};

static const cli_opt_spec build_spec = {
    "build",
    "usage: ortkit build --source DIR --variant NAME [options]\n"
    "       ortkit build --cmake-project DIR [options]\n"
    "       ortkit build --patch-check --source DIR --patch DIR [--json]\n",
    "Build ONNX Runtime from a source tree for one variant (see 'ortkit variants'):\n"
    "plan the CMake configuration, check the toolchain, configure, build with every\n"
    "compile admitted by a memory-aware gate, install into BUILD/stage and make a\n"
    "bundle.  Running the same command again resumes an interrupted build.\n",
    build_opts, NULL,
    "The log is BUILD/ortkit-build.log; the report also goes to BUILD/ortkit-report.json.\n"
    "Exit status: 0 built, 1 failed, 2 usage, 130 interrupted (rerun to resume).\n"};

static void warn_line(const char *msg) { cli_warn("%s", msg); }

static int parse_args(build_args *a, int argc, char **argv)
{
    cli_opt_parser p;
    a->o.progress = -1;
    if (cli_opt_parse(&p, &build_spec, NULL, a, argc, argv))
        return p.status ? p.status : -1;
    for (int i = 0; i < p.n_args; i++) {
        if (!a->o.models.n)
            return cli_usage("build", "unexpected argument '%s'", p.args[i]);
        if (ortkit__strv_push(&a->o.models, p.args[i]))
            return cli_fail("out of memory");
    }
    if (a->patch_check)
        return a->o.source && a->o.patch_dir && !a->o.variant && !a->o.cmake_project && !a->matrix
                   ? 0
                   : cli_usage("build", "--patch-check takes --source DIR and --patch DIR, and no "
                                        "variant, project or matrix");
    if (a->matrix && !a->o.source)
        return cli_usage("build", "--matrix needs --source DIR: the ONNX Runtime tree every job builds");
    if (!!a->o.source == !!a->o.cmake_project)
        return cli_usage("build", "give either --source DIR (with --variant) or --cmake-project DIR");
    if (a->matrix && (a->o.variant || a->o.cmake_project || a->check))
        return cli_usage("build", "--matrix plans the variants it names: it takes --source, not "
                                  "--variant, --cmake-project or --check");
    if (a->o.source && !a->o.variant && !a->matrix)
        return cli_usage("build", "--source needs --variant NAME (see 'ortkit variants')");
    if (a->o.cmake_project &&
        (a->o.variant || a->o.models.n || a->o.lto || a->o.eigen_dir || a->o.deps.n || a->o.deps_dir || a->o.glibc_floor))
        return cli_usage("build", "--cmake-project takes no variant, --ops-from, --lto, --eigen, "
                                  "--dep, --deps or --glibc-floor");
    if (a->o.cmake_project && (a->o.toolchain_file || a->o.cross_prefix || a->o.host_protoc))
        return cli_usage("build", "--toolchain-file, --cross-prefix and --host-protoc are for an "
                                  "ONNX Runtime variant of another architecture; a CMake project "
                                  "takes its toolchain with -D CMAKE_TOOLCHAIN_FILE=FILE");
    if ((a->o.numpy_include || a->o.wheel_into) && !a->o.pythons.n)
        return cli_usage("build", "--numpy-include and --wheel-into go with --python PYTHON");
    if (a->o.pythons.n && (a->o.cmake_project || a->o.static_core || a->o.no_bundle || a->matrix))
        return cli_usage("build", "--python makes wheels of a variant's bundle: it goes with "
                                  "--source and --variant, not --cmake-project, --static, "
                                  "--no-bundle or --matrix");
    if (a->o.accept_versions.n && !a->o.deps_dir)
        return cli_usage("build", "--accept-dep-version goes with --deps DIR");
    if (a->o.deps_dir && a->o.fetch)
        return cli_usage("build", "--deps DIR supplies the dependencies: it does not go with --fetch");
    if ((a->o.has_cache_remote || a->o.cache_remote_only || a->o.cache_basedir) && !a->o.ccache)
        return cli_usage("build", "--cache-remote, --cache-remote-only and --cache-basedir go with "
                                  "--cache ccache");
    if (a->o.cache_remote_only && !a->o.has_cache_remote)
        return cli_usage("build", "--cache-remote-only goes with --cache-remote URL");
    if (a->password_file && !a->o.has_cache_remote)
        return cli_usage("build", "--cache-password-file goes with --cache-remote URL");
    if (a->o.has_cache_remote && ortkit__builder_cache_remote_secret(&a->o.cache_remote, a->password_file))
        return cli_usage("build", "%s", ortkit__error_message());
    if (a->password_in_argv && !a->matrix)
        cli_warn("--cache-remote: the password on the command line can be read by every user of "
                 "this machine while ortkit starts; give the URL without it and the password in "
                 "ORTKIT_CACHE_PASSWORD or --cache-password-file FILE");
    if (a->o.cache_basedir && a->o.cache_basedir[0] != '/')
        return cli_usage("build", "--cache-basedir wants an absolute directory");
    return 0;
}

static void free_args(build_args *a) { ortkit__builder_options_free(&a->o); }

/* The compiler cache's settings (--cache ccache), the URL without a password. */
static cJSON *cache_json(const build_args *a)
{
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "tool", "ccache");
    cJSON_AddItemToObject(c, "remote", a->o.has_cache_remote ? cJSON_CreateString(a->o.cache_remote.shown)
                                                     : cJSON_CreateNull());
    cJSON_AddBoolToObject(c, "remote_only", a->o.cache_remote_only);
    cJSON_AddItemToObject(c, "basedir", a->o.cache_basedir ? cJSON_CreateString(a->o.cache_basedir)
                                                         : cJSON_CreateNull());
    return c;
}

/* The plan's view: the builder's (summary, commands), the operators kept,
 * and the gate's and the cache's settings. */
static cJSON *plan_view(const ortkit__builder_plan *plan, const build_args *a, const char *ops_text)
{
    cJSON *root = ortkit__builder_plan_view(plan);
    if (ops_text)
        cJSON_AddStringToObject(root, "required_operators", ops_text);
    cJSON *gate = cJSON_AddObjectToObject(root, "gate");
    if (gate) {
        if (a->o.budget)
            cJSON_AddNumberToObject(gate, "budget_bytes", (double)a->o.budget);
        else
            cJSON_AddStringToObject(gate, "budget", "available memory less max(1 GiB, 10%)");
        cJSON_AddNumberToObject(gate, "slots", a->o.slots ? (double)a->o.slots : ortkit__proc_cpus());
        const char *chain = ortkit__builder_chain(&a->o);
        if (chain)
            cJSON_AddStringToObject(gate, "chain", chain);
    }
    if (a->o.ccache)
        cJSON_AddItemToObject(root, "cache", cache_json(a));
    return root;
}

/* The dry run's text, drawn from the plan's view. */
static int plan_text(const cJSON *view)
{
    if (ortkit__builder_plan_text(view, stdout))
        return cli_fail("%s", ortkit__error_message());
    const char *ops = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(view, "required_operators"));
    if (ops) {
        printf("\nrequired operators (written to the build directory):\n");
        cli_print_lines(stdout, ops);
    }
    const cJSON *gate = cJSON_GetObjectItemCaseSensitive(view, "gate");
    char budget[64];
    if (cJSON_GetObjectItemCaseSensitive(gate, "budget_bytes"))
        ortkit__human_memory(budget, sizeof budget, (uint64_t)cli_view_num(gate, "budget_bytes"));
    else
        snprintf(budget, sizeof budget, "%s", cli_view_str(gate, "budget"));
    const char *chain = cli_view_str(gate, "chain");
    printf("\nbuild:\n  ninja -C %s under the compile gate: budget %s, %.0f CPU slots%s%s\n",
           cli_esc(cJSON_GetStringValue(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(view, "configure"), 4))),
           budget, cli_view_num(gate, "slots"), chain[0] ? ", through " : "", cli_esc(chain));
    return CLI_OK;
}

static char *self_exe(void)
{
    char buf[PATH_MAX];
    return cli_self_exe(buf, sizeof buf) ? NULL : strdup(buf);
}

/* ---- --matrix: the jobs of a CI matrix ------------------------------------------- */

#define PUSHARG(...)                                   \
    do {                                               \
        if (ortkit__strv_pushf(sv, __VA_ARGS__))       \
            return -1;                                 \
    } while (0)

/* Whether a job's variant is for another architecture than this machine's. */
static int is_cross(const char *variant)
{
    const ortkit_variant *v = NULL;
    return ortkit_variant_parse(&v, variant) == 0 && v->arch != ortkit_arch_here();
}

/* The ortkit arguments of one job: the options given with --matrix, in one
 * fixed order, for one variant and its build directory. */
static int job_args(ortkit__strv *sv, const build_args *a, const char *variant, const char *build_dir)
{
    PUSHARG("build");
    PUSHARG("--source");
    PUSHARG("%s", a->o.source);
    PUSHARG("--variant");
    PUSHARG("%s", variant);
    PUSHARG("--build-dir");
    PUSHARG("%s", build_dir);
    /* Numbers as the options read them (sizes in bytes); 0: not given. */
    char nums[4][24];
    const unsigned long long n[4] = {a->o.budget, (unsigned long long)a->o.slots,
                                     (unsigned long long)a->o.ninja_jobs, a->o.min_disk};
    for (int i = 0; i < 4; i++)
        snprintf(nums[i], sizeof nums[i], "%llu", n[i]);
    const struct {
        const char *opt, *value;
    } values[] = {{"--cache", a->o.ccache ? "ccache" : NULL},
                  {"--cache-remote", a->o.has_cache_remote ? a->remote_arg : NULL}, /* no password in it */
                  {"--cache-password-file", a->password_file},
                  {"--cache-basedir", a->o.cache_basedir}, {"--distcc", a->o.distcc_hosts},
                  {"--patch", a->o.patch_dir},       {"--cuda-home", a->o.cuda_home},     {"--cudnn-home", a->o.cudnn_home},
                  {"--eigen", a->o.eigen_dir},       {"--deps", a->o.deps_dir},      {"--glibc-floor", a->o.glibc_floor},
                  {"--bundle-into", a->o.bundle_into},  {"--target", a->o.target},
                  {"--mem-budget", n[0] ? nums[0] : NULL}, {"--jobs", n[1] ? nums[1] : NULL},
                  {"--ninja-jobs", n[2] ? nums[2] : NULL}, {"--min-disk", n[3] ? nums[3] : NULL}};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        if (!values[i].value)
            continue;
        PUSHARG("%s", values[i].opt);
        PUSHARG("%s", values[i].value);
    }
    /* The cross options reach only the jobs of another architecture. */
    const struct {
        const char *opt, *value;
    } cross[] = {{"--toolchain-file", a->o.toolchain_file}, {"--cross-prefix", a->o.cross_prefix},
                 {"--host-protoc", a->o.host_protoc}};
    for (size_t i = 0; is_cross(variant) && i < sizeof cross / sizeof cross[0]; i++) {
        if (!cross[i].value)
            continue;
        PUSHARG("%s", cross[i].opt);
        PUSHARG("%s", cross[i].value);
    }
    const struct {
        const char *opt;
        int on;
    } flags[] = {{"--cache-remote-only", a->o.cache_remote_only}, {"--lto", a->o.lto}, {"--fetch", a->o.fetch},
                 {"--no-bundle", a->o.no_bundle}, {"--static", a->o.static_core}};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (flags[i].on)
            PUSHARG("%s", flags[i].opt);
    const struct {
        const char *opt;
        const ortkit__strv *v;
    } lists[] = {{"--dep", &a->o.deps}, {"--accept-dep-version", &a->o.accept_versions}, {"-D", &a->o.defines},
                 {"--ops-from", &a->o.models}};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        for (size_t k = 0; k < lists[i].v->n; k++) {
            PUSHARG("%s", lists[i].opt);
            PUSHARG("%s", lists[i].v->v[k]);
        }
    static const char *const langs[] = {"c", "c++", "cuda", "link"};
    for (int l = 0; l < ORTKIT__LANG_COUNT; l++)
        if (a->o.lang_mem[l]) {
            PUSHARG("--lang-mem");
            PUSHARG("%s=%llu", langs[l], (unsigned long long)a->o.lang_mem[l]);
        }
    return 0;
}

static char *command_line(const ortkit__strv *args)
{
    ortkit__strv all = {0};
    char *line = NULL;
    if (!ortkit__strv_push(&all, "ortkit")) {
        size_t i = 0;
        while (i < args->n && !ortkit__strv_push(&all, args->v[i]))
            i++;
        if (i == args->n)
            line = ortkit__builder_plan_command_line(&all);
    }
    ortkit__strv_free(&all);
    return line;
}

static cJSON *strv_json(const ortkit__strv *sv)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; arr && i < sv->n; i++)
        cJSON_AddItemToArray(arr, cJSON_CreateString(sv->v[i]));
    return arr;
}

/* One job as a CI matrix entry. */
static cJSON *job_json(const ortkit__builder_job_plan *j, const build_args *a, const char *build_dir,
                       const ortkit__strv *args, const char *command)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "variant", j->variant->name);
    cJSON_AddNumberToObject(o, "wave", j->wave);
    /* The machine it needs (a runner label): the variant's architecture. */
    cJSON_AddStringToObject(o, "arch", ortkit_arch_name(j->variant->arch));
    cJSON_AddStringToObject(o, "group", j->group);
    cJSON_AddItemToObject(o, "seeds", strv_json(&j->seeds));
    cJSON_AddItemToObject(o, "takes", strv_json(&j->takes));
    cJSON_AddStringToObject(o, "build_dir", build_dir);
    cJSON_AddItemToObject(o, "args", strv_json(args));
    cJSON_AddStringToObject(o, "command", command);
    cJSON_AddItemToObject(o, "cache", a->o.ccache ? cache_json(a) : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "bundle_into", a->o.bundle_into ? cJSON_CreateString(a->o.bundle_into) : cJSON_CreateNull());
    return o;
}

/* A job's build directory: BUILD/VARIANT under --build-dir, else build-VARIANT. */
static void job_build_dir(char *buf, size_t size, const build_args *a, const char *variant)
{
    if (a->o.build_dir)
        snprintf(buf, size, "%s/%s", a->o.build_dir, variant);
    else
        snprintf(buf, size, "build-%s", variant);
}

/* Plan one job as `ortkit build --dry-run` would: every variant of the
 * matrix must plan before any job is written. */
static int plan_job(const build_args *a, const char *variant, const char *build_dir, const char *exe)
{
    ortkit__builder_options o = a->o; /* the lists are shared, never freed here */
    o.mode = ORTKIT__BUILDER_PLAN;
    o.variant = variant;
    o.build_dir = build_dir;
    o.launcher = exe;
    o.quiet = 1;
    o.progress = 0;
    if (!is_cross(variant))
        o.toolchain_file = o.cross_prefix = o.host_protoc = NULL;
    ortkit__builder_result res;
    int rc = ortkit__builder_build(&res, &o);
    ortkit__builder_result_free(&res);
    return rc ? cli_fail("--matrix: %s: %s", variant, ortkit__error_message()) : 0;
}

/* --patch-check: a line a patch, or JSON; exit 1 when one does not apply. */
static int run_patch_check(const build_args *a)
{
    static const char *const words[] = {"applies", "already in", "does not apply"};
    ortkit__strv names = {0};
    ortkit__builder_patch_verdict *verdicts = NULL;
    if (ortkit__builder_patch_check(a->o.patch_dir, a->o.source, &names, &verdicts)) {
        ortkit__strv_free(&names);
        return cli_fail("%s", ortkit__error_message());
    }
    int failed = 0;
    cJSON *root = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "patches");
    cJSON_AddStringToObject(root, "source", a->o.source);
    for (size_t i = 0; i < names.n; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "patch", names.v[i]);
        cJSON_AddStringToObject(o, "verdict", words[verdicts[i]]);
        cJSON_AddItemToArray(arr, o);
        failed += verdicts[i] == ORTKIT__PATCH_FAILS;
    }
    cJSON_AddBoolToObject(root, "applies", !failed);
    int rc = CLI_OK;
    if (a->json) {
        rc = cli_json_print(root);
        root = NULL;
    } else {
        for (size_t i = 0; i < names.n; i++)
            printf("%-48s %s\n", cli_esc(names.v[i]), words[verdicts[i]]);
        printf("%s\n", failed ? "the patch set does not apply: fix or drop the patches that do not"
                              : "the patch set applies");
    }
    cJSON_Delete(root);
    free(verdicts);
    ortkit__strv_free(&names);
    return rc ? rc : failed ? CLI_FAIL : CLI_OK;
}

static int run_matrix(const build_args *a, const char *exe)
{
    if (a->password_in_argv)
        return cli_usage("build", "--matrix writes the cache's URL into every job, where CI logs "
                                  "show it: give --cache-remote without a password, and hand the "
                                  "jobs the password as a secret (docs/BUILD.md, \"A CI matrix\")");
    ortkit__strv names = {0};
    const ortkit_variant **vs = NULL;
    ortkit__builder_job_plan *jobs = NULL;
    size_t n_jobs = 0;
    cJSON *root = NULL;
    int rc = 0;
    for (const char *p = a->matrix; *p;) {
        size_t len = strcspn(p, ",");
        if (len && ortkit__strv_pushf(&names, "%.*s", (int)len, p)) {
            rc = cli_fail("out of memory");
            goto cleanup;
        }
        p += len + (p[len] == ',');
    }
    if (!names.n) {
        rc = cli_usage("build", "--matrix wants variants: VARIANT,VARIANT,... (see 'ortkit variants')");
        goto cleanup;
    }
    vs = calloc(names.n, sizeof *vs);
    if (!vs) {
        rc = cli_fail("out of memory");
        goto cleanup;
    }
    for (size_t i = 0; i < names.n; i++)
        if (ortkit_variant_parse(&vs[i], names.v[i]) != 0) {
            rc = cli_fail("--matrix: %s", ortkit_error_last());
            goto cleanup;
        }
    if (ortkit__builder_matrix_order(&jobs, &n_jobs, vs, names.n) != 0) {
        rc = cli_fail("%s", ortkit__error_message());
        goto cleanup;
    }
    root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "rule", ORTKIT__MATRIX_RULE);
    cJSON_AddStringToObject(root, "source", a->o.source);
    cJSON_AddNumberToObject(root, "jobs", (double)n_jobs);
    cJSON *sizes = cJSON_AddArrayToObject(root, "wave_sizes");
    cJSON *all = cJSON_AddArrayToObject(root, "include");
    cJSON *waves = cJSON_AddArrayToObject(root, "waves"), *wave_include[ORTKIT__MATRIX_WAVES];
    int count[ORTKIT__MATRIX_WAVES] = {0};
    for (int w = 0; w < ORTKIT__MATRIX_WAVES; w++) {
        cJSON *wo = cJSON_CreateObject();
        wave_include[w] = cJSON_AddArrayToObject(wo, "include");
        cJSON_AddItemToArray(waves, wo);
    }
    /* Every job plans, or nothing is written. */
    for (size_t i = 0; i < n_jobs && !rc; i++) {
        char build_dir[PATH_MAX];
        job_build_dir(build_dir, sizeof build_dir, a, jobs[i].variant->name);
        rc = plan_job(a, jobs[i].variant->name, build_dir, exe);
    }
    if (!rc && !a->json)
        printf("ortkit build matrix: %zu job%s for %s\nrule: %s\n", n_jobs, n_jobs == 1 ? "" : "s",
               cli_esc(a->o.source), ORTKIT__MATRIX_RULE);
    for (size_t i = 0; i < n_jobs && !rc; i++) {
        const ortkit__builder_job_plan *j = &jobs[i];
        char build_dir[PATH_MAX];
        ortkit__strv args = {0};
        char *command = NULL;
        job_build_dir(build_dir, sizeof build_dir, a, j->variant->name);
        if (job_args(&args, a, j->variant->name, build_dir) || !(command = command_line(&args)))
            rc = cli_fail("out of memory");
        if (!rc) {
            count[j->wave - 1]++;
            cJSON_AddItemToArray(all, job_json(j, a, build_dir, &args, command));
            cJSON_AddItemToArray(wave_include[j->wave - 1], job_json(j, a, build_dir, &args, command));
            if (!a->json) {
                if (i == 0 || jobs[i - 1].wave != j->wave)
                    printf("\nwave %d:\n", j->wave);
                printf("  %-26s %s%s", j->variant->name, j->seeds.n ? "builds " : "",
                       j->seeds.n ? cli_esc(j->seeds.v[0]) : "");
                for (size_t k = 1; k < j->seeds.n; k++)
                    printf(", %s", cli_esc(j->seeds.v[k]));
                printf("%s%s", j->seeds.n && j->takes.n ? "; " : "", j->takes.n ? "takes " : "");
                for (size_t k = 0; k < j->takes.n; k++)
                    printf("%s%s", k ? ", " : "", cli_esc(j->takes.v[k]));
                printf("\n    %s\n", cli_esc(command));
            }
        }
        free(command);
        ortkit__strv_free(&args);
    }
    for (int w = 0; w < ORTKIT__MATRIX_WAVES; w++)
        cJSON_AddItemToArray(sizes, cJSON_CreateNumber(count[w]));
    if (!rc && a->json) {
        rc = cli_json_print(root);
        root = NULL;
    }
cleanup:
    cJSON_Delete(root);
    ortkit__builder_matrix_free(jobs, n_jobs);
    free(vs);
    ortkit__strv_free(&names);
    return rc;
}

int cmd_build(int argc, char **argv)
{
    /* The compiler launcher the plan puts in CMake: "--launch DIR" or "--launch=DIR". */
    if (argc >= 2 && (!strcmp(argv[1], "--launch") || !strncmp(argv[1], "--launch=", 9)))
        return ortkit__builder_launch(argc, argv);

    build_args a;
    memset(&a, 0, sizeof a);
    ortkit__strv with_recipe = {0};
    int rc = build_recipe_expand(&with_recipe, build_opts, argc, argv);
    if (rc) {
        free_args(&a);
        return rc;
    }
    if (with_recipe.n) {
        argc = (int)with_recipe.n;
        argv = with_recipe.v;
    }
    rc = parse_args(&a, argc, argv);
    if (rc) {
        free_args(&a);
        ortkit__strv_free(&with_recipe);
        return rc < 0 ? CLI_OK : rc;
    }
    ortkit__builder_result res;
    memset(&res, 0, sizeof res);
    char *exe = NULL;
    if (a.dry && a.check) {
        rc = cli_usage("build", "--dry-run and --check do not go together");
        goto cleanup;
    }
    if (!(exe = self_exe())) {
        rc = cli_fail("cannot resolve the source, build directory or ortkit's own path");
        goto cleanup;
    }
    if (a.matrix) {
        rc = run_matrix(&a, exe);
        goto cleanup;
    }
    if (a.patch_check) {
        rc = run_patch_check(&a);
        goto cleanup;
    }
    ortkit__builder_options *o = &a.o;
    o->mode = a.dry ? ORTKIT__BUILDER_PLAN : a.check ? ORTKIT__BUILDER_CHECK : ORTKIT__BUILDER_BUILD;
    o->launcher = exe;
    o->progress = o->progress >= 0 ? o->progress : isatty(2);
    o->quiet = a.json;
    o->catch_signals = 1;
    o->log = stderr;
    o->warn = warn_line;
    rc = ortkit__builder_build(&res, o);
    /* The builder and util are linked into this program, the library is
     * shared: the builder's failures are in this program's copy of the
     * error channel (ortkit__error_message), not in ortkit_error_last(). */
    if (rc == ORTKIT_E_CANCELLED) {
        cli_fail("%s", ortkit__error_message());
        rc = 130;
        goto cleanup;
    }
    if (rc) {
        rc = cli_fail("%s", ortkit__error_message());
        goto cleanup;
    }
    const ortkit_variant *v = res.variant;
    const ortkit__builder_toolchain *tc = &res.toolchain;
    if (a.check) {
        printf("pre-flight passed for %s\n", v ? v->name : cli_esc(res.source));
        if (v)
            printf("  source  %s (ONNX Runtime %s)\n", cli_esc(res.source), cli_esc(res.version));
        printf("  cmake   %s (%s)\n  ninja   %s (%s)\n  cc      %s\n  c++     %s\n", cli_esc(tc->cmake),
               cli_esc(tc->cmake_path), cli_esc(tc->ninja), cli_esc(tc->ninja_path), cli_esc(tc->cc),
               cli_esc(tc->cxx));
        if (tc->nvcc[0])
            printf("  nvcc    %s (%s)\n  cuDNN   %s (%s)\n", cli_esc(tc->nvcc), cli_esc(res.cuda_home),
                   cli_esc(tc->cudnn), cli_esc(res.cudnn_home));
        if (tc->ccache[0])
            printf("  ccache  %s%s%s\n", cli_esc(tc->ccache), a.o.has_cache_remote ? ", remote " : "",
                   a.o.has_cache_remote ? cli_esc(a.o.cache_remote.shown) : "");
        rc = CLI_OK;
    } else if (a.dry) {
        cJSON *view = plan_view(&res.plan, &a, res.ops_text); /* cli_json_print frees it */
        rc = !view ? cli_fail("out of memory") : a.json ? cli_json_print(view) : plan_text(view);
        if (view && !a.json)
            cJSON_Delete(view);
    } else if (a.json) {
        printf("%s\n", res.report_json);
        rc = CLI_OK;
    } else {
        printf("built %s in %s\n", v ? v->name : cli_esc(res.source), cli_esc(res.build_dir));
        ortkit__builder_report_print(&res.report, stdout);
        if (!a.o.target)
            printf("installed: %s\n", cli_esc(res.plan.stage_dir));
        if (res.bundle[0])
            printf("bundle: %s\n", cli_esc(res.bundle));
        for (size_t i = 0; i < res.wheels.n; i++)
            printf("wheel: %s\n", cli_esc(res.wheels.v[i]));
        if (res.n_pythons)
            printf("python: the extension's %zu compiles and link took %.0f s of CPU of the "
                   "build's %.0f s\n", res.python_steps, res.python_cpu, res.report.cpu);
        if (res.bundle[0] && res.bundle_missing)
            printf("bundle: incomplete: %zu CUDA librar%s not in the toolkit or cuDNN it was "
                   "built with; 'ortkit bundle complete %s --from DIR' adds them from DIR and "
                   "lists what is still missing\n", res.bundle_missing,
                   res.bundle_missing == 1 ? "y is" : "ies are", cli_esc(res.bundle));
        if (res.static_libs)
            printf("static: %zu static libraries merged into lib/libonnxruntime.a; link with "
                   "`pkg-config --static --libs libonnxruntime` (after it: %s)\n",
                   res.static_archives, res.static_libs[0] ? cli_esc(res.static_libs) : "nothing");
        printf("log: %s/ortkit-build.log\n", cli_esc(res.build_dir));
        rc = CLI_OK;
    }
cleanup:
    ortkit__builder_result_free(&res);
    free(exe);
    free_args(&a);
    ortkit__strv_free(&with_recipe);
    return rc;
}
