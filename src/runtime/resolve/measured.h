/*
 * measured.h - what choosing by measurement remembers (`ortkit bundle choose
 * --measure`, docs/BUNDLES.md "Choosing by measurement"): for one host, one
 * model, its input sizes, its thread setting and one set of candidate
 * bundles, which candidate ran the model fastest with outputs that agree
 * with the others', and every candidate's figures.
 *
 * The runtime's search reads it (resolve.c) when the caller names the
 * model it will run; the tools wing (src/tools/measure) measures and writes
 * it.  The runtime never measures and never starts a process for it.
 *
 * One entry is one file, $XDG_CACHE_HOME/ortkit/measured/KEY.json, where KEY
 * is the SHA-256 of every part the result depends on: the host (CPU vendor,
 * model, counts and features, each GPU, the driver), the model file's
 * SHA-256, the input sizes (canonical: every input's shape, resolved from
 * the model's declared dimensions), the thread setting, and each candidate's
 * name and manifest SHA-256.  Changing any part names another file, so an
 * entry is never stale, only unused.  The directory is the user's alone
 * (0700, refused otherwise); an entry must belong to the user and be
 * writable by no one else, is read strictly (unknown keys, wrong types,
 * another key inside, candidates that are not the key's: refused), and is
 * written to a unique temporary name and renamed into place.
 */
#ifndef ORTKIT_MEASURED_H
#define ORTKIT_MEASURED_H

#include "bundle.h"

#include <limits.h>
#include <stdint.h>

#define ORTKIT__MEASURED_FORMAT 1
/* The most candidates one measurement times: the first in the declared order. */
#define ORTKIT__MEASURED_MAX 16
#define ORTKIT__MEASURED_SHAPES_MAX 2048
#define ORTKIT__MEASURED_NOTE_MAX 400
#define ORTKIT__MEASURED_ACCOUNT_MAX 1024

/* A candidate's state; the same values as ortkit_measure_state
 * (<ortkit/tools/measure.h>). */
enum {
    ORTKIT__MEASURED_PENDING = 0, /* not judged yet */
    ORTKIT__MEASURED_FASTEST = 1, /* clearly the fastest of those that agree */
    ORTKIT__MEASURED_SLOWER = 2,  /* clearly slower than the fastest */
    ORTKIT__MEASURED_TIED = 3,    /* not told apart from the fastest within the budget */
    ORTKIT__MEASURED_DIFFERS = 4, /* its outputs differ from the others': never chosen */
    ORTKIT__MEASURED_FAILED = 5,  /* it could not load or run the model */
    ORTKIT__MEASURED_STATES = 6
};

/* "pending", "fastest", "slower", "tied", "differs", "failed". */
const char *ortkit__measured_state_name(int state);

/* What one measurement found: the record an entry holds. */
typedef struct ortkit__measured_cand {
    char name[BUNDLE_NAME_MAX + 1];
    char manifest_sha256[65];
    int state;
    double p50;               /* seconds: the median of all its timed runs; 0 when untimed */
    double p50_low, p50_high; /* the lowest and highest median of one round */
    uint64_t runs, rounds;
    /* Against the choice, in the rounds both ran (the figures comparable
     * with each other: the load then fell on both): its rounds' median and
     * the choice's, the median of their ratios per round, and how many
     * rounds.  The choice itself: its own, ratio 1.  0 when none. */
    double pair_p50, pair_chosen_p50, pair_ratio;
    uint64_t pair_rounds;
    double pair_resolution;   /* the smallest difference the pair's rounds tell apart; 0: none */
    uint64_t disturbed;       /* runs not counted: descheduled */
    char note[ORTKIT__MEASURED_NOTE_MAX]; /* why: the outputs that differ, the failure */
} ortkit__measured_cand;

typedef struct ortkit__measured {
    char key[65];
    char model[256];          /* the model file's name (no directory), for the account */
    char model_sha256[65];
    char shapes[ORTKIT__MEASURED_SHAPES_MAX];
    int threads;
    char host[512];           /* the host, for people */
    int64_t when;             /* when it was measured, seconds since the epoch */
    double seconds;           /* what the measurement took, set-up included */
    uint64_t rounds;
    double resolution;        /* the smallest difference told apart (0.012: 1.2%); 0: none */
    char method[256];         /* how runs were timed: "CPU time, all threads; counters: ..." */
    /* "clear": one was clearly the fastest; "tied": the budget ran out
     * before the fastest were told apart (the declared order decides among
     * them); "single": only one candidate agreed or ran, chosen untimed;
     * "none": none could be timed (nothing is chosen). */
    char outcome[16];
    char chosen[BUNDLE_NAME_MAX + 1];   /* "" when outcome is "none" */
    char declared[BUNDLE_NAME_MAX + 1]; /* the declared order's choice among the candidates */
    size_t count;
    ortkit__measured_cand cand[ORTKIT__MEASURED_MAX]; /* in the declared order */
} ortkit__measured;

