/*
 * validate_report.c - what `ortkit validate` prints: the failures, the
 * expected failures with their reasons, what ortkit cannot run, tables by
 * suite and by operator, determinism and memory findings; or all of it as
 * JSON; and JUnit XML for CI systems.
 */
#include "validate_cli.h"
#include "view.h"

#include <stdlib.h>
#include <string.h>

static const char *const verdict_names[V_VERDICT_COUNT] = {"not-run", "pass", "fail", "xfail",
                                                           "xpass", "unsupported"};

const char *v_verdict_name(v_verdict v) { return v < V_VERDICT_COUNT ? verdict_names[v] : "?"; }

/* Both as printed: escaped (cli_esc). */
static const char *suite_of(const v_test *t) { return t->t->suite[0] ? cli_esc(t->t->suite) : "-"; }
static const char *name_of(const v_test *t) { return cli_esc(t->t->name); }
/* Tests of several operators none of which the test names, or of no readable model. */
static const char *op_of(const v_test *t) { return t->t->op[0] ? t->t->op : "(other)"; }

void v_print_line(FILE *out, const v_test *t)
{
    static const char *const labels[V_VERDICT_COUNT] = {"NOT-RUN", "PASS", "FAIL", "XFAIL",
                                                        "XPASS", "UNSUPPORTED"};
    fprintf(out, "%-11s %s/%s", labels[t->verdict], suite_of(t), name_of(t));
    const ortkit_conformance_result *r = &t->res;
    switch (t->verdict) {
    case V_PASS:
        fprintf(out, "  (%.2f s)\n", r->seconds);
        break;
    case V_XPASS:
        fprintf(out, "  passed, but listed as a known failure: %s\n", cli_esc(t->known->text));
        break;
    case V_XFAIL:
        fprintf(out, "  %s (got %s: %s)\n", cli_esc(t->known->text), cli_esc(r->stage),
                cli_esc(r->message));
        break;
    case V_NOT_RUN:
        fputc('\n', out);
        break;
    default:
        fprintf(out, "  %s: %s\n", cli_esc(r->stage), cli_esc(r->message));
    }
}

/* ---- counting ---------------------------------------------------------------- */

typedef struct group {
    const char *name;
    size_t n[V_VERDICT_COUNT];
    size_t total;
} group;

typedef struct groups {
    group *g;
    size_t count, cap;
} groups;

static group *group_of(groups *gs, const char *name)
{
    for (size_t i = 0; i < gs->count; i++)
        if (!strcmp(gs->g[i].name, name))
            return &gs->g[i];
    if (gs->count == gs->cap) {
        size_t cap = gs->cap ? gs->cap * 2 : 32;
        group *bigger = realloc(gs->g, cap * sizeof *bigger);
        if (!bigger)
            return NULL;
        gs->g = bigger;
        gs->cap = cap;
    }
    group *g = &gs->g[gs->count++];
    memset(g, 0, sizeof *g);
    g->name = name;
    return g;
}

static int group_order(const void *pa, const void *pb)
{
    return strcmp(((const group *)pa)->name, ((const group *)pb)->name);
}

/* Groups by suite (by_op 0) or operator (1), sorted; the last entry is the total. */
static int count_groups(groups *gs, const v_test *tests, size_t n, int by_op)
{
    memset(gs, 0, sizeof *gs);
    for (size_t i = 0; i < n; i++) {
        group *g = group_of(gs, by_op ? op_of(&tests[i]) : suite_of(&tests[i]));
        if (!g)
            return -1;
        g->n[tests[i].verdict]++;
        g->total++;
    }
    if (gs->count)
        qsort(gs->g, gs->count, sizeof *gs->g, group_order);
    group *total = group_of(gs, "total");
    if (!total)
        return -1;
    for (size_t i = 0; i < n; i++) {
        total->n[tests[i].verdict]++;
        total->total++;
    }
    return 0;
}

/* ---- the views both reports are drawn from ---------------------------------------- */

static size_t count_verdict(const v_test *tests, size_t n, v_verdict v)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += tests[i].verdict == v;
    return k;
}

