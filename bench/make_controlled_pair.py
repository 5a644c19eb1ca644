#!/usr/bin/python3
"""make_controlled_pair.py OUTDIR [M K LAYERS EXTRA...] - models that differ
by a known amount of work, for proving what `ortkit bench --compare
model=...` and `bundle choose --measure` tell apart (docs/PERFORMANCE.md,
"Telling 3% apart").

base.onnx is a chain of LAYERS MatMuls, x[M,K] times a KxK weight each.
plusE.onnx (one per EXTRA, a count of extra MatMuls) is the same chain, then
y = h + h*Z for E zero KxK weights Z: the same outputs to the bit (h*0 is 0
for the finite values this chain makes), and E more MatMuls of the same
size, so E/LAYERS more multiply-adds; the Adds of M*K elements are counted
too.  Each model's FLOPs are printed.  Weights come from a fixed seed, and
the protobuf is written by hand (no onnx package needed).

Default: M=64 K=512 LAYERS=33 EXTRA 1 2: +3.0% and +6.1%.
"""
import math
import os
import random
import struct
import sys


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def field(num, body):
    """A length-delimited field."""
    if isinstance(body, str):
        body = body.encode()
    return varint(num << 3 | 2) + varint(len(body)) + body


def vfield(num, v):
    """A varint field."""
    return varint(num << 3) + varint(v)


def tensor_type(shape):
    dims = b"".join(field(1, vfield(1, d)) for d in shape)
    return field(1, vfield(1, 1) + field(2, dims))  # TypeProto.tensor_type: FLOAT, shape


def value_info(name, shape):
    return field(1, name) + field(2, tensor_type(shape))


def initializer(name, shape, values):
    raw = struct.pack("<%df" % len(values), *values)
    return b"".join(vfield(1, d) for d in shape) + vfield(2, 1) + field(8, name) + field(9, raw)


def node(op, ins, outs, name):
    return b"".join(field(1, i) for i in ins) + b"".join(field(2, o) for o in outs) + \
        field(3, name) + field(4, op)


def model(m, k, layers, extra, seed=7):
    rng = random.Random(seed)
    nodes, inits, h = [], [], "x"
    scale = 1 / math.sqrt(k)
    for i in range(layers):
        w = [rng.gauss(0, 1) * scale for _ in range(k * k)]
        inits.append(initializer("w%d" % i, (k, k), w))
        nodes.append(node("MatMul", [h, "w%d" % i], ["h%d" % i], "mm%d" % i))
        h = "h%d" % i
    out = h
    for e in range(extra):
        inits.append(initializer("z%d" % e, (k, k), [0.0] * (k * k)))
        nodes.append(node("MatMul", [h, "z%d" % e], ["p%d" % e], "extra_mm%d" % e))
        nodes.append(node("Add", [out, "p%d" % e], ["s%d" % e], "extra_add%d" % e))
        out = "s%d" % e
    nodes.append(node("Identity", [out], ["y"], "out"))
    graph = b"".join(field(1, n) for n in nodes) + field(2, "controlled") + \
        b"".join(field(5, t) for t in inits) + field(11, value_info("x", (m, k))) + \
        field(12, value_info("y", (m, k)))
    opset = field(1, "") + vfield(2, 13)
    return vfield(1, 7) + field(2, "ortkit-bench") + field(7, graph) + field(8, opset)


def flops(m, k, layers, extra):
    return 2 * m * k * k * (layers + extra) + m * k * extra


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = sys.argv[1]
    m, k, layers = (int(a) for a in sys.argv[2:5]) if len(sys.argv) >= 5 else (64, 512, 33)
    extras = [int(a) for a in sys.argv[5:]] or [1, 2]
    os.makedirs(out, exist_ok=True)
    base = flops(m, k, layers, 0)
    for extra in [0] + extras:
        name = "base.onnx" if extra == 0 else "plus%d.onnx" % extra
        with open(os.path.join(out, name), "wb") as f:
            f.write(model(m, k, layers, extra))
        f = flops(m, k, layers, extra)
        print("%s %d FLOPs %.4f of base" % (name, f, f / base))
    return 0


if __name__ == "__main__":
    sys.exit(main())
