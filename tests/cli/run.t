# ortkit run: real models, inputs from .npy files or generated, outputs
# checked numerically against references computed by numpy.

# Debian's python has numpy; the python3 first on PATH may not.
PY=/usr/bin/python3

# npy_check FILE EXPR: fail unless the Python expression EXPR is true, with
# `a` the array loaded from FILE and `np` numpy.
npy_check() {
    if ! "$PY" -c 'import sys, numpy as np
a = np.load(sys.argv[1])
ok = eval(sys.argv[2])
if not ok:
    print("value:", a.dtype, a.shape, a.ravel()[:16], file=sys.stderr)
sys.exit(0 if ok else 1)' "$1" "$2"; then
        echo "FAIL: $1 does not satisfy: $2" >&2
        exit 1
    fi
}

# npy_close FILE REF: fail unless FILE holds the same dtype and shape as REF
# and the values agree to float32 rounding.
npy_close() {
    npy_check "$1" "a.dtype == np.load('$2').dtype and a.shape == np.load('$2').shape and np.allclose(a, np.load('$2'), rtol=1e-6, atol=1e-6)"
}

# --- add.onnx on .npy inputs: the table, then the saved output ---
expect_exit 0 "$ORTKIT" run "$MODELS/add.onnx" -i a="$MODELS/add_a.npy" -i b="$MODELS/add_b.npy" -o outdir
expect_in out "model     $MODELS/add.onnx"
expect_in out "runtime   ONNX Runtime 1.30.0"
expect_in out "providers CPUExecutionProvider"
expect_in out "output"
expect_in out "first values"
expect_in out "sum     float32  [2,3]"
expect_in out "session created in"
expect_in out "first run"
expect_lines err 0
[ -f outdir/sum.npy ] || { echo "FAIL: -o did not write outdir/sum.npy" >&2; exit 1; }
npy_close outdir/sum.npy "$MODELS/add_sum.npy"
# Only the outputs land in the directory, no temporary files.
[ "$(ls -A outdir)" = "sum.npy" ] || { echo "FAIL: outdir holds: $(ls -A outdir)" >&2; exit 1; }

# A second run into the same directory replaces the file.
expect_exit 0 "$ORTKIT" run "$MODELS/add.onnx" -i a="$MODELS/add_b.npy" -i b="$MODELS/add_a.npy" -o outdir
npy_close outdir/sum.npy "$MODELS/add_sum.npy"

# --- --json: parses, and has every field ---
expect_exit 0 "$ORTKIT" run "$MODELS/add.onnx" -i a="$MODELS/add_a.npy" -i b="$MODELS/add_b.npy" --json
expect_lines err 0
"$PY" - "$MODELS/add_sum.npy" <<'EOF'
import json, sys
import numpy as np
doc = json.load(open("out"))
for key in ("model", "runtime", "providers", "session_create_s", "latency_s", "outputs"):
    assert key in doc, key
assert doc["model"].endswith("add.onnx")
assert doc["runtime"]["version"] == "1.30.0", doc["runtime"]
assert doc["runtime"]["path"].startswith("/")
assert doc["providers"] == [{"name": "CPUExecutionProvider", "active": True}], doc["providers"]
assert doc["session_create_s"] > 0
lat = doc["latency_s"]
assert lat["runs"] == 1
assert 0 < lat["min"] <= lat["median"] <= lat["max"]
assert len(doc["outputs"]) == 1
o = doc["outputs"][0]
ref = np.load(sys.argv[1])
assert (o["name"], o["type"], o["shape"]) == ("sum", "float32", [2, 3]), o
assert np.allclose(o["first"], ref.ravel(), atol=1e-6), o["first"]
assert abs(o["min"] - ref.min()) < 1e-6 and abs(o["max"] - ref.max()) < 1e-6
assert abs(o["mean"] - ref.mean()) < 1e-5
EOF

# --- generated inputs with symbolic dimensions set by --dim ---
expect_exit 0 "$ORTKIT" run "$MODELS/dynamic.onnx" --random --dim batch=2 --dim height=4 --dim width=5 -o dyn
expect_in out "pooled  float32  [2,3,1,1]"
expect_in out "scaled  float32  [2,3,4,5]"
npy_check dyn/pooled.npy "a.shape == (2, 3, 1, 1) and a.dtype == np.float32"
npy_check dyn/scaled.npy "a.shape == (2, 3, 4, 5) and np.isfinite(a).all() and a.std() > 0"
# pooled is the mean over height and width of images = scaled / 2.
"$PY" -c 'import numpy as np
p, s = np.load("dyn/pooled.npy"), np.load("dyn/scaled.npy")
assert np.allclose(p, (s / 2).mean(axis=(2, 3), keepdims=True), atol=1e-5)'

