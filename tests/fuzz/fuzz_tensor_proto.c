/* fuzz_tensor_proto.c - TensorProto / SequenceProto / MapProto / OptionalProto decoding on
 * arbitrary bytes: no crash, no leak, no allocation the input does not pay for. */
#include "core.h"
#include "ortkit/tools/proto.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Keeps the reads of the tensors' memory from being optimised away. */
static volatile unsigned sink;

static unsigned touch(const ortkit_tensor *t, size_t size)
{
    size_t count = ortkit_tensor_count(t), rank = ortkit_tensor_rank(t);
    if (rank > ORTKIT_MAX_RANK || count != ortkit__shape_count(ortkit_tensor_shape(t), rank))
        abort();
    unsigned sum = 0;
    if (ortkit_tensor_type(t) == ORTKIT_TYPE_STRING) {
        for (size_t i = 0; i < count; i++)
            sum += (unsigned)strlen(ortkit_tensor_string(t, i));
        return sum;
    }
    /* Every byte of data was in the input (typed fields widen by at most 8x:
     * a one-byte varint becomes an int64). */
    size_t nbytes = ortkit_tensor_nbytes(t);
    if (nbytes != ortkit__type_nbytes(ortkit_tensor_type(t), count) || nbytes > 8 * size + 8)
        abort();
    const unsigned char *d = ortkit_tensor_data(t);
    for (size_t i = 0; i < nbytes; i++)
        sum += d[i];
    return sum;
}

static unsigned walk(const ortkit_proto_value *v, size_t size, int depth)
{
    if (depth > 64)
        abort();
    unsigned sum = (unsigned)strlen(v->name);
    if (v->kind == ORTKIT_KIND_TENSOR)
        return sum + touch(v->tensor, size);
    if (v->kind == ORTKIT_KIND_MAP) {
        if (!v->keys || !v->values || ortkit_tensor_count(v->keys) != v->count ||
            ortkit_tensor_count(v->values) != v->count || ortkit_tensor_rank(v->keys) != 1)
            abort();
        return sum + touch(v->keys, size) + touch(v->values, size);
    }
    if ((v->kind != ORTKIT_KIND_SEQUENCE && v->kind != ORTKIT_KIND_OPTIONAL) ||
        (v->kind == ORTKIT_KIND_OPTIONAL && v->count > 1))
        abort();
    for (size_t i = 0; i < v->count; i++)
        sum += walk(v->items[i], size, depth + 1);
    return sum;
}

static int bad_result(int rc)
{
    /* Bad input must be reported as such, with a message. */
    return (rc != ORTKIT_E_FORMAT && rc != ORTKIT_E_UNSUPPORTED && rc != ORTKIT_E_NOMEM) ||
           !ortkit_error_last()[0];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The same bytes read as each kind of value, as a test's data files may be. */
    static const ortkit_value_kind kinds[] = {ORTKIT_KIND_TENSOR, ORTKIT_KIND_SEQUENCE,
                                              ORTKIT_KIND_OPTIONAL, ORTKIT_KIND_MAP};
    unsigned sum = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        ortkit_proto_value *v = NULL;
        int rc = ortkit_proto_value_parse(&v, kinds[k], data, size);
        if (rc) {
            if (v || bad_result(rc))
                abort();
            continue;
        }
        sum += walk(v, size, 0);
        ortkit_proto_value_free(v);
    }
    ortkit_tensor *t = NULL;
    int rc = ortkit_tensor_proto_parse(&t, data, size);
    if (rc ? (t || bad_result(rc)) : !t)
        abort();
    if (t) {
        char desc[256];
        ortkit_tensor_describe(t, desc, sizeof desc);
        sum += touch(t, size) + (unsigned)strlen(desc);
        ortkit_tensor_free(t);
    }
    sink = sum;
    return 0;
}
