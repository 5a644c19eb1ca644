/* session_flags.c - the session settings `run`, `bench` and `validate` share. */
#include "session_flags.h"
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int session_flags_switch(const char *value)
{
    if (!strcmp(value, "on"))
        return ORTKIT_SWITCH_ON;
    if (!strcmp(value, "off"))
        return ORTKIT_SWITCH_OFF;
    return -1;
}

/* $XDG_CACHE_HOME/ortkit/sessions, else ~/.cache/ortkit/sessions. */
static int default_cache_dir(char *buf, size_t size)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/')
        n = snprintf(buf, size, "%s/ortkit/sessions", xdg);
    else if (home && home[0] == '/')
        n = snprintf(buf, size, "%s/.cache/ortkit/sessions", home);
    else
        return -1;
    return n < 0 || (size_t)n >= size ? -1 : 0;
}

int session_flags_parse(session_flags *f, const char *cmd, int id, const char *value)
{
    int sw;
    switch (id) {
    case OPT_SF_CACHE:
        f->cache = 1;
        if (value && !*value)
            return cli_usage(cmd, "--cache= wants a directory");
        if (value ? (size_t)snprintf(f->cache_dir, sizeof f->cache_dir, "%s", value) >= sizeof f->cache_dir
                  : default_cache_dir(f->cache_dir, sizeof f->cache_dir))
            return cli_usage(cmd, value ? "--cache: the directory's path is too long"
                                        : "--cache: neither XDG_CACHE_HOME nor HOME is an absolute "
                                          "path; give --cache=DIR");
        return 0;
    case OPT_SF_ARENA:
    case OPT_SF_MEM_PATTERN:
    case OPT_SF_SPIN:
        if ((sw = session_flags_switch(value)) < 0)
            return cli_usage(cmd, "--%s wants on or off, got '%s'",
                             id == OPT_SF_ARENA ? "arena" : id == OPT_SF_SPIN ? "spin" : "mem-pattern", value);
        *(id == OPT_SF_ARENA ? &f->arena : id == OPT_SF_SPIN ? &f->spin : &f->mem_pattern) = (ortkit_switch)sw;
        return 0;
    case OPT_SF_ARENA_EXTEND:
        if (!strcmp(value, "power2"))
            f->arena_extend = ORTKIT_ARENA_EXTEND_POWER_OF_TWO;
        else if (!strcmp(value, "requested"))
            f->arena_extend = ORTKIT_ARENA_EXTEND_REQUESTED;
        else
            return cli_usage(cmd, "--arena-extend wants power2 or requested, got '%s'", value);
        return 0;
    }
    return -1;
}

void session_flags_apply(const session_flags *f, ortkit_session_options *so)
{
    so->cache_dir = f->cache ? f->cache_dir : NULL;
    so->cpu_arena = f->arena;
    so->mem_pattern = f->mem_pattern;
    so->intra_op_spinning = so->inter_op_spinning = f->spin;
}

void session_flags_runtime(const session_flags *f, ortkit_runtime_options *ro)
{
    ro->cpu_arena_extend = f->arena_extend;
}

const char *session_flags_cache_word(const ortkit_session *s)
{
    switch (ortkit_session_cache(s, NULL)) {
    case ORTKIT_CACHE_HIT: return "hit";
    case ORTKIT_CACHE_FILLED: return "filled";
    case ORTKIT_CACHE_SKIPPED: return "skipped";
    default: return NULL;
    }
}

void session_flags_warn(const ortkit_session *s)
{
    const char *reason;
    ortkit_cache_state state = ortkit_session_cache(s, &reason);
    if (state == ORTKIT_CACHE_SKIPPED)
        cli_warn("the session cache was not used: %s", reason);
    else if (reason[0])
        cli_warn("session cache: %s", reason);
}

int session_flags_done(const session_flags *f, const char *cmd)
{
    if (f->arena_extend && f->arena == ORTKIT_SWITCH_OFF)
        return cli_usage(cmd, "--arena-extend sets how the arena grows; it needs --arena on");
    return 0;
}
