/* bench_report.c - the figures of `ortkit bench` as a table or JSON. */
#include "bench.h"
#include "cli.h"
#include "view.h"
#include "ortkit/tools/measure.h"

#include <math.h>
#include <string.h>

typedef enum { K_DURATION, K_COUNT, K_RATE, K_PERCENT, K_BYTES, K_BYTES_SIGNED } figure_kind;

enum {
    F_LOAD, F_COLD_CREATE, F_COLD_FIRST, F_CREATE, F_FIRST, F_RUNS, F_MIN, F_MEAN, F_STDDEV, F_P50,
    F_P90, F_P95, F_P99, F_MAX, F_THROUGHPUT, F_CPU, F_RUNTIME_MEM, F_SETUP_MEM, F_RSS_GROWTH, F_COUNT
};

static const struct {
    const char *label;
    figure_kind kind;
    const char *path;  /* where a side's view holds it */
    const char *ratio; /* its B/A in the comparison's b_over_a; NULL: B/A means nothing */
} figures[F_COUNT] = {
    [F_LOAD] = {"runtime load", K_DURATION, "runtime_load_s", "runtime_load_s"},
    [F_COLD_CREATE] = {"cold session create", K_DURATION, "cold.session_create_s", "cold_session_create_s"},
    [F_COLD_FIRST] = {"cold first run", K_DURATION, "cold.first_run_s", "cold_first_run_s"},
    [F_CREATE] = {"session create", K_DURATION, "session_create_s", "session_create_s"},
    [F_FIRST] = {"first run", K_DURATION, "first_run_s", "first_run_s"},
    [F_RUNS] = {"timed runs", K_COUNT, "runs", "runs"},
    [F_MIN] = {"latency min", K_DURATION, "latency_s.min", "latency_min"},
    [F_MEAN] = {"latency mean", K_DURATION, "latency_s.mean", "latency_mean"},
    [F_STDDEV] = {"latency stddev", K_DURATION, "latency_s.stddev", "latency_stddev"},
    [F_P50] = {"latency p50", K_DURATION, "latency_s.p50", "latency_p50"},
    [F_P90] = {"latency p90", K_DURATION, "latency_s.p90", "latency_p90"},
    [F_P95] = {"latency p95", K_DURATION, "latency_s.p95", "latency_p95"},
    [F_P99] = {"latency p99", K_DURATION, "latency_s.p99", "latency_p99"},
    [F_MAX] = {"latency max", K_DURATION, "latency_s.max", "latency_max"},
    [F_THROUGHPUT] = {"throughput", K_RATE, "throughput_runs_per_s", "throughput"},
    [F_CPU] = {"CPU use", K_PERCENT, "cpu.percent_of_one_core", "cpu_percent"},
    [F_RUNTIME_MEM] = {"memory: runtime", K_BYTES, "memory.runtime_bytes", "runtime_memory"},
    [F_SETUP_MEM] = {"memory: session", K_BYTES, "memory.session_bytes", "session_memory"},
    [F_RSS_GROWTH] = {"RSS growth in runs", K_BYTES_SIGNED, "memory.rss_growth_bytes", NULL},
};

/* A side's figures; NAN for those it shares with A (one runtime, loaded once). */
static void side_values(const bench_side *sd, double v[F_COUNT])
{
    const ortkit__stats *st = &sd->stats;
    v[F_LOAD] = sd->shared_rt ? NAN : sd->load_s;
    v[F_COLD_CREATE] = sd->shared_rt ? NAN : sd->cold_create_s;
    v[F_COLD_FIRST] = sd->shared_rt ? NAN : sd->cold_first_s;
    v[F_RUNTIME_MEM] = sd->shared_rt ? NAN : sd->runtime_rss;
    v[F_CREATE] = sd->create_s;
    v[F_FIRST] = sd->first_s;
    v[F_RUNS] = (double)sd->n_lat;
    v[F_MIN] = st->min;
    v[F_MEAN] = st->mean;
    v[F_STDDEV] = st->stddev;
    v[F_P50] = st->p50;
    v[F_P90] = st->p90;
    v[F_P95] = st->p95;
    v[F_P99] = st->p99;
    v[F_MAX] = st->max;
    v[F_THROUGHPUT] = sd->wall_s > 0 ? (double)sd->n_lat / sd->wall_s : 0;
    v[F_CPU] = sd->wall_s > 0 ? (sd->user_s + sd->sys_s) / sd->wall_s * 100 : 0;
    v[F_SETUP_MEM] = sd->setup_rss;
    v[F_RSS_GROWTH] = sd->rss_growth;
}

