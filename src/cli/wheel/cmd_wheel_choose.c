/* cmd_wheel_choose.c - `ortkit wheel choose`: the index's wheel for this host and a Python, and how to install it. */
#include "wheel_cmds.h"
#include "view.h"
#include "bundle/bundle_repo.h"
#include "ortkit/tools/wheel.h"

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct choose_args {
    const char *python, *host_file, *into;
    ortkit_repo_options open;
    int install, json;
} choose_args;

const cli_opt wheel_choose_opts[] = {
    {0, "pubkey", 'p', "KEY", 0,
     "the index's minisign public key: a file, or the key itself (RW...); required",
     CLI_OPT_STRING(choose_args, open.pubkey)},
    {0, "python", 0, "PYTHON", 0,
     "the Python to choose for: an interpreter (its version is asked) or a version such as 3.11 "
     "(default: python3)", CLI_OPT_STRING(choose_args, python)},
    {0, "host", 0, "FILE", 0, "judge for the host FILE describes (see 'ortkit host --json') "
     "instead of this one", CLI_OPT_STRING(choose_args, host_file)},
    {0, "install", 0, NULL, 0,
     "download the best wheel (its size and SHA-256 checked while it streams, and the wheel "
     "itself checked) and run PYTHON -m pip install on it", CLI_OPT_FLAG(choose_args, install)},
    {0, "into", 0, "DIR", 0, "where --install downloads to (default: $XDG_CACHE_HOME/ortkit/wheels)",
     CLI_OPT_STRING(choose_args, into)},
    {0, "cacert", 0, "FILE", 0, "certificate authorities for https (PEM; default: the system's)",
     CLI_OPT_STRING(choose_args, open.ca_file)},
    {0, "json", 'j', NULL, 0, "print JSON", CLI_OPT_FLAG(choose_args, json)},
    CLI_OPT_ARGS(1, 1, "choose needs SOURCE: a wheel index's URL or directory"),
    CLI_OPT_END};

/* "3.11" as given, or the version an interpreter says it is. */
static int python_version(char *out, size_t size, const char *python, int *is_version)
{
    int a = 0, b = 0, used = 0;
    *is_version = sscanf(python, "%d.%d%n", &a, &b, &used) == 2 && !python[used];
    if (*is_version) {
        snprintf(out, size, "%d.%d", a, b);
        return CLI_OK;
    }
    const char *argv[] = {python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])", NULL};
    char *text = NULL;
    int status = 0;
    if (ortkit__spawn(argv, 0, &text, &status) || status != 0 || !text ||
        sscanf(text, "%d.%d", &a, &b) != 2) {
        free(text);
        return cli_fail("cannot ask '%s' its version: give --python an interpreter that runs here, "
                        "or a version such as 3.11", python);
    }
    free(text);
    snprintf(out, size, "%d.%d", a, b);
    return CLI_OK;
}

/* Selection's reason speaks of bundles; here each is a wheel's facts. */
static char *wheel_words(const char *reason)
{
    size_t n = strlen(reason), k = 0;
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    for (size_t i = 0; i < n;)
        if (!strncmp(reason + i, "bundle", 6)) {
            memcpy(out + k, "wheel", 5);
            k += 5;
            i += 6;
        } else {
            out[k++] = reason[i++];
        }
    out[k] = '\0';
    return out;
}

/* The view's data, once: JSON prints it as it is, the text is drawn from it. */
static cJSON *choice_view(const ortkit_wheel_index *x, const ortkit_bundle_choice *c, const char *python,
                          const char *interpreter)
{
    const ortkit_repo_info *info = ortkit_wheel_index_info(x);
    char when[32];
    ortkit__time_format(when, info->expires);
    cJSON *j = cJSON_CreateObject();
    ortkit__json_add_strings(j, "index", info->source, "expires", when, "key_id", info->key_id,
                             "python", python, NULL);
    cJSON_AddNumberToObject(j, "serial", (double)info->serial);
    cJSON *arr = cJSON_AddArrayToObject(j, "wheels");
    for (size_t i = 0; i < ortkit_wheel_index_count(x); i++) {
        const ortkit_wheel_entry *e = ortkit_wheel_index_get(x, i);
        const ortkit_bundle_verdict *v = ortkit_bundle_choice_verdict(c, i);
        int other = strcmp(e->python, python) != 0;
        char why[128];
        snprintf(why, sizeof why, "for CPython %s, not %s", e->python, python);
        cJSON *o = cJSON_CreateObject();
        ortkit__json_add_strings(o, "file", strrchr(e->file, '/') + 1, "version", e->version,
                                 "variant", ortkit_bundle_manifest(e->bundle)->variant, "python",
                                 e->python, "platform_tag", e->platform_tag, "sha256", e->sha256,
                                 "step", other ? "python" : v ? v->step : "", "why",
                                 other ? why : v ? v->why : "", NULL);
        cJSON_AddNumberToObject(o, "size", (double)e->size);
        cJSON_AddBoolToObject(o, "fits", !other && v && v->fits);
        cJSON_AddBoolToObject(o, "chosen", c->index == i);
        cJSON_AddItemToArray(arr, o);
    }
    char *reason = wheel_words(c->reason);
    cJSON_AddStringToObject(j, "reason", reason ? reason : c->reason);
    free(reason);
    if (c->index != ORTKIT_BUNDLE_NONE) {
        char *url = NULL, *index_url = NULL;
        const ortkit_wheel_entry *e = ortkit_wheel_index_get(x, c->index);
        if (!ortkit_wheel_index_url(&url, &index_url, x, c->index)) {
            char *cmd = NULL;
            if (asprintf(&cmd, "%s -m pip install 'onnxruntime @ %s#sha256=%s'", interpreter, url,
                         e->sha256) >= 0) {
                cJSON_AddStringToObject(j, "pip", cmd);
                free(cmd);
            }
            ortkit__json_add_strings(j, "chosen", strrchr(e->file, '/') + 1, "wheel_url", url,
                                     "index_url", index_url, NULL);
        }
        free(url);
        free(index_url);
    } else {
        cJSON_AddNullToObject(j, "chosen");
    }
    return j;
}

