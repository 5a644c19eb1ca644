#!/usr/bin/python3
"""Generate the ONNX models, reference data and malformed files the tests use.

Usage: make_models.py [-v] OUTDIR

Every model is a real ONNX file built with the `onnx` package and checked with
onnx.checker, so the tests exercise ONNX Runtime on genuine input rather than on
mocks. Random data comes from fixed seeds, so each run writes the same bytes; a
file whose content is already right is left untouched (its mtime too), and every
new file is written under a temporary name and renamed into place.

The models target IR version 8 and opset 17 so that both ONNX Runtime 1.17
(the oldest runtime supported) and current releases load them.
"""

import argparse
import io
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

IR_VERSION = 8
# Identity takes bfloat16 from opset 14; opset 18 would move ReduceMean's axes
# from an attribute to an input, which slow.onnx does not need.
OPSET = 17

FLOAT = TensorProto.FLOAT
INT64 = TensorProto.INT64


class Writer:
    """Writes files atomically into one directory and reports what it made."""

    def __init__(self, outdir: str, verbose: bool):
        self.outdir = outdir
        self.verbose = verbose

    def bytes(self, name: str, data: bytes) -> None:
        path = os.path.join(self.outdir, name)
        try:
            with open(path, "rb") as f:
                if f.read() == data:
                    # Same bytes already there: keep the mtime so builds stay up to date.
                    self._say(f"{name}: up to date")
                    return
        except FileNotFoundError:
            pass
        tmp = os.path.join(self.outdir, f".{name}.tmp{os.getpid()}")
        try:
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        self._say(f"{name}: {len(data)} bytes")

    def npy(self, name: str, arr: np.ndarray, version=None) -> None:
        buf = io.BytesIO()
        if version is None:
            np.save(buf, arr, allow_pickle=False)
        else:
            np.lib.format.write_array(buf, arr, version=version, allow_pickle=False)
        self.bytes(name, buf.getvalue())

    def model(self, name: str, model: onnx.ModelProto, check: bool = True) -> bytes:
        if check:
            onnx.checker.check_model(model, full_check=True)
        data = model.SerializeToString()
        # Small models keep the test tree light and the bad-file variants meaningful.
        assert len(data) < 100 * 1024, f"{name} is {len(data)} bytes"
        self.bytes(name, data)
        return data

    def _say(self, msg: str) -> None:
        if self.verbose:
            print(f"make_models: {msg}", file=sys.stderr)


def make_model(graph: onnx.GraphProto, opset: int = OPSET, **fields) -> onnx.ModelProto:
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", opset)],
        producer_name="ortkit-tests",
        **fields,
    )
    # make_model stamps the IR version of the onnx package; pin it for old runtimes.
    model.ir_version = IR_VERSION
    return model


def tensor(name: str, elem_type: int, shape) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, elem_type, shape)


# ---------------------------------------------------------------- models


def model_add() -> onnx.ModelProto:
    graph = helper.make_graph(
        [helper.make_node("Add", ["a", "b"], ["sum"])],
        "add_graph",
        [tensor("a", FLOAT, ["N", 3]), tensor("b", FLOAT, ["N", 3])],
        [tensor("sum", FLOAT, ["N", 3])],
    )
    model = make_model(graph, doc_string="adds two tensors", domain="ai.ortkit.test", model_version=7)
    helper.set_model_props(model, {"author": "ortkit", "purpose": "testing"})
    return model


# Element types for identity_types.onnx: (name used in input/output names, ONNX type).
IDENTITY_TYPES = [
    ("float32", TensorProto.FLOAT),
    ("float64", TensorProto.DOUBLE),
    ("float16", TensorProto.FLOAT16),
    ("bfloat16", TensorProto.BFLOAT16),
    ("int8", TensorProto.INT8),
    ("uint8", TensorProto.UINT8),
    ("int16", TensorProto.INT16),
    ("uint16", TensorProto.UINT16),
    ("int32", TensorProto.INT32),
    ("uint32", TensorProto.UINT32),
    ("int64", TensorProto.INT64),
    ("uint64", TensorProto.UINT64),
    ("bool", TensorProto.BOOL),
    ("string", TensorProto.STRING),
]


