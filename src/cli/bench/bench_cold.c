/*
 * bench_cold.c - `ortkit bench --cold N`: session creation on a runtime that
 * has started already, made from the model and loaded from the session
 * cache, alternating so that both see the same machine.
 */
#include "bench_modes.h"
#include "cli.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int bench_mode_runtime(const bench_mode_args *a, int global_pools, int spin, ortkit_runtime **rt)
{
    ortkit_runtime_options ro = ORTKIT_RUNTIME_OPTIONS_INIT;
    ro.path = a->runtime;
    session_flags_runtime(&a->flags, &ro);
    if (global_pools) {
        ro.global_thread_pools = ORTKIT_SWITCH_ON;
        ro.global_intra_threads = (int)a->threads;
        ro.global_spinning = (ortkit_switch)spin;
    }
    if (cli_open_runtime_with(rt, &ro))
        return cli_fail_lib();
    return 0;
}

ortkit_session_options bench_mode_session_options(const bench_mode_args *a)
{
    ortkit_session_options so = ORTKIT_SESSION_OPTIONS_INIT;
    session_flags_apply(&a->flags, &so);
    so.intra_op_threads = (int)a->threads;
    so.providers = a->providers;
    so.provider_count = a->n_providers;
    so.ep_policy = a->strict ? ORTKIT_EP_STRICT : ORTKIT_EP_FALLBACK;
    return so;
}

/* One creation, timed; the session is freed. */
static int create_once(ortkit_runtime *rt, const char *model, const ortkit_session_options *so,
                       double *seconds, ortkit_cache_state *state)
{
    ortkit_session *s = NULL;
    double t0 = ortkit__clock_now();
    if (ortkit_session_open(&s, rt, model, so))
        return cli_fail_lib();
    *seconds = ortkit__clock_now() - t0;
    *state = ortkit_session_cache(s, NULL);
    ortkit_session_free(s);
    return 0;
}

static void add_stats(cJSON *obj, const char *name, const ortkit__stats *st)
{
    cJSON *o = cJSON_AddObjectToObject(obj, name);
    cJSON_AddNumberToObject(o, "min", st->min);
    cJSON_AddNumberToObject(o, "median", st->p50);
    cJSON_AddNumberToObject(o, "mean", st->mean);
    cJSON_AddNumberToObject(o, "max", st->max);
}

static int report(const bench_mode_args *a, const ortkit_runtime *rt, const char *dir,
                  const ortkit__stats *plain, const ortkit__stats *cached)
{
    if (a->json) {
        cJSON *root = cJSON_CreateObject();
        cJSON_AddStringToObject(root, "model", a->models[0]);
        cJSON_AddStringToObject(root, "runtime", ortkit_runtime_version(rt));
        cJSON_AddNumberToObject(root, "creations", (double)plain->n);
        cJSON_AddStringToObject(root, "cache_dir", dir);
        add_stats(root, "uncached_s", plain);
        add_stats(root, "cached_s", cached);
        cJSON_AddNumberToObject(root, "ratio_min", cached->min / plain->min);
        cJSON_AddNumberToObject(root, "ratio_median", cached->p50 / plain->p50);
        return cli_json_print(root);
    }
    static const char *const headers[] = {"session creation", "min", "median", "mean", "max"};
    cli_table *t = cli_table_new(5, headers);
    const ortkit__stats *rows[] = {plain, cached};
    static const char *const names[] = {"from the model", "from the cache"};
    for (size_t i = 1; i < 5; i++)
        cli_table_align_right(t, i);
    for (size_t r = 0; r < 2; r++) {
        char b[4][32];
        ortkit__human_duration(b[0], sizeof b[0], rows[r]->min);
        ortkit__human_duration(b[1], sizeof b[1], rows[r]->p50);
        ortkit__human_duration(b[2], sizeof b[2], rows[r]->mean);
        ortkit__human_duration(b[3], sizeof b[3], rows[r]->max);
        const char *cells[] = {names[r], b[0], b[1], b[2], b[3]};
        cli_table_add(t, cells);
    }
    printf("%s, ONNX Runtime %s, %zu creations each, alternating\n", cli_esc(a->models[0]),
           cli_esc(ortkit_runtime_version(rt)), plain->n);
    int rc = cli_table_print(t, stdout, "");
    cli_table_free(t);
    if (rc)
        return cli_fail("out of memory");
    printf("cached / uncached: %.2fx (min), %.2fx (median)\n", cached->min / plain->min,
           cached->p50 / plain->p50);
    return 0;
}

int bench_cold(const bench_mode_args *a)
{
    ortkit_runtime *rt = NULL;
    double *plain = calloc((size_t)a->cold, sizeof *plain), *cached = calloc((size_t)a->cold, sizeof *cached);
    char tmp_dir[] = "/tmp/ortkit-bench-cache.XXXXXX";
    int made_tmp = 0, rc = CLI_FAIL;
    ortkit_cache_state state;
    double seconds;
    if (!plain || !cached) {
        cli_fail("out of memory");
        goto cleanup;
    }
    /* Without --cache, a fresh directory of its own, removed at the end. */
    const char *dir = a->flags.cache ? a->flags.cache_dir : NULL;
    if (!dir && !(dir = mkdtemp(tmp_dir))) {
        cli_fail("cannot make a temporary cache directory");
        goto cleanup;
    }
    made_tmp = !a->flags.cache;
    if (bench_mode_runtime(a, 0, 0, &rt))
        goto cleanup;
    ortkit_session_options uncached_opts = bench_mode_session_options(a), cached_opts = uncached_opts;
    uncached_opts.cache_dir = NULL;
    cached_opts.cache_dir = dir;
    /* The runtime's one-time start-up, then the entry made once. */
    if (create_once(rt, a->models[0], &uncached_opts, &seconds, &state) ||
        create_once(rt, a->models[0], &cached_opts, &seconds, &state))
        goto cleanup;
    for (long i = 0; i < a->cold; i++) {
        if (create_once(rt, a->models[0], &uncached_opts, &plain[i], &state) ||
            create_once(rt, a->models[0], &cached_opts, &cached[i], &state))
            goto cleanup;
        if (state != ORTKIT_CACHE_HIT) {
            const char *why;
            ortkit_session *s = NULL;
            if (!ortkit_session_open(&s, rt, a->models[0], &cached_opts))
                ortkit_session_cache(s, &why);
            cli_fail("the session was not loaded from the cache: %s", s ? why : ortkit_error_last());
            ortkit_session_free(s);
            goto cleanup;
        }
        if (a->progress)
            fprintf(stderr, "\rcold creations: %ld/%ld", i + 1, a->cold);
    }
    if (a->progress)
        fprintf(stderr, "\n");
    ortkit__stats sp, sc;
    ortkit__stats_compute(&sp, plain, (size_t)a->cold);
    ortkit__stats_compute(&sc, cached, (size_t)a->cold);
    rc = report(a, rt, made_tmp ? "(temporary)" : dir, &sp, &sc) ? CLI_FAIL : CLI_OK;
cleanup:
    if (made_tmp) {
        const char *const argv[] = {"rm", "-rf", "--", tmp_dir, NULL};
        int status;
        ortkit__spawn(argv, 0, NULL, &status);
    }
    ortkit_runtime_free(rt);
    free(plain);
    free(cached);
    return rc;
}
