/*
 * cache_hit_cost.c - what a session-cache hit costs, split between ortkit
 * and ONNX Runtime.
 *
 * One process, one runtime library, one model.  After one creation that
 * pays the runtime's start-up and one that fills the cache, five ways of
 * creating the session alternate, in an order that rotates every round so
 * that drift and order hit all alike:
 *
 *   ort model   the raw C API, CreateSession on the model file
 *   ort entry   the raw C API, CreateSessionFromArray on the cache entry's
 *               ORT-format bytes, mapped, with the config entries ortkit
 *               gives a hit (load_model_format=ORT, the bytes used in place)
 *   kit model   ortkit_session_open without the cache
 *   kit hit     ortkit_session_open with the cache (a hit)
 *   kit plan    the cache's own work on a hit alone: the digests read back,
 *               the key, the entry mapped and checked (no session made)
 *
 *   bench_cache_hit_cost MODEL [--runtime DIR] [--threads N] [--rounds N]
 *                        [--config KEY=VALUE]... [--opt-level N]
 *                        [--only SIDE] [--verbose]
 *
 * --config and --opt-level (0, 1, 2, 99: ORT's levels) add a sixth side,
 * "ort tried": the entry as "ort entry" with that config entry or
 * optimisation level, to try what it saves.  --only SIDE (ort-model, ort-entry, kit-hit) makes
 * that side alone, --rounds times, for a profiler; --verbose turns on ONNX
 * Runtime's own log, whose time stamps show where a creation goes.
 */
#include <ortkit.h>

#include <onnxruntime_c_api.h>

#include "bench_common.h"
#include "runtime_internal.h"
#include "session_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define PROG "bench_cache_hit_cost"
#define SIDES 6
#define MAX_CONFIG 16

enum { ORT_MODEL, ORT_ENTRY, KIT_MODEL, KIT_HIT, KIT_PLAN, ORT_TRIED };
static const char *const side_names[SIDES] = {"ort model", "ort entry", "kit model", "kit hit", "kit plan",
                                              "ort tried"};

typedef struct bench {
    ortkit_runtime *rt;
    const OrtApi *api;
    const char *model;
    int threads;
    char dir[64];
    char entry[PATH_MAX];
    const char *config_keys[MAX_CONFIG], *config_values[MAX_CONFIG];
    size_t config_count;
    int opt_level; /* -1: ORT's default */
} bench;

static void die(const char *what)
{
    fprintf(stderr, PROG ": %s: %s\n", what, ortkit_error_last());
    exit(1);
}

/* from_entry 2: the entry with what --config and --opt-level try. */
static OrtSessionOptions *raw_options(const bench *b, int from_entry)
{
    const OrtApi *api = b->api;
    OrtSessionOptions *so = NULL;
    bench_check(PROG, api, api->CreateSessionOptions(&so), "options");
    bench_check(PROG, api, api->SetIntraOpNumThreads(so, b->threads), "threads");
    if (from_entry) {
        bench_check(PROG, api, api->AddSessionConfigEntry(so, "session.load_model_format", "ORT"), "config");
        bench_check(PROG, api, api->AddSessionConfigEntry(so, "session.use_ort_model_bytes_directly", "1"),
                    "config");
        bench_check(PROG, api,
                    api->AddSessionConfigEntry(so, "session.use_ort_model_bytes_for_initializers", "1"), "config");
        for (size_t i = 0; from_entry == 2 && i < b->config_count; i++)
            bench_check(PROG, api, api->AddSessionConfigEntry(so, b->config_keys[i], b->config_values[i]),
                        b->config_keys[i]);
        if (from_entry == 2 && b->opt_level >= 0)
            bench_check(PROG, api, api->SetSessionGraphOptimizationLevel(so, (GraphOptimizationLevel)b->opt_level),
                        "optimisation level");
    }
    return so;
}

