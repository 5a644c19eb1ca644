/* cmd_bundle_publish.c - `ortkit bundle publish`: bundles into a signed repository. */
#include "bundle_repo.h"
#include "cli.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

enum { OPT_REPO = 1, OPT_KEY, OPT_PASSWORD_FILE, OPT_EXPIRES, OPT_SERIAL, OPT_COMMENT, OPT_JSON };

const cli_opt bundle_publish_opts[] = {
    {OPT_REPO, "repo", 'r', "DIR", 0, "the repository's directory (made if needed; required)"},
    {OPT_KEY, "key", 'k', "FILE", 0, "the minisign secret key to sign with (required)"},
    {OPT_PASSWORD_FILE, "password-file", 0, "FILE", 0, "the password of an encrypted key"},
    {OPT_EXPIRES, "expires", 'e', "WHEN", 0,
     "when clients stop trusting this index: a time (2026-01-31T00:00:00Z) or a duration from "
     "now (90d, 12h, 30m; default 30d)"},
    {OPT_SERIAL, "serial", 0, "N", 0, "the new serial (default: one more than the repository's); "
     "it must be higher"},
    {OPT_COMMENT, "comment", 0, "TEXT", 0, "the signature's trusted comment"},
    {OPT_JSON, "json", 'j', NULL, 0, "print JSON"},
    CLI_OPT_END};

/* "90d", "12h", "30m", "45s" from now, or a UTC time. */
static int parse_expiry(const char *s, int64_t *out)
{
    char *end = NULL;
    long n = strtol(s, &end, 10);
    static const char units[] = "smhd";
    static const long scale[] = {1, 60, 3600, 86400};
    const char *u = end && end != s && end[0] && !end[1] ? strchr(units, end[0]) : NULL;
    if (u && n > 0 && n <= 36500L * 86400 / scale[u - units]) {
        *out = (int64_t)time(NULL) + (int64_t)n * scale[u - units];
        return 0;
    }
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    end = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (!end || *end)
        return -1;
    *out = (int64_t)timegm(&tm);
    return 0;
}

/* A directory, else the name of a bundle 'ortkit bundle list' shows. */
static char *bundle_dir(const char *what)
{
    struct stat st;
    if (stat(what, &st) == 0 || strchr(what, '/'))
        return ortkit__strdup(what);
    ortkit_bundle_list *l = NULL;
    char *dir = NULL;
    if (ortkit_bundle_list_open(&l) == 0)
        for (size_t i = 0; !dir && i < ortkit_bundle_list_count(l); i++)
            if (!strcmp(ortkit_bundle_list_get(l, i)->name, what))
                dir = ortkit__strdup(ortkit_bundle_list_get(l, i)->dir);
    ortkit_bundle_list_free(l);
    return dir ? dir : ortkit__strdup(what);
}

static int print_result(const ortkit_repo *repo, int json)
{
    const ortkit_repo_info *info = ortkit_repo_info_get(repo);
    char expires[32], size[32];
    bundle_format_time(expires, info->expires);
    if (json) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "repository", info->source);
        cJSON_AddNumberToObject(o, "serial", (double)info->serial);
        cJSON_AddStringToObject(o, "expires", expires);
        cJSON_AddStringToObject(o, "key_id", info->key_id);
        cJSON *arr = cJSON_AddArrayToObject(o, "bundles");
        for (size_t i = 0; arr && i < ortkit_repo_count(repo); i++) {
            const ortkit_repo_entry *e = ortkit_repo_get(repo, i);
            cJSON *b = cJSON_CreateObject();
            cJSON_AddStringToObject(b, "name", e->name);
            cJSON_AddStringToObject(b, "onnxruntime", e->ort_version);
            cJSON_AddStringToObject(b, "variant", e->variant);
            cJSON_AddStringToObject(b, "archive", e->archive);
            cJSON_AddNumberToObject(b, "size", (double)e->size);
            cJSON_AddStringToObject(b, "sha256", e->sha256);
            cJSON_AddItemToArray(arr, b);
        }
        return cli_json_print(o);
    }
    static const char *const headers[] = {"NAME", "ORT", "VARIANT", "SIZE", "ARCHIVE"};
    cli_table *t = cli_table_new(5, headers);
    cli_table_align_right(t, 3);
    for (size_t i = 0; i < ortkit_repo_count(repo); i++) {
        const ortkit_repo_entry *e = ortkit_repo_get(repo, i);
        ortkit__human_bytes(size, sizeof size, (double)e->size);
        cli_table_add(t, (const char *[]){e->name, e->ort_version, e->variant, size, e->archive});
    }
    printf("repository  %s\n", cli_esc(info->source));
    printf("serial      %" PRIu64 ", expires %s, signed by key %s\n", info->serial, expires,
           info->key_id);
    int rc = cli_table_print(t, stdout, NULL) ? cli_fail("out of memory") : CLI_OK;
    cli_table_free(t);
    return rc;
}

