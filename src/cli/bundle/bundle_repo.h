/*
 * bundle_repo.h - `ortkit bundle keygen|publish|install`: signed bundle
 * repositories, one file per subcommand (cmd_bundle_<name>.c).  Their
 * option tables are shared with cmd_bundle.c, whose --help lists them.
 */
#ifndef ORTKIT_CLI_BUNDLE_REPO_H
#define ORTKIT_CLI_BUNDLE_REPO_H

#include "opt.h"

#include <stdint.h>

/* `ortkit bundle`'s spec (cmd_bundle.c): every subcommand's --help is the whole command's. */
extern const cli_opt_spec bundle_spec;

extern const cli_opt bundle_keygen_opts[];
extern const cli_opt bundle_publish_opts[];
extern const cli_opt bundle_install_opts[];

int cmd_bundle_keygen(int argc, char **argv);
int cmd_bundle_publish(int argc, char **argv);
int cmd_bundle_install(int argc, char **argv);

/* The first line of a password file, for an encrypted secret key; NULL
 * (after a message) when it cannot be read.  free() it. */
char *bundle_read_password(const char *path);

/* A time as "2025-11-23T10:00:00Z" (UTC), as index.json writes it. */
void bundle_format_time(char out[32], int64_t t);

#endif
