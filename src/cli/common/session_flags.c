/* session_flags.c - the session settings `run`, `bench` and `validate` share. */
#include "session_flags.h"
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const int session_flags_on_off[] = {ORTKIT_SWITCH_ON, ORTKIT_SWITCH_OFF};
const int session_flags_extend[] = {ORTKIT_ARENA_EXTEND_POWER_OF_TWO, ORTKIT_ARENA_EXTEND_REQUESTED};

int session_flags_cache(cli_opt_parser *p, void *flags, char *value)
{
    session_flags *f = flags;
    f->cache = 1;
    f->cache_default = !value;
    if (value && !*value)
        return cli_usage(p->spec->command, "--cache= wants a directory");
    if (value && (size_t)snprintf(f->cache_dir, sizeof f->cache_dir, "%s", value) >= sizeof f->cache_dir)
        return cli_usage(p->spec->command, "--cache: the directory's path is too long");
    return 0;
}

void session_flags_apply(const session_flags *f, ortkit_session_options *so)
{
    so->cache_dir = f->cache ? f->cache_dir : NULL;
    so->cpu_arena = (ortkit_switch)f->arena;
    so->mem_pattern = (ortkit_switch)f->mem_pattern;
    so->intra_op_spinning = so->inter_op_spinning = (ortkit_switch)f->spin;
}

void session_flags_runtime(const session_flags *f, ortkit_runtime_options *ro)
{
    ro->cpu_arena_extend = (ortkit_arena_extend)f->arena_extend;
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

int session_flags_done(session_flags *f, const char *cmd)
{
    if (f->arena_extend && f->arena == ORTKIT_SWITCH_OFF)
        return cli_usage(cmd, "--arena-extend sets how the arena grows; it needs --arena on");
    /* $XDG_CACHE_HOME/ortkit/sessions, else ~/.cache/ortkit/sessions, as
     * every per-user cache of ortkit's. */
    if (f->cache && f->cache_default &&
        ortkit__cache_dir(f->cache_dir, sizeof f->cache_dir, "sessions"))
        return cli_usage(cmd, "--cache: no session cache of your own (neither XDG_CACHE_HOME nor "
                              "HOME is an absolute path, or its ortkit/sessions is not yours "
                              "alone); give --cache=DIR");
    return 0;
}

int providers_split(const char *cmd, char *list, const char **out, size_t max, size_t *n)
{
    if (!list)
        return 0;
    /* strtok would pass over an empty name; a list such as "cuda,,cpu" or
     * ",,," is more likely a mistake than a wish for the default. */
    for (char *p = list, *next;; p = next + 1) {
        next = p + strcspn(p, ",");
        int last = *next == '\0';
        *next = '\0';
        if (!*p)
            return cli_usage(cmd, "--ep wants provider names separated by commas, without empty "
                             "ones (such as cuda,cpu)");
        if (*n == max)
            return cli_usage(cmd, "too many providers in --ep");
        out[(*n)++] = p;
        if (last)
            return 0;
    }
}

void providers_warn_skipped(const ortkit_session *s)
{
    int skipped = 0, other = 0;
    for (size_t i = 0; i < ortkit_session_provider_count(s); i++) {
        const ortkit_provider_status *p = ortkit_session_provider(s, i);
        if (!p->active) {
            cli_warn("provider '%s' skipped: %s", p->requested, p->reason);
            if (p->detail[0])
                cli_warn("provider '%s': ONNX Runtime said: %s", p->requested, p->detail);
            skipped = 1;
        } else if (strcmp(p->name, "CPUExecutionProvider")) {
            other = 1;
        }
    }
    if (skipped && !other) /* never a silent fallback */
        cli_warn("the session runs on the CPU only (--strict fails instead)");
}

