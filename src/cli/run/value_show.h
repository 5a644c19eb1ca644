/* value_show.h - values of every kind in the `run` table and in JSON. */
#ifndef ORTKIT_CLI_VALUE_SHOW_H
#define ORTKIT_CLI_VALUE_SHOW_H

#include "cli.h"
#include "ortkit.h"
#include "values.h"

/* Add v's members to the JSON object o (its view): a tensor's type, shape,
 * min, max, mean, first values; for other kinds "kind" and "value_type",
 * then a sequence's "length" and "items", a map's keys and values, an
 * optional's "has_value" and "value". */
void value_view(cJSON *o, const ortkit_value *v);
/* The rows of a value, drawn from its view o, named name, in a table of
 * the columns output, type, shape, min, max, mean, first values.  0, or -1
 * (out of memory). */
int value_rows(cli_table *t, const char *name, const cJSON *o);

#endif
