# ortkit compare A B: saved outputs compared as validate compares a test's
# outputs.  Real outputs of Silero VAD from two real runtimes (1.30.0 and
# 1.17.3, set-up's two, `run -o DIR`), then files made to differ in one way each: a value,
# a shape, an element type, a file missing; files that cannot be read; two
# validate --json reports of real runs, test by test.
PY=/usr/bin/python3
# npy FILE DTYPE SHAPE VALUES: an .npy file written by numpy.
npy() {
    "$PY" -c 'import sys, numpy as np
np.save(sys.argv[1], np.array(eval(sys.argv[4]), dtype=sys.argv[2]).reshape(eval(sys.argv[3])))' "$@"
}

# --- two runtimes, the same seeded inputs: they agree --------------------------
vad="--random --seed 7 --dim batch=1 --dim sequence=512 --threads 1"
# shellcheck disable=SC2086 # $vad: options
expect_exit 0 "$ORTKIT" run "$APP_MODEL" $vad --runtime "$RT_NEW" -o new
# shellcheck disable=SC2086
expect_exit 0 "$ORTKIT" run "$APP_MODEL" $vad --runtime "$RT_OLD" -o old
expect_exit 0 "$ORTKIT" compare new old
expect_lines err 0
expect_lines out 5
expect_in out "OUTPUT  VALUE"
expect_in out "MAX |A-B|"
expect_in out "VERDICT"
for o in output hn cn; do
    grep -Eq "^$o +float32\[[0-9,]+\] +[0-9.e+-]+ +[0-9.e+-]+ +ok\$" out ||
        { echo "FAIL: no agreeing row for $o" >&2; cat out >&2; exit 1; }
done
expect_in out "3 of 3 outputs agree (rtol 0.001, atol 1e-05)"
# The same outputs exactly, against themselves: every figure 0.
expect_exit 0 "$ORTKIT" compare new/output.npy new/output.npy
expect_lines err 0
cat >want <<'EOF'
OUTPUT  VALUE         MAX |A-B|  MAX REL  VERDICT
output  float32[1,1]          0        0  ok
1 of 1 output agree (rtol 0.001, atol 1e-05)
EOF
expect_same want <out

# --- a differing value ----------------------------------------------------------
cp -r new changed
"$PY" -c 'import numpy as np; a = np.load("new/hn.npy"); a.flat[5] += 0.5; np.save("changed/hn.npy", a)'
expect_exit 1 "$ORTKIT" compare changed new
expect_lines err 0
grep -Eq '^hn +float32\[2,1,64\] +0\.5 +[0-9.e+-]+ +differs$' out ||
    { echo "FAIL: no differing row for hn" >&2; cat out >&2; exit 1; }
expect_in out "hn: 1 of 128 values differ; worst at [0,0,5]"
expect_in out "2 of 3 outputs agree"
# The tolerances are the caller's: with atol 1 it agrees.
expect_exit 0 "$ORTKIT" compare changed new --atol 1
expect_in out "3 of 3 outputs agree (rtol 0.001, atol 1)"

