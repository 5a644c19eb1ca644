/*
 * measure.c - choosing among the fitting bundles by measurement
 * (<ortkit/tools/measure.h>): the candidates and the key come from the
 * runtime's memory of measurements (measured.h), which this fills; the
 * outputs are compared as `ortkit validate` compares them; the rule is
 * measure_rule.c's.  Nothing here runs a model or starts a process.
 */
#include "ortkit/tools/measure.h"
#include "ortkit/tools/compare.h"
#include "measure_rule.h"
#include "measured.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Rounds kept per candidate: far beyond any budget's worth. */
#define ROUNDS_MAX 100000

typedef struct cand {
    ortkit_measure_verdict pub;
    char **out_names;
    ortkit_tensor **outs;
    size_t n_out;
    int has_outputs;
    double *lat;            /* every timed run */
    size_t n_lat, cap_lat;
    double *round_p50;      /* per round: its block's median, NAN when it ran none */
    size_t cap_rounds;
    int timing;
    size_t disturbed;       /* runs not counted: descheduled */
    int alike;              /* judged alike the fastest (within the margin) */
} cand;

struct ortkit_measure {
    ortkit__measured_ctx ctx;
    ortkit__measured rec;   /* the result: measured, or recalled */
    int known;              /* rec holds a result */
    int recalled;
    int begun, compared, finished;
    char refused[ORTKIT__MEASURED_ACCOUNT_MAX];
    char account[ORTKIT__MEASURED_ACCOUNT_MAX];
    size_t rounds;
    size_t generation, gen_start; /* processes started afresh; the round their generation began */
    int runtimes;           /* candidates are runtimes, not bundles: nothing remembered */
    size_t *gen_first;      /* generation g's first round; gen_first[generation] while open */
    size_t cap_gen;
    char method[256];       /* how runs were timed */
    cand c[ORTKIT__MEASURED_MAX];
};

const char *ortkit_measure_state_name(ortkit_measure_state state)
{
    return ortkit__measured_state_name((int)state);
}

static void clear_outputs(cand *c)
{
    for (size_t k = 0; k < c->n_out; k++) {
        free(c->out_names[k]);
        ortkit_tensor_free(c->outs[k]);
    }
    free(c->out_names);
    free(c->outs);
    c->out_names = NULL;
    c->outs = NULL;
    c->n_out = 0;
    c->has_outputs = 0;
}

/* The public verdicts point into the record. */
static void publish(ortkit_measure *m)
{
    for (size_t i = 0; i < m->ctx.count; i++) {
        ortkit__measured_cand *r = &m->rec.cand[i];
        ortkit_measure_verdict *v = &m->c[i].pub;
        v->name = r->name;
        v->state = (ortkit_measure_state)r->state;
        v->chosen = m->known && m->rec.chosen[0] && !strcmp(m->rec.chosen, r->name);
        v->p50 = r->p50;
        v->p50_low = r->p50_low;
        v->p50_high = r->p50_high;
        v->runs = (size_t)r->runs;
        v->rounds = (size_t)r->rounds;
        v->pair_p50 = r->pair_p50;
        v->pair_chosen_p50 = r->pair_chosen_p50;
        v->pair_ratio = r->pair_ratio;
        v->pair_rounds = (size_t)r->pair_rounds;
        v->pair_resolution = r->pair_resolution > 0 ? r->pair_resolution : r->pair_rounds ? INFINITY : 0;
        v->disturbed = (size_t)r->disturbed;
        v->alike = m->c[i].alike || !strncmp(r->note, "as fast as ", 11);
        v->note = r->note;
    }
    if (m->known)
        ortkit__measured_account(m->account, sizeof m->account, &m->rec);
    else if (m->refused[0])
        snprintf(m->account, sizeof m->account, "not measured for this model (the remembered "
                 "measurement was refused: %.900s)", m->refused);
    else if (m->ctx.count)
        snprintf(m->account, sizeof m->account, "not measured for this model");
    else
        snprintf(m->account, sizeof m->account, "not measured: %s", m->ctx.why);
}

