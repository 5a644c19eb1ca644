# ortkit bench: figures, JSON, side by side (two runtimes, two settings), the
# plot, progress, interruption, and every kind of bad input.  Timings are
# never compared with a clock: only counts, order (min <= p50 <= max) and
# presence are checked.

PY=/usr/bin/python3
ADD="$MODELS/add.onnx"
MATMUL="$MODELS/matmul.onnx"

# usage CMD...: exit 2, nothing on stdout, the reason and a hint to --help.
usage() {
    expect_exit 2 "$@"
    expect_lines out 0
    expect_in err "ortkit bench: "
    expect_in err "ortkit bench --help"
}

# fails CMD...: exit 1, nothing on stdout, one line "ortkit: ...".
fails() {
    expect_exit 1 "$@"
    expect_lines out 0
    expect_lines err 1
    expect_in err "ortkit: "
}

# json_check EXPR...: each Python expression must hold for `d`, the JSON in ./out.
json_check() {
    "$PY" - "$@" <<'EOF'
import json, sys
d = json.load(open("out"))
for expr in sys.argv[1:]:
    if not eval(expr):
        sys.exit("FAIL: %s\n%s" % (expr, json.dumps(d, indent=1)[:3000]))
EOF
}

# --- help ---
expect_exit 0 "$ORTKIT" bench --help
expect_lines err 0
expect_in out "usage: ortkit bench MODEL"
for opt in "-n, --runs N" "-t, --time SECONDS" "--warmup N" "-c, --callers N" "--dim SYMBOL=SIZE" \
           "--threads N" "--ep LIST" --strict "--runtime PATH" "--compare KEY=VALUE" "--budget SECONDS" "--block N" \
           --json "--plot FILE.svg" --progress; do
    expect_in out "$opt"
done
# The cap on runs, wherever --help wraps the text.
tr -s ' \n' ' ' <out >words
expect_in words "default 1000, at most 10000000)"
expect_exit 0 "$ORTKIT" --help
expect_in out "  bench      "

# --- the table: every figure of onnxruntime_perf_test and more ---
expect_exit 0 "$ORTKIT" bench "$MATMUL" --dim N=4 -n 60 --warmup 3
expect_lines err 0
expect_in out "model      $MATMUL"
expect_in out "inputs     x float32[4,64] (random)"
expect_in out "runtime    ONNX Runtime 1.30.0"
expect_in out "method     3 warm-up runs, then 60 timed runs; 1 caller"
for row in "runtime load" "cold session create" "cold first run" "session create" "first run" \
           "latency min" "latency mean" "latency stddev" "latency p50" "latency p90" "latency p95" \
           "latency p99" "latency max" "runs/s" "CPU use" "memory: runtime" "memory: session" \
           "RSS growth in runs" "peak RSS"; do
    expect_in out "$row"
done
grep -qE '^timed runs +60$' out || { echo "FAIL: no 'timed runs 60' row" >&2; cat out >&2; exit 1; }

# --- JSON: the same figures, ordered as statistics must be ---
expect_exit 0 "$ORTKIT" bench "$MATMUL" --dim N=2 -n 50 --warmup 0 --threads 1 --json
expect_lines err 0
json_check 'd["model"].endswith("matmul.onnx")' 'd["runs_per_side"] == 50' 'd["warmup"] == 0' \
    'd["callers"] == 1' 'd["interrupted"] is False' 'd["peak_rss_bytes"] > 0' 'len(d["sides"]) == 1' \
    '"comparison" not in d' \
    'd["inputs"] == [{"name": "x", "type": "float32", "shape": [2, 64], "source": "random"}]' \
    '(lambda s: s["runs"] == 50 and s["threads"] == 1 and s["label"] == "ORT 1.30.0")(d["sides"][0])' \
    '(lambda l: 0 < l["min"] <= l["p50"] <= l["p90"] <= l["p95"] <= l["p99"] <= l["max"])(d["sides"][0]["latency_s"])' \
    '(lambda l: l["min"] <= l["mean"] <= l["max"] and l["stddev"] >= 0)(d["sides"][0]["latency_s"])' \
    '(lambda s: s["session_create_s"] > 0 and s["first_run_s"] > 0 and s["runtime_load_s"] > 0)(d["sides"][0])' \
    '(lambda s: s["cold"]["session_create_s"] > 0 and s["cold"]["first_run_s"] > 0)(d["sides"][0])' \
    '(lambda s: s["throughput_runs_per_s"] > 0 and s["wall_s"] > 0 and s["cpu"]["percent_of_one_core"] >= 0)(d["sides"][0])' \
    'd["sides"][0]["providers"] == [{"name": "CPUExecutionProvider", "active": True}]' \
    'd["sides"][0]["memory"]["runtime_bytes"] > 0'

