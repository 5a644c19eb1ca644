/*
 * choose_measure.c - the processes of `bundle choose --measure`
 * (choose_measure.h).  The parent never loads ONNX Runtime: ORT starts
 * threads, and a process with threads is not safe to fork.  Each child
 * loads one candidate bundle, opens the model, builds the inputs from the
 * same options and seed, runs once (its outputs go to the parent for the
 * comparison), warms up, and then runs one timed block each time the parent
 * asks, waiting after it until its own threads stop spinning.  Only one
 * child runs at a time; the others wait on their pipes.
 *
 * Each child is a function run in a forked copy by src/util's child object,
 * which also carries the messages.  Child to parent: framed messages
 * (ortkit__msg_send: {uint32 type, uint32 size} and size bytes):
 * READY (figures, the inputs' digest and shapes, the first outputs, the
 * block's size and how runs are timed), ERROR (text), BLOCK (how many runs
 * were counted and how many were disturbed and repeated, then each counted
 * run's figure and wall time as doubles).  Parent to child: one byte, 'b'
 * for a block, 'q' to quit.
 *
 * What is timed is the work: each run's CPU time, all threads, with the
 * intra-op threads told not to spin-wait (a spinning thread burns CPU time
 * that is no work); a run during which the process was descheduled, or the
 * host stole time, is repeated rather than counted (ortkit_measure_disturbed).
 */
#include "choose_measure.h"
#include "work_clock.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

enum { MSG_READY = 1, MSG_ERROR = 2, MSG_BLOCK = 3 };

#define BLOCK_SECONDS 0.05    /* a block's length, aimed at */
#define WARMUP_SECONDS 0.1
#define WARMUP_MAX_RUNS 50
#define BLOCK_MAX_RUNS 100000
#define BLOCK_TRIES 4         /* runs tried per run counted, at most, when runs are disturbed */
#define GEN_ROUNDS 2          /* a generation of processes runs at least these rounds ... */
#define GEN_SECONDS 0.6       /* ... and this long */
#define READY_TIMEOUT_S 600.0 /* load, session, first run and warm-up */
#define MESSAGE_MAX ((size_t)1 << 30)

/* ---- a growing buffer ------------------------------------------------------------- */

typedef struct buf {
    unsigned char *p;
    size_t n, cap;
    int bad; /* out of memory: the message is lost */
} buf;

static void put(buf *b, const void *data, size_t size)
{
    if (b->bad)
        return;
    if (ortkit__array_reserve(&b->p, &b->cap, b->n + size, 1, 4096)) {
        b->bad = 1;
        return;
    }
    memcpy(b->p + b->n, data, size);
    b->n += size;
}

static void put_u32(buf *b, uint32_t v) { put(b, &v, sizeof v); }
static void put_text(buf *b, const char *s)
{
    uint32_t n = (uint32_t)strlen(s);
    put_u32(b, n);
    put(b, s, n);
}

/* Reading a message's payload back. */
typedef struct rdr {
    const unsigned char *p, *end;
    int bad;
} rdr;

static void get(rdr *r, void *out, size_t size)
{
    if (r->bad || (size_t)(r->end - r->p) < size) {
        r->bad = 1;
        memset(out, 0, size);
        return;
    }
    memcpy(out, r->p, size);
    r->p += size;
}

static uint32_t get_u32(rdr *r)
{
    uint32_t v;
    get(r, &v, sizeof v);
    return v;
}

/* A string of the payload into out (cut to size). */
static void get_text(rdr *r, char *out, size_t size)
{
    uint32_t n = get_u32(r);
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = 1;
        out[0] = '\0';
        return;
    }
    snprintf(out, size, "%.*s", (int)n, (const char *)r->p);
    r->p += n;
}

static int send_msg(int fd, uint32_t type, const buf *b)
{
    return ortkit__msg_send(fd, type, b->p, b->n) ? -1 : 0;
}

/* ---- the child ---------------------------------------------------------------------- */

typedef struct child_ctx {
    const measure_plan *plan;
    const char *bundle_dir;
    const char *model;
    long threads;
    int to_parent, from_parent;
    FILE *log;                 /* its stderr, to say why it failed */
} child_ctx;