def model_identity_types() -> onnx.ModelProto:
    nodes, inputs, outputs = [], [], []
    for name, elem in IDENTITY_TYPES:
        nodes.append(helper.make_node("Identity", [f"in_{name}"], [f"out_{name}"], name=f"id_{name}"))
        inputs.append(tensor(f"in_{name}", elem, [2, 3]))
        outputs.append(tensor(f"out_{name}", elem, [2, 3]))
    graph = helper.make_graph(nodes, "identity_types", inputs, outputs)
    return make_model(graph, doc_string="one Identity per element type")


def model_many_io() -> onnx.ModelProto:
    xs = [f"x{i}" for i in range(5)]
    nodes = [
        helper.make_node("Add", ["x0", "x1"], ["s01"]),
        helper.make_node("Add", ["x2", "x3"], ["s23"]),
        helper.make_node("Mul", ["x4", "x4"], ["p4"]),
        helper.make_node("Max", xs, ["m"]),
        # A transpose makes element order matter, so swapped buffers show up.
        helper.make_node("Transpose", ["x0"], ["t0"], perm=[1, 0]),
        helper.make_node("ArgMax", ["x0"], ["argmax"], axis=1, keepdims=0),
    ]
    graph = helper.make_graph(
        nodes,
        "many_io",
        [tensor(x, FLOAT, [2, 2]) for x in xs],
        [
            tensor("s01", FLOAT, [2, 2]),
            tensor("s23", FLOAT, [2, 2]),
            tensor("p4", FLOAT, [2, 2]),
            tensor("m", FLOAT, [2, 2]),
            tensor("t0", FLOAT, [2, 2]),
            tensor("argmax", INT64, [2]),
        ],
    )
    return make_model(graph, doc_string="five inputs, six outputs, one of them int64")


def model_dynamic() -> onnx.ModelProto:
    two = numpy_helper.from_array(np.array(2.0, dtype=np.float32), "two")
    graph = helper.make_graph(
        [
            helper.make_node("GlobalAveragePool", ["images"], ["pooled"]),
            helper.make_node("Mul", ["images", "two"], ["scaled"]),
        ],
        "dynamic",
        [tensor("images", FLOAT, ["batch", 3, "height", "width"])],
        [tensor("pooled", FLOAT, ["batch", 3, 1, 1]), tensor("scaled", FLOAT, ["batch", 3, "height", "width"])],
        initializer=[two],
    )
    return make_model(graph, doc_string="symbolic batch, height and width")


# What converters of classical models (skl2onnx, onnxmltools) write: an
# input of shape [None, 12], its first dimension without a name or a size.
CLASSIFIER_BIAS = np.array([0.5, 0.0, -0.5], dtype=np.float32)


def model_classifier_unnamed() -> onnx.ModelProto:
    w = np.linspace(-1.0, 1.0, 36, dtype=np.float32).reshape(12, 3)
    graph = helper.make_graph(
        [
            helper.make_node("MatMul", ["X", "W"], ["scores"]),
            helper.make_node("Add", ["scores", "B"], ["logits"]),
            helper.make_node("Softmax", ["logits"], ["probabilities"], axis=1),
        ],
        "classifier",
        [tensor("X", FLOAT, [None, 12])],
        [tensor("probabilities", FLOAT, [None, 3])],
        initializer=[numpy_helper.from_array(w, "W"), numpy_helper.from_array(CLASSIFIER_BIAS, "B")],
    )
    return make_model(graph, doc_string="a linear classifier exported with shape [None, 12]")


def model_unnamed_pair() -> onnx.ModelProto:
    graph = helper.make_graph(
        [helper.make_node("Add", ["X", "Y"], ["sum"])],
        "unnamed_pair",
        [tensor("X", FLOAT, [None, "N"]), tensor("Y", FLOAT, ["N"])],
        [tensor("sum", FLOAT, [None, "N"])],
    )
    return make_model(graph, doc_string="a dimension without a name beside a named one")