# --- inputs from .npy files and --zeros, on the old runtime ---
expect_exit 0 "$ORTKIT" bench "$ADD" -i a="$MODELS/add_a.npy" -i b="$MODELS/add_b.npy" -n 10 --runtime "$RT_OLD"
expect_in out "a float32[2,3] ($MODELS/add_a.npy); b float32[2,3] ($MODELS/add_b.npy)"
expect_in out "ONNX Runtime 1.17.3"
expect_exit 0 "$ORTKIT" bench "$ADD" -i a="$MODELS/add_a.npy" --zeros -n 10 --json
json_check 'd["inputs"][1] == {"name": "b", "type": "float32", "shape": [2, 3], "source": "zeros"}'

# --- -t: a duration instead of a count (nothing is asserted about time) ---
expect_exit 0 "$ORTKIT" bench "$MODELS/tiny.onnx" -t 0.2 --json
json_check '"runs_per_side" not in d and d["seconds_per_side"] == 0.2' 'd["sides"][0]["runs"] >= 1'

# --- -c: concurrent callers on one session; -n counts runs of all of them ---
expect_exit 0 "$ORTKIT" bench "$MATMUL" --dim N=1 -n 64 -c 4 --json
json_check 'd["callers"] == 4' 'd["sides"][0]["runs"] == 64' 'd["block"] >= 4'
expect_exit 0 "$ORTKIT" bench "$MATMUL" --dim N=1 -n 64 -c 4 --block 16
expect_in out "64 timed runs; 4 callers; blocks of 16"
# One side, one caller: no blocks to speak of.
expect_exit 0 "$ORTKIT" bench "$MATMUL" --dim N=1 -n 8
expect_in out "8 timed runs; 1 caller"
expect_not_in out "blocks of"

# --- side by side: two runtimes in one process, interleaved ---
expect_exit 0 "$ORTKIT" bench "$MATMUL" --dim N=1 -n 40 --runtime "$RT_OLD" --runtime "$RT_NEW" --block 5 --budget 1
expect_lines err 0
expect_in out "verdict    "
expect_in out "; by CPU time)"
expect_in out "A          ORT 1.17.3"
expect_in out "B          ORT 1.30.0"
expect_in out "A: ORT 1.17.3"
expect_in out "B: ORT 1.30.0"
expect_in out "B/A"
expect_in out "40 timed runs per side; 1 caller; blocks of 5, A and B alternating"
expect_in out "B had the lower mean in"
expect_in out "of 8 rounds"
expect_exit 0 "$ORTKIT" bench "$MATMUL" --dim N=1 -n 40 --runtime "$RT_OLD" --compare runtime="$RT_NEW" --json --budget 1
json_check 'len(d["sides"]) == 2' \
    '[s["runtime"]["version"] for s in d["sides"]] == ["1.17.3", "1.30.0"]' \
    '[s["runs"] for s in d["sides"]] == [40, 40]' \
    '[s["shares_runtime_of_a"] for s in d["sides"]] == [False, False]' \
    'all(s["runtime_load_s"] > 0 and s["cold"]["session_create_s"] > 0 for s in d["sides"])' \
    'd["comparison"]["rounds"] >= 1 and 0 <= d["comparison"]["rounds_b_faster"] <= d["comparison"]["rounds"]' \
    'abs(d["comparison"]["b_over_a"]["latency_p50"] - d["sides"][1]["latency_s"]["p50"] / d["sides"][0]["latency_s"]["p50"]) < 1e-9' \
    'd["comparison"]["b_over_a"]["runs"] == 1' \
    'd["comparison"]["verdict"]["verdict"] in ("slower", "alike", "tied")' \
    'd["comparison"]["verdict"]["rounds"] >= 1 and d["comparison"]["verdict"]["disturbed_runs"] >= 0'