/* A fresh record for the candidates, in the declared order. */
static void fresh_record(ortkit_measure *m)
{
    memset(&m->rec, 0, sizeof m->rec);
    ortkit__measured *r = &m->rec;
    snprintf(r->key, sizeof r->key, "%s", m->ctx.key);
    snprintf(r->model, sizeof r->model, "%s", m->ctx.model);
    snprintf(r->model_sha256, sizeof r->model_sha256, "%s", m->ctx.model_sha256);
    snprintf(r->shapes, sizeof r->shapes, "%s", m->ctx.shapes);
    snprintf(r->host, sizeof r->host, "%s", m->ctx.host);
    snprintf(r->declared, sizeof r->declared, "%s", m->ctx.names[0]);
    r->threads = m->ctx.threads;
    snprintf(r->method, sizeof r->method, "%s", m->method);
    r->count = m->ctx.count;
    for (size_t i = 0; i < r->count; i++) {
        snprintf(r->cand[i].name, sizeof r->cand[i].name, "%s", m->ctx.names[i]);
        snprintf(r->cand[i].manifest_sha256, sizeof r->cand[i].manifest_sha256, "%s",
                 m->ctx.digests[i]);
    }
}

int ortkit_measure_open(ortkit_measure **out, const ortkit_host *host,
                        const ortkit_bundle *const *bundles, size_t count,
                        const ortkit_bundle_choice *choice, const char *model, const char *shapes,
                        int threads)
{
    if (!out)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_measure_open: out is NULL");
    *out = NULL;
    if (!host || !choice || !model || (count && !bundles) || threads < 0)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_measure_open: bad argument");
    ortkit_measure *m = calloc(1, sizeof *m);
    if (!m)
        return ortkit__error_nomem();
    int rc = ortkit__measured_prepare(&m->ctx, host, bundles, count, choice, model, shapes, threads, 0);
    if (rc) {
        free(m);
        return rc;
    }
    fresh_record(m);
    if (m->ctx.count) {
        ortkit__measured *r = malloc(sizeof *r);
        if (!r) {
            free(m);
            return ortkit__error_nomem();
        }
        int found = ortkit__measured_recall(r, &m->ctx, m->refused, sizeof m->refused);
        if (found == 0) {
            m->rec = *r;
            m->known = m->recalled = 1;
        }
        free(r);
    }
    publish(m);
    *out = m;
    return ORTKIT_OK;
}

void ortkit_measure_free(ortkit_measure *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < ORTKIT__MEASURED_MAX; i++) {
        clear_outputs(&m->c[i]);
        free(m->c[i].lat);
        free(m->c[i].round_p50);
    }
    free(m->gen_first);
    free(m);
}

size_t ortkit_measure_count(const ortkit_measure *m) { return m ? m->ctx.count : 0; }

size_t ortkit_measure_bundle(const ortkit_measure *m, size_t i)
{
    return m && i < m->ctx.count ? m->ctx.index[i] : ORTKIT_BUNDLE_NONE;
}

const char *ortkit_measure_why(const ortkit_measure *m) { return m ? m->ctx.why : ""; }
const char *ortkit_measure_shapes(const ortkit_measure *m) { return m ? m->ctx.shapes : ""; }
const char *ortkit_measure_key(const ortkit_measure *m) { return m ? m->ctx.key : ""; }
const char *ortkit_measure_path(const ortkit_measure *m) { return m ? m->ctx.path : ""; }
int ortkit_measure_recalled(const ortkit_measure *m) { return m && m->recalled; }
const char *ortkit_measure_refused(const ortkit_measure *m) { return m ? m->refused : ""; }
size_t ortkit_measure_rounds(const ortkit_measure *m)
{
    return !m ? 0 : m->recalled ? (size_t)m->rec.rounds : m->rounds;
}
const char *ortkit_measure_account(const ortkit_measure *m) { return m ? m->account : ""; }
double ortkit_measure_seconds(const ortkit_measure *m) { return m && m->known ? m->rec.seconds : 0; }

const char *ortkit_measure_outcome(const ortkit_measure *m)
{
    return m && m->known ? m->rec.outcome : "";
}

const ortkit_measure_verdict *ortkit_measure_candidate(const ortkit_measure *m, size_t i)
{
    return m && i < m->ctx.count ? &m->c[i].pub : NULL;
}

size_t ortkit_measure_chosen(const ortkit_measure *m)
{
    for (size_t i = 0; m && m->known && i < m->ctx.count; i++)
        if (m->c[i].pub.chosen)
            return i;
    return ORTKIT_BUNDLE_NONE;
}

/* ---- measuring ---------------------------------------------------------------------- */

static int check_index(const ortkit_measure *m, size_t i, const char *fn)
{
    if (!m || i >= m->ctx.count)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "%s: no candidate %zu", fn, i);
    if (!m->begun || m->finished)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "%s: the measurement is %s", fn,
                                 m->finished ? "finished" : "not begun");
    return ORTKIT_OK;
}

