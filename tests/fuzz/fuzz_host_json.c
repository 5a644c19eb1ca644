/* fuzz_host_json.c - host JSON reading on arbitrary bytes: no crash, no
 * leak; what is accepted is written back and read back the same. */
#include "ortkit.h"
#include "fuzz_verdict.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int ortkit_fuzz_expect;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The reader takes a C string: an exact-size copy, so reading past it trips ASan. */
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    ortkit_host *host = NULL, *again = NULL;
    int rc = ortkit_host_from_json(&host, text);
    free(text);
    fuzz_verdict(rc == 0);
    if (rc) {
        if ((rc != ORTKIT_E_FORMAT && rc != ORTKIT_E_NOMEM) || !ortkit_error_last()[0])
            abort();
        return 0;
    }
    /* Each library it lists is found by name; one that lists none says nothing. */
    for (size_t i = 0; i < host->library_count; i++)
        if (ortkit_host_has_library(host, host->libraries[i]) != 1)
            abort();
    if (!host->libraries_known &&
        (host->library_count || ortkit_host_has_library(host, "libc.so.6") != -1))
        abort();
    char *json = NULL, *json2 = NULL;
    if (ortkit_host_to_json(host, &json) || ortkit_host_from_json(&again, json) ||
        ortkit_host_to_json(again, &json2) || strcmp(json, json2))
        abort();
    ortkit_free(json);
    ortkit_free(json2);
    ortkit_host_free(host);
    ortkit_host_free(again);
    return 0;
}
