/*
 * bench_many.c - `ortkit bench --sessions N`: N sessions (of one model or
 * several, in turn) driven by -c callers at once; throughput, latency
 * percentiles and CPU use, per-session or global thread pools, spinning on
 * or off.  Given lists, each combination runs in a process of its own
 * (ONNX Runtime has one environment per process, so pools cannot be
 * compared inside one) and the table compares them.
 */
#include "bench_modes.h"
#include "cli.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* How long the process is watched, runs over, for the CPU its idle threads burn. */
#define IDLE_WATCH_S 0.25

typedef struct many_model {
    const char *path;
    ortkit_value *inputs[INPUTS_MAX];
    const char *names[INPUTS_MAX];
    size_t n_in;
} many_model;

typedef struct many_run {
    const bench_mode_args *a;
    ortkit_session *sessions[BENCH_MAX_SESSIONS];
    many_model *of[BENCH_MAX_SESSIONS]; /* each session's model */
    size_t n;
    atomic_long next;                   /* runs started */
    atomic_int failed;
    double deadline;
    double *lat;                        /* one slot per run started */
    size_t cap;
} many_run;

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static void *caller(void *arg)
{
    many_run *m = arg;
    for (;;) {
        long r = atomic_fetch_add(&m->next, 1);
        if ((size_t)r >= m->cap || atomic_load(&m->failed) ||
            (m->deadline > 0 && ortkit__clock_now() > m->deadline))
            break;
        size_t i = (size_t)r % m->n;
        many_model *mm = m->of[i];
        ortkit_value *outs[INPUTS_MAX] = {0};
        size_t n_out = ortkit_session_output_count(m->sessions[i]);
        double t0 = ortkit__clock_now();
        int rc = ortkit_session_run_values(m->sessions[i], NULL, mm->names, (const ortkit_value *const *)mm->inputs,
                                    mm->n_in, NULL, 0, outs);
        m->lat[r] = ortkit__clock_now() - t0;
        for (size_t o = 0; o < n_out && o < INPUTS_MAX; o++)
            ortkit_value_free(outs[o]);
        if (rc && !atomic_exchange(&m->failed, 1))
            cli_fail_lib();
    }
    return NULL;
}

static int report_one(const bench_mode_args *a, long n, int global, int spin, double wall, double cpu,
                      double idle_cpu, double *lat, size_t runs)
{
    ortkit__stats st;
    ortkit__stats_compute(&st, lat, runs);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "sessions", (double)n);
    cJSON_AddNumberToObject(root, "models", (double)a->n_models);
    cJSON_AddNumberToObject(root, "callers", (double)a->callers);
    cJSON_AddStringToObject(root, "pools", global ? "global" : "session");
    cJSON_AddStringToObject(root, "spin", spin == ORTKIT_SWITCH_OFF ? "off" : "on");
    cJSON_AddNumberToObject(root, "runs", (double)runs);
    cJSON_AddNumberToObject(root, "wall_s", wall);
    cJSON_AddNumberToObject(root, "throughput", (double)runs / wall);
    cJSON_AddNumberToObject(root, "p50_s", st.p50);
    cJSON_AddNumberToObject(root, "p90_s", st.p90);
    cJSON_AddNumberToObject(root, "p99_s", st.p99);
    cJSON_AddNumberToObject(root, "cpu_cores", cpu / wall);
    cJSON_AddNumberToObject(root, "idle_cpu_cores", idle_cpu);
    if (a->json)
        return cli_json_print(root);
    char p50[32], p99[32];
    ortkit__human_duration(p50, sizeof p50, st.p50);
    ortkit__human_duration(p99, sizeof p99, st.p99);
    printf("%ld sessions, %ld callers, %s pools, spin %s: %.1f runs/s, p50 %s, p99 %s, "
           "CPU %.2f cores (idle after: %.2f)\n", n, a->callers, global ? "global" : "session",
           spin == ORTKIT_SWITCH_OFF ? "off" : "on", (double)runs / wall, p50, p99, cpu / wall, idle_cpu);
    cJSON_Delete(root);
    return 0;
}

