/*
 * cmd_compare.c - `ortkit compare A B`: saved outputs, A against B (the
 * reference), compared as validate compares a test's outputs
 * (ortkit_tensor_compare, ONNX Runtime's test runner's rule): two .npy
 * files, or two directories as `run -o DIR` writes them, every value file
 * beneath them matched by its path.  Two `validate --json` reports are
 * compared test by test instead (compare_reports.c).
 */
#include "cli.h"
#include "view.h"
#include "compare_reports.h"
#include "opt.h"
#include "value_files.h"
#include "values.h"
#include "ortkit/tools/compare.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct compare_args {
    double rtol, atol;
    int json;
} compare_args;

static const cli_opt compare_opts[] = {
    CLI_OPT_TERM("A B", "two .npy (or .json) value files, two directories of them as 'ortkit run "
                        "-o DIR' writes them, or two 'ortkit validate --json' reports"),
    {0, "rtol", 0, "X", 0, "tolerances for floats (default 1e-3 and 1e-5, validate's)",
     CLI_OPT_DOUBLE(compare_args, rtol, 0, INFINITY)},
    {0, "atol", 0, "X", CLI_OPT_SAME_LINE, NULL, CLI_OPT_DOUBLE(compare_args, atol, 0, INFINITY)},
    {0, "json", 'j', NULL, 0, "print JSON", CLI_OPT_FLAG(compare_args, json)},
    CLI_OPT_ARGS(2, 2, "compare needs A and B: two files or two directories"),
    CLI_OPT_END};

static const cli_opt_spec compare_spec = {
    "compare",
    "usage: ortkit compare A B [--rtol X] [--atol X] [--json]\n",
    "Compare saved outputs, A against B (the reference), as validate compares a\n"
    "test's outputs: an element agrees when |A - B| <= atol + rtol * |B|; NaN\n"
    "agrees with NaN and an infinity only with itself; integers, booleans and\n"
    "strings must be equal; element type and shape must be the same.  In two\n"
    "directories every .npy and .json file beneath them is matched by its path.\n"
    "Per output: the largest |A - B|, the largest |A - B| / |B| (over elements\n"
    "where B is not 0) and the verdict.\n"
    "\n"
    "Given two 'ortkit validate --json' reports, A against B test by test: their\n"
    "totals, the tests B passes that A does not (worse), and those A passes that\n"
    "B does not (better).\n",
    compare_opts, NULL,
    "Exit status: 0 when every output agrees (reports: nothing is worse), 1 when\n"
    "one differs or is in one directory only, 2 on usage errors and files that\n"
    "cannot be read.\n"};

/* One output compared: its name (the path under the directories, without
 * .npy), and what was found. */
typedef struct compare_row {
    char *name;
    const char *verdict; /* "ok", "differs", "type differs", "shape differs", "only in A", ... */
    char desc[160];      /* B's type and shape ("float32[1,2]") */
    double max_abs, max_rel;
    int numeric;         /* the two figures mean something */
    char message[256];   /* what differs, for people */
} compare_row;

/* ---- the files beneath a directory --------------------------------------------- */

static int is_value_file(const char *name)
{
    size_t n = strlen(name);
    return (n > 4 && !strcmp(name + n - 4, ".npy")) || (n > 5 && !strcmp(name + n - 5, ".json"));
}

