/* choice_view.c - the account of a bundle choice, for `bundle choose` and `doctor`. */
#include "choice_view.h"
#include "system/variant_worth.h"
#include "view.h"

#include <stdlib.h>
#include <math.h>
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

/* ---- the text, drawn from the JSON view ---------------------------------------- */

static const cJSON *measured_in(const cJSON *o)
{
    const cJSON *mv = cJSON_GetObjectItemCaseSensitive(o, "measured");
    return cJSON_IsObject(mv) ? mv : NULL; /* null: not a candidate measured */
}

static void rank_cell(const cJSON *o, char *buf, size_t size)
{
    if (cli_view_num(o, "rank"))
        snprintf(buf, size, "%s", cli_view_str(o, "rank"));
    else
        snprintf(buf, size, "-");
}

/* Why: for one that fits, the measurement's note, then its order, then the
 * verdict's caveat; else the verdict's reason or the manifest's error. */
static void why_cell(const cJSON *o, char *buf, size_t size)
{
    const char *why = cli_view_str(o, "why");
    const cJSON *ort = cJSON_GetObjectItemCaseSensitive(o, "ort_version"); /* null: no manifest */
    if (!cli_view_bool(o, "fits") || !cJSON_IsString(ort)) {
        snprintf(buf, size, "%s", why);
        return;
    }
    const char *note = cli_view_str(measured_in(o), "note"), *order = cli_view_str(o, "order");
    snprintf(buf, size, "%s%s%s%s%s", note, note[0] && order[0] ? "; " : "", order,
             (order[0] || note[0]) && why[0] ? "; " : "", why);
}

static void p50_cell(const cJSON *o, char *buf, size_t size)
{
    const cJSON *mv = measured_in(o);
    snprintf(buf, size, "-");
    if (cli_view_num(mv, "runs"))
        ortkit__human_duration3(buf, size, cli_view_num(mv, "p50_s"));
}

/* Its rounds' lowest and highest median, and how many rounds it ran. */
static void rounds_cell(const cJSON *o, char *buf, size_t size)
{
    const cJSON *mv = measured_in(o);
    char lo[16], hi[16];
    snprintf(buf, size, "-");
    if (!cli_view_num(mv, "runs"))
        return;
    ortkit__human_duration3(lo, sizeof lo, cli_view_num(mv, "round_p50_low_s"));
    ortkit__human_duration3(hi, sizeof hi, cli_view_num(mv, "round_p50_high_s"));
    snprintf(buf, size, "%s..%s (%s)", lo, hi, cli_view_str(mv, "rounds"));
}

/* The median of its round medians over the choice's, in the rounds both
 * ran, with how many those were: a figure of the rounds, like the column
 * beside it, not the quotient of the P50s (runs under other loads). */
static void ratio_cell(const cJSON *o, char *buf, size_t size)
{
    const cJSON *mv = measured_in(o);
    snprintf(buf, size, "-");
    if (cli_view_num(mv, "pair_rounds"))
        snprintf(buf, size, "%.3f (%s)", cli_view_num(mv, "pair_ratio"),
                 cli_view_str(mv, "pair_rounds"));
}

static void state_cell(const cJSON *o, char *buf, size_t size)
{
    const cJSON *mv = measured_in(o);
    const char *state = cli_view_str(mv, "state");
    snprintf(buf, size, "%s%s", mv ? state : "-",
             cli_view_bool(mv, "chosen") && strcmp(state, "fastest") ? ", chosen" : "");
}

/* A manifest's members read "-" for a bundle whose manifest cannot be used. */
#define CANDIDATE_COLUMNS                                                                          \
    {"RANK", NULL, rank_cell, 0, NULL}, {"NAME", "name", NULL, 0, NULL},                           \
        {"ORT", "ort_version", NULL, 0, "-"}, {"VARIANT", "variant", NULL, 0, "-"},                \
        {"ARCH", "arch", NULL, 0, "-"}, {"FROM", "source", NULL, 0, NULL},                         \
        {"FITS", "fits", NULL, 0, NULL}, {"STEP", "step", NULL, 0, NULL}

static const cli_view_column plain_columns[] = {CANDIDATE_COLUMNS,
                                                {"WHY", NULL, why_cell, 0, NULL}};

static const cli_view_column measured_columns[] = {CANDIDATE_COLUMNS,
                                                   {"P50", NULL, p50_cell, 1, NULL},
                                                   {"ROUNDS' P50", NULL, rounds_cell, 0, NULL},
                                                   {"ROUNDS' /CHOICE", NULL, ratio_cell, 1, NULL},
                                                   {"MEASURED", NULL, state_cell, 0, NULL},
                                                   {"WHY", NULL, why_cell, 0, NULL}};

int choice_view_print_measured(FILE *out, const choice_row *rows, size_t n,
                               const ortkit_bundle_choice *c, const ortkit_measure *mm,
                               const char *indent)
{
    if (!c)
        return 0;
    int shown = mm && ortkit_measure_outcome(mm)[0];
    cJSON *view = choice_view_json_measured(rows, n, c, shown ? mm : NULL);
    int rc = !view ? -1
             : shown ? cli_view_table(out, view, measured_columns,
                                      sizeof measured_columns / sizeof measured_columns[0], indent)
                     : cli_view_table(out, view, plain_columns,
                                      sizeof plain_columns / sizeof plain_columns[0], indent);
    cJSON_Delete(view);
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
        ortkit__json_add_strings(e, "name", r->name, "dir", r->dir, "source", r->source, NULL);
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
            CLI_VIEW_ADD_NUMBERS(x, {"p50_s", mv->p50}, {"round_p50_low_s", mv->p50_low},
                                 {"round_p50_high_s", mv->p50_high}, {"runs", (double)mv->runs},
                                 {"rounds", (double)mv->rounds}, {"pair_p50_s", mv->pair_p50},
                                 {"pair_chosen_p50_s", mv->pair_chosen_p50},
                                 {"pair_ratio", mv->pair_ratio},
                                 {"pair_rounds", (double)mv->pair_rounds},
                                 {"disturbed", (double)mv->disturbed});
            /* The smallest difference its rounds with the choice tell apart; null: too few. */
            cJSON_AddItemToObject(x, "pair_resolution", isfinite(mv->pair_resolution) && mv->pair_rounds
                                                            ? cJSON_CreateNumber(mv->pair_resolution)
                                                            : cJSON_CreateNull());
            cJSON_AddBoolToObject(x, "alike", mv->alike);
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
