/* cmd_build.c - `ortkit build`: an ONNX Runtime variant from source, under the compile gate. */
#include "builder.h"
#include "cli.h"

#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_text[] =
    "usage: ortkit build --source DIR --variant NAME [options]\n"
    "       ortkit build --cmake-project DIR [options]\n"
    "\n"
    "Build ONNX Runtime from a source tree for one variant (see 'ortkit variants'):\n"
    "plan the CMake configuration, check the toolchain, configure, build with every\n"
    "compile admitted by a memory-aware gate, install into BUILD/stage and make a\n"
    "bundle.  Running the same command again resumes an interrupted build.\n"
    "\n"
    "  --source DIR         the ONNX Runtime source tree (VERSION_NUMBER, cmake/)\n"
    "  --variant NAME       cpu-avx2, cuda12.9-sm90-avx512, ... (or the Flox name)\n"
    "  --build-dir DIR      where to build (default: ./build-<variant>)\n"
    "  --mem-budget SIZE    memory the compiles may use together, e.g. 6G\n"
    "                       (default: available memory less max(1 GiB, 10%))\n"
    "  --jobs N             CPU slots: compiles at once at most (default: cores)\n"
    "  --cache ccache       compile through ccache\n"
    "  --distcc HOSTS       compile through distcc on HOSTS (DISTCC_HOSTS syntax)\n"
    "  --lto                link-time optimisation (onnxruntime_ENABLE_LTO)\n"
    "  --ops-from MODEL     keep only the operators MODEL uses (repeatable; more\n"
    "                       models may follow the options)\n"
    "  --patch DIR          apply DIR/*.patch (patch -p1, in name order, once)\n"
    "  --cuda-home DIR      CUDA toolkit (default: CUDA_HOME, nvcc on PATH, /usr/local/cuda)\n"
    "  --cudnn-home DIR     cuDNN (default: CUDNN_HOME, the toolkit, /usr)\n"
    "  --eigen DIR          a preinstalled Eigen (onnxruntime_USE_PREINSTALLED_EIGEN)\n"
    "  --dep NAME=DIR       a dependency's source (FETCHCONTENT_SOURCE_DIR_<NAME>)\n"
    "  --fetch              let CMake download missing dependencies\n"
    "  -D KEY=VALUE         pass a CMake definition through (repeatable)\n"
    "  --bundle-into DIR    where the bundle goes (default: the user's bundle directory)\n"
    "  --no-bundle          stop after installing into BUILD/stage\n"
    "  --cmake-project DIR  build any CMake project through the same engine\n"
    "  --dry-run            print the plan (commands and summary) and stop\n"
    "  --check              run the pre-flight checks, print the toolchain, and stop\n"
    "  --progress           draw the status line even when stderr is not a terminal\n"
    "  --no-progress        never draw it\n"
    "  --json               print the plan or the build report as JSON\n"
    "\n"
    "The log is BUILD/ortkit-build.log; the report also goes to BUILD/ortkit-report.json.\n"
    "Exit status: 0 built, 1 failed, 2 usage, 130 interrupted (rerun to resume).\n";

enum {
    OPT_SOURCE = 256, OPT_VARIANT, OPT_BUILD_DIR, OPT_BUDGET, OPT_CACHE, OPT_DISTCC, OPT_LTO,
    OPT_OPS, OPT_PATCH, OPT_DRY, OPT_JSON, OPT_CUDA, OPT_CUDNN, OPT_EIGEN, OPT_DEP, OPT_FETCH,
    OPT_CMAKE, OPT_PROGRESS, OPT_NO_PROGRESS, OPT_LANG_MEM, OPT_NINJA_JOBS, OPT_MIN_DISK,
    OPT_INTO, OPT_NO_BUNDLE, OPT_TARGET, OPT_CHECK
};

typedef struct build_args {
    const char *source, *variant, *build_dir, *cache, *distcc, *patch, *cuda, *cudnn, *eigen;
    const char *cmake_project, *into, *target;
    uint64_t budget, min_disk, lang_mem[ORTKIT__LANG_COUNT];
    long jobs, ninja_jobs;
    int lto, dry, check, json, fetch, progress, no_bundle;
    ortkit__strv ops, defines, deps;
} build_args;

