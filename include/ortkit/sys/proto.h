/*
 * ortkit/sys/proto.h - values decoded from ONNX protobuf files: the
 * input_N.pb / output_N.pb of ONNX backend tests.
 *
 * The tooling tier: what `ortkit validate` is made of.  It may change in
 * any minor release, and <ortkit.h> does not include it: a program that
 * wants it includes it by name and follows its changes (docs/CONVENTIONS.md).
 */
#ifndef ORTKIT_INCLUDE_SYS_PROTO_H
#define ORTKIT_INCLUDE_SYS_PROTO_H

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

/* A value from an ONNX protobuf file: a tensor, a sequence, or an optional.
 * Library-allocated. */
typedef struct ortkit_proto_value ortkit_proto_value;
struct ortkit_proto_value {
    ortkit_value_kind kind;  /* ORTKIT_KIND_TENSOR, _SEQUENCE or _OPTIONAL */
    const char *name;        /* the proto's name field; "" when it has none */
    ortkit_tensor *tensor;   /* kind TENSOR: the tensor; otherwise NULL */
    size_t count;            /* SEQUENCE: its length; OPTIONAL: 0 (empty) or 1 */
    ortkit_proto_value *const *items;
};

/* Decode a TensorProto, SequenceProto or OptionalProto.  The bytes do not say
 * which they are, so kind does (the model's type for that input or output).
 * Maps and sparse tensors fail with ORTKIT_E_UNSUPPORTED. */
ORTKIT_API int ortkit_proto_value_parse(ortkit_proto_value **out, ortkit_value_kind kind,
                                        const void *data, size_t size);
ORTKIT_API int ortkit_proto_value_read(ortkit_proto_value **out, ortkit_value_kind kind,
                                       const char *path);
ORTKIT_API void ortkit_proto_value_free(ortkit_proto_value *value);

#ifdef __cplusplus
}
#endif

#endif /* ORTKIT_INCLUDE_SYS_PROTO_H */
