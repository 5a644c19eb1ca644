/* cmd_variants.c - `ortkit variants`: the build variants, and which fit a host. */
#include "cli.h"
#include "variant_worth.h"
#include "opt.h"
#include "view.h"

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

static cJSON *variant_view(const ortkit_variant *v, const char *flox_name, int fits,
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

/* What v's CPU level was measured to buy: over the level just below it
 * ("measured" null when that pair was never measured, so that no gain is
 * read into the table), and every lower level measured against it. */
static void add_worth(cJSON *o, const ortkit_variant *v)
{
    const char *below = level_below(v);
    if (!below)
        return;
    const char *m = variant_worth(v->name, below);
    cJSON *over = cJSON_AddObjectToObject(o, "over_level_below");
    cJSON_AddStringToObject(over, "variant", below);
    cJSON_AddItemToObject(over, "measured", m ? cJSON_CreateString(m) : cJSON_CreateNull());
    cJSON *all = cJSON_AddArrayToObject(o, "measured_over");
    for (size_t j = 0; all && j < sizeof cpu_below / sizeof cpu_below[0]; j++) {
        const char *lower = cpu_below[j][1];
        int seen = 0; /* "cpu" is below both generic builds: once */
        for (size_t k = 0; k < j; k++)
            seen |= !strcmp(cpu_below[k][1], lower);
        if (seen || !(m = variant_worth(v->name, lower)))
            continue;
        cJSON *e = cJSON_CreateObject();
        ortkit__json_add_strings(e, "variant", lower, "measured", m, NULL);
        cJSON_AddItemToArray(all, e);
    }
}

/* What each CPU level was measured to buy over lower ones, drawn from the view. */
static void worth_lines(const cJSON *variants)
{
    int any = 0;
    const cJSON *v, *e;
    cJSON_ArrayForEach(v, variants) {
        const cJSON *below = cli_view_at(v, "over_level_below");
        if (!below)
            continue;
        if (!any++)
            printf("\nwhat a CPU level buys over lower ones (docs/PERFORMANCE.md):\n");
        cJSON_ArrayForEach(e, cli_view_at(v, "measured_over"))
            printf("  %s over %s: %s\n", cli_view_str(v, "name"), cli_view_str(e, "variant"),
                   cli_view_str(e, "measured"));
        if (!cJSON_IsString(cli_view_at(below, "measured")))
            printf("  %s over %s: not measured\n", cli_view_str(v, "name"),
                   cli_view_str(below, "variant"));
    }
}

static void cubin_cell(const cJSON *o, char *buf, size_t size)
{
    snprintf(buf, size, "%s", cJSON_IsString(cli_view_at(o, "cuda")) ? cli_view_str(o, "cubin") : "-");
}

static void driver_cell(const cJSON *o, char *buf, size_t size)
{
    if (!cJSON_IsString(cli_view_at(o, "cuda")))
        snprintf(buf, size, "-");
    else if (cli_view_bool(o, "jetson"))
        snprintf(buf, size, "L4T R%s", cli_view_str(o, "min_l4t"));
    else
        snprintf(buf, size, "%s", cli_view_str(o, "min_driver"));
}

enum { FITS = 1, FLOX = 2, PLAIN = 4, NOTE = 8 };

/* Every column, with the tables it belongs to: FITS and WHY for --fits,
 * FLOX NAME for --flox, NOTE (why a variant cannot be built) only when one
 * has a note. */
static const struct {
    cli_view_column column;
    int in;
} all_columns[] = {{{"VARIANT", "name", NULL, 0, NULL}, FITS | PLAIN},
                   {{"FLOX NAME", "flox_name", NULL, 0, NULL}, FLOX},
                   {{"FITS", "fits", NULL, 0, NULL}, FITS},
                   {{"WHY", "why", NULL, 0, NULL}, FITS},
                   {{"ARCH", "arch", NULL, 0, NULL}, PLAIN},
                   {{"CUBIN", NULL, cubin_cell, 0, NULL}, PLAIN},
                   {{"MIN DRIVER", NULL, driver_cell, 0, NULL}, PLAIN},
                   {{"CPU FLAGS", "cpu_flags", NULL, 0, NULL}, PLAIN},
                   {{"NOTE", "defect", NULL, 0, NULL}, NOTE}};

/* The view's variants as the table: 0, or -1 when it could not be made. */
static int variants_table(const cJSON *variants, int fits, int flox)
{
    cli_view_column columns[sizeof all_columns / sizeof all_columns[0]];
    size_t n = 0;
    int want = (fits ? FITS : PLAIN) | (flox ? FLOX : 0);
    const cJSON *v;
    cJSON_ArrayForEach(v, variants)
        want |= !fits && cJSON_IsString(cli_view_at(v, "defect")) ? NOTE : 0;
    for (size_t i = 0; i < sizeof all_columns / sizeof all_columns[0]; i++)
        if (all_columns[i].in & want)
            columns[n++] = all_columns[i].column;
    return cli_view_table(stdout, variants, columns, n, NULL);
}

/* The variants to show: those named (p.args), or all; NULL when one is not
 * a variant (the library's error set) or memory runs out. */
static const ortkit_variant **variants_listed(const cli_opt_parser *p, size_t *count)
{
    *count = p->n_args ? (size_t)p->n_args : ortkit_variant_count();
    const ortkit_variant **list = calloc(*count ? *count : 1, sizeof *list);
    for (size_t i = 0; list && i < *count; i++) {
        if (!p->n_args) {
            list[i] = ortkit_variant_get(i);
        } else if (ortkit_variant_parse(&list[i], p->args[i]) != 0) {
            free(list);
            return NULL;
        }
    }
    if (!list)
        ortkit__error_set(ORTKIT_E_NOMEM, "out of memory");
    return list;
}

/* The view: every variant listed, with whether it fits host (when given)
 * and why; what --json prints and the text is drawn from.  NULL with the
 * library's error set. */
static cJSON *variants_view(const ortkit_variant **list, size_t count, const ortkit_host *host)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *arr = root ? cJSON_AddArrayToObject(root, "variants") : NULL;
    for (size_t i = 0; arr && i < count; i++) {
        char why[256] = "", flox_name[128];
        int ok = host ? ortkit_variant_fits(list[i], host, why, sizeof why) : -1;
        if (ortkit_variant_name(list[i], flox_name, sizeof flox_name, ORTKIT_VARIANT_FLOX) != 0) {
            cJSON_Delete(root);
            return NULL;
        }
        cJSON *o = variant_view(list[i], flox_name, ok, why);
        add_worth(o, list[i]);
        if (!o || !cJSON_AddItemToArray(arr, o)) {
            cJSON_Delete(o);
            arr = NULL;
        }
    }
    if (!arr) {
        cJSON_Delete(root);
        ortkit__error_set(ORTKIT_E_NOMEM, "out of memory");
        return NULL;
    }
    return root;
}

