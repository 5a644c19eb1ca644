/*
 * report.c - what a build cost: wall time, CPU use, memory, the heaviest
 * files, how often the gate held a compile back, and what the compiler
 * cache saved.
 */
#include "builder_report.h"
#include "builder_compiler_cache.h"
#include "builder_gate.h"
#include "builder_sharing.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

int ortkit__builder_report_add(ortkit__builder_report *rep, const char *path,
                               ortkit__builder_lang lang, double wall, double cpu, double waited,
                               uint64_t peak, uint64_t estimate, int status,
                               ortkit__builder_hold held)
{
    if (ortkit__array_reserve(&rep->r, &rep->cap, rep->n + 1, sizeof *rep->r, 64))
        return ORTKIT_E_NOMEM;
    char *p = strdup(path ? path : "");
    if (!p)
        return ortkit__error_nomem();
    rep->r[rep->n++] = (ortkit__builder_record){p, lang, wall, cpu, waited, peak, estimate, status,
                                                held, ORTKIT__CACHE_NONE, -1};
    rep->cpu += cpu;
    return 0;
}

void ortkit__builder_report_cache(ortkit__builder_report *rep, ortkit__builder_cache_outcome outcome,
                                  int remote_errors, double saved)
{
    if (!rep->n || (unsigned)outcome >= ORTKIT__CACHE_OUTCOMES)
        return;
    ortkit__builder_record *r = &rep->r[rep->n - 1];
    ortkit__builder_cache_stats *c = &rep->cache;
    r->cache = outcome;
    c->outcome[outcome]++;
    c->remote_errors += remote_errors > 0 ? (uint64_t)remote_errors : 0;
    if (outcome == ORTKIT__CACHE_LOCAL_HIT || outcome == ORTKIT__CACHE_REMOTE_HIT) {
        c->hit_wall += r->wall;
        if (saved >= 0) {
            r->saved = saved;
            c->saved += saved;
        } else {
            c->unpriced++;
        }
    }
}

static uint64_t cache_hits(const ortkit__builder_cache_stats *c)
{
    return c->outcome[ORTKIT__CACHE_LOCAL_HIT] + c->outcome[ORTKIT__CACHE_REMOTE_HIT];
}

void ortkit__builder_cache_line(const ortkit__builder_cache_stats *c, char *buf, size_t size)
{
    snprintf(buf, size, "%llu hit%s (%llu remote, %llu local), %llu miss%s",
             (unsigned long long)cache_hits(c), cache_hits(c) == 1 ? "" : "s",
             (unsigned long long)c->outcome[ORTKIT__CACHE_REMOTE_HIT],
             (unsigned long long)c->outcome[ORTKIT__CACHE_LOCAL_HIT],
             (unsigned long long)c->outcome[ORTKIT__CACHE_MISS],
             c->outcome[ORTKIT__CACHE_MISS] == 1 ? "" : "es");
}

void ortkit__builder_report_free(ortkit__builder_report *rep)
{
    for (size_t i = 0; i < rep->n; i++)
        free(rep->r[i].path);
    free(rep->r);
    ortkit__builder_sharing_free(&rep->sharing);
    memset(rep, 0, sizeof *rep);
}

static int by_peak(const void *a, const void *b)
{
    const ortkit__builder_record *x = *(ortkit__builder_record *const *)a;
    const ortkit__builder_record *y = *(ortkit__builder_record *const *)b;
    return x->peak < y->peak ? 1 : x->peak > y->peak ? -1 : strcmp(x->path, y->path);
}

static int by_wall(const void *a, const void *b)
{
    const ortkit__builder_record *x = *(ortkit__builder_record *const *)a;
    const ortkit__builder_record *y = *(ortkit__builder_record *const *)b;
    return x->wall < y->wall ? 1 : x->wall > y->wall ? -1 : strcmp(x->path, y->path);
}

/* The records sorted by cmp (pointers into rep); NULL when there are none. */
static const ortkit__builder_record **sorted(const ortkit__builder_report *rep,
                                             int (*cmp)(const void *, const void *))
{
    if (!rep->n)
        return NULL;
    const ortkit__builder_record **v = malloc(rep->n * sizeof *v);
    if (!v)
        return NULL;
    for (size_t i = 0; i < rep->n; i++)
        v[i] = &rep->r[i];
    qsort(v, rep->n, sizeof *v, cmp);
    return v;
}