/* The last line written on stderr (cli_fail's message), else the library's error. */
static void last_error(child_ctx *c, char *out, size_t size)
{
    snprintf(out, size, "%s", ortkit_error_last());
    if (!c->log)
        return;
    fflush(stderr);
    long end = ftell(c->log);
    if (end <= 0)
        return;
    char tail[1024];
    long from = end > (long)sizeof tail - 1 ? end - (long)sizeof tail + 1 : 0;
    fseek(c->log, from, SEEK_SET);
    size_t n = fread(tail, 1, sizeof tail - 1, c->log);
    tail[n] = '\0';
    while (n && (tail[n - 1] == '\n' || tail[n - 1] == '\r'))
        tail[--n] = '\0';
    char *line = strrchr(tail, '\n');
    line = line ? line + 1 : tail;
    if (!strncmp(line, "ortkit: ", 8))
        line += 8;
    if (*line)
        snprintf(out, size, "%s", line);
}

static _Noreturn void child_fail(child_ctx *c, const char *what)
{
    char why[1024];
    last_error(c, why, sizeof why);
    buf b = {0};
    char text[1200];
    snprintf(text, sizeof text, "%s: %s", what, why);
    put(&b, text, strlen(text));
    send_msg(c->to_parent, MSG_ERROR, &b);
    _exit(0);
}

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* Wait (at most 0.3 s) until this process used no CPU for 10 ms: ONNX
 * Runtime's pool threads spin after a run, and would run into the next
 * candidate's block. */
static void settle(void)
{
    for (int i = 0; i < 30; i++) {
        double c0 = cpu_seconds();
        struct timespec ten = {0, 10 * 1000 * 1000};
        nanosleep(&ten, NULL);
        if (cpu_seconds() - c0 < 0.001)
            return;
    }
}

static int run_once(ortkit_session *s, const char **names, ortkit_value **inputs, size_t n_in,
                    ortkit_value **outs, size_t n_out, double *seconds)
{
    double t0 = ortkit__clock_now();
    int rc = ortkit_session_run_values(s, NULL, names, (const ortkit_value *const *)inputs, n_in,
                                       NULL, 0, outs);
    *seconds = ortkit__clock_now() - t0;
    return rc;
}

/* One run with what it cost: wall and CPU time, context switches, steal. */
static int run_sampled(ortkit_session *s, const char **names, ortkit_value **inputs, size_t n_in,
                       ortkit_value **outs, const ortkit__work_counters *wc,
                       ortkit_measure_sample *out)
{
    ortkit__work_reading a, b;
    ortkit__work_read(wc, &a, 0);
    int rc = ortkit_session_run_values(s, NULL, names, (const ortkit_value *const *)inputs, n_in,
                                       NULL, 0, outs);
    ortkit__work_read(wc, &b, 1);
    out->wall_s = b.wall_s - a.wall_s;
    out->cpu_s = b.cpu_s - a.cpu_s;
    out->involuntary = b.involuntary - a.involuntary;
    out->steal_s = b.steal_s - a.steal_s;
    out->cycles = a.cycles >= 0 && b.cycles >= 0 ? b.cycles - a.cycles : -1;
    out->instructions = a.instructions >= 0 && b.instructions >= 0 ? b.instructions - a.instructions : -1;
    return rc;
}

static void free_values(ortkit_value **v, size_t n)
{
    for (size_t i = 0; v && i < n; i++) {
        ortkit_value_free(v[i]);
        v[i] = NULL;
    }
}

/* The inputs' digest (names, types, shapes, bytes) and shapes text, as the
 * key's shapes are written: "x[1,3] y[]". */
