/* fuzz_repo_signature.c - minisign signature and public key files on
 * arbitrary bytes: no crash; an accepted signature is checked against a
 * fixed key and message without crashing, and never verifies by chance. */
#include "fuzz_verdict.h"
#include "repo.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int ortkit_fuzz_expect;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ortkit__signature sig;
    ortkit__pubkey pk;
    int rc = ortkit__signature_parse(&sig, (const char *)data, size);
    int pk_rc = ortkit__pubkey_parse(&pk, (const char *)data, size);
    fuzz_verdict(rc == 0 || pk_rc == 0);
    if ((rc && (rc != ORTKIT_E_FORMAT && rc != ORTKIT_E_UNSUPPORTED)) ||
        (pk_rc && pk_rc != ORTKIT_E_FORMAT && pk_rc != ORTKIT_E_UNSUPPORTED))
        abort();
    if (rc == 0) {
        memset(&pk, 0x5a, sizeof pk);
        memcpy(pk.id, sig.id, sizeof pk.id);
        if (strlen(sig.trusted_comment) >= sizeof sig.trusted_comment ||
            ortkit__verify(&sig, &pk, "message", 7, "fuzz") == 0)
            abort();
    }
    return 0;
}