expect_exit 0 "$ORTKIT" run "$MODELS/dynamic.onnx" --zeros --dim batch=1 --dim height=2 --dim width=3 -o dz
npy_check dz/scaled.npy "a.shape == (1, 3, 2, 3) and (a == 0).all()"
npy_check dz/pooled.npy "a.shape == (1, 3, 1, 1) and (a == 0).all()"

# The same seed gives the same random inputs; another seed, other inputs.
expect_exit 0 "$ORTKIT" run "$MODELS/dynamic.onnx" --random --seed 7 --dim batch=1 --dim height=2 --dim width=2 -o s7a
expect_exit 0 "$ORTKIT" run "$MODELS/dynamic.onnx" --random --seed 7 --dim batch=1 --dim height=2 --dim width=2 -o s7b
expect_exit 0 "$ORTKIT" run "$MODELS/dynamic.onnx" --random --seed 8 --dim batch=1 --dim height=2 --dim width=2 -o s8
npy_close s7a/scaled.npy s7b/scaled.npy
npy_check s8/scaled.npy "not np.array_equal(a, np.load('s7a/scaled.npy'))"

# A real input beside --dim and a file: dynamic.onnx on its reference images.
expect_exit 0 "$ORTKIT" run "$MODELS/dynamic.onnx" -i images="$MODELS/dynamic_images.npy" -o dref
npy_close dref/pooled.npy "$MODELS/dynamic_pooled.npy"
npy_close dref/scaled.npy "$MODELS/dynamic_scaled.npy"

# --- a rank-0 int64 input: 21 * 2 ---
expect_exit 0 "$ORTKIT" run "$MODELS/int_scalar.onnx" -i n="$MODELS/n.npy" -o scalar
expect_in out "n2      int64  []"
expect_in out "42"
npy_check scalar/n2.npy "a.dtype == np.int64 and a.shape == () and int(a) == 42"

# -i FILE without a name, on a model with one input.
expect_exit 0 "$ORTKIT" run "$MODELS/int_scalar.onnx" -i "$MODELS/n.npy" --json
"$PY" -c 'import json; o = json.load(open("out"))["outputs"][0]; assert o["first"] == [42] and o["shape"] == [], o'
expect_exit 0 "$ORTKIT" run "$MODELS/int_scalar.onnx" --input "$MODELS/n.npy"
expect_in out "42"

# --- strings in and out (StringNormalizer upper-cases) ---
expect_exit 0 "$ORTKIT" run "$MODELS/strings.onnx" --random --dim N=4 -o str
expect_in out "upper   string  [4]"
expect_in out "same    string  [4]"
"$PY" -c 'import numpy as np
u, s = np.load("str/upper.npy"), np.load("str/same.npy")
assert u.shape == s.shape == (4,), (u.shape, s.shape)
assert all(x.upper() == y for x, y in zip(s.tolist(), u.tolist())), (s, u)
assert any(x != x.upper() for x in s.tolist()), s'

# --- every element type through Identity, zero-filled ---
expect_exit 0 "$ORTKIT" run "$MODELS/identity_types.onnx" --zeros -o types
for ty in float32 float64 float16 bfloat16 int8 uint8 int16 uint16 int32 uint32 int64 uint64 bool string; do
    expect_in out "out_$ty"
    [ -f "types/out_$ty.npy" ] || { echo "FAIL: no types/out_$ty.npy" >&2; exit 1; }
done
for ty in float32 float64 float16 int8 uint8 int16 uint16 int32 uint32 int64 uint64 bool; do
    npy_check "types/out_$ty.npy" "a.dtype == np.dtype('$ty') and a.shape == (2, 3) and not a.any()"
done

# Typed .npy inputs come back bit for bit.
set --
for ty in float32 float64 float16 int8 uint8 int16 uint16 int32 uint32 int64 uint64 bool; do
    set -- "$@" -i "in_$ty=$MODELS/id_$ty.npy"
