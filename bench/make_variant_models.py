#!/usr/bin/python3
"""make_variant_models.py OUTDIR - the synthetic models bench_variants.sh
measures CPU builds on, beside the real ones, at sizes real models use:

  gemm_mlp.onnx     four Gemm layers of a transformer's feed-forward block
                    (32 tokens, 1024 -> 4096 -> 1024, twice), float32: MLAS SGEMM
  elementwise.onnx  a chain of element-wise ops (Mul, Add, Erf, Tanh, Sigmoid,
                    Exp, Sqrt, Div, Abs, Neg) on 4M floats: Eigen and
                    auto-vectorised loops, where compiler flags matter most
  int8_matmul.onnx  a dynamically quantised feed-forward block: DynamicQuantizeLinear,
                    MatMulInteger (u8 x s8, 64 tokens, 768 -> 3072 -> 768),
                    dequantised with Cast and Mul: MLAS QGEMM

Weights are random with a fixed seed, so the files are the same every time.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = [helper.make_opsetid("", 13)]
rng = np.random.default_rng(7)


def save(graph, path):
    model = helper.make_model(graph, opset_imports=OPSET, producer_name="ortkit-bench")
    model.ir_version = 7
    onnx.checker.check_model(model)
    onnx.save(model, path)


def graph_xy(nodes, name, shape, inits):
    """A graph from float input x to float output y, both of shape."""
    return helper.make_graph(
        nodes, name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(shape))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(shape))], inits)


def gemm_mlp(path, tokens=32, width=1024, hidden=4096, blocks=2):
    nodes, inits, x = [], [], "x"
    for b in range(blocks):
        for i, (k, n) in enumerate(((width, hidden), (hidden, width))):
            w = f"w{b}{i}"
            inits.append(numpy_helper.from_array(
                (rng.standard_normal((k, n)) / np.sqrt(k)).astype(np.float32), w))
            inits.append(numpy_helper.from_array(np.zeros(n, np.float32), w + "_b"))
            y = f"h{b}{i}"
            nodes.append(helper.make_node("Gemm", [x, w, w + "_b"], [y]))
            x = y
            if i == 0:
                nodes.append(helper.make_node("Relu", [x], [x + "_r"]))
                x = x + "_r"
    nodes.append(helper.make_node("Identity", [x], ["y"]))
    save(graph_xy(nodes, "gemm_mlp", (tokens, width), inits), path)


def elementwise(path, shape=(16, 256, 1024)):
    c = lambda name, v: numpy_helper.from_array(np.array(v, np.float32), name)
    inits = [c("half", 0.5), c("one", 1.0), c("scale", 0.7071), c("eps", 1e-3)]
    ops = [("Mul", ["x", "scale"], "a"), ("Erf", ["a"], "b"), ("Add", ["b", "one"], "c"),
           ("Mul", ["c", "half"], "d"), ("Mul", ["d", "x"], "e"), ("Tanh", ["e"], "f"),
           ("Sigmoid", ["f"], "g"), ("Neg", ["g"], "h"), ("Exp", ["h"], "i"),
           ("Abs", ["x"], "j"), ("Add", ["j", "eps"], "k"), ("Sqrt", ["k"], "l"),
           ("Div", ["i", "l"], "m"), ("Add", ["m", "e"], "y")]
    nodes = [helper.make_node(op, ins, [out]) for op, ins, out in ops]
    save(graph_xy(nodes, "elementwise", shape, inits), path)


def int8_matmul(path, tokens=64, width=768, hidden=3072):
    nodes, inits, x = [], [], "x"
    for i, (k, n) in enumerate(((width, hidden), (hidden, width))):
        w, scale = f"w{i}", 0.02
        inits.append(numpy_helper.from_array(rng.integers(-127, 128, (k, n), dtype=np.int8), w))
        inits.append(numpy_helper.from_array(np.array(0, np.int8), w + "_zp"))
        inits.append(numpy_helper.from_array(np.array(scale, np.float32), w + "_s"))
        q, s, zp = f"q{i}", f"q{i}_s", f"q{i}_zp"
        nodes += [
            helper.make_node("DynamicQuantizeLinear", [x], [q, s, zp]),
            helper.make_node("MatMulInteger", [q, w, zp, w + "_zp"], [f"acc{i}"]),
            helper.make_node("Cast", [f"acc{i}"], [f"accf{i}"], to=TensorProto.FLOAT),
            helper.make_node("Mul", [s, w + "_s"], [f"sc{i}"]),
            helper.make_node("Mul", [f"accf{i}", f"sc{i}"], [f"h{i}"]),
        ]
        x = f"h{i}"
        if i == 0:
            nodes.append(helper.make_node("Relu", [x], [x + "_r"]))
            x = x + "_r"
    nodes.append(helper.make_node("Identity", [x], ["y"]))
    save(graph_xy(nodes, "int8_matmul", (tokens, width), inits), path)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    gemm_mlp(os.path.join(out, "gemm_mlp.onnx"))
    elementwise(os.path.join(out, "elementwise.onnx"))
    int8_matmul(os.path.join(out, "int8_matmul.onnx"))


if __name__ == "__main__":
    main()
