/*
 * validate_find.c - ONNX backend test directories found on disk, each with
 * the operator it tests read from its model (protobuf-c over onnx.proto).
 */
#include "core.h"
#include "model_scan.h"
#include "ortkit/tools/conformance.h"

#include "onnx.pb-c.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Backend test models are small; a larger file is read only for its header. */
#define FIND_MODEL_MAX ((size_t)256 << 20)
/* data/ -> node/ -> test_abs/ */
#define FIND_DEPTH 2

struct ortkit_conformance {
    ortkit_conformance_test *tests;
    size_t count, cap;
};

static void test_clear(ortkit_conformance_test *t)
{
    free((char *)t->name);
    free((char *)t->suite);
    free((char *)t->dir);
    free((char *)t->op);
}

void ortkit_conformance_free(ortkit_conformance *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->count; i++)
        test_clear(&c->tests[i]);
    free(c->tests);
    free(c);
}

size_t ortkit_conformance_count(const ortkit_conformance *c) { return c ? c->count : 0; }

const ortkit_conformance_test *ortkit_conformance_get(const ortkit_conformance *c, size_t i)
{
    return c && i < c->count ? &c->tests[i] : NULL;
}

static char *path_join(const char *dir, const char *name)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    char *p = malloc(n + strlen(name) + 2);
    if (p)
        sprintf(p, "%.*s/%s", (int)n, dir, name);
    return p;
}

/* The last component of a path, ignoring trailing slashes, as a new string. */
static char *base_name(const char *path)
{
    size_t end = strlen(path);
    while (end > 1 && path[end - 1] == '/')
        end--;
    size_t start = end;
    while (start > 0 && path[start - 1] != '/')
        start--;
    char *b = malloc(end - start + 1);
    if (b) {
        memcpy(b, path + start, end - start);
        b[end - start] = '\0';
    }
    return b;
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int has_model(const char *dir)
{
    char *p = path_join(dir, "model.onnx");
    struct stat st;
    int yes = p && stat(p, &st) == 0;
    free(p);
    return yes;
}

/* "ReduceSum" -> "reducesum": op names compared with test names. */
static void squash(char *out, size_t size, const char *s)
{
    size_t n = 0;
    for (; *s && n + 1 < size; s++)
        if (*s != '_')
            out[n++] = (char)tolower((unsigned char)*s);
    out[n] = '\0';
}

/*
 * The operator a test exercises: the one op type of the main graph (Constant
 * feeding it aside), else the op type whose name starts the test's name
 * (test_reduce_sum_... -> ReduceSum), else unknown.
 */
static char *pick_op(const Onnx__GraphProto *g, const char *test_name)
{
    const char *only = NULL;
    int several = 0;
    for (size_t i = 0; i < g->n_node; i++) {
        const char *op = g->node[i]->op_type ? g->node[i]->op_type : "";
        if (!strcmp(op, "Constant"))
            continue;
        if (only && strcmp(only, op))
            several = 1;
        if (!only)
            only = op;
    }
    if (!only && g->n_node) /* a graph of Constants only */
        only = "Constant";
    if (only && !several)
        return strdup(only);
    char name[256], cand[128];
    squash(name, sizeof name, strncmp(test_name, "test_", 5) ? test_name : test_name + 5);
    const char *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; i < g->n_node; i++) {
        const char *op = g->node[i]->op_type ? g->node[i]->op_type : "";
        squash(cand, sizeof cand, op);
        size_t len = strlen(cand);
        if (len > best_len && !strncmp(name, cand, len)) {
            best = op;
            best_len = len;
        }
    }
    return strdup(best ? best : "");
}

/* Operator and opset from the model; both unknown when it does not decode
 * (running the test then says why). */
static int read_model_facts(ortkit_conformance_test *t)
{
    char *path = path_join(t->dir, "model.onnx");
    char *data = NULL;
    size_t size = 0;
    if (!path)
        return ortkit__error_nomem();
    Onnx__ModelProto *m = NULL;
    if (ortkit__file_read(&data, &size, path, FIND_MODEL_MAX) == ORTKIT_OK &&
        ortkit__model_check(data, size, path) == ORTKIT_OK)
        m = onnx__model_proto__unpack(NULL, size, (const uint8_t *)data);
    free(data);
    free(path);
    if (m) {
        for (size_t i = 0; i < m->n_opset_import; i++) {
            const char *d = m->opset_import[i]->domain;
            if (!d || !d[0] || !strcmp(d, "ai.onnx"))
                t->opset = m->opset_import[i]->version;
        }
        t->op = m->graph ? pick_op(m->graph, t->name) : strdup("");
        onnx__model_proto__free_unpacked(m, NULL);
    } else {
        t->op = strdup("");
    }
    return t->op ? ORTKIT_OK : ortkit__error_nomem();
}

