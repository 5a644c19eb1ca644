/*
 * selftest.c - does a runtime really work here?  A one-node model (Neg on
 * float32[4]) is built in memory with protobuf-c, opened on one execution
 * provider and run; the answer is checked element by element.  No file is
 * needed, so `ortkit doctor` can check any runtime anywhere.
 */
#include "core.h"
#include "ortkit/tools/selftest.h"

#include "onnx.pb-c.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* IR 7 and opset 13: understood by every ORT ortkit supports (1.17+). */
#define SELFTEST_IR 7
#define SELFTEST_OPSET 13

/* The serialised model; free() it. */
static uint8_t *build_model(size_t *size)
{
    Onnx__TensorShapeProto__Dimension dim = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__INIT;
    dim.value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
    dim.dim_value = 4;
    Onnx__TensorShapeProto__Dimension *dims[] = {&dim};
    Onnx__TensorShapeProto shape = ONNX__TENSOR_SHAPE_PROTO__INIT;
    shape.n_dim = 1;
    shape.dim = dims;
    Onnx__TypeProto__Tensor tensor = ONNX__TYPE_PROTO__TENSOR__INIT;
    tensor.has_elem_type = 1;
    tensor.elem_type = ORTKIT_TYPE_FLOAT32;
    tensor.shape = &shape;
    Onnx__TypeProto type = ONNX__TYPE_PROTO__INIT;
    type.value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
    type.tensor_type = &tensor;

    Onnx__ValueInfoProto x = ONNX__VALUE_INFO_PROTO__INIT, y = ONNX__VALUE_INFO_PROTO__INIT;
    x.name = "x";
    x.type = &type;
    y.name = "y";
    y.type = &type;
    Onnx__ValueInfoProto *inputs[] = {&x}, *outputs[] = {&y};

    char *node_in[] = {"x"}, *node_out[] = {"y"};
    Onnx__NodeProto node = ONNX__NODE_PROTO__INIT;
    node.n_input = 1;
    node.input = node_in;
    node.n_output = 1;
    node.output = node_out;
    node.name = "neg";
    node.op_type = "Neg";
    Onnx__NodeProto *nodes[] = {&node};

    Onnx__GraphProto graph = ONNX__GRAPH_PROTO__INIT;
    graph.name = "ortkit_selftest";
    graph.n_node = 1;
    graph.node = nodes;
    graph.n_input = 1;
    graph.input = inputs;
    graph.n_output = 1;
    graph.output = outputs;

    Onnx__OperatorSetIdProto opset = ONNX__OPERATOR_SET_ID_PROTO__INIT;
    opset.domain = "";
    opset.has_version = 1;
    opset.version = SELFTEST_OPSET;
    Onnx__OperatorSetIdProto *opsets[] = {&opset};
    Onnx__ModelProto model = ONNX__MODEL_PROTO__INIT;
    model.has_ir_version = 1;
    model.ir_version = SELFTEST_IR;
    model.n_opset_import = 1;
    model.opset_import = opsets;
    model.producer_name = "ortkit";
    model.graph = &graph;

    *size = onnx__model_proto__get_packed_size(&model);
    uint8_t *buf = malloc(*size ? *size : 1);
    if (buf)
        onnx__model_proto__pack(&model, buf);
    return buf;
}

/* The answer: the caller's view first (the caller's pointer is this one's),
 * then the text it points at. */
typedef struct answer {
    ortkit_selftest pub;
    char provider[64];
    char detail[2048];
} answer;

void ortkit_selftest_free(ortkit_selftest *test)
{
    free(test);
}

/* Fill *out (provider and detail already point at its buffers). */
static void run(answer *out, ortkit_runtime *rt, const char *provider)
{
    int want_cpu = !provider || !provider[0] || !strcmp(provider, "cpu") ||
                   !strcmp(provider, "CPUExecutionProvider");
    snprintf(out->provider, sizeof out->provider, "%s", want_cpu ? "CPUExecutionProvider" : provider);

    size_t size = 0;
    uint8_t *model = build_model(&size);
    ortkit_session *s = NULL;
    ortkit_tensor *in = NULL, *res = NULL;
    if (!model) {
        snprintf(out->detail, sizeof out->detail, "out of memory");
        return;
    }
    ortkit_session_options so = ORTKIT_SESSION_OPTIONS_INIT;
    const char *const list[] = {provider};
    if (!want_cpu) {
        so.providers = list;
        so.provider_count = 1;
        so.ep_policy = ORTKIT_EP_STRICT;
    }
    so.intra_op_threads = 1;
    double t0 = ortkit__clock_now();
    if (ortkit_session_open_memory(&s, rt, model, size, &so) != 0) {
        snprintf(out->detail, sizeof out->detail, "%s", ortkit_error_last());
        goto cleanup;
    }
    /* The provider the session really got for the first place. */
    const ortkit_provider_status *ps = ortkit_session_provider(s, 0);
    if (ps && !ps->active) {
        snprintf(out->detail, sizeof out->detail, "not added: %s", ps->reason);
        goto cleanup;
    }
    if (ps)
        snprintf(out->provider, sizeof out->provider, "%s", ps->name);

    float x[4] = {1.0f, -2.0f, 3.5f, 0.25f};
    const int64_t shape[] = {4};
    if (ortkit_tensor_borrow(&in, ORTKIT_TYPE_FLOAT32, shape, 1, x, sizeof x) != 0 ||
        ortkit_session_infer(s, (const ortkit_tensor *const *)&in, 1, &res, 1) != 0) {
        snprintf(out->detail, sizeof out->detail, "%s", ortkit_error_last());
        goto cleanup;
    }
    out->pub.seconds = ortkit__clock_now() - t0;
    const float *y = ortkit_tensor_data(res);
    if (ortkit_tensor_type(res) != ORTKIT_TYPE_FLOAT32 || ortkit_tensor_count(res) != 4 || !y) {
        snprintf(out->detail, sizeof out->detail, "wrong output: expected float32[4]");
        goto cleanup;
    }
    for (int i = 0; i < 4; i++) {
        if (y[i] != -x[i]) {
            snprintf(out->detail, sizeof out->detail, "wrong result: Neg(%g) gave %g", (double)x[i],
                     (double)y[i]);
            goto cleanup;
        }
    }
    out->pub.ok = 1;
cleanup:
    ortkit_tensor_free(res);
    ortkit_tensor_free(in);
    ortkit_session_free(s);
    free(model);
}

int ortkit_selftest_run(ortkit_selftest **out, ortkit_runtime *rt, const char *provider)
{
    if (!out)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_selftest_run: out is NULL");
    *out = NULL;
    if (!rt)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_selftest_run: runtime is NULL");
    answer *a = calloc(1, sizeof *a);
    if (!a)
        return ortkit__error_nomem();
    a->pub.provider = a->provider;
    a->pub.detail = a->detail;
    run(a, rt, provider);
    *out = &a->pub;
    return ORTKIT_OK;
}
