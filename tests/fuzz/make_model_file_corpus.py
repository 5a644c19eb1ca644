#!/usr/bin/python3
"""Write the seed corpus of fuzz_model_file: small ONNX models as the onnx
package writes them, models nested at and past the limit of 100 levels, and
files that are no model.  Seeds named valid_* must be read, bad_* refused.

Run with the python that has onnx (Debian's /usr/bin/python3 with python3-onnx):
    /usr/bin/python3 tests/fuzz/make_model_file_corpus.py tests/fuzz/corpus/fuzz_model_file
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

FLOAT = TensorProto.FLOAT


def varint(v):
    out = bytearray()
    while True:
        b, v = v & 0x7F, v >> 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def field(number, body):
    """A length-delimited field."""
    return varint(number << 3 | 2) + varint(len(body)) + body


def nest(levels, inner):
    """levels, outermost first: (field number, bytes before the next level)."""
    for number, before in reversed(levels):
        inner = field(number, before + inner)
    return inner


def model_bytes(graph, extra=b""):
    """ir_version 8, opset 17, then the graph's bytes."""
    return varint(1 << 3) + varint(8) + field(8, varint(2 << 3) + varint(17)) + extra + field(7, graph)


def deep_type(sequences, tensor=True):
    """Input x of `sequences` nested sequence types; the innermost TypeProto
    lies 3 + 2 * sequences levels down, its tensor_type one more."""
    inner = field(1, varint(1 << 3) + varint(1)) if tensor else b""
    typ = nest([(4, b""), (1, b"")] * sequences, inner)
    return model_bytes(field(2, b"deep") + field(11, field(1, b"x") + field(2, typ)))


def deep_graph(graphs):
    """If nodes holding graphs holding If nodes: the innermost graph lies
    1 + 3 * graphs levels down."""
    node = field(4, b"If")
    attr = field(1, b"then_branch") + varint(20 << 3) + varint(5)
    return model_bytes(nest([(1, node), (5, attr), (6, b"")] * graphs, field(2, b"g")))


def small_models():
    add = helper.make_model(
        helper.make_graph(
            [helper.make_node("Add", ["a", "b"], ["sum"])],
            "add",
            [helper.make_tensor_value_info(n, FLOAT, ["N", 3]) for n in "ab"],
            [helper.make_tensor_value_info("sum", FLOAT, ["N", 3])],
        ),
        opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("ai.onnx.ml", 3)],
        producer_name="ortkit-fuzz",
    )
    helper.set_model_props(add, {"author": "ortkit"})
    shapeless = helper.make_model(
        helper.make_graph(
            [helper.make_node("Neg", ["x"], ["y"])],
            "shapeless",
            [helper.make_tensor_value_info("x", FLOAT, None)],
            [helper.make_tensor_value_info("y", FLOAT, None)],
        ),
        opset_imports=[helper.make_opsetid("", 17)],
    )
    branch = helper.make_graph(
        [helper.make_node("Constant", [], ["r"], value=numpy_helper.from_array(np.ones(2, np.float32)))],
        "branch",
        [],
        [helper.make_tensor_value_info("r", FLOAT, [2])],
    )
    if_model = helper.make_model(
        helper.make_graph(
            [helper.make_node("If", ["c"], ["y"], then_branch=branch, else_branch=branch)],
            "if",
            [helper.make_tensor_value_info("c", TensorProto.BOOL, [])],
            [helper.make_tensor_value_info("y", FLOAT, [2])],
            initializer=[numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3), "w")],
        ),
        opset_imports=[helper.make_opsetid("", 17)],
    )
    seq_type = helper.make_sequence_type_proto(helper.make_tensor_type_proto(FLOAT, ["n"]))
    seq = helper.make_model(
        helper.make_graph(
            [helper.make_node("SequenceLength", ["s"], ["n"])],
            "seq",
            [helper.make_value_info("s", seq_type)],
            [helper.make_tensor_value_info("n", TensorProto.INT64, [])],
        ),
        opset_imports=[helper.make_opsetid("", 17)],
    )
    for m in (add, shapeless, if_model, seq):
        m.ir_version = 8
    return {
        "valid_add.onnx": add.SerializeToString(),
        "valid_shapeless.onnx": shapeless.SerializeToString(),
        "valid_if_subgraphs.onnx": if_model.SerializeToString(),
        "valid_sequence_input.onnx": seq.SerializeToString(),
    }


def main(out):
    os.makedirs(out, exist_ok=True)
    seeds = small_models()
    add = seeds["valid_add.onnx"]

    # Nesting: at the limit of 100 levels (read), past it (refused), and far
    # past it in a few kilobytes, as the files that overflowed the stack were.
    seeds["valid_type_100.onnx"] = deep_type(48)
    seeds["bad_type_101.onnx"] = deep_type(49, tensor=False)
    seeds["bad_type_2400.onnx"] = deep_type(1200)
    seeds["valid_graph_100.onnx"] = deep_graph(33)
    seeds["bad_graph_103.onnx"] = deep_graph(34)
    # Nesting inside bytes is not decoded, so it is no nesting: an
    # initializer's raw_data and an unknown field each hold 600 levels.
    deep_bytes = nest([(7, b"")] * 600, b"")
    init = field(9, deep_bytes) + varint(2 << 3) + varint(2) + varint(1 << 3) + varint(len(deep_bytes))
    seeds["valid_deep_in_bytes.onnx"] = model_bytes(field(2, b"g") + field(5, init), field(4242, deep_bytes))

    # Not models.
    seeds["bad_empty.onnx"] = b""
    seeds["bad_truncated.onnx"] = add[: len(add) // 2]
    seeds["bad_not_protobuf.onnx"] = b"\x93NUMPY\x01\x00{'descr': '<f4'}"
    seeds["bad_group.onnx"] = model_bytes(field(2, b"g") + varint(3 << 3 | 3))
    seeds["bad_length_past_end.onnx"] = varint(1 << 3) + varint(8) + varint(7 << 3 | 2) + varint(1000) + b"\x0a"
    seeds["bad_no_graph.onnx"] = varint(1 << 3) + varint(8)
    for name, data in seeds.items():
        assert len(data) < 10 * 1024, (name, len(data))
        if name.startswith("valid_") and "deep" not in name and "_100" not in name:
            onnx.ModelProto.FromString(data)  # what onnx writes, onnx reads
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main(sys.argv[1])
