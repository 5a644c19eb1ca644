/* bundle_arg.h - a BUNDLE argument: a bundle's directory, else the name of a
 * bundle the search finds ('ortkit bundle list'). */
#ifndef ORTKIT_CLI_BUNDLE_ARG_H
#define ORTKIT_CLI_BUNDLE_ARG_H

#include "cli.h"

/* The bundle what names, opened: CLI_OK, or CLI_FAIL after saying why. */
int bundle_open_named(ortkit_bundle **out, const char *what);
/* Its directory (malloc'd; what itself when no bundle has that name, for
 * the library to refuse); NULL when memory runs out. */
char *bundle_dir_named(const char *what);

#endif