static void describe_inputs(const char **names, ortkit_value **inputs, size_t n, char hex[65],
                            char *shapes, size_t size)
{
    ortkit__sha256_ctx h = {0};
    ortkit__sha256_init(&h);
    shapes[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(shapes);
        ortkit__sha256_update(&h, names[i], strlen(names[i]) + 1);
        if (!inputs[i] || ortkit_value_kind_of(inputs[i]) != ORTKIT_KIND_TENSOR) {
            snprintf(shapes + len, size - len, "%s%s(not a tensor)", i ? " " : "", names[i]);
            continue;
        }
        const ortkit_tensor *t = ortkit_value_tensor(inputs[i]);
        int32_t type = (int32_t)ortkit_tensor_type(t);
        ortkit__sha256_update(&h, &type, sizeof type);
        snprintf(shapes + len, size - len, "%s%s[", i ? " " : "", names[i]);
        for (size_t k = 0; k < ortkit_tensor_rank(t); k++) {
            len = strlen(shapes);
            snprintf(shapes + len, size - len, "%s%lld", k ? "," : "",
                     (long long)ortkit_tensor_shape(t)[k]);
        }
        len = strlen(shapes);
        snprintf(shapes + len, size - len, "]");
        ortkit__sha256_update(&h, ortkit_tensor_shape(t), ortkit_tensor_rank(t) * sizeof(int64_t));
        if (type == ORTKIT_TYPE_STRING)
            for (size_t k = 0; k < ortkit_tensor_count(t); k++)
                ortkit__sha256_update(&h, ortkit_tensor_string(t, k), strlen(ortkit_tensor_string(t, k)) + 1);
        else
            ortkit__sha256_update(&h, ortkit_tensor_data(t), ortkit_tensor_nbytes(t));
    }
    unsigned char md[ORTKIT__SHA256_SIZE];
    if (ortkit__sha256_final(&h, md) == 0)
        ortkit__hex(hex, md, sizeof md);
    else
        snprintf(hex, 65, "unknown");
    ortkit__sha256_discard(&h);
}

/* An output as the parent rebuilds it: name, type (-1: not a tensor), rank,
 * dims, then the bytes (strings: each one's length and bytes). */
static void put_output(buf *b, const char *name, const ortkit_value *v)
{
    put_text(b, name);
    if (!v || ortkit_value_kind_of(v) != ORTKIT_KIND_TENSOR) {
        int32_t none = -1;
        put(b, &none, sizeof none);
        return;
    }
    const ortkit_tensor *t = ortkit_value_tensor(v);
    int32_t type = (int32_t)ortkit_tensor_type(t);
    uint32_t rank = (uint32_t)ortkit_tensor_rank(t);
    put(b, &type, sizeof type);
    put_u32(b, rank);
    put(b, ortkit_tensor_shape(t), rank * sizeof(int64_t));
    if (type == ORTKIT_TYPE_STRING) {
        for (size_t k = 0; k < ortkit_tensor_count(t); k++)
            put_text(b, ortkit_tensor_string(t, k));
    } else {
        uint64_t nbytes = ortkit_tensor_nbytes(t);
        put(b, &nbytes, sizeof nbytes);
        put(b, ortkit_tensor_data(t), (size_t)nbytes);
    }
}

/* Run one timed block each time the parent asks, until it says to quit:
 * each run counted undisturbed, a disturbed one repeated (up to
 * BLOCK_TRIES runs per run counted). */
static _Noreturn void serve(child_ctx *c, ortkit_session *s, const char **names, ortkit_value **inputs,
                            size_t n_in, ortkit_value **outs, size_t n_out,
                            const ortkit__work_counters *wc, uint32_t block)
{
    /* ORTKIT_MEASURE_TRACE=FILE: every timed run, appended (for studying the host). */
    const char *trace_path = ortkit__env("ORTKIT_MEASURE_TRACE");
    FILE *trace = trace_path && *trace_path ? fopen(trace_path, "a") : NULL;
    if (trace)
        setvbuf(trace, NULL, _IOLBF, 0);
    double *fig = malloc(block * sizeof *fig), *wall = malloc(block * sizeof *wall);
    if (!fig || !wall)
        child_fail(c, "out of memory");
    for (;;) {
        char cmd;
        ssize_t n = read(c->from_parent, &cmd, 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n != 1 || cmd != 'b')
            _exit(0);
        /* A disturbed run is repeated, up to BLOCK_TRIES runs per run counted. */
        uint32_t counted = 0, disturbed = 0;
        while (counted < block && counted + disturbed < BLOCK_TRIES * block) {
            ortkit_measure_sample smp;
            if (run_sampled(s, names, inputs, n_in, outs, wc, &smp))
                child_fail(c, "cannot run the model");
            free_values(outs, n_out);
            char why[160];
            int bad = ortkit_measure_disturbed(&smp, (int)c->threads, why, sizeof why);
            if (trace)
                fprintf(trace, "%d %s:%s %.6f %.6f %.0f %.3f cpu%d %s\n", (int)getpid(),
                        c->bundle_dir ? c->bundle_dir : "-", c->model, smp.wall_s, smp.cpu_s,
                        smp.involuntary, smp.steal_s, sched_getcpu(), bad ? why : "ok");
            if (bad) {
                disturbed++;
                continue;
            }
            fig[counted] = ortkit_measure_figure(&smp);
            wall[counted++] = smp.wall_s;
        }
        settle();
        buf b = {0};
        put_u32(&b, counted);
        put_u32(&b, disturbed);
        put(&b, fig, counted * sizeof *fig);
        put(&b, wall, counted * sizeof *wall);
        if (b.bad || send_msg(c->to_parent, MSG_BLOCK, &b))
            _exit(0);
        free(b.p);
    }
}


