/* bundle_repo.c - what the repository subcommands (keygen, publish, install) share. */
#include "bundle_repo.h"

#include <stdlib.h>
#include <string.h>

char *bundle_read_password(const char *path)
{
    char *text = NULL;
    size_t size = 0;
    if (ortkit__file_read(&text, &size, path, 4096) != 0) {
        cli_fail("cannot read the password: %s", ortkit__error_message());
        return NULL;
    }
    text[strcspn(text, "\r\n")] = '\0';
    if (!text[0]) {
        free(text);
        cli_fail("'%s' holds no password on its first line", path);
        return NULL;
    }
    return text;
}

/* Each bundle of the repository: what the index says, and with a choice
 * its architecture and verdict. */
static cJSON *entries_view(const ortkit_repo *repo, const ortkit_bundle_choice *choice)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; arr && i < ortkit_repo_count(repo); i++) {
        const ortkit_repo_entry *e = ortkit_repo_get(repo, i);
        const ortkit_bundle_verdict *v = choice ? ortkit_bundle_choice_verdict(choice, i) : NULL;
        cJSON *o = cJSON_CreateObject();
        ortkit__json_add_strings(o, "name", e->name, "onnxruntime", e->ort_version, "variant",
                                 e->variant, NULL);
        if (choice)
            cJSON_AddStringToObject(o, "arch", ortkit_arch_name(ortkit_bundle_manifest(e->bundle)->arch));
        cJSON_AddNumberToObject(o, "size", (double)e->size);
        ortkit__json_add_strings(o, "sha256", e->sha256, "archive", e->archive, NULL);
        if (choice) {
            cJSON_AddBoolToObject(o, "fits", v && v->fits);
            cJSON_AddStringToObject(o, "why", v ? v->why : "");
            cJSON_AddBoolToObject(o, "chosen", choice->index == i);
        }
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

cJSON *bundle_repo_view(const ortkit_repo *repo, const ortkit_bundle_choice *choice)
{
    const ortkit_repo_info *info = ortkit_repo_info_get(repo);
    char expires[32];
    ortkit__time_format(expires, info->expires);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "repository", info->source);
    cJSON_AddNumberToObject(o, "serial", (double)info->serial);
    if (choice)
        cJSON_AddNumberToObject(o, "last_serial", (double)info->last_serial);
    ortkit__json_add_strings(o, "expires", expires, "key_id", info->key_id, NULL);
    if (choice)
        cJSON_AddStringToObject(o, "trusted_comment", info->trusted_comment);
    cJSON_AddItemToObject(o, "bundles", entries_view(repo, choice));
    if (!choice)
        return o;
    const ortkit_repo_entry *chosen = ortkit_repo_get(repo, choice->index);
    cJSON_AddItemToObject(o, "chosen", chosen ? cJSON_CreateString(chosen->name) : cJSON_CreateNull());
    cJSON_AddStringToObject(o, "reason", choice->reason);
    return o;
}

int bundle_repo_text(const cJSON *view, const cli_view_column *columns, size_t n)
{
    printf("repository  %s\n", cli_esc(cli_view_str(view, "repository")));
    printf("serial      %.0f, expires %s, signed by key %s\n", cli_view_num(view, "serial"),
           cli_view_str(view, "expires"), cli_esc(cli_view_str(view, "key_id")));
    return cli_view_table(stdout, cli_view_at(view, "bundles"), columns, n, NULL)
               ? cli_fail("out of memory") : CLI_OK;
}

void bundle_repo_size_cell(const cJSON *o, char *buf, size_t size)
{
    ortkit__human_bytes(buf, size, cli_view_num(o, "size"));
}

void bundle_repo_chosen_cell(const cJSON *o, char *buf, size_t size)
{
    snprintf(buf, size, "%s", cli_view_bool(o, "chosen") ? "*" : "");
}

void bundle_repo_verdict_cell(const cJSON *o, char *buf, size_t size)
{
    const char *why = cli_view_str(o, "why");
    snprintf(buf, size, "%s%s%s", cli_view_bool(o, "fits") ? "fits" : "does not fit", why[0] ? ": " : "",
             why);
}
