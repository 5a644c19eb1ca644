/* cmd_bundle_list.c - `ortkit bundle list`: the bundles the search finds, and where it looked. */
#include "bundle_cmds.h"
#include "bundle_view.h"
#include "view.h"

#include <string.h>

typedef struct list_args {
    int json;
} list_args;

const cli_opt bundle_list_opts[] = {
    {0, "json", 'j', NULL, 0, "print JSON", CLI_OPT_FLAG(list_args, json)},
    CLI_OPT_END};

/* The search's directories and every bundle found, usable or not: the
 * view --json prints and the text is drawn from. */
static cJSON *list_view(const ortkit_bundle_list *l)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddItemToObject(root, "dirs", bundle_dirs_view(l));
    cJSON *arr = cJSON_AddArrayToObject(root, "bundles");
    for (size_t i = 0; arr && i < ortkit_bundle_list_count(l); i++) {
        const ortkit_bundle_entry *e = ortkit_bundle_list_get(l, i);
        cJSON *o = e->bundle ? bundle_summary_view(ortkit_bundle_manifest(e->bundle))
                             : cJSON_CreateObject();
        if (!e->bundle) {
            cJSON_AddStringToObject(o, "name", e->name);
            cJSON_AddStringToObject(o, "dir", e->dir);
        }
        cJSON_AddStringToObject(o, "source", e->source);
        cJSON_AddBoolToObject(o, "usable", e->bundle && !ortkit_bundle_damage(e->bundle)[0]);
        cJSON_AddStringToObject(o, "error", e->bundle ? ortkit_bundle_damage(e->bundle) : e->error);
        cJSON_AddItemToArray(arr, o);
    }
    return root;
}

/* A bundle's NOTE: why it cannot be used, or what to know before using it. */
static void note_cell(const cJSON *o, char *buf, size_t size)
{
    const char *error = cli_view_str(o, "error");
    if (!cJSON_GetObjectItemCaseSensitive(o, "api_level")) /* no manifest */
        snprintf(buf, size, "unusable: %s", error);
    else if (error[0])
        snprintf(buf, size, "damaged: %s", error);
    else if (!strcmp(cli_view_str(o, "linkage"), "static"))
        snprintf(buf, size, "static: for linking (pkg-config --static), never loaded");
    else if (!cli_view_bool(o, "verified_by_loading"))
        snprintf(buf, size, "not yet verified by loading");
}

static const cli_view_column bundle_columns[] = {{"NAME", "name", NULL, 0, NULL},
                                                 {"ORT", "ort_version", NULL, 0, "-"},
                                                 {"VARIANT", "variant", NULL, 0, "-"},
                                                 {"ARCH", "arch", NULL, 0, "-"},
                                                 {"FROM", "source", NULL, 0, NULL},
                                                 {"DIR", "dir", NULL, 0, NULL},
                                                 {"NOTE", NULL, note_cell, 0, NULL}};

/* The view as text: the bundles' table, or where the search looked. */
static int print_list(const cJSON *view)
{
    const cJSON *bundles = cJSON_GetObjectItemCaseSensitive(view, "bundles"), *d;
    if (cJSON_GetArraySize(bundles))
        return cli_view_table(stdout, bundles, bundle_columns,
                              sizeof bundle_columns / sizeof bundle_columns[0], NULL);
    printf("no bundles found; searched:\n");
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(view, "dirs"))
        printf("  %-11s  %s (%s)\n", cli_esc(cli_view_str(d, "source")),
               cli_esc(cli_view_str(d, "path")), cli_view_str(d, "state"));
    printf("make one with 'ortkit bundle import'\n");
    return 0;
}

int cmd_bundle_list(const cli_opt_spec *spec, int argc, char **argv)
{
    list_args a = {0};
    cli_opt_parser p;
    if (cli_opt_parse(&p, spec, bundle_list_opts, &a, argc, argv))
        return p.status;
    int rc = CLI_OK;
    ortkit_bundle_list *l = NULL;
    if (ortkit_bundle_list_open(&l) != 0)
        return cli_fail_lib();

    /* An unreadable directory is worth a warning, not a failure. */
    for (size_t i = 0; i < ortkit_bundle_list_dir_count(l); i++) {
        const ortkit_bundle_dir *d = ortkit_bundle_list_dir(l, i);
        if (d->state == ORTKIT_BUNDLE_DIR_UNREADABLE ||
            (d->state == ORTKIT_BUNDLE_DIR_MISSING && !strcmp(d->source, "ORTKIT_PATH")))
            cli_warn("%s directory '%s' %s: %s", d->source, d->path,
                     d->state == ORTKIT_BUNDLE_DIR_MISSING ? "does not exist" : "cannot be read",
                     d->note);
    }
    cJSON *view = list_view(l);
    if (!view)
        rc = cli_fail("out of memory");
    else if (a.json)
        rc = cli_json_print(view);
    else if (print_list(view))
        rc = cli_fail("out of memory");
    if (!a.json)
        cJSON_Delete(view);
    ortkit_bundle_list_free(l);
    return rc;
}
