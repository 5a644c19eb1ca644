/* cli_util.c - messages, tables and JSON for the commands. */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The length of the UTF-8 sequence at s, or 0 when s does not start one:
 * a stray continuation byte, an overlong form, a surrogate, beyond U+10FFFF
 * or cut short.
 */
static size_t utf8_length(const unsigned char *s)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF; /* the second byte's range */
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else
        return 0;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return n;
}

/* How s shows at p: 0 when it prints as it is, else the escape written to
 * buf (at least 8 bytes), *len being the bytes of s it stands for. */
static int escape_at(const unsigned char *p, char *buf, size_t *len)
{
    size_t n = utf8_length(p);
    *len = n ? n : 1;
    if (n == 0) {
        snprintf(buf, 8, "\\x%02x", p[0]);
        return 1;
    }
    if (n == 2 && p[0] == 0xC2 && p[1] < 0xA0) { /* C1: U+0080 to U+009F */
        snprintf(buf, 8, "\\u%04x", p[1]);
        return 1;
    }
    if (n > 1 || (p[0] >= 0x20 && p[0] != 0x7F))
        return 0;
    if (p[0] == '\n' || p[0] == '\r' || p[0] == '\t')
        snprintf(buf, 8, "\\%c", p[0] == '\n' ? 'n' : p[0] == '\r' ? 'r' : 't');
    else
        snprintf(buf, 8, "\\x%02x", p[0]);
    return 1;
}

char *cli_escape(const char *s)
{
    if (!s)
        s = "";
    size_t size = 1, len;
    char esc[8];
    for (const unsigned char *p = (const unsigned char *)s; *p; p += len)
        size += escape_at(p, esc, &len) ? strlen(esc) : len;
    char *out = malloc(size), *o = out;
    if (!out)
        return NULL;
    for (const unsigned char *p = (const unsigned char *)s; *p; p += len) {
        if (escape_at(p, esc, &len)) {
            o = stpcpy(o, esc);
        } else {
            memcpy(o, p, len);
            o += len;
        }
    }
    *o = '\0';
    return out;
}

/* Whether s prints as it is. */
static int is_plain(const char *s)
{
    char esc[8];
    size_t len;
    for (const unsigned char *p = (const unsigned char *)s; *p; p += len)
        if (escape_at(p, esc, &len))
            return 0;
    return 1;
}

const char *cli_esc(const char *s)
{
    /* Escaped copies are kept until enough later calls have been made that
     * no one printf can still be using them. */
    enum { SLOTS = 16 };
    static _Thread_local char *slot[SLOTS];
    static _Thread_local unsigned next;
    if (!s)
        return "";
    if (is_plain(s))
        return s;
    char *copy = cli_escape(s);
    if (!copy)
        return "(unprintable: out of memory)";
    free(slot[next]);
    slot[next] = copy;
    next = (next + 1) % SLOTS;
    return copy;
}

/* Print "<lead><message>\n" on out, the message escaped whole. */
static void print_escaped_line(FILE *out, const char *lead, const char *fmt, va_list ap)
{
    char *text = NULL;
    if (vasprintf(&text, fmt, ap) < 0)
        text = NULL;
    fprintf(out, "%s%s\n", lead, text ? cli_esc(text) : "(out of memory)");
    free(text);
}

int cli_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_escaped_line(stderr, "ortkit: ", fmt, ap);
    va_end(ap);
    return CLI_FAIL;
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_escaped_line(stderr, "ortkit: warning: ", fmt, ap);
    va_end(ap);
}

