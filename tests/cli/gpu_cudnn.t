# The real ONNX Runtime 1.19.2 for CUDA 12 (provider bridge) with Debian's
# CUDA 12.4 libraries and libcuda1 550, no GPU: "no CUDA-capable device",
# and a libcudnn.so.9 that the ld cache resolves to a cuDNN built for
# another CUDA major is named.  Needs a cuDNN 9 on the host (the CUDA 13
# toolkit's): skipped without one.
sh "$SRC/tests/gpu_material.sh" "$GPU_MATERIAL" || exit $?
ldconfig -p | grep -q 'libcudnn.so.9 ' || { echo "gpu_cudnn: no libcudnn.so.9 in the ld cache: skipped" >&2; exit 77; }
R1192="$GPU_MATERIAL/ort-1.19.2/libonnxruntime.so.1"
CUDA12="$GPU_MATERIAL/cuda-12.4/usr/lib/x86_64-linux-gnu"
LIBCUDA="$GPU_MATERIAL/libcuda1/usr/lib/x86_64-linux-gnu/nvidia/current"
export XDG_CACHE_HOME="$PWD/cache" LD_LIBRARY_PATH="$LIBCUDA:$CUDA12"
unset ORTKIT_GPU_PROBE

# shellcheck disable=SC2086
expect_exit 0 "$ORTKIT" run "$MODELS/add.onnx" -i a="$MODELS/add_a.npy" -i b="$MODELS/add_b.npy" --ep cuda --runtime "$R1192" --json
expect_in err "no CUDA-capable device is detected (libcuda.so.1 at $LIBCUDA/libcuda.so.1; no NVIDIA kernel driver is loaded)"
expect_in err "through the ld cache to "
expect_in err "built for CUDA 13: this provider needs a cuDNN 9 built for CUDA 12"
expect_not_in err "older than"
/usr/bin/python3 -c 'import json
r = json.load(open("out"))
p = r["providers"][0]
assert r["cpu_fallback"] is True and p["method"] == "bridge", r
assert p["detail"].startswith("CUDA failure 100: no CUDA-capable device is detected"), p'