static _Noreturn void child_main(child_ctx *c)
{
    const measure_plan *plan = c->plan;
    signal(SIGINT, SIG_IGN); /* the parent decides what Ctrl-C stops */
    signal(SIGTERM, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    /* What the child says goes to the parent as a message, not the terminal. */
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null >= 0)
        dup2(null, STDOUT_FILENO);
    if ((c->log = tmpfile()))
        dup2(fileno(c->log), STDERR_FILENO);
    /* Opened before ONNX Runtime starts any thread: its threads inherit them. */
    ortkit__work_counters wc;
    ortkit__work_counters_open(&wc);
    ortkit_runtime *rt = NULL;
    ortkit_session *s = NULL;
    ortkit_runtime_options ro = ORTKIT_RUNTIME_OPTIONS_INIT;
    ro.path = c->bundle_dir;
    if (cli_open_runtime_with(&rt, &ro))
        child_fail(c, "cannot load it");
    ortkit_session_options so = ORTKIT_SESSION_OPTIONS_INIT;
    so.intra_op_threads = (int)c->threads;
    so.intra_op_spinning = ORTKIT_SWITCH_OFF; /* spinning is CPU time, not work */
    so.inter_op_spinning = ORTKIT_SWITCH_OFF;
    double t0 = ortkit__clock_now();
    if (ortkit_session_open(&s, rt, c->model, &so))
        child_fail(c, "cannot open the model");
    double create_s = ortkit__clock_now() - t0;
    size_t n_in = ortkit_session_input_count(s), n_out = ortkit_session_output_count(s);
    ortkit_value **inputs = calloc(n_in + 1, sizeof *inputs);
    ortkit_value **outs = calloc(n_out + 1, sizeof *outs);
    const char **names = calloc(n_in + 1, sizeof *names);
    if (!inputs || !outs || !names)
        child_fail(c, "out of memory");
    if (inputs_build(plan->in, c->model, s, inputs, names))
        child_fail(c, "cannot make its inputs");
    double first_s = 0;
    if (run_once(s, names, inputs, n_in, outs, n_out, &first_s))
        child_fail(c, "cannot run the model");
    char digest[65], shapes[4096];
    describe_inputs(names, inputs, n_in, digest, shapes, sizeof shapes);
    buf ready = {0};
    put(&ready, &create_s, sizeof create_s);
    put(&ready, &first_s, sizeof first_s);
    put_text(&ready, ortkit_runtime_version(rt));
    put_text(&ready, digest);
    put_text(&ready, shapes);
    put_u32(&ready, (uint32_t)n_out);
    for (size_t k = 0; k < n_out; k++)
        put_output(&ready, ortkit_session_output(s, k)->name, outs[k]);
    free_values(outs, n_out);
    /* Warm-up, which also sizes the blocks. */
    double warm[WARMUP_MAX_RUNS], start = ortkit__clock_now();
    size_t n_warm = 0;
    while (n_warm < WARMUP_MAX_RUNS && (n_warm == 0 || ortkit__clock_now() - start < WARMUP_SECONDS)) {
        if (run_once(s, names, inputs, n_in, outs, n_out, &warm[n_warm]))
            child_fail(c, "cannot run the model");
        free_values(outs, n_out);
        n_warm++;
    }
    double typical = warm[0];
    for (size_t k = 1; k < n_warm; k++)
        typical = warm[k] < typical ? warm[k] : typical; /* the quickest: set by the model, not noise */
    double want = typical > 0 ? BLOCK_SECONDS / typical : BLOCK_MAX_RUNS;
    uint32_t block = want < 1 ? 1 : want > BLOCK_MAX_RUNS ? BLOCK_MAX_RUNS : (uint32_t)want;
    put_u32(&ready, block);
    char method[256];
    snprintf(method, sizeof method, "CPU time, all threads, spinning off; counters: %s", wc.source);
    put_text(&ready, method);
    settle();
    if (ready.bad || send_msg(c->to_parent, MSG_READY, &ready))
        _exit(0);
    free(ready.p);
    serve(c, s, names, inputs, n_in, outs, n_out, &wc, block);
}

