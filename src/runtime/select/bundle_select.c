/*
 * bundle_select.c - which bundle to load on a host, and why.
 *
 * Selection is a pure function of the host and the manifests (plus what
 * ortkit_bundle_open found wrong with a library, and the overrides of the
 * environment, which say so wherever they apply), so tests can run it for
 * described machines.  One order, declared in docs/BUNDLES.md, decides both
 * whether a bundle fits (the first step it fails says why not) and which of
 * those that fit comes first (the first step that tells two apart):
 *
 *   1. architecture, and the CUDA platform of a CUDA build (SBSA or L4T)
 *   2. loadable here: C library, C++ library, needed libraries
 *   3. accelerator: a GPU build that runs here before a CPU build, then the
 *      higher GPU target, then the newer CUDA
 *   4. CPU level: the CPU must have every feature; a target that descends
 *      from another (its features a superset) comes first
 *   5. ONNX Runtime: supported by ortkit; the newest first (unless pinned)
 *   6. name
 */
#include "bundle.h"
#include "bundle_gpu.h"
#include "variant_platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SAY(...) ((void)snprintf(why, why_size, __VA_ARGS__))

/* The steps, as verdicts and the docs name them. */
static const char *const step_names[] = {"damaged", "architecture", "loadable", "accelerator",
                                         "cpu level", "onnxruntime", "variant", "shadowed", "name"};
enum { STEP_DAMAGED, STEP_ARCH, STEP_LOADABLE, STEP_ACCEL, STEP_CPU, STEP_ORT, STEP_VARIANT,
       STEP_SHADOWED, STEP_NAME };

/* What orders fitting bundles, most important first. */
typedef struct rank {
    int gpu;        /* 1 a CUDA build on its GPU, 0 a CPU build, -1 a GPU build for its CPU only */
    int sm;         /* its GPU target */
    int cuda;
    uint64_t features; /* the CPU features it was built to use */
    int level;         /* of two unrelated targets with as many features: the newer ISA */
    const char *level_label;
    const char *ort; /* ONNX Runtime's version */
    const char *name;
} rank;

enum { KEY_GPU, KEY_SM, KEY_CUDA, KEY_LEVEL, KEY_ORT, KEY_NAME, KEY_NONE };

