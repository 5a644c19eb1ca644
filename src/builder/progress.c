/*
 * progress.c - the one status line, and the first error of a failed build.
 *
 * Steps come from ninja itself: ortkit runs it with
 * NINJA_STATUS="[ortkit %f/%t %r] ", and ninja, writing to a pipe, prints
 * that prefix once per finished step, so every prefix is an exact count of
 * finished and total steps.  Compiles running and memory in use come from
 * the gate.
 */
#include "builder_progress.h"
#include "builder_compiler_cache.h"
#include "builder_report.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

int ortkit__builder_progress_parse(const char *line, long *done, long *total, long *running)
{
    long f, t, r;
    if (sscanf(line, "[ortkit %ld/%ld %ld] ", &f, &t, &r) != 3)
        return 0;
    *done = f;
    *total = t;
    if (running)
        *running = r;
    return 1;
}

static void format_clock(char *buf, size_t size, double s)
{
    if (s < 0)
        s = 0;
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, size, "%ld:%02ld:%02ld", t / 3600, (t / 60) % 60, t % 60);
    else
        snprintf(buf, size, "%ld:%02ld", t / 60, t % 60);
}

void ortkit__builder_progress_format(const ortkit__builder_progress *p, char *buf, size_t size,
                                     int running, uint64_t in_use, uint64_t budget, double now)
{
    double elapsed = now - p->t_start;
    long done = p->done, total = p->total;
    double pct = total > 0 ? 100.0 * (double)done / (double)total : 0;
    char el[32], eta[32] = "?", mem[32], bud[32];
    format_clock(el, sizeof el, elapsed);
    long left = total - done;
    /* The live rate once there is enough of it; before that, the last
     * build's time per step (history), if any. */
    if (total > 0 && left <= 0)
        snprintf(eta, sizeof eta, "0:00");
    else if (done >= 10 || (done > 0 && p->eta_hint <= 0))
        format_clock(eta, sizeof eta, elapsed / (double)done * (double)left);
    else if (p->eta_hint > 0 && total > 0)
        format_clock(eta, sizeof eta, p->eta_hint * (double)left);
    ortkit__human_memory(mem, sizeof mem, in_use);
    ortkit__human_memory(bud, sizeof bud, budget);
    int n = snprintf(buf, size, "[%3.0f%%] %ld/%ld steps  %s elapsed  ETA %s  %d compiling  %s of %s",
                     pct, done, total, el, eta, running, mem, bud);
    /* Through ccache: this build's hits (remote among them) and misses. */
    const ortkit__builder_cache_stats *c = p->cache;
    if (c && c->on && n > 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, "  cache %llu hit (%llu remote) %llu miss",
                 (unsigned long long)(c->outcome[ORTKIT__CACHE_LOCAL_HIT] +
                                      c->outcome[ORTKIT__CACHE_REMOTE_HIT]),
                 (unsigned long long)c->outcome[ORTKIT__CACHE_REMOTE_HIT],
                 (unsigned long long)c->outcome[ORTKIT__CACHE_MISS]);
}

void ortkit__builder_progress_draw(ortkit__builder_progress *p, int running, uint64_t in_use,
                                   uint64_t budget, int force, FILE *out)
{
    if (!p->enabled)
        return;
    double now = ortkit__clock_now();
    if (!force && now - p->t_drawn < 0.2)
        return;
    char line[512];
    ortkit__builder_progress_format(p, line, sizeof line, running, in_use, budget, now);
    fprintf(out, "\r%s\033[K", line);
    fflush(out);
    p->drawn = 1;
    p->t_drawn = now;
}

void ortkit__builder_progress_clear(ortkit__builder_progress *p, FILE *out)
{
    if (p->enabled && p->drawn) {
        fputs("\r\033[K", out);
        fflush(out);
    }
    p->drawn = 0;
}

int ortkit__builder_first_error(const char *log_path, char *buf, size_t size)
{
    FILE *f;
    if (ortkit__file_fopen(&f, log_path))
        return -1;
    /* A compiler's "file:line[:col]: [fatal ]error: ..." first; failing that,
     * the linker's "undefined reference", a CMake Error, or ninja's FAILED. */
    regex_t cc, ld;
    if (regcomp(&cc, "^[^ :][^:]*:[0-9]+(:[0-9]+)?: (fatal )?error", REG_EXTENDED | REG_NOSUB)) {
        fclose(f);
        return -1;
    }
    if (regcomp(&ld, "undefined reference|^CMake Error|^ninja: error|collect2: error",
                REG_EXTENDED | REG_NOSUB)) {
        regfree(&cc);
        fclose(f);
        return -1;
    }
    char line[4096], fallback[4096] = "", failed[4096] = "";
    int found = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!regexec(&cc, line, 0, NULL, 0)) {
            snprintf(buf, size, "%s", line);
            found = 1;
            break;
        }
        if (!fallback[0] && !regexec(&ld, line, 0, NULL, 0))
            snprintf(fallback, sizeof fallback, "%s", line);
        if (!failed[0] && !strncmp(line, "FAILED: ", 8))
            snprintf(failed, sizeof failed, "%s", line);
    }
    regfree(&cc);
    regfree(&ld);
    fclose(f);
    if (!found && (fallback[0] || failed[0])) {
        snprintf(buf, size, "%s", fallback[0] ? fallback : failed);
        found = 1;
    }
    return found ? 0 : -1;
}
