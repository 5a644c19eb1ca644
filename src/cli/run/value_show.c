/*
 * value_show.c - values of every kind for programs (JSON) and for people
 * (rows of the `run` table, drawn from that JSON): a tensor's summary; a
 * sequence's length, then one row per element; a map's keys and values;
 * an optional's presence.
 */
#include "value_show.h"
#include "value_files.h"
#include "view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Rows past this many elements of one sequence are summed up in one line. */
#define SHOWN_ITEMS 16

/* ---- the rows, drawn from a value's JSON ------------------------------------------ */

/* One element as the table shows it: a string quoted, a number "%.6g". */
static void element_text(const cJSON *e, char *buf, size_t size)
{
    if (cJSON_IsString(e))
        snprintf(buf, size, "\"%s\"", e->valuestring);
    else if (cJSON_IsNumber(e))
        snprintf(buf, size, "%.6g", e->valuedouble);
    else
        snprintf(buf, size, "?");
}

/* min, max and mean as the table shows them ("-" when there are none). */
static void summary_cells(double min, double max, double mean, int known, char mn[32], char mx[32],
                          char me[32])
{
    snprintf(mn, 32, "-");
    snprintf(mx, 32, "-");
    snprintf(me, 32, "-");
    if (!known)
        return;
    snprintf(mn, 32, "%.6g", min);
    snprintf(mx, 32, "%.6g", max);
    snprintf(me, 32, "%.6g", mean);
}

/* A tensor's row: its shape, summary and first values (six of them). */
static int tensor_row(cli_table *t, const char *name, const char *type, const cJSON *o)
{
    char shape[256] = "[", mn[32], mx[32], me[32], fv[256] = "";
    const cJSON *d, *e;
    size_t used = 1, shown = 0, fv_used = 0;
    double count = 1;
    cJSON_ArrayForEach(d, cli_view_at(o, "shape")) {
        count *= d->valuedouble;
        if (used < sizeof shape)
            used += (size_t)snprintf(shape + used, sizeof shape - used, "%s%lld", used > 1 ? "," : "",
                                     (long long)d->valuedouble);
    }
    if (used < sizeof shape)
        snprintf(shape + used, sizeof shape - used, "]");
    summary_cells(cli_view_num(o, "min"), cli_view_num(o, "max"), cli_view_num(o, "mean"),
                  cli_view_at(o, "mean") != NULL, mn, mx, me);
    cJSON_ArrayForEach(e, cli_view_at(o, "first")) {
        char one[256];
        if (shown++ == 6 || fv_used >= sizeof fv)
            break;
        element_text(e, one, sizeof one);
        fv_used += (size_t)snprintf(fv + fv_used, sizeof fv - fv_used, "%s%s", shown > 1 ? ", " : "", one);
    }
    if (count > 6 && fv_used < sizeof fv)
        snprintf(fv + fv_used, sizeof fv - fv_used, ", ...");
    return cli_table_add(t, (const char *const[]){name, type ? type : cli_view_str(o, "type"), shape, mn,
                                                  mx, me, fv});
}

/* A map's row: its size, its values' summary, its first entries. */
static int map_row(cli_table *t, const char *name, const cJSON *o)
{
    const cJSON *keys = cli_view_at(o, "keys"), *values = cli_view_at(o, "values"), *k, *v;
    char len[32], mn[32], mx[32], me[32], what[512] = "";
    double min = 0, max = 0, sum = 0;
    size_t n = 0, numbers = 0, i = 0;
    int count = cJSON_GetArraySize(keys);
    cJSON_ArrayForEach(v, values) {
        if (!cJSON_IsNumber(v) || isnan(v->valuedouble))
            continue;
        min = numbers && min < v->valuedouble ? min : v->valuedouble;
        max = numbers && max > v->valuedouble ? max : v->valuedouble;
        sum += v->valuedouble;
        numbers++;
    }
    summary_cells(min, max, numbers ? sum / (double)numbers : 0, numbers > 0, mn, mx, me);
    snprintf(len, sizeof len, "{%d}", count);
    for (k = keys ? keys->child : NULL, v = values ? values->child : NULL; k && v && n < sizeof what;
         k = k->next, v = v->next, i++) {
        char kb[64], vb[64];
        if (i == 4 && count > 5) {
            snprintf(what + n, sizeof what - n, ", ... (%d entries)", count);
            break;
        }
        element_text(k, kb, sizeof kb);
        element_text(v, vb, sizeof vb);
        n += (size_t)snprintf(what + n, sizeof what - n, "%s%s: %s", i ? ", " : "", kb, vb);
    }
    return cli_table_add(t, (const char *const[]){name, cli_view_str(o, "value_type"), len, mn, mx, me,
                                                  what});
}