/* The value files under root/rel, their paths relative to root into out. */
static int list_files(ortkit__strv *out, const char *root, const char *rel)
{
    char dir[PATH_MAX];
    if (ortkit__pathf(dir, sizeof dir, "%s%s%s", root, rel[0] ? "/" : "", rel))
        return cli_fail("'%s/%s': path too long", root, rel);
    DIR *d = opendir(dir);
    if (!d)
        return cli_fail("cannot read '%s': %s", dir, strerror(errno));
    int rc = 0;
    for (struct dirent *e; !rc && (e = readdir(d));) {
        char sub[PATH_MAX], path[PATH_MAX];
        struct stat st;
        if (e->d_name[0] == '.') /* ".", "..", and what an interrupted run left */
            continue;
        if (ortkit__pathf(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name) ||
            ortkit__pathf(path, sizeof path, "%s/%s", dir, e->d_name))
            rc = cli_fail("'%s/%s': path too long", dir, e->d_name);
        else if (stat(path, &st) != 0)
            rc = cli_fail("cannot read '%s': %s", path, strerror(errno));
        else if (S_ISDIR(st.st_mode))
            rc = list_files(out, root, sub);
        else if (S_ISREG(st.st_mode) && is_value_file(e->d_name) && ortkit__strv_push(out, sub))
            rc = cli_fail("out of memory");
    }
    closedir(d);
    return rc;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- one pair of values ------------------------------------------------------- */

/* The largest |a - b| and |a - b| / |b| (b not 0) over numeric elements;
 * a NaN against a number, or different infinities, count as infinite. */
static void figures(compare_row *row, const ortkit_tensor *a, const ortkit_tensor *b)
{
    row->numeric = value_numeric(ortkit_tensor_type(b));
    for (size_t i = 0; row->numeric && i < ortkit_tensor_count(b); i++) {
        double x = value_at(a, i), y = value_at(b, i), d;
        if (isnan(x) || isnan(y))
            d = isnan(x) && isnan(y) ? 0 : INFINITY;
        else
            d = x == y ? 0 : fabs(x - y); /* equal infinities differ by 0 */
        double r = y != 0 && !isinf(y) ? d / fabs(y) : d && isinf(y) ? INFINITY : 0;
        row->max_abs = d > row->max_abs ? d : row->max_abs;
        row->max_rel = r > row->max_rel ? r : row->max_rel;
    }
}

static void compare_tensors(compare_row *row, const ortkit_tensor *a, const ortkit_tensor *b,
                            const compare_args *o)
{
    ortkit_compare c = ORTKIT_COMPARE_INIT;
    ortkit_tensor_describe(b, row->desc, sizeof row->desc);
    if (ortkit_tensor_compare(&c, b, a, o->rtol, o->atol)) {
        row->verdict = "differs";
        snprintf(row->message, sizeof row->message, "%s", ortkit_error_last());
        return;
    }
    if (ortkit_tensor_type(a) != ortkit_tensor_type(b))
        row->verdict = "type differs";
    else if (!c.equal && !strncmp(c.message, "shape", 5))
        row->verdict = "shape differs";
    else
        row->verdict = c.equal ? "ok" : "differs";
    if (!strcmp(row->verdict, "ok") || !strcmp(row->verdict, "differs"))
        figures(row, a, b);
    snprintf(row->message, sizeof row->message, "%s", c.message);
}

/* Maps: keys equal, values within tolerance; optionals holding none: both so. */
static void compare_values(compare_row *row, const ortkit_value *a, const ortkit_value *b,
                           const compare_args *o)
{
    ortkit_value_kind ka = ortkit_value_kind_of(a), kb = ortkit_value_kind_of(b);
    if (ka != kb) {
        row->verdict = "kind differs";
        snprintf(row->message, sizeof row->message, "A holds a %s, B a %s",
                 ka == ORTKIT_KIND_MAP ? "map" : "value", kb == ORTKIT_KIND_MAP ? "map" : "value");
    } else if (ka == ORTKIT_KIND_TENSOR) {
        compare_tensors(row, ortkit_value_tensor(a), ortkit_value_tensor(b), o);
    } else if (ka == ORTKIT_KIND_MAP) {
        ortkit_compare keys = ORTKIT_COMPARE_INIT;
        if (ortkit_tensor_identical(&keys, ortkit_value_map_keys(b), ortkit_value_map_keys(a)) ||
            !keys.equal) {
            row->verdict = "keys differ";
            snprintf(row->message, sizeof row->message, "keys: %.240s", keys.message);
            return;
        }
        compare_tensors(row, ortkit_value_map_values(a), ortkit_value_map_values(b), o);
    } else {
        row->verdict = ortkit_value_count(a) == ortkit_value_count(b) ? "ok" : "kind differs";
        snprintf(row->desc, sizeof row->desc, "none");
    }
}

/* The pair at paths pa and pb (either NULL: only in the other): CLI_USAGE
 * when a file cannot be read. */
static int compare_pair(compare_row *row, const char *pa, const char *pb, const compare_args *o)
{
    if (!pa || !pb) {
        row->verdict = pa ? "only in A" : "only in B";
        return 0;
    }
    ortkit_value *a = NULL, *b = NULL;
    /* The reader's messages name the file: "A: 'x/y.npy': bad magic, ...". */
    int rc = value_load(&a, pa, NULL, "A") || value_load(&b, pb, NULL, "B") ? CLI_USAGE : 0;
    if (!rc)
        compare_values(row, a, b, o);
    ortkit_value_free(a);
    ortkit_value_free(b);
    return rc;
}

/* ---- every pair ---------------------------------------------------------------- */

static int add_row(compare_row **rows, size_t *n, const char *name)
{
    compare_row *r = realloc(*rows, (*n + 1) * sizeof **rows);
    if (!r)
        return cli_fail("out of memory");
    *rows = r;
    memset(&r[*n], 0, sizeof r[*n]);
    size_t len = strlen(name);
    len -= len > 4 && !strcmp(name + len - 4, ".npy") ? 4 : 0;
    r[*n].name = strndup(name, len);
    return r[(*n)++].name ? 0 : cli_fail("out of memory");
}

/* Both directories' files, matched by path, in order. */
static int compare_dirs(compare_row **rows, size_t *n, const char *a, const char *b,
                        const compare_args *o)
{
    ortkit__strv fa = {0}, fb = {0};
    int rc = list_files(&fa, a, "") || list_files(&fb, b, "") ? CLI_USAGE : 0;
    if (!rc && !fa.n && !fb.n)
        rc = cli_fail("nothing to compare: no .npy or .json file under '%s' or '%s'", a, b) + 1;
    if (fa.n)
        qsort(fa.v, fa.n, sizeof *fa.v, by_name);
    if (fb.n)
        qsort(fb.v, fb.n, sizeof *fb.v, by_name);
    for (size_t i = 0, j = 0; !rc && (i < fa.n || j < fb.n);) {
        int c = i == fa.n ? 1 : j == fb.n ? -1 : strcmp(fa.v[i], fb.v[j]);
        char pa[PATH_MAX], pb[PATH_MAX];
        rc = add_row(rows, n, c <= 0 ? fa.v[i] : fb.v[j]);
        if (!rc && ((c <= 0 && ortkit__pathf(pa, sizeof pa, "%s/%s", a, fa.v[i])) ||
                    (c >= 0 && ortkit__pathf(pb, sizeof pb, "%s/%s", b, fb.v[j]))))
            rc = cli_fail("'%s': path too long", c <= 0 ? a : b);
        if (!rc)
            rc = compare_pair(&(*rows)[*n - 1], c <= 0 ? pa : NULL, c >= 0 ? pb : NULL, o);
        i += c <= 0;
        j += c >= 0;
    }
    ortkit__strv_free(&fa);
    ortkit__strv_free(&fb);
    return rc;
}

/* ---- the answer ------------------------------------------------------------------ */

/* A difference in the view: a number, or the words for one that is not
 * finite ("inf", "nan"); null where there is no figure (no numbers compared). */
static cJSON *figure(const compare_row *r, double v)
{
    if (!r->numeric)
        return cJSON_CreateNull();
    return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateString(isnan(v) ? "nan" : "inf");
}

static cJSON *rows_view(const compare_row *rows, size_t n, const char *a, const char *b,
                        const compare_args *o, size_t differ)
{
    cJSON *root = cJSON_CreateObject();
    ortkit__json_add_strings(root, "a", a, "b", b, NULL);
    CLI_VIEW_ADD_NUMBERS(root, {"rtol", o->rtol}, {"atol", o->atol}, {"outputs_count", (double)n},
                         {"differ", (double)differ});
    cJSON_AddBoolToObject(root, "agree", differ == 0);
    cJSON *arr = cJSON_AddArrayToObject(root, "outputs");
    for (size_t i = 0; i < n; i++) {
        cJSON *e = cJSON_CreateObject();
        ortkit__json_add_strings(e, "name", rows[i].name, "verdict", rows[i].verdict, "message",
                                 rows[i].message, NULL);
        /* B's type and shape; null where there is none (only in A or in B). */
        cJSON_AddItemToObject(e, "value", rows[i].desc[0] ? cJSON_CreateString(rows[i].desc)
                                                          : cJSON_CreateNull());
        cJSON_AddItemToObject(e, "max_abs_diff", figure(&rows[i], rows[i].max_abs));
        cJSON_AddItemToObject(e, "max_rel_diff", figure(&rows[i], rows[i].max_rel));
        cJSON_AddItemToArray(arr, e);
    }
    return root;
}

static void figure_cell(const cJSON *o, const char *key, char *buf, size_t size)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (cJSON_IsNumber(v))
        snprintf(buf, size, "%.3g", v->valuedouble);
    else
        snprintf(buf, size, "%s", cJSON_IsString(v) ? v->valuestring : "-");
}
static void abs_cell(const cJSON *o, char *buf, size_t size) { figure_cell(o, "max_abs_diff", buf, size); }
static void rel_cell(const cJSON *o, char *buf, size_t size) { figure_cell(o, "max_rel_diff", buf, size); }

