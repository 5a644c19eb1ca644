#!/bin/sh
# gpu_material.sh DEST - unpack the real NVIDIA material the GPU probe tests
# use, from the download cache (scripts/fetch_cuda.sh fills it), into DEST:
#   DEST/ort-1.29.0/   ONNX Runtime 1.29.0 core built with CUDA (onnxruntime-node's)
#                      + CUDA 13 provider libraries (provider bridge)
#   DEST/ort-1.29.0-cpu-core/  the same providers beside the CPU build's core:
#                      the combination that crashes on shared kernels
#   DEST/ort-1.19.2/   ONNX Runtime 1.19.2 core + CUDA 12 provider libraries (provider bridge)
#   DEST/cuda-12.4/    Debian's CUDA 12.4 user-space libraries
#   DEST/libcuda1/     Debian's libcuda1 550.163.01 (the driver's user-space library)
# Once per DEST (a stamp file); exits 77 when the cache lacks the material.
set -eu
dest=$1
# shellcheck source-path=SCRIPTDIR source=../scripts/lib/fetch.sh
. "$(dirname "$0")/../scripts/lib/fetch.sh"
[ -f "$dest/.complete" ] && exit 0
for spec in $gpu_npm_specs; do
    f=$(npm_file "$spec")
    [ -s "$cache/$f" ] || { echo "gpu-material: $cache/$f missing (run scripts/fetch_cuda.sh)" >&2; exit 77; }
done
for p in $gpu_debs; do
    [ -n "$(cached_deb "$p")" ] || { echo "gpu-material: no $p .deb in $cache" >&2; exit 77; }
done
exec 9>"$dest.lock"
flock 9
[ -f "$dest/.complete" ] && exit 0
rm -rf "$dest"
mkdir -p "$dest/ort-1.29.0" "$dest/ort-1.19.2" "$dest/cuda-12.4" "$dest/libcuda1"
plugins=package/Plugins/Linux/x64
echo "gpu-material: unpacking ONNX Runtime 1.29.0 and 1.19.2 GPU builds (about 1 GB) into $dest" >&2
tar xzf "$cache/onnxruntime-node-1.29.0.tgz" -C "$dest/ort-1.29.0" --strip-components=5 \
    package/bin/napi-v6/linux/x64/libonnxruntime.so.1
mv "$dest/ort-1.29.0/libonnxruntime.so.1" "$dest/ort-1.29.0/libonnxruntime.so"
tar xzf "$cache/com.github.asus4.onnxruntime.linux-x64-gpu-0.4.9.tgz" -C "$dest/ort-1.29.0" \
    --strip-components=4 "$plugins/libonnxruntime_providers_cuda.so" \
    "$plugins/libonnxruntime_providers_shared.so" "$plugins/libonnxruntime_providers_tensorrt.so"
mkdir -p "$dest/ort-1.29.0-cpu-core"
tar xzf "$cache/com.github.asus4.onnxruntime-0.4.9.tgz" -C "$dest/ort-1.29.0-cpu-core" \
    --strip-components=4 "$plugins/libonnxruntime.so"
ln "$dest/ort-1.29.0/libonnxruntime_providers_cuda.so" "$dest/ort-1.29.0/libonnxruntime_providers_shared.so" \
    "$dest/ort-1.29.0-cpu-core/"
tar xzf "$cache/com.github.asus4.onnxruntime.linux-x64-gpu-0.2.1.tgz" -C "$dest/ort-1.19.2" \
    --strip-components=4 "$plugins/libonnxruntime_providers_cuda.so" \
    "$plugins/libonnxruntime_providers_shared.so" "$plugins/libonnxruntime_providers_tensorrt.so"
tar xzf "$cache/onnxruntime-node-1.19.2.tgz" -C "$dest/ort-1.19.2" --strip-components=5 \
    package/bin/napi-v3/linux/x64/libonnxruntime.so.1.19.2
ln -sf libonnxruntime.so.1.19.2 "$dest/ort-1.19.2/libonnxruntime.so.1"
for p in $gpu_cuda_libs; do
    dpkg-deb -x "$(cached_deb "$p")" "$dest/cuda-12.4"
done
dpkg-deb -x "$(cached_deb libcuda1)" "$dest/libcuda1"
touch "$dest/.complete"
