/*
 * run_values.c - sequences, maps and optionals to and from ONNX Runtime.
 *
 * What ORT copies and what it shares (ORT's C API, 1.17 to 1.30):
 * - a sequence of tensors given as input holds the tensors' own ORT
 *   values, so their memory is shared: ortkit makes the sequence once and
 *   keeps it, as it keeps a tensor's value (strings excepted, which are
 *   copied in on every run);
 * - a map, and a sequence of maps, is copied into ORT's std::map on every
 *   run;
 * - every element of an output sequence and both halves of an output map
 *   are copied out by ORT (GetValue); the copies are then wrapped, not
 *   copied again;
 * - an optional is the value it holds; one holding none is not fed (ORT
 *   takes a missing optional input as none) and comes out as HasValue 0.
 */
#include "session_internal.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 32

/* ---- inputs ----------------------------------------------------------- */

static int value_in(const ortkit_session *s, const char *name, const ortkit_value *v, OrtValue **out,
                    int *temp);

/* A sequence or a map: ORT's CreateValue over its parts' values. */
static int container_in(const ortkit_session *s, const char *name, const ortkit_value *v,
                        OrtValue **out)
{
    const OrtApi *api = s->rt->api;
    int is_map = v->type.kind == ORTKIT_KIND_MAP;
    size_t n = is_map ? 2 : v->count;
    OrtValue *small[8], **parts = n <= 8 ? small : calloc(n, sizeof *parts);
    unsigned char temp_small[8], *temps = n <= 8 ? temp_small : calloc(n, 1);
    size_t made = 0;
    int rc = ORTKIT_OK;
    if (!parts || !temps) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    for (; made < n; made++) {
        int t = 0;
        if (is_map)
            rc = ortkit__run_tensor_in(s, made ? v->values : v->keys, &parts[made], &t);
        else
            rc = value_in(s, name, v->items[made], &parts[made], &t);
        if (rc)
            goto cleanup;
        temps[made] = (unsigned char)t;
    }
    OrtStatus *st = api->CreateValue((const OrtValue *const *)parts, n,
                                     is_map ? ONNX_TYPE_MAP : ONNX_TYPE_SEQUENCE, out);
    if (st) {
        char what[256];
        ortkit_value_describe(v, what, sizeof what);
        rc = ortkit__ort_error(s->rt, st, ORTKIT_E_UNSUPPORTED, "input '%s': the runtime cannot "
                               "take %s", name, what);
    }
cleanup:
    for (size_t i = 0; i < made; i++)
        if (temps[i])
            api->ReleaseValue(parts[i]);
    if (parts != small)
        free(parts);
    if (temps != temp_small)
        free(temps);
    return rc;
}

/* ---- empty sequences -------------------------------------------------- */

/* A protobuf writer for the few bytes of the model below: every length fits
 * one byte. */
typedef struct pb {
    unsigned char buf[256];
    size_t n;
} pb;