/* Everything an entry is looked up by, worked out before anything is read
 * or measured. */
typedef struct ortkit__measured_ctx {
    /* The candidates: the fitting bundles of the declared order (pinned
     * ones only, under a pin) that are not GPU builds running their GPU, at
     * most ORTKIT__MEASURED_MAX, in the declared order; index into the
     * caller's bundles.  count 0: nothing to choose among (why says so). */
    size_t count;
    size_t index[ORTKIT__MEASURED_MAX];
    char names[ORTKIT__MEASURED_MAX][BUNDLE_NAME_MAX + 1];
    char digests[ORTKIT__MEASURED_MAX][65]; /* each manifest's SHA-256 */
    char why[256];
    char model[256];
    char model_sha256[65];
    char shapes[ORTKIT__MEASURED_SHAPES_MAX];
    int threads;
    char host[512];
    char key[65];             /* "" when count is 0 */
    char path[PATH_MAX];      /* the entry's file; "" when there is no cache directory */
} ortkit__measured_ctx;

/*
 * Work out the candidates and the key for model (a file), shapes (the
 * caller's sizes: "SYMBOL=SIZE" and "INPUT=[D0,D1]" separated by commas;
 * NULL: none) and threads (0: ONNX Runtime's default), among bundles as
 * choice (ortkit_bundle_select's answer for host) ranks them.  The model is
 * read only when there are two candidates or more.  ORTKIT_E_INVALID_ARG
 * for shapes that do not parse or contradict the model, ORTKIT_E_IO /
 * ORTKIT_E_MODEL when the model cannot be read; recorded.
 */
int ortkit__measured_prepare(ortkit__measured_ctx *ctx, const ortkit_host *host,
                             const ortkit_bundle *const *bundles, size_t count,
                             const ortkit_bundle_choice *choice, const char *model,
                             const char *shapes, int threads, unsigned flags);
/* prepare's flag: when the memory holds no entry at all, leave the model
 * unread and the key "" (nothing can be recalled).  The model's digest is
 * also kept by the file's identity in the memory's models/, so an
 * unchanged model is hashed once. */
#define ORTKIT__MEASURED_LAZY 1u

/* The canonical sizes of a model's inputs ("x[1,3,640,640] y[]", "?" for a
 * size nothing gives) from its bytes and the caller's shapes text. */
int ortkit__measured_shapes(char *out, size_t size, const void *model, size_t model_size,
                            const char *label, const char *shapes);

/*
 * The entry for ctx: 0 with *rec filled; 1 when there is none; -1 when one
 * is there but refused (not the user's, writable by others, unreadable,
 * malformed, another key's), why saying so.  Never records an error.
 */
int ortkit__measured_recall(ortkit__measured *rec, const ortkit__measured_ctx *ctx, char *why,
                            size_t why_size);
/* Write rec as ctx's entry (the cache directory made 0700 when missing). */
int ortkit__measured_store(const ortkit__measured *rec, const ortkit__measured_ctx *ctx);
/* The record as the entry's JSON text (malloc'd); and read back, strictly. */
int ortkit__measured_to_json(char **out, const ortkit__measured *rec);
int ortkit__measured_from_json(ortkit__measured *rec, const char *json, size_t size,
                               const char *what);

/* What the record says, for the search's account: "measured: X ran MODEL in
 * p50 A against B for Y", or why the declared order stands. */
void ortkit__measured_account(char *out, size_t size, const ortkit__measured *rec);
/* The record's candidate named name, or NULL. */
const ortkit__measured_cand *ortkit__measured_find(const ortkit__measured *rec, const char *name);

/* The search's use: *index (into bundles) the bundle the remembered
 * measurement chose, or ORTKIT_BUNDLE_NONE when the declared order stands;
 * account says which and why ("not measured for this model", ...).
 * Never fails the search: any trouble only leaves the declared order. */
void ortkit__measured_lookup(size_t *index, char *account, size_t account_size,
                             const ortkit_host *host, const ortkit_bundle *const *bundles,
                             size_t count, const ortkit_bundle_choice *choice, const char *model,
                             const char *shapes, int threads);

#endif
