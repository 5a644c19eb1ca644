/* choice_view.c - the account of a bundle choice, for `bundle choose` and `doctor`. */
#include "choice_view.h"
#include "system/variant_worth.h"

#include <stdlib.h>
#include <string.h>

/* Every variable that changes what selection sees of the host. */
static const char *const overrides[] = {"ORTKIT_FORCE_ISA", "ORTKIT_IGNORE_NEEDS", "ORTKIT_FORCE_CUDA",
                                        "ORTKIT_FORCE_SM"};
#define N_OVERRIDES (sizeof overrides / sizeof overrides[0])

choice_row *choice_rows_of_list(const ortkit_bundle_list *list, size_t *count)
{
    size_t n = ortkit_bundle_list_count(list);
    choice_row *rows = calloc(n ? n : 1, sizeof *rows);
    *count = rows ? n : 0;
    for (size_t i = 0; rows && i < n; i++) {
        const ortkit_bundle_entry *e = ortkit_bundle_list_get(list, i);
        rows[i] = (choice_row){e->name, e->dir, e->source, e->bundle, e->error};
    }
    return rows;
}

void choice_view_preamble(FILE *out, const char *indent)
{
    fprintf(out, "%sorder      architecture > loadable here (glibc, libstdc++, libraries) > "
            "accelerator > CPU level > ONNX Runtime > name\n", indent);
    int any = 0;
    for (size_t i = 0; i < N_OVERRIDES; i++) {
        const char *v = ortkit__env(overrides[i]);
        if (!v || !v[0])
            continue;
        fprintf(out, "%s%-10s %s=%s\n", indent, any ? "" : "overrides", overrides[i], cli_esc(v));
        any = 1;
    }
    if (!any) {
        fprintf(out, "%soverrides  none (", indent);
        for (size_t i = 0; i < N_OVERRIDES; i++)
            fprintf(out, "%s%s", i ? ", " : "", overrides[i]);
        fprintf(out, " unset)\n");
    }
}

/* A verdict's order, and where the CPU level decided it, what that level
 * was measured to be worth over the next bundle's (variant_worth.h). */
static void order_text(char *out, size_t size, const choice_row *rows, size_t n,
                       const ortkit_bundle_choice *c, size_t i)
{
    const ortkit_bundle_verdict *v = ortkit_bundle_choice_verdict(c, i);
    snprintf(out, size, "%s", v->order);
    if (strcmp(v->step, "cpu level") || !rows[i].bundle)
        return;
    for (size_t j = 0; j < n; j++) {
        const ortkit_bundle_verdict *w = ortkit_bundle_choice_verdict(c, j);
        if (w->rank != v->rank + 1 || !rows[j].bundle)
            continue;
        const char *hi = ortkit_bundle_manifest(rows[i].bundle)->variant;
        const char *lo = ortkit_bundle_manifest(rows[j].bundle)->variant;
        const char *m = variant_worth(hi, lo);
        size_t len = strlen(out);
        snprintf(out + len, size - len, "; %s over %s: %s", hi, lo, m ? m : "not measured");
        return;
    }
}

/* Display order: rank 1, 2, ... then those that do not fit, as found. */
static size_t *display_order(size_t n, const ortkit_bundle_choice *c)
{
    size_t *o = calloc(n ? n : 1, sizeof *o), k = 0;
    for (size_t r = 1; o && r <= n; r++)
        for (size_t i = 0; i < n; i++)
            if (ortkit_bundle_choice_verdict(c, i)->rank == r)
                o[k++] = i;
    for (size_t i = 0; o && i < n; i++)
        if (!ortkit_bundle_choice_verdict(c, i)->rank)
            o[k++] = i;
    return o;
}

/* The measurement's verdict on rows[i], or NULL (none known, or not a candidate). */
static const ortkit_measure_verdict *measured_of(const ortkit_measure *mm, size_t i)
{
    if (!mm || !ortkit_measure_outcome(mm)[0])
        return NULL;
    for (size_t k = 0; k < ortkit_measure_count(mm); k++)
        if (ortkit_measure_bundle(mm, k) == i)
            return ortkit_measure_candidate(mm, k);
    return NULL;
}

int choice_view_print(FILE *out, const choice_row *rows, size_t n, const ortkit_bundle_choice *c,
                      const char *indent)
{
    return choice_view_print_measured(out, rows, n, c, NULL, indent);
}

