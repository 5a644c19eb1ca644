/* cmd_bundle.c - `ortkit bundle import|verify|list|complete`: relocatable ONNX Runtime bundles. */
#include "cli.h"
#include "bundle_repo.h"

#include "bundle_cmds.h"
#include "bundle_view.h"
#include "bundle_gpu_view.h"
#include "interrupt.h"
#include "opt.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { OPT_NAME = 1, OPT_VARIANT, OPT_INTO, OPT_FORCE, OPT_JSON, OPT_VERSION, OPT_NO_LOAD,
       OPT_PROVIDERS };

#define JSON_ROW {OPT_JSON, "json", 'j', NULL, 0, "print JSON"}

static const cli_opt import_opts[] = {
    {OPT_NAME, "name", 'n', "NAME", 0, "the bundle's name (default ort-<version>-<variant>)"},
    {OPT_VARIANT, "variant", 'v', "V", 0,
     "what it is built for: cpu (default: any CPU of its architecture), a variant such as "
     "cuda12.9-sm90-avx512 (see 'ortkit variants'), or cudaN for a GPU release of CUDA N; a "
     "GPU release (a CUDA provider beside the library) needs none: its CUDA, driver and GPU code "
     "are read from its binaries, which any variant given must agree with"},
    {OPT_INTO, "into", 'i', "DIR", 0,
     "where to put it (default: $XDG_DATA_HOME/ortkit/bundles, ~/.local/share/ortkit/bundles)"},
    {OPT_FORCE, "force", 'f', NULL, 0, "replace a bundle of the same name"},
    {OPT_VERSION, "version", 'V', "X.Y.Z", 0,
     "the ONNX Runtime version, when the library's file name, SONAME and read-only data "
     "disagree or say nothing (one that contradicts them is refused)"},
    {OPT_NO_LOAD, "no-load", 'N', NULL, 0,
     "never load the library (by default it is loaded only when this host can): the bundle is "
     "marked not yet verified by loading"},
    {OPT_PROVIDERS, "providers", 'p', "DIR", 0,
     "a GPU release's provider libraries, when they are not beside the core, of the core's "
     "release (checked): the manifest records the CUDA, cuDNN and driver they need, the GPU "
     "targets of their fat binaries, and what each provider needs of a host"},
    JSON_ROW,
    CLI_OPT_END};

static const cli_opt json_opts[] = {JSON_ROW, CLI_OPT_END};

enum { OPT_NO_LOAD_CHECK = 1 + OPT_PROVIDERS };
static const cli_opt verify_opts[] = {
    {OPT_NO_LOAD_CHECK, "no-load", 'N', NULL, 0,
     "check the files only: do not load a bundle not yet verified by loading, even where this "
     "host can"},
    JSON_ROW, CLI_OPT_END};

static int bundle_import(int argc, char **argv);
static int bundle_verify(int argc, char **argv);
static int bundle_list(int argc, char **argv);

