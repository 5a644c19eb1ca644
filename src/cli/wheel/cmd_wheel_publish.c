/* cmd_wheel_publish.c - `ortkit wheel publish`: wheels into a signed index, one pip index per variant. */
#include "wheel_cmds.h"
#include "bundle/bundle_repo.h"
#include "ortkit/tools/wheel.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct publish_args {
    const char *index, *key, *password_file;
    double days;
    int json;
} publish_args;

const cli_opt wheel_publish_opts[] = {
    {0, "index", 'r', "DIR", 0, "the index's directory (made if needed); required",
     CLI_OPT_STRING(publish_args, index)},
    {0, "key", 'k', "FILE", 0, "the minisign secret key to sign with ('ortkit bundle keygen'); "
     "required", CLI_OPT_STRING(publish_args, key)},
    {0, "password-file", 0, "FILE", 0, "the key's password, on FILE's first line",
     CLI_OPT_STRING(publish_args, password_file)},
    {0, "expires", 0, "DAYS", 0, "how long clients trust the index (default 30)",
     CLI_OPT_DOUBLE(publish_args, days, 0.001, 3650), .want = "days from 0.001 to 3650"},
    {0, "json", 'j', NULL, 0, "print JSON", CLI_OPT_FLAG(publish_args, json)},
    CLI_OPT_ARGS(1, CLI_OPT_ANY, "publish needs WHEEL...: the wheels to add"),
    CLI_OPT_END};

static void published_lines(FILE *out, const char *lead, const cJSON *o)
{
    const cJSON *w;
    cJSON_ArrayForEach(w, cli_view_at(o, "wheels"))
        fprintf(out, "%s%s\n", lead, cli_esc(w->valuestring));
}

static void index_cell(const cJSON *o, char *buf, size_t size)
{
    snprintf(buf, size, "%s (serve it as static files; pip install --index-url URL/VARIANT/ "
             "onnxruntime, or 'ortkit wheel choose URL --pubkey KEY')", cli_view_str(o, "index"));
}

static const cli_view_field published_fields[] = {{"published", NULL, NULL, published_lines, NULL},
                                                  {"index", NULL, index_cell, NULL, NULL}};

int cmd_wheel_publish(const cli_opt_spec *spec, int argc, char **argv)
{
    publish_args a = {NULL, NULL, NULL, 0, 0};
    cli_opt_parser p;
    if (cli_opt_parse(&p, spec, wheel_publish_opts, &a, argc, argv))
        return p.status;
    if (!a.index || !a.key)
        return cli_usage("wheel publish", "--index DIR and --key FILE are required");
    ortkit_wheel_publish_options o = ORTKIT_WHEEL_PUBLISH_OPTIONS_INIT;
    o.secret_key = a.key;
    char *password = NULL;
    if (a.password_file && !(password = bundle_read_password(a.password_file)))
        return CLI_FAIL;
    o.password = password;
    if (a.days > 0)
        o.expires = (int64_t)time(NULL) + (int64_t)(a.days * 86400);
    int rc = ortkit_wheel_publish(a.index, (const char *const *)p.args, (size_t)p.n_args, &o)
                 ? cli_fail_lib() : CLI_OK;
    free(password);
    if (rc)
        return rc;
    /* The text is drawn from the JSON --json prints. */
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "index", a.index);
    cJSON_AddNumberToObject(j, "published", p.n_args);
    cJSON_AddItemToObject(j, "wheels", cJSON_CreateStringArray((const char *const *)p.args, p.n_args));
    return cli_view_print(j, a.json, CLI_VIEW_FIELDS(published_fields), "%-9s ");
}
