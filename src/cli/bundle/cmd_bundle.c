/*
 * cmd_bundle.c - `ortkit bundle SUBCOMMAND`: relocatable ONNX Runtime
 * bundles.  Only the table of subcommands and the help they share live
 * here; each subcommand is cmd_bundle_<name>.c, handed this spec for its
 * messages and --help.
 */
#include "bundle_cmds.h"

static const cli_subcommand bundle_subs[] = {
    {"import", "SRC",
     "make a bundle from a libonnxruntime.so* file, a directory holding one, or an unpacked "
     "release (lib/ and include/); nothing is taken from outside SRC: a link in it that leads "
     "out, a loop or a FIFO is an error; Ctrl-C stops it and leaves nothing (exit 130)",
     bundle_import_opts, cmd_bundle_import},
    {"fetch", "VERSION",
     "get Microsoft's official ONNX Runtime VERSION for this host (x86-64 or aarch64 Linux), "
     "check it and import it as a bundle (ort-VERSION-cpu, in the user's bundle directory "
     "unless --into): from the npm registry (onnxruntime-node, against its published SHA-512), "
     "or the GitHub release's tarball (against the SHA-256 ortkit carries, or --sha256)",
     bundle_fetch_opts, cmd_bundle_fetch},
    {"verify", "BUNDLE",
     "check, from the files alone (nothing is loaded), every file's size and SHA-256, that "
     "nothing is missing or extra, owners and modes (writable by the owner only), RUNPATH "
     "$ORIGIN, and the manifest's version in the library's own data; BUNDLE is a directory or "
     "the name of a bundle 'ortkit bundle list' shows; a bundle not yet verified by loading is "
     "then loaded, in a child process, when this host can load it, and the result recorded in "
     "its manifest",
     bundle_verify_opts, cmd_bundle_verify},
    {"list", NULL,
     "the bundles found on ORTKIT_PATH (colon-separated), in $XDG_DATA_HOME/ortkit/bundles, in "
     "$XDG_DATA_DIRS (/usr/local/share, /usr/share) + /ortkit/bundles, and in ortkit's default "
     "directory",
     bundle_list_opts, cmd_bundle_list},
    {"show", "BUNDLE",
     "what a bundle is, from its manifest: the runtime, its providers, its GPU facts (CUDA, "
     "cuDNN, driver, GPU code, CUDA libraries carried and missing) and what each part (the "
     "core, each provider) needs of a host; nothing is checked or loaded",
     bundle_show_opts, cmd_bundle_show},
    {"complete", "BUNDLE",
     "make a GPU bundle self-contained: copy in every CUDA library its providers need (and "
     "cuDNN's parts, cuFFT), never the driver's; a library built for another CUDA major is "
     "refused by name; exit 1 when something is still missing, which it names",
     bundle_complete_opts, cmd_bundle_complete},
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
     "bundle or a directory of bundles (default: the bundles the search finds); --model with "
     "--measure runs the model on each fitting candidate, each in its own process, and remembers "
     "the fastest whose outputs agree, which the runtime's search then takes for that model",
     bundle_choose_opts, cmd_bundle_choose},
    {"probe", "LIBRARY",
     "load LIBRARY in this process and print its version and providers as JSON (what verify "
     "runs in a child process)",
     bundle_probe_opts, cmd_bundle_probe},
    {NULL, NULL, NULL, NULL, NULL}};

static const cli_opt_spec bundle_spec = {
    "bundle",
    "usage: ortkit bundle import SRC [--name NAME] [--variant V] [--into DIR] [--force]\n"
    "                           [--version X.Y.Z] [--no-load] [--json]\n"
    "       ortkit bundle import CORE --providers DIR [--variant V] [--platform sbsa|l4t]\n"
    "                           [--name NAME] [--into DIR] [--force] [--json]\n"
    "       ortkit bundle fetch VERSION [--registry URL] [--ca-file FILE] [--name NAME]\n"
    "                           [--into DIR] [--force] [--json]\n"
    "       ortkit bundle fetch VERSION --from github [--gpu cuda12|cuda13] [--sha256 HEX]\n"
    "                           [--url URL] [--ca-file FILE] [--name NAME] [--into DIR]\n"
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
    "       ortkit bundle choose --model MODEL [--measure] [--budget SECONDS] [--threads N]\n"
    "                            [-i NAME=FILE]... [--dim SYMBOL=SIZE]... [--shape NAME=D0,D1]...\n"
    "                            [--zeros] [--seed N] [--json] [DIR...]\n"
    "       ortkit bundle probe LIBRARY\n",
    "A bundle is a directory holding one ONNX Runtime build that works from\n"
    "wherever it lies: lib/ (RUNPATH $ORIGIN), include/, a pkg-config file, a\n"
    "CMake package, the licences and manifest.json (what it is, what it needs of\n"
    "a host, every file's size and SHA-256).  With no explicit runtime, ortkit\n"
    "loads the best bundle that fits the host ('ortkit doctor' explains which).\n",
    NULL, bundle_subs, NULL};

int cmd_bundle(int argc, char **argv) { return cli_opt_run_subcommand(&bundle_spec, argc, argv); }
