#!/usr/bin/python3
"""Write the seed corpus of fuzz_tensor_proto: TensorProto, SequenceProto and
OptionalProto files as ONNX writes them, and malformed ones.

Run with the python that has onnx (Debian's /usr/bin/python3 with python3-onnx):
    /usr/bin/python3 tests/fuzz/make_tensor_proto_corpus.py tests/fuzz/corpus/fuzz_tensor_proto
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper


def varint(v):
    out = bytearray()
    while True:
        b, v = v & 0x7F, v >> 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def tensor(arr, name="x"):
    return numpy_helper.from_array(np.asarray(arr), name)


def typed(dtype, dims, vals, name="t"):
    """Typed fields (int32_data, float_data, ...) rather than raw_data."""
    return helper.make_tensor(name, dtype, dims, vals, raw=False)


def main(out):
    os.makedirs(out, exist_ok=True)
    rs = np.random.RandomState(7)
    seeds = {
        "raw_f32_2x3.pb": tensor(rs.standard_normal((2, 3)).astype(np.float32)),
        "raw_f64_scalar.pb": tensor(np.float64(2.5)),
        "raw_i64_1d.pb": tensor(np.arange(5, dtype=np.int64)),
        "raw_u8_empty.pb": tensor(np.zeros((0, 4), np.uint8)),
        "raw_bool.pb": tensor(np.array([True, False, True])),
        "raw_f16.pb": tensor(np.array([1.0, -2.0, np.inf], np.float16)),
        "raw_c64.pb": tensor(np.array([1 + 2j, 3 - 4j], np.complex64)),
        "typed_f32.pb": typed(TensorProto.FLOAT, [3], [1.0, 2.0, 3.0]),
        "typed_i8.pb": typed(TensorProto.INT8, [2, 2], [-1, 2, -128, 127]),
        "typed_u16.pb": typed(TensorProto.UINT16, [2], [65535, 1]),
        "typed_bf16.pb": typed(TensorProto.BFLOAT16, [2], [0x3F80, 0x4000]),
        "typed_u64.pb": typed(TensorProto.UINT64, [2], [2**64 - 1, 0]),
        "typed_u32.pb": typed(TensorProto.UINT32, [2], [2**32 - 1, 5]),
        "typed_f64.pb": typed(TensorProto.DOUBLE, [2], [1e300, -0.5]),
        "typed_strings.pb": typed(TensorProto.STRING, [3], [b"monday", b"", b"caf\xc3\xa9"]),
    }
    ext = tensor(np.ones(4, np.float32), "w")
    ext.ClearField("raw_data")
    ext.data_location = TensorProto.EXTERNAL
    entry = ext.external_data.add()
    entry.key, entry.value = "location", "weights.bin"
    seeds["external.pb"] = ext
    blobs = {name: t.SerializeToString() for name, t in seeds.items()}

    a = tensor(np.ones(2, np.float32), "a")
    b = tensor(np.zeros((1, 3), np.int64), "b")
    blobs["seq_two.pb"] = numpy_helper.from_list([np.ones(2, np.float32), np.zeros(3, np.float32)], "s").SerializeToString()
    blobs["seq_empty.pb"] = helper.make_sequence("e", 1, []).SerializeToString()
    inner = helper.make_sequence("in", 1, [a, b])
    blobs["seq_nested.pb"] = helper.make_sequence("out", 3, [inner]).SerializeToString()
    blobs["opt_tensor.pb"] = helper.make_optional("o", 1, a).SerializeToString()
    blobs["opt_empty.pb"] = helper.make_optional("o", 0, None).SerializeToString()
    blobs["opt_seq.pb"] = helper.make_optional("o", 3, inner).SerializeToString()
    # Maps: int64 and string keys, values one scalar tensor per key; in a
    # sequence (ZipMap's output) and in an optional.
    scalars = [numpy_helper.from_array(np.array(v, np.float32)) for v in (0.25, 0.75)]
    m_int = helper.make_map("m", TensorProto.INT64, [3, 7], helper.make_sequence("", 1, scalars))
    m_str = helper.make_map("m", TensorProto.STRING, [b"cat", b"dog"],
                            helper.make_sequence("", 1, scalars))
    blobs["map_int64.pb"] = m_int.SerializeToString()
    blobs["map_string.pb"] = m_str.SerializeToString()
    blobs["map_empty.pb"] = helper.make_map("m", TensorProto.INT64, [],
                                            helper.make_sequence("", 1, [])).SerializeToString()
    blobs["seq_maps.pb"] = helper.make_sequence("s", 4, [m_int, m_int]).SerializeToString()
    blobs["opt_map.pb"] = helper.make_optional("o", 4, m_str).SerializeToString()
    blobs["bad_map_short.pb"] = helper.make_map("m", TensorProto.INT64, [3, 7, 9],
                                                helper.make_sequence("", 1, scalars)).SerializeToString()

    # Malformed: cut short, lying about its size, or not protobuf at all.
    good = blobs["raw_f32_2x3.pb"]
    blobs["bad_truncated.pb"] = good[:-7]
    lying = tensor(np.ones((2, 3), np.float32))
    lying.dims[0] = 1000000
    blobs["bad_lying_dims.pb"] = lying.SerializeToString()
    wrong_field = typed(TensorProto.INT64, [2], [1, 2])
    wrong_field.data_type = TensorProto.FLOAT
    blobs["bad_wrong_field.pb"] = wrong_field.SerializeToString()
    blobs["bad_not_protobuf.pb"] = b"\x93NUMPY\x01\x00garbage"
    blobs["bad_empty.pb"] = b""

    # Nesting.  protobuf-c recurses once per level, without a limit: past 100
    # levels the bytes are refused before it runs (a few thousand levels
    # overflowed the stack); up to 32 nested values ortkit reads.
    def nest(numbers, depth, inner=b""):
        for i in reversed(range(depth)):
            n = numbers[i % len(numbers)]
            inner = varint(n << 3 | 2) + varint(len(inner)) + inner
        return inner

    one = a.SerializeToString()
    seq_of = varint(2 << 3) + varint(3)  # elem_type: sequence
    tensor_leaf = varint(2 << 3) + varint(1) + varint(3 << 3 | 2) + varint(len(one)) + one
    deep32 = tensor_leaf
    for _ in range(32):
        deep32 = seq_of + varint(5 << 3 | 2) + varint(len(deep32)) + deep32
    blobs["seq_deep_32.pb"] = deep32
    blobs["bad_seq_deep_33.pb"] = seq_of + varint(5 << 3 | 2) + varint(len(deep32)) + deep32
    blobs["bad_seq_deep_101.pb"] = nest([5], 101)
    blobs["bad_opt_deep_2500.pb"] = nest([7], 2500)
    blobs["bad_seq_opt_deep_120.pb"] = nest([7, 5], 120)  # optional_values, sequence_value
    for name, data in blobs.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main(sys.argv[1])
