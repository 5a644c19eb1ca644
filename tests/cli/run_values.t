# ortkit run on values that are not tensors: the classifier (a sequence of
# maps, checked against numpy's probabilities), sequences in and out,
# optionals, maps; -o DIR saves them and -i reads them back; --random makes
# them; bad input is named and nothing is written.  Also bench on the
# classifier.

PY=/usr/bin/python3
snap() { (cd "$1" && find . | sort && find . -type f -exec sha256sum {} + | sort); }

# --- the classifier: probabilities as numpy computes them --------------------
for rt in "$RT_NEW" "$RT_OLD"; do
    expect_exit 0 "$ORTKIT" run "$MODELS/classifier.onnx" -i "$MODELS/classifier_x.npy" --runtime "$rt" \
        -o clf --json
    "$PY" - "$MODELS/classifier_expected.json" <<'EOF'
import glob, json, sys
import numpy as np
want = json.load(open(sys.argv[1]))
out = {o["name"]: o for o in json.load(open("out"))["outputs"]}
p = out["probabilities"]
assert p["kind"] == "sequence" and p["value_type"] == "sequence<map<int64,float32>>", p
assert p["length"] == 8 and len(p["items"]) == 8
got = np.array([m["values"] for m in p["items"]])
assert all(m["keys"] == [0, 1, 2] and m["key_type"] == "int64" for m in p["items"])
assert np.abs(got - np.array(want["probabilities"])).max() < 1e-5, got
assert np.load("clf/label.npy").tolist() == want["label"]
files = sorted(glob.glob("clf/probabilities/*.json"))
assert len(files) == 8, files
saved = np.array([json.load(open(f"clf/probabilities/{i}.json"))["values"] for i in range(8)])
assert np.abs(saved - got).max() == 0
EOF
    [ $? -eq 0 ] || { echo "FAIL: classifier outputs differ from numpy's" >&2; exit 1; }
    rm -rf clf
done
expect_exit 0 "$ORTKIT" run "$MODELS/classifier.onnx" -i "$MODELS/classifier_x.npy"
expect_in out "probabilities       sequence<map<int64,float32>>  (8)"
expect_in out "  probabilities(0)  map<int64,float32>            {3}"
expect_in out "0: 0.0280734, 1: 0.967961, 2: 0.00396562"

# --- string keys ---------------------------------------------------------------
expect_exit 0 "$ORTKIT" run "$MODELS/linear_strings.onnx" --random --dim N=2
expect_in out "  probabilities(0)  map<string,float32>"
expect_in out "\"bird\": "

# --- sequences: out to a directory, and back in --------------------------------
expect_exit 0 "$ORTKIT" run "$MODELS/seq_ops.onnx" --random --dim R=3 -o seqs
expect_in out "rows       sequence<float32>  (3)            -         -          -  3 elements"
expect_in out "  rows(2)  float32            [4]"
[ -f seqs/rows/0.npy ] && [ -f seqs/rows/2.npy ] && [ ! -e seqs/rows/3.npy ] ||
    { echo "FAIL: seqs/rows/ is $(ls seqs/rows)" >&2; exit 1; }
expect_exit 0 "$ORTKIT" run "$MODELS/seq_ops.onnx" -i seq=seqs/rows -i x=seqs/pair/0.npy --json
"$PY" - <<'EOF'
import json
import numpy as np
out = {o["name"]: o for o in json.load(open("out"))["outputs"]}
rows = [np.load(f"seqs/rows/{i}.npy") for i in range(3)]
assert out["len"]["first"] == [3], out["len"]
assert out["cat"]["shape"] == [12] and abs(out["cat"]["first"][0] - float(rows[0][0])) < 1e-6, out["cat"]
assert out["rows"]["length"] == 3 and out["pair"]["items"][0]["shape"] == [3, 4]
EOF
[ $? -eq 0 ] || { echo "FAIL: sequences read back differ" >&2; exit 1; }