done
expect_exit 0 "$ORTKIT" run "$MODELS/identity_types.onnx" "$@" --zeros -o typed
for ty in float32 float64 float16 int8 uint8 int16 uint16 int32 uint32 int64 uint64 bool; do
    npy_check "typed/out_$ty.npy" "a.dtype == np.load('$MODELS/id_$ty.npy').dtype and np.array_equal(a, np.load('$MODELS/id_$ty.npy'))"
done

# --- five inputs, six outputs; .npy format versions 2 and 3 are read ---
expect_exit 0 "$ORTKIT" run "$MODELS/many_io.onnx" -i x0="$MODELS/npy_v2.npy" -i x1="$MODELS/npy_v3.npy" \
    -i x2="$MODELS/npy_v2.npy" -i x3="$MODELS/npy_v2.npy" -i x4="$MODELS/npy_v3.npy" -o many
for o in s01 s23 p4 m t0 argmax; do expect_in out "$o "; done
npy_check many/s01.npy "np.array_equal(a, np.array([[2, 4], [6, 8]], np.float32))"
npy_check many/p4.npy "np.array_equal(a, np.array([[1, 4], [9, 16]], np.float32))"
npy_check many/t0.npy "np.array_equal(a, np.array([[1, 3], [2, 4]], np.float32))"
npy_check many/argmax.npy "a.dtype == np.int64 and a.tolist() == [1, 1]"
# Random inputs for the rest, one given.
expect_exit 0 "$ORTKIT" run "$MODELS/many_io.onnx" -i x4="$MODELS/npy_v2.npy" --random -o many2
npy_check many2/p4.npy "np.array_equal(a, np.array([[1, 4], [9, 16]], np.float32))"
npy_check many2/m.npy "a.shape == (2, 2) and (a >= np.load('$MODELS/npy_v2.npy')).all()"

# --- --repeat and --threads ---
expect_exit 0 "$ORTKIT" run "$MODELS/add.onnx" -i a="$MODELS/add_a.npy" -i b="$MODELS/add_b.npy" --repeat 5 --threads 1
expect_in out "5 runs: min "
expect_in out "median "
expect_in out "mean "
expect_in out "max "
expect_exit 0 "$ORTKIT" run "$MODELS/add.onnx" -i a="$MODELS/add_a.npy" -i b="$MODELS/add_b.npy" --repeat 3 --threads 1 --json -o rep
"$PY" -c 'import json; l = json.load(open("out"))["latency_s"]; assert l["runs"] == 3 and l["min"] <= l["median"] <= l["max"], l'
npy_close rep/sum.npy "$MODELS/add_sum.npy"
# The median is bench's (src/util/stats.c): of an even count, the mean of the middle two.
expect_exit 0 "$ORTKIT" run "$MODELS/add.onnx" -i a="$MODELS/add_a.npy" -i b="$MODELS/add_b.npy" --repeat 2 --threads 1 --json
"$PY" -c 'import json; l = json.load(open("out"))["latency_s"]; assert abs(l["median"] - (l["min"] + l["max"]) / 2) <= 1e-12 * l["max"], l'

# --- the same run on the oldest supported runtime ---
expect_exit 0 "$ORTKIT" run "$MODELS/add.onnx" -i a="$MODELS/add_a.npy" -i b="$MODELS/add_b.npy" --runtime "$RT_OLD" -o old
expect_in out "ONNX Runtime 1.17.3"
npy_close old/sum.npy "$MODELS/add_sum.npy"

# --- the real application model: Silero VAD on 512 samples of silence ---
# --zeros would also make the sample rate 0; give it 16 kHz from a file.
"$PY" -c 'import numpy as np; np.save("sr.npy", np.array(16000, dtype=np.int64))'
expect_exit 0 "$ORTKIT" run "$APP_MODEL" -i sr=sr.npy --zeros --dim batch=1 --dim sequence=512 -o vad
expect_in out "output  float32  [1,1]"
expect_in out "hn      float32  [2,1,64]"
expect_in out "cn      float32  [2,1,64]"
# A speech probability, and silence is not speech.
npy_check vad/output.npy "a.shape == (1, 1) and 0 <= a[0, 0] < 0.5"
npy_check vad/hn.npy "a.shape == (2, 1, 64) and np.isfinite(a).all() and a.any()"
