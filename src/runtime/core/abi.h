/*
 * abi.h - versioned structs the caller allocates: options the library reads
 * and results it writes.  Each starts with `unsigned version`; version v of
 * a struct ends where the first field of version v + 1 starts.  A caller
 * built against version 1 has only version 1's bytes, so the library reads
 * and writes no byte past that end, and gives newer options their defaults.
 * Not installed.
 */
#ifndef ORTKIT_ABI_H
#define ORTKIT_ABI_H

#include <stddef.h>

typedef struct ortkit__abi_struct {
    const char *what;    /* "session options", for messages */
    const char *init;    /* "ORTKIT_SESSION_OPTIONS_INIT", for messages */
    unsigned current;    /* the version this library was built with */
    const size_t *ends;  /* ends[v - 1]: where version v ends */
} ortkit__abi_struct;

/*
 * Describe a versioned struct: one end per version, in order.  The first
 * version's end is, once a second exists, offsetof(type, its first field);
 * the current one's is sizeof(type).
 *     ORTKIT__ABI_STRUCT(opts_abi, ortkit_session_options, "session options",
 *                        "ORTKIT_SESSION_OPTIONS_INIT", ORTKIT_SESSION_OPTIONS_VERSION,
 *                        sizeof(ortkit_session_options));
 */
#define ORTKIT__ABI_STRUCT(var, type, what_, init_, current_, ...)                               \
    static const size_t var##_ends[] = {__VA_ARGS__};                                            \
    _Static_assert(sizeof var##_ends / sizeof var##_ends[0] == (current_),                       \
                   #type ": one end per version");                                               \
    _Static_assert(offsetof(type, version) == 0 &&                                               \
                   sizeof(((type *)0)->version) == sizeof(unsigned),                             \
                   #type ": the version comes first");                                           \
    static const ortkit__abi_struct var = {what_, init_, (current_), var##_ends}

/* Is version one this library knows (1 to current)?  ORTKIT_E_INVALID_ARG
 * with a message saying which it knows when not. */
int ortkit__abi_check(const ortkit__abi_struct *s, unsigned version);
/* Read the caller's struct into full (the current layout, holding the
 * defaults): only the bytes of the caller's version are read. */
int ortkit__abi_read(const ortkit__abi_struct *s, void *full, const void *caller);
/* Write full (the current layout) into the caller's struct: only the bytes
 * of the caller's version are written, its version field is kept. */
int ortkit__abi_write(const ortkit__abi_struct *s, void *caller, const void *full);

#endif