# --- side by side: two settings on one runtime, which B shares ---
expect_exit 0 "$ORTKIT" bench "$MATMUL" --dim N=8 -n 20 --threads 1 --compare threads=2 --json --budget 1
json_check '[s["label"] for s in d["sides"]] == ["threads=1", "threads=2"]' \
    '[s["threads"] for s in d["sides"]] == [1, 2]' \
    'd["sides"][1]["shares_runtime_of_a"] is True' \
    'd["sides"][1]["runtime_load_s"] is None and d["sides"][1]["cold"]["first_run_s"] is None' \
    'd["sides"][1]["memory"]["runtime_bytes"] is None' \
    'd["comparison"]["b_over_a"]["runtime_load_s"] is None' \
    'd["sides"][1]["session_create_s"] > 0'
expect_exit 0 "$ORTKIT" bench "$MATMUL" --dim N=8 -n 20 --threads 1 --compare threads=2 --budget 1
expect_in out "runtime load"
expect_in out "shared"
# The same settings twice: an A/A run, which shows the noise of the machine.
expect_exit 0 "$ORTKIT" bench "$MATMUL" --dim N=1 -n 20 --compare threads=1 --threads 1 --json --budget 2
json_check '[s["label"] for s in d["sides"]] == ["A", "B"]' \
    'd["comparison"]["verdict"]["verdict"] in ("alike", "tied")'
# String inputs are copied for B too.
expect_exit 0 "$ORTKIT" bench "$MODELS/strings.onnx" --dim N=3 -n 10 --compare threads=1 --json --budget 1
json_check '[s["runs"] for s in d["sides"]] == [10, 10]'
# A provider this runtime lacks: skipped with a warning for each side.
expect_exit 0 "$ORTKIT" bench "$MODELS/tiny.onnx" -n 5 --compare ep=nosuch
expect_in err "warning: provider 'nosuch' skipped"
expect_in out "B: ep=nosuch"
expect_in out "verdict    not measured: the verdict's processes run ONNX Runtime's CPU provider only"
fails "$ORTKIT" bench "$MODELS/tiny.onnx" -n 5 --compare ep=nosuch --strict
expect_in err "B: "
expect_in err "nosuch"

# --- the plot: SVG, written atomically, with both sides in the legend ---
mkdir plots
expect_exit 0 "$ORTKIT" bench "$MATMUL" --dim N=1 -n 200 --runtime "$RT_OLD" --runtime "$RT_NEW" --plot plots/lat.svg
[ "$(ls -A plots)" = "lat.svg" ] || { echo "FAIL: plots/ holds: $(ls -A plots)" >&2; exit 1; }
"$PY" - plots/lat.svg <<'EOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
text = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
for want in ("A: ORT 1.17.3", "B: ORT 1.30.0", "latency", "Cumulative distribution", "p50", "p99"):
    assert want in text, (want, text)
assert len(list(root.iter("{http://www.w3.org/2000/svg}polyline"))) == 2
assert len(list(root.iter("{http://www.w3.org/2000/svg}path"))) == 2
EOF
# A single side, a model path with XML's special characters, over an old file.
cp "$MODELS/tiny.onnx" 'a&b<c>.onnx'
expect_exit 0 "$ORTKIT" bench 'a&b<c>.onnx' -n 30 --plot plots/lat.svg
"$PY" -c 'import sys, xml.etree.ElementTree as ET; ET.parse(sys.argv[1])' plots/lat.svg
expect_in plots/lat.svg "a&amp;b&lt;c&gt;.onnx"
[ "$(ls -A plots)" = "lat.svg" ] || { echo "FAIL: plots/ holds: $(ls -A plots)" >&2; exit 1; }
# The plot's mode follows the umask, like any file created.
[ "$(umask 022; "$ORTKIT" bench "$MODELS/tiny.onnx" -n 5 --plot plots/mode.svg >/dev/null && stat -c %a plots/mode.svg)" = 644 ] ||
    { echo "FAIL: plot mode is not 644 under umask 022" >&2; exit 1; }