int ortkit_measure_begin(ortkit_measure *m)
{
    if (!m || !m->ctx.count)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_measure_begin: nothing to measure%s%s",
                                 m ? ": " : "", m ? m->ctx.why : "");
    for (size_t i = 0; i < m->ctx.count; i++) {
        cand *c = &m->c[i];
        clear_outputs(c);
        c->n_lat = 0;
        c->timing = 0;
        c->disturbed = 0;
        c->alike = 0;
        for (size_t r = 0; r < c->cap_rounds; r++)
            c->round_p50[r] = NAN;
    }
    fresh_record(m);
    m->known = m->recalled = 0;
    m->begun = 1;
    m->compared = m->finished = 0;
    m->rounds = 0;
    if (!m->gen_first && !(m->gen_first = calloc(16, sizeof *m->gen_first)))
        return ortkit__error_nomem();
    if (!m->cap_gen)
        m->cap_gen = 16;
    m->generation = 1;
    m->gen_first[0] = 0;
    m->gen_start = 0;
    m->refused[0] = '\0';
    publish(m);
    return ORTKIT_OK;
}

int ortkit_measure_failed(ortkit_measure *m, size_t i, const char *why)
{
    int rc = check_index(m, i, "ortkit_measure_failed");
    if (rc)
        return rc;
    ortkit__measured_cand *r = &m->rec.cand[i];
    r->state = ORTKIT__MEASURED_FAILED;
    snprintf(r->note, sizeof r->note, "failed: %s", why ? why : "");
    clear_outputs(&m->c[i]);
    m->c[i].timing = 0;
    publish(m);
    return ORTKIT_OK;
}

int ortkit_measure_outputs(ortkit_measure *m, size_t i, const char *const *names,
                           ortkit_tensor **outputs, size_t count)
{
    int rc = check_index(m, i, "ortkit_measure_outputs");
    if (!rc && count && (!names || !outputs))
        rc = ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_measure_outputs: NULL names or outputs");
    cand *c = rc ? NULL : &m->c[i];
    if (c) {
        clear_outputs(c);
        c->out_names = calloc(count + 1, sizeof *c->out_names);
        c->outs = calloc(count + 1, sizeof *c->outs);
        if (!c->out_names || !c->outs)
            rc = ortkit__error_nomem();
    }
    /* The tensors are the measurement's now, whatever happens. */
    for (size_t k = 0; outputs && k < count; k++) {
        if (!rc) {
            c->outs[k] = outputs[k];
            c->n_out++;
            if (!(c->out_names[k] = ortkit__strdup(names[k] ? names[k] : "")))
                rc = ORTKIT_E_NOMEM;
        } else {
            ortkit_tensor_free(outputs[k]);
        }
        outputs[k] = NULL;
    }
    if (rc) {
        if (c)
            clear_outputs(c);
        return rc;
    }
    c->has_outputs = 1;
    return ORTKIT_OK;
}

/* Do a's and b's outputs agree (both ways within the tolerances)?  why says
 * how they differ when not. */
static int agree(const cand *a, const cand *b, char *why, size_t size)
{
    why[0] = '\0';
    if (a->n_out != b->n_out) {
        snprintf(why, size, "%zu outputs against %zu", b->n_out, a->n_out);
        return 0;
    }
    for (size_t k = 0; k < a->n_out; k++) {
        if (strcmp(a->out_names[k], b->out_names[k])) {
            snprintf(why, size, "output %zu is '%.100s', not '%.100s'", k, b->out_names[k],
                     a->out_names[k]);
            return 0;
        }
        if (!a->outs[k] || !b->outs[k]) {
            if (!a->outs[k] != !b->outs[k]) {
                snprintf(why, size, "output '%.100s' is a tensor in one only", a->out_names[k]);
                return 0;
            }
            continue; /* not a tensor: not compared */
        }
        for (int dir = 0; dir < 2; dir++) {
            ortkit_compare cmp = ORTKIT_COMPARE_INIT;
            const ortkit_tensor *x = dir ? b->outs[k] : a->outs[k], *y = dir ? a->outs[k] : b->outs[k];
            if (ortkit_tensor_compare(&cmp, x, y, ORTKIT_COMPARE_RTOL, ORTKIT_COMPARE_ATOL)) {
                snprintf(why, size, "output '%.100s' cannot be compared: %.200s", a->out_names[k],
                         ortkit__error_message());
                return 0;
            }
            if (!cmp.equal) {
                /* Worded from a's side: a is the reference. */
                if (dir == 0)
                    snprintf(why, size, "output '%.100s': %.280s", a->out_names[k], cmp.message);
                else
                    snprintf(why, size, "output '%.100s': %zu value%s out of tolerance", a->out_names[k],
                             cmp.mismatches, cmp.mismatches == 1 ? "" : "s");
                return 0;
            }
        }
    }
    return 1;
}

