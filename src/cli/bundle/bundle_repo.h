/*
 * bundle_repo.h - what `ortkit bundle keygen|publish|install`, the signed
 * bundle repositories' subcommands, share (bundle_repo.c).
 */
#ifndef ORTKIT_CLI_BUNDLE_REPO_H
#define ORTKIT_CLI_BUNDLE_REPO_H

#include <stdint.h>

/* The first line of a password file, for an encrypted secret key; NULL
 * (after a message) when it cannot be read.  free() it. */
char *bundle_read_password(const char *path);

/* A time as "2025-11-23T10:00:00Z" (UTC), as index.json writes it. */
void bundle_format_time(char out[32], int64_t t);

#endif