MATMUL_LAYERS = 4
MATMUL_WIDTH = 64


def matmul_weights():
    rs = np.random.RandomState(1234)
    layers = []
    for _ in range(MATMUL_LAYERS):
        # He initialisation keeps activations of the Relu stack in a sane range.
        w = (rs.standard_normal((MATMUL_WIDTH, MATMUL_WIDTH)) * np.sqrt(2.0 / MATMUL_WIDTH)).astype(np.float32)
        b = (rs.standard_normal(MATMUL_WIDTH) * 0.1).astype(np.float32)
        layers.append((w, b))
    return layers


def model_matmul(layers) -> onnx.ModelProto:
    nodes, inits = [], []
    cur = "x"
    for i, (w, b) in enumerate(layers):
        inits += [numpy_helper.from_array(w, f"W{i}"), numpy_helper.from_array(b, f"B{i}")]
        out = "y" if i == len(layers) - 1 else f"h{i}"
        nodes += [
            helper.make_node("MatMul", [cur, f"W{i}"], [f"mm{i}"]),
            helper.make_node("Add", [f"mm{i}", f"B{i}"], [f"lin{i}"]),
            helper.make_node("Relu", [f"lin{i}"], [out]),
        ]
        cur = out
    graph = helper.make_graph(
        nodes,
        "matmul",
        [tensor("x", FLOAT, ["N", MATMUL_WIDTH])],
        [tensor("y", FLOAT, ["N", MATMUL_WIDTH])],
        initializer=inits,
    )
    return make_model(graph, doc_string="four MatMul+Add+Relu layers")


def matmul_reference(layers, x: np.ndarray) -> np.ndarray:
    h = x
    for w, b in layers:
        h = np.maximum(h @ w + b, np.float32(0)).astype(np.float32)
    return h


def model_tiny() -> onnx.ModelProto:
    graph = helper.make_graph(
        [helper.make_node("Neg", ["x"], ["y"])],
        "tiny",
        [tensor("x", FLOAT, [1])],
        [tensor("y", FLOAT, [1])],
    )
    return make_model(graph, doc_string="one node, for call-overhead measurements")


# The state is SLOW_SIDE x SLOW_SIDE: one 33 MFLOP MatMul per iteration, about
# 0.2 ms on one AVX-512 core, so 10000 iterations take a couple of seconds.
SLOW_SIDE = 256


def model_slow() -> onnx.ModelProto:
    # The weight matrix is tiled from a 64x64 block: a 256x256 initializer
    # would be 256 KB, and only the cost of the MatMul matters here.
    rs = np.random.RandomState(4321)
    block = SLOW_SIDE // 64
    w0 = (rs.standard_normal((64, 64)) * (1.5 / (8 * block))).astype(np.float32)
    inits = [
        numpy_helper.from_array(w0, "w0"),
        numpy_helper.from_array(np.array([block, block], dtype=np.int64), "tiles"),
    ]
    # Body: s' = Tanh(s @ W + s0). Tanh keeps values bounded; adding the initial
    # state keeps them from decaying into denormals, whose cost varies by CPU.
    body = helper.make_graph(
        [
            helper.make_node("MatMul", ["s_in", "w"], ["mm"]),
            helper.make_node("Add", ["mm", "s0"], ["pre"]),
            helper.make_node("Tanh", ["pre"], ["s_out"]),
            helper.make_node("Identity", ["cond_in"], ["cond_out"]),
        ],
        "slow_body",
        [
            tensor("iter", INT64, []),
            tensor("cond_in", TensorProto.BOOL, []),
            tensor("s_in", FLOAT, [SLOW_SIDE, SLOW_SIDE]),
        ],
        [
            tensor("cond_out", TensorProto.BOOL, []),
            tensor("s_out", FLOAT, [SLOW_SIDE, SLOW_SIDE]),
        ],
    )
    nodes = [
        helper.make_node("Tile", ["w0", "tiles"], ["w"]),
        # Outer product of x with itself: the [256,256] starting state.
        helper.make_node("Transpose", ["x"], ["xt"], perm=[1, 0]),
        helper.make_node("MatMul", ["xt", "x"], ["s0"]),
        # Trip count from the input; no condition, so the loop runs exactly that many times.
        helper.make_node("Loop", ["iterations", "", "s0"], ["s_final"], body=body),
        helper.make_node("ReduceMean", ["s_final"], ["y"], axes=[0], keepdims=1),
    ]
    graph = helper.make_graph(
        nodes,
        "slow",
        [tensor("x", FLOAT, [1, SLOW_SIDE]), tensor("iterations", INT64, [])],
        [tensor("y", FLOAT, [1, SLOW_SIDE])],
        initializer=inits,
    )
    return make_model(graph, doc_string="runs `iterations` 256x256 MatMuls, for cancellation tests")


