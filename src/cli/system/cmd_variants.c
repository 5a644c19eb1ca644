/* cmd_variants.c - `ortkit variants`: the build variants, and which fit a host. */
#include "cli.h"
#include "variant_worth.h"
#include "opt.h"

#include <stdlib.h>
#include <string.h>

typedef struct variants_args {
    int fits, flox, json, all;
    const char *host;
} variants_args;

static const cli_opt variants_opts[] = {
    {0, "fits", 'f', NULL, 0,
     "check each variant against this machine: list those that fit (a variant named, and "
     "--json, list every one, with why not)", CLI_OPT_FLAG(variants_args, fits)},
    {0, "all", 'a', NULL, 0, "with --fits: every variant, those that do not fit with why not",
     CLI_OPT_FLAG(variants_args, all)},
    {0, "host", 'H', "FILE", 0,
     "check against the machine described in FILE (see 'ortkit host --json'); implies --fits",
     CLI_OPT_STRING(variants_args, host)},
    {0, "flox", 'x', NULL, 0, "show the Flox names too", CLI_OPT_FLAG(variants_args, flox)},
    {0, "json", 'j', NULL, 0, "print JSON", CLI_OPT_FLAG(variants_args, json)},
    CLI_OPT_TERM("NAME...", "only these variants"),
    CLI_OPT_ARGS(0, CLI_OPT_ANY, NULL),
    CLI_OPT_END};

static const cli_opt_spec variants_spec = {
    "variants",
    "usage: ortkit variants [--fits [--all]] [--host FILE.json] [--flox] [--json] [NAME...]\n",
    "List the ONNX Runtime build variants ortkit knows: the 66 of the Flox matrix,\n"
    "CUDA 13.0, Jetson Thor and GB10 (NVIDIA's SBSA CUDA 13), Jetson Orin\n"
    "(Jetson's L4T CUDA) and the generic builds (cpu-x86-64 and cpu-armv8.0, which\n"
    "fit every host of their architecture), with what each is built for and\n"
    "needs; a CUDA build fits only a host of its CUDA platform.  Names are\n"
    "cpu-<isa> or cuda<M>.<m>-sm<NN>-<isa> (cuda12.9-sm90-avx512); the Flox form\n"
    "(onnxruntime-python313-cuda12_9-sm90-avx512) is accepted too.\n",
    variants_opts, NULL, NULL};

static void version_text(char *buf, size_t size, int v)
{
    snprintf(buf, size, "%d.%d", v / 1000, (v % 1000) / 10);
}

static void driver_text(char *buf, size_t size, const ortkit_variant *v)
{
    if (!v->cuda)
        snprintf(buf, size, "-");
    else if (v->tegra)
        snprintf(buf, size, "L4T R%s", v->min_driver);
    else
        snprintf(buf, size, "%s", v->min_driver);
}

/* The Python of a Flox build, from its name: "onnxruntime-python313-..." -> "3.13". */
static void flox_python(char *buf, size_t size, const char *flox_name)
{
    static const char prefix[] = "onnxruntime-python";
    const char *p = flox_name + strlen(prefix);
    size_t digits = strncmp(flox_name, prefix, strlen(prefix)) ? 0 : strspn(p, "0123456789");
    if (digits < 2)
        buf[0] = '\0';
    else
        snprintf(buf, size, "%c.%.*s", p[0], (int)digits - 1, p + 1);
}

static cJSON *variant_json(const ortkit_variant *v, const char *flox_name, int fits,
                           const char *why)
{
    char text[32];
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "name", v->name);
    cJSON_AddStringToObject(o, "flox_name", flox_name);
    cJSON_AddBoolToObject(o, "in_flox_matrix", ortkit_variant_in_matrix(v, ORTKIT_VARIANT_FLOX) == 1);
    cJSON_AddStringToObject(o, "arch", ortkit_arch_name(v->arch));
    cJSON_AddStringToObject(o, "isa", ortkit_isa_name(v->isa));
    cJSON_AddStringToObject(o, "cpu_flags", v->cpu_flags);
    cJSON *feats = cJSON_AddArrayToObject(o, "cpu_features");
    for (int f = 0; feats && f < ORTKIT_CPU_FEATURE_COUNT; f++)
        if (v->cpu_features & ORTKIT_CPU_BIT(f))
            cJSON_AddItemToArray(feats,
                                 cJSON_CreateString(ortkit_cpu_feature_name((ortkit_cpu_feature)f)));
    if (v->cuda) {
        version_text(text, sizeof text, v->cuda);
        cJSON_AddStringToObject(o, "cuda", text);
        snprintf(text, sizeof text, "%d.%d", v->sm / 10, v->sm % 10);
        cJSON_AddStringToObject(o, "compute_capability", text);
        cJSON_AddBoolToObject(o, "exact_sm_only", v->sm_exact);
        cJSON_AddStringToObject(o, "cubin", v->cubin);
        cJSON_AddStringToObject(o, "cuda_architectures", v->cuda_architectures);
        cJSON_AddStringToObject(o, "platform", ortkit_cuda_platform_name(v->cuda_platform));
        cJSON_AddBoolToObject(o, "jetson", v->tegra);
        cJSON_AddStringToObject(o, v->tegra ? "min_l4t" : "min_driver", v->min_driver);
        if (v->toolkit_driver[0])
            cJSON_AddStringToObject(o, "toolkit_min_driver", v->toolkit_driver);
    } else {
        cJSON_AddNullToObject(o, "cuda");
    }
    flox_python(text, sizeof text, flox_name);
    cJSON_AddStringToObject(o, "python", text);
    if (v->defect[0])
        cJSON_AddStringToObject(o, "defect", v->defect);
    if (fits >= 0) {
        cJSON_AddBoolToObject(o, "fits", fits);
        cJSON_AddStringToObject(o, "why", why);
    }
    return o;
}