/* The tests by suite or by operator: {name: {tests, and a count per verdict}}. */
static cJSON *groups_view(const v_test *tests, size_t n, int by_op)
{
    groups gs;
    cJSON *obj = cJSON_CreateObject();
    if (!obj || count_groups(&gs, tests, n, by_op)) {
        cJSON_Delete(obj);
        return NULL;
    }
    for (size_t i = 0; i + 1 < gs.count; i++) {
        cJSON *g = cJSON_AddObjectToObject(obj, gs.g[i].name);
        cJSON_AddNumberToObject(g, "tests", (double)gs.g[i].total);
        for (v_verdict v = 0; v < V_VERDICT_COUNT; v++)
            cJSON_AddNumberToObject(g, verdict_names[v], (double)gs.g[i].n[v]);
    }
    free(gs.g);
    return obj;
}

/* Every test: {tests, and a count per verdict}. */
static cJSON *totals_view(const v_test *tests, size_t n)
{
    cJSON *tot = cJSON_CreateObject();
    cJSON_AddNumberToObject(tot, "tests", (double)n);
    for (v_verdict v = 0; v < V_VERDICT_COUNT; v++)
        cJSON_AddNumberToObject(tot, verdict_names[v], (double)count_verdict(tests, n, v));
    return tot;
}

/* One row of a groups table: the name, its tests, its counts in the table's order. */
static int add_group_row(cli_table *tab, const char *name, const cJSON *g)
{
    static const v_verdict order[] = {V_PASS, V_FAIL, V_XFAIL, V_XPASS, V_UNSUPPORTED, V_NOT_RUN};
    char cells[8][32];
    const char *row[8];
    snprintf(cells[0], sizeof cells[0], "%.31s", name);
    snprintf(cells[1], sizeof cells[1], "%.0f", cli_view_num(g, "tests"));
    for (size_t k = 0; k < 6; k++)
        snprintf(cells[2 + k], sizeof cells[2 + k], "%.0f", cli_view_num(g, verdict_names[order[k]]));
    for (size_t k = 0; k < 8; k++)
        row[k] = cells[k];
    return cli_table_add(tab, row);
}

/* A groups view drawn as a table, then the total: with skip_clean, the
 * groups whose every test passed are counted, not shown.  0, or -1 when
 * the table could not be made. */
static int print_groups(const cJSON *view, const cJSON *totals, const char *title, int skip_clean,
                        int interrupted)
{
    const char *headers[] = {title, "tests", "pass", "fail", "xfail", "xpass", "unsupported",
                             "not run"};
    size_t cols = interrupted ? 8 : 7, clean = 0;
    cli_table *tab = view && totals ? cli_table_new(cols, headers) : NULL;
    if (!tab)
        return -1;
    for (size_t c = 1; c < cols; c++)
        cli_table_align_right(tab, c);
    const cJSON *g;
    cJSON_ArrayForEach(g, view) {
        if (skip_clean && cli_view_num(g, "pass") == cli_view_num(g, "tests"))
            clean++;
        else
            add_group_row(tab, g->string, g);
    }
    add_group_row(tab, "total", totals);
    int rc = cli_table_print(tab, stdout, "");
    cli_table_free(tab);
    if (!rc && clean)
        printf("(%zu more %ss: every test passed)\n", clean, title);
    return rc;
}

/* ---- the text report ------------------------------------------------------------- */

/* "suite/name" of a test in the view, escaped ("-" for no suite). */
static const char *test_id(const cJSON *t, char *buf, size_t size)
{
    const char *suite = cli_view_str(t, "suite");
    snprintf(buf, size, "%s/", suite[0] ? suite : "-");
    snprintf(buf + strlen(buf), size - strlen(buf), "%s", cli_view_str(t, "name"));
    return cli_esc(buf);
}

