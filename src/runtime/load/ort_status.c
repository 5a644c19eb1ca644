/*
 * ort_status.c - an OrtStatus turned into ortkit's error: the one place ORT's
 * messages are cleaned and the status released, for every module that calls
 * into a runtime.
 */
#include "runtime_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int ortkit__ort_error(const ortkit_runtime *rt, OrtStatus *status, int code, const char *prefix_fmt,
                      ...)
{
    char prefix[512];
    va_list ap;
    va_start(ap, prefix_fmt);
    vsnprintf(prefix, sizeof prefix, prefix_fmt, ap);
    va_end(ap);
    const char *msg = status ? rt->api->GetErrorMessage(status) : "unknown error";
    /* ORT messages often end in a newline or carry its own file:line prefix. */
    char clean[768];
    snprintf(clean, sizeof clean, "%s", msg ? msg : "");
    clean[strcspn(clean, "\r\n")] = '\0';
    ortkit__error_set(code, "%s: %s", prefix, clean);
    if (status)
        rt->api->ReleaseStatus(status);
    return code;
}
