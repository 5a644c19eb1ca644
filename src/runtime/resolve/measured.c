/*
 * measured.c - the remembered result of choosing by measurement (see
 * measured.h): the candidates and the key, the entry's file read strictly
 * and written atomically, and what the search makes of it.
 */
#include "measured.h"
#include "bundle_gpu.h"
#include "model_scan.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* An entry is a few kilobytes; anything much larger is not one. */
#define ENTRY_MAX ((size_t)1 << 20)

static const char *const state_names[ORTKIT__MEASURED_STATES] = {"pending", "fastest", "slower",
                                                                 "tied", "differs", "failed"};

const char *ortkit__measured_state_name(int state)
{
    return state >= 0 && state < ORTKIT__MEASURED_STATES ? state_names[state] : "unknown";
}

/* ---- the caller's sizes ------------------------------------------------------- */

typedef struct size_entry {
    char name[256];
    int whole;                  /* "INPUT=[...]": a whole shape; else "SYMBOL=SIZE" */
    size_t rank;
    int64_t dims[ORTKIT_MAX_RANK];
} size_entry;

#define ENTRIES_MAX 256

static int bad_shapes(const char *shapes, const char *why, const char *at)
{
    return ortkit__error_set(ORTKIT_E_INVALID_ARG, "model shapes '%.200s': %s%s%.60s%s", shapes, why,
                             at ? " at '" : "", at ? at : "", at ? "'" : "");
}

/* A whole number >= 0 from s to end. */
static int parse_size(const char *s, const char *end, int64_t *out)
{
    if (s == end || end - s > 18)
        return -1;
    int64_t v = 0;
    for (; s < end; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        v = v * 10 + (*s - '0');
    }
    *out = v;
    return 0;
}

/* "batch=1,x=[1,3,224,224],sr=[]" into entries. */
static int parse_shapes(size_entry *e, size_t *n, const char *shapes)
{
    *n = 0;
    const char *p = shapes;
    while (p && *p) {
        const char *eq = strchr(p, '=');
        if (!eq || eq == p)
            return bad_shapes(shapes, "each entry is SYMBOL=SIZE or INPUT=[D0,D1,...]", p);
        if (*n == ENTRIES_MAX)
            return bad_shapes(shapes, "more than 256 entries", NULL);
        size_entry *cur = &e[(*n)++];
        memset(cur, 0, sizeof *cur);
        if ((size_t)(eq - p) >= sizeof cur->name)
            return bad_shapes(shapes, "a name longer than 255 bytes", p);
        memcpy(cur->name, p, (size_t)(eq - p));
        const char *v = eq + 1, *end;
        if (*v == '[') {
            cur->whole = 1;
            const char *close = strchr(v, ']');
            if (!close)
                return bad_shapes(shapes, "a shape without its ']'", p);
            for (const char *d = v + 1; d < close;) {
                const char *comma = memchr(d, ',', (size_t)(close - d));
                const char *stop = comma ? comma : close;
                if (cur->rank == ORTKIT_MAX_RANK || parse_size(d, stop, &cur->dims[cur->rank++]))
                    return bad_shapes(shapes, "a shape's sizes are whole numbers (at most 32 of them)", p);
                d = comma ? comma + 1 : close;
                if (comma && d == close)
                    return bad_shapes(shapes, "a shape ends in ','", p);
            }
            end = close + 1;
        } else {
            end = v + strcspn(v, ",");
            if (parse_size(v, end, &cur->dims[0]))
                return bad_shapes(shapes, "a size is a whole number", p);
            cur->rank = 1;
        }
        if (*end && *end != ',')
            return bad_shapes(shapes, "entries are separated by ','", end);
        p = *end ? end + 1 : end;
        if (*end && !*p)
            return bad_shapes(shapes, "the text ends in ','", NULL);
    }
    return ORTKIT_OK;
}

static const size_entry *find_entry(const size_entry *e, size_t n, const char *name, int whole)
{
    for (size_t i = 0; i < n; i++)
        if (e[i].whole == whole && !strcmp(e[i].name, name))
            return &e[i];
    return NULL;
}

/* The size a symbol has: given as SYMBOL=SIZE, else bound by an input whose
 * whole shape was given; -1 when nothing gives it. */
static int64_t symbol_size(const size_entry *e, size_t n, const ortkit__model_input *in,
                           size_t n_in, const char *symbol)
{
    const size_entry *s = find_entry(e, n, symbol, 0);
    if (s)
        return s->dims[0];
    for (size_t i = 0; i < n_in; i++) {
        const size_entry *w = in[i].tensor ? find_entry(e, n, in[i].name, 1) : NULL;
        for (size_t k = 0; w && k < in[i].rank && k < w->rank; k++)
            if (in[i].symbols[k] && !strcmp(in[i].symbols[k], symbol))
                return w->dims[k];
    }
    return -1;
}

static void put(char *out, size_t size, const char *fmt, ...) ORTKIT_PRINTF(3, 4);
static void put(char *out, size_t size, const char *fmt, ...)
{
    size_t len = strlen(out);
    if (len + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out + len, size - len, fmt, ap);
    va_end(ap);
}