/* A sequence's row, then one for each of its first elements. */
static int sequence_rows(cli_table *t, const char *name, const cJSON *o)
{
    char len[32], what[512];
    int n = cJSON_GetArraySize(cli_view_at(o, "items")), i = 0;
    const cJSON *item;
    snprintf(len, sizeof len, "(%d)", n);
    snprintf(what, sizeof what, "%d element%s", n, n == 1 ? "" : "s");
    if (cli_table_add(t, (const char *const[]){name, cli_view_str(o, "value_type"), len, "-", "-", "-",
                                               what}))
        return -1;
    cJSON_ArrayForEach(item, cli_view_at(o, "items")) {
        char sub[600];
        if (i == SHOWN_ITEMS)
            break;
        snprintf(sub, sizeof sub, "  %.500s(%d)", name, i++);
        if (value_rows(t, sub, item))
            return -1;
    }
    if (n <= SHOWN_ITEMS)
        return 0;
    snprintf(what, sizeof what, "... %d more (--json or -o DIR has them all)", n - SHOWN_ITEMS);
    return cli_table_add(t, (const char *const[]){"", "", "", "", "", "", what});
}

int value_rows(cli_table *t, const char *name, const cJSON *o)
{
    const char *kind = cli_view_str(o, "kind"), *type = cli_view_str(o, "value_type");
    const cJSON *inner = cli_view_at(o, "value");
    if (!kind[0])
        return tensor_row(t, name, NULL, o);
    if (!strcmp(kind, "map"))
        return map_row(t, name, o);
    if (!strcmp(kind, "sequence"))
        return sequence_rows(t, name, o);
    if (strcmp(kind, "optional"))
        return cli_table_add(t, (const char *const[]){name, type, "?", "-", "-", "-", ""});
    if (!cli_view_bool(o, "has_value"))
        return cli_table_add(t, (const char *const[]){name, type, "none", "-", "-", "-", ""});
    /* An optional tensor is shown as its tensor, under the optional's type. */
    return cli_view_at(inner, "kind") ? value_rows(t, name, inner) : tensor_row(t, name, type, inner);
}

/* ---- the JSON ----------------------------------------------------------------------- */

static cJSON *shape_view(const ortkit_tensor *t)
{
    cJSON *shape = cJSON_CreateArray();
    for (size_t d = 0; d < ortkit_tensor_rank(t); d++)
        cJSON_AddItemToArray(shape, cJSON_CreateNumber((double)ortkit_tensor_shape(t)[d]));
    return shape;
}

static void tensor_view(cJSON *o, const ortkit_tensor *t)
{
    cJSON_AddStringToObject(o, "type", ortkit_type_name(ortkit_tensor_type(t)));
    cJSON_AddItemToObject(o, "shape", shape_view(t));
    value_summary sum;
    summarize(t, &sum);
    if (sum.numeric && ortkit_tensor_count(t) > sum.nan_count) {
        cJSON_AddNumberToObject(o, "min", sum.min);
        cJSON_AddNumberToObject(o, "max", sum.max);
        cJSON_AddNumberToObject(o, "mean", sum.mean);
    }
    cJSON *fv = cJSON_AddArrayToObject(o, "first");
    for (size_t k = 0; k < ortkit_tensor_count(t) && k < 8; k++)
        cJSON_AddItemToArray(fv, ortkit_tensor_type(t) == ORTKIT_TYPE_STRING
                                     ? cJSON_CreateString(ortkit_tensor_string(t, k))
                                     : cJSON_CreateNumber(value_at(t, k)));
}

void value_view(cJSON *o, const ortkit_value *v)
{
    ortkit_value_kind k = ortkit_value_kind_of(v);
    if (k == ORTKIT_KIND_TENSOR) {
        tensor_view(o, ortkit_value_tensor(v));
        return;
    }
    char type[256];
    ortkit_value_type_describe(ortkit_value_type_of(v), type, sizeof type);
    static const char *const kinds[] = {"unknown", "tensor", "sequence", "map", "optional", "sparse"};
    cJSON_AddStringToObject(o, "kind", kinds[k <= ORTKIT_KIND_SPARSE_TENSOR ? k : 0]);
    cJSON_AddStringToObject(o, "value_type", type);
    if (k == ORTKIT_KIND_OPTIONAL) {
        int has = ortkit_value_count(v) > 0;
        cJSON_AddBoolToObject(o, "has_value", has);
        if (has)
            value_view(cJSON_AddObjectToObject(o, "value"), ortkit_value_item(v, 0));
    } else if (k == ORTKIT_KIND_MAP) {
        cJSON *m = value_map_json(v);
        for (cJSON *e = m ? m->child : NULL; e;) {
            cJSON *next = e->next;
            cJSON_AddItemToObject(o, e->string, cJSON_DetachItemViaPointer(m, e));
            e = next;
        }
        cJSON_Delete(m);
    } else if (k == ORTKIT_KIND_SEQUENCE) {
        cJSON_AddNumberToObject(o, "length", (double)ortkit_value_count(v));
        cJSON *items = cJSON_AddArrayToObject(o, "items");
        for (size_t i = 0; i < ortkit_value_count(v); i++) {
            cJSON *e = cJSON_CreateObject();
            value_view(e, ortkit_value_item(v, i));
            cJSON_AddItemToArray(items, e);
        }
    }
}
