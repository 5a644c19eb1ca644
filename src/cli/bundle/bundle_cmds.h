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
CLI_SUBCOMMAND(bundle, import);
/* `bundle fetch`: Microsoft's release from npm, checked, imported. */
CLI_SUBCOMMAND(bundle, fetch);
/* `bundle verify`: checked from the files, then loaded once in a child. */
CLI_SUBCOMMAND(bundle, verify);
/* `bundle list`: the bundles the search finds. */
CLI_SUBCOMMAND(bundle, list);
/* `bundle show`: what a bundle is, from its manifest. */
CLI_SUBCOMMAND(bundle, show);
/* `bundle complete`: a GPU bundle's CUDA libraries copied in. */
CLI_SUBCOMMAND(bundle, complete);
/* `bundle keygen`: a key pair for signing a repository. */
CLI_SUBCOMMAND(bundle, keygen);
/* `bundle publish`: bundles into a signed repository. */
CLI_SUBCOMMAND(bundle, publish);
/* `bundle install`: the repository's bundle that fits this host. */
CLI_SUBCOMMAND(bundle, install);
/* `bundle choose`: the selection order's account. */
CLI_SUBCOMMAND(bundle, choose);
/* `bundle probe`: load a library here and say what it is (verify's load, in this process). */
CLI_SUBCOMMAND(bundle, probe);

#endif
