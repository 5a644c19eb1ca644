/* session.h - the session's insides, shared by session.c and run.c. */
#ifndef ORTKIT_SESSION_H
#define ORTKIT_SESSION_H

#include "runtime.h"

struct ortkit_session {
    ortkit_runtime *rt; /* one reference held */
    OrtSession *ort;
    char *label; /* the model's path, or "<memory>", for messages */
    size_t input_count, output_count;
    ortkit_io_info *inputs, *outputs;
    const char **input_names, **output_names; /* point into inputs/outputs, for OrtApi::Run */
    ortkit_model_metadata meta;
    ortkit_provider_status *providers;
    size_t provider_count;
    ortkit_cache_state cache_state; /* what the session cache did */
    char *cache_reason;             /* "" or why it was skipped or rebuilt */
    void *cache_map;                /* the cache entry ONNX Runtime uses in place (a hit) */
    size_t cache_map_size;
};

#endif