int ortkit_measure_compare(ortkit_measure *m)
{
    int rc = check_index(m, 0, "ortkit_measure_compare");
    if (rc)
        return rc;
    size_t n = m->ctx.count, agrees[ORTKIT__MEASURED_MAX] = {0};
    char why[400];
    for (size_t i = 0; i < n; i++) {
        ortkit__measured_cand *r = &m->rec.cand[i];
        if (r->state != ORTKIT__MEASURED_FAILED && !m->c[i].has_outputs) {
            r->state = ORTKIT__MEASURED_FAILED;
            snprintf(r->note, sizeof r->note, "failed: no outputs were given for it");
        }
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (m->c[i].has_outputs && m->c[j].has_outputs && agree(&m->c[i], &m->c[j], why, sizeof why)) {
                agrees[i]++;
                agrees[j]++;
            }
    /* The reference: the one most others agree with; the declared order breaks ties. */
    size_t ref = ORTKIT_BUNDLE_NONE;
    for (size_t i = 0; i < n; i++)
        if (m->c[i].has_outputs && (ref == ORTKIT_BUNDLE_NONE || agrees[i] > agrees[ref]))
            ref = i;
    for (size_t i = 0; i < n; i++) {
        cand *c = &m->c[i];
        ortkit__measured_cand *r = &m->rec.cand[i];
        if (!c->has_outputs)
            continue;
        if (i == ref || agree(&m->c[ref], c, why, sizeof why)) {
            c->timing = 1;
            continue;
        }
        r->state = ORTKIT__MEASURED_DIFFERS;
        snprintf(r->note, sizeof r->note, "outputs differ from %.64s's: %.300s", m->rec.cand[ref].name, why);
    }
    m->compared = 1;
    publish(m);
    return ORTKIT_OK;
}

int ortkit_measure_timing(const ortkit_measure *m, size_t i)
{
    return m && i < m->ctx.count && m->begun && !m->finished && m->compared && m->c[i].timing;
}

int ortkit_measure_add(ortkit_measure *m, size_t i, const double *seconds, size_t runs)
{
    int rc = check_index(m, i, "ortkit_measure_add");
    if (rc)
        return rc;
    cand *c = &m->c[i];
    if (!c->timing)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_measure_add: candidate %zu is not "
                                 "timed", i);
    if (!runs || !seconds)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_measure_add: no runs");
    if (m->rounds >= ROUNDS_MAX)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_measure_add: more than %d rounds",
                                 ROUNDS_MAX);
    if (ortkit__array_reserve(&c->lat, &c->cap_lat, c->n_lat + runs, sizeof *c->lat, 1024))
        return ORTKIT_E_NOMEM;
    size_t had = c->cap_rounds;
    if (ortkit__array_reserve(&c->round_p50, &c->cap_rounds, m->rounds + 1, sizeof *c->round_p50, 64))
        return ORTKIT_E_NOMEM;
    for (size_t r = had; r < c->cap_rounds; r++)
        c->round_p50[r] = NAN; /* rounds it did not run */
    for (size_t k = 0; k < runs; k++)
        if (!(seconds[k] >= 0) || !isfinite(seconds[k]))
            return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_measure_add: a run of %g s", seconds[k]);
    memcpy(c->lat + c->n_lat, seconds, runs * sizeof *seconds);
    c->n_lat += runs;
    /* A second block in one round counts with the first. */
    double med = ortkit__measure_median(seconds, runs);
    if (isnan(med))
        return ortkit__error_nomem();
    c->round_p50[m->rounds] = isnan(c->round_p50[m->rounds]) ? med : (c->round_p50[m->rounds] + med) / 2;
    return ORTKIT_OK;
}

/* For each round from first on that both the fastest (a) and another (b)
 * ran: b's block median over a's, into ratio (room for rounds); the count. */
static size_t ratios(const cand *a, const cand *b, size_t first, size_t rounds, double *ratio)
{
    size_t n = 0;
    for (size_t r = first; r < rounds; r++) {
        if (r >= a->cap_rounds || r >= b->cap_rounds || isnan(a->round_p50[r]) ||
            isnan(b->round_p50[r]) || !(a->round_p50[r] > 0))
            continue;
        ratio[n++] = b->round_p50[r] / a->round_p50[r];
    }
    return n;
}

