/*
 * error.c - the thread-local last error: a message that names the path, the
 * symbol or the tensor involved, and its code.  The library's
 * ortkit_error_last() and ortkit_error_code() read it.
 */
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ERROR_MAX 1024

static _Thread_local char last_message[ERROR_MAX];
static _Thread_local int last_code;

const char *ortkit__error_message(void) { return last_message; }

int ortkit__error_code(void) { return last_code; }

static void error_vset(int code, const char *fmt, va_list ap, int wrap)
{
    /* Formatted aside first: an argument may be the old message itself. */
    char buf[ERROR_MAX];
    vsnprintf(buf, sizeof buf, fmt, ap);
    if (wrap && last_message[0]) {
        char old[ERROR_MAX];
        memcpy(old, last_message, sizeof old);
        /* Both parts fit in the message; truncation of a long one is fine. */
        size_t n = strnlen(buf, ERROR_MAX - 3);
        memcpy(last_message, buf, n);
        memcpy(last_message + n, ": ", 2);
        size_t room = sizeof last_message - n - 3, m = strnlen(old, room);
        memcpy(last_message + n + 2, old, m);
        last_message[n + 2 + m] = '\0';
    } else {
        memcpy(last_message, buf, sizeof last_message);
    }
    last_code = code;
}

int ortkit__error_set(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_vset(code, fmt, ap, 0);
    va_end(ap);
    return code;
}

int ortkit__error_wrap(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_vset(code, fmt, ap, 1);
    va_end(ap);
    return code;
}

int ortkit__error_nomem(void) { return ortkit__error_set(ORTKIT_E_NOMEM, "out of memory"); }

int ortkit__error_nomem_size(size_t bytes)
{
    char human[32];
    ortkit__human_bytes(human, sizeof human, (double)bytes);
    return ortkit__error_set(ORTKIT_E_NOMEM, "out of memory: cannot allocate %s (%zu bytes)", human,
                             bytes);
}

char *ortkit__strdup(const char *s)
{
    char *copy = strdup(s ? s : "");
    if (!copy)
        ortkit__error_nomem();
    return copy;
}