static void format_value(char *buf, size_t size, figure_kind kind, double v)
{
    if (isnan(v)) {
        snprintf(buf, size, "shared");
        return;
    }
    switch (kind) {
    case K_DURATION: ortkit__human_duration3(buf, size, v); break;
    case K_COUNT: snprintf(buf, size, "%.0f", v); break;
    case K_RATE: snprintf(buf, size, v >= 100 ? "%.0f runs/s" : "%.2f runs/s", v); break;
    case K_PERCENT: snprintf(buf, size, "%.0f%%", v); break;
    case K_BYTES: ortkit__human_bytes(buf, size, v < 0 ? 0 : v); break;
    case K_BYTES_SIGNED: {
        char b[32];
        ortkit__human_bytes(b, sizeof b, fabs(v));
        snprintf(buf, size, "%s%s", v < 0 ? "-" : "+", b);
        break;
    }
    }
}

/* Where input i came from: the .npy file, or how it was generated. */
static const char *input_source(const bench_config *cfg, size_t i)
{
    for (size_t k = 0; k < cfg->in.n_files; k++)
        if (cfg->in.names[k] ? !strcmp(cfg->in.names[k], cfg->names[i]) : cfg->n_in == 1)
            return cfg->in.files[k];
    return cfg->in.fill == FILL_ZEROS ? "zeros" : "random";
}

/* A number, or null for a figure the side shares with A. */
static void add_number(cJSON *o, const char *key, double v)
{
    cJSON *n = isnan(v) ? cJSON_CreateNull() : cJSON_CreateNumber(v);
    if (!cJSON_AddItemToObject(o, key, n))
        cJSON_Delete(n); /* out of memory: the view is incomplete, and nothing leaks */
}

/* v at path ("cold.first_run_s") in o, the objects on the way made as needed. */
static void put_at(cJSON *o, const char *path, double v)
{
    const char *dot = strchr(path, '.');
    if (!dot) {
        add_number(o, path, v);
        return;
    }
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)(dot - path), path);
    cJSON *sub = cJSON_GetObjectItemCaseSensitive(o, key);
    put_at(sub ? sub : cJSON_AddObjectToObject(o, key), dot + 1, v);
}

/* Figures first to last (in the table's order) at their places in a side's view. */
static void put_figures(cJSON *o, const double v[F_COUNT], int first, int last)
{
    for (int f = first; f <= last; f++)
        put_at(o, figures[f].path, v[f]);
}

static cJSON *side_json(const bench_side *sd)
{
    cJSON *o = cJSON_CreateObject();
    double v[F_COUNT];
    side_values(sd, v);
    cJSON_AddStringToObject(o, "label", sd->label);
    cJSON *r = cJSON_AddObjectToObject(o, "runtime");
    cJSON_AddStringToObject(r, "version", ortkit_runtime_version(sd->rt));
    cJSON_AddStringToObject(r, "path", ortkit_runtime_path(sd->rt));
    cJSON_AddItemToObject(r, "measured", sd->measured[0] ? cJSON_CreateString(sd->measured)
                                                         : cJSON_CreateNull());
    cJSON_AddNumberToObject(o, "threads", (double)sd->threads);
    cJSON *eps = cJSON_AddArrayToObject(o, "providers");
    for (size_t i = 0; i < ortkit_session_provider_count(sd->session); i++) {
        const ortkit_provider_status *p = ortkit_session_provider(sd->session, i);
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", p->name);
        cJSON_AddBoolToObject(e, "active", p->active);
        if (!p->active)
            cJSON_AddStringToObject(e, "reason", p->reason);
        cJSON_AddItemToArray(eps, e);
    }
    cJSON_AddBoolToObject(o, "shares_runtime_of_a", sd->shared_rt);
    /* The figures where the table says (the text reads them back from there),
     * with the seconds they are reckoned from in between. */
    put_figures(o, v, F_LOAD, F_RUNS);
    cJSON_AddNumberToObject(o, "wall_s", sd->wall_s);
    put_figures(o, v, F_MIN, F_THROUGHPUT);
    cJSON *c = cJSON_AddObjectToObject(o, "cpu");
    cJSON_AddNumberToObject(c, "user_s", sd->user_s);
    cJSON_AddNumberToObject(c, "sys_s", sd->sys_s);
    put_figures(o, v, F_CPU, F_RSS_GROWTH);
    return o;
}