int cmd_bundle_publish(int argc, char **argv)
{
    const char *repo_dir = NULL, *password_file = NULL;
    ortkit_repo_publish_options o = ORTKIT_REPO_PUBLISH_OPTIONS_INIT;
    int json = 0, c;
    long serial;
    cli_opt_parser p;
    cli_opt_init(&p, &bundle_spec, bundle_publish_opts, argc, argv);
    while ((c = cli_opt_next(&p)) > 0) {
        switch (c) {
        case OPT_REPO: repo_dir = p.value; break;
        case OPT_KEY: o.secret_key = p.value; break;
        case OPT_PASSWORD_FILE: password_file = p.value; break;
        case OPT_EXPIRES:
            if (parse_expiry(p.value, &o.expires))
                return cli_usage("bundle", "--expires '%s' is neither a time such as "
                                 "2026-01-31T00:00:00Z nor a duration such as 90d", p.value);
            break;
        case OPT_SERIAL:
            if (cli_parse_long(p.value, 1, 9007199254740991L, &serial))
                return cli_usage("bundle", "--serial '%s' is not a whole number above 0", p.value);
            o.serial = (uint64_t)serial;
            break;
        case OPT_COMMENT: o.comment = p.value; break;
        case OPT_JSON: json = 1; break;
        }
    }
    if (c != CLI_OPT_DONE)
        return c == CLI_OPT_HELP ? CLI_OK : CLI_USAGE;
    if (p.n_args < 1)
        return cli_usage("bundle", "publish needs at least one BUNDLE: a directory or a name");
    if (!repo_dir)
        return cli_usage("bundle", "publish needs --repo DIR");
    if (!o.secret_key)
        return cli_usage("bundle", "publish needs --key FILE (make one with 'ortkit bundle keygen')");
    if (o.expires && o.expires <= (int64_t)time(NULL))
        cli_warn("the index expires at once: clients will refuse it");
    char *password = NULL;
    if (password_file && !(password = bundle_read_password(password_file)))
        return CLI_FAIL;
    o.password = password;
    char **dirs = calloc((size_t)p.n_args, sizeof *dirs);
    int rc = dirs ? CLI_OK : cli_fail("out of memory");
    for (int i = 0; !rc && i < p.n_args; i++)
        if (!(dirs[i] = bundle_dir(p.args[i])))
            rc = cli_fail("out of memory");
    ortkit_repo *repo = NULL;
    if (!rc) {
        fprintf(stderr, "ortkit: verifying and packing %d bundle%s...\n", p.n_args,
                p.n_args == 1 ? "" : "s");
        if (ortkit_repo_publish(&repo, repo_dir, (const char *const *)dirs, (size_t)p.n_args, &o))
            rc = cli_fail_lib();
    }
    if (!rc)
        rc = print_result(repo, json);
    ortkit_repo_free(repo);
    for (int i = 0; dirs && i < p.n_args; i++)
        free(dirs[i]);
    free(dirs);
    free(password);
    return rc;
}
