/*
 * bundle_select.c - which bundle to load on a host, and why.
 *
 * Selection is a pure function of the host and the manifests (plus what
 * ortkit_bundle_open found wrong with a library), so tests can run it for
 * described machines.  An unfit bundle is never chosen, and the reason it
 * does not fit is kept for `ortkit doctor`.
 */
#include "bundle.h"
#include "bundle_gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SAY(...) ((void)snprintf(why, why_size, __VA_ARGS__))

/* What orders fitting bundles, most important first. */
typedef struct rank {
    int gpu;        /* a CUDA build */
    int sm;         /* its GPU target */
    int level;      /* CPU level: 0 any CPU, then the ISA's rank */
    const char *level_label;
    const char *ort; /* ONNX Runtime's version */
    int cuda;
} rank;

enum { KEY_GPU, KEY_SM, KEY_LEVEL, KEY_ORT, KEY_CUDA, KEY_NONE };

static void rank_of(const ortkit_manifest *m, rank *r)
{
    r->gpu = m->cuda != 0;
    r->sm = m->sm;
    r->level = ortkit__bundle_cpu_level(m, &r->level_label);
    r->ort = m->ort_version;
    r->cuda = m->cuda;
}

/* The first key on which a and b differ: > 0 when a is better, < 0 when b is. */
static int compare(const rank *a, const rank *b, int *key)
{
    long d[KEY_NONE] = {a->gpu - b->gpu, a->sm - b->sm, a->level - b->level,
                        ortkit__version_compare(a->ort, b->ort), a->cuda - b->cuda};
    for (int k = 0; k < KEY_NONE; k++) {
        if (d[k]) {
            *key = k;
            return d[k] > 0 ? 1 : -1;
        }
    }
    *key = KEY_NONE;
    return 0;
}

static void feature_labels(char *buf, size_t size, uint64_t set)
{
    buf[0] = '\0';
    for (int f = 0; f < ORTKIT_CPU_FEATURE_COUNT; f++)
        if (set & ORTKIT_CPU_BIT(f))
            snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", buf[0] ? ", " : "",
                     ortkit_cpu_feature_label((ortkit_cpu_feature)f));
}

/* s when it is a whole dotted version ("2.36", "3.4.30"), else "". */
static const char *clean_version(const char *s)
{
    ortkit__version v;
    const char *rest = NULL;
    if (!s || ortkit__version_parse(&v, s, &rest) != 0 || v.n < 2 || (rest && *rest))
        return "";
    return s;
}

/* Does one bundle fit the host?  why says why not (or a caveat). */
static int fits(const ortkit_bundle *b, const ortkit_host *h, char *why, size_t why_size)
{
    why[0] = '\0';
    if (!b) {
        SAY("its manifest cannot be used");
        return 0;
    }
    const ortkit_manifest *m = &b->m;
    if (b->damage[0]) {
        SAY("damaged: %.230s", b->damage);
        return 0;
    }
    if (m->arch != h->arch) {
        SAY("built for %s; this host is %s", ortkit_arch_name(m->arch),
            h->arch ? ortkit_arch_name(h->arch) : "of unknown architecture");
        return 0;
    }
    uint64_t missing = m->cpu_features & ~h->cpu_features;
    if (missing) {
        char list[200];
        feature_labels(list, sizeof list, missing);
        SAY("needs %s, which this CPU lacks", list);
        return 0;
    }
    /* What its ELF files need of the C and C++ libraries, where both the
     * manifest and the host say (a host that does not tell, or tells
     * something that is no version, is not refused). */
    const char *glibc = clean_version(h->glibc), *glibcxx = clean_version(h->glibcxx);
    if (m->needs_glibc && m->needs_glibc[0] && glibc[0] &&
        ortkit__version_compare(m->needs_glibc, glibc) > 0) {
        SAY("needs glibc %.24s, this host has %.24s", m->needs_glibc, glibc);
        return 0;
    }
    if (m->needs_glibcxx && m->needs_glibcxx[0] && glibcxx[0] &&
        ortkit__version_compare(m->needs_glibcxx, glibcxx) > 0) {
        SAY("needs GLIBCXX_%.24s (libstdc++), this host has %.24s", m->needs_glibcxx, glibcxx);
        return 0;
    }
    ortkit__version v;
    const char *rest; /* the manifest's reader has checked the version */
    if (ortkit__version_parse(&v, m->ort_version, &rest) != 0 || v.part[0] != 1 ||
        v.part[1] < ORTKIT_MIN_ORT_API) {
        SAY("ONNX Runtime %s is older than ortkit supports (1.%d)", m->ort_version,
            ORTKIT_MIN_ORT_API);
        return 0;
    }
    if (m->gpu_known)
        return ortkit__gpu_fits(m, h, why, why_size);
    if (!strcmp(m->variant, "cpu"))
        return 1;
    const ortkit_variant *var;
    if (ortkit_variant_parse(&var, m->variant) != 0) {
        SAY("unknown variant '%s': this ortkit cannot tell what it needs", m->variant);
        return 0;
    }
    return ortkit_variant_fits(var, h, why, why_size) == 1;
}