static int add_test(ortkit_conformance *c, const char *dir, const char *suite)
{
    if (ortkit__array_reserve(&c->tests, &c->cap, c->count + 1, sizeof *c->tests, 64))
        return ORTKIT_E_NOMEM;
    ortkit_conformance_test *t = &c->tests[c->count];
    memset(t, 0, sizeof *t);
    t->dir = strdup(dir);
    t->name = base_name(dir);
    t->suite = strdup(suite);
    if (!t->dir || !t->name || !t->suite) {
        test_clear(t);
        return ortkit__error_nomem();
    }
    int rc = read_model_facts(t);
    if (rc) {
        test_clear(t);
        return rc;
    }
    c->count++;
    return ORTKIT_OK;
}

/* Tests directly below dir belong to the suite named after dir; other
 * subdirectories are searched while depth allows. */
static int scan(ortkit_conformance *c, const char *dir, int depth)
{
    struct dirent **entries = NULL;
    int n = scandir(dir, &entries, NULL, alphasort);
    if (n < 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot read test directory '%s': %s", dir,
                                 strerror(errno));
    char *suite = base_name(dir);
    int rc = suite ? ORTKIT_OK : ortkit__error_nomem();
    for (int i = 0; i < n; i++) {
        const char *name = entries[i]->d_name;
        char *path = NULL;
        if (!rc && name[0] != '.' && !(path = path_join(dir, name)))
            rc = ortkit__error_nomem();
        if (!rc && path && is_dir(path)) {
            if (has_model(path) || !strncmp(name, "test_", 5))
                rc = add_test(c, path, suite);
            else if (depth < FIND_DEPTH)
                rc = scan(c, path, depth + 1);
        }
        free(path);
        free(entries[i]);
    }
    free(entries);
    free(suite);
    return rc;
}

static int test_order(const void *pa, const void *pb)
{
    const ortkit_conformance_test *a = pa, *b = pb;
    int s = strcmp(a->suite, b->suite);
    return s ? s : strcmp(a->name, b->name);
}

/* An _expanded test runs the function body of the op its twin tests. */
static void inherit_ops(ortkit_conformance *c)
{
    static const char suffix[] = "_expanded";
    for (size_t i = 0; i < c->count; i++) {
        ortkit_conformance_test *t = &c->tests[i];
        size_t len = strlen(t->name), sl = sizeof suffix - 1;
        if (t->op[0] || len <= sl || strcmp(t->name + len - sl, suffix))
            continue;
        for (size_t j = 0; j < c->count; j++) {
            const ortkit_conformance_test *twin = &c->tests[j];
            if (twin->op[0] && !strcmp(twin->suite, t->suite) && strlen(twin->name) == len - sl &&
                !strncmp(twin->name, t->name, len - sl)) {
                char *op = strdup(twin->op);
                if (op) {
                    free((char *)t->op);
                    t->op = op;
                }
                break;
            }
        }
    }
}

int ortkit_conformance_find(ortkit_conformance **out, const char *const *roots, size_t root_count)
{
    if (!out || (root_count && !roots))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_conformance_find: NULL argument");
    *out = NULL;
    ortkit_conformance *c = calloc(1, sizeof *c);
    if (!c)
        return ortkit__error_nomem();
    int rc = ORTKIT_OK;
    for (size_t r = 0; r < root_count && !rc; r++) {
        const char *root = roots[r];
        struct stat st;
        size_t before = c->count;
        if (!root || stat(root, &st) != 0) {
            rc = ortkit__error_set(ORTKIT_E_IO, "cannot read test directory '%s': %s",
                                   root ? root : "(null)", strerror(root ? errno : EINVAL));
        } else if (!S_ISDIR(st.st_mode)) {
            rc = ortkit__error_set(ORTKIT_E_IO, "'%s' is not a test directory (not a directory)", root);
        } else if (has_model(root)) {
            rc = add_test(c, root, "");
        } else if (!(rc = scan(c, root, 0)) && c->count == before) {
            rc = ortkit__error_set(ORTKIT_E_IO, "no tests under '%s' (looked for "
                                   "test_*/model.onnx, two levels deep)", root);
        }
    }
    if (rc) {
        ortkit_conformance_free(c);
        return rc;
    }
    qsort(c->tests, c->count, sizeof *c->tests, test_order);
    inherit_ops(c);
    *out = c;
    return ORTKIT_OK;
}