/* Each CPU build and the level below it, as selection ranks them ("cpu":
 * a generic prebuilt library such as Microsoft's). */
static const char *const cpu_below[][2] = {
    {"cpu-x86-64", "cpu"},           {"cpu-avx2", "cpu-x86-64"},
    {"cpu-avx512", "cpu-avx2"},      {"cpu-avx512vnni", "cpu-avx512"},
    {"cpu-avx512bf16", "cpu-avx512vnni"}, {"cpu-armv8.0", "cpu"},
    {"cpu-armv8.2", "cpu-armv8.0"},  {"cpu-armv9", "cpu-armv8.2"}};

static const char *level_below(const ortkit_variant *v)
{
    for (size_t i = 0; !v->cuda && i < sizeof cpu_below / sizeof cpu_below[0]; i++)
        if (!strcmp(cpu_below[i][0], v->name))
            return cpu_below[i][1];
    return NULL;
}

/* What each listed CPU level was measured to buy over lower ones: every
 * measured pair, and the level just below when that pair was never
 * measured, so that no gain is read into the table. */
static void print_measured(const ortkit_variant *const *list, size_t count)
{
    int any = 0;
    for (size_t i = 0; i < count; i++) {
        const char *below = level_below(list[i]);
        if (!below)
            continue;
        int below_said = 0;
        for (size_t j = 0; j < sizeof cpu_below / sizeof cpu_below[0]; j++) {
            const char *lower = cpu_below[j][1];
            const char *m = variant_worth(list[i]->name, lower);
            int seen = 0; /* "cpu" is below both generic builds: once */
            for (size_t k = 0; k < j; k++)
                seen |= !strcmp(cpu_below[k][1], lower);
            if (!m || seen)
                continue;
            if (!any++)
                printf("\nwhat a CPU level buys over lower ones (docs/PERFORMANCE.md):\n");
            printf("  %s over %s: %s\n", list[i]->name, lower, m);
            below_said |= !strcmp(lower, below);
        }
        if (!below_said) {
            if (!any++)
                printf("\nwhat a CPU level buys over lower ones (docs/PERFORMANCE.md):\n");
            printf("  %s over %s: not measured\n", list[i]->name, below);
        }
    }
}

/* The table's columns: with FITS and WHY for --fits, FLOX NAME for --flox,
 * and NOTE (why a variant cannot be built) only when one has a note. */
static cli_table *new_table(int fits, int flox, const ortkit_variant *const *list, size_t count)
{
    static const char *const plain[] = {"VARIANT", "ARCH", "CUBIN", "MIN DRIVER", "CPU FLAGS", "NOTE"};
    static const char *const plain_flox[] = {"VARIANT", "FLOX NAME", "ARCH", "CUBIN", "MIN DRIVER",
                                             "CPU FLAGS", "NOTE"};
    static const char *const fit[] = {"VARIANT", "FITS", "WHY"};
    static const char *const fit_flox[] = {"VARIANT", "FLOX NAME", "FITS", "WHY"};
    const char *const *headers = fits ? (flox ? fit_flox : fit) : (flox ? plain_flox : plain);
    int note = 0;
    for (size_t i = 0; i < count; i++)
        note |= list[i]->defect[0] != 0;
    return cli_table_new((fits ? 3 : 5 + (size_t)note) + (size_t)flox, headers);
}