int ortkit__measured_shapes(char *out, size_t size, const void *model, size_t model_size,
                            const char *label, const char *shapes)
{
    out[0] = '\0';
    size_entry *e = calloc(ENTRIES_MAX, sizeof *e);
    if (!e)
        return ortkit__error_nomem();
    size_t n = 0, n_in = 0;
    ortkit__model_input *in = NULL;
    int rc = parse_shapes(e, &n, shapes ? shapes : "");
    if (!rc)
        rc = ortkit__model_inputs(&in, &n_in, model, model_size, label);
    for (size_t i = 0; !rc && i < n_in; i++) {
        const ortkit__model_input *x = &in[i];
        const size_entry *w = x->tensor ? find_entry(e, n, x->name, 1) : NULL;
        put(out, size, "%s%s", i ? " " : "", x->name);
        if (!x->tensor) {
            put(out, size, "(not a tensor)");
            continue;
        }
        if (w && x->shaped && w->rank != x->rank) {
            rc = ortkit__error_set(ORTKIT_E_INVALID_ARG, "model shapes: input '%s' has %zu "
                                   "dimensions in '%s', the shape given has %zu", x->name, x->rank,
                                   label, w->rank);
            break;
        }
        for (size_t k = 0; w && x->shaped && k < x->rank; k++)
            if (x->dims[k] >= 0 && w->dims[k] != x->dims[k]) {
                rc = ortkit__error_set(ORTKIT_E_INVALID_ARG, "model shapes: input '%s' has size "
                                       "%lld at dimension %zu in '%s', the shape given says %lld",
                                       x->name, (long long)x->dims[k], k, label,
                                       (long long)w->dims[k]);
                break;
            }
        if (rc)
            break;
        if (!w && !x->shaped) {
            put(out, size, "[*]"); /* a tensor of any rank, and none given */
            continue;
        }
        put(out, size, "[");
        size_t rank = w ? w->rank : x->rank;
        for (size_t k = 0; k < rank; k++) {
            int64_t d = w ? w->dims[k] : x->dims[k];
            if (!w && d < 0 && x->symbols[k])
                d = symbol_size(e, n, in, n_in, x->symbols[k]);
            if (d < 0)
                put(out, size, "%s?", k ? "," : "");
            else
                put(out, size, "%s%lld", k ? "," : "", (long long)d);
        }
        put(out, size, "]");
    }
    if (!rc && strlen(out) + 1 >= size)
        rc = ortkit__error_set(ORTKIT_E_INVALID_ARG, "'%s': the inputs' shapes take more than %zu "
                               "bytes to write", label, size - 1);
    ortkit__model_inputs_free(in, n_in);
    free(e);
    return rc;
}

static int is_hex64(const char *s);

/* ---- the candidates and the key --------------------------------------------------- */

/* A GPU build that runs its GPU here: the accelerator step decides, not speed. */
static int runs_gpu(const ortkit_manifest *m, const ortkit_host *h)
{
    return m->cuda && !(m->gpu_known && ortkit__gpu_visible(h) == 0);
}

static void host_identity(char *out, size_t size, const ortkit_host *h)
{
    out[0] = '\0';
    put(out, size, "%s, %s %s, %d cpus / %d cores, features %016llx (x86-64-v%d)",
        ortkit_arch_name(h->arch), h->cpu_vendor, h->cpu_model, h->logical_cpus,
        h->physical_cores, (unsigned long long)h->cpu_features, h->x86_64_level);
    if (h->tegra)
        put(out, size, ", Jetson %s (L4T %s)", h->board, h->l4t_release);
    if (h->driver_version[0])
        put(out, size, ", driver %s (CUDA %d)", h->driver_version, h->cuda_driver);
    for (size_t i = 0; i < h->gpu_count; i++)
        put(out, size, ", GPU %s (SM %d.%d, %llu bytes)", h->gpus[i]->name, h->gpus[i]->cc_major,
            h->gpus[i]->cc_minor, (unsigned long long)h->gpus[i]->memory_bytes);
    if (!h->gpu_count)
        put(out, size, ", no GPU");
}

typedef struct named {
    const char *name, *digest;
} named;

static int by_name(const void *a, const void *b)
{
    const named *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : strcmp(x->digest, y->digest);
}

static int make_key(ortkit__measured_ctx *ctx)
{
    named set[ORTKIT__MEASURED_MAX];
    for (size_t i = 0; i < ctx->count; i++)
        set[i] = (named){ctx->names[i], ctx->digests[i]};
    qsort(set, ctx->count, sizeof *set, by_name);
    ortkit__sha256_ctx h = {0};
    int bad = ortkit__sha256_init(&h) != 0;
    bad = bad || ortkit__sha256_addf(&h, "ortkit measured %d", ORTKIT__MEASURED_FORMAT);
    bad = bad || ortkit__sha256_addf(&h, "host %s", ctx->host);
    bad = bad || ortkit__sha256_addf(&h, "model %s", ctx->model_sha256);
    bad = bad || ortkit__sha256_addf(&h, "shapes %s", ctx->shapes);
    bad = bad || ortkit__sha256_addf(&h, "threads %d", ctx->threads);
    for (size_t i = 0; !bad && i < ctx->count; i++)
        bad = ortkit__sha256_addf(&h, "bundle %s %s", set[i].name, set[i].digest);
    unsigned char md[ORTKIT__SHA256_SIZE];
    bad = bad || ortkit__sha256_final(&h, md) != 0;
    ortkit__sha256_discard(&h);
    if (bad)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "cannot make the measurement's key");
    ortkit__hex(ctx->key, md, sizeof md);
    return ORTKIT_OK;
}