# Choosing by measurement (tests/cli/bundle_measure.t) needs models on which
# the two real runtimes differ reliably, one way and the other, and one on
# which one of them answers differently.  x is [N,1024]; the test sizes N.
# Measured on a 2-core Xeon (docs/PERFORMANCE.md), one thread: ORT 1.17.3 runs
# Cos about 1.4 times as fast as 1.30.0 (found by timing 50 single-op models
# on both; why was not profiled); 1.30.0 runs LeakyRelu 10 to 27 times as
# fast; and 1.17.3's Max returns the other operand where one is NaN, where
# 1.19 and later return NaN (microsoft/onnxruntime#21455, fixed by #21492):
# Max(Cos(x), c) with NaNs in c is faster on 1.17.3 and answers differently.
def model_measure(name: str, nodes, inits=()) -> onnx.ModelProto:
    graph = helper.make_graph(
        nodes, name, [tensor("x", FLOAT, ["N", 1024])], [tensor("y", FLOAT, ["N", 1024])],
        initializer=list(inits))
    return make_model(graph, doc_string="for choosing a runtime by measurement")


def model_measure_cos_nan() -> onnx.ModelProto:
    c = np.random.RandomState(7).standard_normal(1024).astype(np.float32)
    c[::7] = np.nan
    return model_measure("measure_cos_nan",
                         [helper.make_node("Cos", ["x"], ["cos"]), helper.make_node("Max", ["cos", "c"], ["y"])],
                         [numpy_helper.from_array(c, "c")])


def model_strings() -> onnx.ModelProto:
    graph = helper.make_graph(
        [
            # ORT defaults to the en_US.UTF-8 locale, which minimal systems lack and
            # then fail the session; "C" always exists and upper-cases ASCII.
            helper.make_node(
                "StringNormalizer", ["words"], ["upper"], case_change_action="UPPER", is_case_sensitive=1, locale="C"
            ),
            helper.make_node("Identity", ["words"], ["same"]),
        ],
        "strings",
        [tensor("words", TensorProto.STRING, ["N"])],
        [tensor("upper", TensorProto.STRING, ["N"]), tensor("same", TensorProto.STRING, ["N"])],
    )
    return make_model(graph, doc_string="string tensors in and out")


def model_seq_out() -> onnx.ModelProto:
    seq_type = helper.make_sequence_type_proto(helper.make_tensor_type_proto(FLOAT, None))
    graph = helper.make_graph(
        [
            helper.make_node("SequenceConstruct", ["a", "b"], ["seq"]),
            helper.make_node("Identity", ["a"], ["t"]),
        ],
        "seq_out",
        [tensor("a", FLOAT, [2]), tensor("b", FLOAT, [3])],
        # A tensor output beside the sequence lets a test fetch just the tensor.
        [helper.make_value_info("seq", seq_type), tensor("t", FLOAT, [2])],
    )
    return make_model(graph, doc_string="a sequence output, which is not a tensor")


def model_int_scalar() -> onnx.ModelProto:
    two = numpy_helper.from_array(np.array(2, dtype=np.int64), "two")
    graph = helper.make_graph(
        [helper.make_node("Mul", ["n", "two"], ["n2"])],
        "int_scalar",
        [tensor("n", INT64, [])],
        [tensor("n2", INT64, [])],
        initializer=[two],
    )
    return make_model(graph, doc_string="rank-0 int64 in and out")


