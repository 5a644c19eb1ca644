/*
 * session_flags.h - the session and runtime settings `run`, `bench` and
 * `validate` share: the session cache, the CPU arena and how it grows, the
 * memory pattern, spinning threads, and the --ep provider list.  Each
 * command lists SESSION_FLAG_ROWS(its arguments' struct, the member holding
 * a session_flags) in its option table, which stores the values there, and
 * calls session_flags_done() after parsing.
 */
#ifndef ORTKIT_CLI_SESSION_FLAGS_H
#define ORTKIT_CLI_SESSION_FLAGS_H

#include "opt.h"

#include <limits.h>
#include <ortkit.h>

typedef struct session_flags {
    int cache;                      /* --cache given */
    int cache_default;              /* without =DIR: the per-user cache, found by session_flags_done() */
    char cache_dir[PATH_MAX];
    int arena, mem_pattern, spin;   /* ortkit_switch values */
    int arena_extend;               /* an ortkit_arena_extend value */
} session_flags;

/* What the words of "on|off" and "power2|requested" store. */
extern const int session_flags_on_off[];
extern const int session_flags_extend[];
/* --cache[=DIR] (a CALL row on a session_flags). */
int session_flags_cache(cli_opt_parser *p, void *flags, char *value);

#define SESSION_SPIN_HELP "idle intra- and inter-op threads spin-wait for work (ORT's default: on)"

/* The rows of the session settings, stored in member m (a session_flags) of
 * struct T; RUNTIME_FLAG_ROWS adds the runtime's.  A command that reads
 * --spin its own way lists SESSION_FLAG_ROWS_BUT_SPIN and a row of its own
 * with SESSION_SPIN_HELP. */
#define SESSION_FLAG_ROWS_BUT_SPIN(T, m)                                                           \
    {0, "cache", 0, "DIR", CLI_OPT_OPTIONAL,                                                       \
     "keep optimised CPU sessions in DIR and load them from there next time (default "           \
     "$XDG_CACHE_HOME/ortkit/sessions)", CLI_OPT_CALL(T, m, session_flags_cache)},                 \
    {0, "arena", 0, "on|off", 0, "the CPU memory arena (ORT's default: on)",                       \
     CLI_OPT_CHOICE(T, m.arena, session_flags_on_off)},                                            \
    {0, "mem-pattern", 0, "on|off", 0, "plan memory from the first run's pattern (ORT's default: on)", \
     CLI_OPT_CHOICE(T, m.mem_pattern, session_flags_on_off)}
#define SESSION_FLAG_ROWS(T, m)                                                                    \
    SESSION_FLAG_ROWS_BUT_SPIN(T, m),                                                              \
    {0, "spin", 0, "on|off", 0, SESSION_SPIN_HELP, CLI_OPT_CHOICE(T, m.spin, session_flags_on_off)}
#define RUNTIME_FLAG_ROWS(T, m)                                                                    \
    {0, "arena-extend", 0, "power2|requested", 0,                                                  \
     "how the CPU arena grows: doubling (ORT's default) or by what is asked for; the runtime's "  \
     "sessions then share one arena", CLI_OPT_CHOICE(T, m.arena_extend, session_flags_extend)}

/* Into session options (the cache directory stays f's). */
void session_flags_apply(const session_flags *f, ortkit_session_options *so);
/* Into runtime options. */
void session_flags_runtime(const session_flags *f, ortkit_runtime_options *ro);
/* After the options: the default cache directory found (made, the user's
 * alone); CLI_USAGE (message printed) when there is none, or when the
 * settings contradict each other. */
int session_flags_done(session_flags *f, const char *cmd);
/* "hit", "filled", "skipped", or NULL without --cache. */
const char *session_flags_cache_word(const ortkit_session *s);
/* A warning on stderr when the cache was skipped or an entry rebuilt. */
void session_flags_warn(const ortkit_session *s);

/* The --ep row, its list stored in field f (a string) of struct T, for providers_split(). */
#define SESSION_EP_ROW(T, f)                                                                       \
    {0, "ep", 0, "LIST", 0, "execution providers in order, e.g. cuda,cpu", CLI_OPT_STRING(T, f)}

/* --ep: split "cuda,cpu" in place into out[]; 0, or CLI_USAGE when a name
 * is empty or there are more than max. */
int providers_split(const char *cmd, char *list, const char **out, size_t max, size_t *n);
/* Warn on stderr about each requested provider the session skipped. */
void providers_warn_skipped(const ortkit_session *s);

#endif
