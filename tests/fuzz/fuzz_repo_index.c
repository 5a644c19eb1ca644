/* fuzz_repo_index.c - a repository's index.json on arbitrary bytes: no
 * crash, no leak; what is accepted is written back and read back the same. */
#include "fuzz_verdict.h"
#include "repo.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int ortkit_fuzz_expect;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ortkit__repo_index idx, again;
    int rc = ortkit__index_parse(&idx, (const char *)data, size, "index");
    fuzz_verdict(rc == 0);
    if (rc) {
        if ((rc != ORTKIT_E_FORMAT && rc != ORTKIT_E_UNSUPPORTED && rc != ORTKIT_E_NOMEM) ||
            idx.entries || !ortkit_error_last()[0])
            abort();
        return 0;
    }
    char *json = NULL, *json2 = NULL;
    if (ortkit__index_to_json(&json, &idx) || ortkit__index_parse(&again, json, strlen(json), "again") ||
        ortkit__index_to_json(&json2, &again) || strcmp(json, json2))
        abort();
    free(json);
    free(json2);
    ortkit__index_free(&again);
    ortkit__index_free(&idx);
    return 0;
}
