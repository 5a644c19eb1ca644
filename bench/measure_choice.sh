#!/bin/sh
# measure_choice.sh - what choosing by measurement (`ortkit bundle choose
# --model MODEL --measure`) chooses among several bundles, how long it takes,
# and the p50 it gains over the declared order's choice (docs/PERFORMANCE.md,
# "Choosing by measurement").
#
#   bench/measure_choice.sh [BUILD_DIR]        (default: build)
#
# Environment: BUNDLES (the bundle directories, space-separated; default:
# Microsoft's 1.30.0 and 1.21.0 and ortkit's own 1.21.0 builds cpu-avx2 and
# cpu-x86-64 under deps/), DATA (the models and Silero VAD's inputs; default
# deps/bench-variants-data), REPEAT (measurements of each case, default 2),
# THREADS (default "1"), BUDGET (seconds of timed rounds; default: ortkit's,
# 3 s per candidate), OUT (JSON lines, default BUILD_DIR/measure-choice.jsonl).
# Each measurement runs in a fresh, private cache, so none is recalled.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
ortkit="$build/ortkit"
deps="$src/deps"
BUNDLES=${BUNDLES:-"$deps/bundles/ort-1.30.0-cpu $deps/compare-bundles/ort-1.21.0-cpu $deps/bullseye-root/bundles/ort-1.21.0-cpu-avx2 $deps/bullseye-root/bundles/ort-1.21.0-cpu-x86-64"}
DATA=${DATA:-"$deps/bench-variants-data"}
REPEAT=${REPEAT:-2}
THREADS=${THREADS:-1}
OUT=${OUT:-"$build/measure-choice.jsonl"}
budget=""
[ -n "${BUDGET:-}" ] && budget="--budget $BUDGET"
work=$(mktemp -d "${TMPDIR:-/tmp}/measure-choice.XXXXXX")
trap 'rm -rf "$work"' EXIT
: >"$OUT"

# case NAME MODEL OPTIONS...: one measurement per repeat and thread setting.
case_() {
    name=$1 model=$2
    shift 2
    for t in $THREADS; do
        r=0
        while [ "$r" -lt "$REPEAT" ]; do
            r=$((r + 1))
            rm -rf "$work/cache"
            # shellcheck disable=SC2086 # the lists split on purpose
            XDG_CACHE_HOME="$work/cache" nice -n 19 "$ortkit" bundle choose --json --model "$model" \
                --measure --threads "$t" $budget "$@" $BUNDLES >"$work/out.json"
            /usr/bin/python3 - "$work/out.json" "$name" "$t" "$r" >>"$OUT" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = d["measurement"]
c = {x["name"]: x["measured"] for x in d["candidates"] if x.get("measured")}
chosen, declared = d["chosen"], m["declared"]
print(json.dumps({"case": sys.argv[2], "threads": int(sys.argv[3]), "repeat": int(sys.argv[4]),
                  "chosen": chosen, "declared": declared, "outcome": m["outcome"],
                  "rounds": m["rounds"], "seconds": m["seconds"], "account": m["account"],
                  "p50_s": {k: v["p50_s"] for k, v in c.items()},
                  "pair": {k: [v["pair_p50_s"], v["pair_chosen_p50_s"], v["pair_ratio"], v["pair_rounds"]]
                           for k, v in c.items()},
                  "round_p50_s": {k: [v["round_p50_low_s"], v["round_p50_high_s"]] for k, v in c.items()},
                  "states": {k: v["state"] for k, v in c.items()}}))
PY
        done
    done
}

vad="$DATA/vad"
case_ "Silero VAD" "$DATA/silero_vad.onnx" -i input="$vad/speech.npy" -i sr="$vad/sr.npy" \
    -i h="$vad/state.npy" -i c="$vad/state.npy"
case_ "PP-OCRv4 det" "$DATA/ch_PP-OCRv4_det_infer.onnx" --dim p2o.DynamicDimension.0=1 \
    --dim p2o.DynamicDimension.1=640 --dim p2o.DynamicDimension.2=640
case_ "element-wise" "$DATA/elementwise.onnx"

/usr/bin/python3 - "$OUT" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
# The gain is read in the rounds the choice and the declared choice both
# ran: their medians there, and the median of the ratio per round.
print("| model | threads | run | chosen | outcome | rounds | took | declared / chosen p50 (rounds both ran) | gain |")
print("|---|---|---|---|---|---|---|---|---|")
for r in rows:
    d, c = r["declared"], r["chosen"]
    dp, cp, ratio, n = r["pair"].get(d, [0, 0, 0, 0])
    if c == d:
        figures, gain = "%.3g ms" % (1e3 * r["p50_s"][c]), "0 (the order was right)"
    elif n:
        figures = "%.3g / %.3g ms (%d)" % (1e3 * dp, 1e3 * cp, n)
        gain = "%.1f%% (%.3g ms), ratio %.3f" % (100 * (1 - cp / dp), 1e3 * (dp - cp), ratio)
    else:
        figures, gain = "-", "- (the declared choice was not timed)"
    print("| %s | %d | %d | %s | %s | %d | %.1f s | %s | %s |" % (
        r["case"], r["threads"], r["repeat"], c, r["outcome"], r["rounds"], r["seconds"], figures, gain))
PY
