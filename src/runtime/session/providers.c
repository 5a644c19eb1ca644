/*
 * providers.c - execution providers by name: the short names users type,
 * ORT's names, and the name ORT's generic append function expects.
 */
#include "session_internal.h"

#include <string.h>
#include <strings.h>

/* Short names users type, ORT's names, and the name the generic
 * SessionOptionsAppendExecutionProvider() expects. */
static const ortkit__provider_name provider_names[] = {
    {"cpu", "CPUExecutionProvider", NULL},
    {"cuda", "CUDAExecutionProvider", NULL},
    {"tensorrt", "TensorrtExecutionProvider", NULL},
    {"trt", "TensorrtExecutionProvider", NULL},
    {"openvino", "OpenVINOExecutionProvider", "OpenVINO"},
    {"dnnl", "DnnlExecutionProvider", "DNNL"},
    {"xnnpack", "XnnpackExecutionProvider", "XNNPACK"},
    {"qnn", "QNNExecutionProvider", "QNN"},
    {"snpe", "SNPEExecutionProvider", "SNPE"},
    {"coreml", "CoreMLExecutionProvider", "CoreML"},
    {"webgpu", "WebGpuExecutionProvider", "WebGPU"},
    {"azure", "AzureExecutionProvider", "AZURE"},
    {"rocm", "ROCMExecutionProvider", "ROCM"},
    {"migraphx", "MIGraphXExecutionProvider", "MIGraphX"},
    {"vitisai", "VitisAIExecutionProvider", "VitisAI"},
};

const ortkit__provider_name *ortkit__provider_lookup(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof provider_names / sizeof provider_names[0]; i++) {
        const ortkit__provider_name *p = &provider_names[i];
        if ((strlen(p->alias) == len && !strncasecmp(name, p->alias, len)) ||
            (strlen(p->ort_name) == len && !strncasecmp(name, p->ort_name, len)))
            return p;
    }
    return NULL;
}

const char *ortkit__provider_ort_name(const char *name, size_t len)
{
    const ortkit__provider_name *p = ortkit__provider_lookup(name, len);
    return p ? p->ort_name : NULL;
}
