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
     "what it is built for: cpu (default: any CPU of its architecture) or a variant such as "
     "cuda12.9-sm90-avx512 (see 'ortkit variants'); a CUDA build needs one"},
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
     "a GPU release's provider libraries, of the core's release (checked): the manifest records "
     "the CUDA, cuDNN and driver they need and the GPU targets of their fat binaries; with "
     "--variant (a CUDA variant), the binaries must bear out its CUDA major and GPU code"},
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

static void total_size(const ortkit_manifest *m, char *buf, size_t size)
{
    double bytes = 0;
    for (size_t i = 0; i < m->file_count; i++)
        bytes += (double)m->files[i].size;
    ortkit__human_bytes(buf, size, bytes);
}

static cJSON *bundle_build_json(const ortkit_manifest *m);

static cJSON *manifest_json(const ortkit_manifest *m)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "name", m->name);
    cJSON_AddStringToObject(o, "dir", m->dir);
    cJSON_AddStringToObject(o, "ort_version", m->ort_version);
    cJSON_AddNumberToObject(o, "api_level", m->api_level);
    cJSON_AddStringToObject(o, "variant", m->variant);
    cJSON_AddStringToObject(o, "arch", ortkit_arch_name(m->arch));
    cJSON_AddStringToObject(o, "linkage", m->linkage ? m->linkage : "shared");
    cJSON *p = cJSON_AddArrayToObject(o, "providers");
    for (size_t i = 0; p && i < m->provider_count; i++)
        cJSON_AddItemToArray(p, cJSON_CreateString(m->providers[i]));
    cJSON_AddNumberToObject(o, "files", (double)m->file_count);
    cJSON_AddBoolToObject(o, "verified_by_loading", m->verified_by_loading);
    cJSON_AddStringToObject(o, "version_from", m->version_from ? m->version_from : "");
    if (m->gpu_known)
        cJSON_AddItemToObject(o, "gpu", bundle_gpu_json(m));
    if (m->needs_known) {
        cJSON *n = cJSON_AddObjectToObject(o, "needs");
        cJSON_AddStringToObject(n, "glibc", m->needs_glibc ? m->needs_glibc : "");
        cJSON_AddStringToObject(n, "glibcxx", m->needs_glibcxx ? m->needs_glibcxx : "");
        cJSON_AddStringToObject(n, "cxxabi", m->needs_cxxabi ? m->needs_cxxabi : "");
        cJSON_AddItemToObject(n, "libraries",
                              cJSON_CreateStringArray(m->needs_libraries, (int)m->needs_library_count));
    }
    if (m->build_known)
        cJSON_AddItemToObject(o, "build", bundle_build_json(m));
    return o;
}

/* The manifest's "build": what ortkit compiled into the library. */
static cJSON *bundle_build_json(const ortkit_manifest *m)
{
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "glibc", m->build_glibc);
    cJSON_AddStringToObject(b, "glibc_floor", m->build_glibc_floor);
    cJSON *a = cJSON_AddArrayToObject(b, "dependencies");
    for (size_t i = 0; a && i < m->build_dependency_count; i++) {
        const ortkit_bundle_dependency *d = &m->build_dependencies[i];
        cJSON *e = cJSON_CreateObject();
        if (!e || !cJSON_AddItemToArray(a, e))
            break;
        cJSON_AddStringToObject(e, "name", d->name);
        cJSON_AddStringToObject(e, "version", d->version);
        cJSON_AddStringToObject(e, "pinned", d->pinned);
        cJSON_AddStringToObject(e, "match", d->match);
        cJSON_AddStringToObject(e, "origin", d->origin);
        cJSON_AddStringToObject(e, "sha256", d->sha256);
        cJSON_AddBoolToObject(e, "patched", d->patched);
    }
    return b;
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
        rc = cli_json_print(manifest_json(m));
    } else {
        char size[32];
        total_size(m, size, sizeof size);
        printf("imported   %s\n", cli_esc(m->name));
        printf("into       %s\n", cli_esc(m->dir));
        printf("runtime    ONNX Runtime %s (C API %d), variant %s, %s\n", cli_esc(m->ort_version),
               m->api_level, cli_esc(m->variant), ortkit_arch_name(m->arch));
        printf("providers ");
        for (size_t i = 0; i < m->provider_count; i++)
            printf(" %s", cli_esc(m->providers[i]));
        printf("\nversion    from %s\n", m->version_from && m->version_from[0] ? cli_esc(m->version_from) : "-");
        printf("files      %zu, %s\n", m->file_count, size);
        if (!m->verified_by_loading)
            printf("loaded     no: not yet verified by loading; 'ortkit bundle verify %s' on a "
                   "host that can load it does\n", cli_esc(m->name));
        bundle_gpu_print(m);
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
        cJSON *o = manifest_json(m);
        cJSON_AddBoolToObject(o, "ok", !bad && !load_failed);
        cJSON_AddStringToObject(o, "load_check", load);
        cJSON *problems = cJSON_AddArrayToObject(o, "problems");
        for (size_t i = 0; problems && i < n; i++)
            cJSON_AddItemToArray(problems, cJSON_CreateString(ortkit_bundle_problem(b, i)));
        rc = cli_json_print(o);
    } else {
        char size[32];
        total_size(m, size, sizeof size);
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
        if (m->needs_known)
            printf("needs      glibc %s, GLIBCXX %s, CXXABI %s; %zu librar%s of the host%s\n",
                   m->needs_glibc && m->needs_glibc[0] ? cli_esc(m->needs_glibc) : "-",
                   m->needs_glibcxx && m->needs_glibcxx[0] ? cli_esc(m->needs_glibcxx) : "-",
                   m->needs_cxxabi && m->needs_cxxabi[0] ? cli_esc(m->needs_cxxabi) : "-",
                   m->needs_library_count, m->needs_library_count == 1 ? "y" : "ies",
                   m->needs_library_count ? " (see --json)" : "");
        if (m->build_known)
            printf("built      by ortkit with glibc %s%s%s; %zu dependencies compiled in (see --json)\n",
                   m->build_glibc[0] ? cli_esc(m->build_glibc) : "?",
                   m->build_glibc_floor[0] ? ", floor " : "",
                   m->build_glibc_floor[0] ? cli_esc(m->build_glibc_floor) : "",
                   m->build_dependency_count);
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
            cJSON *o = e->bundle ? manifest_json(ortkit_bundle_manifest(e->bundle)) : cJSON_CreateObject();
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