static const char *short_path(const char *p)
{
    /* The last three components are enough to find a file in ORT's tree. */
    const char *s = p + strlen(p);
    for (int slashes = 0; s > p; s--)
        if (s[-1] == '/' && ++slashes == 3)
            break;
    return s;
}

static uint64_t max_peak(const ortkit__builder_report *rep)
{
    uint64_t m = 0;
    for (size_t i = 0; i < rep->n; i++)
        if (rep->r[i].peak > m)
            m = rep->r[i].peak;
    return m;
}

static double utilisation(const ortkit__builder_report *rep)
{
    int ncpu = ortkit__proc_cpus();
    return rep->wall > 0 ? 100.0 * rep->cpu / (rep->wall * ncpu) : 0;
}

/* How many compiles of a part and language went with (1) or without (0) the flags. */
static uint64_t sharing_sum(const ortkit__builder_sharing *s, int part, int specific)
{
    uint64_t n = 0;
    for (int l = 0; l < ORTKIT__LANG_COUNT; l++)
        for (int p = 0; p < ORTKIT__PARTS; p++)
            if (part < 0 || p == part)
                n += s->n[p][l][specific];
    return n;
}

static void print_sharing(const ortkit__builder_sharing *s, FILE *out)
{
    if (!s->known)
        return;
    fprintf(out, "sharing: %llu compiles carry the variant's flags (%s), %llu do not (dependencies "
                 "%llu, CUDA %llu): those are the same in other variants",
            (unsigned long long)sharing_sum(s, -1, 1), s->flags,
            (unsigned long long)sharing_sum(s, -1, 0),
            (unsigned long long)sharing_sum(s, ORTKIT__PART_DEPS, 0),
            (unsigned long long)(s->n[ORTKIT__PART_ORT][ORTKIT__LANG_CUDA][0] +
                                 s->n[ORTKIT__PART_DEPS][ORTKIT__LANG_CUDA][0]));
    if (s->stray)
        fprintf(out, "; %llu that need none carry them (first: %s)", (unsigned long long)s->stray,
                s->stray_files.n ? s->stray_files.v[0] : "?");
    fputc('\n', out);
}

void ortkit__builder_report_print(const ortkit__builder_report *rep, FILE *out)
{
    char a[32], b[32], c[32], d[32];
    fprintf(out, "steps: %ld run (%ld to do when this run started)\n", rep->steps_done,
            rep->steps_total);
    fprintf(out, "wall time: %.1f s; compile CPU time: %.1f s; CPU utilisation: %.0f%% of %d cores\n",
            rep->wall, rep->cpu, utilisation(rep), ortkit__proc_cpus());
    ortkit__human_memory(a, sizeof a, rep->budget);
    ortkit__human_memory(b, sizeof b, rep->gate.max_in_use);
    ortkit__human_memory(c, sizeof c, rep->gate.max_sampled);
    ortkit__human_memory(d, sizeof d, max_peak(rep));
    fprintf(out, "memory: budget %s, %d CPU slots; gate's peak in use %s; sampled compilers' peak "
                 "%s; largest compile %s\n",
            a, rep->slots, b, c, d);
    fprintf(out, "gate: %llu compiles, at most %d at once; held back %llu times for memory, "
                 "%llu for low system memory, %llu waited for a CPU slot",
            (unsigned long long)rep->gate.admitted, rep->gate.max_running,
            (unsigned long long)rep->gate.held_budget, (unsigned long long)rep->gate.held_system,
            (unsigned long long)rep->gate.held_slots);
    if (rep->gate.alone_over_budget)
        fprintf(out, "; %llu ran alone above the budget", (unsigned long long)rep->gate.alone_over_budget);
    fputc('\n', out);
    const ortkit__builder_cache_stats *cs = &rep->cache;
    if (cs->on) {
        char line[256];
        ortkit__builder_cache_line(cs, line, sizeof line);
        fprintf(out, "cache: ccache%s%s%s: %s, %llu not cacheable (links and the like); hits took "
                     "%.1f s and saved %.1f s",
                cs->remote[0] ? ", remote " : "", cs->remote, cs->remote_only ? " only" : "", line,
                (unsigned long long)cs->outcome[ORTKIT__CACHE_UNCACHEABLE], cs->hit_wall, cs->saved);
        if (cs->unpriced)
            fprintf(out, " (and %llu hit%s of files never compiled in this build directory, not "
                         "priced)", (unsigned long long)cs->unpriced, cs->unpriced == 1 ? "" : "s");
        if (cs->remote_errors)
            fprintf(out, "; %llu remote storage errors or timeouts: is the server reachable?",
                    (unsigned long long)cs->remote_errors);
        fputc('\n', out);
    }
    print_sharing(&rep->sharing, out);
    const ortkit__builder_record **v = sorted(rep, by_peak);
    if (v) {
        fprintf(out, "heaviest by memory:\n");
        for (size_t i = 0; i < rep->n && i < 10; i++) {
            ortkit__human_memory(a, sizeof a, v[i]->peak);
            fprintf(out, "  %10s  %7.1f s  %s\n", a, v[i]->wall, short_path(v[i]->path));
        }
        qsort(v, rep->n, sizeof *v, by_wall);
        fprintf(out, "heaviest by time:\n");
        for (size_t i = 0; i < rep->n && i < 10; i++) {
            ortkit__human_memory(a, sizeof a, v[i]->peak);
            fprintf(out, "  %7.1f s  %10s  %s\n", v[i]->wall, a, short_path(v[i]->path));
        }
        free(v);
    }
}