/* The tests of one status, each with why. */
static void text_section(const cJSON *view, const char *status, const char *title)
{
    const cJSON *tests = cJSON_GetObjectItemCaseSensitive(view, "tests"), *t;
    size_t k = (size_t)cli_view_num(cJSON_GetObjectItemCaseSensitive(view, "totals"), status);
    if (!k)
        return;
    printf("\n%s (%zu):\n", title, k);
    cJSON_ArrayForEach(t, tests) {
        char id[600];
        if (strcmp(cli_view_str(t, "status"), status))
            continue;
        if (!strcmp(status, "xfail"))
            printf("  %s: %s\n", test_id(t, id, sizeof id), cli_esc(cli_view_str(t, "known_failure")));
        else if (!strcmp(status, "xpass"))
            printf("  %s: passed; the list says: %s\n", test_id(t, id, sizeof id),
                   cli_esc(cli_view_str(t, "known_failure")));
        else
            printf("  %s: %s: %s\n", test_id(t, id, sizeof id), cli_esc(cli_view_str(t, "stage")),
                   cli_esc(cli_view_str(t, "message")));
    }
}

/* What --repeat, --soak and --ep found. */
static void text_findings(const cJSON *view)
{
    const cJSON *opt = cJSON_GetObjectItemCaseSensitive(view, "options");
    const cJSON *tests = cJSON_GetObjectItemCaseSensitive(view, "tests"), *t;
    char id[600];
    if (cli_view_num(opt, "repeat") > 1) {
        size_t k = 0;
        cJSON_ArrayForEach(t, tests)
            k += cli_view_bool(t, "unstable");
        printf("\ndeterminism: %zu of %d tests gave outputs that differ between %.0f runs%s\n", k,
               cJSON_GetArraySize(tests), cli_view_num(opt, "repeat"), k ? ":" : "");
        cJSON_ArrayForEach(t, tests)
            if (cli_view_bool(t, "unstable"))
                printf("  %s: largest difference %.3g\n", test_id(t, id, sizeof id),
                       cli_view_num(t, "unstable_diff"));
    }
    if (cli_view_num(opt, "soak") > 0) {
        printf("\nresident memory over a %g s soak per test (first pass -> end):\n",
               cli_view_num(opt, "soak"));
        cJSON_ArrayForEach(t, tests) {
            double start = cli_view_num(t, "rss_start_kb"), end = cli_view_num(t, "rss_end_kb");
            char a[32], b[32];
            if (!start)
                continue;
            ortkit__human_bytes(a, sizeof a, start * 1024);
            ortkit__human_bytes(b, sizeof b, end * 1024);
            printf("  %s: %s -> %s (%+lld KiB over %.0f runs)\n", test_id(t, id, sizeof id), a, b,
                   (long long)(end - start), cli_view_num(t, "runs"));
        }
    }
    const cJSON *got = cJSON_GetObjectItemCaseSensitive(view, "providers_got"), *g;
    if (cJSON_GetArraySize(got)) {
        printf("\nproviders the sessions got:\n");
        cJSON_ArrayForEach(g, got)
            printf("  %-28s %.0f tests\n", cli_esc(cli_view_str(g, "provider")), cli_view_num(g, "tests"));
    }
}

/* The report as text, drawn from its view.  CLI_OK, or CLI_FAIL when a
 * table could not be made. */
