/*
 * wheel_cmds.h - the `ortkit wheel` subcommands, one file each
 * (cmd_wheel_<name>.c): their option tables, which cmd_wheel.c's --help
 * lists, and their runs, which it dispatches to, handing them its spec.
 */
#ifndef ORTKIT_CLI_WHEEL_CMDS_H
#define ORTKIT_CLI_WHEEL_CMDS_H

#include "cli.h"
#include "opt.h"

/* `wheel pack`: a build's package tree into a wheel. */
extern const cli_opt wheel_pack_opts[];
int cmd_wheel_pack(const cli_opt_spec *spec, int argc, char **argv);
/* `wheel show`: a wheel checked, and what it says of itself. */
extern const cli_opt wheel_show_opts[];
int cmd_wheel_show(const cli_opt_spec *spec, int argc, char **argv);
/* `wheel publish`: wheels into a signed index, one pip index per variant. */
extern const cli_opt wheel_publish_opts[];
int cmd_wheel_publish(const cli_opt_spec *spec, int argc, char **argv);
/* `wheel choose`: the index's wheel for this host and a Python, and how to install it. */
extern const cli_opt wheel_choose_opts[];
int cmd_wheel_choose(const cli_opt_spec *spec, int argc, char **argv);

#endif
