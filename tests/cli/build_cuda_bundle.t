# build_cuda_bundle.t - how `ortkit build` bundles a CUDA build, on a
# stand-in source tree whose CMake project installs a real CUDA 13 release
# (onnxruntime-node 1.29.0's core, built with CUDA, and its GPU release's
# CUDA provider: SASS sm_75 to sm_120a) as its build output.  The bundle must
# carry the variant's name and CPU needs, the GPU code read from the
# provider, and the CUDA libraries of the toolkit named with --cuda-home,
# with nothing pointing there in the environment.  A variant the binaries do
# not bear out is refused.  Needs NVIDIA's CUDA 13 toolkit with cuDNN 9
# (the build's pre-flight asks nvcc) and set-up's GPU material; skipped by
# name without them.
set -eu
U="${ORTKIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ortkit}/downloads/unpacked"
CUDA="${CUDA_HOME:-/usr/local/cuda}"
CORE="$U/core-node-1.29.0/package/bin/napi-v6/linux/x64/libonnxruntime.so.1"
PROV="$U/gpu-1.29.0/package/Plugins/Linux/x64"
if [ ! -f "$CORE" ] || [ ! -f "$PROV/libonnxruntime_providers_cuda.so" ]; then
    echo "skipped: no CUDA 13 release (scripts/fetch_cuda.sh fetches the material)"
    exit 77
fi
if [ ! -x "$CUDA/bin/nvcc" ] || [ ! -e "$CUDA/lib64/libcudnn.so.9" ] ||
    [ ! -e "$CUDA/lib64/libcudart.so.13" ]; then
    echo "skipped: no CUDA 13 toolkit with cuDNN 9 in $CUDA"
    exit 77
fi

mkdir -p ort/cmake ort/src
echo 1.29.0 >ort/VERSION_NUMBER
cat >ort/cmake/CMakeLists.txt <<'CM'
cmake_minimum_required(VERSION 3.21)
project(onnxruntime C CXX)
add_library(ortkit_standin STATIC ../src/standin.cc)
install(FILES "${CORE}" "${PROV}/libonnxruntime_providers_cuda.so"
        "${PROV}/libonnxruntime_providers_shared.so" DESTINATION lib)
install(DIRECTORY "${HDR_DIR}/" DESTINATION include/onnxruntime)
CM
printf 'int standin() { return 1; }\n' >ort/src/standin.cc

build() {
    env -u CUDA_HOME -u CUDA_PATH -u CUDNN_HOME LD_LIBRARY_PATH= "$ORTKIT" build --source ort \
        --variant "$1" --build-dir "b-$1" --min-disk 1M --cuda-home "$CUDA" --no-progress \
        -D "CORE=$CORE" -D "PROV=$PROV" -D "HDR_DIR=$SRC/deps/ort-headers/include" \
        --bundle-into "$PWD/bundles"
}

expect_exit 0 build cuda13.0-sm90-avx2
expect_in out "built cuda13.0-sm90-avx2 in $PWD/b-cuda13.0-sm90-avx2"
expect_in out "bundle: $PWD/bundles/ort-1.29.0-cuda13.0-sm90-avx2"
expect_not_in out "incomplete"
B="$PWD/bundles/ort-1.29.0-cuda13.0-sm90-avx2"
expect_exit 0 "$ORTKIT" bundle verify "$B"
/usr/bin/python3 - "$B/manifest.json" b-cuda13.0-sm90-avx2/ortkit-report.json <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
assert m["variant"] == "cuda13.0-sm90-avx2", m["variant"]
assert {"avx2", "fma"} <= set(m["requires"]["cpu_features"]), m["requires"]
g = m["gpu"]
assert g["cuda"] == "13.0" and g["cudnn"] == 9 and g["min_driver"] == "580.65.06", g
assert "sm_90a" in g["sass"] and g["ptx"] == [], g
assert g["complete"] is True and g["missing"] == [], g
carried = {lib["soname"] for lib in g["libraries"]}
assert {"libcudart.so.13", "libcublas.so.13", "libcudnn.so.9"} <= carried, carried
assert not any(lib["soname"].startswith("libcuda.so") for lib in g["libraries"]), carried
r = json.load(open(sys.argv[2]))
assert r["bundle_cuda_libraries_missing"] == 0, r
PY

# The binaries are the evidence: no sm_100a code in this provider, so a
# build named for Blackwell is built and installed, then refused a bundle.
expect_exit 1 build cuda13.0-sm100-avx2
expect_in err "the build succeeded, but making its bundle failed"
expect_in err "as cuda13.0-sm100-avx2: its providers carry no sm_100a code (SASS: sm_75 sm_80 sm_86 sm_89 sm_90a sm_120a)"
[ ! -e bundles/ort-1.29.0-cuda13.0-sm100-avx2 ]