/* ---- the parent ----------------------------------------------------------------------- */

typedef struct child {
    ortkit__child ch; /* the process: commands out on ch.to, messages in on ch.from */
    int alive;
    uint32_t block;
    double first_s, create_s;
    char version[64];
    char digest[65];
    char shapes[4096];
} child;

/* One message: its type and payload (malloc'd); -1 when the child died or timed out. */
static int read_msg(child *ch, double timeout, uint32_t *type, unsigned char **payload, size_t *size,
                    int *timed_out)
{
    void *p = NULL;
    int rc = ortkit__msg_recv(ch->ch.from, ortkit__clock_now() + timeout, MESSAGE_MAX, type, &p, size);
    *timed_out = rc == ORTKIT__MSG_LATE;
    *payload = p;
    return rc ? -1 : 0;
}

static void stop(child *ch)
{
    if (ch->ch.live && ch->ch.to >= 0) {
        char q = 'q';
        if (write(ch->ch.to, &q, 1) < 0) { /* it may be gone already */ }
    }
    /* A child told to quit leaves at once; one that does not is killed. */
    (void)ortkit__child_stop(&ch->ch, 2.0);
    ortkit__child_free(&ch->ch);
    ch->alive = 0;
}

static void kill_child(child *ch)
{
    ortkit__child_free(&ch->ch);
    ch->alive = 0;
}

static int child_entry(void *arg, int to_parent, int from_parent)
{
    const child_ctx *start = arg;
    child_ctx c = {start->plan, start->bundle_dir, start->model, start->threads, to_parent,
                   from_parent, NULL};
    child_main(&c);
}

/* A candidate's process: a forked copy that loads its bundle (the parent
 * has no threads: it never loads ONNX Runtime), and dies with the parent. */
static int launch(child *ch, const measure_plan *plan, const measure_who *who, size_t i)
{
    memset(ch, 0, sizeof *ch);
    const char *model = who->models && who->models[i] ? who->models[i] : plan->model;
    child_ctx start = {plan, who->dirs[i], model, who->threads[i], -1, -1, NULL};
    ortkit__child_options o = {.fn = child_entry, .arg = &start, .channel = 1,
                               .death_signal = SIGKILL, .what = "a candidate's process"};
    if (ortkit__child_start(&ch->ch, &o))
        return -1;
    ch->alive = 1;
    return 0;
}

/* The child's answer to its start: ready (its first outputs to m, the
 * first time), or why not. */