static void warn_line(const char *msg) { fprintf(stderr, "ortkit: warning: %s\n", msg); }

static int parse_args(build_args *a, int argc, char **argv)
{
    static const struct option longopts[] = {
        {"source", required_argument, NULL, OPT_SOURCE},
        {"variant", required_argument, NULL, OPT_VARIANT},
        {"build-dir", required_argument, NULL, OPT_BUILD_DIR},
        {"mem-budget", required_argument, NULL, OPT_BUDGET},
        {"jobs", required_argument, NULL, 'j'},
        {"cache", required_argument, NULL, OPT_CACHE},
        {"distcc", required_argument, NULL, OPT_DISTCC},
        {"lto", no_argument, NULL, OPT_LTO},
        {"ops-from", required_argument, NULL, OPT_OPS},
        {"patch", required_argument, NULL, OPT_PATCH},
        {"dry-run", no_argument, NULL, OPT_DRY},
        {"check", no_argument, NULL, OPT_CHECK},
        {"json", no_argument, NULL, OPT_JSON},
        {"cuda-home", required_argument, NULL, OPT_CUDA},
        {"cudnn-home", required_argument, NULL, OPT_CUDNN},
        {"eigen", required_argument, NULL, OPT_EIGEN},
        {"dep", required_argument, NULL, OPT_DEP},
        {"fetch", no_argument, NULL, OPT_FETCH},
        {"cmake-project", required_argument, NULL, OPT_CMAKE},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
        {"bundle-into", required_argument, NULL, OPT_INTO},
        {"no-bundle", no_argument, NULL, OPT_NO_BUNDLE},
        /* Not in --help: tuning and test hooks. */
        {"lang-mem", required_argument, NULL, OPT_LANG_MEM},
        {"ninja-jobs", required_argument, NULL, OPT_NINJA_JOBS},
        {"min-disk", required_argument, NULL, OPT_MIN_DISK},
        {"target", required_argument, NULL, OPT_TARGET},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int c;
    a->progress = -1;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "hj:D:", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_SOURCE: a->source = optarg; break;
        case OPT_VARIANT: a->variant = optarg; break;
        case OPT_BUILD_DIR: a->build_dir = optarg; break;
        case OPT_BUDGET:
            if (ortkit__human_parse_size(optarg, &a->budget) || a->budget < 64 * ORTKIT__MiB)
                return cli_usage("build", "--mem-budget wants a size of at least 64M, like 6G");
            break;
        case 'j':
            if (cli_parse_long(optarg, 1, 4096, &a->jobs))
                return cli_usage("build", "--jobs wants a number from 1 to 4096");
            break;
        case OPT_CACHE:
            if (strcmp(optarg, "ccache"))
                return cli_usage("build", "--cache supports only 'ccache'");
            a->cache = optarg;
            break;
        case OPT_DISTCC: a->distcc = optarg; break;
        case OPT_LTO: a->lto = 1; break;
        case OPT_OPS:
            if (ortkit__strv_push(&a->ops, optarg))
                return cli_fail("out of memory");
            break;
        case OPT_PATCH: a->patch = optarg; break;
        case OPT_DRY: a->dry = 1; break;
        case OPT_CHECK: a->check = 1; break;
        case OPT_JSON: a->json = 1; break;
        case OPT_CUDA: a->cuda = optarg; break;
        case OPT_CUDNN: a->cudnn = optarg; break;
        case OPT_EIGEN: a->eigen = optarg; break;
        case OPT_DEP:
            if (!strchr(optarg, '=') || ortkit__strv_push(&a->deps, optarg))
                return cli_usage("build", "--dep wants NAME=DIR");
            break;
        case OPT_FETCH: a->fetch = 1; break;
        case OPT_CMAKE: a->cmake_project = optarg; break;
        case OPT_PROGRESS: a->progress = 1; break;
        case OPT_NO_PROGRESS: a->progress = 0; break;
        case OPT_INTO: a->into = optarg; break;
        case OPT_NO_BUNDLE: a->no_bundle = 1; break;
        case OPT_TARGET: a->target = optarg; break;
        case 'D':
            if (!strchr(optarg, '=') || optarg[0] == '=' || ortkit__strv_push(&a->defines, optarg))
                return cli_usage("build", "-D wants KEY=VALUE");
            break;
        case OPT_LANG_MEM: {
            char lang[16];
            const char *eq = strchr(optarg, '=');
            uint64_t v;
            int l = -1;
            if (eq && (size_t)(eq - optarg) < sizeof lang) {
                snprintf(lang, sizeof lang, "%.*s", (int)(eq - optarg), optarg);
                l = ortkit__builder_lang_parse(lang);
            }
            if (l < 0 || ortkit__human_parse_size(eq + 1, &v))
                return cli_usage("build", "--lang-mem wants c|c++|cuda|link=SIZE");
            a->lang_mem[l] = v;
            break;
        }
        case OPT_NINJA_JOBS:
            if (cli_parse_long(optarg, 1, 100000, &a->ninja_jobs))
                return cli_usage("build", "--ninja-jobs wants a number");
            break;
        case OPT_MIN_DISK:
            if (ortkit__human_parse_size(optarg, &a->min_disk))
                return cli_usage("build", "--min-disk wants a size");
            break;
        case 'h': fputs(usage_text, stdout); return -1;
        default: return cli_bad_option("build", argv);
        }
    }
    for (int i = optind; i < argc; i++) {
        if (!a->ops.n)
            return cli_usage("build", "unexpected argument '%s'", argv[i]);
        if (ortkit__strv_push(&a->ops, argv[i]))
            return cli_fail("out of memory");
    }
    if (!!a->source == !!a->cmake_project)
        return cli_usage("build", "give either --source DIR (with --variant) or --cmake-project DIR");
    if (a->source && !a->variant)
        return cli_usage("build", "--source needs --variant NAME (see 'ortkit variants')");
    if (a->cmake_project && (a->variant || a->ops.n || a->lto || a->eigen || a->deps.n))
        return cli_usage("build", "--cmake-project takes no variant, --ops-from, --lto, --eigen or --dep");
    return 0;
}

