#!/usr/bin/python3
"""Generate the models whose inputs or outputs are not plain tensors.

Usage: make_value_models.py OUTDIR

- classifier.onnx: a scikit-learn-style gradient-boosted classifier, ONNX-ML
  TreeEnsembleClassifier (30 features, 3 classes, 100 trees of depth 4,
  softmax) followed by ZipMap: outputs `label` (int64[N]) and
  `probabilities`, a sequence of maps (seq(map(int64, float))).  Beside it
  classifier_x.npy (8 rows of features) and classifier_expected.json, the
  probabilities computed here with numpy by walking the same trees.
- linear_strings.onnx: LinearClassifier with string labels and ZipMap, so
  the maps have string keys.
- seq_ops.onnx: a sequence input and a sequence output
  (ConcatFromSequence, SequenceLength, SplitToSequence, SequenceConstruct).
- optional.onnx: an optional input and an optional output
  (OptionalHasElement, Identity on optional(tensor)).
- map_in.onnx: a map input (DictVectorizer over map(int64, float)).

Everything is checked with onnx.checker (fully where no map is involved:
ONNX 1.12's shape inference cannot merge map types) and made from fixed seeds.  Uses the
Writer of make_models.py, so files already right are left untouched.
"""

import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_models import IR_VERSION, Writer  # noqa: E402

FLOAT = TensorProto.FLOAT
INT64 = TensorProto.INT64
STRING = TensorProto.STRING
OPSET = 17
ML_OPSET = 3  # TreeEnsembleClassifier 3 (ORT 1.17 and 1.30), ZipMap 1

FEATURES, CLASSES, TREES, DEPTH = 30, 3, 100, 4


def ml_model(graph, opset=OPSET):
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", opset), helper.make_opsetid("ai.onnx.ml", ML_OPSET)],
        producer_name="ortkit-tests",
    )
    model.ir_version = IR_VERSION
    return model


def map_type(key_type):
    """map(key, float); ONNX 1.12's helper has no make_map_type_proto."""
    t = onnx.TypeProto()
    t.map_type.key_type = key_type
    t.map_type.value_type.CopyFrom(helper.make_tensor_type_proto(FLOAT, None))
    return t


def seq_of_maps(key_type):
    return helper.make_sequence_type_proto(map_type(key_type))


def make_trees(rng):
    """100 full binary trees of depth 4, each voting for one class (as
    gradient boosting does: one tree per class per round)."""
    trees = []
    for t in range(TREES):
        inner = 2 ** DEPTH - 1
        feature = rng.integers(0, FEATURES, inner)
        threshold = rng.normal(0, 1, inner).astype(np.float32)
        leaf = (rng.normal(0, 0.3, 2 ** DEPTH)).astype(np.float32)
        trees.append((t % CLASSES, feature, threshold, leaf))
    return trees


def model_classifier(trees):
    a = {k: [] for k in ("nodes_treeids", "nodes_nodeids", "nodes_featureids", "nodes_values",
                         "nodes_modes", "nodes_truenodeids", "nodes_falsenodeids",
                         "class_treeids", "class_nodeids", "class_ids", "class_weights")}
    for tid, (cls, feature, threshold, leaf) in enumerate(trees):
        inner = len(feature)
        for n in range(inner + len(leaf)):
            a["nodes_treeids"].append(tid)
            a["nodes_nodeids"].append(n)
            if n < inner:
                a["nodes_featureids"].append(int(feature[n]))
                a["nodes_values"].append(float(threshold[n]))
                a["nodes_modes"].append("BRANCH_LEQ")
                a["nodes_truenodeids"].append(2 * n + 1)
                a["nodes_falsenodeids"].append(2 * n + 2)
            else:
                a["nodes_featureids"].append(0)
                a["nodes_values"].append(0.0)
                a["nodes_modes"].append("LEAF")
                a["nodes_truenodeids"].append(0)
                a["nodes_falsenodeids"].append(0)
                a["class_treeids"].append(tid)
                a["class_nodeids"].append(n)
                a["class_ids"].append(cls)
                a["class_weights"].append(float(leaf[n - inner]))
    nodes = [
        helper.make_node("TreeEnsembleClassifier", ["x"], ["label", "scores"], domain="ai.onnx.ml",
                         classlabels_int64s=list(range(CLASSES)), post_transform="SOFTMAX", **a),
        helper.make_node("ZipMap", ["scores"], ["probabilities"], domain="ai.onnx.ml",
                         classlabels_int64s=list(range(CLASSES))),
    ]
    graph = helper.make_graph(
        nodes, "classifier",
        [helper.make_tensor_value_info("x", FLOAT, ["N", FEATURES])],
        [helper.make_tensor_value_info("label", INT64, ["N"]),
         helper.make_value_info("probabilities", seq_of_maps(INT64))])
    return ml_model(graph)


