/* fuzz_measured.c - the measured-choice entry reader (src/runtime/resolve/
 * measured.c) on arbitrary bytes: no crash, no leak, no read past the
 * input (it is read by length, not as a C string); what is accepted is
 * written back, read back the same, and its account is said. */
#include "measured.h"
#include "fuzz_verdict.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int ortkit_fuzz_expect;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* An exact-size copy without a NUL: reading past it trips ASan. */
    char *text = malloc(size ? size : 1);
    static ortkit__measured rec, again;
    if (!text)
        return 0;
    memcpy(text, data, size);
    int rc = ortkit__measured_from_json(&rec, text, size, "'fuzz'");
    free(text);
    fuzz_verdict(rc == 0);
    if (rc) {
        if (rc != ORTKIT_E_FORMAT || !ortkit__error_message()[0])
            abort();
        return 0;
    }
    /* What was accepted: a choice among its candidates, and the same once written. */
    if (rec.chosen[0] && !ortkit__measured_find(&rec, rec.chosen))
        abort();
    char *json = NULL, *json2 = NULL, account[4096];
    if (ortkit__measured_to_json(&json, &rec) ||
        ortkit__measured_from_json(&again, json, strlen(json), "'fuzz, written'") ||
        ortkit__measured_to_json(&json2, &again) || strcmp(json, json2))
        abort();
    free(json);
    free(json2);
    ortkit__measured_account(account, sizeof account, &rec);
    if (!account[0])
        abort();
    return 0;
}
