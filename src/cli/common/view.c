/* view.c - a report's text drawn from its JSON view (view.h). */
#include "view.h"

#include <stdlib.h>
#include <string.h>

#define SLOTS 16

/* An item as text: a string as it is, a number as %g, true/false as
 * "yes"/"no"; "" when absent or null. */
static const char *item_str(const cJSON *it)
{
    static _Thread_local char slot[SLOTS][32];
    static _Thread_local unsigned next;
    if (cJSON_IsString(it))
        return it->valuestring;
    if (cJSON_IsBool(it))
        return cJSON_IsTrue(it) ? "yes" : "no";
    if (!cJSON_IsNumber(it))
        return "";
    char *buf = slot[next++ % SLOTS];
    snprintf(buf, sizeof slot[0], "%g", it->valuedouble);
    return buf;
}

const char *cli_view_str(const cJSON *o, const char *key)
{
    return item_str(cJSON_GetObjectItemCaseSensitive(o, key));
}

double cli_view_num(const cJSON *o, const char *key)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(it) ? it->valuedouble : 0;
}

int cli_view_bool(const cJSON *o, const char *key)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, key));
}

void cli_view_add_numbers(cJSON *o, const cli_view_number *numbers, size_t n)
{
    for (size_t i = 0; o && i < n; i++)
        cJSON_AddNumberToObject(o, numbers[i].key, numbers[i].value);
}

int cli_view_table(FILE *out, const cJSON *array, const cli_view_column *columns, size_t n,
                   const char *indent)
{
    const char **headers = calloc(n ? n : 1, sizeof *headers);
    const char **cells = calloc(n ? n : 1, sizeof *cells);
    char *bufs = calloc(n ? n : 1, 4096);
    cli_table *t = NULL;
    int rc = -1;
    if (!headers || !cells || !bufs)
        goto cleanup;
    for (size_t i = 0; i < n; i++)
        headers[i] = columns[i].header;
    if (!(t = cli_table_new(n, headers)))
        goto cleanup;
    for (size_t i = 0; i < n; i++)
        if (columns[i].right)
            cli_table_align_right(t, i);
    const cJSON *o;
    cJSON_ArrayForEach(o, array) {
        for (size_t i = 0; i < n; i++) {
            char *buf = bufs + i * 4096;
            buf[0] = '\0';
            if (columns[i].cell)
                columns[i].cell(o, buf, 4096);
            const cJSON *it = columns[i].key ? cJSON_GetObjectItemCaseSensitive(o, columns[i].key) : NULL;
            if (columns[i].cell)
                cells[i] = buf;
            else if (columns[i].absent && (!it || cJSON_IsNull(it)))
                cells[i] = columns[i].absent;
            else
                cells[i] = cli_view_str(o, columns[i].key);
        }
        if (cli_table_add(t, cells))
            goto cleanup;
    }
    rc = cli_table_print(t, out, indent);
cleanup:
    cli_table_free(t);
    free(bufs);
    free(cells);
    free(headers);
    return rc;
}

const cJSON *cli_view_at(const cJSON *o, const char *path)
{
    char name[64];
    while (o && path && *path) {
        size_t len = strcspn(path, ".");
        if (len >= sizeof name)
            return NULL;
        memcpy(name, path, len);
        name[len] = '\0';
        o = cJSON_GetObjectItemCaseSensitive(o, name);
        path += len + (path[len] == '.');
    }
    return o;
}

void cli_view_fields(FILE *out, const cJSON *o, const cli_view_field *fields, size_t n,
                     const char *label_fmt)
{
    char lead[64], value[4096];
    for (size_t i = 0; i < n; i++) {
        snprintf(lead, sizeof lead, label_fmt, fields[i].label);
        if (fields[i].lines) {
            fields[i].lines(out, lead, o);
            continue;
        }
        value[0] = '\0';
        if (fields[i].cell)
            fields[i].cell(o, value, sizeof value);
        else
            snprintf(value, sizeof value, "%s", item_str(cli_view_at(o, fields[i].key)));
        if (value[0] || fields[i].absent)
            fprintf(out, "%s%s\n", lead, value[0] ? cli_esc(value) : fields[i].absent);
    }
}

int cli_view_print(cJSON *view, int json, const cli_view_field *fields, size_t n,
                   const char *label_fmt)
{
    if (!view)
        return cli_fail("out of memory");
    if (json)
        return cli_json_print(view);
    cli_view_fields(stdout, view, fields, n, label_fmt);
    cJSON_Delete(view);
    return CLI_OK;
}

void cli_view_join(const cJSON *array, const char *sep, char *buf, size_t size)
{
    const cJSON *it;
    size_t used = 0, n = 0;
    buf[0] = '\0';
    cJSON_ArrayForEach(it, array)
        if (used < size && cJSON_IsString(it))
            used += (size_t)snprintf(buf + used, size - used, "%s%s", n++ ? sep : "", it->valuestring);
}

int cli_view_titled_table(FILE *out, const char *title, const cJSON *array,
                          const cli_view_column *columns, size_t n, const char *indent)
{
    fputs(title, out);
    return array ? cli_view_table(out, array, columns, n, indent) : -1;
}

void cli_view_wrapped(FILE *out, const char *lead, const cJSON *array, const char *none)
{
    size_t n = 0;
    int size = cJSON_GetArraySize(array);
    const char **words = calloc(size > 0 ? (size_t)size : 1, sizeof *words);
    const cJSON *w;
    cJSON_ArrayForEach(w, array)
        if (words && cJSON_IsString(w))
            words[n++] = w->valuestring;
    if (words && n == 0 && none)
        cli_print_wrapped(out, lead, &none, 1);
    else
        cli_print_wrapped(out, lead, words, words ? n : 0);
    free(words);
}
