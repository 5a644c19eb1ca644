/* view.c - a report's text drawn from its JSON view (view.h). */
#include "view.h"

#include <stdlib.h>

#define SLOTS 16

const char *cli_view_str(const cJSON *o, const char *key)
{
    static _Thread_local char slot[SLOTS][32];
    static _Thread_local unsigned next;
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
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
