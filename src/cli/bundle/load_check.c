/*
 * load_check.c - load a library in a child process: a library that crashes
 * while it loads (or that hangs its constructors) takes the child down, not
 * the command that asked.  The child is ortkit-probe (src/probe), the one
 * program that loads a runtime to see whether it can, which loads it the way
 * a runtime open does and says its version and providers (src/util/probe.c
 * reads them).
 */
#include "load_check.h"

#include <stdlib.h>
#include <string.h>

void load_check_free(char *version, char **providers, size_t count)
{
    free(version);
    for (size_t i = 0; providers && i < count; i++)
        free(providers[i]);
    free(providers);
}

int load_check_run(const char *library, char **version, char ***providers, size_t *count,
                   char *why, size_t why_size)
{
    *version = NULL;
    *providers = NULL;
    *count = 0;
    ortkit__probe_answer a;
    int rc = ortkit__probe_load(&a, library, 0);
    if (rc) {
        /* What the probe said the load failed with, as the tool says it. */
        if (rc == ORTKIT_E_RUNTIME_INVALID)
            snprintf(why, why_size, "ortkit: %.400s", a.message);
        else
            snprintf(why, why_size, "%.400s", ortkit_error_last());
        ortkit__probe_answer_free(&a);
        return -1;
    }
    size_t n = a.providers.n;
    *version = strdup(a.version);
    *providers = calloc(n + 1, sizeof **providers);
    for (size_t i = 0; *providers && i < n; i++)
        if (((*providers)[*count] = strdup(a.providers.v[i])))
            (*count)++;
    ortkit__probe_answer_free(&a);
    if (!*version || !*providers) {
        load_check_free(*version, *providers, *count);
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    return 0;
}
