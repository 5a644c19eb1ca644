/*
 * ortkit/select.h - which bundle to load on a host, and why.
 *
 * Part of the stable API; programs include <ortkit.h>.
 */
#ifndef ORTKIT_INCLUDE_SELECT_H
#define ORTKIT_INCLUDE_SELECT_H

#include "ortkit/bundle.h"
#include "ortkit/common.h"
#include "ortkit/host.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What selection thinks of one bundle.  The choice's, reached by pointer:
 * later versions may add fields at the end. */
typedef struct ortkit_bundle_verdict {
    int fits;        /* 1: it can run on the host */
    const char *why; /* unfit: exactly why; fit: a caveat or "" */
    /* Added in 0.1: the order (docs/BUNDLES.md).  rank: 1 for the bundle
     * chosen, 2 for the next...; 0 when it does not fit or the pin passed
     * it over. */
    size_t rank;
    /* The step of the order that decided: for one that does not fit, the
     * step it failed ("damaged", "architecture", "loadable", "accelerator",
     * "cpu level", "onnxruntime", "variant", "shadowed"); for one that
     * fits, the step that puts it above the next ("accelerator", "cpu
     * level", "onnxruntime", "name"), "" for the last. */
    const char *step;
    /* Fits: why it comes before the next one ("the newest ONNX Runtime:
     * 1.30.0 (ort-1.17.3-cpu: 1.17.3)"); "" otherwise. */
    const char *order;
} ortkit_bundle_verdict;

#define ORTKIT_BUNDLE_NONE SIZE_MAX

/* The answer of ortkit_bundle_select.  Library-allocated (freed with
 * ortkit_bundle_choice_free), so later versions add fields at the end;
 * a program only reads it. */
typedef struct ortkit_bundle_choice {
    size_t index;       /* the chosen bundle, or ORTKIT_BUNDLE_NONE */
    const char *reason; /* why that one, or why none */
    size_t count;       /* verdicts: one per bundle judged */
} ortkit_bundle_choice;

/*
 * Choose the bundle to load on a host, without touching any file, by one
 * order (docs/BUNDLES.md): architecture, loadable here (C library, C++
 * library, needed libraries), accelerator (a GPU build that runs here
 * first, then the higher GPU target, the newer CUDA), CPU level (a target
 * descending from another first), ONNX Runtime (the newest), name.  The
 * environment's overrides ORTKIT_FORCE_ISA and ORTKIT_IGNORE_NEEDS apply and
 * are named in the verdicts they change.  A bundle of the same name as an
 * earlier one is shadowed.  pin (NULL: none) restricts the choice to the
 * bundle of that name or to that ONNX Runtime version ("1.17.3", "1.17").
 * bundles[i] may be NULL (an unusable manifest).
 *
 * ORTKIT_OK: a bundle was chosen.  ORTKIT_E_RUNTIME_NOT_FOUND when nothing
 * fits or the pin names nothing, ORTKIT_E_UNSUPPORTED when what it names
 * does not fit: *out is set then too, with index ORTKIT_BUNDLE_NONE and the
 * reason.  On any other failure *out is NULL.
 */
ORTKIT_API int ortkit_bundle_select(ortkit_bundle_choice **out, const ortkit_host *host,
                                    const ortkit_bundle *const *bundles, size_t count,
                                    const char *pin);
/* The verdict on bundles[i]; NULL when i is out of range. */
ORTKIT_API const ortkit_bundle_verdict *ortkit_bundle_choice_verdict(
    const ortkit_bundle_choice *choice, size_t i);
ORTKIT_API void ortkit_bundle_choice_free(ortkit_bundle_choice *choice);

#ifdef __cplusplus
}
#endif

#endif /* ORTKIT_INCLUDE_SELECT_H */