static const cli_subcommand bundle_subs[] = {
    {"import", "SRC",
     "make a bundle from a libonnxruntime.so* file, a directory holding one, or an unpacked "
     "release (lib/ and include/); nothing is taken from outside SRC: a link in it that leads "
     "out, a loop or a FIFO is an error; Ctrl-C stops it and leaves nothing (exit 130)",
     import_opts, bundle_import},
    {"verify", "BUNDLE",
     "check, from the files alone (nothing is loaded), every file's size and SHA-256, that "
     "nothing is missing or extra, owners and modes (writable by the owner only), RUNPATH "
     "$ORIGIN, and the manifest's version in the library's own data; BUNDLE is a directory or "
     "the name of a bundle 'ortkit bundle list' shows; a bundle not yet verified by loading is "
     "then loaded, in a child process, when this host can load it, and the result recorded in "
     "its manifest",
     verify_opts, bundle_verify},
    {"list", NULL,
     "the bundles found on ORTKIT_PATH (colon-separated), in $XDG_DATA_HOME/ortkit/bundles, in "
     "$XDG_DATA_DIRS (/usr/local/share, /usr/share) + /ortkit/bundles, and in ortkit's default "
     "directory",
     json_opts, bundle_list},
    {"show", "BUNDLE",
     "what a bundle is, from its manifest: the runtime, its providers, its GPU facts (CUDA, "
     "cuDNN, driver, GPU code, CUDA libraries carried and missing) and what each part (the "
     "core, each provider) needs of a host; nothing is checked or loaded",
     bundle_show_opts, bundle_show},
    {"complete", "BUNDLE",
     "make a GPU bundle self-contained: copy in every CUDA library its providers need (and "
     "cuDNN's parts, cuFFT), never the driver's; a library built for another CUDA major is "
     "refused by name; exit 1 when something is still missing, which it names",
     bundle_complete_opts, bundle_complete},
    {"keygen", NULL, "make a key pair in minisign's format for signing a repository",
     bundle_keygen_opts, cmd_bundle_keygen},
    {"publish", "BUNDLE...",
     "verify each bundle (a directory or a name), pack it into archives/<sha256>.tar.zst and list "
     "it in the repository's index.json, signed (index.json.minisig) with a higher serial and an "
     "expiry; serve DIR from any static web server",
     bundle_publish_opts, cmd_bundle_publish},
    {"install", "SOURCE",
     "from a repository (an http(s) URL or a directory), install the bundle that fits this host "
     "best: the index's signature, expiry and serial (no rollback) are checked, the archive's "
     "size and SHA-256 while it downloads (an interrupted download resumes), the bundle before "
     "it is renamed into place",
     bundle_install_opts, cmd_bundle_install},
    {"choose", "[DIR...]",
     "every candidate's verdict under the one selection order (architecture, loadable here, "
     "accelerator, CPU level, ONNX Runtime, name) and what put each above the next; DIR is a "
     "bundle or a directory of bundles (default: the bundles the search finds)",
     bundle_choose_opts, bundle_choose},
    {"probe", "LIBRARY",
     "load LIBRARY in this process and print its version and providers as JSON (what verify "
     "runs in a child process)",
     bundle_probe_opts, bundle_probe},
    {NULL, NULL, NULL, NULL, NULL}};

const cli_opt_spec bundle_spec = {
    "bundle",
    "usage: ortkit bundle import SRC [--name NAME] [--variant V] [--into DIR] [--force]\n"
    "                           [--version X.Y.Z] [--no-load] [--json]\n"
    "       ortkit bundle import CORE --providers DIR [--variant V] [--name NAME] [--into DIR]\n"
    "                           [--force] [--json]\n"
    "       ortkit bundle verify BUNDLE [--json]\n"
    "       ortkit bundle list [--json]\n"
    "       ortkit bundle show BUNDLE [--json]\n"
    "       ortkit bundle complete BUNDLE [--from DIR]... [--json]\n"
    "       ortkit bundle keygen [--key FILE] [--pubkey FILE] [--json]\n"
    "       ortkit bundle publish BUNDLE... --repo DIR --key FILE [--expires WHEN] [--json]\n"
    "       ortkit bundle install SOURCE --pubkey KEY [--list] [--into DIR] [--force]\n"
    "                            [--timeout SECONDS] [--min-rate BYTES[/SECONDS]] [--json]\n"
    "       ortkit bundle choose [--host FILE] [--json] [DIR...]\n"
    "       ortkit bundle probe LIBRARY\n",
    "A bundle is a directory holding one ONNX Runtime build that works from\n"
    "wherever it lies: lib/ (RUNPATH $ORIGIN), include/, a pkg-config file, a\n"
    "CMake package, the licences and manifest.json (what it is, what it needs of\n"
    "a host, every file's size and SHA-256).  With no explicit runtime, ortkit\n"
    "loads the best bundle that fits the host ('ortkit doctor' explains which).\n",
    NULL, bundle_subs, NULL};

/* What the subcommands' options set. */
typedef struct bundle_args {
    ortkit_bundle_import_options import;
    int json;
    int no_load_check;
} bundle_args;

/*
 * Read a subcommand's options (those of opts) into a: 0 when done, the
 * positional arguments in p->args; otherwise -1 after --help or CLI_USAGE.
 */
