# --shape NAME=D0,D1,...: the whole shape of a generated input, for a
# dimension without a name (a classifier exported with shape [None, 12]),
# which no --dim can size.  Accepted by run, bench and info, as their --help
# and the user guide write it.

PY=/usr/bin/python3
CLF="$MODELS/classifier_unnamed.onnx"
PAIR="$MODELS/unnamed_pair.onnx"

# --- without it: the error says what to give ---------------------------------
expect_exit 1 "$ORTKIT" run "$CLF" --random
expect_lines err 1
expect_in err "ortkit: symbolic dimensions without a size: X[dim 0, unnamed] (a dimension without a name has no SYMBOL: give the input's whole shape, e.g. --shape X=1,12)"
expect_exit 1 "$ORTKIT" bench "$CLF" -n 5
expect_in err "e.g. --shape X=1,12)"
# Named and unnamed together: --dim for one, --shape for the other.
expect_exit 1 "$ORTKIT" run "$PAIR" --zeros
expect_in err "symbolic dimensions without a size: X[dim 0, unnamed], N (set each named one with --dim SYMBOL=SIZE; a dimension without a name has no SYMBOL: give the input's whole shape, e.g. --shape X=1,1)"
# A size --dim gave goes into the example.
expect_exit 1 "$ORTKIT" run "$PAIR" --zeros --dim N=3
expect_in err "symbolic dimensions without a size: X[dim 0, unnamed] (a dimension without a name has no SYMBOL: give the input's whole shape, e.g. --shape X=1,3)"

# --- info says it before anything runs --------------------------------------
expect_exit 0 "$ORTKIT" info "$CLF"
expect_in out "  X     float32[?,12]"
expect_in out "  note: 'X' has a dimension without a name (no --dim sizes it): run and bench generate it with --shape X=D0,12"
expect_exit 0 "$ORTKIT" info "$MODELS/add.onnx"
expect_not_in out "note:"
expect_exit 0 "$ORTKIT" info "$CLF" --shape X=4,12
expect_in out "  X     float32[?,12] as [4,12] (--shape)"
expect_not_in out "note:"
expect_exit 0 "$ORTKIT" info "$CLF" --shape X=4,12 --json
"$PY" -c 'import json; d = json.load(open("out")); x = d["inputs"][0]
assert x["shape"] == ["?", 12] and x["shape_given"] == [4, 12], x'

# --- run: generated with that shape, and the result is the model's -----------
expect_exit 0 "$ORTKIT" run "$CLF" --zeros --shape X=4,12 -o res
expect_lines err 0
expect_in out "probabilities  float32  [4,3]"
# Zeros in: each row is softmax of the bias (0.5, 0, -0.5).
"$PY" -c '
import numpy as np
p = np.load("res/probabilities.npy")
b = np.array([0.5, 0.0, -0.5]); ref = np.exp(b) / np.exp(b).sum()
assert p.shape == (4, 3) and np.allclose(p, ref, atol=1e-6), p'
expect_exit 0 "$ORTKIT" run "$CLF" --random --shape X=2,12 --json
"$PY" -c 'import json; d = json.load(open("out")); assert d["outputs"][0]["shape"] == [2, 3], d["outputs"]'
# A size of 0 is a shape too.
expect_exit 0 "$ORTKIT" run "$CLF" --zeros --shape X=0,12
expect_in out "[0,3]"
# The shape sizes the input's named dimensions for the other inputs: Y is [N].
expect_exit 0 "$ORTKIT" run "$PAIR" --zeros --shape X=2,5
expect_in out "sum     float32  [2,5]"

# --- bench ----------------------------------------------------------------
expect_exit 0 "$ORTKIT" bench "$CLF" --shape X=8,12 -n 20 --warmup 1 --json
"$PY" -c 'import json; d = json.load(open("out"))
assert d["inputs"] == [{"name": "X", "type": "float32", "shape": [8, 12], "source": "random"}], d["inputs"]
assert d["runs_per_side"] == 20'

# --- what does not fit the model: before anything runs, naming both ----------
expect_exit 1 "$ORTKIT" run "$CLF" --random --shape X=4,11
expect_in err "ortkit: --shape X=4,11: input 'X' is float32[?,12]: dimension 1 is 12"
expect_exit 1 "$ORTKIT" run "$CLF" --random --shape X=4
expect_in err "ortkit: --shape X=4: input 'X' is float32[?,12]: give 2 dimensions"
expect_exit 1 "$ORTKIT" run "$CLF" --random --shape Z=4,12
expect_in err "ortkit: --shape Z=4,12: '$CLF' has no input named 'Z' (its inputs: X)"
expect_exit 1 "$ORTKIT" info "$CLF" --shape X=4,11
expect_in err "dimension 1 is 12"
expect_exit 1 "$ORTKIT" run "$PAIR" --zeros --shape X=2,5 --dim N=4
expect_in err "ortkit: --shape X=2,5 makes N 5, but --dim makes it 4"
echo 'import numpy as np; np.save("x.npy", np.zeros((2, 12), np.float32))' | "$PY"
expect_exit 1 "$ORTKIT" run "$CLF" -i X=x.npy --shape X=2,12
expect_in err "ortkit: input 'X' is given with -i and --shape: --shape is the shape of a generated input; give one"

# --- usage ------------------------------------------------------------------
for bad in X X=4, X=,4 X=a,12 =4,12 X=-1,12 X=4,,12 X=2147483648; do
    expect_exit 2 "$ORTKIT" run "$CLF" --random --shape "$bad"
done
expect_exit 2 "$ORTKIT" run "$CLF" --random --shape X=4,12 --shape X=1,12
expect_in err "ortkit run: --shape X is given twice; give it once"
expect_exit 2 "$ORTKIT" bench "$CLF" --shape X=4,x
expect_in err "ortkit bench: --shape X=4,x: each dimension is a whole number from 0 to 2147483647, separated by commas"

# --- an input of any rank (no shape in the model): --shape gives it one -----
expect_exit 1 "$ORTKIT" run "$MODELS/shapeless.onnx" --random
expect_in err "give it with -i x=FILE.npy, or its shape with --shape x=D0,D1,..."
expect_exit 0 "$ORTKIT" run "$MODELS/shapeless.onnx" --random --shape x=2,3
expect_in out "[2,3]"
# NAME= is a scalar.
expect_exit 0 "$ORTKIT" run "$MODELS/shapeless.onnx" --zeros --shape x= --json
"$PY" -c 'import json; d = json.load(open("out")); assert d["outputs"][0]["shape"] == [], d["outputs"]'