/* The model's SHA-256 and its inputs' canonical sizes, from one mapping. */
static int measured_dir(char *buf, size_t size)
{
    char base[PATH_MAX];
    if (ortkit__xdg_dir(base, sizeof base, "XDG_CACHE_HOME", ".cache", "ortkit"))
        return -1;
    return ortkit__pathf(buf, size, "%s/measured", base) ? -1 : 0;
}

/* Does the memory hold any entry at all?  Without one, nothing needs the
 * model's digest. */
static int any_entry(void)
{
    char dir[PATH_MAX];
    DIR *d = measured_dir(dir, sizeof dir) ? NULL : opendir(dir);
    int any = 0;
    for (struct dirent *e; d && !any && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        any = e->d_name[0] != '.' && n > 5 && !strcmp(e->d_name + n - 5, ".json");
    }
    if (d)
        closedir(d);
    return any;
}

/* The model's SHA-256 remembered by the file's identity (device, inode,
 * size, modification and change times), in the memory's models/: a model
 * unchanged since it was last hashed is not hashed again.  Only where the
 * memory's directory already is, and is the user's alone. */
static int digest_memo(char *memo, size_t size, const struct stat *st)
{
    char dir[PATH_MAX], identity[160], id_hex[65];
    int n = snprintf(identity, sizeof identity, "%llu %llu %lld %lld.%09ld %lld.%09ld",
                     (unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
                     (long long)st->st_size, (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
                     (long long)st->st_ctim.tv_sec, st->st_ctim.tv_nsec);
    struct stat ds;
    if (measured_dir(dir, sizeof dir) || lstat(dir, &ds) != 0 || !S_ISDIR(ds.st_mode) ||
        ds.st_uid != geteuid() || (ds.st_mode & 077) ||
        ortkit__sha256_hex(id_hex, identity, (size_t)n))
        return -1;
    return ortkit__pathf(memo, size, "%s/models/%s", dir, id_hex) ? -1 : 0;
}

static int read_model(ortkit__measured_ctx *ctx, const char *model, const char *shapes)
{
    int fd;
    struct stat st;
    int rc = ortkit__file_open(&fd, model, 0, &st);
    if (rc)
        return rc;
    if (st.st_size == 0) {
        close(fd);
        return ortkit__error_set(ORTKIT_E_MODEL, "'%s' is empty: not an ONNX model", model);
    }
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    close(fd);
    if (m == MAP_FAILED)
        return ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': %s", model, strerror(e));
    char memo[PATH_MAX], *text = NULL;
    size_t len = 0;
    int memo_ok = !digest_memo(memo, sizeof memo, &st);
    if (memo_ok && !ortkit__file_read(&text, &len, memo, 256) && len == 65 && text[64] == '\n') {
        text[64] = '\0';
        if (is_hex64(text))
            snprintf(ctx->model_sha256, sizeof ctx->model_sha256, "%s", text);
    }
    free(text);
    if (!ctx->model_sha256[0]) {
        rc = ortkit__sha256_hex(ctx->model_sha256, m, (size_t)st.st_size);
        char line[66], sub[PATH_MAX];
        snprintf(line, sizeof line, "%s\n", ctx->model_sha256);
        /* Remembering is an optimisation: without it the model is hashed again. */
        if (!rc && memo_ok && !ortkit__pathf(sub, sizeof sub, "%s", memo)) {
            *strrchr(sub, '/') = '\0';
            if (mkdir(sub, 0700) == 0 || errno == EEXIST)
                ortkit__file_write_atomic_mode(memo, line, 65, 0600);
        }
    }
    if (!rc)
        rc = ortkit__measured_shapes(ctx->shapes, sizeof ctx->shapes, m, (size_t)st.st_size, model,
                                     shapes);
    munmap(m, (size_t)st.st_size);
    return rc;
}

int ortkit__measured_prepare(ortkit__measured_ctx *ctx, const ortkit_host *host,
                             const ortkit_bundle *const *bundles, size_t count,
                             const ortkit_bundle_choice *choice, const char *model,
                             const char *shapes, int threads, unsigned flags)
{
    memset(ctx, 0, sizeof *ctx);
    if (!host || !choice || !model || (count && !bundles))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit__measured_prepare: NULL argument");
    const char *base = strrchr(model, '/');
    snprintf(ctx->model, sizeof ctx->model, "%s", base && base[1] ? base + 1 : model);
    ctx->threads = threads;
    host_identity(ctx->host, sizeof ctx->host, host);
    if (choice->index == ORTKIT_BUNDLE_NONE || choice->index >= count) {
        snprintf(ctx->why, sizeof ctx->why, "no bundle fits");
        return ORTKIT_OK;
    }
    if (runs_gpu(&bundles[choice->index]->m, host)) {
        snprintf(ctx->why, sizeof ctx->why, "the accelerator step decides: %s is a GPU build "
                 "that runs this host's GPU (only CPU builds are measured)",
                 bundles[choice->index]->m.name);
        return ORTKIT_OK;
    }
    /* The declared order, rank by rank, without the GPU builds on their GPU. */
    for (size_t r = 1; r <= count && ctx->count < ORTKIT__MEASURED_MAX; r++)
        for (size_t i = 0; i < count; i++) {
            const ortkit_bundle_verdict *v = ortkit_bundle_choice_verdict(choice, i);
            if (v && v->rank == r && bundles[i] && !runs_gpu(&bundles[i]->m, host))
                ctx->index[ctx->count++] = i;
        }
    for (size_t i = 0; i < ctx->count; i++) {
        snprintf(ctx->names[i], sizeof ctx->names[i], "%s", bundles[ctx->index[i]]->m.name);
        snprintf(ctx->digests[i], sizeof ctx->digests[i], "%s", bundles[ctx->index[i]]->manifest_sha256);
    }
    if (ctx->count < 2) {
        snprintf(ctx->why, sizeof ctx->why, "%s is the only bundle to choose from",
                 bundles[choice->index]->m.name);
        ctx->count = 0;
        return ORTKIT_OK;
    }
    /* Nothing remembered at all: the search need not read the model. */
    if ((flags & ORTKIT__MEASURED_LAZY) && !any_entry())
        return ORTKIT_OK;
    int rc = read_model(ctx, model, shapes);
    if (!rc)
        rc = make_key(ctx);
    char dir[PATH_MAX];
    if (!rc && (measured_dir(dir, sizeof dir) ||
                ortkit__pathf(ctx->path, sizeof ctx->path, "%s/%s.json", dir, ctx->key)))
        ctx->path[0] = '\0';
    if (rc)
        ctx->count = 0;
    return rc;
}

/* ---- the entry as JSON ------------------------------------------------------------ */

/* The fields of an entry and of each candidate, as they are written. */
typedef enum field_kind { F_TEXT, F_INT, F_I64, F_U64, F_SECONDS, F_STATE } field_kind;
typedef struct field {
    const char *key;
    field_kind kind;
    size_t offset;
} field;
#define REC(member, key, kind) {key, kind, offsetof(ortkit__measured, member)}
#define CAND(member, key, kind) {key, kind, offsetof(ortkit__measured_cand, member)}
static const field record_fields[] = {
    REC(key, "key", F_TEXT),         REC(model, "model", F_TEXT),
    REC(model_sha256, "model_sha256", F_TEXT), REC(shapes, "shapes", F_TEXT),
    REC(threads, "threads", F_INT),  REC(host, "host", F_TEXT),
    REC(when, "when", F_I64),        REC(seconds, "seconds", F_SECONDS),
    REC(rounds, "rounds", F_U64),    REC(outcome, "outcome", F_TEXT),
    REC(chosen, "chosen", F_TEXT),   REC(declared, "declared", F_TEXT),
    REC(resolution, "resolution", F_SECONDS), REC(method, "method", F_TEXT),
};
static const field cand_fields[] = {
    CAND(name, "name", F_TEXT),          CAND(manifest_sha256, "manifest_sha256", F_TEXT),
    CAND(state, "state", F_STATE),       CAND(p50, "p50_s", F_SECONDS),
    CAND(p50_low, "p50_low_s", F_SECONDS), CAND(p50_high, "p50_high_s", F_SECONDS),
    CAND(runs, "runs", F_U64),           CAND(rounds, "rounds", F_U64),
    CAND(pair_p50, "pair_p50_s", F_SECONDS), CAND(pair_chosen_p50, "pair_chosen_p50_s", F_SECONDS),
    CAND(pair_ratio, "pair_ratio", F_SECONDS), CAND(pair_rounds, "pair_rounds", F_U64),
    CAND(pair_resolution, "pair_resolution", F_SECONDS), CAND(disturbed, "disturbed", F_U64),
    CAND(note, "note", F_TEXT),
};
#undef REC
#undef CAND

static void put_fields(cJSON *o, const void *base, const field *f, size_t n)
{
    for (size_t i = 0; o && i < n; i++) {
        const char *p = (const char *)base + f[i].offset;
        switch (f[i].kind) {
        case F_TEXT: cJSON_AddStringToObject(o, f[i].key, p); break;
        case F_INT: cJSON_AddNumberToObject(o, f[i].key, *(const int *)p); break;
        case F_I64: cJSON_AddNumberToObject(o, f[i].key, (double)*(const int64_t *)p); break;
        case F_U64: cJSON_AddNumberToObject(o, f[i].key, (double)*(const uint64_t *)p); break;
        case F_SECONDS: cJSON_AddNumberToObject(o, f[i].key, *(const double *)p); break;
        case F_STATE:
            cJSON_AddStringToObject(o, f[i].key, ortkit__measured_state_name(*(const int *)p));
            break;
        }
    }
}

int ortkit__measured_to_json(char **out, const ortkit__measured *rec)
{
    *out = NULL;
    cJSON *o = cJSON_CreateObject(), *cands = NULL;
    if (!o)
        return ortkit__error_nomem();
    cJSON_AddNumberToObject(o, "format", ORTKIT__MEASURED_FORMAT);
    put_fields(o, rec, record_fields, sizeof record_fields / sizeof record_fields[0]);
    cJSON_AddItemToObject(o, "candidates", cands = cJSON_CreateArray());
    for (size_t i = 0; cands && i < rec->count; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddItemToArray(cands, e);
        put_fields(e, &rec->cand[i], cand_fields, sizeof cand_fields / sizeof cand_fields[0]);
    }
    char *text = cJSON_Print(o);
    cJSON_Delete(o);
    if (!text)
        return ortkit__error_nomem();
    *out = text;
    return ORTKIT_OK;
}

typedef struct rd {
    ortkit__json_reader r;
} rd;

static int get_text(const rd *r, const cJSON *obj, const char *key, const char *where, char *out,
                    size_t size, int plain)
{
    const char *s = NULL;
    int rc = ortkit__json_get_string(&r->r, obj, key, where, size - 1,
                                     ORTKIT__JSON_REQUIRED | (plain ? ORTKIT__JSON_PLAIN : 0), &s);
    if (!rc)
        snprintf(out, size, "%s", s);
    return rc;
}

/* A finite number >= 0 (seconds, or a ratio of them). */
static int get_seconds(const rd *r, const cJSON *obj, const char *key, const char *where, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v)
        return ortkit__json_fail(&r->r, "'%s%s%s' is missing", where, where[0] ? "." : "", key);
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0)
        return ortkit__json_fail(&r->r, "'%s%s%s' must be a number of 0 or more, not %s", where,
                                 where[0] ? "." : "", key, ortkit__json_type(v));
    *out = v->valuedouble;
    return ORTKIT_OK;
}

