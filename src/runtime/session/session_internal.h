/* session_internal.h - the session's insides, shared by the session's files
 * (session*.c) and the run's (run*.c, value_types.c). */
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

/* ---- opening a session (session*.c: session.c uses the rest) -------------- */

/* How the model's format is given to ONNX Runtime: an ONNX model, an ONNX
 * model whose optimised graph is saved in ORT format, or an ORT-format graph. */
typedef enum ortkit__model_format {
    ORTKIT__FORMAT_ONNX,
    ORTKIT__FORMAT_ONNX_SAVE_ORT,
    ORTKIT__FORMAT_ORT
} ortkit__model_format;

/* session_create.c: s->ort made from the model (path, or size bytes at
 * data) through the session cache, as o asks (o may be NULL);
 * s->cache_state and s->cache_reason say what the cache did.
 * optimized_tmp: where ONNX Runtime writes the optimised model, or NULL. */
int ortkit__session_create(ortkit_session *s, const char *path, const void *data, size_t size,
                           const ortkit_session_options *o, const char *optimized_tmp);
/* session_options.c: ONNX Runtime's options for one try at creating the
 * session, providers included (exclude[i] set: provider i is left out, for
 * exclude_reason). */
int ortkit__session_build_options(OrtSessionOptions **out, ortkit_session *s,
                                  const ortkit_session_options *o, const char *optimized_tmp,
                                  ortkit__model_format format, const unsigned char *exclude,
                                  const char *exclude_reason);
/* session_providers.c: the requested providers added to so in order, each
 * one's status in s->providers (the CPU provider last); under the strict
 * policy, the first that cannot be added fails it. */
int ortkit__session_add_providers(ortkit_session *s, OrtSessionOptions *so,
                                  const ortkit_session_options *o, const unsigned char *exclude,
                                  const char *exclude_reason);
void ortkit__session_free_providers(ortkit_session *s);
/* session_io.c: the inputs, outputs and metadata read from s->ort, and freed. */
int ortkit__session_describe(ortkit_session *s);
void ortkit__session_free_io(ortkit_session *s);
/* session_model.c: nonzero, the reason recorded, when ONNX Runtime's
 * "Protobuf parsing failed" is the model nesting too deep; and the inputs
 * and outputs the model declares without a shape given rank SIZE_MAX. */
int ortkit__session_explain_parse_failure(const ortkit_session *s, const char *path,
                                          const void *data, size_t size);
void ortkit__session_find_unshaped(ortkit_session *s, const char *path, const void *data,
                                   size_t size);

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
