/* cmd_bundle_install.c - `ortkit bundle install`: the bundle of a signed repository that fits this host. */
#include "bundle_cmds.h"
#include "bundle_repo.h"
#include "interrupt.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct install_args {
    const char *source, *into, *host_file, *pin;
    ortkit_repo_options open;
    int list, json, force;
} install_args;

static int set_min_rate(cli_opt_parser *p, void *open, char *value);

const cli_opt bundle_install_opts[] = {
    {0, "pubkey", 'p', "KEY", 0,
     "the repository's minisign public key: a file, or the key itself (RW...); required",
     CLI_OPT_STRING(install_args, open.pubkey)},
    {0, "list", 'l', NULL, 0,
     "show what the repository offers, which entries fit this host and why; install nothing",
     CLI_OPT_FLAG(install_args, list)},
    {0, "into", 'i', "DIR", 0,
     "where to install (default: $XDG_DATA_HOME/ortkit/bundles, ~/.local/share/ortkit/bundles)",
     CLI_OPT_STRING(install_args, into)},
    {0, "host", 0, "FILE", 0, "judge for the host FILE describes (see 'ortkit host --json') "
     "instead of this one", CLI_OPT_STRING(install_args, host_file)},
    {0, "pin", 0, "NAME|VERSION", 0, "only the bundle of that name or ONNX Runtime version",
     CLI_OPT_STRING(install_args, pin)},
    {0, "cacert", 0, "FILE", 0, "certificate authorities for https (PEM; default: the "
     "system's)", CLI_OPT_STRING(install_args, open.ca_file)},
    {0, "force", 'f', NULL, 0, "replace a bundle of the same name that verifies but is "
     "another (a damaged one is always replaced)", CLI_OPT_FLAG(install_args, force)},
    {0, "timeout", 0, "SECONDS", 0, "the longest one download may take (default 3600)",
     CLI_OPT_DOUBLE(install_args, open.timeout_s, 0.001, 604800),
     .want = "seconds from 0.001 to 604800"},
    {0, "min-rate", 0, "BYTES[/SECONDS]", 0, "fail a download slower than BYTES a "
     "second for SECONDS (default 1024/30)", CLI_OPT_CALL(install_args, open, set_min_rate),
     .want = "BYTES or BYTES/SECONDS (bytes from 1, seconds from 1 to 3600)"},
    {0, "json", 'j', NULL, 0, "print JSON", CLI_OPT_FLAG(install_args, json)},
    CLI_OPT_ARGS(1, 1, "install needs SOURCE: a repository's URL or directory"),
    CLI_OPT_END};

/* ---- the progress bar -------------------------------------------------------------- */

typedef struct bar {
    double start, last;
    uint64_t first; /* bytes held when this run started (a resumed download) */
    int tty;        /* draw only on a terminal; Ctrl-C stops the download either way */
    int shown;
    char *announce; /* "installing NAME (SIZE): why", said once work starts: never for an
                     * install that finds the bundle there already (unchanged) */
} bar;

static void say_installing(bar *b)
{
    if (b->announce)
        fputs(b->announce, stderr);
    b->announce = NULL;
}

static int on_progress(void *arg, uint64_t done, uint64_t total)
{
    bar *b = arg;
    double now = ortkit__clock_now();
    say_installing(b);
    if (!b->start) {
        b->start = now;
        b->first = done;
    }
    if (cli_interrupt_poll(NULL))
        return 1;
    if (!b->tty || (done < total && now - b->last < 0.1))
        return 0;
    b->last = now;
    char have[32], all[32], rate[32];
    ortkit__human_bytes(have, sizeof have, (double)done);
    ortkit__human_bytes(all, sizeof all, (double)total);
    double secs = now - b->start;
    ortkit__human_bytes(rate, sizeof rate, secs > 0 ? (double)(done - b->first) / secs : 0);
    int width = 30, fill = total ? (int)((double)done / (double)total * width) : width;
    char cells[31];
    memset(cells, '#', (size_t)fill);
    memset(cells + fill, ' ', (size_t)(width - fill));
    cells[width] = '\0';
    fprintf(stderr, "\r[%s] %3d%%  %s of %s  %s/s ", cells,
            total ? (int)(100.0 * (double)done / (double)total) : 100, have, all, rate);
    b->shown = 1;
    return 0;
}

/* ---- the list ---------------------------------------------------------------------- */

static const cli_view_column listed_columns[] = {{"", NULL, bundle_repo_chosen_cell, 0, NULL},
                                                 {"NAME", "name", NULL, 0, NULL},
                                                 {"ORT", "onnxruntime", NULL, 0, NULL},
                                                 {"VARIANT", "variant", NULL, 0, NULL},
                                                 {"ARCH", "arch", NULL, 0, NULL},
                                                 {"SIZE", NULL, bundle_repo_size_cell, 1, NULL},
                                                 {"VERDICT", NULL, bundle_repo_verdict_cell, 0, NULL}};

/* --list: the repository's view as JSON, or drawn as text with the choice. */
static int show_list(const ortkit_repo *repo, const ortkit_bundle_choice *choice, int json)
{
    cJSON *view = bundle_repo_view(repo, choice);
    if (json || !view)
        return cli_json_print(view);
    int rc = bundle_repo_text(view, CLI_VIEW_COLUMNS(listed_columns));
    printf("%s %s\n", cJSON_IsString(cli_view_at(view, "chosen")) ? "best:" : "none fits:",
           cli_esc(cli_view_str(view, "reason")));
    cJSON_Delete(view);
    return rc;
}

/* ---- install ----------------------------------------------------------------------- */

static const char *outcome_name(ortkit_repo_outcome o)
{
    return o == ORTKIT_REPO_UNCHANGED ? "unchanged" : o == ORTKIT_REPO_REPLACED ? "replaced"
                                                                                : "installed";
}

