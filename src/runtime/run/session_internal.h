/* session_internal.h - the session's insides, shared by session.c and run.c. */
#ifndef ORTKIT_SESSION_INTERNAL_H
#define ORTKIT_SESSION_INTERNAL_H

#include "runtime_internal.h"

#include <search.h>

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
    /* Name -> index, made once (a model may have tens of thousands of
     * inputs, each looked up at every run); only read after the open. */
    struct hsearch_data input_table, output_table;
    int input_table_made, output_table_made;
};

/* run.c: tensors to and from the runtime.  _in sets *temp when the caller
 * releases the value after the run (otherwise the tensor keeps it); _out
 * takes ownership of v. */
int ortkit__run_tensor_in(const ortkit_session *s, const ortkit_tensor *t, OrtValue **out, int *temp);
int ortkit__run_tensor_out(const ortkit_session *s, const char *name, OrtValue *v, ortkit_tensor **out);
void ortkit__run_cache_release(ortkit__value_cache *cache);

/* run_values.c: values of every kind to and from the runtime.  *omit is set
 * for an optional holding none, which is not fed at all. */
int ortkit__run_value_in(const ortkit_session *s, const char *name, const ortkit_value *v,
                         OrtValue **out, int *temp, int *omit);
int ortkit__run_value_out(const ortkit_session *s, const char *name,
                          const ortkit_value_type *declared, OrtValue *v, ortkit_value **out);
/* The whole type an ORT type info describes (for session introspection). */
int ortkit__run_type_from_info(const ortkit_runtime *rt, const OrtTypeInfo *info,
                               ortkit_value_type **out);

/* ---- execution providers by name (providers.c) ---------------------------- */

typedef struct ortkit__provider_name {
    const char *alias;    /* "cuda" */
    const char *ort_name; /* "CUDAExecutionProvider" */
    const char *generic;  /* the name SessionOptionsAppendExecutionProvider() takes, or NULL */
} ortkit__provider_name;

/* The provider a user's name (len bytes: an alias or ORT's name, any case)
 * stands for; NULL when unknown. */
const ortkit__provider_name *ortkit__provider_lookup(const char *name, size_t len);
/* Its ORT name ("cuda" -> "CUDAExecutionProvider"); NULL when unknown. */
const char *ortkit__provider_ort_name(const char *name, size_t len);

#endif
