/*
 * compare_reports.c - two `ortkit validate --json` reports, A against B,
 * test by test (a test is its suite/name): each one's totals, the tests B
 * passes that A does not, and those A passes that B does not.  "Passes":
 * status pass, or xpass (passed, though listed as a known failure).
 */
#include "compare_reports.h"
#include "cli.h"
#include "view.h"

#include <stdlib.h>
#include <string.h>

#define MAX_REPORT_BYTES ((size_t)256 << 20)
/* What the text shows of each list; --json has them all. */
#define SHOWN 40

static cJSON *read_report(const char *path)
{
    size_t len = strlen(path), size = 0;
    char *text = NULL;
    if (len < 5 || strcmp(path + len - 5, ".json") ||
        ortkit__file_read(&text, &size, path, MAX_REPORT_BYTES))
        return NULL;
    cJSON *doc = cJSON_ParseWithLength(text, size);
    free(text);
    if (doc && (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(doc, "tests")) ||
                !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(doc, "totals")))) {
        cJSON_Delete(doc);
        doc = NULL;
    }
    return doc;
}

int compare_is_report(const char *path)
{
    cJSON *doc = read_report(path);
    cJSON_Delete(doc);
    return doc != NULL;
}

static int passed(const cJSON *t)
{
    const char *s = cli_view_str(t, "status");
    return t && (!strcmp(s, "pass") || !strcmp(s, "xpass"));
}

static void test_key(const cJSON *t, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s", cli_view_str(t, "suite"), cli_view_str(t, "name"));
}

static const cJSON *find_test(const cJSON *tests, const char *key)
{
    char k[512];
    for (const cJSON *t = tests->child; t; t = t->next) {
        test_key(t, k, sizeof k);
        if (!strcmp(k, key))
            return t;
    }
    return NULL;
}

/* The tests one report passes and the other does not: {test, a, b, message}. */
static cJSON *changes(const cJSON *from, const cJSON *other, int a_is_from)
{
    cJSON *list = cJSON_CreateArray();
    for (const cJSON *t = from->child; list && t; t = t->next) {
        char key[512];
        test_key(t, key, sizeof key);
        const cJSON *o = find_test(other, key);
        if (!passed(t) || passed(o))
            continue;
        /* The side that does not pass says why. */
        const char *mine = cli_view_str(t, "status");
        const char *theirs = o ? cli_view_str(o, "status") : "absent";
        cJSON *e = cJSON_CreateObject();
        ortkit__json_add_strings(e, "test", key, "a", a_is_from ? mine : theirs, "b",
                                 a_is_from ? theirs : mine, "message",
                                 o ? cli_view_str(o, "message") : "", NULL);
        cJSON_AddItemToArray(list, e);
    }
    return list;
}

static cJSON *side(const char *path, const cJSON *doc)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "report", path);
    static const char *const kept[] = {"runtime", "totals"};
    for (size_t i = 0; i < 2; i++)
        cJSON_AddItemToObject(o, kept[i],
                              cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(doc, kept[i]), 1));
    return o;
}

static void print_list(const char *title, const cJSON *list)
{
    int n = cJSON_GetArraySize(list), shown = 0;
    printf("%s: %d\n", title, n);
    for (const cJSON *e = list->child; e && shown < SHOWN; e = e->next, shown++) {
        const char *msg = cli_view_str(e, "message");
        printf("  %s: A %s, B %s%s%.150s\n", cli_esc(cli_view_str(e, "test")), cli_view_str(e, "a"),
               cli_view_str(e, "b"), msg[0] ? ": " : "", cli_esc(msg));
    }
    if (n > shown)
        printf("  (%d more: --json lists them all)\n", n - shown);
}

static int print_view(const cJSON *view)
{
    static const char *const headers[] = {"", "REPORT", "TESTS", "PASS", "FAIL", "XFAIL", "XPASS",
                                          "UNSUPPORTED", "NOT-RUN"};
    static const char *const keys[] = {"tests", "pass",        "fail",   "xfail",
                                       "xpass", "unsupported", "not-run"};
    cli_table *t = cli_table_new(9, headers);
    for (size_t c = 2; c < 9; c++)
        cli_table_align_right(t, c);
    for (int s = 0; s < 2; s++) {
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(view, s ? "b" : "a");
        const cJSON *tot = cJSON_GetObjectItemCaseSensitive(o, "totals");
        char cells[9][64];
        const char *row[9];
        snprintf(cells[0], sizeof cells[0], "%s", s ? "B" : "A");
        snprintf(cells[1], sizeof cells[1], "%.63s", cli_view_str(o, "report"));
        for (size_t k = 0; k < 7; k++)
            snprintf(cells[2 + k], sizeof cells[2 + k], "%.0f", cli_view_num(tot, keys[k]));
        for (size_t k = 0; k < 9; k++)
            row[k] = cells[k];
        cli_table_add(t, row);
    }
    int rc = cli_table_print(t, stdout, "") ? cli_fail("out of memory") : 0;
    cli_table_free(t);
    if (rc)
        return rc;
    print_list("worse in A (B passes, A does not)",
               cJSON_GetObjectItemCaseSensitive(view, "worse"));
    print_list("better in A (A passes, B does not)",
               cJSON_GetObjectItemCaseSensitive(view, "better"));
    return 0;
}

int compare_reports(const char *a, const char *b, int json)
{
    cJSON *da = read_report(a), *db = read_report(b);
    if (!da || !db) {
        cJSON_Delete(da);
        cJSON_Delete(db);
        return cli_fail("cannot read '%s' as a validate report", da ? b : a) + 1;
    }
    const cJSON *ta = cJSON_GetObjectItemCaseSensitive(da, "tests");
    const cJSON *tb = cJSON_GetObjectItemCaseSensitive(db, "tests");
    cJSON *view = cJSON_CreateObject();
    cJSON_AddItemToObject(view, "a", side(a, da));
    cJSON_AddItemToObject(view, "b", side(b, db));
    cJSON *worse = changes(tb, ta, 0);
    int n_worse = cJSON_GetArraySize(worse);
    cJSON_AddItemToObject(view, "worse", worse);
    cJSON_AddItemToObject(view, "better", changes(ta, tb, 1));
    cJSON_Delete(da);
    cJSON_Delete(db);
    int rc = json ? cli_json_print(view) : print_view(view);
    if (!json)
        cJSON_Delete(view);
    return rc ? rc : n_worse ? CLI_FAIL : CLI_OK;
}
