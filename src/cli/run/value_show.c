/*
 * value_show.c - values of every kind for people (rows of the `run` table)
 * and for programs (JSON): a tensor's summary; a sequence's length, then
 * one row per element; a map's keys and values; an optional's presence.
 */
#include "value_show.h"
#include "value_files.h"

#include <stdio.h>
#include <string.h>

/* Rows past this many elements of one sequence are summed up in one line. */
#define SHOWN_ITEMS 16

static int tensor_row(cli_table *t, const char *name, const char *type, const ortkit_tensor *x)
{
    char shape[256], mn[32] = "-", mx[32] = "-", me[32] = "-", fv[256];
    ortkit_tensor_describe(x, shape, sizeof shape);
    const char *bracket = strchr(shape, '[');
    value_summary sm;
    summarize(x, &sm);
    if (sm.numeric && ortkit_tensor_count(x) > sm.nan_count) {
        snprintf(mn, sizeof mn, "%.6g", sm.min);
        snprintf(mx, sizeof mx, "%.6g", sm.max);
        snprintf(me, sizeof me, "%.6g", sm.mean);
    }
    first_values(x, 6, fv, sizeof fv);
    return cli_table_add(t, (const char *const[]){name, type ? type : ortkit_type_name(ortkit_tensor_type(x)),
                                                  bracket ? bracket : shape, mn, mx, me, fv});
}

/* "0: 0.028, 1: 0.968, 2: 0.004": the first entries of a map. */
static void map_entries(const ortkit_value *m, char *buf, size_t size)
{
    const ortkit_tensor *k = ortkit_value_map_keys(m), *v = ortkit_value_map_values(m);
    char kb[64], vb[64];
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < ortkit_tensor_count(k) && n < size; i++) {
        first_values_at(k, i, kb, sizeof kb);
        first_values_at(v, i, vb, sizeof vb);
        if (i == 4 && ortkit_tensor_count(k) > 5) {
            snprintf(buf + n, size - n, ", ... (%zu entries)", ortkit_tensor_count(k));
            return;
        }
        n += (size_t)snprintf(buf + n, size - n, "%s%s: %s", i ? ", " : "", kb, vb);
    }
}

int value_rows(cli_table *t, const char *name, const ortkit_value *v)
{
    char type[256], len[32], what[512];
    ortkit_value_type_describe(ortkit_value_type_of(v), type, sizeof type);
    switch (ortkit_value_kind_of(v)) {
    case ORTKIT_KIND_TENSOR:
        return tensor_row(t, name, NULL, ortkit_value_tensor(v));
    case ORTKIT_KIND_MAP: {
        const ortkit_tensor *vals = ortkit_value_map_values(v);
        value_summary sm;
        char mn[32] = "-", mx[32] = "-", me[32] = "-";
        summarize(vals, &sm);
        if (sm.numeric && ortkit_tensor_count(vals) > sm.nan_count) {
            snprintf(mn, sizeof mn, "%.6g", sm.min);
            snprintf(mx, sizeof mx, "%.6g", sm.max);
            snprintf(me, sizeof me, "%.6g", sm.mean);
        }
        snprintf(len, sizeof len, "{%zu}", ortkit_value_count(v));
        map_entries(v, what, sizeof what);
        return cli_table_add(t, (const char *const[]){name, type, len, mn, mx, me, what});
    }
    case ORTKIT_KIND_OPTIONAL:
        if (!ortkit_value_count(v))
            return cli_table_add(t, (const char *const[]){name, type, "none", "-", "-", "-", ""});
        if (ortkit_value_kind_of(ortkit_value_item(v, 0)) == ORTKIT_KIND_TENSOR)
            return tensor_row(t, name, type, ortkit_value_tensor(ortkit_value_item(v, 0)));
        return value_rows(t, name, ortkit_value_item(v, 0));
    case ORTKIT_KIND_SEQUENCE:
        break;
    default:
        return cli_table_add(t, (const char *const[]){name, type, "?", "-", "-", "-", ""});
    }
    size_t n = ortkit_value_count(v);
    snprintf(len, sizeof len, "(%zu)", n);
    snprintf(what, sizeof what, "%zu element%s", n, n == 1 ? "" : "s");
    if (cli_table_add(t, (const char *const[]){name, type, len, "-", "-", "-", what}))
        return -1;
    for (size_t i = 0; i < n && i < SHOWN_ITEMS; i++) {
        char sub[600];
        snprintf(sub, sizeof sub, "  %.500s(%zu)", name, i);
        if (value_rows(t, sub, ortkit_value_item(v, i)))
            return -1;
    }
    if (n > SHOWN_ITEMS) {
        snprintf(what, sizeof what, "... %zu more (--json or -o DIR has them all)", n - SHOWN_ITEMS);
        return cli_table_add(t, (const char *const[]){"", "", "", "", "", "", what});
    }
    return 0;
}

static cJSON *shape_json(const ortkit_tensor *t)
{
    cJSON *shape = cJSON_CreateArray();
    for (size_t d = 0; d < ortkit_tensor_rank(t); d++)
        cJSON_AddItemToArray(shape, cJSON_CreateNumber((double)ortkit_tensor_shape(t)[d]));
    return shape;
}

static void tensor_json(cJSON *o, const ortkit_tensor *t)
{
    cJSON_AddStringToObject(o, "type", ortkit_type_name(ortkit_tensor_type(t)));
    cJSON_AddItemToObject(o, "shape", shape_json(t));
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

void value_json(cJSON *o, const ortkit_value *v)
{
    ortkit_value_kind k = ortkit_value_kind_of(v);
    if (k == ORTKIT_KIND_TENSOR) {
        tensor_json(o, ortkit_value_tensor(v));
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
            value_json(cJSON_AddObjectToObject(o, "value"), ortkit_value_item(v, 0));
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
            value_json(e, ortkit_value_item(v, i));
            cJSON_AddItemToArray(items, e);
        }
    }
}
