/* bundle_cmds.h - the `ortkit bundle` subcommands that live in files of their own. */
#ifndef ORTKIT_CLI_BUNDLE_CMDS_H
#define ORTKIT_CLI_BUNDLE_CMDS_H

#include "cli.h"
#include "opt.h"

extern const cli_opt_spec bundle_spec;

/* cmd_bundle_choose.c: `ortkit bundle choose [--host FILE] [--json] [DIR...]`. */
extern const cli_opt bundle_choose_opts[];
int bundle_choose(int argc, char **argv);

/* cmd_bundle_show.c: `ortkit bundle show BUNDLE [--json]`. */
extern const cli_opt bundle_show_opts[];
int bundle_show(int argc, char **argv);

/* load_check.c: `ortkit bundle probe LIBRARY`, which loads a library in its
 * own process and prints what it reports as JSON, and the parent's side. */
extern const cli_opt bundle_probe_opts[];
int bundle_probe(int argc, char **argv);
/* Load library in a child process (this program, `bundle probe`): 0 with
 * *version (malloc'd) and *providers (each malloc'd, NULL-terminated), or
 * -1 with why: what the child said, or how it died. */
int load_check_run(const char *library, char **version, char ***providers, size_t *count,
                   char *why, size_t why_size);
void load_check_free(char *version, char **providers, size_t count);

#endif
