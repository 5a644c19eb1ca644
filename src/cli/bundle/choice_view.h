/* choice_view.h - the account of a bundle choice that `bundle choose` and
 * `doctor` both print: every candidate in the order, its verdict, and what
 * put each above the next. */
#ifndef ORTKIT_CLI_CHOICE_VIEW_H
#define ORTKIT_CLI_CHOICE_VIEW_H

#include "cli.h"
#include "ortkit/tools/measure.h"

/* One candidate: bundle NULL when its manifest cannot be used (error says why). */
typedef struct choice_row {
    const char *name;
    const char *dir;
    const char *source; /* "user", "default", "argument"... */
    const ortkit_bundle *bundle;
    const char *error;
} choice_row;

/* The rows of a bundle search, in its order; free() the array. */
choice_row *choice_rows_of_list(const ortkit_bundle_list *list, size_t *count);
/* The order's steps and the overrides in effect, as lines with indent. */
void choice_view_preamble(FILE *out, const char *indent);
/* The table: those that fit by rank, then the others in search order. */
int choice_view_print(FILE *out, const choice_row *rows, size_t n, const ortkit_bundle_choice *c,
                      const char *indent);
/* The same with what a measurement found (mm: measured or recalled; NULL
 * or nothing known: the plain table): each candidate's p50, its rounds'
 * spread, its state, and the measurement's note first in its why. */
int choice_view_print_measured(FILE *out, const choice_row *rows, size_t n,
                               const ortkit_bundle_choice *c, const ortkit_measure *mm,
                               const char *indent);
/* The same as a JSON array of objects; overrides as an object. */
cJSON *choice_view_json(const choice_row *rows, size_t n, const ortkit_bundle_choice *c);
/* With each candidate's "measured" object (null for one not measured). */
cJSON *choice_view_json_measured(const choice_row *rows, size_t n, const ortkit_bundle_choice *c,
                                 const ortkit_measure *mm);
cJSON *choice_view_overrides_json(void);

#endif
