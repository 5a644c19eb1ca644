/*
 * load_check.c - load a library in a child process: a library that crashes
 * while it loads (or that hangs its constructors) takes the child down, not
 * the command that asked.  The child is this program run as `ortkit bundle
 * probe LIBRARY` (cmd_bundle_probe.c), which loads it the way a runtime
 * open does and prints its version and providers as JSON.
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
    const char *const argv[] = {"/proc/self/exe", "bundle", "probe", library, NULL};
    char *out = NULL;
    int status = -1;
    if (ortkit__spawn(argv, 1, &out, &status) != 0) {
        snprintf(why, why_size, "cannot run ortkit again to load it: %s", ortkit__error_message());
        free(out);
        return -1;
    }
    cJSON *o = status == 0 && out ? cJSON_Parse(out) : NULL;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "version");
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(o, "providers");
    if (!cJSON_IsString(v) || !cJSON_IsArray(list)) {
        /* The child's last line is its message; a signal is how it died. */
        char *text = out ? out : "";
        size_t len = strlen(text);
        while (len && text[len - 1] == '\n')
            text[--len] = '\0';
        const char *last = strrchr(text, '\n') ? strrchr(text, '\n') + 1 : text;
        if (status > 128)
            snprintf(why, why_size, "loading it killed the process that tried (signal %d)%s%.300s",
                     status - 128, last[0] ? ": " : "", last);
        else
            snprintf(why, why_size, "%.400s", last[0] ? last : "loading it failed");
        cJSON_Delete(o);
        free(out);
        return -1;
    }
    size_t n = (size_t)cJSON_GetArraySize(list);
    *version = strdup(v->valuestring);
    *providers = calloc(n + 1, sizeof **providers);
    for (const cJSON *p = list->child; *providers && p; p = p->next)
        if (cJSON_IsString(p) && ((*providers)[*count] = strdup(p->valuestring)))
            (*count)++;
    cJSON_Delete(o);
    free(out);
    if (!*version || !*providers) {
        load_check_free(*version, *providers, *count);
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    return 0;
}
