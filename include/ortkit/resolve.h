/*
 * ortkit/resolve.h - which library ortkit_runtime_open() loads, and why.
 * Part of the stable API; include <ortkit.h>.
 */
#ifndef ORTKIT_INCLUDE_RESOLVE_H
#define ORTKIT_INCLUDE_RESOLVE_H

#include "ortkit/common.h"
#include "ortkit/runtime.h"
#include "ortkit/host.h"
#include "ortkit/bundle.h"
#include "ortkit/select.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Resolving: which library ortkit_runtime_open() loads, and why
 *
 * Opening a runtime is two steps: resolve (decide which file, from the
 * options, the environment, the bundles and the usual places; nothing is
 * loaded) and load (dlopen that file and hand-shake with it).
 * ortkit_runtime_open() does both; a program that wants to show or check
 * the decision first resolves, then calls ortkit_runtime_open_resolved().
 * ---------------------------------------------------------------------- */

typedef enum ortkit_resolve_verdict {
    ORTKIT_RESOLVE_SKIPPED = 0,     /* nothing to look at here (a variable unset) */
    ORTKIT_RESOLVE_PASSED = 1,      /* looked at, nothing usable: the search went on */
    ORTKIT_RESOLVE_TAKEN = 2,       /* the library to load */
    ORTKIT_RESOLVE_FAILED = 3,      /* an explicit choice that cannot be met: no library */
    ORTKIT_RESOLVE_NOT_REACHED = 4  /* after the place that decided (looked at only to explain) */
} ortkit_resolve_verdict;

/* "skipped", "passed", "taken", "failed", "not reached". */
ORTKIT_API const char *ortkit_resolve_verdict_name(ortkit_resolve_verdict verdict);

/* One place of the search. */
typedef struct ortkit_resolve_step {
    /* "options", "ORTKIT_RUNTIME", "bundles", "default", "ONNXRUNTIME_DIR",
     * "pkg-config", "system" */
    const char *source;
    const char *where;   /* the value looked at (a path, a pin, a package); "" */
    ortkit_resolve_verdict verdict;
    const char *detail;  /* what was found there, or why it was passed over */
} ortkit_resolve_step;

typedef struct ortkit_resolution ortkit_resolution;

/* Flags of ortkit_runtime_resolve(). */
#define ORTKIT_RESOLVE_EXPLAIN 1u /* look at every place, even past the one that decides */

/*
 * Decide which library ortkit_runtime_open(opts) would load (opts' api_base,
 * with which it loads none, is not looked at).  host (NULL:
 * this machine, detected only if bundles are found) is the machine bundles
 * are judged for; the caller's host must outlive the resolution.  Returns 0 when *out holds an account, whether or not a
 * library was found (see ortkit_resolution_status); negative only on bad
 * arguments, out of memory, or a bundle directory that cannot be listed.
 */
ORTKIT_API int ortkit_runtime_resolve(ortkit_resolution **out, const ortkit_runtime_options *opts,
                                      const ortkit_host *host, unsigned flags);
ORTKIT_API void ortkit_resolution_free(ortkit_resolution *res);
/* ORTKIT_OK when a library was found, else the code ortkit_runtime_open() fails with ... */
ORTKIT_API int ortkit_resolution_status(const ortkit_resolution *res);
/* ... and its message ("" when found). */
ORTKIT_API const char *ortkit_resolution_error(const ortkit_resolution *res);
/* The library's absolute path ("" when none was found): the "system" step too
 * names the file the dynamic loader would load, found as ld.so finds it. */
ORTKIT_API const char *ortkit_resolution_path(const ortkit_resolution *res);
/* Where it came from, as ortkit_runtime_source() will say. */
ORTKIT_API const char *ortkit_resolution_source(const ortkit_resolution *res);
/* Every place looked at, in search order. */
ORTKIT_API size_t ortkit_resolution_step_count(const ortkit_resolution *res);
ORTKIT_API const ortkit_resolve_step *ortkit_resolution_step(const ortkit_resolution *res, size_t i);
/* The bundle pin in force (the options' bundle, else ORTKIT_BUNDLE), or NULL;
 * *from (may be NULL) says which: "the options", "ORTKIT_BUNDLE". */
ORTKIT_API const char *ortkit_resolution_pin(const ortkit_resolution *res, const char **from);
/* The bundles found, when the search looked at them (else NULL) ... */
ORTKIT_API const ortkit_bundle_list *ortkit_resolution_bundles(const ortkit_resolution *res);
/* ... the host they were judged for (the caller's, or the one detected;
 * NULL when there were none to judge) ... */
ORTKIT_API const ortkit_host *ortkit_resolution_host(const ortkit_resolution *res);
/* ... and what selection made of them: the choice, with a verdict for each
 * bundle of that list (ortkit_bundle_choice_verdict); NULL when no bundle
 * was judged. */
ORTKIT_API const ortkit_bundle_choice *ortkit_resolution_choice(const ortkit_resolution *res);

/* The bundle whose library a resolution took (verified when it was
 * resolved), or NULL when the library comes from elsewhere. */
ORTKIT_API const ortkit_bundle *ortkit_resolution_bundle(const ortkit_resolution *res);

/* What choosing by measurement said, when the options named a model and
 * the bundles were chosen among: "measured: X ran MODEL in p50 A against B
 * for Y" when a measurement remembered for this host, model, sizes,
 * threads and bundles chose the bundle taken; otherwise why the declared
 * order stands ("not measured for this model", "not measured: X is the
 * only bundle to choose from", ...).  "" when no model was named or no
 * bundle was chosen among.  Remembered by `ortkit bundle choose --model
 * MODEL --measure` (docs/BUNDLES.md). */
ORTKIT_API const char *ortkit_resolution_measured(const ortkit_resolution *res);

/* Load the library a resolution found (fails as ortkit_runtime_open() when it
 * found none).  opts gives the logging settings; its path and bundle are not
 * used, and its api_base must be NULL (a runtime linked into the program is
 * opened with ortkit_runtime_open()). */
ORTKIT_API int ortkit_runtime_open_resolved(ortkit_runtime **out, const ortkit_resolution *res,
                                            const ortkit_runtime_options *opts);

#ifdef __cplusplus
}
#endif

#endif /* ORTKIT_INCLUDE_RESOLVE_H */