static int is_hex64(const char *s)
{
    if (strlen(s) != 64)
        return 0;
    for (; *s; s++)
        if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
            return 0;
    return 1;
}

static int read_cand(const rd *r, const cJSON *e, const char *where, ortkit__measured_cand *c)
{
    static const char *const keys[] = {"name", "manifest_sha256", "state", "p50_s", "p50_low_s",
                                       "p50_high_s", "runs", "rounds", "pair_p50_s",
                                       "pair_chosen_p50_s", "pair_ratio", "pair_rounds", "note",
                                       "pair_resolution", "disturbed", NULL};
    char state[16];
    int64_t counts[3] = {0, 0, 0};
    const struct {
        const char *key;
        double *out;
    } figures[] = {{"p50_s", &c->p50},           {"p50_low_s", &c->p50_low},
                   {"p50_high_s", &c->p50_high}, {"pair_p50_s", &c->pair_p50},
                   {"pair_chosen_p50_s", &c->pair_chosen_p50}, {"pair_ratio", &c->pair_ratio}};
    static const char *const count_keys[] = {"runs", "rounds", "pair_rounds"};
    int rc = ortkit__json_check_keys(&r->r, e, where, keys);
    if (!rc)
        rc = get_text(r, e, "name", where, c->name, sizeof c->name, 1);
    if (!rc)
        rc = get_text(r, e, "manifest_sha256", where, c->manifest_sha256, sizeof c->manifest_sha256, 1);
    if (!rc)
        rc = get_text(r, e, "state", where, state, sizeof state, 1);
    for (size_t i = 0; !rc && i < sizeof figures / sizeof figures[0]; i++)
        rc = get_seconds(r, e, figures[i].key, where, figures[i].out);
    for (size_t i = 0; !rc && i < 3; i++)
        rc = ortkit__json_get_whole(&r->r, e, count_keys[i], where, 0, 9007199254740992.0,
                                    ORTKIT__JSON_REQUIRED, &counts[i]);
    if (!rc)
        rc = get_text(r, e, "note", where, c->note, sizeof c->note, 0);
    /* Written since the resolution was measured; older entries lack them. */
    int64_t disturbed = 0;
    if (!rc && cJSON_GetObjectItemCaseSensitive(e, "pair_resolution"))
        rc = get_seconds(r, e, "pair_resolution", where, &c->pair_resolution);
    if (!rc)
        rc = ortkit__json_get_whole(&r->r, e, "disturbed", where, 0, 9007199254740992.0, 0, &disturbed);
    if (rc)
        return rc;
    c->disturbed = (uint64_t)disturbed;
    c->runs = (uint64_t)counts[0];
    c->rounds = (uint64_t)counts[1];
    c->pair_rounds = (uint64_t)counts[2];
    c->state = -1;
    for (int s = 0; s < ORTKIT__MEASURED_STATES; s++)
        if (!strcmp(state, state_names[s]))
            c->state = s;
    if (c->state < 0)
        return ortkit__json_fail(&r->r, "'%s.state': unknown state '%s'", where, state);
    if (!is_hex64(c->manifest_sha256))
        return ortkit__json_fail(&r->r, "'%s.manifest_sha256' is not a SHA-256", where);
    return ORTKIT_OK;
}