/* The candidate still timed with the lowest median over all its runs. */
static size_t fastest(const ortkit_measure *m)
{
    size_t best = ORTKIT_BUNDLE_NONE;
    double best_p50 = 0;
    for (size_t i = 0; i < m->ctx.count; i++) {
        if (!m->c[i].timing || !m->c[i].n_lat)
            continue;
        double p = ortkit__measure_median(m->c[i].lat, m->c[i].n_lat);
        if (best == ORTKIT_BUNDLE_NONE || p < best_p50) {
            best = i;
            best_p50 = p;
        }
    }
    return best;
}

/* Each closed generation's median ratio of b's figure over a's, over the
 * rounds of it both ran (one at least), into out (room for every
 * generation); the count.  The generation still open is not counted.
 * *least_var gets the variance a generation's log ratio has at least from
 * the spread of its rounds alone (pooled over the generations, over the
 * rounds a generation has on average; a median's: pi/2 a mean's): a few
 * generations that agree by chance must not look surer than their rounds. */
static size_t gen_ratios(const ortkit_measure *m, const cand *a, const cand *b, double *out,
                         double *scratch, double *least_var)
{
    size_t k = 0, rounds = 0;
    double ss = 0, dof = 0;
    for (size_t g = 0; g + 1 < m->generation; g++) {
        size_t n = ratios(a, b, m->gen_first[g], m->gen_first[g + 1], scratch);
        if (n < 1)
            continue;
        out[k++] = ortkit__measure_median(scratch, n);
        rounds += n;
        double mean = 0;
        for (size_t i = 0; i < n; i++)
            mean += log(scratch[i]) / (double)n;
        for (size_t i = 0; i < n; i++)
            ss += (log(scratch[i]) - mean) * (log(scratch[i]) - mean);
        dof += (double)n - 1;
    }
    *least_var = dof > 0 && k ? M_PI / 2 * (ss / dof) / ((double)rounds / (double)k) : 0;
    return k;
}

static size_t still_timed(const ortkit_measure *m)
{
    size_t n = 0;
    for (size_t i = 0; i < m->ctx.count; i++)
        n += m->c[i].timing;
    return n;
}

int ortkit_measure_round(ortkit_measure *m)
{
    if (!m || !m->begun || !m->compared || m->finished)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_measure_round: the measurement is "
                                 "not under way");
    m->rounds++;
    return still_timed(m) <= 1 ? 1 : 0;
}

/* What the closed generations say of candidate j against best.  Before
 * the end (final 0) a difference stops the measurement only once it is
 * sized within ORTKIT__MEASURE_STOP, or a quarter of itself when larger:
 * stopping at the first lucky bound would report the luck as the size. */
static void judge(ortkit_measure *m, size_t best, size_t j, double *gen, double *scratch, int final)
{
    cand *c = &m->c[j];
    double estimate, fine, least;
    size_t g = gen_ratios(m, &m->c[best], c, gen, scratch, &least);
    ortkit__measure_verdict v = ortkit__measure_judge_generations(gen, g, least, &estimate, &fine);
    if (v == ORTKIT__MEASURE_OPEN)
        return;
    /* Sized to 1%, or to a quarter of a difference larger than 4%. */
    double sized = (estimate - 1) / 4 > ORTKIT__MEASURE_STOP ? (estimate - 1) / 4 : ORTKIT__MEASURE_STOP;
    if (!final && (g < ORTKIT__MEASURE_STOP_GENERATIONS || (v == ORTKIT__MEASURE_SLOWER && fine > sized + 1e-9)))
        return;
    ortkit__measured_cand *r = &m->rec.cand[j];
    c->timing = 0;
    size_t slower = 0;
    for (size_t k = 0; k < g; k++)
        slower += gen[k] > 1;
    if (v == ORTKIT__MEASURE_SLOWER) {
        r->state = ORTKIT__MEASURED_SLOWER;
        snprintf(r->note, sizeof r->note, "slower than %s by %.1f%% (slower in %zu of %zu "
                 "generations of processes; differences of %.1f%% or more told apart)",
                 m->rec.cand[best].name, 100 * (estimate - 1), slower, g, 100 * fine);
    } else {
        r->state = ORTKIT__MEASURED_TIED;
        c->alike = 1;
        snprintf(r->note, sizeof r->note, "as fast as %s within %.0f%% (%+.1f%% over %zu "
                 "generations of processes; differences of %.1f%% or more told apart)",
                 m->rec.cand[best].name, 100 * ORTKIT__MEASURE_MARGIN, 100 * (estimate - 1), g,
                 100 * fine);
    }
}