/* One combination, in this process. */
static int many_once(const bench_mode_args *a, long n, int global, int spin)
{
    ortkit_runtime *rt = NULL;
    many_model models[BENCH_MAX_MODELS];
    many_run m;
    memset(models, 0, sizeof models);
    memset(&m, 0, sizeof m);
    m.a = a;
    m.n = (size_t)n;
    int rc = CLI_FAIL;
    pthread_t threads[256];
    long started = 0;
    if (bench_mode_runtime(a, global, spin, &rt))
        goto cleanup;
    ortkit_session_options so = bench_mode_session_options(a);
    if (!global)
        so.intra_op_spinning = so.inter_op_spinning = (ortkit_switch)spin;
    for (size_t i = 0; i < m.n; i++) {
        many_model *mm = &models[i % a->n_models];
        mm->path = a->models[i % a->n_models];
        if (ortkit_session_open(&m.sessions[i], rt, mm->path, &so)) {
            cli_fail_lib();
            goto cleanup;
        }
        m.of[i] = mm;
        if (i < a->n_models) {
            mm->n_in = ortkit_session_input_count(m.sessions[i]);
            if (mm->n_in > INPUTS_MAX) {
                cli_fail("'%s' has more than %d inputs", mm->path, INPUTS_MAX);
                goto cleanup;
            }
            if (inputs_build(a->in, mm->path, m.sessions[i], mm->inputs, mm->names))
                goto cleanup;
        }
    }
    m.cap = a->runs ? (size_t)a->runs : (size_t)BENCH_MAX_RUNS_MANY;
    if (!(m.lat = calloc(m.cap, sizeof *m.lat))) {
        cli_fail("out of memory");
        goto cleanup;
    }
    /* One untimed run per session: first runs allocate and plan memory. */
    for (size_t i = 0; i < m.n; i++) {
        ortkit_value *outs[INPUTS_MAX] = {0};
        if (ortkit_session_run_values(m.sessions[i], NULL, m.of[i]->names,
                               (const ortkit_value *const *)m.of[i]->inputs, m.of[i]->n_in, NULL, 0, outs)) {
            cli_fail_lib();
            goto cleanup;
        }
        for (size_t o = 0; o < ortkit_session_output_count(m.sessions[i]) && o < INPUTS_MAX; o++)
            ortkit_value_free(outs[o]);
    }
    double cpu0 = cpu_seconds(), t0 = ortkit__clock_now();
    m.deadline = a->duration > 0 ? t0 + a->duration : 0;
    for (; started < a->callers; started++)
        if (pthread_create(&threads[started], NULL, caller, &m)) {
            cli_fail("cannot start caller thread %ld", started + 1);
            atomic_store(&m.failed, 1);
            break;
        }
    for (long i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    double wall = ortkit__clock_now() - t0, cpu = cpu_seconds() - cpu0;
    if (atomic_load(&m.failed))
        goto cleanup;
    size_t runs = (size_t)atomic_load(&m.next);
    runs = runs < m.cap ? runs : m.cap;
    /* Runs that found the deadline passed did not run: only those with a latency count. */
    size_t done = 0;
    for (size_t i = 0; i < runs; i++)
        if (m.lat[i] > 0)
            m.lat[done++] = m.lat[i];
    double idle0 = cpu_seconds();
    struct timespec nap = {0, (long)(IDLE_WATCH_S * 1e9)};
    nanosleep(&nap, NULL);
    double idle_cpu = (cpu_seconds() - idle0) / IDLE_WATCH_S;
    rc = done ? report_one(a, n, global, spin, wall, cpu, idle_cpu, m.lat, done) : cli_fail("no timed run");
cleanup:
    for (size_t i = 0; i < BENCH_MAX_MODELS; i++)
        for (size_t k = 0; k < models[i].n_in; k++)
            ortkit_value_free(models[i].inputs[k]);
    for (size_t i = 0; i < m.n; i++)
        ortkit_session_free(m.sessions[i]);
    free(m.lat);
    ortkit_runtime_free(rt);
    return rc;
}

/* Run one combination as a child (this program, the same arguments, the
 * lists narrowed to one value each) and add its JSON figures to the table. */
static int many_child(int argc, char *const *argv, long n, int global, int spin, cli_table *t)
{
    char self[PATH_MAX], ns[32];
    if (cli_self_exe(self, sizeof self))
        return cli_fail("cannot find this program (/proc/self/exe)");
    snprintf(ns, sizeof ns, "%ld", n);
    const char **args = calloc((size_t)argc + 12, sizeof *args);
    if (!args)
        return cli_fail("out of memory");
    size_t k = 0;
    args[k++] = self;
    for (int i = 0; i < argc; i++)
        args[k++] = argv[i];
    const char *extra[] = {"--sessions", ns, "--pools", global ? "global" : "session",
                           "--spin", spin == ORTKIT_SWITCH_OFF ? "off" : "on", "--json", NULL};
    for (size_t i = 0; extra[i]; i++)
        args[k++] = extra[i];
    char *out = NULL;
    int status = 0;
    int rc = ortkit__spawn(args, 0, &out, &status);
    free(args);
    cJSON *j = !rc && status == 0 ? cJSON_Parse(out) : NULL;
    free(out);
    if (!j)
        return cli_fail("the run with %ld sessions, %s pools, spin %s failed (exit %d); run it alone "
                        "to see why", n, global ? "global" : "session", spin == ORTKIT_SWITCH_OFF ? "off" : "on",
                        status);
    char c[8][32];
    snprintf(c[0], sizeof c[0], "%ld", n);
    snprintf(c[1], sizeof c[1], "%s", global ? "global" : "session");
    snprintf(c[2], sizeof c[2], "%s", spin == ORTKIT_SWITCH_OFF ? "off" : "on");
    snprintf(c[3], sizeof c[3], "%.1f", cJSON_GetObjectItem(j, "throughput")->valuedouble);
    ortkit__human_duration(c[4], sizeof c[4], cJSON_GetObjectItem(j, "p50_s")->valuedouble);
    ortkit__human_duration(c[5], sizeof c[5], cJSON_GetObjectItem(j, "p99_s")->valuedouble);
    snprintf(c[6], sizeof c[6], "%.2f", cJSON_GetObjectItem(j, "cpu_cores")->valuedouble);
    snprintf(c[7], sizeof c[7], "%.2f", cJSON_GetObjectItem(j, "idle_cpu_cores")->valuedouble);
    const char *cells[] = {c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]};
    cli_table_add(t, cells);
    cJSON_Delete(j);
    return 0;
}

