/* builder_static.h - the builder: a static core (static.c). */
#ifndef ORTKIT_BUILDER_STATIC_H
#define ORTKIT_BUILDER_STATIC_H

#include "ortkit.h"
#include "util.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* Ask CMake's file API for the code model (written before configuring). */
int ortkit__builder_file_api_query(const char *build_dir);
/* 1 when a reply is there. */
int ortkit__builder_file_api_ready(const char *build_dir);

/* What a shared library target's link takes, from the file API's reply. */
typedef struct ortkit__builder_link {
    ortkit__strv archives; /* static libraries of the build, absolute, in link order, once each */
    ortkit__strv libs;     /* the rest as words a program links: -lNAME, -l:FILE, -pthread */
} ortkit__builder_link;
int ortkit__builder_link_read(ortkit__builder_link *out, const char *build_dir, const char *target);
void ortkit__builder_link_free(ortkit__builder_link *link);
/* libs joined by spaces (malloc'd); NULL when out of memory. */
char *ortkit__builder_link_words(const ortkit__builder_link *link);
/* One archive at out holding every member of archives (an `ar -M`
 * script), written under a temporary name and renamed: a failure leaves
 * what was at out. */
int ortkit__builder_archive_merge(const char *out, const ortkit__strv *archives);

#endif