static void pb_raw(pb *b, uint64_t v)
{
    do {
        b->buf[b->n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
}

static void pb_varint(pb *b, unsigned field, uint64_t v)
{
    pb_raw(b, field << 3);
    pb_raw(b, v);
}

static void pb_bytes(pb *b, unsigned field, const void *data, size_t len)
{
    pb_raw(b, field << 3 | 2);
    pb_raw(b, len);
    memcpy(b->buf + b->n, data, len);
    b->n += len;
}

static void pb_str(pb *b, unsigned field, const char *s) { pb_bytes(b, field, s, strlen(s)); }
static void pb_msg(pb *b, unsigned field, const pb *m) { pb_bytes(b, field, m->buf, m->n); }

/* A model whose one node, SequenceEmpty, makes an empty sequence of elem. */
static void empty_sequence_model(pb *model, ortkit_type elem)
{
    pb attr = {0}, node = {0}, tensor = {0}, tensor_type = {0}, seq = {0}, type = {0}, out = {0},
       graph = {0}, opset = {0};
    pb_str(&attr, 1, "dtype");            /* AttributeProto.name */
    pb_varint(&attr, 3, (uint64_t)elem);  /* .i */
    pb_varint(&attr, 20, 2);              /* .type = INT */
    pb_str(&node, 2, "s");                /* NodeProto.output */
    pb_str(&node, 4, "SequenceEmpty");    /* .op_type */
    pb_msg(&node, 5, &attr);              /* .attribute */
    pb_varint(&tensor, 1, (uint64_t)elem); /* TypeProto.Tensor.elem_type */
    pb_msg(&tensor_type, 1, &tensor);     /* TypeProto.tensor_type */
    pb_msg(&seq, 1, &tensor_type);        /* TypeProto.Sequence.elem_type */
    pb_msg(&type, 4, &seq);               /* TypeProto.sequence_type */
    pb_str(&out, 1, "s");                 /* ValueInfoProto.name */
    pb_msg(&out, 2, &type);               /* .type */
    pb_msg(&graph, 1, &node);             /* GraphProto.node */
    pb_str(&graph, 2, "empty_sequence");  /* .name */
    pb_msg(&graph, 12, &out);             /* .output */
    pb_varint(&opset, 2, 17);             /* OperatorSetIdProto.version */
    pb_varint(model, 1, 8);               /* ModelProto.ir_version */
    pb_msg(model, 8, &opset);             /* .opset_import */
    pb_msg(model, 7, &graph);             /* .graph */
}

/*
 * ORT's CreateValue cannot make a sequence of no elements, but a model can:
 * the runtime itself runs SequenceEmpty once, and the value it gives back is
 * the input (kept like any sequence's).
 */
static int empty_sequence(const ortkit_session *s, const char *name, const ortkit_value *v,
                          OrtValue **out)
{
    const ortkit_value_type *inner = v->type.inner;
    if (!inner) {
        long idx = ortkit_session_input_index(s, name);
        const ortkit_value_type *declared = idx >= 0 ? s->inputs[idx].value_type : NULL;
        while (declared && declared->kind == ORTKIT_KIND_OPTIONAL)
            declared = declared->inner;
        inner = declared && declared->kind == ORTKIT_KIND_SEQUENCE ? declared->inner : NULL;
    }
    if (!inner || inner->kind != ORTKIT_KIND_TENSOR || !inner->elem)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "input '%s': an empty sequence of anything "
                                 "but tensors of a known type cannot be made", name);
    pb model = {0};
    empty_sequence_model(&model, inner->elem);
    ortkit_session *maker = NULL;
    ortkit_session_options o = ORTKIT_SESSION_OPTIONS_INIT;
    o.intra_op_threads = 1;
    int rc = ortkit_session_open_memory(&maker, s->rt, model.buf, model.n, &o);
    if (rc)
        return ortkit__error_wrap(rc, "input '%s': cannot make an empty sequence", name);
    const char *outs[] = {maker->output_names[0]};
    *out = NULL; /* ORT fills only the outputs given as NULL */
    OrtStatus *st = s->rt->api->Run(maker->ort, NULL, NULL, NULL, 0, outs, 1, out);
    if (st)
        rc = ortkit__ort_error(s->rt, st, ORTKIT_E_RUN, "input '%s': cannot make an empty "
                               "sequence", name);
    ortkit_session_free(maker);
    return rc;
}

/* Whether the runtime's sequence shares all its elements' memory, so the
 * sequence can be made once and kept. */
static int shares_elements(const ortkit_value *v)
{
    for (size_t i = 0; i < v->count; i++)
        if (v->items[i]->type.kind != ORTKIT_KIND_TENSOR ||
            v->items[i]->tensor->type == ORTKIT_TYPE_STRING)
            return 0;
    return 1;
}

static int value_in(const ortkit_session *s, const char *name, const ortkit_value *v, OrtValue **out,
                    int *temp)
{
    const OrtApi *api = s->rt->api;
    *temp = 0;
    switch (v->type.kind) {
    case ORTKIT_KIND_TENSOR:
        return ortkit__run_tensor_in(s, v->tensor, out, temp);
    case ORTKIT_KIND_OPTIONAL:
        if (!v->count)
            return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "input '%s': an optional holding none "
                                     "cannot be placed inside another value", name);
        return value_in(s, name, v->items[0], out, temp);
    case ORTKIT_KIND_MAP:
        *temp = 1;
        return container_in(s, name, v, out);
    case ORTKIT_KIND_SEQUENCE:
        break;
    default:
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "input '%s': values of this kind are not "
                                 "supported", name);
    }
    ortkit__value_cache *cache = atomic_load_explicit(&((ortkit_value *)v)->cache,
                                                      memory_order_acquire);
    if (cache && cache->owner == api) {
        *out = cache->value;
        return ORTKIT_OK;
    }
    int rc = v->count ? container_in(s, name, v, out) : empty_sequence(s, name, v, out);
    *temp = 1;
    if (rc || cache || !shares_elements(v))
        return rc;
    ortkit__value_cache *mine = malloc(sizeof *mine);
    if (!mine)
        return ORTKIT_OK;
    mine->owner = api;
    mine->value = *out;
    mine->release = ortkit__run_cache_release;
    ortkit__value_cache *expected = NULL;
    if (atomic_compare_exchange_strong(&((ortkit_value *)v)->cache, &expected, mine))
        *temp = 0;
    else
        free(mine);
    return ORTKIT_OK;
}

int ortkit__run_value_in(const ortkit_session *s, const char *name, const ortkit_value *v,
                         OrtValue **out, int *temp, int *omit)
{
    *omit = v->type.kind == ORTKIT_KIND_OPTIONAL && !v->count;
    *temp = 0;
    if (*omit)
        return ORTKIT_OK;
    return value_in(s, name, v, out, temp);
}

/* ---- outputs ---------------------------------------------------------- */

static int value_out(const ortkit_session *s, const char *name, const ortkit_value_type *declared,
                     OrtValue *v, ortkit_value **out, int depth);