static cJSON *record_json(const ortkit__builder_record *r, int cache)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "path", r->path);
    cJSON_AddStringToObject(o, "lang", ortkit__builder_lang_name(r->lang));
    cJSON_AddNumberToObject(o, "wall_s", r->wall);
    cJSON_AddNumberToObject(o, "cpu_s", r->cpu);
    cJSON_AddNumberToObject(o, "waited_s", r->waited);
    cJSON_AddNumberToObject(o, "peak_bytes", (double)r->peak);
    cJSON_AddNumberToObject(o, "estimate_bytes", (double)r->estimate);
    cJSON_AddNumberToObject(o, "status", r->status);
    if (cache) {
        cJSON_AddStringToObject(o, "cache", ortkit__builder_cache_outcome_name(r->cache));
        if (r->saved >= 0)
            cJSON_AddNumberToObject(o, "saved_s", r->saved);
    }
    return o;
}

static cJSON *cache_json(const ortkit__builder_cache_stats *c)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "tool", "ccache");
    cJSON_AddItemToObject(o, "remote", c->remote[0] ? cJSON_CreateString(c->remote) : cJSON_CreateNull());
    cJSON_AddBoolToObject(o, "remote_only", c->remote_only);
    cJSON_AddStringToObject(o, "local", !c->remote[0] ? "no-server" : c->remote_only ? "none" : "server");
    cJSON_AddItemToObject(o, "local_dir", c->local_dir[0] ? cJSON_CreateString(c->local_dir) : cJSON_CreateNull());
    cJSON_AddNumberToObject(o, "hits", (double)cache_hits(c));
    cJSON_AddNumberToObject(o, "remote_hits", (double)c->outcome[ORTKIT__CACHE_REMOTE_HIT]);
    cJSON_AddNumberToObject(o, "local_hits", (double)c->outcome[ORTKIT__CACHE_LOCAL_HIT]);
    cJSON_AddNumberToObject(o, "misses", (double)c->outcome[ORTKIT__CACHE_MISS]);
    cJSON_AddNumberToObject(o, "uncacheable", (double)c->outcome[ORTKIT__CACHE_UNCACHEABLE]);
    cJSON_AddNumberToObject(o, "unknown", (double)c->outcome[ORTKIT__CACHE_NONE]);
    cJSON_AddNumberToObject(o, "remote_errors", (double)c->remote_errors);
    cJSON_AddNumberToObject(o, "hit_wall_s", c->hit_wall);
    cJSON_AddNumberToObject(o, "saved_s", c->saved);
    cJSON_AddNumberToObject(o, "hits_unpriced", (double)c->unpriced);
    return o;
}