int ortkit__measured_from_json(ortkit__measured *rec, const char *json, size_t size, const char *what)
{
    static const char *const keys[] = {"format", "key", "model", "model_sha256", "shapes", "threads",
                                       "host", "when", "seconds", "rounds", "outcome", "chosen",
                                       "declared", "candidates", "resolution", "method", NULL};
    memset(rec, 0, sizeof *rec);
    rd r = {{what}};
    size_t escaped;
    if (memchr(json, '\0', size))
        return ortkit__json_fail(&r.r, "not valid JSON (a NUL byte)");
    if (ortkit__json_nul_escape(json, size, &escaped))
        return ortkit__json_fail(&r.r, "a string holds \\u0000 at byte %zu", escaped);
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(json, size, &end, 0);
    if (!root)
        return ortkit__json_fail(&r.r, "not valid JSON");
    while (end < json + size && strchr(" \t\r\n", *end))
        end++;
    int64_t format = 0, threads = 0, when = 0, rounds = 0;
    int rc = ORTKIT_OK;
    if (end != json + size)
        rc = ortkit__json_fail(&r.r, "not valid JSON (text after the value)");
    else if (!cJSON_IsObject(root))
        rc = ortkit__json_fail(&r.r, "the top level must be an object, not %s", ortkit__json_type(root));
    if (!rc)
        rc = ortkit__json_check_keys(&r.r, root, "", keys);
    if (!rc)
        rc = ortkit__json_get_whole(&r.r, root, "format", "", 1, 1000, ORTKIT__JSON_REQUIRED, &format);
    if (!rc && format != ORTKIT__MEASURED_FORMAT)
        rc = ortkit__json_fail(&r.r, "format %lld, this ortkit reads %d", (long long)format,
                               ORTKIT__MEASURED_FORMAT);
    if (!rc)
        rc = get_text(&r, root, "key", "", rec->key, sizeof rec->key, 1);
    if (!rc)
        rc = get_text(&r, root, "model", "", rec->model, sizeof rec->model, 0);
    if (!rc)
        rc = get_text(&r, root, "model_sha256", "", rec->model_sha256, sizeof rec->model_sha256, 1);
    if (!rc)
        rc = get_text(&r, root, "shapes", "", rec->shapes, sizeof rec->shapes, 0);
    if (!rc)
        rc = ortkit__json_get_whole(&r.r, root, "threads", "", 0, 1 << 20, ORTKIT__JSON_REQUIRED,
                                    &threads);
    if (!rc)
        rc = get_text(&r, root, "host", "", rec->host, sizeof rec->host, 0);
    if (!rc)
        rc = ortkit__json_get_whole(&r.r, root, "when", "", 0, 9007199254740992.0,
                                    ORTKIT__JSON_REQUIRED, &when);
    if (!rc)
        rc = get_seconds(&r, root, "seconds", "", &rec->seconds);
    if (!rc)
        rc = ortkit__json_get_whole(&r.r, root, "rounds", "", 0, 9007199254740992.0,
                                    ORTKIT__JSON_REQUIRED, &rounds);
    if (!rc)
        rc = get_text(&r, root, "outcome", "", rec->outcome, sizeof rec->outcome, 1);
    if (!rc)
        rc = get_text(&r, root, "chosen", "", rec->chosen, sizeof rec->chosen, 1);
    if (!rc)
        rc = get_text(&r, root, "declared", "", rec->declared, sizeof rec->declared, 1);
    if (!rc && cJSON_GetObjectItemCaseSensitive(root, "resolution"))
        rc = get_seconds(&r, root, "resolution", "", &rec->resolution);
    if (!rc && cJSON_GetObjectItemCaseSensitive(root, "method"))
        rc = get_text(&r, root, "method", "", rec->method, sizeof rec->method, 0);
    const cJSON *cands = rc ? NULL : cJSON_GetObjectItemCaseSensitive(root, "candidates");
    if (!rc && !cJSON_IsArray(cands))
        rc = ortkit__json_fail(&r.r, "'candidates' must be an array, not %s", ortkit__json_type(cands));
    if (!rc && (cJSON_GetArraySize(cands) < 2 || cJSON_GetArraySize(cands) > ORTKIT__MEASURED_MAX))
        rc = ortkit__json_fail(&r.r, "'candidates' holds %d, not 2 to %d", cJSON_GetArraySize(cands),
                               ORTKIT__MEASURED_MAX);
    const cJSON *e;
    if (rc)
        cands = NULL;
    cJSON_ArrayForEach(e, cands) {
        char where[32];
        snprintf(where, sizeof where, "candidates[%zu]", rec->count);
        if (!cJSON_IsObject(e)) {
            rc = ortkit__json_fail(&r.r, "'%s' must be an object, not %s", where, ortkit__json_type(e));
            break;
        }
        if ((rc = read_cand(&r, e, where, &rec->cand[rec->count])))
            break;
        rec->count++;
    }
    cJSON_Delete(root);
    if (rc)
        return rc;
    rec->threads = (int)threads;
    rec->when = when;
    rec->rounds = (uint64_t)rounds;
    static const char *const outcomes[] = {"clear", "tied", "single", "none", NULL};
    int known = 0;
    for (size_t i = 0; outcomes[i]; i++)
        known |= !strcmp(rec->outcome, outcomes[i]);
    if (!known)
        return ortkit__json_fail(&r.r, "'outcome': unknown outcome '%s'", rec->outcome);
    if (!is_hex64(rec->key) || !is_hex64(rec->model_sha256))
        return ortkit__json_fail(&r.r, "'key' and 'model_sha256' must be SHA-256s");
    /* The choice is one of the candidates, and one whose outputs agreed. */
    const ortkit__measured_cand *c = rec->chosen[0] ? ortkit__measured_find(rec, rec->chosen) : NULL;
    if (rec->chosen[0] && (!c || c->state == ORTKIT__MEASURED_DIFFERS ||
                           c->state == ORTKIT__MEASURED_FAILED || c->state == ORTKIT__MEASURED_SLOWER))
        return ortkit__json_fail(&r.r, "'chosen' (%s) is no candidate that may be chosen", rec->chosen);
    if (!rec->chosen[0] != !strcmp(rec->outcome, "none"))
        return ortkit__json_fail(&r.r, "'chosen' is empty exactly when 'outcome' is \"none\"");
    if (!ortkit__measured_find(rec, rec->declared))
        return ortkit__json_fail(&r.r, "'declared' (%s) is no candidate", rec->declared);
    return ORTKIT_OK;
}

