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

/* Summary of a tensor: min, max, mean over numeric elements (NaN skipped). */
typedef struct value_summary {
    double min, max, mean;
    size_t nan_count;
    int numeric;
} value_summary;
void summarize(const ortkit_tensor *t, value_summary *out);
/* The first n elements, "0.1, 0.2, ..." (strings quoted). */
void first_values(const ortkit_tensor *t, size_t n, char *buf, size_t size);

#endif
