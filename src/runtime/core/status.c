/*
 * status.c - the library's last error as the public API gives it, the
 * names of its codes, and its version.  The message itself is kept by
 * src/util/error.c, which every module records failures through.
 */
#include "core.h"

const char *ortkit_error_last(void) { return ortkit__error_message(); }

int ortkit_error_code(void) { return ortkit__error_code(); }

const char *ortkit_version(void) { return ORTKIT_VERSION_STRING; }

const char *ortkit_status_name(int code)
{
    static const char *const names[] = {
        "ORTKIT_OK", "ORTKIT_E_INVALID_ARG", "ORTKIT_E_NOMEM", "ORTKIT_E_IO",
        "ORTKIT_E_RUNTIME_NOT_FOUND", "ORTKIT_E_RUNTIME_INVALID", "ORTKIT_E_RUNTIME_TOO_OLD",
        "ORTKIT_E_MODEL", "ORTKIT_E_PROVIDER", "ORTKIT_E_SHAPE", "ORTKIT_E_NAME", "ORTKIT_E_RUN",
        "ORTKIT_E_CANCELLED", "ORTKIT_E_FORMAT", "ORTKIT_E_UNSUPPORTED", "ORTKIT_E_ORT",
    };
    if (code > 0 || -code >= (int)(sizeof names / sizeof names[0]))
        return "ORTKIT_E_UNKNOWN";
    return names[-code];
}
