#!/bin/sh
# gpu_check.sh - the GPU chain end to end, on a machine with an NVIDIA GPU:
# the host through NVML, a self-contained CUDA 13 bundle made from ONNX
# Runtime 1.29.0 and the machine's CUDA 13 libraries, `ortkit doctor` (the
# probe's verdict and a live run on CUDA), `validate --ep cuda --strict` on
# the ONNX node suite, and `bench` of a real model on CUDA against the CPU.
#
#   scripts/gpu_check.sh pack OUTDIR
#       here (where the download cache is): the 1.29.0 core built with CUDA
#       (onnxruntime-node's) and the release's CUDA provider,
#       xz-compressed and split into 60 MiB parts with their SHA-256s, small
#       enough to send to a machine that has no npm or Debian mirror.
#   scripts/gpu_check.sh run SRC [BUILD_DIR]
#       there: SRC is the parts directory from `pack`, or a directory holding
#       libonnxruntime.so and libonnxruntime_providers_cuda.so.  The CUDA 13
#       libraries are taken from LD_LIBRARY_PATH, CUDA_HOME, or pip's
#       site-packages/nvidia/*/lib of python3; `bundle complete` copies them
#       into the bundle, and the later steps run without LD_LIBRARY_PATH.
#       Figures go to BUILD_DIR/gpu-check/.  Where the machine has no build
#       tree: ORTKIT_BIN (the installed ortkit), ORTKIT_NODE_TESTS (ONNX's
#       node test directory) and ORTKIT_MODELS (silero_vad.onnx and
#       ch_PP-OCRv4_det_infer.onnx) say where things are; ORTKIT_GPU_NAME and
#       ORTKIT_GPU_VARIANT name the bundle and its variant (for a build of
#       ortkit's own: ort-1.21.0-cuda13.0-sm90-avx2, cuda13.0-sm90-avx2).
#
# Exit 77 when the machine has no NVIDIA GPU (NVML sees none).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
say() { printf 'gpu-check: %s\n' "$*" >&2; }

pack() {
    out=$1
    # The download cache (here only: `run` needs none of this).
    # shellcheck source=lib/fetch.sh
    . "$here/scripts/lib/fetch.sh"
    mkdir -p "$out"
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    plugins=package/Plugins/Linux/x64
    # The core built with CUDA (onnxruntime-node's): the CPU package's core
    # crashes beside this bridge provider, and import refuses it.
    tar xzf "$cache/onnxruntime-node-1.29.0.tgz" -C "$tmp" --strip-components=5 \
        package/bin/napi-v6/linux/x64/libonnxruntime.so.1
    mv "$tmp/libonnxruntime.so.1" "$tmp/libonnxruntime.so"
    tar xzf "$cache/com.github.asus4.onnxruntime.linux-x64-gpu-0.4.9.tgz" -C "$tmp" --strip-components=4 \
        "$plugins/libonnxruntime_providers_cuda.so" "$plugins/libonnxruntime_providers_shared.so"
    (cd "$tmp" && sha256sum libonnxruntime*.so) >"$out/files.sha256"
    say "compressing (xz -9, a few minutes)"
    tar cf - -C "$tmp" libonnxruntime.so libonnxruntime_providers_cuda.so libonnxruntime_providers_shared.so |
        xz -9 -T0 | split -b 60M -d - "$out/ort-1.29.0-cuda13.tar.xz.part"
    (cd "$out" && sha256sum ort-1.29.0-cuda13.tar.xz.part*) >"$out/parts.sha256"
    say "$(find "$out" -type f | wc -l) files in $out"
}

# The runtime directory from SRC: parts reassembled and checked, or SRC itself.
runtime_dir() {
    src=$1 work=$2
    if [ -f "$src/libonnxruntime_providers_cuda.so" ]; then
        echo "$src"
        return
    fi
    (cd "$src" && sha256sum -c --quiet parts.sha256) >&2
    mkdir -p "$work/ort"
    cat "$src"/ort-1.29.0-cuda13.tar.xz.part* | xz -d | tar xf - -C "$work/ort"
    (cd "$work/ort" && sha256sum -c --quiet "$src/files.sha256") >&2
    echo "$work/ort"
}

# pip's CUDA libraries (nvidia-cublas-cu13, nvidia-cudnn-cu13, ...), if any.
pip_cuda_dirs() {
    python3 - <<'PY' 2>/dev/null || true
import glob, os, site
roots = site.getsitepackages() + [site.getusersitepackages()]
print(":".join(sorted({d for r in roots for d in glob.glob(os.path.join(r, "nvidia", "*", "lib"))})))
PY
}