/* Part i of a sequence or map (ORT copies it out). */
static int part_of(const ortkit_session *s, const char *name, const OrtValue *v, int i,
                   OrtValue **out)
{
    const OrtApi *api = s->rt->api;
    OrtAllocator *alloc;
    OrtStatus *st = api->GetAllocatorWithDefaultOptions(&alloc);
    if (!st)
        st = api->GetValue(v, i, alloc, out);
    return st ? ortkit__ort_error(s->rt, st, ORTKIT_E_ORT, "cannot read output '%s'", name)
              : ORTKIT_OK;
}

static int map_out(const ortkit_session *s, const char *name, const OrtValue *v, ortkit_value **out)
{
    ortkit_tensor *keys = NULL, *values = NULL;
    OrtValue *k = NULL, *x = NULL;
    int rc;
    if ((rc = part_of(s, name, v, 0, &k)) || (rc = ortkit__run_tensor_out(s, name, k, &keys)) ||
        (rc = part_of(s, name, v, 1, &x)) || (rc = ortkit__run_tensor_out(s, name, x, &values)) ||
        (rc = ortkit_value_new_map(out, keys, values))) {
        if (k && !keys)
            s->rt->api->ReleaseValue(k);
        if (x && !values)
            s->rt->api->ReleaseValue(x);
        ortkit_tensor_free(keys);
        ortkit_tensor_free(values);
    }
    return rc;
}

static int sequence_out(const ortkit_session *s, const char *name, const ortkit_value_type *declared,
                        const OrtValue *v, ortkit_value **out, int depth)
{
    const OrtApi *api = s->rt->api;
    size_t n = 0;
    OrtStatus *st = api->GetValueCount(v, &n);
    if (st)
        return ortkit__ort_error(s->rt, st, ORTKIT_E_ORT, "cannot read output '%s'", name);
    ortkit_value **items = calloc(n ? n : 1, sizeof *items);
    if (!items)
        return ortkit__error_nomem_size(n * sizeof *items);
    const ortkit_value_type *inner = declared ? declared->inner : NULL;
    int rc = ORTKIT_OK;
    size_t made = 0;
    for (; made < n && !rc; made++) {
        OrtValue *e = NULL;
        if ((rc = part_of(s, name, v, (int)made, &e)) ||
            (rc = value_out(s, name, inner, e, &items[made], depth + 1)))
            break;
    }
    if (!rc && !(rc = ortkit_value_new_sequence(out, items, n)))
        rc = ortkit__value_set_inner(*out, inner);
    if (rc && *out) {
        ortkit_value_free(*out);
        *out = NULL;
    } else if (rc) {
        for (size_t i = 0; i < made; i++)
            ortkit_value_free(items[i]);
    }
    free(items);
    return rc;
}

/* Takes ownership of v. */
static int value_out(const ortkit_session *s, const char *name, const ortkit_value_type *declared,
                     OrtValue *v, ortkit_value **out, int depth)
{
    const OrtApi *api = s->rt->api;
    *out = NULL;
    int rc = ORTKIT_OK;
    if (depth > MAX_DEPTH) {
        rc = ortkit__error_set(ORTKIT_E_UNSUPPORTED, "output '%s' nests more than %d deep", name,
                               MAX_DEPTH);
        goto cleanup;
    }
    if (declared && declared->kind == ORTKIT_KIND_OPTIONAL) {
        int has = 0;
        OrtStatus *st = api->HasValue(v, &has);
        if (st) {
            rc = ortkit__ort_error(s->rt, st, ORTKIT_E_ORT, "cannot read output '%s'", name);
            goto cleanup;
        }
        ortkit_value *item = NULL;
        if (has) {
            rc = value_out(s, name, declared->inner, v, &item, depth + 1);
            v = NULL;
            if (rc)
                goto cleanup;
        }
        if ((rc = ortkit_value_new_optional(out, item)) ||
            (rc = ortkit__value_set_inner(*out, declared->inner)))
            ortkit_value_free(*out ? *out : item);
        if (rc)
            *out = NULL;
        goto cleanup;
    }
    enum ONNXType kind;
    OrtStatus *st = api->GetValueType(v, &kind);
    if (st) {
        rc = ortkit__ort_error(s->rt, st, ORTKIT_E_ORT, "cannot read output '%s'", name);
        goto cleanup;
    }
    if (kind == ONNX_TYPE_TENSOR) {
        ortkit_tensor *t = NULL;
        rc = ortkit__run_tensor_out(s, name, v, &t);
        v = NULL;
        if (!rc && (rc = ortkit_value_new_tensor(out, t)))
            ortkit_tensor_free(t);
    } else if (kind == ONNX_TYPE_SEQUENCE) {
        rc = sequence_out(s, name, declared, v, out, depth);
    } else if (kind == ONNX_TYPE_MAP) {
        rc = map_out(s, name, v, out);
    } else {
        rc = ortkit__error_set(ORTKIT_E_UNSUPPORTED, "output '%s' is of ONNX type %d, which "
                               "ortkit does not read", name, (int)kind);
    }
cleanup:
    if (v)
        api->ReleaseValue(v);
    return rc;
}

int ortkit__run_value_out(const ortkit_session *s, const char *name,
                          const ortkit_value_type *declared, OrtValue *v, ortkit_value **out)
{
    return value_out(s, name, declared, v, out, 0);
}