static int read_options(cli_opt_parser *p, const cli_opt *opts, int argc, char **argv,
                        bundle_args *a)
{
    int c;
    cli_opt_init(p, &bundle_spec, opts, argc, argv);
    while ((c = cli_opt_next(p)) > 0) {
        switch (c) {
        case OPT_NAME: a->import.name = p->value; break;
        case OPT_VARIANT: a->import.variant = p->value; break;
        case OPT_INTO: a->import.into = p->value; break;
        case OPT_FORCE: a->import.force = 1; break;
        case OPT_PROVIDERS: a->import.providers = p->value; break;
        case OPT_JSON: a->json = 1; break;
        case OPT_VERSION: a->import.ort_version = p->value; break;
        case OPT_NO_LOAD: a->import.no_load = 1; break;
        case OPT_NO_LOAD_CHECK: a->no_load_check = 1; break;
        }
    }
    return c == CLI_OPT_HELP ? -1 : c == CLI_OPT_BAD ? CLI_USAGE : 0;
}

/* ---- import ------------------------------------------------------------------ */

static int bundle_import(int argc, char **argv)
{
    bundle_args a = {ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT, 0, 0};
    cli_opt_parser p;
    int rc = read_options(&p, import_opts, argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (p.n_args < 1)
        return cli_usage("bundle", "import needs SRC: a libonnxruntime.so* file or a directory");
    if (p.n_args > 1)
        return cli_usage("bundle", "unexpected argument '%s'", p.args[1]);

    /* An interrupt stops the import where the library next looks (while it
     * copies and hashes files), which then removes its temporary directory. */
    ortkit_bundle *b = NULL;
    cli_interrupt_init();
    cli_interrupt_hold();
    a.import.cancel = cli_interrupt_poll;
    int irc = ortkit_bundle_import(&b, p.args[0], &a.import);
    cli_interrupt_release();
    if (irc == ORTKIT_E_CANCELLED && cli_interrupted())
        return cli_interrupt_fail("nothing was imported");
    if (irc != 0)
        return cli_fail_lib();
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    if (a.json) {
        rc = cli_json_print(bundle_summary_json(m));
    } else {
        printf("imported   %s\n", cli_esc(m->name));
        printf("into       %s\n", cli_esc(m->dir));
        bundle_summary_print(m);
    }
    ortkit_bundle_free(b);
    return rc;
}

/* ---- verify ------------------------------------------------------------------ */

/*
 * The load check of a bundle not yet verified by loading: only where this
 * host can load it (the bundle fits here), in a child process, and recorded
 * in its manifest.  text says what happened; 1 when loading failed.
 */
static int load_check(ortkit_bundle *b, int skip, char *text, size_t size)
{
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    if (m->verified_by_loading)
        return 0;
    if (skip) {
        snprintf(text, size, "not yet verified by loading (--no-load)");
        return 0;
    }
    ortkit_host *h = NULL;
    ortkit_bundle_choice *c = NULL;
    const ortkit_bundle *one[] = {b};
    if (ortkit_host_detect(&h) != 0 || !h) {
        snprintf(text, size, "not yet verified by loading: %s", ortkit_error_last());
        return 0;
    }
    ortkit_bundle_select(&c, h, one, 1, NULL);
    const ortkit_bundle_verdict *v = ortkit_bundle_choice_verdict(c, 0);
    int failed = 0;
    if (!v || !v->fits) {
        snprintf(text, size, "not yet verified by loading: this host cannot load it (%s)",
                 v ? v->why : ortkit_error_last());
        goto cleanup;
    }
    char lib[4096], why[512], *version = NULL, **providers = NULL;
    size_t count = 0;
    snprintf(lib, sizeof lib, "%s/%s", m->dir, m->library);
    if (load_check_run(lib, &version, &providers, &count, why, sizeof why)) {
        snprintf(text, size, "failed, in a child process: %s", why);
        failed = 1;
        goto cleanup;
    }
    if (ortkit_bundle_record_load(b, version, (const char *const *)providers, count))
        snprintf(text, size, "loaded in a child process (ONNX Runtime %s, %zu providers), but "
                 "not recorded: %s", version, count, ortkit_error_last());
    else
        snprintf(text, size, "loaded in a child process: ONNX Runtime %s, %zu providers; "
                 "recorded in its manifest", version, count);
    failed = strcmp(version, m->ort_version) != 0;
    load_check_free(version, providers, count);
cleanup:
    ortkit_bundle_choice_free(c);
    ortkit_host_free(h);
    return failed;
}

/* A directory, else the name of a bundle the search finds. */
static int open_named(ortkit_bundle **out, const char *what)
{
    struct stat st;
    if (stat(what, &st) == 0 || strchr(what, '/'))
        return ortkit_bundle_open(out, what) ? cli_fail_lib() : CLI_OK;
    ortkit_bundle_list *l = NULL;
    if (ortkit_bundle_list_open(&l) != 0)
        return cli_fail_lib();
    int rc = -1;
    for (size_t i = 0; rc < 0 && i < ortkit_bundle_list_count(l); i++) {
        const ortkit_bundle_entry *e = ortkit_bundle_list_get(l, i);
        if (!strcmp(e->name, what))
            rc = ortkit_bundle_open(out, e->dir) ? cli_fail_lib() : CLI_OK;
    }
    ortkit_bundle_list_free(l);
    if (rc < 0)
        rc = cli_fail("no bundle '%s': not a directory, and 'ortkit bundle list' finds no bundle "
                      "of that name", what);
    return rc;
}

static int bundle_verify(int argc, char **argv)
{
    bundle_args a = {ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT, 0, 0};
    cli_opt_parser p;
    int rc = read_options(&p, verify_opts, argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (p.n_args < 1)
        return cli_usage("bundle", "verify needs BUNDLE: a bundle directory or name");
    if (p.n_args > 1)
        return cli_usage("bundle", "unexpected argument '%s'", p.args[1]);

    ortkit_bundle *b = NULL;
    if ((rc = open_named(&b, p.args[0])))
        return rc;
    int bad = ortkit_bundle_verify(b) != 0;
    size_t n = ortkit_bundle_problem_count(b);
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    if (bad && n == 0) {
        rc = cli_fail_lib();
        goto cleanup;
    }
    char load[600] = "";
    int load_failed = 0;
    if (!bad)
        load_failed = load_check(b, a.no_load_check, load, sizeof load);
    m = ortkit_bundle_manifest(b);
    if (a.json) {
        cJSON *o = bundle_summary_json(m);
        cJSON_AddBoolToObject(o, "ok", !bad && !load_failed);
        cJSON_AddStringToObject(o, "load_check", load);
        cJSON *problems = cJSON_AddArrayToObject(o, "problems");
        for (size_t i = 0; problems && i < n; i++)
            cJSON_AddItemToArray(problems, cJSON_CreateString(ortkit_bundle_problem(b, i)));
        rc = cli_json_print(o);
    } else {
        char size[32];
        bundle_total_size(m, size, sizeof size);
        printf("bundle     %s\n", cli_esc(m->name));
        printf("dir        %s\n", cli_esc(m->dir));
        printf("runtime    ONNX Runtime %s, variant %s, %s\n", cli_esc(m->ort_version),
               cli_esc(m->variant), ortkit_arch_name(m->arch));
        printf("checked    %zu files (%s): sizes, SHA-256, links, missing and extra files,\n"
               "           owners and modes, ELF machine and RUNPATH $ORIGIN in lib/, the\n"
               "           version in the library's data; nothing was loaded\n",
               m->file_count, size);
        if (load[0])
            printf("loading    %s\n", cli_esc(load));
        bundle_needs_print(m);
        bundle_build_print(m);
        if (!bad && load_failed)
            printf("result     the files are intact; loading failed\n");
        else if (!bad)
            printf("result     ok\n");
        else
            printf("result     %zu problem%s\n", n, n == 1 ? "" : "s");
        for (size_t i = 0; i < n; i++)
            printf("  %s\n", cli_esc(ortkit_bundle_problem(b, i)));
    }
    if (bad && rc == CLI_OK)
        rc = cli_fail("bundle '%s' failed verification: %zu problem%s", m->name, n,
                      n == 1 ? "" : "s");
    else if (load_failed && rc == CLI_OK)
        rc = cli_fail("bundle '%s' does not load: %s", m->name, load);
cleanup:
    ortkit_bundle_free(b);
    return rc;
}

/* ---- list -------------------------------------------------------------------- */

static int bundle_list(int argc, char **argv)
{
    bundle_args a = {ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT, 0, 0};
    cli_opt_parser p;
    int rc = read_options(&p, json_opts, argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (p.n_args > 0)
        return cli_usage("bundle", "unexpected argument '%s'", p.args[0]);
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

int cmd_bundle(int argc, char **argv) { return cli_opt_run_subcommand(&bundle_spec, argc, argv); }

int bundle_open_named(ortkit_bundle **out, const char *what) { return open_named(out, what); }