int choice_view_print_measured(FILE *out, const choice_row *rows, size_t n,
                               const ortkit_bundle_choice *c, const ortkit_measure *mm,
                               const char *indent)
{
    static const char *const plain[] = {"RANK", "NAME", "ORT", "VARIANT", "ARCH", "FROM", "FITS",
                                        "STEP", "WHY"};
    static const char *const with[] = {"RANK", "NAME", "ORT", "VARIANT", "ARCH", "FROM", "FITS",
                                       "STEP", "P50", "ROUNDS' P50", "/CHOICE", "MEASURED", "WHY"};
    if (!c)
        return 0;
    int shown = mm && ortkit_measure_outcome(mm)[0];
    size_t *o = display_order(n, c);
    cli_table *t = shown ? cli_table_new(13, with) : cli_table_new(9, plain);
    if (!o || !t) {
        free(o);
        cli_table_free(t);
        return -1;
    }
    if (shown) {
        cli_table_align_right(t, 8);
        cli_table_align_right(t, 10);
    }
    for (size_t k = 0; k < n; k++) {
        const choice_row *r = &rows[o[k]];
        const ortkit_bundle_verdict *v = ortkit_bundle_choice_verdict(c, o[k]);
        const ortkit_manifest *m = r->bundle ? ortkit_bundle_manifest(r->bundle) : NULL;
        const ortkit_measure_verdict *mv = measured_of(mm, o[k]);
        char rank[24] = "-", why[2400], order[1200], p50[32] = "-", spread[64] = "-", state[48] = "-",
             ratio[32] = "-";
        if (v->rank)
            snprintf(rank, sizeof rank, "%zu", v->rank);
        if (!m)
            snprintf(why, sizeof why, "%s", r->error);
        else if (v->fits) {
            order_text(order, sizeof order, rows, n, c, o[k]);
            snprintf(why, sizeof why, "%s%s%s%s%s", mv && mv->note[0] ? mv->note : "",
                     mv && mv->note[0] && order[0] ? "; " : "", order,
                     (order[0] || (mv && mv->note[0])) && v->why[0] ? "; " : "", v->why);
        }
        else
            snprintf(why, sizeof why, "%s", v->why);
        if (mv) {
            snprintf(state, sizeof state, "%s%s", ortkit_measure_state_name(mv->state),
                     mv->chosen && mv->state != ORTKIT_MEASURE_FASTEST ? ", chosen" : "");
            if (mv->runs) {
                char lo[16], hi[16];
                ortkit__human_duration3(p50, sizeof p50, mv->p50);
                ortkit__human_duration3(lo, sizeof lo, mv->p50_low);
                ortkit__human_duration3(hi, sizeof hi, mv->p50_high);
                snprintf(spread, sizeof spread, "%s..%s (%zu)", lo, hi, mv->rounds);
            }
            if (mv->pair_rounds)
                snprintf(ratio, sizeof ratio, "%.3f", mv->pair_ratio);
        }
        const char *cells[] = {rank, r->name, m ? m->ort_version : "-", m ? m->variant : "-",
                               m ? ortkit_arch_name(m->arch) : "-", r->source, v->fits ? "yes" : "no",
                               v->step, shown ? p50 : why, spread, ratio, state, why};
        cli_table_add(t, cells);
    }
    int rc = cli_table_print(t, out, indent);
    cli_table_free(t);
    free(o);
    return rc;
}

cJSON *choice_view_json(const choice_row *rows, size_t n, const ortkit_bundle_choice *c)
{
    return choice_view_json_measured(rows, n, c, NULL);
}

cJSON *choice_view_json_measured(const choice_row *rows, size_t n, const ortkit_bundle_choice *c,
                                 const ortkit_measure *mm)
{
    cJSON *arr = cJSON_CreateArray();
    if (!c)
        return arr;
    size_t *o = display_order(n, c);
    for (size_t k = 0; arr && o && k < n; k++) {
        const choice_row *r = &rows[o[k]];
        const ortkit_bundle_verdict *v = ortkit_bundle_choice_verdict(c, o[k]);
        const ortkit_manifest *m = r->bundle ? ortkit_bundle_manifest(r->bundle) : NULL;
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", r->name);
        cJSON_AddStringToObject(e, "dir", r->dir);
        cJSON_AddStringToObject(e, "source", r->source);
        cJSON_AddItemToObject(e, "ort_version", m ? cJSON_CreateString(m->ort_version) : cJSON_CreateNull());
        cJSON_AddItemToObject(e, "variant", m ? cJSON_CreateString(m->variant) : cJSON_CreateNull());
        cJSON_AddItemToObject(e, "arch", m ? cJSON_CreateString(ortkit_arch_name(m->arch)) : cJSON_CreateNull());
        cJSON_AddItemToObject(e, "verified_by_loading", m ? cJSON_CreateBool(m->verified_by_loading)
                                                          : cJSON_CreateNull());
        cJSON_AddBoolToObject(e, "fits", v->fits);
        cJSON_AddNumberToObject(e, "rank", (double)v->rank);
        cJSON_AddStringToObject(e, "step", v->step);
        cJSON_AddStringToObject(e, "why", m ? v->why : r->error);
        char order[1200];
        order_text(order, sizeof order, rows, n, c, o[k]);
        cJSON_AddStringToObject(e, "order", order);
        cJSON_AddBoolToObject(e, "chosen", c->index == o[k]);
        const ortkit_measure_verdict *mv = measured_of(mm, o[k]);
        if (mv) {
            cJSON *x = cJSON_AddObjectToObject(e, "measured");
            cJSON_AddStringToObject(x, "state", ortkit_measure_state_name(mv->state));
            cJSON_AddBoolToObject(x, "chosen", mv->chosen);
            cJSON_AddNumberToObject(x, "p50_s", mv->p50);
            cJSON_AddNumberToObject(x, "round_p50_low_s", mv->p50_low);
            cJSON_AddNumberToObject(x, "round_p50_high_s", mv->p50_high);
            cJSON_AddNumberToObject(x, "runs", (double)mv->runs);
            cJSON_AddNumberToObject(x, "rounds", (double)mv->rounds);
            cJSON_AddNumberToObject(x, "pair_p50_s", mv->pair_p50);
            cJSON_AddNumberToObject(x, "pair_chosen_p50_s", mv->pair_chosen_p50);
            cJSON_AddNumberToObject(x, "pair_ratio", mv->pair_ratio);
            cJSON_AddNumberToObject(x, "pair_rounds", (double)mv->pair_rounds);
            cJSON_AddStringToObject(x, "note", mv->note);
        } else if (mm) {
            cJSON_AddNullToObject(e, "measured");
        }
        cJSON_AddItemToArray(arr, e);
    }
    free(o);
    return arr;
}

cJSON *choice_view_overrides_json(void)
{
    cJSON *obj = cJSON_CreateObject();
    for (size_t i = 0; obj && i < N_OVERRIDES; i++) {
        const char *v = ortkit__env(overrides[i]);
        cJSON_AddItemToObject(obj, overrides[i], v ? cJSON_CreateString(v) : cJSON_CreateNull());
    }
    return obj;
}
