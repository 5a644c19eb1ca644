/* cmd_bundle_publish.c - `ortkit bundle publish`: bundles into a signed repository. */
#include "bundle_arg.h"
#include "bundle_cmds.h"
#include "bundle_repo.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

typedef struct publish_args {
    const char *repo_dir, *password_file;
    ortkit_repo_publish_options o;
    long serial;
    int json;
} publish_args;

static int set_expiry(cli_opt_parser *p, void *expires, char *value);

const cli_opt bundle_publish_opts[] = {
    {0, "repo", 'r', "DIR", 0, "the repository's directory (made if needed; required)",
     CLI_OPT_STRING(publish_args, repo_dir)},
    {0, "key", 'k', "FILE", 0, "the minisign secret key to sign with (required)",
     CLI_OPT_STRING(publish_args, o.secret_key)},
    {0, "password-file", 0, "FILE", 0, "the password of an encrypted key",
     CLI_OPT_STRING(publish_args, password_file)},
    {0, "expires", 'e', "WHEN", 0,
     "when clients stop trusting this index: a time (2026-01-31T00:00:00Z) or a duration from "
     "now (90d, 12h, 30m; default 30d)", CLI_OPT_CALL(publish_args, o.expires, set_expiry),
     .want = "a time such as 2026-01-31T00:00:00Z or a duration such as 90d"},
    {0, "serial", 0, "N", 0, "the new serial (default: one more than the repository's); "
     "it must be higher", CLI_OPT_LONG(publish_args, serial, 1, 9007199254740991.0)},
    {0, "comment", 0, "TEXT", 0, "the signature's trusted comment",
     CLI_OPT_STRING(publish_args, o.comment)},
    {0, "json", 'j', NULL, 0, "print JSON", CLI_OPT_FLAG(publish_args, json)},
    CLI_OPT_ARGS(1, CLI_OPT_ANY, "publish needs at least one BUNDLE: a directory or a name"),
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

static int set_expiry(cli_opt_parser *p, void *expires, char *value)
{
    return parse_expiry(value, expires) ? cli_opt_bad_value(p, NULL) : 0;
}

static const cli_view_column published_columns[] = {{"NAME", "name", NULL, 0, NULL},
                                                    {"ORT", "onnxruntime", NULL, 0, NULL},
                                                    {"VARIANT", "variant", NULL, 0, NULL},
                                                    {"SIZE", NULL, bundle_repo_size_cell, 1, NULL},
                                                    {"ARCHIVE", "archive", NULL, 0, NULL}};

/* What was published: the repository's view as JSON, or drawn as text. */
static int show_published(const ortkit_repo *repo, int json)
{
    cJSON *view = bundle_repo_view(repo, NULL);
    if (json || !view)
        return cli_json_print(view);
    int rc = bundle_repo_text(view, CLI_VIEW_COLUMNS(published_columns));
    cJSON_Delete(view);
    return rc;
}

int cmd_bundle_publish(const cli_opt_spec *spec, int argc, char **argv)
{
    publish_args a = {NULL, NULL, ORTKIT_REPO_PUBLISH_OPTIONS_INIT, 0, 0};
    cli_opt_parser p;
    if (cli_opt_parse(&p, spec, bundle_publish_opts, &a, argc, argv))
        return p.status;
    const char *repo_dir = a.repo_dir, *password_file = a.password_file;
    ortkit_repo_publish_options o = a.o;
    o.serial = (uint64_t)a.serial;
    int json = a.json;
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
        if (!(dirs[i] = bundle_dir_named(p.args[i])))
            rc = cli_fail("out of memory");
    ortkit_repo *repo = NULL;
    if (!rc) {
        fprintf(stderr, "ortkit: verifying and packing %d bundle%s...\n", p.n_args,
                p.n_args == 1 ? "" : "s");
        if (ortkit_repo_publish(&repo, repo_dir, (const char *const *)dirs, (size_t)p.n_args, &o))
            rc = cli_fail_lib();
    }
    if (!rc)
        rc = show_published(repo, json);
    ortkit_repo_free(repo);
    for (int i = 0; dirs && i < p.n_args; i++)
        free(dirs[i]);
    free(dirs);
    free(password);
    return rc;
}
