/* model_scan.h - what the library reads from a model's bytes without decoding it all. */
#ifndef ORTKIT_MODEL_SCAN_H
#define ORTKIT_MODEL_SCAN_H

#include <stddef.h>

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

#endif
