# ortkit info: a model's inputs, outputs (with symbolic dimensions),
# metadata and operator sets, as text and as JSON.

# --- add.onnx: symbolic N, every metadata field, custom keys ---
expect_exit 0 "$ORTKIT" info "$MODELS/add.onnx"
expect_lines err 0
expect_in out "model     $MODELS/add.onnx"
expect_in out "IR        8"
expect_in out "opsets    ai.onnx 17"
expect_in out "graph     1 nodes, 0 initializers"
expect_in out "inputs (2)"
expect_in out "  a     float32[N,3]"
expect_in out "  b     float32[N,3]"
expect_in out "outputs (1)"
expect_in out "  sum   float32[N,3]"
expect_in out "metadata"
expect_in out "producer     ortkit-tests"
expect_in out "graph        add_graph"
expect_in out "domain       ai.ortkit.test"
expect_in out "version      7"
expect_in out "description  adds two tensors"
expect_in out "author       ortkit"
expect_in out "purpose      testing"

expect_exit 0 "$ORTKIT" info "$MODELS/add.onnx" --json
expect_lines err 0
/usr/bin/python3 <<'EOF'
import json
doc = json.load(open("out"))
assert doc["model"].endswith("/add.onnx")
assert doc["ir_version"] == 8, doc
assert doc["opsets"] == [{"domain": "", "version": 17}], doc["opsets"]
assert (doc["nodes"], doc["initializers"]) == (1, 0)
ins = [(i["name"], i["kind"], i["type"], i["shape"]) for i in doc["inputs"]]
assert ins == [("a", "tensor", "float32", ["N", 3]), ("b", "tensor", "float32", ["N", 3])], ins
outs = [(o["name"], o["kind"], o["type"], o["shape"]) for o in doc["outputs"]]
assert outs == [("sum", "tensor", "float32", ["N", 3])], outs
md = doc["metadata"]
assert md["producer"] == "ortkit-tests", md
assert md["graph_name"] == "add_graph", md
assert md["domain"] == "ai.ortkit.test", md
assert md["description"] == "adds two tensors", md
assert md["version"] == 7, md
assert md["custom"] == {"author": "ortkit", "purpose": "testing"}, md
EOF

# The oldest supported runtime reads the same model the same way.
expect_exit 0 "$ORTKIT" info "$MODELS/add.onnx" --json --runtime "$RT_OLD"
/usr/bin/python3 -c 'import json
doc = json.load(open("out"))
assert doc["inputs"][0]["shape"] == ["N", 3] and doc["metadata"]["custom"]["author"] == "ortkit", doc'

# --- dynamic.onnx: several symbols, an initializer ---
expect_exit 0 "$ORTKIT" info "$MODELS/dynamic.onnx"
expect_in out "graph     2 nodes, 1 initializers"
expect_in out "images  float32[batch,3,height,width]"
expect_in out "pooled  float32[batch,3,1,1]"
expect_in out "scaled  float32[batch,3,height,width]"
expect_in out "description  symbolic batch, height and width"
expect_exit 0 "$ORTKIT" info "$MODELS/dynamic.onnx" --json
/usr/bin/python3 -c 'import json
doc = json.load(open("out"))
assert doc["inputs"][0]["shape"] == ["batch", 3, "height", "width"], doc["inputs"]
assert [o["shape"] for o in doc["outputs"]] == [["batch", 3, 1, 1], ["batch", 3, "height", "width"]], doc["outputs"]
# A model that sets no model_version: null (ORT says INT64_MAX), not 9.22e+18.
assert doc["metadata"]["version"] is None, doc["metadata"]'

# --- other shapes of model ---
expect_exit 0 "$ORTKIT" info "$MODELS/int_scalar.onnx"
expect_in out "n     int64[]"
expect_exit 0 "$ORTKIT" info "$MODELS/seq_out.onnx"
expect_in out "seq   sequence<float32>"
expect_exit 0 "$ORTKIT" info "$MODELS/seq_out.onnx" --json
/usr/bin/python3 -c 'import json
o = json.load(open("out"))["outputs"][0]
assert (o["name"], o["kind"], o["type"]) == ("seq", "sequence", "float32"), o'
# A type without a shape: any rank, told apart from the scalar beside it,
# by both runtimes (which report the two alike).
for rt in "$RT_NEW" "$RT_OLD"; do
    expect_exit 0 "$ORTKIT" info "$MODELS/shapeless.onnx" --runtime "$rt"
    expect_in out "  x     float32[?...]"
    expect_in out "  n     int64[]"
    expect_in out "  y      float32[?...]"
    expect_in out "  n_out  int64[]"
    expect_exit 0 "$ORTKIT" info "$MODELS/shapeless.onnx" --json --runtime "$rt"
    /usr/bin/python3 -c 'import json
