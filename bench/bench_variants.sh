#!/bin/sh
# bench_variants.sh - what a CPU variant of ONNX Runtime is worth, measured.
#
# Where it runs (BENCH_ROOT): "host", on this machine, for bundles that ship
# (the bullseye root's, which load anywhere, and Microsoft's from set-up:
# a bundle is looked for in deps/bullseye-root/bundles, deps/compare-bundles
# (where build_ort.sh --ship-check puts Microsoft's of the same version),
# then deps/bundles);
# or "trixie", inside the trixie chroot scripts/build_ort.sh makes for its
# system-linked builds (they need trixie's glibc), on the bundles there.
# Each pair of builds side by side in
# one process (`ortkit bench --runtime A --runtime B`, alternating blocks;
# two builds that link the system's libonnx cannot share a process, so
# those run as alternating processes),
# on real models (Silero VAD, PP-OCRv4 det, rec and the mobile cls) and
# synthetic ones at realistic sizes (bench/make_variant_models.py: Gemm,
# element-wise, INT8 MatMulInteger), at 1 and 2 threads, ROUNDS separate
# runs each, so every ratio comes with its spread.
#
# usage: bench/bench_variants.sh [PAIR...]
#   PAIR is A:B, two bundle names' variant parts under /bundles
#   (default: cpu-x86-64:cpu-avx2, the flags alone; cpu:cpu-x86-64, Microsoft's
#   npm build against ortkit's generic one, the toolchain alone).
# Environment: ROUNDS (3), SECONDS_PER_SIDE (3), THREADS ("1 2"),
# MODELS (a subset of the names below), OUT (deps/bench-variants.jsonl).
# Prints a table of B/A medians (min..max over the rounds) and writes every
# run's figures as JSON lines to OUT.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
deps="${ORTKIT_DEPS:-$here/deps}"
where=${BENCH_ROOT:-host}
root="$deps/trixie-root"
ver=1.21.0
rounds=${ROUNDS:-3}
secs=${SECONDS_PER_SIDE:-3}
threads=${THREADS:-1 2}
out=${OUT:-$deps/bench-variants.jsonl}
models=${MODELS:-silero_vad ppocr_det ppocr_rec ppocr_cls gemm_mlp elementwise int8_matmul}
say() { printf 'bench-variants: %s\n' "$*" >&2; }

[ $# -gt 0 ] || set -- cpu-x86-64:cpu-avx2 cpu:cpu-x86-64
if [ "$where" = trixie ]; then
    [ "$(id -u)" = 0 ] || { say "needs root (chroot)"; exit 1; }
    [ -x "$root/opt/ortkit/bin/ortkit" ] || { say "no ortkit in $root (run scripts/build_ort.sh first)"; exit 1; }
    mounted=""
    cleanup() { [ -n "$mounted" ] && umount "$root/proc" 2>/dev/null || true; }
    trap cleanup EXIT INT TERM
    mountpoint -q "$root/proc" || { mount -t proc proc "$root/proc" && mounted=1; }
    inside() { chroot "$root" env -i PATH=/opt/ortkit/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }
    data="$root/data/variants"
    D=/data/variants
    bundle() { echo "/bundles/ort-$ver-$1"; }
    bundle_here() { echo "$root/bundles/ort-$ver-$1"; }
else
    [ -x "$here/build/ortkit" ] || { say "build ortkit first (make build)"; exit 1; }
    inside() { "$@"; }
    ortkit() { "$here/build/ortkit" "$@"; }
    data="$deps/bench-variants-data"
    D=$data
    bundle() {
        for d in "$deps/bullseye-root/bundles" "$deps/compare-bundles" "$deps/bundles"; do
            [ -d "$d/ort-$ver-$1" ] && { echo "$d/ort-$ver-$1"; return; }
        done
        echo "$deps/bundles/ort-$ver-$1"
    }
    bundle_here() { bundle "$1"; }
fi
for pair in "$@"; do
    for v in "${pair%%:*}" "${pair#*:}"; do
        [ -d "$(bundle_here "$v")" ] || { say "no bundle ort-$ver-$v ($(bundle_here "$v"))"; exit 1; }
    done
done

# The models, copied in once.
mkdir -p "$data"
for f in silero_vad.onnx ch_PP-OCRv4_det_infer.onnx ch_PP-OCRv4_rec_infer.onnx ch_ppocr_mobile_v2.0_cls_infer.onnx; do
    [ -s "$deps/models/$f" ] || { say "no $deps/models/$f (run scripts/setup.sh)"; exit 1; }
    [ -s "$data/$f" ] || cp "$deps/models/$f" "$data/"
done
[ -s "$data/int8_matmul.onnx" ] || /usr/bin/python3 "$here/bench/make_variant_models.py" "$data"
[ -s "$data/vad/speech.npy" ] || /usr/bin/python3 "$here/tests/models/make_vad_input.py" "$data/vad" >/dev/null

args_of() {
    case $1 in
    silero_vad) echo "$D/silero_vad.onnx -i input=$D/vad/speech.npy -i sr=$D/vad/sr.npy -i h=$D/vad/state.npy -i c=$D/vad/state.npy" ;;
    ppocr_det) echo "$D/ch_PP-OCRv4_det_infer.onnx --dim p2o.DynamicDimension.0=1 --dim p2o.DynamicDimension.1=640 --dim p2o.DynamicDimension.2=640" ;;
    ppocr_rec) echo "$D/ch_PP-OCRv4_rec_infer.onnx --dim p2o.DynamicDimension.0=1 --dim p2o.DynamicDimension.1=320" ;;
    ppocr_cls) echo "$D/ch_ppocr_mobile_v2.0_cls_infer.onnx --dim p2o.DynamicDimension.0=6 --dim p2o.DynamicDimension.1=48 --dim p2o.DynamicDimension.2=192" ;;
    gemm_mlp | elementwise | int8_matmul) echo "$D/$1.onnx" ;;
    *) say "unknown model $1"; exit 2 ;;
    esac
}