static cJSON *sharing_json(const ortkit__builder_sharing *s)
{
    static const char *const parts[] = {"ort", "dependencies"};
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "variant_flags", s->flags);
    cJSON_AddNumberToObject(o, "variant_specific", (double)sharing_sum(s, -1, 1));
    cJSON_AddNumberToObject(o, "shared", (double)sharing_sum(s, -1, 0));
    for (int p = 0; p < ORTKIT__PARTS; p++) {
        cJSON *part = cJSON_AddObjectToObject(o, parts[p]);
        for (int l = 0; part && l < ORTKIT__LANG_COUNT; l++) {
            if (l == ORTKIT__LANG_LINK)
                continue;
            cJSON *lang = cJSON_AddObjectToObject(part, ortkit__builder_lang_name(l));
            cJSON_AddNumberToObject(lang, "variant_specific", (double)s->n[p][l][1]);
            cJSON_AddNumberToObject(lang, "shared", (double)s->n[p][l][0]);
        }
    }
    cJSON_AddNumberToObject(o, "stray", (double)s->stray);
    cJSON *files = cJSON_AddArrayToObject(o, "stray_files");
    for (size_t i = 0; files && i < s->stray_files.n; i++)
        cJSON_AddItemToArray(files, cJSON_CreateString(s->stray_files.v[i]));
    return o;
}

char *ortkit__builder_report_json(const ortkit__builder_report *rep, const char *extra_json)
{
    cJSON *root = extra_json ? cJSON_Parse(extra_json) : cJSON_CreateObject();
    if (!root)
        return NULL;
    cJSON_AddNumberToObject(root, "wall_s", rep->wall);
    cJSON_AddNumberToObject(root, "configure_s", rep->configure_wall);
    cJSON_AddNumberToObject(root, "install_s", rep->install_wall);
    cJSON_AddNumberToObject(root, "cpu_s", rep->cpu);
    cJSON_AddNumberToObject(root, "cpu_utilisation_pct", utilisation(rep));
    cJSON_AddNumberToObject(root, "cores", ortkit__proc_cpus());
    cJSON_AddNumberToObject(root, "steps_run", (double)rep->steps_done);
    cJSON_AddNumberToObject(root, "steps_to_do", (double)rep->steps_total);
    cJSON_AddNumberToObject(root, "budget_bytes", (double)rep->budget);
    cJSON_AddNumberToObject(root, "slots", rep->slots);
    cJSON_AddNumberToObject(root, "largest_compile_bytes", (double)max_peak(rep));
    cJSON *g = cJSON_AddObjectToObject(root, "gate");
    if (g) {
        cJSON_AddNumberToObject(g, "compiles", (double)rep->gate.admitted);
        cJSON_AddNumberToObject(g, "max_running", rep->gate.max_running);
        cJSON_AddNumberToObject(g, "max_reserved_bytes", (double)rep->gate.max_reserved);
        cJSON_AddNumberToObject(g, "max_in_use_bytes", (double)rep->gate.max_in_use);
        cJSON_AddNumberToObject(g, "max_sampled_bytes", (double)rep->gate.max_sampled);
        cJSON_AddNumberToObject(g, "held_for_memory", (double)rep->gate.held_budget);
        cJSON_AddNumberToObject(g, "held_for_system_memory", (double)rep->gate.held_system);
        cJSON_AddNumberToObject(g, "waited_for_slot", (double)rep->gate.held_slots);
        cJSON_AddNumberToObject(g, "alone_over_budget", (double)rep->gate.alone_over_budget);
    }
    if (rep->cache.on)
        cJSON_AddItemToObject(root, "cache", cache_json(&rep->cache));
    if (rep->sharing.known)
        cJSON_AddItemToObject(root, "sharing", sharing_json(&rep->sharing));
    const ortkit__builder_record **v = sorted(rep, by_peak);
    cJSON *mem = cJSON_AddArrayToObject(root, "heaviest_by_memory");
    cJSON *tim = cJSON_AddArrayToObject(root, "heaviest_by_time");
    cJSON *all = cJSON_AddArrayToObject(root, "compiles");
    if (v && mem && tim && all) {
        for (size_t i = 0; i < rep->n && i < 10; i++)
            cJSON_AddItemToArray(mem, record_json(v[i], rep->cache.on));
        qsort(v, rep->n, sizeof *v, by_wall);
        for (size_t i = 0; i < rep->n && i < 10; i++)
            cJSON_AddItemToArray(tim, record_json(v[i], rep->cache.on));
        for (size_t i = 0; i < rep->n; i++)
            cJSON_AddItemToArray(all, record_json(&rep->r[i], rep->cache.on));
    }
    free(v);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}