/* The verdict of the side-by-side measurement (bench_verdict.c). */
static cJSON *verdict_json(const bench_config *cfg)
{
    cJSON *v = cJSON_CreateObject();
    char text[768];
    const char *word;
    bench_verdict_text(cfg, text, sizeof text, &word);
    cJSON_AddStringToObject(v, "verdict", word);
    cJSON_AddStringToObject(v, "text", text);
    const ortkit_measure *m = cfg->verdict;
    if (!m || !ortkit_measure_outcome(m)[0])
        return v;
    const ortkit_measure_verdict *a = ortkit_measure_candidate(m, 0), *b = ortkit_measure_candidate(m, 1);
    double ratio = b->chosen ? (a->pair_ratio > 0 ? 1 / a->pair_ratio : 0) : b->pair_ratio;
    double res = ortkit_measure_resolution(m);
    cJSON_AddStringToObject(v, "faster", a->chosen ? "A" : "B");
    cJSON_AddItemToObject(v, "b_over_a", ratio > 0 ? cJSON_CreateNumber(ratio) : cJSON_CreateNull());
    cJSON_AddItemToObject(v, "resolution", isfinite(res) && res > 0 ? cJSON_CreateNumber(res)
                                                                    : cJSON_CreateNull());
    cJSON_AddNumberToObject(v, "rounds", (double)ortkit_measure_rounds(m));
    cJSON_AddNumberToObject(v, "generations", (double)ortkit_measure_generations(m));
    cJSON_AddNumberToObject(v, "disturbed_runs", (double)(a->disturbed + b->disturbed));
    cJSON_AddNumberToObject(v, "seconds", ortkit_measure_seconds(m));
    cJSON_AddStringToObject(v, "account", ortkit_measure_account(m));
    return v;
}

/* The report: what --json prints and the text is drawn from. */
static cJSON *report_view(const bench_config *cfg)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "model", cfg->model);
    cJSON *ins = cJSON_AddArrayToObject(root, "inputs");
    for (size_t i = 0; i < cfg->n_in; i++) {
        const ortkit_value *v = cfg->side[0].inputs[i];
        const ortkit_tensor *t = ortkit_value_tensor(v);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", cfg->names[i]);
        if (t) {
            cJSON_AddStringToObject(o, "type", ortkit_type_name(ortkit_tensor_type(t)));
            cJSON *shape = cJSON_AddArrayToObject(o, "shape");
            for (size_t d = 0; d < ortkit_tensor_rank(t); d++)
                cJSON_AddItemToArray(shape, cJSON_CreateNumber((double)ortkit_tensor_shape(t)[d]));
        } else {
            char type[256];
            ortkit_value_describe(v, type, sizeof type);
            cJSON_AddStringToObject(o, "type", type);
        }
        cJSON_AddStringToObject(o, "source", input_source(cfg, i));
        cJSON_AddItemToArray(ins, o);
    }
    cJSON_AddNumberToObject(root, "warmup", (double)cfg->warmup);
    if (cfg->runs)
        cJSON_AddNumberToObject(root, "runs_per_side", (double)cfg->runs);
    else
        cJSON_AddNumberToObject(root, "seconds_per_side", cfg->duration);
    cJSON_AddNumberToObject(root, "callers", (double)cfg->callers);
    cJSON_AddNumberToObject(root, "block", (double)cfg->block);
    cJSON_AddBoolToObject(root, "interrupted", cfg->interrupted);
    cJSON_AddNumberToObject(root, "peak_rss_bytes", cfg->peak_rss);
    cJSON *sides = cJSON_AddArrayToObject(root, "sides");
    for (size_t i = 0; i < cfg->n_sides; i++)
        cJSON_AddItemToArray(sides, side_json(&cfg->side[i]));
    if (cfg->n_sides == 2) {
        double va[F_COUNT], vb[F_COUNT];
        side_values(&cfg->side[0], va);
        side_values(&cfg->side[1], vb);
        cJSON *cmp = cJSON_AddObjectToObject(root, "comparison");
        cJSON *ratio = cJSON_AddObjectToObject(cmp, "b_over_a");
        for (size_t f = 0; f < F_COUNT; f++)
            if (figures[f].ratio)
                cJSON_AddItemToObject(ratio, figures[f].ratio, va[f] > 0 && vb[f] >= 0
                                                                   ? cJSON_CreateNumber(vb[f] / va[f])
                                                                   : cJSON_CreateNull());
        cJSON_AddNumberToObject(cmp, "rounds", (double)cfg->rounds);
        cJSON_AddNumberToObject(cmp, "rounds_b_faster", (double)cfg->rounds_b_faster);
        cJSON_AddItemToObject(cmp, "verdict", verdict_json(cfg));
    }
    return root;
}