/* Close the generation of processes open now: its rounds are judged with the others'. */
static int close_generation(ortkit_measure *m)
{
    if (ortkit__array_reserve(&m->gen_first, &m->cap_gen, m->generation + 1, sizeof *m->gen_first, 16))
        return ORTKIT_E_NOMEM;
    m->gen_first[m->generation++] = m->rounds;
    m->gen_start = m->rounds;
    return ORTKIT_OK;
}

/* Judge every candidate still timed against the fastest, over every closed generation. */
static int judge_all(ortkit_measure *m, int final)
{
    double *gen = malloc((m->generation + 1) * sizeof *gen), *scratch = malloc((m->rounds + 1) * sizeof *scratch);
    size_t best = fastest(m);
    for (size_t j = 0; gen && scratch && best != ORTKIT_BUNDLE_NONE && j < m->ctx.count; j++)
        if (j != best && m->c[j].timing)
            judge(m, best, j, gen, scratch, final);
    int ok = gen && scratch;
    free(gen);
    free(scratch);
    return ok ? ORTKIT_OK : ortkit__error_nomem();
}

int ortkit_measure_generation(ortkit_measure *m)
{
    if (!m || !m->begun || !m->compared || m->finished)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_measure_generation: the measurement "
                                 "is not under way");
    int rc = close_generation(m);
    if (!rc)
        rc = judge_all(m, 0);
    if (rc)
        return rc;
    return still_timed(m) <= 1 ? 1 : 0;
}

size_t ortkit_measure_generations(const ortkit_measure *m) { return m ? m->generation : 0; }

/* Each candidate against the choice, in the rounds both ran; the
 * measurement's resolution, the coarsest of those pairs'. */
static void pair_with_choice(ortkit_measure *m)
{
    ortkit__measured *rec = &m->rec;
    size_t x = ORTKIT_BUNDLE_NONE;
    for (size_t i = 0; rec->chosen[0] && i < m->ctx.count; i++)
        if (!strcmp(rec->cand[i].name, rec->chosen))
            x = i;
    double coarsest = 0;
    int unknown = 0;
    double *mine = malloc((m->rounds + 1) * sizeof *mine), *theirs = malloc((m->rounds + 1) * sizeof *theirs),
           *ratio = malloc((m->rounds + 1) * sizeof *ratio), *gen = malloc((m->generation + 1) * sizeof *gen);
    for (size_t i = 0; x != ORTKIT_BUNDLE_NONE && mine && theirs && ratio && gen && i < m->ctx.count; i++) {
        const cand *a = &m->c[x], *b = &m->c[i];
        size_t n = 0;
        for (size_t r = 0; r < m->rounds && r < a->cap_rounds && r < b->cap_rounds; r++) {
            if (isnan(a->round_p50[r]) || isnan(b->round_p50[r]) || !(a->round_p50[r] > 0))
                continue;
            mine[n] = b->round_p50[r];
            theirs[n] = a->round_p50[r];
            ratio[n++] = b->round_p50[r] / a->round_p50[r];
        }
        ortkit__measured_cand *r = &rec->cand[i];
        r->pair_rounds = n;
        r->pair_p50 = n ? ortkit__measure_median(mine, n) : 0;
        r->pair_chosen_p50 = n ? ortkit__measure_median(theirs, n) : 0;
        r->pair_ratio = n ? ortkit__measure_median(ratio, n) : 0;
        double estimate, fine = 0, least;
        if (i != x) {
            size_t g = gen_ratios(m, a, b, gen, mine, &least); /* mine is scratch from here */
            ortkit__measure_judge_generations(gen, g, least, &estimate, &fine);
            /* The size said is the one the verdict's bounds are around. */
            if (isfinite(fine) && estimate > 0)
                r->pair_ratio = estimate;
        }
        r->pair_resolution = isfinite(fine) ? fine : 0;
        if (i != x && n) {
            unknown |= !isfinite(fine);
            coarsest = fine > coarsest ? fine : coarsest;
        }
    }
    rec->resolution = unknown ? 0 : coarsest; /* 0: too few rounds for any bound */
    free(mine);
    free(theirs);
    free(ratio);
    free(gen);
}

