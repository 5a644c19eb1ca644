/*
 * bundle_gpu_fit.c - can this host run a GPU release bundle?  Judged from
 * what the bundle's binaries contain (the manifest's gpu key), never from
 * its name:
 *
 *   1. an NVIDIA GPU, and a driver whose CUDA covers the bundle's major
 *      (driver >= 525.60.13 for 12.x, >= 580.65.06 for 13.x);
 *   2. every GPU the policy serves can run its code: SASS for that compute
 *      capability (same major, minor <= the GPU's; sm_XXa on that SM only;
 *      sm_XXf within the family), or else PTX of an older target that the
 *      driver can JIT-compile (a caveat: it costs start-up);
 *   3. every CUDA library its providers need is in the bundle.
 *
 * The policy serves every GPU the process can see: all of the host's, or
 * those CUDA_VISIBLE_DEVICES names by index (empty or -1: none; GPU UUIDs:
 * all, as the described host names no UUIDs).  A bundle that cannot run on
 * one of them would fail the program that picks that device.
 * ORTKIT_FORCE_CUDA (the driver's CUDA, "12.4") and ORTKIT_FORCE_SM (the
 * GPUs' compute capabilities, "90" or "90,86") stand in for what detection
 * says, for odd hosts and for testing.  Pure: no file is read.
 */
#include "bundle_gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SAY(...) ((void)snprintf(why, why_size, __VA_ARGS__))
#define MAX_SERVED 16

typedef struct served {
    int sm[MAX_SERVED];
    const char *name[MAX_SERVED];
    int index[MAX_SERVED];
    size_t count;
    int forced;
} served;

/* "90,86" -> SMs; 0 when the text is no such list. */
static int parse_sm_list(served *s, const char *text)
{
    s->count = 0;
    for (const char *p = text; *p;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 10 || v > 999 || s->count == MAX_SERVED || (*end && *end != ','))
            return 0;
        s->name[s->count] = "forced by ORTKIT_FORCE_SM";
        s->index[s->count] = (int)s->count;
        s->sm[s->count++] = (int)v;
        p = *end ? end + 1 : end;
    }
    return s->count > 0;
}

/* The GPUs served: ORTKIT_FORCE_SM, else the host's, filtered by
 * CUDA_VISIBLE_DEVICES when it lists indices. */
static int served_gpus(served *s, const ortkit_host *h, char *why, size_t why_size)
{
    memset(s, 0, sizeof *s);
    const char *force = ortkit__env("ORTKIT_FORCE_SM");
    if (force && force[0]) {
        if (!parse_sm_list(s, force)) {
            SAY("ORTKIT_FORCE_SM='%.32s' is not a list of compute capabilities like 90 or 90,86", force);
            return -1;
        }
        s->forced = 1;
        return 0;
    }
    const char *visible = ortkit__env("CUDA_VISIBLE_DEVICES");
    /* Set but empty, or "-1": CUDA sees no device. */
    if (visible && (!visible[0] || visible[0] == '-'))
        return 0;
    int by_index = visible && strspn(visible, "0123456789,") == strlen(visible);
    for (size_t i = 0; i < h->gpu_count && s->count < MAX_SERVED; i++) {
        if (by_index && visible[0]) {
            int listed = 0;
            for (const char *p = visible; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ','))
                listed |= atoi(p) == (int)i;
            if (!listed)
                continue;
        }
        s->name[s->count] = h->gpus[i]->name;
        s->index[s->count] = (int)i;
        s->sm[s->count++] = h->gpus[i]->cc_major * 10 + h->gpus[i]->cc_minor;
    }
    return 0;
}

/* How a GPU of this SM runs the bundle: 2 SASS, 1 PTX JIT (ptx gets the
 * target), 0 not at all. */
static int runs_on(const ortkit_manifest *m, int sm, const char **ptx)
{
    for (size_t i = 0; i < m->gpu_sass_count; i++) {
        ortkit__gpu_target t;
        if (ortkit__gpu_target_parse(&t, m->gpu_sass[i], 0) != 0)
            continue;
        if (t.suffix == 'a' ? t.sm == sm : (t.sm / 10 == sm / 10 && t.sm % 10 <= sm % 10))
            return 2;
    }
    int best = -1;
    for (size_t i = 0; i < m->gpu_ptx_count; i++) {
        ortkit__gpu_target t;
        if (ortkit__gpu_target_parse(&t, m->gpu_ptx[i], 1) == 0 && t.sm <= sm && t.sm > best) {
            best = t.sm;
            *ptx = m->gpu_ptx[i];
        }
    }
    return best >= 0 ? 1 : 0;
}