# --- optionals: none by default, a value with --random, saved and read back ------
expect_exit 0 "$ORTKIT" run "$MODELS/optional.onnx" -o opt
expect_in out "echo    optional<float32>  none"
[ "$(cat opt/echo.json)" = "null" ] || { echo "FAIL: opt/echo.json: $(cat opt/echo.json)" >&2; exit 1; }
expect_exit 0 "$ORTKIT" run "$MODELS/optional.onnx" -i maybe=opt/echo.json
expect_in out "has     bool               []       0    0     0  0"
expect_exit 0 "$ORTKIT" run "$MODELS/optional.onnx" --random -o opt --json
"$PY" -c '
import json
out = {o["name"]: o for o in json.load(open("out"))["outputs"]}
e = out["echo"]
assert e["kind"] == "optional" and e["has_value"] and e["value"]["shape"] == [3], e
' || { echo "FAIL: optional JSON" >&2; exit 1; }
[ -f opt/echo.npy ] || { echo "FAIL: opt/echo.npy missing" >&2; exit 1; }

# --- maps in: from JSON, generated --------------------------------------------------
printf '{"keys": [8, 2], "values": [0.5, 2.5]}\n' >m.json
expect_exit 0 "$ORTKIT" run "$MODELS/map_in.onnx" -i m=m.json
expect_in out "v       float32  [1,5]"
expect_in out "0, 2.5, 0, 0, 0.5"
expect_exit 0 "$ORTKIT" run "$MODELS/map_in.onnx" --zeros

# --- bad input: named, nothing written --------------------------------------------
mkdir keep && echo old >keep/cat.npy && snap keep >before
printf '{"keys": ["a", "b"], "values": [1, 2]}\n' >strkeys.json
expect_exit 1 "$ORTKIT" run "$MODELS/map_in.onnx" -i m=strkeys.json -o keep
expect_in err "ortkit: input 'm' expects map<int64,float32>, got map<string,float32>{2}"
printf '{"keys": [8, 8], "values": [0.5, 2.5]}\n' >dup.json
expect_exit 1 "$ORTKIT" run "$MODELS/map_in.onnx" -i m=dup.json -o keep
expect_in err "ortkit: input 'm': map key 8 is given twice"
printf '{"keys": [8, 2], "values": [0.5]}\n' >short.json
expect_exit 1 "$ORTKIT" run "$MODELS/map_in.onnx" -i m=short.json -o keep
expect_in err "ortkit: input 'm': map keys int64[2] and values float32[1]: both must be 1-D and of the same length"
mkdir mixed && cp seqs/rows/0.npy mixed/0.npy && cp seqs/len.npy mixed/1.npy
expect_exit 1 "$ORTKIT" run "$MODELS/seq_ops.onnx" -i seq=mixed -i x=seqs/pair/0.npy -o keep
expect_in err "ortkit: input 'seq': 'mixed': sequence element 1 is int64, element 0 is float32: the elements of a sequence have one type"
mkdir gap && cp seqs/rows/0.npy gap/0.npy && cp seqs/rows/2.npy gap/2.npy
expect_exit 1 "$ORTKIT" run "$MODELS/seq_ops.onnx" -i seq=gap -i x=seqs/pair/0.npy -o keep
expect_in err "ortkit: input 'seq': 'gap' holds 2 element files numbered up to 2: a sequence's files are numbered 0, 1, 2... without a gap"
expect_exit 1 "$ORTKIT" run "$MODELS/add.onnx" -i a=opt/echo.json -i b=seqs/pair/0.npy -o keep
expect_in err "ortkit: input 'a' expects float32[N,3], got optional<none>"
expect_exit 1 "$ORTKIT" run "$MODELS/seq_ops.onnx" -i seq=seqs/rows/0.npy --random --dim R=2 -o keep
expect_in err "ortkit: input 'seq' expects sequence<float32>, got float32[4]"
snap keep | expect_same before

# --- bench runs the classifier ---------------------------------------------------
expect_exit 0 "$ORTKIT" bench "$MODELS/classifier.onnx" -i "$MODELS/classifier_x.npy" --runs 20 --warmup 2 --json
"$PY" -c '
import json
d = json.load(open("out"))
assert d["inputs"][0]["shape"] == [8, 30], d["inputs"]
' || { echo "FAIL: bench JSON" >&2; exit 1; }
