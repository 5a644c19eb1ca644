/*
 * model_file.c - what an .onnx file says about itself, decoded with
 * protobuf-c once its nesting is known to be within bounds; and which of a
 * graph's inputs and outputs have no shape, read from the wire directly.
 */
#include "core.h"
#include "model_scan.h"

#include "onnx.pb-c.h"

#include <stdlib.h>
#include <string.h>

/* Models above this are refused here; ORT's own limit for one protobuf is 2 GiB. */
#define MODEL_MAX_BYTES ((size_t)2 << 30)

struct model_file {
    ortkit_model_file pub;
    ortkit_opset *opsets;
};

int ortkit__model_nesting(const void *data, size_t size, char *why, size_t why_size)
{
    return ortkit__pb_check(data, size, &onnx__model_proto__descriptor, ORTKIT__PB_MAX_DEPTH, why,
                            why_size);
}

int ortkit__model_check(const void *data, size_t size, const char *label)
{
    char why[160];
    switch (ortkit__model_nesting(data, size, why, sizeof why)) {
    case ORTKIT__PB_OK:
        return ORTKIT_OK;
    case ORTKIT__PB_TOO_DEEP:
        return ortkit__error_set(ORTKIT_E_MODEL, "'%s' is not a usable ONNX model: %s, the most "
                                 "ortkit and ONNX Runtime decode", label, why);
    default:
        return ortkit__error_set(ORTKIT_E_MODEL,
                                 "'%s' is not an ONNX model (protobuf decoding failed)", label);
    }
}

int ortkit_model_file_read(ortkit_model_file **out, const char *path)
{
    if (!out || !path)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_model_file_read: NULL argument");
    *out = NULL;
    char *data = NULL;
    size_t size = 0;
    int rc = ortkit__file_read(&data, &size, path, MODEL_MAX_BYTES);
    if (rc)
        return rc;
    if (size == 0) {
        free(data);
        return ortkit__error_set(ORTKIT_E_MODEL, "'%s' is empty: not an ONNX model", path);
    }
    rc = ortkit__model_check(data, size, path);
    Onnx__ModelProto *m = rc ? NULL : onnx__model_proto__unpack(NULL, size, (const uint8_t *)data);
    free(data);
    if (rc)
        return rc;
    if (!m)
        return ortkit__error_set(ORTKIT_E_MODEL, "'%s' is not an ONNX model (protobuf decoding failed)",
                                 path);
    if (!m->has_ir_version || !m->graph) {
        const char *missing = m->has_ir_version ? "graph" : "IR version";
        onnx__model_proto__free_unpacked(m, NULL);
        return ortkit__error_set(ORTKIT_E_MODEL, "'%s' is not an ONNX model (no %s)", path, missing);
    }
    struct model_file *mf = calloc(1, sizeof *mf);
    if (mf)
        mf->opsets = calloc(m->n_opset_import ? m->n_opset_import : 1, sizeof *mf->opsets);
    if (!mf || !mf->opsets) {
        rc = ortkit__error_nomem();
        goto fail;
    }
    mf->pub.ir_version = m->ir_version;
    mf->pub.opsets = mf->opsets;
    mf->pub.node_count = m->graph->n_node;
    mf->pub.initializer_count = m->graph->n_initializer;
    for (size_t i = 0; i < m->n_opset_import; i++) {
        const Onnx__OperatorSetIdProto *op = m->opset_import[i];
        mf->opsets[i].domain = ortkit__strdup(op->domain ? op->domain : "");
        mf->opsets[i].version = op->version;
        mf->pub.opset_count++;
        if (!mf->opsets[i].domain) {
            rc = ORTKIT_E_NOMEM;
            goto fail;
        }
    }
    onnx__model_proto__free_unpacked(m, NULL);
    *out = &mf->pub;
    return ORTKIT_OK;
fail:
    onnx__model_proto__free_unpacked(m, NULL);
    ortkit_model_file_free(mf ? &mf->pub : NULL);
    return rc;
}

void ortkit_model_file_free(ortkit_model_file *model)
{
    if (!model)
        return;
    struct model_file *mf = (struct model_file *)model;
    for (size_t i = 0; i < mf->pub.opset_count; i++)
        free((char *)mf->opsets[i].domain);
    free(mf->opsets);
    free(mf);
}

/* ---- inputs and outputs without a shape ------------------------------------- */

/* Field numbers from onnx.proto (fixed for good: they are the file format). */
enum { MODEL_GRAPH = 7, GRAPH_INPUT = 11, GRAPH_OUTPUT = 12, VALUE_NAME = 1, VALUE_TYPE = 2,
       TYPE_TENSOR = 1, TYPE_SPARSE_TENSOR = 8, TENSOR_SHAPE = 2 };