# --- progress on stderr: only with --progress when stderr is not a terminal ---
expect_exit 0 "$ORTKIT" bench "$MODELS/tiny.onnx" -t 1.5 --progress
expect_in err "bench: "
expect_in err "% "
expect_in err "runs"
expect_in err "s left"
expect_exit 0 "$ORTKIT" bench "$MODELS/tiny.onnx" -n 20
expect_lines err 0

# --- interrupted (SIGTERM or Ctrl-C): the figures so far, a plot that says it
# is partial, then exit 130 as every command ---
for sig in TERM INT; do
    rm -f plots/int.svg err
    "$ORTKIT" bench "$MODELS/tiny.onnx" -t 600 --progress --json --plot plots/int.svg >out 2>err &
    pid=$!
    tries=0
    until grep -q "bench: " err; do
        tries=$((tries + 1))
        [ "$tries" -lt 600 ] || { kill "$pid"; echo "FAIL: no progress from bench" >&2; exit 1; }
        sleep 0.2
    done
    kill -$sig "$pid"
    set +e
    wait "$pid"
    got=$?
    set -e
    [ "$got" = 130 ] || { echo "FAIL: bench interrupted by SIG$sig exited $got" >&2; cat err >&2; exit 1; }
    expect_in err "ortkit: interrupted; after "
    json_check 'd["interrupted"] is True' 'd["sides"][0]["runs"] >= 1'
    expect_in plots/int.svg "interrupted: partial figures"
    [ -z "$(ls plots | grep '\.tmp' || true)" ] || { echo "FAIL: plots/ holds: $(ls -A plots)" >&2; exit 1; }
done

