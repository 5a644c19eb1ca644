/*
 * abi.c - what crosses the library's boundary: versioned structs, read and
 * written only within the caller's version's bytes (abi.h), and memory
 * handed to the caller, which comes back here to be freed.
 */
#include "abi.h"
#include "core.h"

#include <stdlib.h>
#include <string.h>

void ortkit_free(void *ptr)
{
    free(ptr);
}

int ortkit__abi_check(const ortkit__abi_struct *s, unsigned version)
{
    if (version >= 1 && version <= s->current)
        return ORTKIT_OK;
    if (s->current == 1)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "%s version %u: this ortkit knows version 1; "
                                 "use %s", s->what, version, s->init);
    return ortkit__error_set(ORTKIT_E_INVALID_ARG, "%s version %u: this ortkit knows versions 1 to "
                             "%u; use %s", s->what, version, s->current, s->init);
}

/* The caller's struct's version, *v, checked: where its bytes end, or 0
 * (the error set) for a version this library does not know. */
static size_t caller_end(const ortkit__abi_struct *s, const void *caller, unsigned *v)
{
    memcpy(v, caller, sizeof *v);
    return ortkit__abi_check(s, *v) ? 0 : s->ends[*v - 1];
}

int ortkit__abi_read(const ortkit__abi_struct *s, void *full, const void *caller)
{
    unsigned v;
    size_t end = caller_end(s, caller, &v);
    if (!end)
        return ORTKIT_E_INVALID_ARG;
    memcpy(full, caller, end);
    memcpy(full, &s->current, sizeof s->current);
    return ORTKIT_OK;
}

int ortkit__abi_write(const ortkit__abi_struct *s, void *caller, const void *full)
{
    unsigned v;
    size_t end = caller_end(s, caller, &v);
    if (!end)
        return ORTKIT_E_INVALID_ARG;
    memcpy((char *)caller + sizeof v, (const char *)full + sizeof v, end - sizeof v);
    return ORTKIT_OK;
}
