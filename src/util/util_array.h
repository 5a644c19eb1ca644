/* util_array.h - growing arrays (array.c). */
#ifndef ORTKIT_UTIL_ARRAY_H
#define ORTKIT_UTIL_ARRAY_H

#include "util_base.h"

/* Room for need elements of size bytes in *items (a T ** passed as void *:
 * &list->v), *cap counting what is allocated: doubled from first until it
 * fits.  ORTKIT_E_NOMEM leaves the array as it was. */
int ortkit__array_reserve(void *items, size_t *cap, size_t need, size_t size, size_t first)
    ORTKIT_MUST_CHECK;

#endif
