/*
 * cmd_wheel.c - `ortkit wheel SUBCOMMAND`: ONNX Runtime's Python package as
 * wheels per variant.  Only the table of subcommands and the help they share
 * live here; each subcommand is cmd_wheel_<name>.c.
 */
#include "wheel_cmds.h"

static const cli_subcommand wheel_subs[] = {
    {"pack", "PACKAGE_DIR",
     "make a wheel of the onnxruntime package tree a build with Python wrote (BUILD/onnxruntime), "
     "with the facts of the same build's bundle: its platform tag from what its libraries were "
     "measured to need, a local version naming the variant (1.21.0+cpu.avx2), ortkit.json and "
     "variant.json in its dist-info; 'ortkit build --python' packs its wheels itself",
     wheel_pack_opts, cmd_wheel_pack},
    {"show", "WHEEL",
     "check a wheel (every member a regular file inside it, RECORD's sizes and SHA-256s, WHEEL "
     "and METADATA against its name, the needs it declares against those of its libraries, read "
     "from them, and the platform tag those earn) and say what it is",
     wheel_show_opts, cmd_wheel_show},
    {"publish", "WHEEL...",
     "check each wheel and add it to the index in DIR: VARIANT/onnxruntime/FILE, one PEP 503 "
     "index per variant (pip install --index-url URL/VARIANT/ onnxruntime), and wheels.json, "
     "every wheel's facts signed (wheels.json.minisig) with a higher serial and an expiry; an "
     "index the key's public half does not verify is left alone",
     wheel_publish_opts, cmd_wheel_publish},
    {"choose", "SOURCE",
     "from an index (an http(s) URL or a directory), whose signature, expiry and serial are "
     "checked: every wheel's verdict for this host and a Python, by the bundles' one selection "
     "order, and the pip command that installs the best with its SHA-256; --install downloads "
     "it (checked while it streams) and runs pip",
     wheel_choose_opts, cmd_wheel_choose},
    {NULL, NULL, NULL, NULL, NULL}};

static const cli_opt_spec wheel_spec = {
    "wheel",
    "usage: ortkit wheel pack PACKAGE_DIR --bundle BUNDLE --python X.Y [--into DIR] [--json]\n"
    "       ortkit wheel show WHEEL [--json]\n"
    "       ortkit wheel publish WHEEL... --index DIR --key FILE [--expires WHEN] [--json]\n"
    "       ortkit wheel choose SOURCE --pubkey KEY [--python PYTHON] [--install] [--json]\n",
    "ONNX Runtime's own Python package (import onnxruntime), built per variant by\n"
    "'ortkit build --python', as wheels that carry their variant and what they\n"
    "need of a host; a signed index of them that pip installs from; and the one\n"
    "that fits a host, chosen as bundles are.\n",
    NULL, wheel_subs, NULL};

int cmd_wheel(int argc, char **argv) { return cli_opt_run_subcommand(&wheel_spec, argc, argv); }
