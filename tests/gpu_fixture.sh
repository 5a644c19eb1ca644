#!/bin/sh
# gpu_fixture.sh ORTKIT OUT - GPU release bundles made from real NVIDIA
# builds, once per build tree, from what scripts/fetch_cuda.sh unpacked into
# the download cache (DOWNLOADS/unpacked: the npm packages' libraries,
# Debian's CUDA 12.4 libraries):
#   OUT/bundles/ort-1.19.2-cuda12   completed from CUDA 12.4; cuDNN for CUDA 12
#                                   is not to be had, so it stays incomplete
#   OUT/bundles/ort-1.29.0-cuda13   imported (onnxruntime-node's core, built
#                                   with CUDA), not completed
#   OUT/stamp                       written last: a later run does nothing.
# Exit 77 (skipped) when the cache lacks the material.
set -eu
ortkit=$1
out=$2
# shellcheck source-path=SCRIPTDIR source=../scripts/lib/fetch.sh
. "$(dirname "$0")/../scripts/lib/fetch.sh"
src="$cache/unpacked"
[ -f "$out/stamp" ] && exit 0
for d in core-node-1.29.0 gpu-1.29.0 gpu-1.19.2 core-1.19.2 cuda-12.4; do
    [ -d "$src/$d" ] || { echo "gpu fixture: skipped: no $src/$d (scripts/fetch_cuda.sh makes it)"; exit 77; }
done
rm -rf "$out"
mkdir -p "$out/bundles"
b="$out/bundles"
x64=package/Plugins/Linux/x64
"$ortkit" bundle import "$src/core-1.19.2/package/bin/napi-v3/linux/x64" \
    --providers "$src/gpu-1.19.2/$x64" --into "$b" >/dev/null
"$ortkit" bundle import "$src/core-node-1.29.0/package/bin/napi-v6/linux/x64/libonnxruntime.so.1" \
    --providers "$src/gpu-1.29.0/$x64" --into "$b" >/dev/null
# Incomplete by nature: exit 1 is the expected answer.
rc=0
"$ortkit" bundle complete "$b/ort-1.19.2-cuda12" --from "$src/cuda-12.4/usr/lib/x86_64-linux-gnu" \
    >/dev/null 2>&1 || rc=$?
[ "$rc" -le 1 ] || { echo "gpu fixture: bundle complete failed ($rc)"; exit 1; }
touch "$out/stamp"