static int report_text(const cJSON *view)
{
    const cJSON *rt = cJSON_GetObjectItemCaseSensitive(view, "runtime");
    const cJSON *opt = cJSON_GetObjectItemCaseSensitive(view, "options");
    const cJSON *totals = cJSON_GetObjectItemCaseSensitive(view, "totals");
    int interrupted = cli_view_bool(view, "interrupted");
    printf("runtime   ONNX Runtime %s (%s)\n", cli_esc(cli_view_str(rt, "version")),
           cli_esc(cli_view_str(rt, "path")));
    const char *known = cli_view_str(view, "known_failures");
    printf("known     %s\n", known[0] ? cli_esc(known) : "(no known-failures list)");
    if (cli_view_str(view, "known_failures_fallback")[0])
        printf("          %s\n", cli_esc(cli_view_str(view, "known_failures_fallback")));
    char threads[48] = "ORT's default intra-op threads";
    double th = cli_view_num(opt, "threads");
    if (th)
        snprintf(threads, sizeof threads, "%.0f intra-op thread%s", th, th == 1 ? "" : "s");
    printf("options   -j %.0f, %s, rtol %g, atol %g, timeout %g s\n", cli_view_num(opt, "jobs"),
           threads, cli_view_num(opt, "rtol"), cli_view_num(opt, "atol"), cli_view_num(opt, "timeout"));
    text_section(view, "fail", "failures");
    text_section(view, "xpass", "unexpected passes (listed as known failures)");
    text_section(view, "xfail", "expected failures");
    text_section(view, "unsupported", "unsupported by ortkit");
    text_findings(view);
    static const char *const by[] = {"suites", "operators"}, *const title[] = {"suite", "operator"};
    for (int by_op = 0; by_op < 2; by_op++) {
        printf("\n");
        if (print_groups(cJSON_GetObjectItemCaseSensitive(view, by[by_op]), totals, title[by_op],
                         by_op, interrupted))
            return cli_fail("out of memory");
    }
    double fail = cli_view_num(totals, "fail"), xpass = cli_view_num(totals, "xpass");
    int bad = fail || (xpass && !cli_view_bool(opt, "allow_xpass"));
    printf("\nresult: %s: %.0f passed, %.0f failed, %.0f expected failures, %.0f unexpected passes, "
           "%.0f unsupported",
           interrupted ? "INTERRUPTED" : bad ? "FAIL" : "OK", cli_view_num(totals, "pass"), fail,
           cli_view_num(totals, "xfail"), xpass, cli_view_num(totals, "unsupported"));
    if (interrupted)
        printf(", %.0f not run", cli_view_num(totals, "not-run"));
    printf(" in %.1f s\n", cli_view_num(view, "seconds"));
    return CLI_OK;
}

/* ---- JSON ------------------------------------------------------------------------ */

static cJSON *test_json(const v_test *t)
{
    const ortkit_conformance_result *r = &t->res;
    cJSON *o = cJSON_CreateObject();
    ortkit__json_add_strings(o, "name", t->t->name, "suite", t->t->suite, "dir", t->t->dir, "op",
                             t->t->op, NULL);
    cJSON_AddNumberToObject(o, "opset", (double)t->t->opset);
    cJSON_AddStringToObject(o, "status", verdict_names[t->verdict]);
    if (t->verdict != V_NOT_RUN) {
        ortkit__json_add_strings(o, "stage", r->stage, "message", r->message, "provider", r->provider,
                                 NULL);
        CLI_VIEW_ADD_NUMBERS(o, {"seconds", r->seconds}, {"data_sets", r->data_sets},
                             {"runs", (double)r->runs});
        if (r->worst[0]) {
            cJSON_AddNumberToObject(o, "max_diff", r->max_diff);
            cJSON_AddStringToObject(o, "max_diff_at", r->worst);
        }
        cJSON_AddBoolToObject(o, "unstable", r->unstable);
        if (r->unstable)
            cJSON_AddNumberToObject(o, "unstable_diff", r->unstable_diff);
        if (r->rss_start_kb) {
            cJSON_AddNumberToObject(o, "rss_start_kb", (double)r->rss_start_kb);
            cJSON_AddNumberToObject(o, "rss_end_kb", (double)r->rss_end_kb);
        }
        if (t->signal)
            cJSON_AddNumberToObject(o, "signal", t->signal);
        cJSON_AddBoolToObject(o, "timed_out", t->timed_out);
    }
    if (t->known)
        cJSON_AddStringToObject(o, "known_failure", t->known->text);
    return o;
}

/* key: text, or null when it is NULL or "". */
static void add_text_or_null(cJSON *o, const char *key, const char *text)
{
    if (text && text[0])
        cJSON_AddStringToObject(o, key, text);
    else
        cJSON_AddNullToObject(o, key);
}

