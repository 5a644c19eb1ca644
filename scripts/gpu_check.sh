#!/bin/sh
# gpu_check.sh - the GPU chain end to end, on a machine with an NVIDIA GPU:
# the host through NVML, a self-contained CUDA 13 bundle made from ONNX
# Runtime 1.29.0 and the machine's CUDA 13 libraries, `ortkit doctor` (the
# probe's verdict and a live run on CUDA), `validate --ep cuda --strict` on
# the ONNX node suite, and `bench` of a real model on CUDA against the CPU.
#
#   scripts/gpu_check.sh pack OUTDIR
#       here (where the download cache is): the 1.29.0 core and CUDA provider,
#       xz-compressed and split into 60 MiB parts with their SHA-256s, small
#       enough to send to a machine that has no npm or Debian mirror.
#   scripts/gpu_check.sh run SRC [BUILD_DIR]
#       there: SRC is the parts directory from `pack`, or a directory holding
#       libonnxruntime.so and libonnxruntime_providers_cuda.so.  The CUDA 13
#       libraries are taken from LD_LIBRARY_PATH, CUDA_HOME, or pip's
#       site-packages/nvidia/*/lib of python3.  Figures go to BUILD_DIR/gpu-check/.
#
# Exit 77 when the machine has no NVIDIA GPU (NVML sees none).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
say() { printf 'gpu-check: %s\n' "$*" >&2; }
cache="${ORTKIT_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/ortkit}/downloads"

pack() {
    out=$1
    mkdir -p "$out"
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    plugins=package/Plugins/Linux/x64
    tar xzf "$cache/com.github.asus4.onnxruntime-0.4.9.tgz" -C "$tmp" --strip-components=4 "$plugins/libonnxruntime.so"
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

run() {
    src=$1 build=${2:-$here/build}
    ortkit="$build/ortkit"
    work="$build/gpu-check"
    mkdir -p "$work"
    report="$work/report.txt"
    : >"$report"

    say "1/6 the host through NVML"
    "$ortkit" host --json >"$work/host.json"
    sm=$(python3 -c 'import json,sys; g=json.load(open(sys.argv[1]))["nvidia"]["gpus"]
print(g[0]["compute_capability"].replace(".", "") if g else "")' "$work/host.json" 2>/dev/null || true)
    if [ -z "$sm" ]; then
        say "NVML sees no NVIDIA GPU here: nothing to check"
        exit 77
    fi
    "$ortkit" host | tee -a "$report"

    say "2/6 ONNX Runtime 1.29.0 (CUDA 13) and the CUDA 13 libraries"
    rt=$(runtime_dir "$src" "$work")
    extra=$(pip_cuda_dirs)
    LD_LIBRARY_PATH="${extra:+$extra:}${CUDA_HOME:+$CUDA_HOME/lib64:}${LD_LIBRARY_PATH:-}"
    export LD_LIBRARY_PATH

    say "3/6 a self-contained CUDA 13 bundle for sm_$sm"
    rm -rf "$work/bundles"
    "$ortkit" bundle import "$rt" --variant "cuda13.0-sm$sm-avx2" --name "ort-1.29.0-cuda13-sm$sm" \
        --into "$work/bundles" | tee -a "$report"
    export ORTKIT_PATH="$work/bundles" ORTKIT_BUNDLE="ort-1.29.0-cuda13-sm$sm"

    say "4/6 doctor: the probe's verdict and a live run on CUDA"
    "$ortkit" doctor | tee -a "$report"
    "$ortkit" doctor --json >"$work/doctor.json"
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
g=[p for p in d["gpu_providers"] if p["provider"]=="CUDAExecutionProvider"][0]
assert g["usable"], g' "$work/doctor.json"

    say "5/6 validate --ep cuda --strict on the node suite"
    "$ortkit" validate --ep cuda --strict --json /usr/share/libonnx-testdata/data/node \
        >"$work/validate.json" || true
    "$ortkit" validate --ep cuda --strict /usr/share/libonnx-testdata/data/node 2>&1 | tail -5 | tee -a "$report"

    say "6/6 bench: CUDA against the CPU on a real model"
    model="$here/deps/models/silero_vad.onnx"
    [ -f "$model" ] || model="$build/test-models/add.onnx"
    "$ortkit" bench "$model" --random -t 10 --ep cpu --compare ep=cuda --json >"$work/bench.json"
    "$ortkit" bench "$model" --random -t 10 --ep cpu --compare ep=cuda | tee -a "$report"
    say "done: $report"
}

case "${1:-}" in
pack) shift; pack "$@" ;;
run) shift; run "$@" ;;
*) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