/* Does a ValueInfoProto say "a tensor" and give no shape?  *name gets its name. */
static int unshaped(const unsigned char *p, const unsigned char *end, const unsigned char **name,
                    size_t *name_len)
{
    ortkit__pb_field f, t, d;
    int tensor = 0, shape = 0;
    *name = NULL;
    *name_len = 0;
    while (ortkit__pb_next(&p, end, &f) == 1) {
        if (f.wire != ORTKIT__PB_BYTES)
            continue;
        if (f.number == VALUE_NAME) {
            *name = f.data;
            *name_len = f.len;
        } else if (f.number == VALUE_TYPE) {
            const unsigned char *tp = f.data, *tend = f.data + f.len;
            while (ortkit__pb_next(&tp, tend, &t) == 1) {
                if (t.wire != ORTKIT__PB_BYTES ||
                    (t.number != TYPE_TENSOR && t.number != TYPE_SPARSE_TENSOR))
                    continue;
                tensor = 1;
                const unsigned char *dp = t.data, *dend = t.data + t.len;
                while (ortkit__pb_next(&dp, dend, &d) == 1)
                    shape |= d.number == TENSOR_SHAPE && d.wire == ORTKIT__PB_BYTES;
            }
        }
    }
    return tensor && !shape && *name;
}

void ortkit__model_unshaped_io(const void *data, size_t size,
                               void (*visit)(void *ctx, int output, const char *name, size_t len),
                               void *ctx)
{
    const unsigned char *p = data, *end = p + size;
    ortkit__pb_field m, g;
    while (ortkit__pb_next(&p, end, &m) == 1) {
        if (m.number != MODEL_GRAPH || m.wire != ORTKIT__PB_BYTES)
            continue;
        const unsigned char *gp = m.data, *gend = m.data + m.len;
        while (ortkit__pb_next(&gp, gend, &g) == 1) {
            const unsigned char *name;
            size_t len;
            if (g.wire == ORTKIT__PB_BYTES && (g.number == GRAPH_INPUT || g.number == GRAPH_OUTPUT) &&
                unshaped(g.data, g.data + g.len, &name, &len))
                visit(ctx, g.number == GRAPH_OUTPUT, (const char *)name, len);
        }
    }
}

/* ---- the graph's inputs, as declared ------------------------------------------ */

enum { GRAPH_INITIALIZER = 5, GRAPH_SPARSE_INITIALIZER = 15, TENSOR_NAME = 8, SPARSE_VALUES = 1,
       TENSOR_ELEM_TYPE = 1, SHAPE_DIM = 1, DIM_VALUE = 1, DIM_PARAM = 2 };

/* The name of an initialiser (a TensorProto, or a SparseTensorProto's values). */
static int initializer_name(const ortkit__pb_field *g, const unsigned char **name, size_t *len)
{
    const unsigned char *p = g->data, *end = g->data + g->len;
    ortkit__pb_field f;
    *name = NULL;
    while (ortkit__pb_next(&p, end, &f) == 1) {
        if (f.wire != ORTKIT__PB_BYTES)
            continue;
        if (g->number == GRAPH_INITIALIZER && f.number == TENSOR_NAME) {
            *name = f.data;
            *len = f.len;
        } else if (g->number == GRAPH_SPARSE_INITIALIZER && f.number == SPARSE_VALUES) {
            ortkit__pb_field values = f;
            values.number = GRAPH_INITIALIZER;
            return initializer_name(&values, name, len);
        }
    }
    return *name != NULL;
}

static char *copy_name(const unsigned char *s, size_t len)
{
    char *out = malloc(len + 1);
    if (out) {
        memcpy(out, s, len);
        out[len] = '\0';
    }
    return out;
}

