/*
 * variant_worth.h - what was measured of one CPU variant's build against
 * another's, for `ortkit variants` and the selection account of `bundle
 * choose` and `doctor`: words for people, kept with the tool, not the
 * library (the library ranks; it claims no gain).
 */
#ifndef ORTKIT_CLI_VARIANT_WORTH_H
#define ORTKIT_CLI_VARIANT_WORTH_H

/*
 * By variant name ("cpu-avx2" over "cpu-x86-64"; "cpu" is a generic build
 * such as Microsoft's): a phrase such as "measured 0.85-1.13 p50 on 7
 * models (...): no consistent gain", or NULL when the pair was never
 * measured, so that no gain is ever claimed that was not.  The figures and
 * commands are in docs/PERFORMANCE.md.
 */
const char *variant_worth(const char *higher, const char *lower);

#endif
