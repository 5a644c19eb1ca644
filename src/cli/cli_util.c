/* cli_util.c - messages, tables and JSON for the commands. */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int cli_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ortkit: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return CLI_FAIL;
}

int cli_vusage(FILE *err, const char *cmd, const char *fmt, va_list ap)
{
    fprintf(err, "ortkit %s: ", cmd);
    vfprintf(err, fmt, ap);
    fprintf(err, "\n(see 'ortkit %s --help')\n", cmd);
    return CLI_USAGE;
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vusage(stderr, cmd, fmt, ap);
    va_end(ap);
    return CLI_USAGE;
}

int cli_fail_lib(void) { return cli_fail("%s", ortkit_error_last()); }

int cli_parse_long(const char *s, long min, long max, long *out)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

struct cli_table {
    size_t columns, rows, cap;
    char **headers;
    char **cells; /* rows x columns */
    unsigned char *right;
    int lost;     /* a row could not be added: printing the rest would mislead */
};

cli_table *cli_table_new(size_t columns, const char *const *headers)
{
    cli_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->columns = columns;
    t->headers = calloc(columns, sizeof *t->headers);
    t->right = calloc(columns, 1);
    if (!t->headers || !t->right) {
        cli_table_free(t);
        return NULL;
    }
    for (size_t c = 0; headers && c < columns; c++) {
        if (!(t->headers[c] = strdup(headers[c] ? headers[c] : ""))) {
            cli_table_free(t);
            return NULL;
        }
    }
    return t;
}

void cli_table_align_right(cli_table *t, size_t column)
{
    if (t && column < t->columns)
        t->right[column] = 1;
}

int cli_table_add(cli_table *t, const char *const *cells)
{
    if (!t)
        return -1;
    if (t->rows == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 8;
        char **grown = realloc(t->cells, cap * t->columns * sizeof *grown);
        if (!grown) {
            t->lost = 1;
            return -1;
        }
        t->cells = grown;
        t->cap = cap;
    }
    char **row = t->cells + t->rows * t->columns;
    for (size_t c = 0; c < t->columns; c++) {
        if (!(row[c] = strdup(cells[c] ? cells[c] : ""))) {
            while (c > 0)
                free(row[--c]);
            t->lost = 1;
            return -1;
        }
    }
    t->rows++;
    return 0;
}

/* Display width of UTF-8 text: count code points, not bytes. */
static size_t text_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

/* Append one cell, padded to width, to line (of size room). */
static void put_cell(char *line, size_t room, const char *s, size_t width, int right)
{
    size_t used = strlen(line), pad = width - text_width(s);
    if (right)
        snprintf(line + used, room - used, "%*s%s", (int)pad, "", s);
    else
        snprintf(line + used, room - used, "%s%*s", s, (int)pad, "");
}

int cli_table_print(const cli_table *t, FILE *out, const char *indent)
{
    if (!t || t->lost)
        return -1;
    size_t *width = calloc(t->columns, sizeof *width);
    if (!width)
        return -1;
    for (size_t c = 0; c < t->columns; c++) {
        width[c] = text_width(t->headers[c] ? t->headers[c] : "");
        for (size_t r = 0; r < t->rows; r++) {
            const char *cell = t->cells[r * t->columns + c];
            size_t w = text_width(cell ? cell : "");
            if (w > width[c])
                width[c] = w;
        }
    }
    size_t room = 1;
    for (size_t c = 0; c < t->columns; c++)
        room += width[c] * 4 + 2; /* UTF-8: up to 4 bytes per column of width */
    char *line = malloc(room);
    int rc = line ? 0 : -1;
    for (size_t r = 0; line && r <= t->rows; r++) {
        line[0] = '\0';
        for (size_t c = 0; c < t->columns; c++) {
            const char *cell = r == 0 ? t->headers[c] : t->cells[(r - 1) * t->columns + c];
            if (c)
                strcat(line, "  ");
            put_cell(line, room, cell ? cell : "", width[c], t->right[c]);
        }
        /* Padding of empty trailing cells is noise for diff and copy-paste. */
        size_t len = strlen(line);
        while (len && line[len - 1] == ' ')
            line[--len] = '\0';
        fprintf(out, "%s%s\n", indent ? indent : "", line);
    }
    free(line);
    free(width);
    return rc;
}

void cli_print_wrapped(FILE *out, const char *lead, const char *const *words, size_t n)
{
    size_t start = strlen(lead), col = start;
    fputs(lead, out);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(words[i]);
        if (col > start && col + 1 + len > 80) {
            fprintf(out, "\n%*s", (int)start, "");
            col = start;
        }
        col += (size_t)fprintf(out, "%s%s", col > start ? " " : "", words[i]);
    }
    fputc('\n', out);
}

void cli_table_free(cli_table *t)
{
    if (!t)
        return;
    for (size_t c = 0; t->headers && c < t->columns; c++)
        free(t->headers[c]);
    for (size_t i = 0; i < t->rows * t->columns; i++)
        free(t->cells[i]);
    free(t->headers);
    free(t->cells);
    free(t->right);
    free(t);
}

int cli_json_print(cJSON *item)
{
    if (!item)
        return cli_fail("out of memory while writing JSON");
    char *text = cJSON_Print(item);
    cJSON_Delete(item);
    if (!text)
        return cli_fail("out of memory while writing JSON");
    puts(text);
    free(text);
    return CLI_OK;
}

int cli_open_runtime(ortkit_runtime **out, const char *path)
{
    ortkit_runtime_options o = ORTKIT_RUNTIME_OPTIONS_INIT;
    o.path = path;
    const char *log = getenv("ORTKIT_LOG");
    if (log && *log) {
        long level;
        if (!cli_parse_long(log, 1, 5, &level))
            o.log_level = (ortkit_log_level)level;
    }
    return ortkit_runtime_open(out, &o);
}