/* Why candidate i, left in the running, was not told apart from best. */
static void tied_note(ortkit_measure *m, size_t best, size_t i)
{
    ortkit__measured_cand *r = &m->rec.cand[i];
    double *gen = malloc((m->generation + 1) * sizeof *gen), *scratch = malloc((m->rounds + 1) * sizeof *scratch);
    double estimate = 0, fine = INFINITY, least = 0;
    size_t g = gen && scratch ? gen_ratios(m, &m->c[best], &m->c[i], gen, scratch, &least) : 0;
    ortkit__measure_judge_generations(gen, g, least, &estimate, &fine);
    free(gen);
    free(scratch);
    char res[96];
    if (isfinite(fine))
        snprintf(res, sizeof res, "differences of %.1f%% or more told apart", 100 * fine);
    else
        snprintf(res, sizeof res, "%zu generation%s of processes, too few to tell any difference "
                 "apart", g, g == 1 ? "" : "s");
    snprintf(r->note, sizeof r->note, "not told apart from %s within the budget: %+.1f%% over %zu "
             "generation%s of processes; %s", m->rec.cand[best].name, 100 * (estimate - 1), g,
             g == 1 ? "" : "s", res);
}

int ortkit_measure_finish(ortkit_measure *m, double seconds)
{
    if (!m || !m->begun || !m->compared || m->finished)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_measure_finish: the measurement is "
                                 "not under way");
    ortkit__measured *rec = &m->rec;
    /* The generation the budget ended in counts when it ran its rounds;
     * then every closed generation is judged, however fine or coarse. */
    if (m->rounds - m->gen_start >= ORTKIT__MEASURE_GEN_ROUNDS && still_timed(m) >= 2 &&
        close_generation(m))
        return ORTKIT_E_NOMEM;
    if (still_timed(m) >= 2 && judge_all(m, 1))
        return ORTKIT_E_NOMEM;
    for (size_t i = 0; i < m->ctx.count; i++) {
        cand *c = &m->c[i];
        ortkit__measured_cand *r = &rec->cand[i];
        r->runs = c->n_lat;
        r->disturbed = c->disturbed;
        r->p50 = c->n_lat ? ortkit__measure_median(c->lat, c->n_lat) : 0;
        r->rounds = 0;
        r->p50_low = r->p50_high = 0;
        for (size_t k = 0; k < m->rounds && k < c->cap_rounds; k++) {
            double p = c->round_p50[k];
            if (isnan(p))
                continue;
            r->p50_low = r->rounds && r->p50_low < p ? r->p50_low : p;
            r->p50_high = r->rounds && r->p50_high > p ? r->p50_high : p;
            r->rounds++;
        }
    }
    /* Those alike are in the running with those still timed. */
    size_t best = fastest(m), dropped = 0;
    for (size_t i = 0; i < m->ctx.count; i++) {
        dropped += rec->cand[i].state == ORTKIT__MEASURED_SLOWER;
        if (rec->cand[i].state == ORTKIT__MEASURED_TIED)
            m->c[i].timing = 1;
    }
    size_t left = still_timed(m);
    rec->rounds = m->rounds;
    rec->seconds = seconds;
    rec->when = (int64_t)time(NULL);
    if (left == 0) {
        snprintf(rec->outcome, sizeof rec->outcome, "none");
    } else if (left == 1) {
        size_t only = ORTKIT_BUNDLE_NONE;
        for (size_t i = 0; i < m->ctx.count; i++)
            if (m->c[i].timing)
                only = i;
        ortkit__measured_cand *r = &rec->cand[only];
        r->state = ORTKIT__MEASURED_FASTEST;
        snprintf(rec->chosen, sizeof rec->chosen, "%s", r->name);
        snprintf(rec->outcome, sizeof rec->outcome, "%s", dropped ? "clear" : "single");
        if (!dropped)
            snprintf(r->note, sizeof r->note, "chosen untimed: every other candidate answers "
                     "differently or failed");
    } else {
        /* Not told apart: the declared order chooses among those left. */
        size_t first = ORTKIT_BUNDLE_NONE;
        for (size_t i = 0; i < m->ctx.count; i++) {
            if (!m->c[i].timing)
                continue;
            if (first == ORTKIT_BUNDLE_NONE)
                first = i;
            ortkit__measured_cand *r = &rec->cand[i];
            int alike = r->state == ORTKIT__MEASURED_TIED; /* its note says how alike */
            r->state = ORTKIT__MEASURED_TIED;
            if (i == best) {
                snprintf(r->note, sizeof r->note, "the lowest p50 of those not told apart");
            } else if (!alike && best != ORTKIT_BUNDLE_NONE) {
                tied_note(m, best, i);
            }
        }
        snprintf(rec->chosen, sizeof rec->chosen, "%s", rec->cand[first].name);
        snprintf(rec->outcome, sizeof rec->outcome, "tied");
    }
    pair_with_choice(m);
    for (size_t i = 0; i < m->ctx.count; i++)
        m->c[i].timing = 0;
    m->finished = 1;
    m->known = 1;
    publish(m);
    return ORTKIT_OK;
}

