/*
 * view.h - a report's text drawn from its JSON.  A command builds its view
 * once, as the cJSON that --json prints, and draws the text from that same
 * object by a table of fields, so the two cannot drift apart (curl's
 * tool_writeout.c and tool_writeout_json.c walk one table the same way).
 * Text cells are escaped as every text from outside is (cli_table).
 */
#ifndef ORTKIT_CLI_VIEW_H
#define ORTKIT_CLI_VIEW_H

#include "cli.h"

/* A member of o as text: a string as it is, a number as %g, true/false as
 * "yes"/"no"; "" when absent or null.  A number or bool is written into a
 * small buffer of the calling thread that the next 15 calls keep. */
const char *cli_view_str(const cJSON *o, const char *key);
/* A member of o as a number (0 when absent), and as a bool (false when absent). */
double cli_view_num(const cJSON *o, const char *key);
int cli_view_bool(const cJSON *o, const char *key);

/* Writing a view: numbers added to o in the order given, by a table
 * (CLI_VIEW_ADD_NUMBERS(o, {"p50_s", p50}, {"runs", (double)runs})). */
typedef struct cli_view_number {
    const char *key;
    double value;
} cli_view_number;
void cli_view_add_numbers(cJSON *o, const cli_view_number *numbers, size_t n);
#define CLI_VIEW_ADD_NUMBERS(o, ...)                                                               \
    cli_view_add_numbers((o), (const cli_view_number[]){__VA_ARGS__},                              \
                         sizeof((const cli_view_number[]){__VA_ARGS__}) / sizeof(cli_view_number))

/* How a cell is drawn from its object when the member as text is not it. */
typedef void (*cli_view_cell_fn)(const cJSON *o, char *buf, size_t size);

/* A column of a table drawn from a JSON array of objects: its header, the
 * member it shows (or cell, which writes the cell), its alignment, and
 * what it shows where the member is absent or null (NULL: nothing). */
typedef struct cli_view_column {
    const char *header;
    const char *key;
    cli_view_cell_fn cell;
    int right;
    const char *absent;
} cli_view_column;

/* The array's objects as a cli_table, one row each, printed with indent:
 * 0, or -1 (nothing printed) when memory runs out. */
int cli_view_table(FILE *out, const cJSON *array, const cli_view_column *columns, size_t n,
                   const char *indent) __attribute__((warn_unused_result));

#endif
