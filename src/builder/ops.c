/*
 * ops.c - `--ops-from MODEL...`: the operators a reduced ONNX Runtime must
 * keep, written in ORT's required-operators format ("domain;opset;Op,Op"),
 * which tools/ci_build/reduce_op_kernels.py turns into trimmed kernel
 * registrations before configure.  Read with the protobuf-c decoder of
 * onnx.proto; nodes inside subgraphs (If, Loop, Scan) count too.
 *
 * A build with a GPU provider also keeps the two copy kernels ONNX Runtime
 * inserts itself where a graph moves between the device and the CPU
 * (MemcpyFromHost, MemcpyToHost: registered since opset 1, in no model).
 * Without them a model any of whose nodes falls back to the CPU cannot get
 * a session on the GPU (Silero VAD on an H100: "Failed to find kernel for
 * MemcpyToHost").
 */
#include "builder_ops.h"

#include "onnx.pb-c.h"

#include <stdlib.h>
#include <string.h>

#define MODEL_MAX ((size_t)2 << 30)

typedef struct op_use {
    char *domain;
    int64_t opset;
    char *op;
} op_use;

typedef struct op_set {
    op_use *v;
    size_t n, cap;
} op_set;

static const char *canonical_domain(const char *d)
{
    return !d || !*d || !strcmp(d, "ai.onnx") ? "ai.onnx" : d;
}

static int op_add(op_set *s, const char *domain, int64_t opset, const char *op)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].opset == opset && !strcmp(s->v[i].domain, domain) && !strcmp(s->v[i].op, op))
            return 0;
    if (ortkit__array_reserve(&s->v, &s->cap, s->n + 1, sizeof *s->v, 64))
        return ORTKIT_E_NOMEM;
    op_use u = {strdup(domain), opset, strdup(op)};
    if (!u.domain || !u.op) {
        free(u.domain);
        free(u.op);
        return ortkit__error_nomem();
    }
    s->v[s->n++] = u;
    return 0;
}

static int64_t opset_of(const Onnx__ModelProto *m, const char *domain)
{
    for (size_t i = 0; i < m->n_opset_import; i++)
        if (!strcmp(canonical_domain(m->opset_import[i]->domain), domain))
            return m->opset_import[i]->version;
    return 1;
}

static int walk_graph(op_set *s, const Onnx__ModelProto *m, const Onnx__GraphProto *g, int depth)
{
    if (!g || depth > 64)
        return 0;
    for (size_t i = 0; i < g->n_node; i++) {
        const Onnx__NodeProto *n = g->node[i];
        if (!n->op_type || !*n->op_type)
            continue;
        const char *d = canonical_domain(n->domain);
        int rc = op_add(s, d, opset_of(m, d), n->op_type);
        for (size_t a = 0; !rc && a < n->n_attribute; a++) {
            const Onnx__AttributeProto *at = n->attribute[a];
            rc = walk_graph(s, m, at->g, depth + 1);
            for (size_t k = 0; !rc && k < at->n_graphs; k++)
                rc = walk_graph(s, m, at->graphs[k], depth + 1);
        }
        if (rc)
            return rc;
    }
    return 0;
}

static int cmp_use(const void *a, const void *b)
{
    const op_use *x = a, *y = b;
    int c = strcmp(x->domain, y->domain);
    if (c)
        return c;
    if (x->opset != y->opset)
        return x->opset < y->opset ? -1 : 1;
    return strcmp(x->op, y->op);
}

int ortkit__builder_ops_write(const char *path, const char *const *models, size_t n_models,
                              int device_copies, size_t *n_ops)
{
    op_set s = {0};
    char *text = NULL;
    int rc = 0;
    if (device_copies && !(rc = op_add(&s, "ai.onnx", 1, "MemcpyFromHost")))
        rc = op_add(&s, "ai.onnx", 1, "MemcpyToHost");
    for (size_t i = 0; i < n_models && !rc; i++) {
        char *data = NULL;
        size_t size = 0;
        if ((rc = ortkit__file_read(&data, &size, models[i], MODEL_MAX)))
            break;
        /* protobuf-c recurses once per nested message: bound the nesting first. */
        char why[160];
        Onnx__ModelProto *m = NULL;
        int pb = ortkit__pb_check(data, size, &onnx__model_proto__descriptor, ORTKIT__PB_MAX_DEPTH,
                                  why, sizeof why);
        if (pb == ORTKIT__PB_OK)
            m = onnx__model_proto__unpack(NULL, size, (const uint8_t *)data);
        free(data);
        if (pb == ORTKIT__PB_TOO_DEEP) {
            rc = ortkit__error_set(ORTKIT_E_MODEL, "'%s' is not a usable ONNX model: %s", models[i],
                                   why);
            break;
        }
        if (!m || !m->graph) {
            if (m)
                onnx__model_proto__free_unpacked(m, NULL);
            rc = ortkit__error_set(ORTKIT_E_MODEL, "'%s' is not an ONNX model", models[i]);
            break;
        }
        rc = walk_graph(&s, m, m->graph, 0);
        onnx__model_proto__free_unpacked(m, NULL);
    }
    if (!rc) {
        qsort(s.v, s.n, sizeof *s.v, cmp_use);
        size_t cap = 256, len = 0;
        for (size_t i = 0; i < s.n; i++)
            cap += strlen(s.v[i].domain) + strlen(s.v[i].op) + 32;
        if (!(text = malloc(cap)))
            rc = ortkit__error_nomem();
        for (size_t i = 0; !rc && i < s.n; i++) {
            int first = i == 0 || strcmp(s.v[i].domain, s.v[i - 1].domain) ||
                        s.v[i].opset != s.v[i - 1].opset;
            if (first)
                len += (size_t)snprintf(text + len, cap - len, "%s%s;%lld;", i ? "\n" : "",
                                        s.v[i].domain, (long long)s.v[i].opset);
            len += (size_t)snprintf(text + len, cap - len, "%s%s", first ? "" : ",", s.v[i].op);
        }
        if (!rc) {
            len += (size_t)snprintf(text + len, cap - len, "%s", s.n ? "\n" : "");
            rc = ortkit__file_write_atomic(path, text, len);
        }
    }
    if (n_ops)
        *n_ops = s.n;
    for (size_t i = 0; i < s.n; i++) {
        free(s.v[i].domain);
        free(s.v[i].op);
    }
    free(s.v);
    free(text);
    return rc;
}