def classify(trees, x):
    """The classifier's probabilities, computed the way the model defines them."""
    scores = np.zeros((x.shape[0], CLASSES), dtype=np.float64)
    for cls, feature, threshold, leaf in trees:
        inner = len(feature)
        for r in range(x.shape[0]):
            n = 0
            while n < inner:
                n = 2 * n + 1 if x[r, feature[n]] <= threshold[n] else 2 * n + 2
            scores[r, cls] += leaf[n - inner]
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def model_linear_strings():
    rng = np.random.default_rng(7)
    labels = ["cat", "dog", "bird"]
    nodes = [
        helper.make_node("LinearClassifier", ["x"], ["label", "scores"], domain="ai.onnx.ml",
                         classlabels_strings=labels, post_transform="SOFTMAX",
                         coefficients=[float(c) for c in rng.normal(0, 1, 3 * 4)],
                         intercepts=[0.1, -0.2, 0.05]),
        helper.make_node("ZipMap", ["scores"], ["probabilities"], domain="ai.onnx.ml",
                         classlabels_strings=labels),
    ]
    graph = helper.make_graph(
        nodes, "linear_strings",
        [helper.make_tensor_value_info("x", FLOAT, ["N", 4])],
        [helper.make_tensor_value_info("label", STRING, ["N"]),
         helper.make_value_info("probabilities", seq_of_maps(STRING))])
    return ml_model(graph)


def model_seq_ops():
    seq_f = helper.make_sequence_type_proto(helper.make_tensor_type_proto(FLOAT, None))
    nodes = [
        helper.make_node("ConcatFromSequence", ["seq"], ["cat"], axis=0),
        helper.make_node("SequenceLength", ["seq"], ["len"]),
        helper.make_node("SplitToSequence", ["x"], ["rows"], axis=0, keepdims=0),
        helper.make_node("SequenceConstruct", ["x", "x"], ["pair"]),
    ]
    graph = helper.make_graph(
        nodes, "seq_ops",
        [helper.make_value_info("seq", seq_f), helper.make_tensor_value_info("x", FLOAT, ["R", 4])],
        [helper.make_tensor_value_info("cat", FLOAT, ["C", 4]),
         helper.make_tensor_value_info("len", INT64, []),
         helper.make_value_info("rows", seq_f),
         helper.make_value_info("pair", seq_f)])
    return ml_model(graph)


def model_optional():
    opt_f = helper.make_optional_type_proto(helper.make_tensor_type_proto(FLOAT, [3]))
    nodes = [
        helper.make_node("OptionalHasElement", ["maybe"], ["has"]),
        helper.make_node("Identity", ["maybe"], ["echo"]),
    ]
    graph = helper.make_graph(
        nodes, "optional",
        [helper.make_value_info("maybe", opt_f)],
        [helper.make_tensor_value_info("has", TensorProto.BOOL, []),
         helper.make_value_info("echo", opt_f)])
    return ml_model(graph)


def model_map_in():
    map_t = map_type(INT64)
    nodes = [helper.make_node("DictVectorizer", ["m"], ["v"], domain="ai.onnx.ml",
                              int64_vocabulary=[1, 2, 3, 5, 8])]
    graph = helper.make_graph(
        nodes, "map_in", [helper.make_value_info("m", map_t)],
        [helper.make_tensor_value_info("v", FLOAT, [1, 5])])
    return ml_model(graph)


def main() -> int:
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    w = Writer(outdir, False)
    rng = np.random.default_rng(2024)
    trees = make_trees(rng)
    clf = model_classifier(trees)
    onnx.checker.check_model(clf)  # ONNX 1.12's shape inference cannot merge map types
    w.bytes("classifier.onnx", clf.SerializeToString())  # about 200 KB: more than w.model allows
    x = rng.normal(0, 1, (8, FEATURES)).astype(np.float32)
    w.npy("classifier_x.npy", x)
    probs = classify(trees, x)
    w.bytes("classifier_expected.json",
            (json.dumps({"label": [int(i) for i in probs.argmax(axis=1)],
                         "probabilities": probs.tolist()}) + "\n").encode())
    w.model("linear_strings.onnx", model_linear_strings(), check=False)
    onnx.checker.check_model(model_linear_strings())
    w.model("seq_ops.onnx", model_seq_ops())
    w.model("optional.onnx", model_optional())
    w.model("map_in.onnx", model_map_in(), check=False)
    onnx.checker.check_model(model_map_in())
    return 0


if __name__ == "__main__":
    sys.exit(main())
