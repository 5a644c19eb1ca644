/*
 * bundle_cmds.h - the `ortkit bundle` subcommands, one file each
 * (cmd_bundle_<name>.c): their option tables, which cmd_bundle.c's --help
 * lists, and their runs, which it dispatches to, handing them its spec.
 */
#ifndef ORTKIT_CLI_BUNDLE_CMDS_H
#define ORTKIT_CLI_BUNDLE_CMDS_H

#include "cli.h"
#include "opt.h"

/* `bundle import`: a bundle from a library, a directory or a release. */
extern const cli_opt bundle_import_opts[];
int cmd_bundle_import(const cli_opt_spec *spec, int argc, char **argv);
/* `bundle fetch`: Microsoft's release from npm, checked, imported. */
extern const cli_opt bundle_fetch_opts[];
int cmd_bundle_fetch(const cli_opt_spec *spec, int argc, char **argv);
/* `bundle verify`: checked from the files, then loaded once in a child. */
extern const cli_opt bundle_verify_opts[];
int cmd_bundle_verify(const cli_opt_spec *spec, int argc, char **argv);
/* `bundle list`: the bundles the search finds. */
extern const cli_opt bundle_list_opts[];
int cmd_bundle_list(const cli_opt_spec *spec, int argc, char **argv);
/* `bundle show`: what a bundle is, from its manifest. */
extern const cli_opt bundle_show_opts[];
int cmd_bundle_show(const cli_opt_spec *spec, int argc, char **argv);
/* `bundle complete`: a GPU bundle's CUDA libraries copied in. */
extern const cli_opt bundle_complete_opts[];
int cmd_bundle_complete(const cli_opt_spec *spec, int argc, char **argv);
/* `bundle keygen`: a key pair for signing a repository. */
extern const cli_opt bundle_keygen_opts[];
int cmd_bundle_keygen(const cli_opt_spec *spec, int argc, char **argv);
/* `bundle publish`: bundles into a signed repository. */
extern const cli_opt bundle_publish_opts[];
int cmd_bundle_publish(const cli_opt_spec *spec, int argc, char **argv);
/* `bundle install`: the repository's bundle that fits this host. */
extern const cli_opt bundle_install_opts[];
int cmd_bundle_install(const cli_opt_spec *spec, int argc, char **argv);
/* `bundle choose`: the selection order's account. */
extern const cli_opt bundle_choose_opts[];
int cmd_bundle_choose(const cli_opt_spec *spec, int argc, char **argv);
/* `bundle probe`: load a library here and say what it is (verify's load, in this process). */
extern const cli_opt bundle_probe_opts[];
int cmd_bundle_probe(const cli_opt_spec *spec, int argc, char **argv);

#endif
