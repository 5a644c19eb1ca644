/* model_file.c - what an .onnx file says about itself, decoded with protobuf-c. */
#include "internal.h"

#include "onnx.pb-c.h"

#include <stdlib.h>
#include <string.h>

/* Models above this are refused here; ORT's own limit for one protobuf is 2 GiB. */
#define MODEL_MAX_BYTES ((size_t)2 << 30)

struct model_file {
    ortkit_model_file pub;
    ortkit_opset *opsets;
};

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
    Onnx__ModelProto *m = onnx__model_proto__unpack(NULL, size, (const uint8_t *)data);
    free(data);
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
