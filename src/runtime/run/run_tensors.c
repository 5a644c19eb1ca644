/*
 * run_tensors.c - tensors to and from ONNX Runtime: an input's ORT value
 * made over the caller's buffer (kept for the next run), an output wrapped
 * as a tensor that owns ORT's memory.
 */
#include "session_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ortkit__run_cache_release(ortkit__value_cache *cache)
{
    ((const OrtApi *)cache->owner)->ReleaseValue(cache->value);
    free(cache);
}

static OrtStatus *string_value(const ortkit_runtime *rt, const ortkit_tensor *t, OrtValue **out)
{
    const OrtApi *api = rt->api;
    OrtAllocator *alloc;
    OrtStatus *st = api->GetAllocatorWithDefaultOptions(&alloc);
    if (!st)
        st = api->CreateTensorAsOrtValue(alloc, t->shape, t->rank,
                                         ONNX_TENSOR_ELEMENT_DATA_TYPE_STRING, out);
    if (!st && t->count)
        st = api->FillStringTensor(*out, (const char *const *)t->strings, t->count);
    if (st && *out) {
        api->ReleaseValue(*out);
        *out = NULL;
    }
    return st;
}

/*
 * The ORT value for an input tensor.  Numeric tensors keep the value they got
 * on their first run (made over their own memory), so later runs cost nothing;
 * *temp is set when the caller must release the value after the run.
 */
int ortkit__run_tensor_in(const ortkit_session *s, const ortkit_tensor *t, OrtValue **out, int *temp)
{
    const ortkit_runtime *rt = s->rt;
    const OrtApi *api = rt->api;
    *temp = 0;
    ortkit__value_cache *cache = atomic_load_explicit(&((ortkit_tensor *)t)->cache, memory_order_acquire);
    if (cache && cache->owner == api) {
        *out = cache->value;
        return ORTKIT_OK;
    }
    OrtValue *v = NULL;
    OrtStatus *st;
    if (t->type == ORTKIT_TYPE_STRING) {
        st = string_value(rt, t, &v);
        *temp = 1; /* strings are copied in; set_string may change them later */
    } else {
        static char empty_data[1];
        st = api->CreateTensorWithDataAsOrtValue(rt->cpu_memory, t->data ? t->data : empty_data,
                                                 t->nbytes, t->shape, t->rank,
                                                 (ONNXTensorElementDataType)t->type, &v);
    }
    if (st)
        return ortkit__ort_error(rt, st, ORTKIT_E_ORT, "cannot pass tensor to the runtime");
    *out = v;
    if (cache)
        *temp = 1; /* the tensor keeps a value of another runtime: use this one once */
    if (*temp)
        return ORTKIT_OK;
    ortkit__value_cache *mine = malloc(sizeof *mine);
    if (!mine) {
        *temp = 1;
        return ORTKIT_OK;
    }
    mine->owner = api;
    mine->value = v;
    mine->release = ortkit__run_cache_release;
    ortkit__value_cache *expected = NULL;
    if (!atomic_compare_exchange_strong(&((ortkit_tensor *)t)->cache, &expected, mine)) {
        free(mine); /* another thread cached one first; ours is used once */
        *temp = 1;
    }
    return ORTKIT_OK;
}

/* Turn an ORT output into an ortkit tensor; takes ownership of v. */
int ortkit__run_tensor_out(const ortkit_session *s, const char *name, OrtValue *v, ortkit_tensor **out)
{
    const ortkit_runtime *rt = s->rt;
    const OrtApi *api = rt->api;
    OrtTensorTypeAndShapeInfo *ti = NULL;
    ONNXTensorElementDataType et;
    size_t rank = 0;
    int64_t shape[ORTKIT_MAX_RANK];
    int rc = ORTKIT_OK;
    OrtStatus *st = api->GetTensorTypeAndShape(v, &ti);
    if (!st)
        st = api->GetTensorElementType(ti, &et);
    if (!st)
        st = api->GetDimensionsCount(ti, &rank);
    if (!st && rank > ORTKIT_MAX_RANK) {
        rc = ortkit__error_set(ORTKIT_E_UNSUPPORTED, "output '%s' has rank %zu, above %d", name,
                               rank, ORTKIT_MAX_RANK);
        goto done;
    }
    if (!st)
        st = api->GetDimensions(ti, shape, rank);
    if (st) {
        rc = ortkit__ort_error(rt, st, ORTKIT_E_ORT, "cannot read output '%s'", name);
        goto done;
    }
    if (et == ONNX_TENSOR_ELEMENT_DATA_TYPE_STRING) {
        /* ORT keeps strings in its own form: copy them out. */
        if ((rc = ortkit_tensor_new(out, ORTKIT_TYPE_STRING, shape, rank)))
            goto done;
        for (size_t i = 0; i < (*out)->count; i++) {
            size_t len = 0;
            char *buf = NULL;
            if ((st = api->GetStringTensorElementLength(v, i, &len)) || !(buf = malloc(len + 1)) ||
                (st = api->GetStringTensorElement(v, len, i, buf))) {
                free(buf);
                rc = st ? ortkit__ort_error(rt, st, ORTKIT_E_ORT, "cannot read output '%s'", name)
                        : ortkit__error_nomem();
                ortkit_tensor_free(*out);
                *out = NULL;
                goto done;
            }
            buf[len] = '\0';
            free((*out)->strings[i]);
            (*out)->strings[i] = buf;
        }
        goto done;
    }
    void *data = NULL;
    if ((st = api->GetTensorMutableData(v, &data))) {
        rc = ortkit__ort_error(rt, st, ORTKIT_E_ORT, "cannot read output '%s'", name);
        goto done;
    }
    ortkit__value_cache *cache = malloc(sizeof *cache);
    if (!cache) {
        rc = ortkit__error_nomem();
        goto done;
    }
    /* The tensor owns the ORT value through its cache, so feeding an output
     * back in as an input (recurrent state) reuses it as is. */
    if ((rc = ortkit__tensor_wrap(out, (ortkit_type)et, shape, rank, data, NULL, NULL))) {
        free(cache);
        goto done;
    }
    cache->owner = api;
    cache->value = v;
    cache->release = ortkit__run_cache_release;
    atomic_store(&(*out)->cache, cache);
    v = NULL;
done:
    if (ti)
        api->ReleaseTensorTypeAndShapeInfo(ti);
    if (v)
        api->ReleaseValue(v);
    return rc;
}
