/*
 * validate_values.c - backend-test values that are not plain tensors:
 * sequences, maps and optionals read from .pb files turned into values (run
 * inputs and references), and outputs compared with the reference as ONNX
 * Runtime's runner does
 * (element by element with the tensor rules; lengths, keys and presence
 * exactly).
 */
#include "validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ortkit__validate_value_from_proto(ortkit_value **out, ortkit_proto_value *p)
{
    *out = NULL;
    int rc = ORTKIT_OK;
    switch (p->kind) {
    case ORTKIT_KIND_TENSOR:
        if (!(rc = ortkit_value_new_tensor(out, p->tensor)))
            p->tensor = NULL;
        return rc;
    case ORTKIT_KIND_MAP:
        if (!(rc = ortkit_value_new_map(out, p->keys, p->values)))
            p->keys = p->values = NULL;
        return rc;
    case ORTKIT_KIND_OPTIONAL: {
        ortkit_value *item = NULL;
        if (p->count && (rc = ortkit__validate_value_from_proto(&item, p->items[0])))
            return rc;
        if ((rc = ortkit_value_new_optional(out, item)))
            ortkit_value_free(item);
        return rc;
    }
    case ORTKIT_KIND_SEQUENCE: {
        ortkit_value **items = calloc(p->count ? p->count : 1, sizeof *items);
        if (!items)
            return ortkit__error_nomem();
        size_t made = 0;
        for (; made < p->count && !rc; made++)
            rc = ortkit__validate_value_from_proto(&items[made], p->items[made]);
        if (!rc)
            rc = ortkit_value_new_sequence(out, items, p->count);
        if (rc)
            for (size_t i = 0; i < made; i++)
                ortkit_value_free(items[i]);
        free(items);
        return rc;
    }
    default:
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "values of kind %d are not supported",
                                 (int)p->kind);
    }
}

/* Two ways of comparing: with tolerances against the reference, or bit for
 * bit against an earlier run. */
typedef struct walk {
    ortkit_compare *out;
    double rtol, atol;
    int identical;
} walk;

static void differ(walk *w, const char *path, const char *fmt, const char *a, const char *b)
{
    if (w->out->equal) {
        w->out->equal = 0;
        char what[200];
        snprintf(what, sizeof what, fmt, a, b);
        snprintf(w->out->message, sizeof w->out->message, "%s%s%s", path, path[0] ? ": " : "", what);
    }
    w->out->mismatches++;
}

static void leaf(walk *w, const ortkit_tensor *e, const ortkit_tensor *a, const char *path)
{
    ortkit_compare c = ORTKIT_COMPARE_INIT;
    if (w->identical)
        ortkit_tensor_identical(&c, e, a);
    else
        ortkit_tensor_compare(&c, e, a, w->rtol, w->atol);
    ortkit_compare *o = w->out;
    if (c.max_diff > o->max_diff || (!o->where[0] && c.where[0])) {
        o->max_diff = c.max_diff;
        o->expected = c.expected;
        o->actual = c.actual;
        o->worst = c.worst;
        snprintf(o->where, sizeof o->where, "%.30s%.33s", path, c.where);
    }
    if (!c.equal) {
        size_t before = o->mismatches;
        differ(w, path, "%s%s", c.message, "");
        o->mismatches = before + (c.mismatches ? c.mismatches : 1);
    }
}

static void walk_values(walk *w, const ortkit_value *e, const ortkit_value *a, const char *path,
                        int depth)
{
    char pe[160], pa[160], sub[64];
    ortkit_value_kind k = ortkit_value_kind_of(e);
    size_t n = ortkit_value_count(e);
    if (depth > 64)
        return;
    /* Another kind, another length, or none against a value. */
    if (k != ortkit_value_kind_of(a) || (k != ORTKIT_KIND_TENSOR && n != ortkit_value_count(a))) {
        ortkit_value_describe(e, pe, sizeof pe);
        ortkit_value_describe(a, pa, sizeof pa);
        differ(w, path, "expected %s, got %s", pe, pa);
        return;
    }
    if (k == ORTKIT_KIND_TENSOR) {
        leaf(w, ortkit_value_tensor(e), ortkit_value_tensor(a), path);
        return;
    }
    if (k == ORTKIT_KIND_MAP) {
        ortkit_compare keys = ORTKIT_COMPARE_INIT;
        ortkit_tensor_identical(&keys, ortkit_value_map_keys(e), ortkit_value_map_keys(a));
        if (!keys.equal) {
            differ(w, path, "map keys differ: %s%s", keys.message, "");
            return;
        }
        snprintf(sub, sizeof sub, "%.40s{}", path);
        leaf(w, ortkit_value_map_values(e), ortkit_value_map_values(a), sub);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (k == ORTKIT_KIND_SEQUENCE)
            snprintf(sub, sizeof sub, "%.40s(%zu)", path, i);
        else
            snprintf(sub, sizeof sub, "%.40s", path);
        walk_values(w, ortkit_value_item(e, i), ortkit_value_item(a, i), sub, depth + 1);
    }
}

void ortkit__validate_compare(ortkit_compare *out, const ortkit_value *expected,
                              const ortkit_value *actual, double rtol, double atol)
{
    ortkit_compare init = ORTKIT_COMPARE_INIT;
    *out = init;
    out->equal = 1;
    walk w = {out, rtol, atol, 0};
    walk_values(&w, expected, actual, "", 0);
}

void ortkit__validate_identical(ortkit_compare *out, const ortkit_value *first,
                                const ortkit_value *again)
{
    ortkit_compare init = ORTKIT_COMPARE_INIT;
    *out = init;
    out->equal = 1;
    walk w = {out, 0, 0, 1};
    walk_values(&w, first, again, "", 0);
}
