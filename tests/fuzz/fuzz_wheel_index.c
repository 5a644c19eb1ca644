/* fuzz_wheel_index.c - a wheel index's wheels.json on arbitrary bytes (by
 * length: no terminating NUL): no crash, no leak; what is accepted lists
 * files under their own index with a SHA-256, a size and readable facts. */
#include "fuzz_verdict.h"
#include "wheel_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int ortkit_fuzz_expect;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ortkit__wheel_list l;
    int rc = ortkit__wheel_index_parse(&l, (const char *)data, size, "wheels.json");
    fuzz_verdict(rc == 0);
    if (rc) {
        if ((rc != ORTKIT_E_FORMAT && rc != ORTKIT_E_UNSUPPORTED && rc != ORTKIT_E_NOMEM) ||
            l.entries || !ortkit_error_last()[0])
            abort();
        return 0;
    }
    for (size_t i = 0; i < l.count; i++) {
        const ortkit_wheel_entry *e = &l.entries[i];
        size_t k = strlen(e->index_path);
        if (!e->bundle || strlen(e->sha256) != 64 || !e->size || strncmp(e->file, e->index_path, k) ||
            strstr(e->file, ".."))
            abort();
    }
    ortkit__wheel_index_clear(&l);
    return 0;
}