/* A figure of a side's view as text: "shared" where it is A's (null). */
static void figure_text(char *buf, size_t size, const cJSON *side, size_t f)
{
    const cJSON *v = cli_view_at(side, figures[f].path);
    format_value(buf, size, figures[f].kind, cJSON_IsNumber(v) ? v->valuedouble : NAN);
}

static void side_header_text(const cJSON *side, int two, int idx)
{
    const cJSON *rt = cJSON_GetObjectItemCaseSensitive(side, "runtime"), *p;
    double threads = cli_view_num(side, "threads");
    char th[32] = "default threads";
    if (threads)
        snprintf(th, sizeof th, "%.0f thread%s", threads, threads == 1 ? "" : "s");
    if (two)
        printf("%c          %s\n           ", idx ? 'B' : 'A', cli_esc(cli_view_str(side, "label")));
    else
        printf("runtime    ");
    printf("ONNX Runtime %s (%s)\n", cli_esc(cli_view_str(rt, "version")), cli_esc(cli_view_str(rt, "path")));
    /* Only when a measurement chose the bundle: otherwise the declared order did, as ever. */
    if (!strncmp(cli_view_str(rt, "measured"), "measured: ", 10))
        printf("           %s\n", cli_esc(cli_view_str(rt, "measured")));
    printf("%s%s, providers", two ? "           " : "session    ", th);
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(side, "providers"))
        printf(" %s%s", cli_esc(cli_view_str(p, "name")), cli_view_bool(p, "active") ? "" : " (skipped)");
    printf("\n");
}

/* What was run: the model, its inputs, each side, the method. */
static void header_text(const cJSON *view, const cJSON *sides, int two)
{
    const cJSON *in;
    int k = 0;
    printf("model      %s\ninputs    ", cli_esc(cli_view_str(view, "model")));
    cJSON_ArrayForEach(in, cJSON_GetObjectItemCaseSensitive(view, "inputs")) {
        char shape[256] = "";
        const cJSON *dims = cJSON_GetObjectItemCaseSensitive(in, "shape"), *d;
        if (dims) {
            size_t len = (size_t)snprintf(shape, sizeof shape, "%s[", cli_view_str(in, "type"));
            cJSON_ArrayForEach(d, dims)
                if (len < sizeof shape)
                    len += (size_t)snprintf(shape + len, sizeof shape - len, "%s%.0f",
                                            d == dims->child ? "" : ",", d->valuedouble);
            if (len < sizeof shape)
                snprintf(shape + len, sizeof shape - len, "]");
        } else {
            snprintf(shape, sizeof shape, "%s", cli_view_str(in, "type"));
        }
        printf("%s %s %s (%s)", k++ ? ";" : "", cli_esc(cli_view_str(in, "name")), cli_esc(shape),
               cli_esc(cli_view_str(in, "source")));
    }
    printf("\n");
    for (int i = 0; i < cJSON_GetArraySize(sides); i++)
        side_header_text(cJSON_GetArrayItem(sides, i), two, i);
    double callers = cli_view_num(view, "callers");
    printf("method     %.0f warm-up runs, then ", cli_view_num(view, "warmup"));
    if (cJSON_GetObjectItemCaseSensitive(view, "runs_per_side"))
        printf("%.0f timed runs", cli_view_num(view, "runs_per_side"));
    else
        printf("%g s", cli_view_num(view, "seconds_per_side"));
    printf("%s; %.0f caller%s", two ? " per side" : "", callers, callers == 1 ? "" : "s");
    /* Blocks are what sides alternate in, and where callers meet: one side
     * run by one caller has none to speak of. */
    if (two || callers > 1)
        printf("; blocks of %.0f%s", cli_view_num(view, "block"), two ? ", A and B alternating" : "");
    printf("\n\n");
}