const ortkit__measured_cand *ortkit__measured_find(const ortkit__measured *rec, const char *name)
{
    for (size_t i = 0; rec && name && i < rec->count; i++)
        if (!strcmp(rec->cand[i].name, name))
            return &rec->cand[i];
    return NULL;
}

/* ---- the entry's file --------------------------------------------------------------- */

int ortkit__measured_recall(ortkit__measured *rec, const ortkit__measured_ctx *ctx, char *why,
                            size_t why_size)
{
    memset(rec, 0, sizeof *rec);
    why[0] = '\0';
    if (!ctx->count || !ctx->path[0])
        return 1;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", ctx->path);
    *strrchr(dir, '/') = '\0';
    struct stat st;
    if (lstat(dir, &st) != 0)
        return 1; /* nothing was ever measured here */
    /* The directory must be the user's alone: others could plant entries. */
    if (ortkit__private_dir(dir, "the measurement memory")) {
        snprintf(why, why_size, "%s", ortkit__error_message());
        return -1;
    }
    int fd;
    if (lstat(ctx->path, &st) != 0 && errno == ENOENT)
        return 1;
    if (ortkit__file_open(&fd, ctx->path, O_NOFOLLOW, &st)) {
        snprintf(why, why_size, "%s", ortkit__error_message());
        return -1;
    }
    if (st.st_uid != geteuid() || (st.st_mode & 022)) {
        close(fd);
        snprintf(why, why_size, "'%s' %s: refused", ctx->path,
                 st.st_uid != geteuid() ? "belongs to another user" : "can be written by others");
        return -1;
    }
    char *text = NULL;
    size_t len = 0;
    int rc = ORTKIT_OK;
    if ((uint64_t)st.st_size > ENTRY_MAX)
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' is larger than an entry can be", ctx->path);
    else if (!(text = malloc((size_t)st.st_size + 1)))
        rc = ortkit__error_nomem();
    for (size_t got = 1; !rc && got && len < (size_t)st.st_size;) {
        rc = ortkit__file_read_block(fd, text + len, (size_t)st.st_size - len, &got, ctx->path);
        len += got;
    }
    close(fd);
    char what[PATH_MAX + 8];
    snprintf(what, sizeof what, "'%s'", ctx->path);
    if (!rc)
        rc = ortkit__measured_from_json(rec, text, len, what);
    free(text);
    if (!rc && strcmp(rec->key, ctx->key))
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' holds the key %.12s..., not its own",
                               ctx->path, rec->key);
    /* The key names the candidates by name and manifest: so must the record. */
    if (!rc && rec->count != ctx->count)
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' records %zu candidates, the key names %zu",
                               ctx->path, rec->count, ctx->count);
    for (size_t i = 0; !rc && i < ctx->count; i++)
        if (strcmp(rec->cand[i].name, ctx->names[i]) ||
            strcmp(rec->cand[i].manifest_sha256, ctx->digests[i]))
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' records candidate %s (manifest %.12s...), "
                                   "the key names %s (manifest %.12s...)", ctx->path, rec->cand[i].name,
                                   rec->cand[i].manifest_sha256, ctx->names[i], ctx->digests[i]);
    if (!rc && (strcmp(rec->model_sha256, ctx->model_sha256) || strcmp(rec->shapes, ctx->shapes) ||
                rec->threads != ctx->threads))
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' records another model, shapes or threads "
                               "than its key names", ctx->path);
    if (rc) {
        snprintf(why, why_size, "%s", ortkit__error_message());
        memset(rec, 0, sizeof *rec);
        return -1;
    }
    return 0;
}

