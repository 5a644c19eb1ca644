/*
 * bench_sweep.c - `ortkit bench --dim SYMBOL=LO..HI[:STEP]`: one session
 * runs inputs of every size from LO up to HI, then back down, and the
 * process's resident memory is read after each shape: how memory grows
 * with new shapes, and whether it comes back (the arena on or off).
 */
#include "bench_modes.h"
#include "cli.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sweep_point {
    char dims[128];
    double rss, mean_s;
} sweep_point;

/* Set every swept dimension to its value at step i (each stops at its HI). */
static void set_step(const bench_mode_args *a, size_t i, char *text, size_t size)
{
    text[0] = '\0';
    for (size_t k = 0; k < a->n_sweep; k++) {
        long v = a->sweep_lo[k] + (long)i * a->sweep_step[k];
        v = v > a->sweep_hi[k] ? a->sweep_hi[k] : v;
        for (size_t d = 0; d < a->in->n_dims; d++)
            if (!strcmp(a->in->dims[d].symbol, a->sweep_symbol[k]))
                a->in->dims[d].value = v;
        size_t used = strlen(text);
        snprintf(text + used, size - used, "%s%ld", k ? "x" : "", v);
    }
}

static size_t step_count(const bench_mode_args *a)
{
    size_t most = 1;
    for (size_t k = 0; k < a->n_sweep; k++) {
        size_t n = (size_t)((a->sweep_hi[k] - a->sweep_lo[k] + a->sweep_step[k] - 1) / a->sweep_step[k]) + 1;
        most = n > most ? n : most;
    }
    return most;
}

/* Build the inputs of the current shape and run them; mean seconds a run. */
static int run_shape(const bench_mode_args *a, ortkit_session *s, double *mean)
{
    size_t n_in = ortkit_session_input_count(s), n_out = ortkit_session_output_count(s);
    ortkit_value **in = calloc(n_in + 1, sizeof *in), **out = calloc(n_out + 1, sizeof *out);
    const char **names = calloc(n_in + 1, sizeof *names);
    int rc = CLI_FAIL;
    double total = 0;
    if (!in || !out || !names) {
        cli_fail("out of memory");
        goto cleanup;
    }
    if (inputs_build(a->in, a->models[0], s, in, names))
        goto cleanup;
    for (long r = 0; r < a->sweep_runs; r++) {
        double t0 = ortkit__clock_now();
        if (ortkit_session_run_values(s, NULL, names, (const ortkit_value *const *)in, n_in, NULL, 0, out)) {
            cli_fail_lib();
            goto cleanup;
        }
        total += ortkit__clock_now() - t0;
        for (size_t o = 0; o < n_out; o++) {
            ortkit_value_free(out[o]);
            out[o] = NULL;
        }
    }
    *mean = total / (double)a->sweep_runs;
    rc = 0;
cleanup:
    for (size_t i = 0; in && i < n_in; i++)
        ortkit_value_free(in[i]);
    free(in);
    free(out);
    free(names);
    return rc;
}

static int report(const bench_mode_args *a, const sweep_point *p, size_t n, double base)
{
    double peak = 0;
    for (size_t i = 0; i < n; i++)
        peak = p[i].rss > peak ? p[i].rss : peak;
    if (a->json) {
        cJSON *root = cJSON_CreateObject();
        cJSON_AddStringToObject(root, "model", a->models[0]);
        cJSON_AddNumberToObject(root, "rss_before_bytes", base);
        cJSON_AddNumberToObject(root, "rss_peak_bytes", peak);
        cJSON_AddNumberToObject(root, "rss_end_bytes", p[n - 1].rss);
        cJSON *arr = cJSON_AddArrayToObject(root, "shapes");
        for (size_t i = 0; i < n; i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "dims", p[i].dims);
            cJSON_AddNumberToObject(o, "rss_bytes", p[i].rss);
            cJSON_AddNumberToObject(o, "growth_bytes", p[i].rss - (i ? p[i - 1].rss : base));
            cJSON_AddNumberToObject(o, "mean_s", p[i].mean_s);
            cJSON_AddItemToArray(arr, o);
        }
        return cli_json_print(root);
    }
    static const char *const headers[] = {"step", "size", "RSS", "growth", "mean run"};
    cli_table *t = cli_table_new(5, headers);
    for (size_t i = 0; i < 5; i++)
        if (i != 1)
            cli_table_align_right(t, i);
    for (size_t i = 0; i < n; i++) {
        char c[4][32];
        double growth = p[i].rss - (i ? p[i - 1].rss : base);
        snprintf(c[0], sizeof c[0], "%zu", i + 1);
        snprintf(c[1], sizeof c[1], "%.1f MiB", p[i].rss / 1048576.0);
        snprintf(c[2], sizeof c[2], "%+.1f MiB", growth / 1048576.0);
        ortkit__human_duration(c[3], sizeof c[3], p[i].mean_s);
        const char *cells[] = {c[0], p[i].dims, c[1], c[2], c[3]};
        cli_table_add(t, cells);
    }
    printf("%s: resident memory after each shape (up, then down)\n", cli_esc(a->models[0]));
    int rc = cli_table_print(t, stdout, "");
    cli_table_free(t);
    if (rc)
        return cli_fail("out of memory");
    printf("before the first run %.1f MiB, peak %.1f MiB, at the end %.1f MiB\n", base / 1048576.0,
           peak / 1048576.0, p[n - 1].rss / 1048576.0);
    return 0;
}

int bench_sweep(const bench_mode_args *a)
{
    ortkit_runtime *rt = NULL;
    ortkit_session *s = NULL;
    size_t up = step_count(a), n = 2 * up - 1;
    sweep_point *points = calloc(n, sizeof *points);
    int rc = CLI_FAIL;
    if (!points) {
        cli_fail("out of memory");
        goto cleanup;
    }
    if (bench_mode_runtime(a, 0, 0, &rt))
        goto cleanup;
    ortkit_session_options so = bench_mode_session_options(a);
    if (ortkit_session_open(&s, rt, a->models[0], &so)) {
        cli_fail_lib();
        goto cleanup;
    }
    double base = (double)ortkit__proc_rss();
    for (size_t i = 0; i < n; i++) {
        size_t step = i < up ? i : n - 1 - i;
        set_step(a, step, points[i].dims, sizeof points[i].dims);
        if (run_shape(a, s, &points[i].mean_s))
            goto cleanup;
        points[i].rss = (double)ortkit__proc_rss();
        if (a->progress)
            fprintf(stderr, "\rshapes: %zu/%zu", i + 1, n);
    }
    if (a->progress)
        fprintf(stderr, "\n");
    rc = report(a, points, n, base) ? CLI_FAIL : CLI_OK;
cleanup:
    ortkit_session_free(s);
    ortkit_runtime_free(rt);
    free(points);
    return rc;
}
