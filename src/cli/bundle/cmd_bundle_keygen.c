/* cmd_bundle_keygen.c - `ortkit bundle keygen`: a key pair for signing a bundle repository. */
#include "bundle_cmds.h"
#include "bundle_repo.h"

#include <stdlib.h>
#include <string.h>

typedef struct keygen_args {
    const char *key, *pubkey, *password_file;
    int force, json;
} keygen_args;

const cli_opt bundle_keygen_opts[] = {
    {0, "key", 'k', "FILE", 0, "the secret key to write (default ortkit.key), mode 0600",
     CLI_OPT_STRING(keygen_args, key)},
    {0, "pubkey", 'p', "FILE", 0, "the public key to write (default ortkit.pub)",
     CLI_OPT_STRING(keygen_args, pubkey)},
    {0, "password-file", 0, "FILE", 0,
     "encrypt the secret key with the password on FILE's first line (scrypt, as minisign "
     "does; 1 GiB of memory to use); default: not encrypted, as 'minisign -G -W'",
     CLI_OPT_STRING(keygen_args, password_file)},
    {0, "force", 'f', NULL, 0, "replace existing key files", CLI_OPT_FLAG(keygen_args, force)},
    {0, "json", 'j', NULL, 0, "print JSON", CLI_OPT_FLAG(keygen_args, json)},
    CLI_OPT_END};

/* The base64 line of a public key file: what `minisign -P` and --pubkey take. */
static char *public_key_line(const char *path)
{
    char *text = NULL;
    size_t size = 0;
    if (ortkit__file_read(&text, &size, path, 4096) != 0)
        return NULL;
    char *line = strchr(text, '\n');
    char *key = line ? ortkit__strdup(line + 1) : NULL;
    if (key)
        key[strcspn(key, "\r\n")] = '\0';
    free(text);
    return key;
}

static void secret_cell(const cJSON *o, char *buf, size_t size)
{
    snprintf(buf, size, "%s (%s; keep it private)", cli_view_str(o, "secret_key"),
             cli_view_bool(o, "encrypted") ? "encrypted" : "not encrypted");
}

static void public_cell(const cJSON *o, char *buf, size_t size)
{
    const char *text = cli_view_str(o, "public_key_text");
    snprintf(buf, size, "%s: %s", cli_view_str(o, "public_key"), text[0] ? text : "?");
}

/* How the keys are used, naming them. */
static void use_lines(FILE *out, const char *lead, const cJSON *o)
{
    fprintf(out, "publish with 'ortkit bundle publish BUNDLE --repo DIR --key %s'; clients install\n"
            "with 'ortkit bundle install SOURCE --pubkey %s' (or the key text)\n",
            cli_esc(cli_view_str(o, "secret_key")), cli_esc(cli_view_str(o, "public_key")));
}

static const cli_view_field key_fields[] = {{"secret key", NULL, secret_cell, NULL, NULL},
                                            {"public key", NULL, public_cell, NULL, NULL},
                                            {"", NULL, NULL, use_lines, NULL}};

int cmd_bundle_keygen(const cli_opt_spec *spec, int argc, char **argv)
{
    keygen_args a = {"ortkit.key", "ortkit.pub", NULL, 0, 0};
    cli_opt_parser p;
    if (cli_opt_parse(&p, spec, bundle_keygen_opts, &a, argc, argv))
        return p.status;
    const char *key = a.key, *pubkey = a.pubkey, *password_file = a.password_file;
    int force = a.force, json = a.json;
    char *password = NULL;
    if (password_file && !(password = bundle_read_password(password_file)))
        return CLI_FAIL;
    int rc = ortkit_repo_keygen(key, pubkey, password, force) ? cli_fail_lib() : CLI_OK;
    free(password);
    if (rc)
        return rc;
    /* The text is drawn from the JSON --json prints. */
    char *line = public_key_line(pubkey);
    cJSON *o = cJSON_CreateObject();
    ortkit__json_add_strings(o, "secret_key", key, "public_key", pubkey, "public_key_text",
                             line ? line : "", NULL);
    cJSON_AddBoolToObject(o, "encrypted", password_file != NULL);
    rc = cli_view_print(o, json, CLI_VIEW_FIELDS(key_fields), "%-11s ");
    free(line);
    return rc;
}
