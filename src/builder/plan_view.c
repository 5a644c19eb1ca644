/*
 * plan_view.c - a plan as the JSON `ortkit build --dry-run --json` prints,
 * and its text drawn from that same object, so the two cannot drift apart:
 * the summary as labelled lines (in order, a label may repeat: one
 * "dependency" a dependency), what the variant's flags reach, the
 * commands, one argument a line.
 */
#include "builder_plan.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* "label\tvalue" lines as [{"label", "value"}] (a line without a tab is a value alone). */
static cJSON *labelled(const ortkit__strv *lines, const char *label_key, const char *value_key)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; arr && i < lines->n; i++) {
        const char *line = lines->v[i], *tab = strchr(line, '\t');
        cJSON *o = cJSON_CreateObject();
        char *label = tab ? strndup(line, (size_t)(tab - line)) : NULL;
        cJSON_AddItemToObject(o, label_key, label ? cJSON_CreateString(label) : cJSON_CreateNull());
        cJSON_AddStringToObject(o, value_key, tab ? tab + 1 : line);
        free(label);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

static cJSON *file_view(const char *path, const char *text)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "path", path ? path : "");
    cJSON_AddStringToObject(o, "text", text);
    return o;
}

cJSON *ortkit__builder_plan_view(const ortkit__builder_plan *plan)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddItemToObject(root, "summary", labelled(&plan->summary, "label", "value"));
    if (plan->sharing.n)
        cJSON_AddItemToObject(root, "sharing", labelled(&plan->sharing, "part", "reach"));
    if (plan->reduce.n)
        cJSON_AddItemToObject(root, "reduce_operators",
                              cJSON_CreateStringArray((const char *const *)plan->reduce.v,
                                                      (int)plan->reduce.n));
    if (plan->toolchain_text)
        cJSON_AddItemToObject(root, "toolchain_file",
                              file_view(plan->toolchain_path, plan->toolchain_text));
    if (plan->cpu_flags_cmake)
        cJSON_AddItemToObject(root, "cpu_flags_file",
                              file_view(plan->cpu_flags_path, plan->cpu_flags_cmake));
    cJSON_AddItemToObject(root, "configure",
                          cJSON_CreateStringArray((const char *const *)plan->configure.v,
                                                  (int)plan->configure.n));
    cJSON_AddStringToObject(root, "stage", plan->stage_dir ? plan->stage_dir : "");
    return root;
}

/* A command, one argument a line ("-S dir" and "-B dir" stay on one). */
static int command_text(FILE *out, const char *title, const cJSON *argv)
{
    int n = cJSON_GetArraySize(argv);
    fprintf(out, "\n%s:\n", title);
    for (int i = 0; i < n; i++) {
        const char *arg = cJSON_GetStringValue(cJSON_GetArrayItem(argv, i));
        char *q = ortkit__shell_quote(arg ? arg : ""), *q2 = NULL;
        if (!q)
            return ortkit__error_nomem();
        int pair = arg && arg[0] == '-' && strlen(arg) == 2 && i + 1 < n;
        if (pair) {
            const char *next = cJSON_GetStringValue(cJSON_GetArrayItem(argv, ++i));
            q2 = ortkit__shell_quote(next ? next : "");
        }
        fprintf(out, "%s%s%s%s%s\n", i - pair ? "    " : "  ", q, pair ? " " : "",
                pair && q2 ? q2 : "", i + 1 < n ? " \\" : "");
        free(q);
        free(q2);
    }
    return 0;
}

static void labelled_text(FILE *out, const cJSON *lines, const char *label_key, const char *value_key)
{
    const cJSON *o;
    cJSON_ArrayForEach(o, lines) {
        const char *label = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, label_key));
        const char *value = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, value_key));
        if (label)
            fprintf(out, "  %-13s %s\n", label, value ? value : "");
        else
            fprintf(out, "  %s\n", value ? value : "");
    }
}

static void file_text(FILE *out, const cJSON *file, const char *what)
{
    if (!file)
        return;
    fprintf(out, "\n%s (%s):\n%s", cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(file, "path")),
            what, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(file, "text")));
}

int ortkit__builder_plan_text(const cJSON *view, FILE *out)
{
    int rc = 0;
    const cJSON *sharing = cJSON_GetObjectItemCaseSensitive(view, "sharing");
    const cJSON *reduce = cJSON_GetObjectItemCaseSensitive(view, "reduce_operators");
    const cJSON *configure = cJSON_GetObjectItemCaseSensitive(view, "configure");
    fprintf(out, "ortkit build plan\n");
    labelled_text(out, cJSON_GetObjectItemCaseSensitive(view, "summary"), "label", "value");
    if (cJSON_GetArraySize(sharing)) {
        fprintf(out, "\nwhat the variant's flags reach (compiles without them are shared between "
                     "variants):\n");
        labelled_text(out, sharing, "part", "reach");
    }
    if (reduce && (rc = command_text(out, "reduce operators", reduce)))
        return rc;
    file_text(out, cJSON_GetObjectItemCaseSensitive(view, "toolchain_file"), "CMAKE_TOOLCHAIN_FILE");
    file_text(out, cJSON_GetObjectItemCaseSensitive(view, "cpu_flags_file"), "CMAKE_PROJECT_INCLUDE");
    if ((rc = command_text(out, "configure", configure)))
        return rc;
    const char *build = cJSON_GetStringValue(cJSON_GetArrayItem(configure, 4));
    fprintf(out, "\ninstall:\n  cmake --install %s --prefix %s\n", build ? build : "?",
            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(view, "stage")));
    return 0;
}
