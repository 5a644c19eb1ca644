/* load_check.h - a library loaded in a child process (ortkit-probe), for
 * `bundle verify`'s load check. */
#ifndef ORTKIT_CLI_LOAD_CHECK_H
#define ORTKIT_CLI_LOAD_CHECK_H

#include "cli.h"

/* Load library in a child process (ortkit-probe): 0 with
 * *version (malloc'd) and *providers (each malloc'd, NULL-terminated), or
 * -1 with why: what the child said, or how it died. */
int load_check_run(const char *library, char **version, char ***providers, size_t *count,
                   char *why, size_t why_size);
void load_check_free(char *version, char **providers, size_t count);

#endif