# Run a command, its output also appended to the report; its status kept.
show() {
    if out=$("$@" 2>&1); then rc=0; else rc=$?; fi
    printf '%s\n' "$out" | tee -a "$report"
    return "$rc"
}

run() {
    src=$1 build=${2:-$here/build}
    ortkit="${ORTKIT_BIN:-$build/ortkit}"
    nodes="${ORTKIT_NODE_TESTS:-/usr/share/libonnx-testdata/data/node}"
    models="${ORTKIT_MODELS:-$here/deps/models}"
    work="$build/gpu-check"
    mkdir -p "$work"
    report="$work/report.txt"
    : >"$report"

    say "1/7 the host through NVML"
    "$ortkit" host --json >"$work/host.json"
    sm=$(python3 -c 'import json,sys; g=json.load(open(sys.argv[1]))["nvidia"]["gpus"]
print(g[0]["compute_capability"].replace(".", "") if g else "")' "$work/host.json" 2>/dev/null || true)
    if [ -z "$sm" ]; then
        say "NVML sees no NVIDIA GPU here: nothing to check"
        exit 77
    fi
    show "$ortkit" host

    say "2/7 the ONNX Runtime core and CUDA provider, and the CUDA 13 libraries"
    rt=$(runtime_dir "$src" "$work")
    host_ldpath=${LD_LIBRARY_PATH-}
    extra=$(pip_cuda_dirs)
    LD_LIBRARY_PATH="${extra:+$extra:}${CUDA_HOME:+$CUDA_HOME/lib64:}${LD_LIBRARY_PATH:-}"
    export LD_LIBRARY_PATH

    say "3/7 a self-contained CUDA 13 bundle for sm_$sm"
    rm -rf "$work/bundles"
    name="${ORTKIT_GPU_NAME:-ort-1.29.0-cuda13-sm$sm}"
    show "$ortkit" bundle import "$rt/libonnxruntime.so" --providers "$rt" --name "$name" \
        ${ORTKIT_GPU_VARIANT:+--variant "$ORTKIT_GPU_VARIANT"} --into "$work/bundles"
    show "$ortkit" bundle complete "$work/bundles/$name"
    show "$ortkit" bundle verify "$work/bundles/$name"
    # From here on the bundle must stand alone: the CUDA libraries found
    # above are no longer on the search path (the machine's own setting is).
    if [ -n "$host_ldpath" ]; then LD_LIBRARY_PATH=$host_ldpath; else unset LD_LIBRARY_PATH; fi
    say "LD_LIBRARY_PATH is now '${LD_LIBRARY_PATH-}'"
    export ORTKIT_PATH="$work/bundles"

    say "4/7 selection on this host"
    show "$ortkit" bundle choose "$work/bundles"
    "$ortkit" bundle choose --json "$work/bundles" >"$work/choose.json"
    export ORTKIT_BUNDLE="$name"

    say "5/7 doctor: the probe's verdict and a live run on CUDA"
    show "$ortkit" doctor
    "$ortkit" doctor --json >"$work/doctor.json"
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
g=[p for p in d["gpu_providers"] if p["provider"]=="CUDAExecutionProvider"][0]
assert g["usable"], g' "$work/doctor.json"

    say "6/7 validate --ep cuda --strict on the node suite"
    "$ortkit" validate --ep cuda --strict --json "$nodes" >"$work/validate.json" || true
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
print("validate on CUDA:", d["totals"])
for t in d["tests"]:
    if t["status"] != "pass": print("  %s: %s" % (t["name"], (t.get("message") or "")[:150]))' \
        "$work/validate.json" | tee -a "$report"

    say "7/7 bench: CUDA against the CPU on real models"
    for m in silero_vad ch_PP-OCRv4_det_infer; do
        model="$models/$m.onnx"
        [ -f "$model" ] || continue
        dims=
        case $m in
        silero*) dims="--dim batch=1 --dim sequence=512" ;;
        ch_PP-OCRv4_det*) dims="--dim p2o.DynamicDimension.0=1 --dim p2o.DynamicDimension.1=640 --dim p2o.DynamicDimension.2=640" ;;
        esac
        # shellcheck disable=SC2086
        "$ortkit" bench "$model" --random $dims -t 5 --ep cpu --compare ep=cuda --json >"$work/bench-$m.json"
        # shellcheck disable=SC2086
        show "$ortkit" bench "$model" --random $dims -t 5 --ep cpu --compare ep=cuda
    done
    say "done: $report"
}

case "${1:-}" in
pack) shift; pack "$@" ;;
run) shift; run "$@" ;;
*) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