int bench_many(const bench_mode_args *a, int argc, char *const *argv)
{
    static const int default_pools[] = {0}, default_spin[] = {ORTKIT_SWITCH_ON};
    const int *pools = a->n_pools ? a->global_pools : default_pools;
    const int *spins = a->n_spin ? a->spin : default_spin;
    size_t np = a->n_pools ? a->n_pools : 1, nsp = a->n_spin ? a->n_spin : 1;
    if (a->n_sessions == 1 && np == 1 && nsp == 1)
        return many_once(a, a->sessions[0], pools[0], spins[0]);
    if (a->json)
        return cli_usage("bench", "--json takes one value each of --sessions, --pools and --spin");
    static const char *const headers[] = {"sessions", "pools", "spin", "runs/s", "p50", "p99",
                                          "CPU cores", "idle CPU"};
    cli_table *t = cli_table_new(8, headers);
    for (size_t i = 3; i < 8; i++)
        cli_table_align_right(t, i);
    cli_table_align_right(t, 0);
    int rc = CLI_OK;
    size_t total = a->n_sessions * np * nsp, done = 0;
    for (size_t s = 0; !rc && s < a->n_sessions; s++)
        for (size_t p = 0; !rc && p < np; p++)
            for (size_t k = 0; !rc && k < nsp; k++) {
                if (a->progress)
                    fprintf(stderr, "\rmany sessions: %zu/%zu", ++done, total);
                rc = many_child(argc, argv, a->sessions[s], pools[p], spins[k], t) ? CLI_FAIL : CLI_OK;
            }
    if (a->progress)
        fprintf(stderr, "\n");
    if (!rc) {
        printf("%ld callers, %zu model%s, %s\n", a->callers, a->n_models, a->n_models > 1 ? "s" : "",
               a->runs ? "runs counted over all callers" : "timed");
        if (cli_table_print(t, stdout, ""))
            rc = cli_fail("out of memory");
    }
    cli_table_free(t);
    return rc;
}