def model_shapeless() -> onnx.ModelProto:
    # A type with no shape at all: any rank, which is not the same as a scalar.
    graph = helper.make_graph(
        [helper.make_node("Neg", ["x"], ["y"]), helper.make_node("Identity", ["n"], ["n_out"])],
        "shapeless",
        [tensor("x", FLOAT, None), tensor("n", INT64, [])],
        [tensor("y", FLOAT, None), tensor("n_out", INT64, [])],
    )
    return make_model(graph, doc_string="an input and an output of unknown rank beside a scalar")


# Text that would drive a terminal if printed raw: set the window title (OSC),
# clear the screen (CSI), break a line, return the cursor; C1's CSI in UTF-8.
TITLE = "\x1b]0;pwned\x07"
CLEAR = "\x1b[2J"
C1_CSI = "\u009b"


def model_escapes() -> onnx.ModelProto:
    """Names, a symbolic dimension and metadata full of control characters:
    what every human-readable output must escape."""
    inp, out, dim = f"in{TITLE}put", f"out\nput\r{CLEAR}", f"N{TITLE}"
    graph = helper.make_graph(
        [helper.make_node("Identity", [inp], [out])],
        f"graph{TITLE}\nname",
        [tensor(inp, FLOAT, [dim, 2])],
        [tensor(out, FLOAT, [dim, 2])],
        doc_string=f"graph doc\r{CLEAR}",
    )
    model = make_model(graph, doc_string=f"line one\nline two{TITLE}{C1_CSI}2J", domain=f"ai.ortkit{TITLE}")
    model.producer_name = f"ortkit-tests{CLEAR}"
    helper.set_model_props(model, {f"key{TITLE}": f"value\n{CLEAR}\r\t\x7f"})
    return model


def model_bad_op() -> onnx.ModelProto:
    graph = helper.make_graph(
        [helper.make_node("NoSuchOp", ["x"], ["y"], domain="")],
        "bad_op",
        [tensor("x", FLOAT, [1])],
        [tensor("y", FLOAT, [1])],
    )
    return make_model(graph, doc_string="uses an operator that does not exist")


# ---------------------------------------------------------------- files


# Hostile nesting, written as raw protobuf: the onnx package would need as
# much recursion to build these as a decoder needs to read them.
def pb_varint(v: int) -> bytes:
    out = bytearray()
    while True:
        b, v = v & 0x7F, v >> 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def pb_field(number: int, body: bytes) -> bytes:
    """A length-delimited field."""
    return pb_varint(number << 3 | 2) + pb_varint(len(body)) + body


def pb_nest(levels, inner: bytes) -> bytes:
    """levels, outermost first: (field number, bytes before the next level).
    Each level is a length-delimited field holding those bytes and the next
    level; the sizes are worked out inside out, so depth costs no copying."""
    sizes, size = [], len(inner)
    for number, before in reversed(levels):
        size += len(before)
        sizes.append(size)
        size += len(pb_varint(number << 3 | 2)) + len(pb_varint(size))
    sizes.reverse()
    parts = [pb_varint(n << 3 | 2) + pb_varint(sz) + before for (n, before), sz in zip(levels, sizes)]
    return b"".join(parts) + inner


def deep_type_model(depth: int) -> bytes:
    """Input x of type seq(seq(...(tensor(float)))), depth sequences deep:
    each level is TypeProto.sequence_type (4) holding Sequence.elem_type (1)."""
    tensor_type = pb_field(1, pb_varint(1 << 3) + pb_varint(1))  # TypeProto.tensor_type{elem_type: 1}
    value_info = pb_field(1, b"x") + pb_field(2, pb_nest([(4, b""), (1, b"")] * depth, tensor_type))
    graph = (
        pb_field(1, pb_field(1, b"x") + pb_field(2, b"y") + pb_field(4, b"Identity"))
        + pb_field(2, b"deep_type")
        + pb_field(11, value_info)
        + pb_field(12, pb_field(1, b"y") + pb_field(2, tensor_type))
    )
    opset = pb_field(8, pb_varint(2 << 3) + pb_varint(OPSET))
    return pb_varint(1 << 3) + pb_varint(IR_VERSION) + opset + pb_field(7, graph)


