/* model_scan.h - what the library reads from a model's bytes without decoding it all. */
#ifndef ORTKIT_MODEL_SCAN_H
#define ORTKIT_MODEL_SCAN_H

#include "ortkit/tensor.h"

#include <stddef.h>
#include <stdint.h>

/* ortkit__pb_check for data as a ModelProto, to ORTKIT__PB_MAX_DEPTH levels. */
int ortkit__model_nesting(const void *data, size_t size, char *why, size_t why_size);

/*
 * Whether data (a ModelProto; label names it in messages) may be given to
 * protobuf-c: ORTKIT_E_MODEL, recorded, when its messages nest deeper than
 * ORTKIT__PB_MAX_DEPTH levels ("nested deeper than 100 levels") or it is
 * no protobuf.
 */
int ortkit__model_check(const void *data, size_t size, const char *label);

/*
 * Call visit for each input and output of the model's main graph whose type
 * is a tensor with no shape at all (the rank unknown, not a scalar): name
 * points into data, len bytes, not NUL-terminated.  ONNX Runtime reports
 * such a tensor with no dimensions, as it does a scalar; this tells them
 * apart.  Reads tags only (initializers are skipped unread); bytes that are
 * no protobuf end the scan quietly.
 */
void ortkit__model_unshaped_io(const void *data, size_t size,
                               void (*visit)(void *ctx, int output, const char *name, size_t len),
                               void *ctx);

/* One input of a model's main graph, as the file declares it. */
typedef struct ortkit__model_input {
    char *name;
    int tensor;                      /* a tensor or sparse tensor; 0: a sequence, map, optional */
    int shaped;                      /* a shape is declared (else the rank is unknown) */
    size_t rank;
    int64_t dims[ORTKIT_MAX_RANK];   /* a fixed size, or -1 */
    char *symbols[ORTKIT_MAX_RANK];  /* the symbolic dimension's name, or NULL */
} ortkit__model_input;

/*
 * The inputs of data's main graph (a ModelProto) that no initialiser of the
 * graph names, in the file's order: the inputs ONNX Runtime asks a caller
 * for.  Reads tags only, so it costs a walk over the graph's fields, never
 * a decode of its weights.  ORTKIT_E_MODEL (recorded) when the bytes are no
 * model with a graph, or an input's rank exceeds ORTKIT_MAX_RANK.
 */
int ortkit__model_inputs(ortkit__model_input **out, size_t *count, const void *data, size_t size,
                         const char *label);
void ortkit__model_inputs_free(ortkit__model_input *inputs, size_t count);

#endif