/* The providers the sessions got, a count each (with --ep only). */
static cJSON *providers_got(const v_test *tests, size_t n, const v_config *cfg)
{
    cJSON *arr = cJSON_CreateArray();
    groups gs = {0};
    for (size_t i = 0; cfg->session.provider_count && i < n; i++) {
        group *g = group_of(&gs, tests[i].res.provider[0] ? tests[i].res.provider : "(none)");
        if (g)
            g->total++;
    }
    for (size_t i = 0; i < gs.count; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "provider", gs.g[i].name);
        cJSON_AddNumberToObject(o, "tests", (double)gs.g[i].total);
        cJSON_AddItemToArray(arr, o);
    }
    free(gs.g);
    return arr;
}

/* The report: what --json prints and the text is drawn from. */
static cJSON *report_view(const v_test *tests, size_t n, const v_config *cfg, double seconds,
                          int interrupted)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *rt = cJSON_AddObjectToObject(root, "runtime");
    cJSON_AddStringToObject(rt, "version", cfg->runtime_version);
    cJSON_AddStringToObject(rt, "path", cfg->runtime_path);
    cJSON_AddStringToObject(root, "known_failures", cfg->known_path);
    /* The release the default list was measured on, and why it is not the runtime's own. */
    add_text_or_null(root, "known_failures_release", cfg->known_release);
    add_text_or_null(root, "known_failures_fallback", cfg->known_note);
    cJSON *opt = cJSON_AddObjectToObject(root, "options");
    CLI_VIEW_ADD_NUMBERS(opt, {"jobs", (double)cfg->jobs}, {"threads", cfg->session.intra_op_threads},
                         {"timeout", cfg->timeout}, {"repeat", cfg->conf.repeat},
                         {"soak", cfg->conf.soak_seconds},
                         /* the tolerances in force (0 given: exact; unset: the defaults) */
                         {"rtol", cfg->conf.rtol > 0 ? cfg->conf.rtol : cfg->conf.rtol < 0 ? 0 : ORTKIT_COMPARE_RTOL},
                         {"atol", cfg->conf.atol > 0 ? cfg->conf.atol : cfg->conf.atol < 0 ? 0 : ORTKIT_COMPARE_ATOL});
    cJSON_AddBoolToObject(opt, "allow_xpass", cfg->allow_xpass);
    cJSON *arr = cJSON_AddArrayToObject(root, "tests");
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(arr, test_json(&tests[i]));
    cJSON_AddItemToObject(root, "suites", groups_view(tests, n, 0));
    cJSON_AddItemToObject(root, "operators", groups_view(tests, n, 1));
    cJSON_AddItemToObject(root, "totals", totals_view(tests, n));
    cJSON_AddItemToObject(root, "providers_got", providers_got(tests, n, cfg));
    cJSON_AddNumberToObject(root, "seconds", seconds);
    cJSON_AddBoolToObject(root, "interrupted", interrupted);
    return root;
}

/* ---- JUnit ------------------------------------------------------------------------ */

static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        switch (ch) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            /* XML 1.0 allows no control characters but tab and newlines. */
            if (ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r')
                fputc('?', f);
            else
                fputc(ch, f);
        }
    }
}

static void junit_case(FILE *f, const v_test *t, int allow_xpass)
{
    const ortkit_conformance_result *r = &t->res;
    fputs("    <testcase classname=\"", f);
    xml_text(f, suite_of(t));
    fputs("\" name=\"", f);
    xml_text(f, t->t->name);
    fprintf(f, "\" time=\"%.3f\"", r->seconds);
    const char *tag = NULL, *type = r->stage, *msg = r->message, *reason = "";
    switch (t->verdict) {
    case V_FAIL: tag = "failure"; break;
    case V_XPASS:
        tag = allow_xpass ? "skipped" : "failure";
        type = "unexpected-pass";
        msg = "passed, but listed as a known failure: ";
        reason = t->known->text;
        break;
    case V_XFAIL:
        tag = "skipped";
        msg = "expected failure: ";
        reason = t->known->text;
        break;
    case V_UNSUPPORTED: tag = "skipped"; break;
    case V_NOT_RUN:
        tag = "skipped";
        type = "not-run";
        msg = "not run: interrupted";
        break;
    default: break;
    }
    if (!tag) {
        fputs("/>\n", f);
        return;
    }
    fprintf(f, ">\n      <%s type=\"", tag);
    xml_text(f, type);
    fputs("\" message=\"", f);
    xml_text(f, msg);
    xml_text(f, reason);
    fputs("\"/>\n    </testcase>\n", f);
}

