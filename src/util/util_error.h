/* util_error.h - the last error (error.c). */
#ifndef ORTKIT_UTIL_ERROR_H
#define ORTKIT_UTIL_ERROR_H

#include "util_base.h"

/* Record a failure for this thread; returns code. */
int ortkit__error_set(int code, const char *fmt, ...) ORTKIT_PRINTF(2, 3);
/* Same, prefixing the message already recorded: "cannot open 'm.onnx': <old>". */
int ortkit__error_wrap(int code, const char *fmt, ...) ORTKIT_PRINTF(2, 3);
/* Record ORTKIT_E_NOMEM. */
int ortkit__error_nomem(void);
/* The same for an allocation of a known (large) size, which the message
 * names: "out of memory: cannot allocate 4.0 GiB (4294967296 bytes)". */
int ortkit__error_nomem_size(size_t bytes);
/* The message and code of this thread's last failure ("" and 0 before any). */
const char *ortkit__error_message(void);
int ortkit__error_code(void);

/* strdup (NULL copies as "") that records ORTKIT_E_NOMEM on failure. */
char *ortkit__strdup(const char *s);

#endif
