/* cmd_bundle_keygen.c - `ortkit bundle keygen`: a key pair for signing a bundle repository. */
#include "bundle_repo.h"
#include "cli.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_KEY = 1, OPT_PUBKEY, OPT_PASSWORD_FILE, OPT_FORCE, OPT_JSON };

const cli_opt bundle_keygen_opts[] = {
    {OPT_KEY, "key", 'k', "FILE", 0, "the secret key to write (default ortkit.key), mode 0600"},
    {OPT_PUBKEY, "pubkey", 'p', "FILE", 0, "the public key to write (default ortkit.pub)"},
    {OPT_PASSWORD_FILE, "password-file", 0, "FILE", 0,
     "encrypt the secret key with the password on FILE's first line (scrypt, as minisign "
     "does; 1 GiB of memory to use); default: not encrypted, as 'minisign -G -W'"},
    {OPT_FORCE, "force", 'f', NULL, 0, "replace existing key files"},
    {OPT_JSON, "json", 'j', NULL, 0, "print JSON"},
    CLI_OPT_END};

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

int cmd_bundle_keygen(int argc, char **argv)
{
    const char *key = "ortkit.key", *pubkey = "ortkit.pub", *password_file = NULL;
    int force = 0, json = 0, c;
    cli_opt_parser p;
    cli_opt_init(&p, &bundle_spec, bundle_keygen_opts, argc, argv);
    while ((c = cli_opt_next(&p)) > 0) {
        switch (c) {
        case OPT_KEY: key = p.value; break;
        case OPT_PUBKEY: pubkey = p.value; break;
        case OPT_PASSWORD_FILE: password_file = p.value; break;
        case OPT_FORCE: force = 1; break;
        case OPT_JSON: json = 1; break;
        }
    }
    if (c != CLI_OPT_DONE)
        return c == CLI_OPT_HELP ? CLI_OK : CLI_USAGE;
    if (p.n_args > 0)
        return cli_usage("bundle", "unexpected argument '%s'", p.args[0]);
    char *password = NULL;
    if (password_file && !(password = bundle_read_password(password_file)))
        return CLI_FAIL;
    int rc = ortkit_repo_keygen(key, pubkey, password, force) ? cli_fail_lib() : CLI_OK;
    free(password);
    if (rc)
        return rc;
    char *line = public_key_line(pubkey);
    if (json) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "secret_key", key);
        cJSON_AddStringToObject(o, "public_key", pubkey);
        cJSON_AddStringToObject(o, "public_key_text", line ? line : "");
        cJSON_AddBoolToObject(o, "encrypted", password_file != NULL);
        rc = cli_json_print(o);
    } else {
        printf("secret key  %s (%s; keep it private)\n", cli_esc(key),
               password_file ? "encrypted" : "not encrypted");
        printf("public key  %s: %s\n", cli_esc(pubkey), cli_esc(line ? line : "?"));
        printf("publish with 'ortkit bundle publish BUNDLE --repo DIR --key %s'; clients install\n"
               "with 'ortkit bundle install SOURCE --pubkey %s' (or the key text)\n",
               cli_esc(key), cli_esc(pubkey));
    }
    free(line);
    return rc;
}