static int install(ortkit_repo *repo, const ortkit_bundle_choice *choice, const install_args *a)
{
    const ortkit_repo_entry *e = ortkit_repo_get(repo, choice->index);
    ortkit_repo_install_options o = ORTKIT_REPO_INSTALL_OPTIONS_INIT;
    bar b = {0, 0, 0, isatty(2), 0, NULL};
    o.into = a->into;
    o.force = a->force;
    o.progress = on_progress;
    o.progress_arg = &b;
    char size[32];
    ortkit__human_bytes(size, sizeof size, (double)e->size);
    char announce[1024];
    snprintf(announce, sizeof announce, "ortkit: installing %s (%s): ", cli_esc(e->name), size);
    snprintf(announce + strlen(announce), sizeof announce - strlen(announce), "%s\n",
             cli_esc(choice->reason));
    b.announce = announce;
    ortkit_repo_report *r = NULL;
    cli_interrupt_init();
    cli_interrupt_hold();
    int irc = ortkit_repo_install(&r, repo, choice->index, &o);
    cli_interrupt_release();
    if (b.shown)
        fputc('\n', stderr);
    if ((irc = cli_interrupt_outcome(irc, "nothing was installed; the download resumes next time")))
        return irc;
    if (r->outcome != ORTKIT_REPO_UNCHANGED)
        say_installing(&b); /* an archive already downloaded: no progress was reported */
    if (r->resumed_from)
        fprintf(stderr, "ortkit: resumed an interrupted download at byte %" PRIu64 "\n",
                r->resumed_from);
    /* The text is drawn from the JSON --json prints. */
    int rc = CLI_OK;
    cJSON *root = bundle_repo_view(repo, choice);
    cJSON *done = root ? cJSON_AddObjectToObject(root, "installed") : NULL;
    if (done) {
        ortkit__json_add_strings(done, "name", r->name, "dir", r->dir, "outcome",
                                 outcome_name(r->outcome), NULL);
        CLI_VIEW_ADD_NUMBERS(done, {"downloaded", (double)r->downloaded},
                             {"resumed_from", (double)r->resumed_from});
    }
    if (a->json || !done) {
        rc = cli_json_print(root);
    } else {
        printf("%-10s %s\n", cli_view_str(done, "outcome"), cli_esc(cli_view_str(done, "name")));
        printf("into       %s\n", cli_esc(cli_view_str(done, "dir")));
        printf("checked    signature (key %s), expiry, serial %.0f, archive size and SHA-256,\n"
               "           every file of the bundle\n", cli_esc(cli_view_str(root, "key_id")),
               cli_view_num(root, "serial"));
        cJSON_Delete(root);
    }
    ortkit_repo_report_free(r);
    return rc;
}

/* "90" or "2.5": seconds, 1 ms to a week. */
static int parse_seconds(const char *text, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (!text[0] || !end || *end || errno || !(v >= 0.001 && v <= 604800))
        return -1;
    *out = v;
    return 0;
}

/* "4096" or "4096/10": bytes a second, over a window of seconds. */
static int parse_min_rate(const char *text, ortkit_repo_options *o)
{
    char bytes[32];
    const char *slash = strchr(text, '/');
    size_t n = slash ? (size_t)(slash - text) : strlen(text);
    long long rate;
    if (n == 0 || n >= sizeof bytes)
        return -1;
    memcpy(bytes, text, n);
    bytes[n] = '\0';
    char *end = NULL;
    errno = 0;
    rate = strtoll(bytes, &end, 10);
    if (*end || errno || rate < 1)
        return -1;
    o->min_rate = (uint64_t)rate;
    return slash ? parse_seconds(slash + 1, &o->min_rate_window_s) ||
                       o->min_rate_window_s < 1 || o->min_rate_window_s > 3600
                 : 0;
}

static int set_min_rate(cli_opt_parser *p, void *open, char *value)
{
    return parse_min_rate(value, open) ? cli_opt_bad_value(p, NULL) : 0;
}

int cmd_bundle_install(const cli_opt_spec *spec, int argc, char **argv)
{
    install_args a = {NULL, NULL, NULL, NULL, ORTKIT_REPO_OPTIONS_INIT, 0, 0, 0};
    cli_opt_parser p;
    if (cli_opt_parse(&p, spec, bundle_install_opts, &a, argc, argv))
        return p.status;
    if (!a.open.pubkey)
        return cli_usage("bundle", "install needs --pubkey KEY: the repository's public key");
    a.source = p.args[0];

    ortkit_host *host = NULL;
    ortkit_repo *repo = NULL;
    ortkit_bundle_choice *choice = NULL;
    int rc = CLI_OK;
    if ((a.host_file ? ortkit_host_load(&host, a.host_file) : ortkit_host_detect(&host)) ||
        ortkit_repo_open(&repo, a.source, &a.open)) {
        rc = cli_fail_lib();
        goto cleanup;
    }
    int crc = ortkit_repo_choose(&choice, repo, host, a.pin);
    if (!choice) {
        rc = cli_fail_lib();
        goto cleanup;
    }
    if (a.list) {
        rc = show_list(repo, choice, a.json);
        goto cleanup;
    }
    if (crc || choice->index == ORTKIT_BUNDLE_NONE) {
        rc = cli_fail("nothing in '%s' fits %s: %s (see --list)", a.source,
                      a.host_file ? "the described host" : "this host", choice->reason);
        goto cleanup;
    }
    rc = install(repo, choice, &a);
cleanup:
    ortkit_bundle_choice_free(choice);
    ortkit_repo_free(repo);
    ortkit_host_free(host);
    return rc;
}