# --- values made here, every figure known ----------------------------------------
mkdir -p a/m b/m
npy a/m/x.npy float32 '(4,)' '[1, 2, 3, 4]'
npy b/m/x.npy float32 '(4,)' '[1, 2, 3, 5]'
npy a/m/shape.npy float32 '(4,)' '[1, 2, 3, 4]'
npy b/m/shape.npy float32 '(2, 2)' '[1, 2, 3, 4]'
npy a/m/type.npy float64 '(2,)' '[1, 2]'
npy b/m/type.npy float32 '(2,)' '[1, 2]'
npy a/m/same.npy int64 '(3,)' '[7, 8, 9]'
npy b/m/same.npy int64 '(3,)' '[7, 8, 9]'
npy a/extra.npy float32 '(1,)' '[0]'
npy b/m/gone.npy float32 '(1,)' '[0]'
expect_exit 1 "$ORTKIT" compare a b
expect_lines err 0
cat >want <<'EOF'
OUTPUT   VALUE         MAX |A-B|  MAX REL  VERDICT
extra    -                     -        -  only in A
m/gone   -                     -        -  only in B
m/same   int64[3]              0        0  ok
m/shape  float32[2,2]          -        -  shape differs
m/type   float32[2]            -        -  type differs
m/x      float32[4]            1      0.2  differs
m/shape: shape differs: expected float32[2,2], got float32[4]
m/type: type differs: expected float32[2], got float64[2]
m/x: 1 of 4 values differ; worst at [3]: expected 5, got 4 (|diff| 1 > 0.00501)
1 of 6 outputs agree (rtol 0.001, atol 1e-05)
EOF
expect_same want <out
# The same as JSON.
expect_exit 1 "$ORTKIT" compare a b --json
"$PY" - <<'EOF'
import json
d = json.load(open("out"))
assert d["agree"] is False and d["rtol"] == 1e-3 and d["atol"] == 1e-5, d
rows = {r["name"]: r for r in d["outputs"]}
assert rows["m/x"]["verdict"] == "differs" and rows["m/x"]["max_abs_diff"] == 1, rows["m/x"]
assert abs(rows["m/x"]["max_rel_diff"] - 0.2) < 1e-12, rows["m/x"]
assert rows["m/same"]["verdict"] == "ok" and rows["m/same"]["max_abs_diff"] == 0
assert rows["m/shape"]["verdict"] == "shape differs" and rows["m/shape"]["max_abs_diff"] is None
assert rows["m/type"]["verdict"] == "type differs"
assert rows["extra"]["verdict"] == "only in A" and rows["m/gone"]["verdict"] == "only in B"
EOF
# Two files: one row, named after B.
expect_exit 1 "$ORTKIT" compare a/m/type.npy b/m/type.npy
expect_in out "type    float32[2]"
expect_in out "type differs"
expect_exit 1 "$ORTKIT" compare a/m/shape.npy b/m/shape.npy
expect_in out "shape differs"
# A NaN agrees with a NaN only; an infinity with itself.
npy n1.npy float32 '(3,)' '[float("nan"), float("inf"), 1]'
npy n2.npy float32 '(3,)' '[float("nan"), float("inf"), 1]'
npy n3.npy float32 '(3,)' '[1, float("inf"), 1]'
expect_exit 0 "$ORTKIT" compare n1.npy n2.npy
expect_in out "n2      float32[3]          0        0  ok"
expect_exit 1 "$ORTKIT" compare n1.npy n3.npy
expect_in out "inf"

# --- what cannot be compared: exit 2, the file named -----------------------------
expect_exit 2 "$ORTKIT" compare new missing
expect_lines out 0
expect_in err "ortkit: cannot read 'missing': No such file or directory"
expect_exit 2 "$ORTKIT" compare new new/output.npy
expect_in err "'new' is a directory and 'new/output.npy' a file: give two files or two directories"
printf 'not an npy file' >a/m/broken.npy
cp a/m/broken.npy b/m/broken.npy
expect_exit 2 "$ORTKIT" compare a b
expect_lines out 0
expect_in err "a/m/broken.npy"
mkdir e1 e2
expect_exit 2 "$ORTKIT" compare e1 e2
expect_in err "nothing to compare: no .npy or .json file under 'e1' or 'e2'"
expect_exit 2 "$ORTKIT" compare new
expect_in err "compare needs A and B"
expect_exit 2 "$ORTKIT" compare new old --rtol -1
expect_in err "--rtol"

# --- two validate reports, test by test ---------------------------------------------
for rt in "$RT_NEW" "$RT_OLD"; do
    n=$(basename "$rt")
    expect_exit 0 "$ORTKIT" validate --runtime "$rt" --filter 'test_abs*' --filter 'test_relu*' \
        --no-known-failures -j 2 --json
    cp out "validate-$n.json"
done
expect_exit 0 "$ORTKIT" compare validate-1.17.3.json validate-1.30.0.json
expect_in out "A  validate-1.17.3.json"
expect_in out "B  validate-1.30.0.json"
expect_in out "worse in A (B passes, A does not): 0"
expect_in out "better in A (A passes, B does not): 0"
# One test made to fail in A: worse, exit 1; the other way round, better.
"$PY" - <<'EOF'
import json
d = json.load(open("validate-1.17.3.json"))
t = next(t for t in d["tests"] if t["status"] == "pass")
t["status"], t["message"] = "fail", "made to fail here"
d["totals"]["pass"] -= 1
d["totals"]["fail"] += 1
json.dump(d, open("worse.json", "w"))
print(t["suite"] + "/" + t["name"], file=open("which", "w"))
EOF
expect_exit 1 "$ORTKIT" compare worse.json validate-1.30.0.json
expect_in out "worse in A (B passes, A does not): 1"
expect_in out "$(cat which): A fail, B pass: made to fail here"
expect_exit 0 "$ORTKIT" compare validate-1.30.0.json worse.json --json
"$PY" -c 'import json; d = json.load(open("out")); assert len(d["better"]) == 1 and not d["worse"], d'