/* The report as text, drawn from its view.  CLI_OK, or CLI_FAIL when the
 * table could not be made. */
static int report_text(const cJSON *view)
{
    const cJSON *sides = cJSON_GetObjectItemCaseSensitive(view, "sides");
    const cJSON *a = cJSON_GetArrayItem(sides, 0), *b = cJSON_GetArrayItem(sides, 1);
    const cJSON *cmp = cJSON_GetObjectItemCaseSensitive(view, "comparison");
    int two = b != NULL;
    header_text(view, sides, two);
    char ha[128], hb[128];
    snprintf(ha, sizeof ha, "A: %s", cli_view_str(a, "label"));
    snprintf(hb, sizeof hb, "B: %s", two ? cli_view_str(b, "label") : "");
    const char *const headers[] = {"figure", two ? ha : "value", hb, "B/A"};
    size_t cols = two ? 4 : 2;
    cli_table *t = cli_table_new(cols, headers);
    for (size_t c = 1; c < cols; c++)
        cli_table_align_right(t, c);
    for (size_t f = 0; f < F_COUNT; f++) {
        char va[64], vb[64] = "", r[32] = "-";
        figure_text(va, sizeof va, a, f);
        if (two) {
            figure_text(vb, sizeof vb, b, f);
            const cJSON *q = figures[f].ratio ? cli_view_at(cmp, "b_over_a") : NULL;
            q = q ? cJSON_GetObjectItemCaseSensitive(q, figures[f].ratio) : NULL;
            if (cJSON_IsNumber(q))
                snprintf(r, sizeof r, "%.3f", q->valuedouble);
        }
        cli_table_add(t, (const char *const[]){figures[f].label, va, vb, r});
    }
    int printed = cli_table_print(t, stdout, "");
    cli_table_free(t);
    if (printed)
        return cli_fail("out of memory");
    char peak[32];
    ortkit__human_bytes(peak, sizeof peak, cli_view_num(view, "peak_rss_bytes"));
    printf("\npeak RSS %s (whole process); CPU use is process CPU time over wall time, 100%% = one core\n",
           peak);
    const cJSON *p50 = cli_view_at(cmp, "b_over_a.latency_p50");
    if (cJSON_IsNumber(p50)) {
        double ratio = p50->valuedouble;
        printf("B/A p50 latency %.3f: B %s; B had the lower mean in %.0f of %.0f rounds\n", ratio,
               ratio < 1 ? "faster" : ratio > 1 ? "slower" : "the same",
               cli_view_num(cmp, "rounds_b_faster"), cli_view_num(cmp, "rounds"));
    }
    if (two)
        printf("verdict    %s\n", cli_esc(cli_view_str(cli_view_at(cmp, "verdict"), "text")));
    return CLI_OK;
}

int bench_report(const bench_config *cfg)
{
    cJSON *view = report_view(cfg); /* cli_json_print frees it */
    int rc = !view ? cli_fail("out of memory") : cfg->json ? cli_json_print(view) : report_text(view);
    if (view && !cfg->json)
        cJSON_Delete(view);
    return rc;
}
