/* builder_compiler_cache.h - the builder: the compiler cache and its remote storage (compiler_cache.c). */
#ifndef ORTKIT_BUILDER_COMPILER_CACHE_H
#define ORTKIT_BUILDER_COMPILER_CACHE_H

#include "ortkit.h"
#include "util.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

typedef enum ortkit__builder_cache_scheme {
    ORTKIT__CACHE_REDIS = 0, /* redis://[[USER:]PASSWORD@]HOST[:PORT][/DB] */
    ORTKIT__CACHE_HTTP = 1,  /* http://[USER:PASSWORD@]HOST[:PORT][/PATH] */
    ORTKIT__CACHE_HTTPS = 2  /* https://...: ccache 4.13+ through a storage helper */
} ortkit__builder_cache_scheme;

/* A remote storage URL for ccache (CCACHE_REMOTE_STORAGE), checked. */
typedef struct ortkit__builder_cache_remote {
    char url[1024];      /* as given: what ccache gets */
    char shown[1024];    /* the same with any password replaced by "***": what is printed */
    ortkit__builder_cache_scheme scheme;
    char host[256];
    unsigned port;       /* given, or the scheme's default (6379, 80, 443) */
    int port_given;
    long db;             /* redis: the database number, -1 when none is given */
    int has_password;
} ortkit__builder_cache_remote;

/*
 * Check a remote storage URL strictly: the scheme (redis, http, https), a
 * host name or IPv4 address, a port from 1 to 65535, a redis database
 * number or an http path, and ccache's attributes after '|' (read-only,
 * connect-timeout, operation-timeout; layout and keep-alive for http).  No
 * white space (ccache separates URLs with it), no query or fragment.  The
 * failure says what is wrong and never repeats a password.
 */
int ortkit__builder_cache_remote_parse(ortkit__builder_cache_remote *out, const char *url);
/* The password of a URL given without one, kept out of every command line:
 * the first line of password_file (the user's, mode 0600 or stricter), else
 * ORTKIT_CACHE_PASSWORD; put where the URL takes it (redis://SECRET@HOST,
 * http://USER:SECRET@HOST) and r parsed again.  Nothing to add: 0. */
int ortkit__builder_cache_remote_secret(ortkit__builder_cache_remote *r, const char *password_file);
/* The local cache a build through remote r keeps (CCACHE_DIR): a private
 * directory of its own, $XDG_CACHE_HOME/ortkit/ccache-remote/KEY, so what
 * the server sent never reaches the local cache of a build without it.
 * "" when r is NULL. */
int ortkit__builder_cache_local_dir(char *buf, size_t size, const ortkit__builder_cache_remote *r);
/* The scheme's name: "redis", "http", "https". */
const char *ortkit__builder_cache_scheme_name(ortkit__builder_cache_scheme s);
/*
 * What `ccache --version` says (text): its version into version, and
 * whether it can reach remote (NULL: only its version): a "Features:" line
 * naming redis-storage or http-storage, 4.7 or newer (the per-storage
 * counters the report reads), 4.13 or newer for https (a storage helper).
 */
int ortkit__builder_ccache_check(const char *text, const ortkit__builder_cache_remote *remote,
                                 char *version, size_t size);
/* A TCP connection to the remote's host and port within timeout_ms: 0, or
 * an error saying why not (for pre-flight's warning). */
int ortkit__builder_cache_remote_reach(const ortkit__builder_cache_remote *remote, int timeout_ms);

/* What the cache did with one compile, from ccache's stats log of it. */
typedef enum ortkit__builder_cache_outcome {
    ORTKIT__CACHE_NONE = 0,        /* not through ccache, or it said nothing */
    ORTKIT__CACHE_LOCAL_HIT = 1,   /* from the local cache directory */
    ORTKIT__CACHE_REMOTE_HIT = 2,  /* from the remote storage */
    ORTKIT__CACHE_MISS = 3,        /* compiled (and stored) */
    ORTKIT__CACHE_UNCACHEABLE = 4, /* run without caching: a link, an option ccache cannot cache */
    ORTKIT__CACHE_OUTCOMES
} ortkit__builder_cache_outcome;

/* "-", "local-hit", "remote-hit", "miss", "uncacheable"; and back (-1: unknown). */
const char *ortkit__builder_cache_outcome_name(ortkit__builder_cache_outcome o);
int ortkit__builder_cache_outcome_parse(const char *name);
/* Classify ccache's stats log of one compile (its counter names, one a
 * line); *remote_errors counts remote_storage_error and _timeout. */
ortkit__builder_cache_outcome ortkit__builder_ccache_outcome(const char *log, int *remote_errors);

#endif