static void serial_cell(const cJSON *o, char *buf, size_t size)
{
    snprintf(buf, size, "%.0f, expires %s, signed by key %s", cli_view_num(o, "serial"),
             cli_view_str(o, "expires"), cli_view_str(o, "key_id"));
}

static const cli_view_field index_fields[] = {{"index", "index", NULL, NULL, ""},
                                              {"serial", NULL, serial_cell, NULL, ""},
                                              {"python", "python", NULL, NULL, ""}};
static const cli_view_column wheel_columns[] = {{"", NULL, bundle_repo_chosen_cell, 0, NULL},
                                                {"VERSION", "version", NULL, 0, NULL},
                                                {"PYTHON", "python", NULL, 0, NULL},
                                                {"PLATFORM", "platform_tag", NULL, 0, NULL},
                                                {"VERDICT", NULL, bundle_repo_verdict_cell, 0, NULL}};

/* The view as text: the index, each wheel and its verdict, the choice. */
static int choice_text(const cJSON *j)
{
    cli_view_fields(stdout, j, CLI_VIEW_FIELDS(index_fields), "%-7s ");
    printf("\n");
    int rc = cli_view_table(stdout, cli_view_at(j, "wheels"), CLI_VIEW_COLUMNS(wheel_columns), NULL)
                 ? cli_fail("out of memory") : CLI_OK;
    const char *pip = cli_view_str(j, "pip");
    printf("\n%s %s\n", pip[0] ? "best:" : "none fits:", cli_esc(cli_view_str(j, "reason")));
    if (pip[0])
        printf("install: %s\n", cli_esc(pip));
    return rc;
}

static int install(ortkit_wheel_index *x, size_t i, const char *interpreter, const char *into)
{
    char dir[PATH_MAX];
    if (into)
        snprintf(dir, sizeof dir, "%s", into);
    else if (ortkit__cache_dir(dir, sizeof dir, "wheels") != 0)
        return cli_fail("no cache directory of yours alone to download into: give --into DIR");
    char *path = NULL;
    if (ortkit_wheel_index_fetch(&path, x, i, dir))
        return cli_fail_lib();
    fprintf(stderr, "ortkit: downloaded and checked %s\nortkit: %s -m pip install %s\n", cli_esc(path),
            cli_esc(interpreter), cli_esc(path));
    const char *argv[] = {interpreter, "-m", "pip", "install", "--no-input", path, NULL};
    char *output = NULL;
    int status = 0, rc = CLI_OK;
    if (ortkit__spawn(argv, 1, &output, &status))
        rc = cli_fail("cannot run '%s'", interpreter);
    else {
        fputs(output ? output : "", stderr);
        if (status != 0)
            rc = cli_fail("pip failed (exit status %d): the wheel is kept in %s", status, dir);
    }
    free(output);
    free(path);
    return rc;
}

int cmd_wheel_choose(const cli_opt_spec *spec, int argc, char **argv)
{
    choose_args a;
    memset(&a, 0, sizeof a);
    a.open = (ortkit_repo_options)ORTKIT_REPO_OPTIONS_INIT;
    a.python = "python3";
    cli_opt_parser p;
    if (cli_opt_parse(&p, spec, wheel_choose_opts, &a, argc, argv))
        return p.status;
    if (!a.open.pubkey)
        return cli_usage("wheel choose", "--pubkey KEY is required: the index's public key");
    char version[16], interpreter[32];
    int is_version = 0, rc = python_version(version, sizeof version, a.python, &is_version);
    if (rc)
        return rc;
    snprintf(interpreter, sizeof interpreter, "python%s", version);
    const char *py = is_version ? interpreter : a.python;
    ortkit_host *host = NULL;
    ortkit_wheel_index *x = NULL;
    ortkit_bundle_choice *c = NULL;
    if ((a.host_file ? ortkit_host_load(&host, a.host_file) : ortkit_host_detect(&host)) ||
        ortkit_wheel_index_open(&x, p.args[0], &a.open)) {
        rc = cli_fail_lib();
        goto cleanup;
    }
    int crc = ortkit_wheel_choose(&c, x, host, version);
    if (!c) {
        rc = cli_fail_lib();
        goto cleanup;
    }
    cJSON *j = choice_view(x, c, version, py);
    if (a.json) {
        cJSON_AddNumberToObject(j, "status", crc ? 1 : 0);
        rc = cli_json_print(j);
    } else {
        rc = choice_text(j);
        cJSON_Delete(j);
    }
    if (!rc && crc)
        rc = CLI_FAIL;
    if (!rc && a.install)
        rc = install(x, c->index, py, a.into);
cleanup:
    ortkit_bundle_choice_free(c);
    ortkit_wheel_index_free(x);
    ortkit_host_free(host);
    return rc;
}