static void free_args(build_args *a)
{
    ortkit__strv_free(&a->ops);
    ortkit__strv_free(&a->defines);
    ortkit__strv_free(&a->deps);
}

static const char *chain_of(const build_args *a)
{
    if (a->cache && a->distcc)
        return "ccache+distcc";
    return a->cache ? "ccache" : a->distcc ? "distcc" : NULL;
}

/* The plan as JSON: the summary, the commands, and the gate's settings. */
static cJSON *plan_json(const ortkit__builder_plan *plan, const build_args *a, const char *ops_text)
{
    cJSON *root = cJSON_CreateObject(), *sum = cJSON_AddObjectToObject(root, "summary");
    for (size_t i = 0; sum && i < plan->summary.n; i++) {
        char *tab = strchr(plan->summary.v[i], '\t');
        if (!tab)
            continue;
        *tab = '\0';
        cJSON_AddStringToObject(sum, plan->summary.v[i], tab + 1);
        *tab = '\t';
    }
    cJSON_AddItemToObject(root, "configure",
                          cJSON_CreateStringArray((const char *const *)plan->configure.v,
                                                  (int)plan->configure.n));
    if (plan->reduce.n)
        cJSON_AddItemToObject(root, "reduce_operators",
                              cJSON_CreateStringArray((const char *const *)plan->reduce.v,
                                                      (int)plan->reduce.n));
    if (ops_text)
        cJSON_AddStringToObject(root, "required_operators", ops_text);
    cJSON *gate = cJSON_AddObjectToObject(root, "gate");
    if (gate) {
        if (a->budget)
            cJSON_AddNumberToObject(gate, "budget_bytes", (double)a->budget);
        else
            cJSON_AddStringToObject(gate, "budget", "available memory less max(1 GiB, 10%)");
        cJSON_AddNumberToObject(gate, "slots", a->jobs ? (double)a->jobs : ortkit__proc_cpus());
        const char *chain = chain_of(a);
        if (chain)
            cJSON_AddStringToObject(gate, "chain", chain);
    }
    cJSON_AddStringToObject(root, "stage", plan->stage_dir);
    return root;
}

static char *self_exe(void)
{
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        return NULL;
    buf[n] = '\0';
    return strdup(buf);
}