static void await_ready(ortkit_measure *m, size_t i, child *ch, int first)
{
    uint32_t type = 0;
    unsigned char *p = NULL;
    size_t size = 0;
    int timed_out = 0;
    if (read_msg(ch, READY_TIMEOUT_S, &type, &p, &size, &timed_out)) {
        char why[128];
        snprintf(why, sizeof why, timed_out ? "no answer in %.0f s; killed"
                                             : "it died while loading or running the model",
                 READY_TIMEOUT_S);
        kill_child(ch);
        ortkit_measure_failed(m, i, why);
        return;
    }
    rdr r = {p, p + size, 0};
    if (type == MSG_ERROR) {
        char why[1200];
        snprintf(why, sizeof why, "%.*s", (int)size, (const char *)p);
        free(p);
        stop(ch);
        ortkit_measure_failed(m, i, why);
        return;
    }
    get(&r, &ch->create_s, sizeof ch->create_s);
    get(&r, &ch->first_s, sizeof ch->first_s);
    get_text(&r, ch->version, sizeof ch->version);
    get_text(&r, ch->digest, sizeof ch->digest);
    get_text(&r, ch->shapes, sizeof ch->shapes);
    uint32_t n_out = get_u32(&r);
    char **names = calloc(n_out + 1, sizeof *names);
    ortkit_tensor **outs = calloc(n_out + 1, sizeof *outs);
    uint32_t k = 0;
    for (; names && outs && !r.bad && k < n_out; k++) {
        char name[1024];
        get_text(&r, name, sizeof name);
        names[k] = strdup(name);
        int32_t type32;
        get(&r, &type32, sizeof type32);
        if (type32 < 0 || r.bad)
            continue; /* not a tensor: not compared */
        uint32_t rank = get_u32(&r);
        int64_t dims[ORTKIT_MAX_RANK];
        if (rank > ORTKIT_MAX_RANK) {
            r.bad = 1;
            break;
        }
        get(&r, dims, rank * sizeof *dims);
        if (r.bad)
            break;
        if (type32 == ORTKIT_TYPE_STRING) {
            ortkit_tensor *t = NULL;
            if (ortkit_tensor_new_strings(&t, dims, rank, NULL) == 0) {
                for (size_t e = 0; e < ortkit_tensor_count(t) && !r.bad; e++) {
                    uint32_t len = get_u32(&r);
                    if (r.bad || (size_t)(r.end - r.p) < len) {
                        r.bad = 1;
                        break;
                    }
                    char *s = strndup((const char *)r.p, len);
                    r.p += len;
                    if (!s || ortkit_tensor_set_string(t, e, s))
                        r.bad = 1;
                    free(s);
                }
            } else {
                r.bad = 1;
            }
            outs[k] = t;
            continue;
        }
        uint64_t nbytes;
        get(&r, &nbytes, sizeof nbytes);
        if (r.bad || ortkit_tensor_new(&outs[k], (ortkit_type)type32, dims, rank) ||
            ortkit_tensor_nbytes(outs[k]) != nbytes || (size_t)(r.end - r.p) < nbytes) {
            r.bad = 1;
            break;
        }
        get(&r, ortkit_tensor_data(outs[k]), (size_t)nbytes);
    }
    ch->block = get_u32(&r);
    char method[256];
    get_text(&r, method, sizeof method);
    if (!r.bad && first)
        ortkit_measure_method(m, method);
    if (!names || !outs || r.bad || ch->block == 0)
        ortkit_measure_failed(m, i, "its answer could not be read");
    else if (first && ortkit_measure_outputs(m, i, (const char *const *)names, outs, n_out))
        ortkit_measure_failed(m, i, ortkit_error_last());
    for (uint32_t e = 0; names && outs && e < n_out; e++) {
        free(names[e]);
        ortkit_tensor_free(outs[e]);
    }
    free(names);
    free(outs);
    free(p);
    if (ortkit_measure_candidate(m, i)->state == ORTKIT_MEASURE_FAILED)
        stop(ch);
}

/* Every candidate still timed in a new process: the next generation (the
 * measurement closed the last one). */