def deep_graph_model(depth: int) -> bytes:
    """An If node whose then_branch graph holds an If node whose ..., depth
    graphs deep: GraphProto.node (1) -> NodeProto.attribute (5) -> AttributeProto.g (6)."""
    node = pb_field(4, b"If")
    attr = pb_field(1, b"then_branch") + pb_varint(20 << 3) + pb_varint(5)  # type: GRAPH
    graph = pb_nest([(1, node), (5, attr), (6, b"")] * depth, pb_field(2, b"innermost"))
    opset = pb_field(8, pb_varint(2 << 3) + pb_varint(OPSET))
    return pb_varint(1 << 3) + pb_varint(IR_VERSION) + opset + pb_field(7, graph)


def make_deep_models(w: Writer) -> None:
    # Deep enough to overflow any stack through a decoder that recurses
    # (5,000 sequences: 34 KB; 20,000 graphs), and the two sides of the
    # limit of 100 nested messages that ortkit shares with ONNX Runtime: the
    # innermost TypeProto.tensor_type of n sequences lies 4 + 2n levels down.
    w.bytes("deep_type.onnx", deep_type_model(5000))
    w.bytes("deep_graph.onnx", deep_graph_model(20000))
    w.bytes("deep_type_100.onnx", deep_type_model(48))
    w.bytes("deep_type_102.onnx", deep_type_model(49))



def assert_unparsable(name: str, data: bytes) -> None:
    """Bad-model files must fail at parsing, not by a fluke parse as a partial model."""
    try:
        onnx.ModelProto.FromString(data)
    except Exception:  # the protobuf runtime's DecodeError type varies by backend
        return
    raise AssertionError(f"{name} parses as a ModelProto; change its seed or cut")


def make_bad_models(w: Writer, matmul_bytes: bytes) -> None:
    w.bytes("empty.onnx", b"")

    truncated = matmul_bytes[: len(matmul_bytes) // 2]
    assert_unparsable("truncated.onnx", truncated)
    w.bytes("truncated.onnx", truncated)

    random_bytes = np.random.RandomState(99).randint(0, 256, 4096, dtype=np.uint8).tobytes()
    assert_unparsable("random.onnx", random_bytes)
    w.bytes("random.onnx", random_bytes)

    # A TensorProto is well-formed protobuf, and even decodes as a ModelProto
    # (its dims land in ir_version, the rest in unknown fields) but has no graph:
    # the runtime must reject it for what it is, not for bad wire format.
    not_model = numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3))
    data = not_model.SerializeToString()
    assert not onnx.ModelProto.FromString(data).HasField("graph")
    w.bytes("not_onnx.onnx", data)

    w.model("bad_op.onnx", model_bad_op(), check=False)


def make_bad_npy(w: Writer) -> None:
    good = io.BytesIO()
    np.save(good, np.arange(4, dtype=np.float32).reshape(2, 2))
    w.bytes("bad_magic.npy", b"\x93NUMPX" + good.getvalue()[6:])

    # Header promises 100x100 float32 (40000 bytes); only 16 follow.
    lying = io.BytesIO()
    np.lib.format.write_array_header_1_0(lying, {"descr": "<f4", "fortran_order": False, "shape": (100, 100)})
    lying.write(np.arange(4, dtype=np.float32).tobytes())
    w.bytes("lying_size.npy", lying.getvalue())

    fortran = np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    w.npy("fortran.npy", fortran)

    # A structured dtype has no ONNX element type.
    rec = np.zeros(2, dtype=[("a", "<f4"), ("b", "<i4")])
    w.npy("bad_dtype.npy", rec)
    # Big-endian data is valid .npy; a reader must swap it or refuse it clearly.
    w.npy("big_endian.npy", np.arange(6, dtype=">f4").reshape(2, 3))

    arr = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
    w.npy("npy_v2.npy", arr, version=(2, 0))
    w.npy("npy_v3.npy", arr, version=(3, 0))