static void reason_for(char *out, size_t size, const ortkit_bundle *best, const rank *rb,
                       const ortkit_bundle *next, const rank *rn, int key)
{
    const char *nn = next->m.name;
    switch (key) {
    case KEY_GPU:
        snprintf(out, size, "a GPU build (%s) that this host's GPU and driver can run; GPU builds "
                 "come before CPU builds such as %s", best->m.variant, nn);
        break;
    case KEY_SM:
        snprintf(out, size, "built for SM %d.%d, the newest GPU target among those that run here "
                 "(%s: SM %d.%d)", rb->sm / 10, rb->sm % 10, nn, rn->sm / 10, rn->sm % 10);
        break;
    case KEY_LEVEL:
        snprintf(out, size, "the highest CPU level this host supports: %s (%s: %s)",
                 rb->level_label, nn, rn->level_label);
        break;
    case KEY_ORT:
        snprintf(out, size, "the newest ONNX Runtime: %s (%s: %s)", best->m.ort_version, nn,
                 next->m.ort_version);
        break;
    case KEY_CUDA:
        snprintf(out, size, "the newest CUDA: %d.%d (%s: CUDA %d.%d)", rb->cuda / 1000,
                 (rb->cuda % 1000) / 10, nn, rn->cuda / 1000, (rn->cuda % 1000) / 10);
        break;
    default:
        snprintf(out, size, "ranks the same as %s and comes first in the search order", nn);
    }
}

/* Does pin name this bundle (kind 0) or its ONNX Runtime version (kind 1)? */
static int pin_matches(const ortkit_bundle *b, const char *pin, int kind)
{
    if (!b)
        return 0;
    if (kind == 0)
        return !strcmp(b->m.name, pin);
    size_t n = strlen(pin);
    const char *v = b->m.ort_version;
    return !strncmp(v, pin, n) && (v[n] == '\0' || v[n] == '.');
}

/* A verdict and the text its why points at. */
typedef struct verdict_data {
    ortkit_bundle_verdict pub;
    char why[256];
} verdict_data;

/* The choice: the caller's view first (the caller's pointer is this one's). */
typedef struct choice_data {
    ortkit_bundle_choice pub;
    char reason[512];
    verdict_data *v;
} choice_data;

const ortkit_bundle_verdict *ortkit_bundle_choice_verdict(const ortkit_bundle_choice *c, size_t i)
{
    return c && i < c->count ? &((const choice_data *)c)->v[i].pub : NULL;
}

void ortkit_bundle_choice_free(ortkit_bundle_choice *c)
{
    if (!c)
        return;
    free(((choice_data *)c)->v);
    free(c);
}

