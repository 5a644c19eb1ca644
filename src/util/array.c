/* array.c - room in a growing array: one rule (double it, from a first
 * size) instead of a realloc written out at every list. */
#include "util.h"

#include <stdlib.h>
#include <string.h>

int ortkit__array_reserve(void *items, size_t *cap, size_t need, size_t size, size_t first)
{
    if (need <= *cap)
        return ORTKIT_OK;
    size_t grown = *cap ? *cap : first;
    while (grown < need)
        grown *= 2;
    if (grown > SIZE_MAX / size)
        return ortkit__error_nomem();
    void *old, *p;
    memcpy(&old, items, sizeof old); /* items points at the caller's T * */
    if (!(p = realloc(old, grown * size)))
        return ortkit__error_nomem();
    memcpy(items, &p, sizeof p);
    *cap = grown;
    return ORTKIT_OK;
}
