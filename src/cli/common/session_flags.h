/*
 * session_flags.h - the session and runtime settings `run`, `bench` and
 * `validate` share: the session cache, the CPU arena and how it grows, the
 * memory pattern, spinning threads.  Each command lists SESSION_FLAG_ROWS
 * in its option table and hands the ids it does not know to
 * session_flags_parse().
 */
#ifndef ORTKIT_CLI_SESSION_FLAGS_H
#define ORTKIT_CLI_SESSION_FLAGS_H

#include "opt.h"

#include <limits.h>
#include <ortkit.h>

enum {
    OPT_SF_CACHE = 200, OPT_SF_ARENA, OPT_SF_ARENA_EXTEND, OPT_SF_MEM_PATTERN, OPT_SF_SPIN
};

/* The rows of the session settings; RUNTIME_FLAG_ROWS adds the runtime's. */
#define SESSION_FLAG_ROWS                                                                          \
    {OPT_SF_CACHE, "cache", 0, "DIR", CLI_OPT_OPTIONAL,                                            \
     "keep optimised CPU sessions in DIR and load them from there next time (default "           \
     "$XDG_CACHE_HOME/ortkit/sessions)"},                                                           \
    {OPT_SF_ARENA, "arena", 0, "on|off", 0, "the CPU memory arena (ORT's default: on)"},           \
    {OPT_SF_MEM_PATTERN, "mem-pattern", 0, "on|off", 0,                                            \
     "plan memory from the first run's pattern (ORT's default: on)"},                              \
    {OPT_SF_SPIN, "spin", 0, "on|off", 0, "idle intra- and inter-op threads spin-wait for work "   \
     "(ORT's default: on)"}
#define RUNTIME_FLAG_ROWS                                                                          \
    {OPT_SF_ARENA_EXTEND, "arena-extend", 0, "power2|requested", 0,                                \
     "how the CPU arena grows: doubling (ORT's default) or by what is asked for; the runtime's "  \
     "sessions then share one arena"}

typedef struct session_flags {
    int cache;                      /* --cache given */
    char cache_dir[PATH_MAX];
    ortkit_switch arena, mem_pattern, spin;
    ortkit_arena_extend arena_extend;
} session_flags;

/* Read option id with value; 0 when it was one of these, CLI_USAGE (message
 * printed) on a bad value, -1 when id is not one of these. */
int session_flags_parse(session_flags *f, const char *cmd, int id, const char *value);
/* Into session options (the cache directory stays f's). */
void session_flags_apply(const session_flags *f, ortkit_session_options *so);
/* Into runtime options. */
void session_flags_runtime(const session_flags *f, ortkit_runtime_options *ro);
/* After the options: CLI_USAGE (message printed) when they contradict each other. */
int session_flags_done(const session_flags *f, const char *cmd);
/* "hit", "filled", "skipped", or NULL without --cache. */
const char *session_flags_cache_word(const ortkit_session *s);
/* A warning on stderr when the cache was skipped or an entry rebuilt. */
void session_flags_warn(const ortkit_session *s);
/* "on"/"off" -> a switch; -1 otherwise. */
int session_flags_switch(const char *value);

#endif