/* The driver's CUDA: ORTKIT_FORCE_CUDA, else the host's (0 when unknown). */
static int driver_cuda(const ortkit_host *h, int *forced)
{
    const char *force = ortkit__env("ORTKIT_FORCE_CUDA");
    int a, b;
    char tail;
    *forced = 0;
    if (force && sscanf(force, "%d.%d%c", &a, &b, &tail) == 2 && a > 0 && a < 100 && b >= 0 && b < 10) {
        *forced = 1;
        return a * 1000 + b * 10;
    }
    return h->cuda_driver;
}

static void list_targets(char *buf, size_t size, const ortkit_manifest *m)
{
    buf[0] = '\0';
    for (size_t i = 0; i < m->gpu_sass_count; i++)
        snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", i ? " " : "", m->gpu_sass[i]);
    for (size_t i = 0; i < m->gpu_ptx_count; i++)
        snprintf(buf + strlen(buf), size - strlen(buf), " %s", m->gpu_ptx[i]);
}

int ortkit__gpu_visible(const ortkit_host *h)
{
    served s;
    char why[160];
    return served_gpus(&s, h, why, sizeof why) != 0 ? -1 : (int)s.count;
}

int ortkit__gpu_fits(const ortkit_manifest *m, const ortkit_host *h, char *why, size_t why_size)
{
    why[0] = '\0';
    served s;
    if (served_gpus(&s, h, why, why_size) != 0)
        return 0;
    if (!s.count) {
        if (h->gpu_count)
            SAY("CUDA_VISIBLE_DEVICES hides every GPU");
        else
            SAY("this host has no NVIDIA GPU%s%.160s%s", h->gpu_note && h->gpu_note[0] ? " (" : "",
                h->gpu_note ? h->gpu_note : "", h->gpu_note && h->gpu_note[0] ? ")" : "");
        return 0;
    }
    int forced_cuda, cuda = driver_cuda(h, &forced_cuda), major = m->gpu_cuda / 1000;
    if (cuda / 1000 < major) {
        if (cuda)
            SAY("needs a driver for CUDA %d (>= %s); %s %d.%d%s%.32s", major, m->gpu_min_driver,
                forced_cuda ? "ORTKIT_FORCE_CUDA says" : "the driver runs CUDA", cuda / 1000,
                (cuda % 1000) / 10, h->driver_version[0] && !forced_cuda ? ", driver " : "",
                forced_cuda ? "" : h->driver_version);
        else
            SAY("needs a driver for CUDA %d (>= %s); the driver's CUDA version is unknown", major,
                m->gpu_min_driver);
        return 0;
    }
    const char *jit = NULL;
    int jit_gpu = -1;
    for (size_t i = 0; i < s.count; i++) {
        const char *ptx = NULL;
        int how = runs_on(m, s.sm[i], &ptx);
        if (how == 1 && m->gpu_ptx_driver[0] && !forced_cuda && h->driver_version[0] &&
            ortkit__version_compare(h->driver_version, m->gpu_ptx_driver) < 0) {
            SAY("GPU %d (%.48s, SM %d.%d) has no SASS here and its PTX (%s) needs driver >= %s to "
                "JIT; found %.24s", s.index[i], s.name[i], s.sm[i] / 10, s.sm[i] % 10, ptx,
                m->gpu_ptx_driver, h->driver_version);
            return 0;
        }
        if (!how) {
            char targets[400];
            list_targets(targets, sizeof targets, m);
            SAY("GPU %d (%.48s, SM %d.%d) runs none of its code: %.120s%s", s.index[i], s.name[i],
                s.sm[i] / 10, s.sm[i] % 10, targets,
                s.count > 1 ? " (every visible GPU must run it; CUDA_VISIBLE_DEVICES narrows them)" : "");
            return 0;
        }
        if (how == 1 && jit_gpu < 0) {
            jit = ptx;
            jit_gpu = (int)i;
        }
    }
    if (!m->gpu_complete) {
        const char *first = m->gpu_missing_count ? m->gpu_missing[0] : "";
        SAY("lacks %zu CUDA %s (%.*s%s); add %s with 'ortkit bundle complete'", m->gpu_missing_count,
            m->gpu_missing_count == 1 ? "library" : "libraries", (int)strcspn(first, ";"), first,
            m->gpu_missing_count > 1 ? ", ..." : "", m->gpu_missing_count == 1 ? "it" : "them");
        return 0;
    }
    if (jit_gpu >= 0)
        SAY("GPU %d (%.48s, SM %d.%d) has no SASS in it and runs its PTX (%s) through JIT "
            "compilation: it costs start-up", s.index[jit_gpu], s.name[jit_gpu], s.sm[jit_gpu] / 10,
            s.sm[jit_gpu] % 10, jit);
    return 1;
}