int ortkit__measured_store(const ortkit__measured *rec, const ortkit__measured_ctx *ctx)
{
    if (!ctx->count || !ctx->path[0])
        return ortkit__error_set(ORTKIT_E_IO, "there is no cache directory to remember the "
                                 "measurement in (neither XDG_CACHE_HOME nor HOME is an absolute path)");
    if (strcmp(rec->key, ctx->key))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "the measurement's key is not its context's");
    char dir[PATH_MAX], *text = NULL;
    snprintf(dir, sizeof dir, "%s", ctx->path);
    *strrchr(dir, '/') = '\0';
    int rc = ortkit__private_dir(dir, "the measurement memory");
    if (!rc)
        rc = ortkit__measured_to_json(&text, rec);
    if (!rc)
        rc = ortkit__file_write_atomic_mode(ctx->path, text, strlen(text), 0600);
    free(text);
    return rc;
}

/* ---- what the search says ------------------------------------------------------------- */

/* "; 4.1% slower; differences of 1.0% or more told apart, by CPU time" for
 * the pair's figures, as far as the record knows them (older entries:
 * ""). */
static void resolution_text(char *out, size_t size, const ortkit__measured *rec,
                            const ortkit__measured_cand *y)
{
    out[0] = '\0';
    double r = y && y->pair_resolution > 0 ? y->pair_resolution : rec->resolution;
    if (y && y->pair_ratio > 0 && y->pair_rounds)
        put(out, size, "; %s %.1f%% %s", y->name, 100 * fabs(y->pair_ratio - 1),
            y->pair_ratio >= 1 ? "slower" : "faster");
    if (r > 0)
        put(out, size, "; differences of %.1f%% or more told apart", 100 * r);
    if (rec->method[0]) {
        char what[64];
        snprintf(what, sizeof what, "%.63s", rec->method);
        what[strcspn(what, ";,")] = '\0';
        put(out, size, ", by %s", what);
    }
}