doc = json.load(open("out"))
shapes = [(v["name"], v["shape"]) for v in doc["inputs"] + doc["outputs"]]
assert shapes == [("x", None), ("n", []), ("y", None), ("n_out", [])], shapes'
done
expect_exit 0 "$ORTKIT" info "$MODELS/many_io.onnx"
expect_in out "inputs (5)"
expect_in out "outputs (6)"
expect_in out "argmax  int64[2]"
expect_exit 0 "$ORTKIT" info "$MODELS/identity_types.onnx"
expect_in out "inputs (14)"
expect_in out "in_bfloat16  bfloat16[2,3]"
expect_in out "in_string    string[2,3]"

# --- the real application model: Silero VAD, exported by PyTorch ---
expect_exit 0 "$ORTKIT" info "$APP_MODEL"
expect_lines err 0
expect_in out "inputs (4)"
expect_in out "input  float32[batch,sequence]"
expect_in out "sr     int64[]"
expect_in out "h      float32[2,batch,64]"
expect_in out "c      float32[2,batch,64]"
expect_in out "outputs (3)"
expect_in out "output  float32[batch,1]"
expect_in out "hn      float32[2,batch,64]"
expect_in out "producer  pytorch"
expect_in out "ai.onnx 16"
expect_exit 0 "$ORTKIT" info "$APP_MODEL" --json
/usr/bin/python3 -c 'import json
doc = json.load(open("out"))
assert [i["name"] for i in doc["inputs"]] == ["input", "sr", "h", "c"], doc["inputs"]
assert [o["name"] for o in doc["outputs"]] == ["output", "hn", "cn"], doc["outputs"]
assert {"domain": "", "version": 16} in doc["opsets"], doc["opsets"]
assert doc["metadata"]["producer"] == "pytorch" and doc["initializers"] > 0, doc'

# --- files that are not models: exit 1, one line naming the file ---
for bad in nosuch empty truncated random not_onnx bad_op; do
    expect_exit 1 "$ORTKIT" info "$MODELS/$bad.onnx"
    expect_lines out 0
    expect_lines err 1
    expect_in err "ortkit: "
    expect_in err "$MODELS/$bad.onnx'"
    expect_exit 1 "$ORTKIT" info "$MODELS/$bad.onnx" --json
    expect_lines out 0
done
# Messages nested past 100 levels: refused before decoding, where 5,000
# sequence types (34 KB) or 20,000 nested graphs crashed it; at 100 the
# file decodes, and the runtime refuses the type.
for deep in deep_type deep_graph deep_type_102; do
    expect_exit 1 "$ORTKIT" info "$MODELS/$deep.onnx"
    expect_lines out 0
    expect_lines err 1
    expect_in err "ortkit: '$MODELS/$deep.onnx' is not a usable ONNX model: messages nested deeper than 100 levels"
done
expect_exit 1 "$ORTKIT" info "$MODELS/deep_type_100.onnx"
expect_in err "Type Error"
expect_exit 1 "$ORTKIT" info "$MODELS"
expect_lines out 0
expect_in err "'$MODELS'"
# A good model with a runtime that cannot be loaded.
expect_exit 1 "$ORTKIT" info "$MODELS/add.onnx" --runtime "$STUBS/libstub_no_symbol.so"
expect_lines out 0
expect_in err "OrtGetApiBase"

# --- usage ---
expect_exit 2 "$ORTKIT" info
expect_in err "no model given"
expect_exit 2 "$ORTKIT" info "$MODELS/add.onnx" "$MODELS/add.onnx"
expect_exit 2 "$ORTKIT" info --nosuch "$MODELS/add.onnx"
expect_lines out 0