static int next_generation(ortkit_measure *m, child *kids, size_t n, const measure_who *who,
                           const measure_plan *plan)
{
    /* All start at once and load side by side (nothing is timed meanwhile):
     * a restart's cost is what limits how many generations a budget holds. */
    static char digest[ORTKIT_MEASURE_MAX_CANDIDATES][65], shapes[ORTKIT_MEASURE_MAX_CANDIDATES][4096];
    int again[ORTKIT_MEASURE_MAX_CANDIDATES] = {0};
    for (size_t i = 0; i < n && i < ORTKIT_MEASURE_MAX_CANDIDATES; i++) {
        if (!ortkit_measure_timing(m, i))
            continue;
        snprintf(digest[i], sizeof digest[i], "%s", kids[i].digest);
        snprintf(shapes[i], sizeof shapes[i], "%s", kids[i].shapes);
        stop(&kids[i]);
        if (launch(&kids[i], plan, who, i))
            return cli_fail("cannot start a process: %s", ortkit_error_last());
        again[i] = 1;
    }
    for (size_t i = 0; i < n && i < ORTKIT_MEASURE_MAX_CANDIDATES; i++) {
        if (!again[i])
            continue;
        await_ready(m, i, &kids[i], 0);
        if (kids[i].alive && (strcmp(digest[i], kids[i].digest) || strcmp(shapes[i], kids[i].shapes))) {
            stop(&kids[i]);
            ortkit_measure_failed(m, i, "started again, it made other inputs");
        }
    }
    return CLI_OK;
}

/* One timed block of candidate i. */
static int block(ortkit_measure *m, size_t i, child *ch)
{
    char cmd = 'b';
    uint32_t type = 0;
    unsigned char *p = NULL;
    size_t size = 0;
    int timed_out = 0;
    /* However slow a run, a block gets a minute, or fifty times what its runs took. */
    double timeout = 60 + 50.0 * ch->block * (ch->first_s > 0 ? ch->first_s : 1);
    if (ortkit__file_write_all(ch->ch.to, &cmd, 1, "the pipe to a candidate") || read_msg(ch, timeout, &type, &p, &size, &timed_out) ||
        (type != MSG_BLOCK && type != MSG_ERROR)) {
        free(p);
        kill_child(ch);
        return ortkit_measure_failed(m, i, timed_out ? "a timed block did not end in time; killed"
                                                     : "it died during a timed block");
    }
    if (type == MSG_ERROR) {
        char why[1200];
        snprintf(why, sizeof why, "%.*s", (int)size, (const char *)p);
        free(p);
        stop(ch);
        return ortkit_measure_failed(m, i, why);
    }
    rdr r = {p, p + size, 0};
    uint32_t counted = get_u32(&r), disturbed = get_u32(&r);
    int rc;
    if (r.bad || (size_t)(r.end - r.p) != 2 * (size_t)counted * sizeof(double) || counted > ch->block)
        rc = ortkit_measure_failed(m, i, "its timed block could not be read");
    else if ((rc = ortkit_measure_skipped(m, i, disturbed)) == 0 && counted) {
        /* Every run disturbed: no figure this round, and the round pairs nothing. */
        double *fig = malloc(counted * sizeof *fig);
        get(&r, fig ? (void *)fig : NULL, fig ? counted * sizeof *fig : 0);
        rc = fig ? ortkit_measure_add(m, i, fig, counted) : ortkit__error_nomem();
        free(fig);
    }
    free(p);
    return rc;
}

int choose_measure(ortkit_measure *m, const ortkit_bundle *const *bundles, const measure_plan *plan)
{
    size_t n = ortkit_measure_count(m);
    const char *dirs[ORTKIT_MEASURE_MAX_CANDIDATES];
    long threads[ORTKIT_MEASURE_MAX_CANDIDATES];
    for (size_t i = 0; i < n && i < ORTKIT_MEASURE_MAX_CANDIDATES; i++) {
        const ortkit_manifest *mf = ortkit_bundle_manifest(bundles[ortkit_measure_bundle(m, i)]);
        dirs[i] = mf->dir;
        threads[i] = plan->threads;
    }
    measure_who who = {dirs, threads, NULL};
    return measure_run(m, &who, plan);
}