static void raw_create(const bench *b, int from_entry)
{
    const OrtApi *api = b->api;
    OrtSessionOptions *so = raw_options(b, from_entry);
    OrtSession *s = NULL;
    if (!from_entry) {
        bench_check(PROG, api, api->CreateSession(b->rt->env, b->model, so, &s), "session from the model");
    } else {
        /* As ortkit does on a hit: map the entry, give ORT the payload. */
        int fd = open(b->entry, O_RDONLY | O_CLOEXEC);
        struct stat st;
        if (fd < 0 || fstat(fd, &st)) {
            perror(b->entry);
            exit(1);
        }
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        close(fd);
        if (m == MAP_FAILED) {
            perror(b->entry);
            exit(1);
        }
        bench_check(PROG, api,
                    api->CreateSessionFromArray(b->rt->env, (const char *)m + ORTKIT__CACHE_HEADER_SIZE,
                                                (size_t)st.st_size - ORTKIT__CACHE_HEADER_SIZE, so, &s),
                    "session from the entry");
        api->ReleaseSession(s);
        munmap(m, (size_t)st.st_size);
        s = NULL;
    }
    if (s)
        api->ReleaseSession(s);
    api->ReleaseSessionOptions(so);
}

static void kit_create(const bench *b, int cached)
{
    ortkit_session_options so = ORTKIT_SESSION_OPTIONS_INIT;
    so.intra_op_threads = b->threads;
    so.cache_dir = cached ? b->dir : NULL;
    ortkit_session *s = NULL;
    if (ortkit_session_open(&s, b->rt, b->model, &so))
        die("ortkit session");
    if (cached && ortkit_session_cache(s, NULL) != ORTKIT_CACHE_HIT)
        die("the session was not loaded from the cache");
    ortkit_session_free(s);
}

static void kit_plan(const bench *b)
{
    ortkit_session_options so = ORTKIT_SESSION_OPTIONS_INIT;
    so.intra_op_threads = b->threads;
    so.cache_dir = b->dir;
    ortkit__cache_plan p;
    ortkit__session_cache_begin(&p, b->rt, b->model, NULL, 0, &so);
    if (p.state != ORTKIT_CACHE_HIT) {
        fprintf(stderr, PROG ": the cache plan is not a hit: %s\n", p.reason);
        exit(1);
    }
    ortkit__session_cache_end(&p);
}

static void run_side(const bench *b, int side)
{
    switch (side) {
    case ORT_MODEL: raw_create(b, 0); break;
    case ORT_ENTRY: raw_create(b, 1); break;
    case KIT_MODEL: kit_create(b, 0); break;
    case KIT_HIT: kit_create(b, 1); break;
    case KIT_PLAN: kit_plan(b); break;
    default: raw_create(b, 2); break;
    }
}

/* The one entry the fill made in the bench's own directory. */
static void find_entry(bench *b)
{
    DIR *d = opendir(b->dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name), m = strlen(ORTKIT__CACHE_SUFFIX);
        if (n > m && !strcmp(e->d_name + n - m, ORTKIT__CACHE_SUFFIX))
            snprintf(b->entry, sizeof b->entry, "%s/%s", b->dir, e->d_name);
    }
    if (d)
        closedir(d);
    if (!b->entry[0]) {
        fprintf(stderr, PROG ": the fill left no entry in %s\n", b->dir);
        exit(1);
    }
}

static void remove_dir(const char *dir)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, PROG ": could not remove %s\n", dir);
}