static int popcount64(uint64_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

static void rank_of(const ortkit_manifest *m, int cpu_only, rank *r)
{
    r->gpu = cpu_only ? -1 : m->cuda != 0;
    r->sm = cpu_only ? 0 : m->sm;
    r->cuda = cpu_only ? 0 : m->cuda;
    r->features = m->cpu_features;
    r->level = ortkit__bundle_cpu_level(m, &r->level_label);
    r->ort = m->ort_version;
    r->name = m->name;
}

/* CPU targets, archspec-style: one whose features are a strict superset of
 * another's descends from it and comes first; of two unrelated ones, the
 * one with more features (then the newer instruction set). */
static long level_compare(const rank *a, const rank *b)
{
    if (a->features == b->features)
        return 0;
    if ((a->features & b->features) == b->features)
        return 1;
    if ((a->features & b->features) == a->features)
        return -1;
    int d = popcount64(a->features) - popcount64(b->features);
    return d ? d : a->level - b->level;
}

/* The first key on which a and b differ: > 0 when a is better, < 0 when b is. */
static int compare(const rank *a, const rank *b, int *key)
{
    long d[KEY_NONE] = {a->gpu - b->gpu, a->sm - b->sm, a->cuda - b->cuda, level_compare(a, b),
                        ortkit__version_compare(a->ort, b->ort), -strcmp(a->name, b->name)};
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

/* The accelerator step: one call into the GPU checks (compute capability,
 * arch-specific cubins, driver floor, Jetson). */
static int accelerator_fits(const ortkit_manifest *m, const ortkit_variant *var, const ortkit_host *h,
                            char *why, size_t why_size)
{
    /* A GPU release imported with its providers: judged on what its
     * binaries contain (bundle_gpu_fit.c), not on a variant name. */
    if (m->gpu_known)
        return ortkit__gpu_fits(m, h, why, why_size);
    if (!m->cuda || !var)
        return 1;
    /* The CPU is judged at its own, later step: here it is taken to have
     * what the build needs, so the answer is the GPU's and the driver's. */
    ortkit_host gpu_only = *h;
    gpu_only.cpu_features |= var->cpu_features;
    return ortkit_variant_fits(var, &gpu_only, why, why_size) == 1;
}

/* The libraries a part needs that the bundle does not carry (in lib/: a
 * library added after import, by `bundle complete`, is listed among the
 * needs the import read, and must not be asked of the host), into a
 * NULL-terminated list (malloc'd); NULL when out of memory. */
static const char **uncarried(const ortkit_manifest *m, const char *const *libs, size_t n,
                              size_t *count)
{
    const char **needed = calloc(n + 1, sizeof *needed);
    *count = 0;
    for (size_t i = 0; needed && i < n; i++)
        if (!ortkit__bundle_carries(m, libs[i]))
            needed[(*count)++] = libs[i];
    return needed;
}

/* Whether the host has what part p needs: 1 yes (or not judged), 0 no,
 * with why; -1 out of memory. */
static int part_met(const ortkit_manifest *m, const ortkit_bundle_part *p, const ortkit_host *h,
                    char *why, size_t why_size)
{
    size_t n;
    const char **needed = uncarried(m, p->libraries, p->library_count, &n);
    if (!needed)
        return -1;
    int met = ortkit__needs_met(h, NULL, NULL, 0, needed, n, why, why_size);
    free(needed);
    return met;
}

/*
 * The providers' parts, once the core is loadable: each provider's needs
 * are its own.  The accelerator the host asks for makes its provider's
 * hard (a GPU host and the CUDA provider): lacking them, the bundle does
 * not fit.  The others only make their provider unavailable, which the
 * caveat says.  0 when a hard part is not met (why says why).
 */
static int providers_met(const ortkit_manifest *m, const ortkit_host *h, int cpu_only, char *caveat,
                         size_t caveat_size, char *why, size_t why_size)
{
    for (size_t i = 1; i < m->part_count; i++) {
        const ortkit_bundle_part *p = m->parts[i];
        int hard = !cpu_only && m->cuda && !strcmp(p->name, "CUDAExecutionProvider");
        char need[200];
        int met = part_met(m, p, h, need, sizeof need);
        if (met < 0) {
            SAY("out of memory");
            return 0;
        }
        if (met == 1)
            continue;
        if (hard) {
            SAY("%s %.180s", p->name, need);
            return 0;
        }
        if (!(cpu_only && !strcmp(p->name, "CUDAExecutionProvider")))
            snprintf(caveat + strlen(caveat), caveat_size - strlen(caveat), "%s%s unavailable: %.150s",
                     caveat[0] ? "; " : "", p->name, need);
    }
    return 1;
}

/* Does one bundle fit the host?  why says why not (or a caveat); *step the
 * step that decided; *cpu_only whether a GPU build serves it with its CPU
 * only (the host shows no GPU). */
static int fits(const ortkit_bundle *b, const ortkit_host *h, const char *forced, char *why,
                size_t why_size, int *step, int *cpu_only)
{
    why[0] = '\0';
    *step = STEP_DAMAGED;
    *cpu_only = 0;
    if (!b) {
        SAY("its manifest cannot be used");
        return 0;
    }
    const ortkit_manifest *m = &b->m;
    if (b->damage[0]) {
        SAY("damaged: %.230s", b->damage);
        return 0;
    }
    if (ortkit__bundle_is_static(m)) {
        *step = STEP_LOADABLE;
        SAY("a static bundle: programs link it (pkg-config --static libonnxruntime) and hand "
            "ortkit their own OrtGetApiBase; it is never loaded");
        return 0;
    }
    *step = STEP_ARCH;
    if (m->arch != h->arch) {
        SAY("built for %s; this host is %s", ortkit_arch_name(m->arch),
            h->arch ? ortkit_arch_name(h->arch) : "of unknown architecture");
        return 0;
    }
    /* Of one architecture, but of another CUDA: never, not even for its
     * CPU (a Jetson's L4T build on a Grace server, an SBSA one on Orin). */
    if (m->cuda && !m->cuda_platform) {
        SAY("its manifest does not say which CUDA it is built with, NVIDIA's SBSA CUDA or "
            "Jetson's L4T CUDA (imported before ortkit told them apart); import it again "
            "with --platform sbsa or --platform l4t");
        return 0;
    }
    if (m->cuda && ortkit__cuda_platform_refuses(m->cuda_platform, m->cuda, h, why, why_size))
        return 0;
    /* What its ELF files need of the C and C++ libraries and of the
     * system's libraries, where both the manifest and the host say. */
    *step = STEP_LOADABLE;
    char caveat[256] = "";
    /* The core's own libraries where the manifest has parts; the providers'
     * are judged with the accelerator. */
    const ortkit_bundle_part *core = m->part_count ? m->parts[0] : NULL;
    size_t n_needed = 0;
    const char **needed = core ? uncarried(m, core->libraries, core->library_count, &n_needed)
                               : uncarried(m, m->needs_libraries, m->needs_library_count, &n_needed);
    if (!needed) {
        SAY("out of memory");
        return 0;
    }
    int loadable = ortkit__needs_met(h, m->needs_glibc, m->needs_glibcxx, m->needs_exec_stack,
                                     needed, n_needed, why, why_size);
    free(needed);
    if (!loadable)
        return 0;
    snprintf(caveat, sizeof caveat, "%s", why);
    why[0] = '\0';
    const ortkit_variant *var = NULL;
    if (strcmp(m->variant, "cpu") && !m->gpu_known && ortkit_variant_parse(&var, m->variant) != 0) {
        *step = STEP_VARIANT;
        SAY("unknown variant '%s': this ortkit cannot tell what it needs", m->variant);
        return 0;
    }
    *step = STEP_ACCEL;
    /* A host that shows no GPU asks for none: a GPU release's core serves
     * it with the CPU, below every CPU build (ranked so). */
    if (m->gpu_known && ortkit__gpu_visible(h) == 0) {
        *cpu_only = 1;
        snprintf(caveat + strlen(caveat), sizeof caveat - strlen(caveat), "%sfor its CPU only: "
                 "CUDAExecutionProvider unavailable (%s)", caveat[0] ? "; " : "",
                 h->gpu_count ? "CUDA_VISIBLE_DEVICES hides every GPU" : "this host has no NVIDIA GPU");
    } else if (!accelerator_fits(m, var, h, why, why_size)) {
        return 0;
    }
    if (why[0])
        snprintf(caveat + strlen(caveat), sizeof caveat - strlen(caveat), "%s%s",
                 caveat[0] ? "; " : "", why);
    why[0] = '\0';
    if (!providers_met(m, h, *cpu_only, caveat, sizeof caveat, why, why_size))
        return 0;
    *step = STEP_CPU;
    uint64_t missing = m->cpu_features & ~h->cpu_features;
    if (missing) {
        char list[200];
        feature_labels(list, sizeof list, missing);
        SAY("needs %s, which this CPU lacks%s%s%s", list, forced ? " (ORTKIT_FORCE_ISA=" : "",
            forced ? forced : "", forced ? ")" : "");
        return 0;
    }
    if (var && var->defect && var->defect[0]) {
        SAY("no such build can exist: %s", var->defect);
        return 0;
    }
    *step = STEP_ORT;
    ortkit__version v;
    const char *rest; /* the manifest's reader has checked the version */
    if (ortkit__version_parse(&v, m->ort_version, &rest) != 0 || v.part[0] != 1 ||
        v.part[1] < ORTKIT_MIN_ORT_API) {
        SAY("ONNX Runtime %s is older than ortkit supports (1.%d)", m->ort_version,
            ORTKIT_MIN_ORT_API);
        return 0;
    }
    if (!m->verified_by_loading)
        snprintf(caveat + strlen(caveat), sizeof caveat - strlen(caveat), "%snot yet verified by "
                 "loading ('ortkit bundle verify' on this host loads it)", caveat[0] ? "; " : "");
    snprintf(why, why_size, "%s", caveat);
    return 1;
}

/* Why a comes before b, by the key that told them apart. */
static void reason_for(char *out, size_t size, const ortkit_bundle *best, const rank *rb,
                       const ortkit_bundle *next, const rank *rn, int key)
{
    const char *nn = next->m.name;
    switch (key) {
    case KEY_GPU:
        if (rb->gpu > 0)
            snprintf(out, size, "a GPU build (%s) that this host's GPU and driver can run; GPU "
                     "builds come before CPU builds such as %s", best->m.variant, nn);
        else
            snprintf(out, size, "a CPU build; a GPU build that serves this host with its CPU only, "
                     "such as %s, comes after it", nn);
        break;
    case KEY_SM:
        snprintf(out, size, "built for SM %d.%d, the newest GPU target among those that run here "
                 "(%s: SM %d.%d)", rb->sm / 10, rb->sm % 10, nn, rn->sm / 10, rn->sm % 10);
        break;
    case KEY_CUDA:
        snprintf(out, size, "the newest CUDA: %d.%d (%s: CUDA %d.%d)", rb->cuda / 1000,
                 (rb->cuda % 1000) / 10, nn, rn->cuda / 1000, (rn->cuda % 1000) / 10);
        break;
    case KEY_LEVEL:
        /* The level decides; what it is worth for a model is not the
         * library's to claim (the tool shows what was measured). */
        if ((rb->features & rn->features) == rn->features)
            snprintf(out, size, "the highest CPU level this host supports: %s (%s: %s), which it "
                     "descends from", rb->level_label, nn, rn->level_label);
        else
            snprintf(out, size, "the highest CPU level this host supports: %s (%s: %s), a target "
                     "it does not descend from, with fewer features or an older ISA",
                     rb->level_label, nn, rn->level_label);
        break;
    case KEY_ORT:
        snprintf(out, size, "the newest ONNX Runtime: %s (%s: %s)", best->m.ort_version, nn,
                 next->m.ort_version);
        break;
    case KEY_NAME:
        snprintf(out, size, "ranks the same as %s and its name comes first", nn);
        break;
    default:
        snprintf(out, size, "ranks the same as %s and comes first in the search order", nn);
    }
}

static int key_step(int key)
{
    return key == KEY_GPU || key == KEY_SM || key == KEY_CUDA ? STEP_ACCEL
           : key == KEY_LEVEL                                  ? STEP_CPU
           : key == KEY_ORT                                    ? STEP_ORT
                                                               : STEP_NAME;
}

/* ORTKIT_FORCE_ISA: the host taken to have exactly the CPU features of an
 * instruction set's variant ("avx2", "avx512", "armv9", "x86-64", "armv8.0"), for
 * testing and for hosts whose CPU reports less or more than it runs.
 * Returns the value when it applies, else NULL. */
static const char *force_isa(ortkit_host *h)
{
    const char *isa = ortkit__env("ORTKIT_FORCE_ISA");
    if (!isa || !isa[0] || strlen(isa) > 32)
        return NULL;
    char name[48];
    snprintf(name, sizeof name, "cpu-%s", isa);
    const ortkit_variant *v = NULL;
    if (ortkit_variant_parse(&v, name) != 0 || v->arch != h->arch)
        return NULL;
    h->cpu_features = v->cpu_features;
    return isa;
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
    int cpu_only; /* a GPU build serving this host with its CPU */
    char why[256];
    char order[768];
} verdict_data;

/* The choice: the caller's view first (the caller's pointer is this one's). */
typedef struct choice_data {
    ortkit_bundle_choice pub;
    char reason[1024];
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

/* Whether each bundle fits the host, and why not; a bundle shadowed by an
 * earlier one of the same name does not. */
static void judge_each(verdict_data *v, const ortkit_bundle *const *bundles, size_t count,
                       const ortkit_host *host, const char *forced)
{
    for (size_t i = 0; i < count; i++) {
        int step;
        v[i].pub.fits = fits(bundles[i], host, forced, v[i].why, sizeof v[i].why, &step,
                             &v[i].cpu_only);
        v[i].pub.step = v[i].pub.fits ? "" : step_names[step];
        for (size_t j = 0; bundles[i] && j < i; j++) {
            if (bundles[j] && !strcmp(bundles[j]->m.name, bundles[i]->m.name)) {
                v[i].pub.fits = 0;
                v[i].pub.step = step_names[STEP_SHADOWED];
                snprintf(v[i].why, sizeof v[i].why, "shadowed by the bundle of the same name in "
                         "'%s', earlier in the search order", bundles[j]->m.dir);
                break;
            }
        }
    }
}

/* Why nothing was chosen: no bundles, or none of those wanted fits. */
static void no_fit_reason(char *reason, size_t size, const verdict_data *v,
                          const ortkit_bundle *const *bundles, size_t count,
                          const unsigned char *wanted, const char *pin, int pin_kind,
                          size_t considered)
{
    size_t first = 0;
    while (first < count && !wanted[first])
        first++;
    if (count == 0)
        snprintf(reason, size, "no bundles were found");
    else if (pin_kind == 0)
        snprintf(reason, size, "bundle '%.64s' does not fit this host: %.230s",
                 pin, v[first].why);
    else if (considered == 1)
        snprintf(reason, size, "the only bundle%s%.32s does not fit this host: %.230s",
                 pin ? " with ONNX Runtime " : "", pin ? pin : "", v[first].why);
    else
        snprintf(reason, size,
                 "none of the %zu bundles%s%.32s fits this host; %.64s: %.200s", considered,
                 pin ? " with ONNX Runtime " : "", pin ? pin : "",
                 bundles[first] ? bundles[first]->m.name : "the first", v[first].why);
}

/* Those wanted that fit, best first, into order: each one's rank, the step
 * that put it above the next and why; how many. */
static size_t order_fitting(verdict_data *v, const ortkit_bundle *const *bundles, size_t count,
                            const unsigned char *wanted, size_t *order, const char *forced)
{
    rank r;
    int key;
    size_t n_order = 0;
    for (size_t i = 0; i < count; i++) {
        if (!wanted[i] || !v[i].pub.fits)
            continue;
        rank_of(&bundles[i]->m, v[i].cpu_only, &r);
        size_t at = n_order;
        for (; at > 0; at--) {
            rank ra;
            rank_of(&bundles[order[at - 1]]->m, v[order[at - 1]].cpu_only, &ra);
            if (compare(&r, &ra, &key) <= 0)
                break;
            order[at] = order[at - 1];
        }
        order[at] = i;
        n_order++;
    }
    for (size_t k = 0; k < n_order; k++) {
        verdict_data *d = &v[order[k]];
        d->pub.rank = k + 1;
        if (k + 1 == n_order) {
            d->pub.step = "";
            snprintf(d->order, sizeof d->order, "%s", n_order > 1 ? "last of those that fit" : "");
            continue;
        }
        rank ra, rn;
        rank_of(&bundles[order[k]]->m, v[order[k]].cpu_only, &ra);
        rank_of(&bundles[order[k + 1]]->m, v[order[k + 1]].cpu_only, &rn);
        compare(&ra, &rn, &key);
        d->pub.step = step_names[key_step(key)];
        reason_for(d->order, sizeof d->order, bundles[order[k]], &ra, bundles[order[k + 1]], &rn, key);
    }
    if (forced)
        for (size_t k = 0; k < n_order; k++)
            snprintf(v[order[k]].order + strlen(v[order[k]].order),
                     sizeof v[order[k]].order - strlen(v[order[k]].order),
                     "%sCPU taken as %s (ORTKIT_FORCE_ISA)", v[order[k]].order[0] ? "; " : "", forced);
    return n_order;
}

static int choose(choice_data *out, const ortkit_host *host, const ortkit_bundle *const *bundles,
                  size_t count, const char *pin)
{
    if (pin && !pin[0])
        pin = NULL;
    int rc = ORTKIT_OK;
    verdict_data *v = out->v;
    unsigned char *wanted = calloc(count ? count : 1, 1);
    size_t *order = calloc(count ? count : 1, sizeof *order);
    if (!wanted || !order) {
        free(wanted);
        free(order);
        return ortkit__error_nomem();
    }
    ortkit_host forced_host = *host;
    const char *forced = force_isa(&forced_host);
    host = &forced_host;
    judge_each(v, bundles, count, host, forced);

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
    for (size_t i = 0; pin && i < count; i++)
        if (v[i].pub.fits && !wanted[i])
            snprintf(v[i].order, sizeof v[i].order, "passed over: pinned to %.64s", pin);

    size_t best = ORTKIT_BUNDLE_NONE, fitting = 0, considered = 0;
    rank rb = {0}, r;
    int key;
    for (size_t i = 0; i < count; i++) {
        considered += wanted[i];
        if (!wanted[i] || !v[i].pub.fits)
            continue;
        fitting++;
        rank_of(&bundles[i]->m, v[i].cpu_only, &r);
        if (best == ORTKIT_BUNDLE_NONE || compare(&r, &rb, &key) > 0) {
            best = i;
            rb = r;
        }
    }
    if (best == ORTKIT_BUNDLE_NONE) {
        no_fit_reason(out->reason, sizeof out->reason, v, bundles, count, wanted, pin, pin_kind,
                      considered);
        rc = ortkit__error_set(pin ? ORTKIT_E_UNSUPPORTED : ORTKIT_E_RUNTIME_NOT_FOUND, "%s",
                               out->reason);
        goto cleanup;
    }

    /* The order of every candidate that fits, and what puts each above the next. */
    size_t n_order = order_fitting(v, bundles, count, wanted, order, forced);

    /* Why this one: what sets it apart from the next best. */
    char because[800];
    if (n_order < 2) {
        if (considered == 1)
            snprintf(because, sizeof because, "the only %s, and it fits this host",
                     pin ? "match" : "bundle found");
        else
            snprintf(because, sizeof because, "the only one of %zu %s that fits this host",
                     considered, pin ? "matches" : "bundles");
    } else {
        snprintf(because, sizeof because, "%s", v[best].order);
    }
    if (pin_kind == 0)
        snprintf(out->reason, sizeof out->reason, "pinned by name; %.800s", because);
    else if (pin_kind == 1)
        snprintf(out->reason, sizeof out->reason, "pinned to ONNX Runtime %.32s; %.800s", pin, because);
    else
        snprintf(out->reason, sizeof out->reason, "%s", because);
    out->pub.index = best;
cleanup:
    free(wanted);
    free(order);
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
    for (size_t i = 0; i < count; i++) {
        c->v[i].pub.why = c->v[i].why;
        c->v[i].pub.order = c->v[i].order;
        c->v[i].pub.step = "";
    }
    int rc = choose(c, host, bundles, count, pin);
    /* An answer, even when it is "none": the reason and verdicts say why. */
    if (rc == ORTKIT_OK || rc == ORTKIT_E_RUNTIME_NOT_FOUND || rc == ORTKIT_E_UNSUPPORTED)
        *out = &c->pub;
    else
        ortkit_bundle_choice_free(&c->pub);
    return rc;
}
