/*
 * value_types.c - ONNX Runtime's type info read as ortkit's value types
 * (tensor, sequence, map, optional, nested), for a session's inputs and
 * outputs and for values run.
 */
#include "session_internal.h"

#include <stdlib.h>

#define MAX_DEPTH 32

static int type_from_info(const ortkit_runtime *rt, const OrtTypeInfo *info, ortkit_value_type **out,
                          int depth);

static int ort_fail(const ortkit_runtime *rt, OrtStatus *st)
{
    return ortkit__ort_error(rt, st, ORTKIT_E_ORT, "cannot read a value type");
}

/* The element type of a tensor type info (UNDEFINED when ORT has none). */
static int tensor_elem(const ortkit_runtime *rt, const OrtTypeInfo *info, ortkit_type *out)
{
    const OrtApi *api = rt->api;
    const OrtTensorTypeAndShapeInfo *ti = NULL;
    ONNXTensorElementDataType et = ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED;
    OrtStatus *st = api->CastTypeInfoToTensorInfo(info, &ti);
    if (!st && ti)
        st = api->GetTensorElementType(ti, &et);
    if (st)
        return ort_fail(rt, st);
    *out = (ortkit_type)et;
    return ORTKIT_OK;
}

static int inner_of(const ortkit_runtime *rt, ONNXType kind, const OrtTypeInfo *info,
                    ortkit_value_type *t, int depth)
{
    const OrtApi *api = rt->api;
    OrtTypeInfo *inner = NULL;
    OrtStatus *st = NULL;
    if (kind == ONNX_TYPE_SEQUENCE) {
        const OrtSequenceTypeInfo *seq = NULL;
        if (!(st = api->CastTypeInfoToSequenceTypeInfo(info, &seq)) && seq)
            st = api->GetSequenceElementType(seq, &inner);
    } else if (kind == ONNX_TYPE_MAP) {
        const OrtMapTypeInfo *map = NULL;
        ONNXTensorElementDataType key = ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED;
        if (!(st = api->CastTypeInfoToMapTypeInfo(info, &map)) && map &&
            !(st = api->GetMapKeyType(map, &key)))
            st = api->GetMapValueType(map, &inner);
        t->key = (ortkit_type)key;
    } else {
        const OrtOptionalTypeInfo *opt = NULL;
        if (!(st = api->CastTypeInfoToOptionalTypeInfo(info, &opt)) && opt)
            st = api->GetOptionalContainedTypeInfo(opt, &inner);
    }
    if (st)
        return ort_fail(rt, st);
    if (!inner)
        return ORTKIT_OK;
    ortkit_value_type *it = NULL;
    int rc = type_from_info(rt, inner, &it, depth + 1);
    api->ReleaseTypeInfo(inner); /* each Get...Type hands out its own copy */
    t->inner = it;
    return rc;
}

static int type_from_info(const ortkit_runtime *rt, const OrtTypeInfo *info, ortkit_value_type **out,
                          int depth)
{
    const OrtApi *api = rt->api;
    *out = NULL;
    if (depth > MAX_DEPTH)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "a value type nests more than %d deep",
                                 MAX_DEPTH);
    enum ONNXType kind;
    OrtStatus *st = api->GetOnnxTypeFromTypeInfo(info, &kind);
    if (st)
        return ort_fail(rt, st);
    ortkit_value_type *t = calloc(1, sizeof *t);
    if (!t)
        return ortkit__error_nomem();
    *out = t;
    switch (kind) {
    case ONNX_TYPE_TENSOR:
    case ONNX_TYPE_SPARSETENSOR:
        t->kind = kind == ONNX_TYPE_TENSOR ? ORTKIT_KIND_TENSOR : ORTKIT_KIND_SPARSE_TENSOR;
        return tensor_elem(rt, info, &t->elem);
    case ONNX_TYPE_SEQUENCE:
    case ONNX_TYPE_MAP:
    case ONNX_TYPE_OPTIONAL:
        t->kind = kind == ONNX_TYPE_SEQUENCE ? ORTKIT_KIND_SEQUENCE
                  : kind == ONNX_TYPE_MAP    ? ORTKIT_KIND_MAP
                                             : ORTKIT_KIND_OPTIONAL;
        return inner_of(rt, kind, info, t, depth);
    default:
        t->kind = ORTKIT_KIND_UNKNOWN;
        return ORTKIT_OK;
    }
}

int ortkit__run_type_from_info(const ortkit_runtime *rt, const OrtTypeInfo *info,
                               ortkit_value_type **out)
{
    int rc = type_from_info(rt, info, out, 0);
    if (rc) {
        ortkit__value_type_free(*out);
        *out = NULL;
    }
    return rc;
}