int ortkit_measure_remember(const ortkit_measure *m)
{
    if (!m || !m->finished || m->recalled)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_measure_remember: nothing was measured");
    if (m->runtimes)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_measure_remember: runtimes measured "
                                 "side by side are not remembered (only bundles are chosen)");
    return ortkit__measured_store(&m->rec, &m->ctx);
}

/* ---- runs, and runtimes as candidates ------------------------------------------------- */

double ortkit_measure_figure(const ortkit_measure_sample *s)
{
    return s ? s->cpu_s : NAN;
}

int ortkit_measure_disturbed(const ortkit_measure_sample *s, int threads, char *why, size_t size)
{
    char none[8];
    if (!why || !size) {
        why = none;
        size = sizeof none;
    }
    why[0] = '\0';
    if (!s)
        return 0;
    /* Stolen time and waiting first: a run that shows either was not the
     * work alone, however often it was switched. */
    if (s->steal_s > 0) {
        snprintf(why, size, "the host stole %.0f ms from the virtual machine", 1e3 * s->steal_s);
        return ORTKIT_MEASURE_STOLEN;
    }
    /* At one thread the run is the caller's thread alone: wall time far
     * above CPU time is time it waited for a core (or for the disk). */
    if (threads == 1 && s->wall_s > ORTKIT_MEASURE_WAIT_LIMIT * s->cpu_s + 0.2e-3) {
        snprintf(why, size, "wall time %.2f ms against %.2f ms of CPU time", 1e3 * s->wall_s,
                 1e3 * s->cpu_s);
        return ORTKIT_MEASURE_WAITED;
    }
    /* Each time a thread loses its core, the caches it refills on return
     * add CPU time that is not its work: a few are noise, many are not. */
    int n = threads > 0 ? threads : 1;
    double allowed = n + s->cpu_s / ORTKIT_MEASURE_SWITCH_EVERY;
    if (s->involuntary > allowed) {
        snprintf(why, size, "descheduled %.0f times in %.2f ms of CPU time (at most %.0f counted)",
                 s->involuntary, 1e3 * s->cpu_s, floor(allowed));
        return ORTKIT_MEASURE_SWITCHED;
    }
    return 0;
}

int ortkit_measure_method(ortkit_measure *m, const char *method)
{
    if (!m || !method)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_measure_method: bad argument");
    snprintf(m->method, sizeof m->method, "%s", method);
    snprintf(m->rec.method, sizeof m->rec.method, "%s", method);
    return ORTKIT_OK;
}

int ortkit_measure_skipped(ortkit_measure *m, size_t i, size_t runs)
{
    int rc = check_index(m, i, "ortkit_measure_skipped");
    if (!rc)
        m->c[i].disturbed += runs;
    return rc;
}

double ortkit_measure_resolution(const ortkit_measure *m)
{
    if (!m || !m->known)
        return 0;
    return m->rec.resolution > 0 ? m->rec.resolution : m->rec.rounds ? INFINITY : 0;
}

int ortkit_measure_open_runtimes(ortkit_measure **out, const char *const *labels, size_t count,
                                 const char *model, int threads)
{
    if (!out)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_measure_open_runtimes: out is NULL");
    *out = NULL;
    if (!labels || !model || count < 2 || count > ORTKIT__MEASURED_MAX || threads < 0)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_measure_open_runtimes: bad argument");
    ortkit_measure *m = calloc(1, sizeof *m);
    if (!m)
        return ortkit__error_nomem();
    snprintf(m->ctx.model, sizeof m->ctx.model, "%s", ortkit__path_last(model));
    m->ctx.threads = threads;
    m->ctx.count = count;
    for (size_t i = 0; i < count; i++) {
        m->ctx.index[i] = i;
        snprintf(m->ctx.names[i], sizeof m->ctx.names[i], "%s", labels[i] ? labels[i] : "");
    }
    m->runtimes = 1;
    fresh_record(m);
    publish(m);
    *out = m;
    return ORTKIT_OK;
}
