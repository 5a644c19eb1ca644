/* util_base.h - what every part of src/util shares: the attributes, sizes
 * and includes its declarations use (util.h includes every part). */
#ifndef ORTKIT_UTIL_BASE_H
#define ORTKIT_UTIL_BASE_H

#include "ortkit.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct stat;

#if defined(__GNUC__)
#define ORTKIT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define ORTKIT_MUST_CHECK __attribute__((warn_unused_result))
#else
#define ORTKIT_PRINTF(f, a)
#define ORTKIT_MUST_CHECK
#endif

#define ORTKIT__KiB ((uint64_t)1024)
#define ORTKIT__MiB (ORTKIT__KiB * 1024)
#define ORTKIT__GiB (ORTKIT__MiB * 1024)

#endif