void ortkit__measured_account(char *out, size_t size, const ortkit__measured *rec)
{
    char a[32], b[32];
    out[0] = '\0';
    const ortkit__measured_cand *x = ortkit__measured_find(rec, rec->chosen);
    if (!strcmp(rec->outcome, "none") || !x) {
        snprintf(out, size, "measured: no candidate could run %s (see 'ortkit bundle choose "
                 "--model'); the declared order stands", rec->model);
        return;
    }
    if (!strcmp(rec->outcome, "single")) {
        snprintf(out, size, "measured: %s chosen for %s untimed: every other candidate answers "
                 "differently or failed", x->name, rec->model);
    } else {
        /* Tied: against the quickest other candidate it was not told apart
         * from.  Clear: against the declared order's choice when the
         * measurement overturned it (what it gains), else the next fastest. */
        int tied = !strcmp(rec->outcome, "tied");
        const ortkit__measured_cand *y = NULL;
        if (!tied && strcmp(rec->declared, rec->chosen))
            y = ortkit__measured_find(rec, rec->declared);
        if (!y || y->p50 <= 0)
            for (size_t i = 0; i < rec->count; i++) {
                const ortkit__measured_cand *c = &rec->cand[i];
                if (c == x || c->p50 <= 0 || c->state == ORTKIT__MEASURED_DIFFERS ||
                    c->state == ORTKIT__MEASURED_FAILED ||
                    (tied && c->state != ORTKIT__MEASURED_TIED))
                    continue;
                if (!y || y->p50 <= 0 || c->p50 < y->p50)
                    y = c;
            }
        /* The figures of the rounds both ran: the load of those fell on both. */
        int paired = y && y->pair_rounds && y->pair_p50 > 0 && y->pair_chosen_p50 > 0;
        ortkit__human_duration3(a, sizeof a, paired ? y->pair_chosen_p50 : x->p50);
        ortkit__human_duration3(b, sizeof b, !y ? 0 : paired ? y->pair_p50 : y->p50);
        char fine[160];
        resolution_text(fine, sizeof fine, rec, y);
        if (tied && y)
            snprintf(out, size, "measured: %s and %s were not told apart in %llu rounds (p50 %s "
                     "against %s on %s%s); the declared order chooses between them: %s", x->name,
                     y->name, (unsigned long long)(paired ? y->pair_rounds : rec->rounds), a, b,
                     rec->model, fine, x->name);
        else if (y)
            snprintf(out, size, "measured: %s ran %s in p50 %s against %s for %s (%llu rounds%s)",
                     x->name, rec->model, a, b, y->name,
                     (unsigned long long)(paired ? y->pair_rounds : rec->rounds), fine);
        else
            snprintf(out, size, "measured: %s ran %s in p50 %s", x->name, rec->model, a);
    }
    for (size_t i = 0; i < rec->count; i++)
        if (rec->cand[i].state == ORTKIT__MEASURED_DIFFERS)
            put(out, size, "; %s answers differently (never chosen)", rec->cand[i].name);
}

void ortkit__measured_lookup(size_t *index, char *account, size_t account_size,
                             const ortkit_host *host, const ortkit_bundle *const *bundles,
                             size_t count, const ortkit_bundle_choice *choice, const char *model,
                             const char *shapes, int threads)
{
    *index = ORTKIT_BUNDLE_NONE;
    account[0] = '\0';
    ortkit__measured_ctx *ctx = calloc(1, sizeof *ctx);
    ortkit__measured *rec = calloc(1, sizeof *rec);
    char why[ORTKIT__MEASURED_ACCOUNT_MAX];
    if (!ctx || !rec) {
        snprintf(account, account_size, "not measured for this model (out of memory)");
        goto cleanup;
    }
    if (ortkit__measured_prepare(ctx, host, bundles, count, choice, model, shapes, threads,
                                 ORTKIT__MEASURED_LAZY)) {
        snprintf(account, account_size, "not measured for this model: %s", ortkit__error_message());
        goto cleanup;
    }
    if (!ctx->count) {
        snprintf(account, account_size, "not measured: %s", ctx->why);
        goto cleanup;
    }
    int found = ortkit__measured_recall(rec, ctx, why, sizeof why);
    if (found == 1) {
        snprintf(account, account_size, "not measured for this model");
        goto cleanup;
    }
    if (found < 0) {
        snprintf(account, account_size, "not measured for this model (the remembered "
                 "measurement was refused: %s)", why);
        goto cleanup;
    }
    ortkit__measured_account(account, account_size, rec);
    for (size_t i = 0; rec->chosen[0] && i < ctx->count; i++)
        if (!strcmp(bundles[ctx->index[i]]->m.name, rec->chosen))
            *index = ctx->index[i];
cleanup:
    free(ctx);
    free(rec);
}