/* One ValueInfoProto into in: its name, kind and declared dimensions. */
static int read_input(ortkit__model_input *in, const unsigned char *p, const unsigned char *end,
                      const char *label)
{
    ortkit__pb_field f, t, s, d, v;
    while (ortkit__pb_next(&p, end, &f) == 1) {
        if (f.wire != ORTKIT__PB_BYTES)
            continue;
        if (f.number == VALUE_NAME) {
            free(in->name);
            if (!(in->name = copy_name(f.data, f.len)))
                return ortkit__error_nomem();
            continue;
        }
        if (f.number != VALUE_TYPE)
            continue;
        const unsigned char *tp = f.data, *tend = f.data + f.len;
        while (ortkit__pb_next(&tp, tend, &t) == 1) {
            if (t.wire != ORTKIT__PB_BYTES || (t.number != TYPE_TENSOR && t.number != TYPE_SPARSE_TENSOR))
                continue;
            in->tensor = 1;
            const unsigned char *sp = t.data, *send = t.data + t.len;
            while (ortkit__pb_next(&sp, send, &s) == 1) {
                if (s.number != TENSOR_SHAPE || s.wire != ORTKIT__PB_BYTES)
                    continue;
                in->shaped = 1;
                const unsigned char *dp = s.data, *dend = s.data + s.len;
                while (ortkit__pb_next(&dp, dend, &d) == 1) {
                    if (d.number != SHAPE_DIM || d.wire != ORTKIT__PB_BYTES)
                        continue;
                    if (in->rank == ORTKIT_MAX_RANK)
                        return ortkit__error_set(ORTKIT_E_MODEL, "'%s': input '%s' has more than "
                                                 "%d dimensions", label, in->name ? in->name : "?",
                                                 ORTKIT_MAX_RANK);
                    size_t k = in->rank++;
                    in->dims[k] = -1;
                    const unsigned char *vp = d.data, *vend = d.data + d.len;
                    while (ortkit__pb_next(&vp, vend, &v) == 1) {
                        if (v.number == DIM_VALUE && v.wire == ORTKIT__PB_VARINT) {
                            in->dims[k] = (int64_t)v.value;
                            free(in->symbols[k]);
                            in->symbols[k] = NULL;
                        } else if (v.number == DIM_PARAM && v.wire == ORTKIT__PB_BYTES && v.len) {
                            in->dims[k] = -1;
                            free(in->symbols[k]);
                            if (!(in->symbols[k] = copy_name(v.data, v.len)))
                                return ortkit__error_nomem();
                        }
                    }
                }
            }
        }
    }
    return ORTKIT_OK;
}

static void input_clear(ortkit__model_input *in)
{
    free(in->name);
    for (size_t k = 0; k < ORTKIT_MAX_RANK; k++)
        free(in->symbols[k]);
    memset(in, 0, sizeof *in);
}

void ortkit__model_inputs_free(ortkit__model_input *inputs, size_t count)
{
    for (size_t i = 0; inputs && i < count; i++)
        input_clear(&inputs[i]);
    free(inputs);
}

int ortkit__model_inputs(ortkit__model_input **out, size_t *count, const void *data, size_t size,
                         const char *label)
{
    *out = NULL;
    *count = 0;
    const unsigned char *p = data, *end = p + size, *graph = NULL, *gend = NULL;
    ortkit__pb_field m, g;
    int r;
    while ((r = ortkit__pb_next(&p, end, &m)) == 1)
        if (m.number == MODEL_GRAPH && m.wire == ORTKIT__PB_BYTES) {
            graph = m.data; /* the last one wins, as protobuf merges */
            gend = m.data + m.len;
        }
    if (r < 0 || !graph)
        return ortkit__error_set(ORTKIT_E_MODEL, "'%s' is not an ONNX model (%s)", label,
                                 r < 0 ? "protobuf decoding failed" : "no graph");
    /* The initialisers' names first: an input one of them names is optional. */
    size_t n_init = 0, n_in = 0;
    for (const unsigned char *q = graph; ortkit__pb_next(&q, gend, &g) == 1;) {
        n_init += g.wire == ORTKIT__PB_BYTES && (g.number == GRAPH_INITIALIZER ||
                                                 g.number == GRAPH_SPARSE_INITIALIZER);
        n_in += g.wire == ORTKIT__PB_BYTES && g.number == GRAPH_INPUT;
    }
    const unsigned char **init = calloc(n_init + 1, sizeof *init);
    size_t *init_len = calloc(n_init + 1, sizeof *init_len);
    ortkit__model_input *in = calloc(n_in + 1, sizeof *in);
    size_t k = 0, n = 0;
    int rc = ORTKIT_OK;
    if (!init || !init_len || !in) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    for (const unsigned char *q = graph; ortkit__pb_next(&q, gend, &g) == 1;)
        if (g.wire == ORTKIT__PB_BYTES &&
            (g.number == GRAPH_INITIALIZER || g.number == GRAPH_SPARSE_INITIALIZER) &&
            initializer_name(&g, &init[k], &init_len[k]))
            k++;
    for (const unsigned char *q = graph; !rc && ortkit__pb_next(&q, gend, &g) == 1;) {
        if (g.wire != ORTKIT__PB_BYTES || g.number != GRAPH_INPUT)
            continue;
        ortkit__model_input *cur = &in[n];
        if ((rc = read_input(cur, g.data, g.data + g.len, label)))
            break;
        int initialised = 0;
        for (size_t i = 0; cur->name && i < k && !initialised; i++)
            initialised = init_len[i] == strlen(cur->name) && !memcmp(init[i], cur->name, init_len[i]);
        if (!cur->name || initialised) { /* not asked for: the slot is reused */
            input_clear(cur);
            continue;
        }
        n++;
    }
cleanup:
    free(init);
    free(init_len);
    if (rc) {
        /* The slot being read may hold part of an input too. */
        ortkit__model_inputs_free(in, in ? n + 1 : 0);
        return rc;
    }
    *out = in;
    *count = n;
    return ORTKIT_OK;
}