# numpy dtypes for typed .npy files; bfloat16 and string have no plain numpy form.
NPY_TYPES = [
    ("float32", np.float32),
    ("float64", np.float64),
    ("float16", np.float16),
    ("int8", np.int8),
    ("uint8", np.uint8),
    ("int16", np.int16),
    ("uint16", np.uint16),
    ("int32", np.int32),
    ("uint32", np.uint32),
    ("int64", np.int64),
    ("uint64", np.uint64),
    ("bool", np.bool_),
]


def make_reference_data(w: Writer, layers) -> None:
    rs = np.random.RandomState(42)

    a = np.arange(6, dtype=np.float32).reshape(2, 3) * np.float32(0.5)
    b = rs.uniform(-1, 1, (2, 3)).astype(np.float32)
    w.npy("add_a.npy", a)
    w.npy("add_b.npy", b)
    w.npy("add_sum.npy", a + b)

    images = rs.uniform(0, 1, (2, 3, 4, 5)).astype(np.float32)
    w.npy("dynamic_images.npy", images)
    w.npy("dynamic_pooled.npy", images.mean(axis=(2, 3), keepdims=True, dtype=np.float32))
    w.npy("dynamic_scaled.npy", images * np.float32(2))

    x = rs.standard_normal((4, MATMUL_WIDTH)).astype(np.float32)
    w.npy("matmul_x.npy", x)
    w.npy("matmul_y.npy", matmul_reference(layers, x))

    w.npy("n.npy", np.array(21, dtype=np.int64))
    w.npy("i64_1x3.npy", np.array([[1, 2, 3]], dtype=np.int64))

    # Inputs of every numpy-representable type, shaped for identity_types.onnx.
    base = np.array([[0, 1, 2], [3, 4, 5]])
    for name, dt in NPY_TYPES:
        w.npy(f"id_{name}.npy", (base % 2 == 1) if dt is np.bool_ else base.astype(dt))


def main() -> int:
    ap = argparse.ArgumentParser(description="Generate ortkit's test models and data.")
    ap.add_argument("outdir")
    ap.add_argument("-v", "--verbose", action="store_true", help="name each file made on stderr")
    args = ap.parse_args()

    os.makedirs(args.outdir, exist_ok=True)
    w = Writer(args.outdir, args.verbose)

    layers = matmul_weights()
    w.model("add.onnx", model_add())
    w.model("identity_types.onnx", model_identity_types())
    w.model("many_io.onnx", model_many_io())
    w.model("dynamic.onnx", model_dynamic())
    matmul_bytes = w.model("matmul.onnx", model_matmul(layers))
    w.model("tiny.onnx", model_tiny())
    w.model("slow.onnx", model_slow())
    w.model("strings.onnx", model_strings())
    w.model("seq_out.onnx", model_seq_out())
    w.model("int_scalar.onnx", model_int_scalar())
    w.model("escapes.onnx", model_escapes())
    w.model("classifier_unnamed.onnx", model_classifier_unnamed())
    w.model("unnamed_pair.onnx", model_unnamed_pair())
    w.model("measure_cos.onnx", model_measure("measure_cos", [helper.make_node("Cos", ["x"], ["y"])]))
    w.model("measure_leaky_relu.onnx", model_measure(
        "measure_leaky_relu", [helper.make_node("LeakyRelu", ["x"], ["y"], alpha=0.1)]))
    w.model("measure_cos_nan.onnx", model_measure_cos_nan())

    # onnx.checker wants a shape on every graph input and output; the format
    # does not (no shape: an unknown rank), and ONNX Runtime loads it.
    w.model("shapeless.onnx", model_shapeless(), check=False)

    make_bad_models(w, matmul_bytes)
    make_deep_models(w)
    make_reference_data(w, layers)
    make_bad_npy(w)
    return 0


if __name__ == "__main__":
    sys.exit(main())