# --- bad input: each says why ---
# impossible -c
usage "$ORTKIT" bench "$ADD" -c 0
expect_in err "-c wants 1 to 256 concurrent callers (one thread each), got '0'"
usage "$ORTKIT" bench "$ADD" -c -3
expect_in err "got '-3'"
usage "$ORTKIT" bench "$ADD" -c 100000
expect_in err "got '100000'"
usage "$ORTKIT" bench "$ADD" -c two
usage "$ORTKIT" bench "$ADD" -n 4 -c 8
expect_in err "-c 8 is more callers than the 4 runs of -n"
# -n 0 and other counts
usage "$ORTKIT" bench "$ADD" -n 0
expect_in err "-n wants a number of runs from 1 to 10000000, got '0'"
usage "$ORTKIT" bench "$ADD" -n 10000001
usage "$ORTKIT" bench "$ADD" -n -1
usage "$ORTKIT" bench "$ADD" -t 0
expect_in err "-t wants seconds"
usage "$ORTKIT" bench "$ADD" -t nan
usage "$ORTKIT" bench "$ADD" -n 5 -t 1
expect_in err "give -n or -t, not both"
usage "$ORTKIT" bench "$ADD" --warmup -1
usage "$ORTKIT" bench "$ADD" --block 0
usage "$ORTKIT" bench "$ADD" --threads 0
usage "$ORTKIT" bench "$ADD" --random --zeros
usage "$ORTKIT" bench "$ADD" --nosuch
expect_in err "'--nosuch'"
usage "$ORTKIT" bench
expect_in err "no model given"
usage "$ORTKIT" bench "$ADD" "$ADD"
# side by side
usage "$ORTKIT" bench "$ADD" --runtime "$RT_OLD" --runtime "$RT_NEW" --runtime "$RT_OLD"
expect_in err "at most two runtimes"
usage "$ORTKIT" bench "$ADD" --runtime "$RT_OLD" --runtime "$RT_NEW" --compare runtime="$RT_OLD"
expect_in err "the runtime of B is given twice"
usage "$ORTKIT" bench "$ADD" --compare nosuch=1
expect_in err "unknown setting 'nosuch'"
usage "$ORTKIT" bench "$ADD" --compare threads
usage "$ORTKIT" bench "$ADD" --compare threads=0
usage "$ORTKIT" bench "$ADD" --plot lat.png
expect_in err "--plot writes SVG"
# a bad runtime path on either side, named
fails "$ORTKIT" bench "$MODELS/tiny.onnx" --runtime "$RT_NEW" --runtime /nonexistent/ort
expect_in err "ortkit: B: "
expect_in err "/nonexistent/ort"
fails "$ORTKIT" bench "$MODELS/tiny.onnx" --runtime /nonexistent/ort --compare threads=1
expect_in err "ortkit: A: "
fails "$ORTKIT" bench "$MODELS/tiny.onnx" --compare runtime="$STUBS/libstub_too_old.so"
expect_in err "B: ONNX Runtime 1.16.3"
fails "$ORTKIT" bench "$MODELS/tiny.onnx" --runtime "$RT_NEW" --runtime "$STUBS/libstub_no_symbol.so"
expect_in err "B: "
# models that are missing or not models
fails "$ORTKIT" bench nosuch.onnx
expect_in err "'nosuch.onnx'"
expect_in err "No such file"
fails "$ORTKIT" bench "$MODELS/truncated.onnx" --runtime "$RT_OLD" --runtime "$RT_NEW"
expect_in err "A: cannot open model"
# inputs that cannot be generated: symbolic dimensions without a size ...
fails "$ORTKIT" bench "$MODELS/dynamic.onnx"
expect_in err "symbolic dimensions without a size: batch, height, width (set each with --dim SYMBOL=SIZE)"
fails "$ORTKIT" bench "$MODELS/dynamic.onnx" --dim batch=1 --dim height=2
expect_in err "without a size: width"
# an input that is a sequence is generated: two 1-D tensors
"$PY" - <<'EOF'
import onnx
from onnx import helper, TensorProto
seq = helper.make_sequence_type_proto(helper.make_tensor_type_proto(TensorProto.FLOAT, None))
graph = helper.make_graph([helper.make_node("SequenceLength", ["seq"], ["n"])], "seq_in",
                          [helper.make_value_info("seq", seq)],
                          [helper.make_tensor_value_info("n", TensorProto.INT64, [])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.save(model, "seq_in.onnx")
EOF
expect_exit 0 "$ORTKIT" bench seq_in.onnx --runs 10 --warmup 1
expect_in out "inputs     seq sequence<float32>(2) (random)"
# inputs from files that do not fit
fails "$ORTKIT" bench "$MODELS/tiny.onnx" -i x="$MODELS/add_a.npy"
expect_in err "input 'x' expects float32[1], got float32[2,3]"
fails "$ORTKIT" bench "$ADD" -i nosuch="$MODELS/add_a.npy"
expect_in err "has no input named 'nosuch'"
# a plot that cannot be written is refused before the runs
fails "$ORTKIT" bench "$MODELS/tiny.onnx" --plot /nonexistent/lat.svg
expect_in err "cannot write plot '/nonexistent/lat.svg'"

# --- the verdict side by side: a controlled pair, and identical copies ---
# The same MatMul chain, and a copy with as many multiply-adds again (four
# more MatMuls on zero weights: the same outputs to the bit).  B does twice
# the work: clearly slower, by about that, whatever the machine's load.
/usr/bin/python3 "$SRC/bench/make_controlled_pair.py" "$PWD/pair" 32 256 4 4 >pair.txt
expect_in pair.txt "plus4.onnx 33587200 FLOPs 2.0020 of base"
expect_exit 0 "$ORTKIT" bench "$PWD/pair/base.onnx" --runtime "$RT_NEW" --threads 1 \
    --compare model="$PWD/pair/plus4.onnx" -n 10 --warmup 1 --budget 6 --json
json_check '[s["label"] for s in d["sides"]] == ["model=base.onnx", "model=plus4.onnx"]' \
    'd["comparison"]["verdict"]["verdict"] == "slower" and d["comparison"]["verdict"]["faster"] == "A"' \
    '1.4 < d["comparison"]["verdict"]["b_over_a"] < 2.8' \
    'd["comparison"]["verdict"]["resolution"] is not None and d["comparison"]["verdict"]["resolution"] < 0.4'
# The same runtime in two copies: never told apart as "slower".
cp -r "$RT_NEW" rt-copy
expect_exit 0 "$ORTKIT" bench "$PWD/pair/base.onnx" --runtime "$RT_NEW" --threads 1 \
    --compare runtime="$PWD/rt-copy" -n 10 --warmup 1 --budget 3
expect_in out "verdict    "
expect_not_in out "clearly slower"
# A model that does not take A's inputs is refused by name.
expect_exit 1 "$ORTKIT" bench "$PWD/pair/base.onnx" --compare model="$MODELS/add.onnx" -n 2 --budget 1
expect_in err "inputs"
