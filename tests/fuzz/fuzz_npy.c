/* fuzz_npy.c - .npy parsing on arbitrary bytes: no crash, no leak, and sane results. */
#include "core.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Keeps the reads of the tensor's memory from being optimised away. */
static volatile unsigned sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ortkit_tensor *t = NULL;
    int rc = ortkit_npy_parse(&t, data, size);
    if (rc) {
        /* Bad input must be reported as such, with a message, and leave nothing behind. */
        if ((rc != ORTKIT_E_FORMAT && rc != ORTKIT_E_UNSUPPORTED && rc != ORTKIT_E_NOMEM) || t ||
            !ortkit_error_last()[0])
            abort();
        return 0;
    }
    /* A parsed tensor is consistent and its memory all readable. */
    size_t count = ortkit_tensor_count(t), rank = ortkit_tensor_rank(t);
    if (rank > ORTKIT_MAX_RANK || count != ortkit__shape_count(ortkit_tensor_shape(t), rank))
        abort();
    unsigned sum = 0;
    if (ortkit_tensor_type(t) == ORTKIT_TYPE_STRING) {
        for (size_t i = 0; i < count; i++)
            sum += (unsigned)strlen(ortkit_tensor_string(t, i));
    } else {
        size_t nbytes = ortkit_tensor_nbytes(t);
        if (nbytes != ortkit__type_nbytes(ortkit_tensor_type(t), count) || nbytes > size)
            abort();
        const unsigned char *d = ortkit_tensor_data(t);
        for (size_t i = 0; i < nbytes; i++)
            sum += d[i];
    }
    char desc[256];
    ortkit_tensor_describe(t, desc, sizeof desc);
    sink = sum + (unsigned)strlen(desc);
    ortkit_tensor_free(t);
    return 0;
}