int measure_run(ortkit_measure *m, const measure_who *who, const measure_plan *plan)
{
    size_t n = ortkit_measure_count(m);
    child *kids = calloc(n ? n : 1, sizeof *kids);
    if (!kids)
        return cli_fail("out of memory");
    int rc = CLI_FAIL;
    /* A child that died leaves a pipe no one reads: a write then fails, not the process. */
    void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);
    double t0 = ortkit__clock_now();
    if (ortkit_measure_begin(m)) {
        cli_fail_lib();
        goto cleanup;
    }
    /* One at a time: each loads, runs and warms up while the others wait. */
    for (size_t i = 0; i < n; i++) {
        if (plan->progress)
            fprintf(stderr, "\rmeasuring: starting %s (%zu of %zu)\033[K",
                    cli_esc(ortkit_measure_candidate(m, i)->name), i + 1, n);
        if (launch(&kids[i], plan, who, i)) {
            cli_fail("cannot start a process: %s", ortkit_error_last());
            goto cleanup;
        }
        await_ready(m, i, &kids[i], 1);
    }
    /* The same inputs for all, and the sizes the key names. */
    const char *first = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!kids[i].alive)
            continue;
        if (ortkit_measure_shapes(m)[0] && strcmp(kids[i].shapes, ortkit_measure_shapes(m))) {
            cli_fail("the inputs made for '%s' are %s, but before loading their sizes read as %s: "
                     "name each input given in a file (-i NAME=FILE), and give --dim or --shape "
                     "for every size the model leaves open", plan->model, kids[i].shapes,
                     ortkit_measure_shapes(m));
            goto cleanup;
        }
        if (first && strcmp(first, kids[i].digest)) {
            cli_fail("the candidates made different inputs from the same options: not measured");
            goto cleanup;
        }
        first = kids[i].digest;
    }
    if (ortkit_measure_compare(m)) {
        cli_fail_lib();
        goto cleanup;
    }
    /* Rounds until clear or the budget is spent.  The order turns by one
     * every second round and is reversed in between (0 1 2, 2 1 0, 1 2 0,
     * 0 2 1, ...), so each candidate runs in every place of a round as
     * often as the others, after each of them and before.  Every
     * GEN_SECONDS (and GEN_ROUNDS rounds at least) the generation of
     * processes is closed and judged, and new ones are started: a process
     * carries a bias of its own, and only new ones show how large. */
    double rounds_t0 = ortkit__clock_now(), gen_t0 = rounds_t0;
    size_t gen_rounds = 0;
    int clear = 0;
    for (size_t round = 0; !clear; round++) {
        size_t timed = 0;
        for (size_t i = 0; i < n; i++)
            timed += ortkit_measure_timing(m, i);
        if (timed < 2)
            break;
        for (size_t k = 0; k < n; k++) {
            size_t i = ((round % 2 ? n - 1 - k : k) + round / 2) % n;
            if (ortkit_measure_timing(m, i) && block(m, i, &kids[i])) {
                cli_fail_lib();
                goto cleanup;
            }
        }
        int r = ortkit_measure_round(m);
        if (r < 0) {
            cli_fail_lib();
            goto cleanup;
        }
        clear = r == 1;
        gen_rounds++;
        double now = ortkit__clock_now();
        if (plan->progress)
            fprintf(stderr, "\rmeasuring: round %zu, generation %zu, %.1f s of %.1f s\033[K",
                    round + 1, ortkit_measure_generations(m), now - rounds_t0, plan->budget);
        /* The budget counts restarts too: it bounds what the user waits. */
        if (clear || now - rounds_t0 >= plan->budget)
            break;
        if (gen_rounds < GEN_ROUNDS || now - gen_t0 < GEN_SECONDS)
            continue;
        if ((r = ortkit_measure_generation(m)) < 0) {
            cli_fail_lib();
            goto cleanup;
        }
        if ((clear = r == 1))
            break;
        if (next_generation(m, kids, n, who, plan))
            goto cleanup;
        gen_rounds = 0;
        gen_t0 = ortkit__clock_now();
    }
    for (size_t i = 0; i < n; i++)
        stop(&kids[i]);
    if (plan->progress)
        fprintf(stderr, "\r\033[K");
    if (ortkit_measure_finish(m, ortkit__clock_now() - t0)) {
        cli_fail_lib();
        goto cleanup;
    }
    if (ortkit_measure_key(m)[0] && ortkit_measure_remember(m))
        cli_warn("the measurement was not remembered: %s", ortkit_error_last());
    rc = CLI_OK;
cleanup:
    for (size_t i = 0; i < n; i++)
        kill_child(&kids[i]);
    free(kids);
    signal(SIGPIPE, old_pipe);
    return rc;
}
