/* values.h - element values as doubles, input generation and summaries for the commands. */
#ifndef ORTKIT_CLI_VALUES_H
#define ORTKIT_CLI_VALUES_H

#include "ortkit.h"

#include <stddef.h>

/* Element i as a double; 0 for strings and types without a numeric reading. */
double value_at(const ortkit_tensor *t, size_t i);
/* Whether value_at gives a meaningful number for this type. */
int value_numeric(ortkit_type type);

typedef enum { FILL_NONE, FILL_ZEROS, FILL_RANDOM } fill_mode;

/* A symbolic dimension given on the command line (--dim batch=4). */
typedef struct dim_value {
    const char *symbol;
    int64_t value;
} dim_value;

/* make_input's answer for an input of unknown rank (or above ORTKIT_MAX_RANK). */
#define VALUES_NO_RANK (-100)

/*
 * A tensor for a model input: zeros or random values of its type, with its
 * symbolic dimensions from dims.  Unknown symbols are appended to missing
 * (comma-separated) and the function returns non-zero without a tensor;
 * an input it cannot shape gives VALUES_NO_RANK.
 */
int make_input(ortkit_tensor **out, const ortkit_io_info *io, fill_mode fill, const dim_value *dims,
               size_t n_dims, unsigned *seed, char *missing, size_t missing_size);
/* A tensor of this type and shape, zeros or random (--shape). */
int make_tensor(ortkit_tensor **out, ortkit_type type, const int64_t *shape, size_t rank,
                fill_mode fill, unsigned *seed);

/*
 * A value of type t for a model input that is not a plain tensor, zeros or
 * random: a sequence of GENERATED_ITEMS elements, a map of GENERATED_LENGTH
 * entries (keys 0, 1, 2... or "a", "b", "c"...), an optional holding a
 * value; tensors inside them are 1-D, GENERATED_LENGTH long.
 * VALUES_NO_RANK for a type that says too little (an unknown element type).
 */
#define GENERATED_ITEMS 2
#define GENERATED_LENGTH 3
int make_value(ortkit_value **out, const ortkit_value_type *t, fill_mode fill, unsigned *seed);

/* Summary of a tensor: min, max, mean over numeric elements (NaN skipped). */
typedef struct value_summary {
    double min, max, mean;
    size_t nan_count;
    int numeric;
} value_summary;
void summarize(const ortkit_tensor *t, value_summary *out);
/* Element i as text: "0.1", "\"word\"" (strings quoted). */
void first_values_at(const ortkit_tensor *t, size_t i, char *buf, size_t size);
/* The first n elements, "0.1, 0.2, ..." (strings quoted). */
void first_values(const ortkit_tensor *t, size_t n, char *buf, size_t size);

#endif