int cli_vusage(FILE *err, const char *cmd, const char *fmt, va_list ap)
{
    char lead[64];
    snprintf(lead, sizeof lead, "ortkit %s: ", cmd);
    print_escaped_line(err, lead, fmt, ap);
    fprintf(err, "(see 'ortkit %s --help')\n", cmd);
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
        if (!(t->headers[c] = cli_escape(headers[c]))) {
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
        if (!(row[c] = cli_escape(cells[c]))) {
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
        const char *word = cli_esc(words[i]);
        size_t len = strlen(word);
        if (col > start && col + 1 + len > 80) {
            fprintf(out, "\n%*s", (int)start, "");
            col = start;
        }
        col += (size_t)fprintf(out, "%s%s", col > start ? " " : "", word);
    }
    fputc('\n', out);
}

void cli_print_lines(FILE *out, const char *text)
{
    while (text && *text) {
        size_t len = strcspn(text, "\n");
        char *line = strndup(text, len);
        fprintf(out, "%s\n", line ? cli_esc(line) : "(out of memory)");
        free(line);
        text += len + (text[len] == '\n');
    }
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
    return cli_open_runtime_with(out, &o);
}

int cli_runtime_choice(ortkit_runtime_options *o, const char *cmd, const char *runtime,
                       const char *bundle)
{
    if (runtime && bundle)
        return cli_usage(cmd, "--bundle and --runtime both name the runtime to load; give one");
    o->path = runtime;
    if (!bundle)
        return CLI_OK;
    /* The library decides, as for any program: a directory is a path it
     * verifies as the bundle it must be, a name or a version a pinned bundle
     * it chooses (and verifies) among those found. */
    struct stat st;
    ortkit_bundle *dir = NULL;
    if (strchr(bundle, '/') || (stat(bundle, &st) == 0 && S_ISDIR(st.st_mode))) {
        if (ortkit_bundle_open(&dir, bundle))
            return cli_fail("--bundle '%s' is not a bundle: %s", bundle, ortkit_error_last());
        ortkit_bundle_free(dir);
        o->path = bundle;
    } else {
        o->bundle = bundle;
    }
    return CLI_OK;
}

int cli_bundle_path(char **out, const char *cmd, const char *runtime, const char *bundle)
{
    *out = NULL;
    ortkit_runtime_options o = ORTKIT_RUNTIME_OPTIONS_INIT;
    int rc = cli_runtime_choice(&o, cmd, runtime, bundle);
    if (rc || !bundle)
        return rc;
    ortkit_resolution *res = NULL;
    if (ortkit_runtime_resolve(&res, &o, NULL, 0))
        return cli_fail_lib();
    const ortkit_bundle *b = ortkit_resolution_bundle(res);
    if (ortkit_resolution_status(res))
        rc = cli_fail("%s", ortkit_resolution_error(res));
    else if (!(*out = ortkit__strdup(b ? ortkit_bundle_manifest(b)->dir : bundle)))
        rc = cli_fail("out of memory");
    ortkit_resolution_free(res);
    return rc;
}

int cli_self_exe(char *buf, size_t size)
{
    ssize_t n = size > 1 ? readlink("/proc/self/exe", buf, size - 1) : -1;
    if (n <= 0 || (size_t)n >= size - 1)
        return -1;
    buf[n] = '\0';
    return 0;
}

int cli_self_find(char *buf, size_t size, const char *rel_dirs, const char *name)
{
    char self[PATH_MAX];
    if (cli_self_exe(self, sizeof self))
        return -1;
    char *slash = strrchr(self, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    for (ortkit__path_list it = {.rest = rel_dirs}; ortkit__path_list_next(&it);) {
        char found[PATH_MAX];
        if (!ortkit__pathf(found, sizeof found, "%s/%.*s/%s", self, (int)it.len, it.entry, name) &&
            access(found, R_OK) == 0)
            /* Said in messages and reports: without "bin/../". */
            return ortkit__pathf(buf, size, "%s", realpath(found, self) ? self : found) ? -1 : 0;
    }
    buf[0] = '\0';
    return -1;
}

int cli_open_runtime_with(ortkit_runtime **out, const ortkit_runtime_options *opts)
{
    return cli_open_runtime_told(out, opts, NULL, 0);
}

int cli_open_runtime_told(ortkit_runtime **out, const ortkit_runtime_options *opts,
                          char *measured, size_t measured_size)
{
    ortkit_runtime_options o = *opts;
    const char *log = ortkit__env("ORTKIT_LOG");
    if (log && *log) {
        long level;
        if (!cli_parse_long(log, 1, 5, &level))
            o.log_level = (ortkit_log_level)level;
    }
    if (measured_size)
        measured[0] = '\0';
    if (!measured_size || o.api_base)
        return ortkit_runtime_open(out, &o);
    /* ortkit_runtime_open's two steps, to keep what the search said. */
    ortkit_resolution *res = NULL;
    int rc = ortkit_runtime_resolve(&res, &o, NULL, 0);
    if (rc)
        return rc;
    snprintf(measured, measured_size, "%s", ortkit_resolution_measured(res));
    rc = ortkit_runtime_open_resolved(out, res, &o);
    ortkit_resolution_free(res);
    return rc;
}
