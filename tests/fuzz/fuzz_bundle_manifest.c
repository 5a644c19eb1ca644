/* fuzz_bundle_manifest.c - manifest.json reading on arbitrary bytes: no
 * crash, no leak; what is accepted is written back and read back the same. */
#include "bundle.h"
#include "fuzz_verdict.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int ortkit_fuzz_expect;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ortkit_bundle *b = NULL, *again = NULL;
    int rc = ortkit_bundle_parse(&b, (const char *)data, size);
    fuzz_verdict(rc == 0);
    if (rc) {
        if ((rc != ORTKIT_E_FORMAT && rc != ORTKIT_E_NOMEM) || b || !ortkit_error_last()[0])
            abort();
        return 0;
    }
    /* The writer's output passes the strict reader and writes the same text. */
    char *json = NULL, *json2 = NULL;
    if (ortkit__bundle_to_json(&json, ortkit_bundle_manifest(b)) ||
        ortkit_bundle_parse(&again, json, strlen(json)) ||
        ortkit__bundle_to_json(&json2, ortkit_bundle_manifest(again)) || strcmp(json, json2))
        abort();
    free(json);
    free(json2);
    ortkit_bundle_free(again);
    ortkit_bundle_free(b);
    return 0;
}
