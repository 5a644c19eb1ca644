/*
 * ortkit/tools/proto.h - values decoded from ONNX protobuf files: the
 * input_N.pb / output_N.pb of ONNX backend tests.
 *
 * The tools tier (libortkit-tools; pkg-config ortkit-tools): what `ortkit
 * validate` is made of.  It may change in any minor release, and <ortkit.h>
 * does not include it: a program includes it by name and follows its
 * changes (docs/CONVENTIONS.md).
 */
#ifndef ORTKIT_INCLUDE_TOOLS_PROTO_H
#define ORTKIT_INCLUDE_TOOLS_PROTO_H

#include "ortkit/common.h"
#include "ortkit/session.h"
#include "ortkit/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Decode a serialised onnx.TensorProto: raw_data or the typed fields, every
 * element type.  Data kept in an external file is refused with
 * ORTKIT_E_UNSUPPORTED; malformed bytes fail with ORTKIT_E_FORMAT. */
ORTKIT_API int ortkit_tensor_proto_parse(ortkit_tensor **out, const void *data, size_t size);
ORTKIT_API int ortkit_tensor_proto_read(ortkit_tensor **out, const char *path);

/* A value from an ONNX protobuf file: a tensor, a sequence, a map, or an
 * optional.  Library-allocated; later versions add fields at the end. */
typedef struct ortkit_proto_value ortkit_proto_value;
struct ortkit_proto_value {
    ortkit_value_kind kind;  /* ORTKIT_KIND_TENSOR, _SEQUENCE, _MAP or _OPTIONAL */
    const char *name;        /* the proto's name field; "" when it has none */
    ortkit_tensor *tensor;   /* kind TENSOR: the tensor; otherwise NULL */
    size_t count;            /* SEQUENCE: its length; OPTIONAL: 0 (empty) or 1 */
    ortkit_proto_value *const *items;
    /* kind MAP: 1-D keys (int64, or string) and their values (1-D, one per
     * key, from the MapProto's sequence of scalar tensors); count entries. */
    ortkit_tensor *keys;
    ortkit_tensor *values;
};

/* Decode a TensorProto, SequenceProto, MapProto or OptionalProto.  The bytes
 * do not say which they are, so kind does (the model's type for that input
 * or output).  Sparse tensors, and maps whose values are not tensors, fail
 * with ORTKIT_E_UNSUPPORTED. */
ORTKIT_API int ortkit_proto_value_parse(ortkit_proto_value **out, ortkit_value_kind kind,
                                        const void *data, size_t size);
ORTKIT_API int ortkit_proto_value_read(ortkit_proto_value **out, ortkit_value_kind kind,
                                       const char *path);
ORTKIT_API void ortkit_proto_value_free(ortkit_proto_value *value);

#ifdef __cplusplus
}
#endif

#endif /* ORTKIT_INCLUDE_TOOLS_PROTO_H */