: >"$out"
# Builds that link the system's libonnx (Debian's way, as ortkit's trixie builds do)
# cannot share a process: the second runtime's environment fails ("Trying
# to add a domain to DomainToVersion map, but the domain is already exist"),
# both registering ONNX's schemas in the one libonnx.  Such a pair runs in
# separate processes instead, alternately (A then B, then B then A, ...).
shares_libonnx() {
    readelf -d "$(bundle_here "$1")/lib/libonnxruntime.so.$ver" 2>/dev/null | grep -q 'libonnx\.so'
}
one_bench() { # OUTFILE RUNTIME... (then the model's arguments in $bench_args)
    f=$1
    shift
    # shellcheck disable=SC2086
    inside ortkit bench $bench_args --seed "$r" --threads "$t" -t "$secs" --json "$@" >"$f"
}
for pair in "$@"; do
    a=${pair%%:*} b=${pair#*:}
    mode=together
    if shares_libonnx "$a" && shares_libonnx "$b"; then mode=alternating; fi
    for m in $models; do
        bench_args=$(args_of "$m")
        for t in $threads; do
            r=1
            while [ "$r" -le "$rounds" ]; do
                say "$a vs $b, $m, $t thread(s), round $r of $rounds ($mode)"
                if [ "$mode" = together ]; then
                    one_bench "$data/run.json" --runtime "$(bundle "$a")" --runtime "$(bundle "$b")" ||
                        { say "bench failed: $a vs $b, $m"; exit 1; }
                    files="$data/run.json"
                else
                    first=$a second=$b
                    [ $((r % 2)) = 0 ] && first=$b second=$a
                    one_bench "$data/run-$first.json" --runtime "$(bundle "$first")" &&
                        one_bench "$data/run-$second.json" --runtime "$(bundle "$second")" ||
                        { say "bench failed: $a vs $b, $m"; exit 1; }
                    files="$data/run-$a.json $data/run-$b.json"
                fi
                # shellcheck disable=SC2086
                /usr/bin/python3 - "$a" "$b" "$m" "$t" "$r" "$mode" $files >>"$out" <<'PY'
import json, sys
a, b, model, threads, rnd, mode = sys.argv[1:7]
docs = [json.load(open(f)) for f in sys.argv[7:]]
sides = docs[0]["sides"] if len(docs) == 1 else [docs[0]["sides"][0], docs[1]["sides"][0]]
pa, pb = sides[0]["latency_s"]["p50"], sides[1]["latency_s"]["p50"]
ta, tb = sides[0]["throughput_runs_per_s"], sides[1]["throughput_runs_per_s"]
print(json.dumps({"a": a, "b": b, "model": model, "threads": int(threads), "round": int(rnd),
                  "mode": mode, "p50_ratio": pb / pa, "throughput_ratio": tb / ta,
                  "a_p50_s": pa, "b_p50_s": pb, "a_runs": sides[0]["runs"], "b_runs": sides[1]["runs"]}))
PY
                r=$((r + 1))
            done
        done
    done
done
rm -f "$data"/run*.json

/usr/bin/python3 - "$out" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
groups = {}
for r in rows:
    groups.setdefault((r["a"], r["b"], r["model"], r["threads"]), []).append(r)
def span(v):
    return "%.3f (%.3f..%.3f)" % (statistics.median(v), min(v), max(v))
print("%-26s %-12s %3s  %-10s %-24s %-24s" % ("B over A", "model", "thr", "A p50", "B/A p50", "B/A throughput"))
for (a, b, m, t), g in groups.items():
    print("%-26s %-12s %3d  %-10s %-24s %-24s" % (
        "%s / %s" % (b, a), m, t, "%.3g ms" % (1e3 * statistics.median(x["a_p50_s"] for x in g)),
        span([x["p50_ratio"] for x in g]), span([x["throughput_ratio"] for x in g])))
PY