/*
 * The JUnit file, built in memory and written through util's atomic write
 * (a temporary name beside it, renamed into place; mode 0666 less the
 * umask).  An interrupted run still writes one, so that no earlier report
 * stands for this run, but a partial one that cannot pass: the tests not
 * run are <skipped> and one more test case, "interrupted", holds an <error>
 * saying the run was stopped and by what.
 */
static int write_junit(const v_test *tests, size_t n, const v_config *cfg, double seconds,
                       int interrupted)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    groups gs = {0};
    int rc = !f || count_groups(&gs, tests, n, 0);
    if (!rc) {
        size_t fails = count_verdict(tests, n, V_FAIL) +
                       (cfg->allow_xpass ? 0 : count_verdict(tests, n, V_XPASS));
        size_t skipped = n - count_verdict(tests, n, V_PASS) - fails, errors = interrupted ? 1 : 0;
        fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        if (interrupted)
            fprintf(f, "<!-- partial: the run was interrupted (SIG%s) after %zu of %zu tests -->\n",
                    ortkit__signal_abbrev(interrupted) ? ortkit__signal_abbrev(interrupted) : "?",
                    n - count_verdict(tests, n, V_NOT_RUN), n);
        fprintf(f, "<testsuites name=\"ortkit validate\" tests=\"%zu\" failures=\"%zu\" "
                   "errors=\"%zu\" skipped=\"%zu\" time=\"%.3f\">\n",
                n + errors, fails, errors, skipped, seconds);
        for (size_t g = 0; g + 1 < gs.count; g++) {
            const group *s = &gs.g[g];
            size_t sfails = s->n[V_FAIL] + (cfg->allow_xpass ? 0 : s->n[V_XPASS]);
            fputs("  <testsuite name=\"", f);
            xml_text(f, s->name);
            fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n", s->total,
                    sfails, s->total - s->n[V_PASS] - sfails);
            for (size_t i = 0; i < n; i++)
                if (!strcmp(suite_of(&tests[i]), s->name))
                    junit_case(f, &tests[i], cfg->allow_xpass);
            fputs("  </testsuite>\n", f);
        }
        if (interrupted) {
            fputs("  <testsuite name=\"ortkit validate\" tests=\"1\" failures=\"0\" errors=\"1\" "
                  "skipped=\"0\">\n", f);
            fprintf(f, "    <testcase classname=\"ortkit validate\" name=\"interrupted\" time=\"%.3f\">\n"
                       "      <error type=\"interrupted\" message=\"the run was interrupted (SIG%s) "
                       "after %zu of %zu tests; this report is partial\"/>\n"
                       "    </testcase>\n  </testsuite>\n",
                    seconds, ortkit__signal_abbrev(interrupted) ? ortkit__signal_abbrev(interrupted) : "?",
                    n - count_verdict(tests, n, V_NOT_RUN), n);
        }
        fputs("</testsuites>\n", f);
    }
    free(gs.g);
    if (f && fclose(f) != 0)
        rc = 1;
    if (rc) {
        free(text);
        return cli_fail("cannot write JUnit file '%s': out of memory", cfg->junit);
    }
    rc = ortkit__file_write_atomic(cfg->junit, text, len);
    free(text);
    if (rc)
        return cli_fail("cannot write JUnit file '%s': %s", cfg->junit, ortkit__error_message());
    return CLI_OK;
}

int v_report(const v_test *tests, size_t n, const v_config *cfg, double seconds, int interrupted)
{
    cJSON *view = report_view(tests, n, cfg, seconds, interrupted);
    int rc = !view ? cli_fail("out of memory") : cfg->json ? cli_json_print(view) : report_text(view);
    if (view && !cfg->json)
        cJSON_Delete(view);
    fflush(stdout);
    if (rc)
        return rc;
    return cfg->junit ? write_junit(tests, n, cfg, seconds, interrupted) : CLI_OK;
}