/* The view as text: the table (with --fits and no --all, only those that
 * fit), then how many fit or what each CPU level buys. */
static int variants_text(cJSON *view, int fits, int flox, int only_fits, const char *host_file)
{
    cJSON *variants = cJSON_GetObjectItemCaseSensitive(view, "variants");
    int count = cJSON_GetArraySize(variants), fitting = 0;
    for (cJSON *v = variants ? variants->child : NULL, *next; v; v = next) {
        next = v->next;
        fitting += cli_view_bool(v, "fits");
        if (only_fits && !cli_view_bool(v, "fits"))
            cJSON_Delete(cJSON_DetachItemViaPointer(variants, v));
    }
    if (variants_table(variants, fits, flox))
        return cli_fail("out of memory");
    if (fits)
        printf("\n%d of %d variant%s fit%s %s%s\n", fitting, count, count == 1 ? "" : "s",
               count == 1 ? "s" : "", host_file ? "the described host" : "this host",
               only_fits && fitting < count ? "; --all lists the others and why not" : "");
    else
        worth_lines(variants);
    return CLI_OK;
}

int cmd_variants(int argc, char **argv)
{
    variants_args a = {0, 0, 0, 0, NULL};
    cli_opt_parser p;
    if (cli_opt_parse(&p, &variants_spec, NULL, &a, argc, argv))
        return p.status;
    int fits = a.fits || a.host;
    /* --fits lists the fits; every row with --all, or when variants are named. */
    int only_fits = fits && !a.all && !p.n_args;
    size_t count = 0;
    const ortkit_variant **list = variants_listed(&p, &count);
    ortkit_host *host = NULL;
    cJSON *view = NULL;
    int rc = CLI_FAIL;
    if (!list || (fits && (a.host ? ortkit_host_load(&host, a.host) : ortkit_host_detect(&host))) ||
        !(view = variants_view(list, count, host)))
        rc = cli_fail_lib();
    else if (a.json)
        rc = cli_json_print(view), view = NULL; /* cli_json_print frees it */
    else
        rc = variants_text(view, fits, a.flox, only_fits, a.host);
    cJSON_Delete(view);
    ortkit_host_free(host);
    free(list);
    return rc;
}
