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
CLI_SUBCOMMAND(wheel, pack);
/* `wheel show`: a wheel checked, and what it says of itself. */
CLI_SUBCOMMAND(wheel, show);
/* `wheel publish`: wheels into a signed index, one pip index per variant. */
CLI_SUBCOMMAND(wheel, publish);
/* `wheel choose`: the index's wheel for this host and a Python, and how to install it. */
CLI_SUBCOMMAND(wheel, choose);

#endif