/* The view as text: the table, a line for each output that is not ok, the sum. */
static int rows_text(const cJSON *view)
{
    static const cli_view_column columns[] = {
        {"OUTPUT", "name", NULL, 0, NULL},     {"VALUE", "value", NULL, 0, "-"},
        {"MAX |A-B|", NULL, abs_cell, 1, NULL}, {"MAX REL", NULL, rel_cell, 1, NULL},
        {"VERDICT", "verdict", NULL, 0, NULL}};
    const cJSON *outputs = cJSON_GetObjectItemCaseSensitive(view, "outputs"), *e;
    if (cli_view_table(stdout, outputs, CLI_VIEW_COLUMNS(columns), ""))
        return cli_fail("out of memory");
    cJSON_ArrayForEach(e, outputs)
        if (cli_view_str(e, "message")[0] && strcmp(cli_view_str(e, "verdict"), "ok"))
            printf("%s: %s\n", cli_esc(cli_view_str(e, "name")), cli_esc(cli_view_str(e, "message")));
    double n = cli_view_num(view, "outputs_count");
    printf("%.0f of %.0f output%s agree (rtol %g, atol %g)\n", n - cli_view_num(view, "differ"), n,
           n == 1 ? "" : "s", cli_view_num(view, "rtol"), cli_view_num(view, "atol"));
    return CLI_OK;
}

