/*
 * view.h - a report's text drawn from its JSON.  A command builds its view
 * once, as the cJSON that --json prints, and draws the text from that same
 * object by a table: of columns where it is a table (cli_view_column), of
 * fields where it is a labelled list (cli_view_field), so the two cannot
 * drift apart (curl's tool_writeout.c and tool_writeout_json.c walk one
 * table the same way).  Text cells and values are escaped as every text
 * from outside is (cli_esc).
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
#define CLI_VIEW_COLUMNS(c) (c), sizeof(c) / sizeof((c)[0])

/* A member (a path of members, "a.b") of o: NULL when one is missing. */
const cJSON *cli_view_at(const cJSON *o, const char *path);

/* How a field writes lines of its own: lead is its label, padded, for the
 * first line (later ones are indented by its width). */
typedef void (*cli_view_lines_fn)(FILE *out, const char *lead, const cJSON *o);

/* A line of a labelled list drawn from an object ("arch        x86_64"):
 * its label, the member it shows (a path, "cpu.model"), or cell, which
 * writes the value from o, or lines, which writes whole lines; and what it
 * shows when the value comes out empty (NULL: the line is left out). */
typedef struct cli_view_field {
    const char *label;
    const char *key;
    cli_view_cell_fn cell;
    cli_view_lines_fn lines;
    const char *absent;
} cli_view_field;

/* The fields of o, one line each: the label through label_fmt ("  %-10s "),
 * then the value, escaped. */
void cli_view_fields(FILE *out, const cJSON *o, const cli_view_field *fields, size_t n,
                     const char *label_fmt);
#define CLI_VIEW_FIELDS(f) (f), sizeof(f) / sizeof((f)[0])

/* A command's view, then freed: printed as JSON (--json), or drawn as text
 * by its fields.  CLI_OK, or CLI_FAIL (with a message) when view is NULL:
 * memory ran out while it was built. */
int cli_view_print(cJSON *view, int json, const cli_view_field *fields, size_t n,
                   const char *label_fmt);

/* An array of strings joined by sep into buf ("a, b"). */
void cli_view_join(const cJSON *array, const char *sep, char *buf, size_t size);

/* A table under its title, drawn from array (NULL: nothing to draw, -1):
 * 0, or -1 when the table could not be made. */
int cli_view_titled_table(FILE *out, const char *title, const cJSON *array,
                          const cli_view_column *columns, size_t n, const char *indent)
    __attribute__((warn_unused_result));

/* Words of a JSON array of strings, escaped, wrapped at 80 columns under
 * the first (cli_print_wrapped); the word none when the array is empty
 * (NULL: lead alone). */
void cli_view_wrapped(FILE *out, const char *lead, const cJSON *array, const char *none);

#endif
