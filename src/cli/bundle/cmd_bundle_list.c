/* cmd_bundle_list.c - `ortkit bundle list`: the bundles the search finds, and where it looked. */
#include "bundle_cmds.h"
#include "bundle_view.h"

#include <string.h>

typedef struct list_args {
    int json;
} list_args;

const cli_opt bundle_list_opts[] = {
    {0, "json", 'j', NULL, 0, "print JSON", CLI_OPT_FLAG(list_args, json)},
    CLI_OPT_END};

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
    size_t n = ortkit_bundle_list_count(l);
    if (a.json) {
        cJSON *root = cJSON_CreateObject();
        cJSON_AddItemToObject(root, "dirs", bundle_dirs_json(l));
        cJSON *arr = cJSON_AddArrayToObject(root, "bundles");
        for (size_t i = 0; i < n; i++) {
            const ortkit_bundle_entry *e = ortkit_bundle_list_get(l, i);
            cJSON *o = e->bundle ? bundle_summary_json(ortkit_bundle_manifest(e->bundle)) : cJSON_CreateObject();
            if (!e->bundle) {
                cJSON_AddStringToObject(o, "name", e->name);
                cJSON_AddStringToObject(o, "dir", e->dir);
            }
            cJSON_AddStringToObject(o, "source", e->source);
            cJSON_AddBoolToObject(o, "usable", e->bundle && !ortkit_bundle_damage(e->bundle)[0]);
            cJSON_AddStringToObject(o, "error", e->bundle ? ortkit_bundle_damage(e->bundle) : e->error);
            cJSON_AddItemToArray(arr, o);
        }
        rc = cli_json_print(root);
    } else if (n == 0) {
        printf("no bundles found; searched:\n");
        for (size_t i = 0; i < ortkit_bundle_list_dir_count(l); i++) {
            const ortkit_bundle_dir *d = ortkit_bundle_list_dir(l, i);
            printf("  %-11s  %s (%s)\n", cli_esc(d->source), cli_esc(d->path),
                   bundle_dir_state_name(d->state));
        }
        printf("make one with 'ortkit bundle import'\n");
    } else {
        static const char *const headers[] = {"NAME", "ORT", "VARIANT", "ARCH", "FROM", "DIR", "NOTE"};
        cli_table *t = cli_table_new(7, headers);
        for (size_t i = 0; i < n; i++) {
            const ortkit_bundle_entry *e = ortkit_bundle_list_get(l, i);
            const ortkit_manifest *m = e->bundle ? ortkit_bundle_manifest(e->bundle) : NULL;
            char note[1100] = "";
            if (!m)
                snprintf(note, sizeof note, "unusable: %s", e->error);
            else if (ortkit_bundle_damage(e->bundle)[0])
                snprintf(note, sizeof note, "damaged: %s", ortkit_bundle_damage(e->bundle));
            else if (m->linkage && !strcmp(m->linkage, "static"))
                snprintf(note, sizeof note, "static: for linking (pkg-config --static), never loaded");
            else if (!m->verified_by_loading)
                snprintf(note, sizeof note, "not yet verified by loading");
            cli_table_add(t, (const char *[]){e->name, m ? m->ort_version : "-",
                                              m ? m->variant : "-",
                                              m ? ortkit_arch_name(m->arch) : "-", e->source,
                                              e->dir, note});
        }
        if (cli_table_print(t, stdout, NULL))
            rc = cli_fail("out of memory");
        cli_table_free(t);
    }
    ortkit_bundle_list_free(l);
    return rc;
}