static void print_dry_run(const ortkit__builder_plan *plan, const build_args *a, const char *ops_text)
{
    ortkit__builder_plan_write(plan, stdout);
    if (ops_text)
        printf("\nrequired operators (written to the build directory):\n%s", ops_text);
    char budget[64] = "available memory less max(1 GiB, 10%)";
    if (a->budget)
        ortkit__human_memory(budget, sizeof budget, a->budget);
    long slots = a->jobs ? a->jobs : ortkit__proc_cpus();
    const char *chain = chain_of(a);
    printf("\nbuild:\n  ninja -C %s under the compile gate: budget %s, %ld CPU slots%s%s\n",
           plan->configure.v[4], budget, slots, chain ? ", through " : "", chain ? chain : "");
}

int cmd_build(int argc, char **argv)
{
    if (argc >= 2 && !strncmp(argv[1], "--launch", 8))
        return ortkit__builder_launch(argc, argv);

    build_args a;
    memset(&a, 0, sizeof a);
    int rc = parse_args(&a, argc, argv);
    if (rc) {
        free_args(&a);
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
    ortkit__builder_options o = {
        .mode = a.dry ? ORTKIT__BUILDER_PLAN : a.check ? ORTKIT__BUILDER_CHECK : ORTKIT__BUILDER_BUILD,
        .source = a.source, .variant = a.variant, .cmake_project = a.cmake_project,
        .build_dir = a.build_dir, .launcher = exe, .cuda_home = a.cuda, .cudnn_home = a.cudnn,
        .eigen_dir = a.eigen, .patch_dir = a.patch, .bundle_into = a.into, .no_bundle = a.no_bundle,
        .target = a.target, .chain = chain_of(&a), .distcc_hosts = a.distcc, .budget = a.budget,
        .min_disk = a.min_disk, .slots = (int)a.jobs, .ninja_jobs = (int)a.ninja_jobs,
        .lto = a.lto, .fetch = a.fetch, .models = (const char *const *)a.ops.v,
        .n_models = a.ops.n, .deps = (const char *const *)a.deps.v, .n_deps = a.deps.n,
        .defines = (const char *const *)a.defines.v, .n_defines = a.defines.n,
        .progress = a.progress >= 0 ? a.progress : isatty(2), .quiet = a.json,
        .catch_signals = 1, .log = stderr, .warn = warn_line};
    memcpy(o.lang_mem, a.lang_mem, sizeof o.lang_mem);
    rc = ortkit__builder_build(&res, &o);
    /* The builder and util are linked into this program, the library is
     * shared: the builder's failures are in this program's copy of the
     * error channel (ortkit__error_message), not in ortkit_error_last(). */
    if (rc == ORTKIT_E_CANCELLED) {
        fprintf(stderr, "ortkit: %s\n", ortkit__error_message());
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
        printf("pre-flight passed for %s\n", v ? v->name : res.source);
        if (v)
            printf("  source  %s (ONNX Runtime %s)\n", res.source, res.version);
        printf("  cmake   %s (%s)\n  ninja   %s (%s)\n  cc      %s\n  c++     %s\n", tc->cmake,
               tc->cmake_path, tc->ninja, tc->ninja_path, tc->cc, tc->cxx);
        if (tc->nvcc[0])
            printf("  nvcc    %s (%s)\n  cuDNN   %s (%s)\n", tc->nvcc, res.cuda_home, tc->cudnn,
                   res.cudnn_home);
        rc = CLI_OK;
    } else if (a.dry) {
        if (a.json)
            rc = cli_json_print(plan_json(&res.plan, &a, res.ops_text));
        else
            print_dry_run(&res.plan, &a, res.ops_text), rc = CLI_OK;
    } else if (a.json) {
        printf("%s\n", res.report_json);
        rc = CLI_OK;
    } else {
        printf("built %s in %s\n", v ? v->name : res.source, res.build_dir);
        ortkit__builder_report_print(&res.report, stdout);
        if (!a.target)
            printf("installed: %s\n", res.plan.stage_dir);
        if (res.bundle[0])
            printf("bundle: %s\n", res.bundle);
        printf("log: %s/ortkit-build.log\n", res.build_dir);
        rc = CLI_OK;
    }
cleanup:
    ortkit__builder_result_free(&res);
    free(exe);
    free_args(&a);
    return rc;
}
