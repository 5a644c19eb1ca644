/*
 * history.c - what each compile needed last time, kept in the build
 * directory (<build>/.ortkit/history.tsv) so the next build, or the rerun of
 * an interrupted one, admits files by their real peak instead of a guess.
 *
 * Format: a comment line, "build<TAB>wall<TAB>steps" for the last whole
 * build, then "peak_bytes<TAB>wall_s<TAB>cpu_s<TAB>path" per file.
 */
#include "builder_history.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HISTORY_MAX (64u << 20)

static int cmp_key(const void *a, const void *b)
{
    return strcmp(((const ortkit__builder_hist_entry *)a)->key,
                  ((const ortkit__builder_hist_entry *)b)->key);
}

int ortkit__builder_history_load(ortkit__builder_history *h, const char *path)
{
    memset(h, 0, sizeof *h);
    char *text = NULL;
    if (access(path, F_OK) != 0)
        return 0; /* no history yet */
    int rc = ortkit__file_read(&text, NULL, path, HISTORY_MAX);
    if (rc)
        return rc;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        double wall, cpu;
        unsigned long long peak;
        long steps;
        int off = 0;
        if (sscanf(line, "build\t%lf\t%ld", &wall, &steps) == 2) {
            h->last_wall = wall;
            h->last_steps = steps;
        } else if (sscanf(line, "%llu\t%lf\t%lf\t%n", &peak, &wall, &cpu, &off) == 3 && off > 0 &&
                   line[off]) {
            if ((rc = ortkit__builder_history_put(h, line + off, peak, wall, cpu)))
                break;
        }
        /* Anything else is from a newer ortkit, or damaged: skipped, since
         * history only tunes estimates. */
    }
    free(text);
    return rc;
}

int ortkit__builder_history_save(const ortkit__builder_history *h, const char *path)
{
    size_t cap = 128, len = 0;
    for (size_t i = 0; i < h->n; i++)
        cap += strlen(h->e[i].key) + 64;
    char *buf = malloc(cap);
    if (!buf)
        return ortkit__error_nomem();
    len += (size_t)snprintf(buf + len, cap - len, "# ortkit build history 1\n");
    if (h->last_steps > 0)
        len += (size_t)snprintf(buf + len, cap - len, "build\t%.3f\t%ld\n", h->last_wall,
                                h->last_steps);
    for (size_t i = 0; i < h->n; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%llu\t%.3f\t%.3f\t%s\n",
                                (unsigned long long)h->e[i].peak, h->e[i].wall, h->e[i].cpu,
                                h->e[i].key);
    int rc = ortkit__file_write_atomic(path, buf, len);
    free(buf);
    return rc;
}

const ortkit__builder_hist_entry *ortkit__builder_history_find(const ortkit__builder_history *h,
                                                               const char *key)
{
    if (!h->n)
        return NULL;
    ortkit__builder_hist_entry probe = {.key = (char *)key};
    return bsearch(&probe, h->e, h->n, sizeof *h->e, cmp_key);
}

int ortkit__builder_history_put(ortkit__builder_history *h, const char *key, uint64_t peak,
                                double wall, double cpu)
{
    ortkit__builder_hist_entry *found =
        (ortkit__builder_hist_entry *)ortkit__builder_history_find(h, key);
    if (found) {
        found->peak = peak;
        found->wall = wall;
        found->cpu = cpu;
        return 0;
    }
    if (ortkit__array_reserve(&h->e, &h->cap, h->n + 1, sizeof *h->e, 64))
        return ORTKIT_E_NOMEM;
    char *k = strdup(key);
    if (!k)
        return ortkit__error_nomem();
    /* Insert in order: lookups are binary searches, one per compile request. */
    size_t lo = 0, hi = h->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(h->e[mid].key, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    memmove(&h->e[lo + 1], &h->e[lo], (h->n - lo) * sizeof *h->e);
    h->e[lo] = (ortkit__builder_hist_entry){k, peak, wall, cpu};
    h->n++;
    return 0;
}

void ortkit__builder_history_free(ortkit__builder_history *h)
{
    for (size_t i = 0; i < h->n; i++)
        free(h->e[i].key);
    free(h->e);
    memset(h, 0, sizeof *h);
}