/* A directory, a file, or CLI_USAGE after naming what cannot be read. */
static int kind_of(const char *path, int *is_dir)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return cli_fail("cannot read '%s': %s", path, strerror(errno)) + 1;
    *is_dir = S_ISDIR(st.st_mode);
    return 0;
}

int cmd_compare(int argc, char **argv)
{
    compare_args o = {ORTKIT_COMPARE_RTOL, ORTKIT_COMPARE_ATOL, 0};
    cli_opt_parser p;
    if (cli_opt_parse(&p, &compare_spec, NULL, &o, argc, argv))
        return p.status;
    const char *a = p.args[0], *b = p.args[1];
    int dir_a = 0, dir_b = 0;
    if (kind_of(a, &dir_a) || kind_of(b, &dir_b))
        return CLI_USAGE;
    if (dir_a != dir_b)
        return cli_usage("compare", "'%s' is a %s and '%s' a %s: give two files or two directories",
                         a, dir_a ? "directory" : "file", b, dir_b ? "directory" : "file");
    if (!dir_a && compare_is_report(a) && compare_is_report(b))
        return compare_reports(a, b, o.json);
    compare_row *rows = NULL;
    size_t n = 0, differ = 0;
    /* Two files: one row, named after B. */
    const char *b_name = strrchr(b, '/') ? strrchr(b, '/') + 1 : b;
    int rc = dir_a ? compare_dirs(&rows, &n, a, b, &o) : add_row(&rows, &n, b_name);
    if (!rc && !dir_a)
        rc = compare_pair(&rows[0], a, b, &o);
    for (size_t i = 0; i < n; i++)
        differ += rows[i].verdict && strcmp(rows[i].verdict, "ok");
    if (!rc) { /* cli_json_print frees the view */
        cJSON *view = rows_view(rows, n, a, b, &o, differ);
        rc = !view ? cli_fail("out of memory") : o.json ? cli_json_print(view) : rows_text(view);
        if (view && !o.json)
            cJSON_Delete(view);
    }
    for (size_t i = 0; i < n; i++)
        free(rows[i].name);
    free(rows);
    return rc ? rc : differ ? CLI_FAIL : CLI_OK;
}
