/* util_env.h - the environment (env.c). */
#ifndef ORTKIT_UTIL_ENV_H
#define ORTKIT_UTIL_ENV_H

#include "util_base.h"

/* A variable ortkit reads. */
typedef struct ortkit__env_var {
    const char *name; /* "ORTKIT_RUNTIME" */
    const char *what; /* what it does, for people */
    const char *part; /* which part of ortkit reads it: "runtime: resolve" */
} ortkit__env_var;

/* The table of every variable ortkit reads, in the order docs list them. */
size_t ortkit__env_count(void);
const ortkit__env_var *ortkit__env_at(size_t i);
/* The table's row for name; NULL when it has none. */
const ortkit__env_var *ortkit__env_find(const char *name);
/* The value of name, for a name in the table (NULL when unset): every read
 * of the environment in src/ goes through here.  Any other name reads as unset (and fails an
 * assertion in a debug build): add it to the table. */
const char *ortkit__env(const char *name);
/* The same, NULL when set but empty. */
const char *ortkit__env_nonempty(const char *name);
/* $HOME when it is an absolute path, else NULL. */
const char *ortkit__home_dir(void);
/* An XDG base directory with sub below it, into buf: $var/sub when var
 * (XDG_CACHE_HOME, XDG_DATA_HOME, XDG_STATE_HOME) is an absolute path (a
 * relative one is invalid and ignored, as the XDG spec says), else
 * $HOME/fallback/sub (fallback: ".cache", ".local/share", ".local/state").
 * ORTKIT_E_IO when neither is absolute ("neither XDG_DATA_HOME nor HOME is
 * an absolute path") or the path does not fit.  Nothing is made. */
int ortkit__xdg_dir(char *buf, size_t size, const char *var, const char *fallback,
                    const char *sub);

#endif
