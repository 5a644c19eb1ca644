/*
 * bundle_repo.h - what `ortkit bundle keygen|publish|install`, the signed
 * bundle repositories' subcommands, share (bundle_repo.c).
 */
#ifndef ORTKIT_CLI_BUNDLE_REPO_H
#define ORTKIT_CLI_BUNDLE_REPO_H

#include "cli.h"
#include "view.h"

#include <stdint.h>

/* The first line of a password file, for an encrypted secret key; NULL
 * (after a message) when it cannot be read.  free() it. */
char *bundle_read_password(const char *path);

/* A repository's view (what --json prints and the text is drawn from):
 * where it is, its serial, expiry and key, and each bundle in it; with a
 * choice (install's listing), also the serial last seen, the trusted
 * comment, each bundle's architecture and verdict, and what was chosen. */
cJSON *bundle_repo_view(const ortkit_repo *repo, const ortkit_bundle_choice *choice);
/* That view as text: its first lines ("repository  DIR", "serial ..."),
 * then its bundles by columns.  CLI_OK, or CLI_FAIL when the table could
 * not be made. */
int bundle_repo_text(const cJSON *view, const cli_view_column *columns, size_t n);
/* Cells of a listing's table (the repository's bundles, an index's
 * wheels): SIZE for people; "*" for the one chosen; VERDICT, "fits" or
 * "does not fit" and why. */
void bundle_repo_size_cell(const cJSON *o, char *buf, size_t size);
void bundle_repo_chosen_cell(const cJSON *o, char *buf, size_t size);
void bundle_repo_verdict_cell(const cJSON *o, char *buf, size_t size);

#endif