static int choose(choice_data *out, const ortkit_host *host, const ortkit_bundle *const *bundles,
                  size_t count, const char *pin)
{
    if (pin && !pin[0])
        pin = NULL;
    int rc = ORTKIT_OK;
    verdict_data *v = out->v;
    unsigned char *wanted = calloc(count ? count : 1, 1);
    if (!wanted)
        return ortkit__error_nomem();
    for (size_t i = 0; i < count; i++) {
        v[i].pub.fits = fits(bundles[i], host, v[i].why, sizeof v[i].why);
        for (size_t j = 0; bundles[i] && j < i; j++) {
            if (bundles[j] && !strcmp(bundles[j]->m.name, bundles[i]->m.name)) {
                v[i].pub.fits = 0;
                snprintf(v[i].why, sizeof v[i].why, "shadowed by the bundle of the same name in "
                         "'%s', earlier in the search order", bundles[j]->m.dir);
                break;
            }
        }
    }

    /* The candidates: all, or those the pin names (by name before version). */
    int pin_kind = -1;
    size_t matched = 0;
    for (int kind = 0; pin && kind < 2 && !matched; kind++)
        for (size_t i = 0; i < count; i++)
            if (pin_matches(bundles[i], pin, kind) && (wanted[i] = 1))
                matched++, pin_kind = kind;
    if (pin && !matched) {
        char names[200] = "";
        for (size_t i = 0; i < count; i++)
            if (bundles[i])
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                         names[0] ? ", " : "", bundles[i]->m.name);
        snprintf(out->reason, sizeof out->reason,
                 "no bundle is named '%s' or holds ONNX Runtime %s (found: %s)", pin, pin,
                 names[0] ? names : "none");
        rc = ortkit__error_set(ORTKIT_E_RUNTIME_NOT_FOUND, "%s", out->reason);
        goto cleanup;
    }
    if (!pin)
        memset(wanted, 1, count);

    size_t best = ORTKIT_BUNDLE_NONE, fitting = 0, considered = 0;
    rank rb = {0}, r;
    int key;
    for (size_t i = 0; i < count; i++) {
        considered += wanted[i];
        if (!wanted[i] || !v[i].pub.fits)
            continue;
        fitting++;
        rank_of(&bundles[i]->m, &r);
        if (best == ORTKIT_BUNDLE_NONE || compare(&r, &rb, &key) > 0) {
            best = i;
            rb = r;
        }
    }
    if (best == ORTKIT_BUNDLE_NONE) {
        size_t first = 0;
        while (first < count && !wanted[first])
            first++;
        if (count == 0)
            snprintf(out->reason, sizeof out->reason, "no bundles were found");
        else if (pin_kind == 0)
            snprintf(out->reason, sizeof out->reason, "bundle '%.64s' does not fit this host: %.230s",
                     pin, v[first].why);
        else if (considered == 1)
            snprintf(out->reason, sizeof out->reason, "the only bundle%s%.32s does not fit this host: %.230s",
                     pin ? " with ONNX Runtime " : "", pin ? pin : "", v[first].why);
        else
            snprintf(out->reason, sizeof out->reason,
                     "none of the %zu bundles%s%.32s fits this host; %.64s: %.200s", considered,
                     pin ? " with ONNX Runtime " : "", pin ? pin : "",
                     bundles[first] ? bundles[first]->m.name : "the first", v[first].why);
        rc = ortkit__error_set(pin ? ORTKIT_E_UNSUPPORTED : ORTKIT_E_RUNTIME_NOT_FOUND, "%s",
                               out->reason);
        goto cleanup;
    }

    /* Why this one: what sets it apart from the next best. */
    char because[256];
    size_t next = ORTKIT_BUNDLE_NONE;
    rank rn = {0};
    for (size_t i = 0; i < count; i++) {
        if (i == best || !wanted[i] || !v[i].pub.fits)
            continue;
        rank_of(&bundles[i]->m, &r);
        if (next == ORTKIT_BUNDLE_NONE || compare(&r, &rn, &key) > 0) {
            next = i;
            rn = r;
        }
    }
    if (next == ORTKIT_BUNDLE_NONE) {
        if (considered == 1)
            snprintf(because, sizeof because, "the only %s, and it fits this host",
                     pin ? "match" : "bundle found");
        else
            snprintf(because, sizeof because, "the only one of %zu %s that fits this host",
                     considered, pin ? "matches" : "bundles");
    } else {
        compare(&rb, &rn, &key);
        reason_for(because, sizeof because, bundles[best], &rb, bundles[next], &rn, key);
    }
    if (pin_kind == 0)
        snprintf(out->reason, sizeof out->reason, "pinned by name; %.250s", because);
    else if (pin_kind == 1)
        snprintf(out->reason, sizeof out->reason, "pinned to ONNX Runtime %.32s; %.250s", pin, because);
    else
        snprintf(out->reason, sizeof out->reason, "%s", because);
    out->pub.index = best;
cleanup:
    free(wanted);
    return rc;
}

int ortkit_bundle_select(ortkit_bundle_choice **out, const ortkit_host *host,
                         const ortkit_bundle *const *bundles, size_t count, const char *pin)
{
    if (!out || !host || (count && !bundles))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_bundle_select: NULL argument");
    *out = NULL;
    choice_data *c = calloc(1, sizeof *c);
    if (!c || !(c->v = calloc(count ? count : 1, sizeof *c->v))) {
        free(c);
        return ortkit__error_nomem();
    }
    c->pub.index = ORTKIT_BUNDLE_NONE;
    c->pub.reason = c->reason;
    c->pub.count = count;
    for (size_t i = 0; i < count; i++)
        c->v[i].pub.why = c->v[i].why;
    int rc = choose(c, host, bundles, count, pin);
    /* An answer, even when it is "none": the reason and verdicts say why. */
    if (rc == ORTKIT_OK || rc == ORTKIT_E_RUNTIME_NOT_FOUND || rc == ORTKIT_E_UNSUPPORTED)
        *out = &c->pub;
    else
        ortkit_bundle_choice_free(&c->pub);
    return rc;
}