/* One variant as JSON, with what its CPU level was measured to be worth. */
static int add_json(cJSON *arr, const ortkit_variant *v, const char *flox_name, int ok, const char *why)
{
    cJSON *o = variant_json(v, flox_name, ok, why);
    const char *below = level_below(v);
    if (o && below) {
        const char *m = variant_worth(v->name, below);
        cJSON *over = cJSON_AddObjectToObject(o, "over_level_below");
        cJSON_AddStringToObject(over, "variant", below);
        cJSON_AddItemToObject(over, "measured", m ? cJSON_CreateString(m) : cJSON_CreateNull());
    }
    if (!o || !cJSON_AddItemToArray(arr, o)) {
        cJSON_Delete(o);
        return -1;
    }
    return 0;
}

int cmd_variants(int argc, char **argv)
{
    variants_args a = {0, 0, 0, 0, NULL};
    int rc = CLI_FAIL;
    cli_opt_parser p;
    if (cli_opt_parse(&p, &variants_spec, NULL, &a, argc, argv))
        return p.status;
    const char *host_file = a.host;
    int fits = a.fits || a.host, flox = a.flox, json = a.json;
    /* --fits lists the fits; every row with --all, or when variants are named. */
    int only_fits = fits && !a.all && !p.n_args;

    /* The variants to show: those named, or all. */
    size_t count = p.n_args ? (size_t)p.n_args : ortkit_variant_count();
    const ortkit_variant **list = calloc(count ? count : 1, sizeof *list);
    cli_table *table = NULL;
    cJSON *root = NULL, *arr = NULL;
    ortkit_host *host = NULL;
    if (!list)
        return cli_fail("out of memory");
    for (size_t i = 0; i < count; i++) {
        if (p.n_args) {
            if (ortkit_variant_parse(&list[i], p.args[i]) != 0) {
                rc = cli_fail_lib();
                goto cleanup;
            }
        } else {
            list[i] = ortkit_variant_get(i);
        }
    }

    if (fits && (host_file ? ortkit_host_load(&host, host_file) : ortkit_host_detect(&host))) {
        rc = cli_fail_lib();
        goto cleanup;
    }

    if (json) {
        root = cJSON_CreateObject();
        arr = root ? cJSON_AddArrayToObject(root, "variants") : NULL;
        if (!arr) {
            rc = cli_fail("out of memory");
            goto cleanup;
        }
    } else if (!(table = new_table(fits, flox, list, count))) {
        rc = cli_fail("out of memory");
        goto cleanup;
    }

    size_t fitting = 0;
    for (size_t i = 0; i < count; i++) {
        const ortkit_variant *v = list[i];
        char why[256] = "", driver[32], flox_name[128];
        int ok = fits ? ortkit_variant_fits(v, host, why, sizeof why) : -1;
        fitting += ok == 1;
        if (ortkit_variant_name(v, flox_name, sizeof flox_name, ORTKIT_VARIANT_FLOX) != 0) {
            rc = cli_fail_lib();
            goto cleanup;
        }
        if (json) {
            if (add_json(arr, v, flox_name, ok, why)) {
                rc = cli_fail("out of memory");
                goto cleanup;
            }
            continue;
        }
        if (only_fits && ok != 1)
            continue;
        driver_text(driver, sizeof driver, v);
        const char *cubin = v->cuda ? v->cubin : "-";
        if (fits && flox)
            cli_table_add(table, (const char *[]){v->name, flox_name, ok ? "yes" : "no", why});
        else if (fits)
            cli_table_add(table, (const char *[]){v->name, ok ? "yes" : "no", why});
        else if (flox)
            cli_table_add(table, (const char *[]){v->name, flox_name,
                                                  ortkit_arch_name(v->arch), cubin, driver,
                                                  v->cpu_flags, v->defect});
        else
            cli_table_add(table, (const char *[]){v->name, ortkit_arch_name(v->arch), cubin,
                                                  driver, v->cpu_flags, v->defect});
    }

    if (json) {
        rc = cli_json_print(root);
        root = NULL;
        goto cleanup;
    }
    if (cli_table_print(table, stdout, NULL)) {
        rc = cli_fail("out of memory");
        goto cleanup;
    }
    if (fits)
        printf("\n%zu of %zu variant%s fit%s %s%s\n", fitting, count, count == 1 ? "" : "s",
               count == 1 ? "s" : "", host_file ? "the described host" : "this host",
               only_fits && fitting < count ? "; --all lists the others and why not" : "");
    else
        print_measured(list, count);
    rc = CLI_OK;
cleanup:
    cJSON_Delete(root);
    cli_table_free(table);
    ortkit_host_free(host);
    free(list);
    return rc;
}