int main(int argc, char **argv)
{
    bench b = {.threads = 1, .opt_level = -1};
    const char *runtime = NULL, *only = NULL;
    int rounds = 10, verbose = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runtime") && i + 1 < argc)
            runtime = argv[++i];
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            b.threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--opt-level") && i + 1 < argc)
            b.opt_level = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--verbose"))
            verbose = 1;
        else if (!strcmp(argv[i], "--config") && i + 1 < argc && b.config_count < MAX_CONFIG) {
            char *eq = strchr(argv[++i], '=');
            if (!eq) {
                fprintf(stderr, PROG ": --config wants KEY=VALUE\n");
                return 2;
            }
            *eq = '\0';
            b.config_keys[b.config_count] = argv[i];
            b.config_values[b.config_count++] = eq + 1;
        } else if (argv[i][0] != '-' && !b.model)
            b.model = argv[i];
        else {
            fprintf(stderr, "usage: " PROG " MODEL [--runtime DIR] [--threads N] [--rounds N] "
                            "[--config KEY=VALUE]... [--opt-level N] [--only ort-model|ort-entry|kit-hit] [--verbose]\n");
            return 2;
        }
    }
    if (!b.model || rounds < 1 || b.threads < 1) {
        fprintf(stderr, PROG ": give a model, and --rounds and --threads of at least 1\n");
        return 2;
    }
    ortkit_runtime_options ro = ORTKIT_RUNTIME_OPTIONS_INIT;
    ro.path = runtime;
    ro.log_level = verbose ? ORTKIT_LOG_VERBOSE : ORTKIT_LOG_DEFAULT;
    if (ortkit_runtime_open(&b.rt, &ro))
        die("runtime");
    b.api = b.rt->api;
    snprintf(b.dir, sizeof b.dir, "/tmp/ortkit-hit-cost.XXXXXX");
    if (!mkdtemp(b.dir)) {
        perror("mkdtemp");
        return 1;
    }
    /* The runtime's start-up, then the fill. */
    kit_create(&b, 0);
    ortkit_session_options so = ORTKIT_SESSION_OPTIONS_INIT;
    so.intra_op_threads = b.threads;
    so.cache_dir = b.dir;
    ortkit_session *s = NULL;
    if (ortkit_session_open(&s, b.rt, b.model, &so))
        die("filling the cache");
    ortkit_session_free(s);
    find_entry(&b);

    if (only) {
        int side = !strcmp(only, "ort-model") ? ORT_MODEL : !strcmp(only, "ort-entry") ? ORT_ENTRY
                 : !strcmp(only, "kit-hit")   ? KIT_HIT : -1;
        if (side < 0) {
            fprintf(stderr, PROG ": --only takes ort-model, ort-entry or kit-hit\n");
            return 2;
        }
        for (int r = 0; r < rounds; r++)
            run_side(&b, side);
        remove_dir(b.dir);
        ortkit_runtime_free(b.rt);
        return 0;
    }

    int sides = b.config_count || b.opt_level >= 0 ? SIDES : SIDES - 1;
    double *t[SIDES] = {0};
    for (int k = 0; k < sides; k++)
        if (!(t[k] = calloc((size_t)rounds, sizeof *t[k]))) {
            fprintf(stderr, PROG ": out of memory\n");
            return 1;
        }
    for (int r = 0; r < rounds; r++) {
        for (int j = 0; j < sides; j++) {
            int side = (r + j) % sides;
            double t0 = bench_now();
            run_side(&b, side);
            t[side][r] = bench_now() - t0;
        }
    }
    double med[SIDES] = {0}, min[SIDES] = {0};
    for (int k = 0; k < sides; k++) {
        qsort(t[k], (size_t)rounds, sizeof *t[k], bench_cmp_double);
        min[k] = t[k][0];
        med[k] = rounds % 2 ? t[k][rounds / 2] : (t[k][rounds / 2 - 1] + t[k][rounds / 2]) / 2;
    }
    struct stat st;
    stat(b.entry, &st);
    printf("%s, ONNX Runtime %s, %d threads, %d rounds, entry %.1f MB\n", b.model,
           ortkit_runtime_version(b.rt), b.threads, rounds, (double)st.st_size / 1e6);
    printf("%-10s %10s %10s\n", "side", "min ms", "median ms");
    for (int k = 0; k < sides; k++)
        printf("%-10s %10.2f %10.2f\n", side_names[k], min[k] * 1e3, med[k] * 1e3);
    printf("ort entry / ort model: %.2fx (min) %.2fx (median)\n", min[ORT_ENTRY] / min[ORT_MODEL],
           med[ORT_ENTRY] / med[ORT_MODEL]);
    printf("kit hit / kit model:   %.2fx (min) %.2fx (median)\n", min[KIT_HIT] / min[KIT_MODEL],
           med[KIT_HIT] / med[KIT_MODEL]);
    printf("kit hit - ort entry:   %.2f ms (min) %.2f ms (median); cache plan %.2f ms (median)\n",
           (min[KIT_HIT] - min[ORT_ENTRY]) * 1e3, (med[KIT_HIT] - med[ORT_ENTRY]) * 1e3, med[KIT_PLAN] * 1e3);
    printf("kit model - ort model: %.2f ms (min) %.2f ms (median)\n", (min[KIT_MODEL] - min[ORT_MODEL]) * 1e3,
           (med[KIT_MODEL] - med[ORT_MODEL]) * 1e3);
    if (sides == SIDES)
        printf("ort tried / ort entry: %.2fx (min) %.2fx (median)\n", min[ORT_TRIED] / min[ORT_ENTRY],
               med[ORT_TRIED] / med[ORT_ENTRY]);
    for (int k = 0; k < sides; k++)
        free(t[k]);
    remove_dir(b.dir);
    ortkit_runtime_free(b.rt);
    return 0;
}
