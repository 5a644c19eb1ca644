#!/bin/sh
# measure_proof.sh - what `ortkit bundle choose --measure` and `ortkit bench
# --compare` tell apart on this host, idle and with a compile running
# (docs/PERFORMANCE.md, "Telling 3% apart on a busy machine").
#
#   bench/measure_proof.sh BUILD_DIR CONDITION CASE REPEAT
#
# CONDITION: idle, or loaded (a loop compiling a large generated C file with
# gcc -O2 at normal priority on CPU 1, started here and stopped at the end).
# CASE:
#   ctl3, ctl6   bench --compare model=: the controlled pair's model against
#                a copy with 3.0% or 6.1% more FLOPs (make_controlled_pair.py),
#                one thread, ONNX Runtime 1.30.0
#   same         bench --compare runtime=: 1.30.0 against a copy of its
#                bundle, on the controlled pair's model, one thread
#   same-choose  choose --measure between 1.30.0 and a copy of its bundle,
#                PP-OCRv4 det 1x3x640x640, one thread
#   det1, det2   choose --measure between Microsoft's 1.30.0 and 1.21.0,
#                PP-OCRv4 det 1x3x640x640, one thread or two
# Each measurement uses the default budget and a private cache (nothing
# recalled).  One JSON line per measurement goes to OUT (default
# BUILD_DIR/measure-proof.jsonl, appended).  Run it under
# `flock /work/cpu.lock` on a shared machine.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
condition=$2 case_=$3 repeat=$4
ortkit="$build/ortkit"
OUT=${OUT:-"$build/measure-proof.jsonl"}
work=${WORK:-"$build/measure-proof"}
mkdir -p "$work"
export XDG_DATA_HOME="$work/data" XDG_DATA_DIRS="$work/none" ORTKIT_PATH="$work/none"

# Bundles (imported once) and the controlled pair's models (made once).
for v in 1.30.0 1.21.0; do
    [ -d "$work/b/ort-$v-cpu" ] || "$ortkit" bundle import "$src/deps/runtime/$v" --into "$work/b" >/dev/null
done
[ -d "$work/b/ort-1.30.0-copy" ] ||
    "$ortkit" bundle import "$src/deps/runtime/1.30.0" --into "$work/b" --name ort-1.30.0-copy >/dev/null
[ -f "$work/pair/plus2.onnx" ] || python3 "$src/bench/make_controlled_pair.py" "$work/pair" >"$work/pair.txt"
det="$src/deps/models/ch_PP-OCRv4_det_infer.onnx"

load_pid=""
stop_load() { [ -z "$load_pid" ] || kill "$load_pid" 2>/dev/null || true; wait 2>/dev/null || true; }
trap stop_load EXIT INT TERM
if [ "$condition" = loaded ]; then
    # A large C file: 400 functions of loops and arithmetic, a few seconds at -O2.
    python3 - "$work/big.c" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    for i in range(400):
        f.write("double f%d(double *a, int n) { double s = 0; for (int i = 0; i < n; i++) "
                "{ s += a[i] * %d.5 - a[(i * 7) %% n] / (1 + a[i]); if (s > 1e9) s = s / 3; "
                "for (int j = 0; j < i %% 13; j++) s += a[j] * j; } return s; }\n" % (i, i))
PY
    taskset -c 1 sh -c "while :; do gcc -O2 -c '$work/big.c' -o '$work/big.o'; done" &
    load_pid=$!
    sleep 2
fi

i=0
while [ "$i" -lt "$repeat" ]; do
    i=$((i + 1))
    rm -rf "$work/cache"
    export XDG_CACHE_HOME="$work/cache"
    t0=$(date +%s.%N)
    case "$case_" in
    ctl3 | ctl6)
        plus=$([ "$case_" = ctl3 ] && echo plus1 || echo plus2)
        "$ortkit" bench "$work/pair/base.onnx" --runtime "$work/b/ort-1.30.0-cpu" --threads 1 \
            --compare "model=$work/pair/$plus.onnx" -n 10 --warmup 2 --json >"$work/out.json" ;;
    same)
        "$ortkit" bench "$work/pair/base.onnx" --runtime "$work/b/ort-1.30.0-cpu" --threads 1 \
            --compare "runtime=$work/b/ort-1.30.0-copy" -n 10 --warmup 2 --json >"$work/out.json" ;;
    same-choose)
        "$ortkit" bundle choose --json --model "$det" --shape x=1,3,640,640 --threads 1 --measure \
            "$work/b/ort-1.30.0-cpu" "$work/b/ort-1.30.0-copy" >"$work/out.json" ;;
    det1 | det2)
        "$ortkit" bundle choose --json --model "$det" --shape x=1,3,640,640 \
            --threads "${case_#det}" --measure "$work/b/ort-1.30.0-cpu" "$work/b/ort-1.21.0-cpu" \
            >"$work/out.json" ;;
    *) echo "unknown case $case_" >&2; exit 2 ;;
    esac
    t1=$(date +%s.%N)
    python3 - "$work/out.json" "$case_" "$condition" "$i" "$t0" "$t1" "$(cat /proc/loadavg)" >>"$OUT" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
row = {"case": sys.argv[2], "condition": sys.argv[3], "run": int(sys.argv[4]),
       "took_s": round(float(sys.argv[6]) - float(sys.argv[5]), 1), "loadavg": sys.argv[7]}
if "comparison" in d:  # bench --compare
    v = d["comparison"]["verdict"]
    row.update(verdict=v["verdict"], faster=v.get("faster"), b_over_a=v.get("b_over_a"),
               resolution=v.get("resolution"), rounds=v.get("rounds"),
               disturbed=v.get("disturbed_runs"), measured_s=v.get("seconds"), text=v["text"],
               wall_p50_b_over_a=d["comparison"]["b_over_a"]["latency_p50"])
else:  # bundle choose --measure
    m = d["measurement"]
    c = {x["name"]: x["measured"] for x in d["candidates"] if x.get("measured")}
    row.update(verdict=m["outcome"], chosen=d["chosen"], rounds=m["rounds"], measured_s=m["seconds"],
               account=m["account"],
               states={k: v["state"] for k, v in c.items()},
               ratio={k: v["pair_ratio"] for k, v in c.items()},
               resolution={k: v.get("pair_resolution") for k, v in c.items()},
               disturbed={k: v.get("disturbed") for k, v in c.items()},
               notes={k: v["note"] for k, v in c.items()})
print(json.dumps(row))
PY
    tail -n 1 "$OUT" | cut -c1-400
done
