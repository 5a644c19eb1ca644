# build_shared_variants.t - what two variants share, built for real: a
# stand-in ONNX Runtime tree (project onnxruntime, a dependency through
# FetchContent, a CUDA provider with a kernel compiled by the real nvcc) is
# built for cuda13.0-sm90-avx2 and then for cuda13.0-sm90-avx512, in two
# build directories with a local cache each, sharing a redis-server on
# loopback.  The variant's flags reach ORT's own C++ only: the dependency
# and the .cu device code get none (the build's commands, and the report's
# account), and the second variant takes them from the server while its own
# C++ compiles.  Skipped (77) without redis-server, ccache with redis, or
# CUDA 13.0's nvcc and cuDNN header in /usr/local/cuda.
set -eu
. "$SRC/tests/cli/redis_lib.sh"
need_redis_ccache
CUDA=/usr/local/cuda
if [ ! -x "$CUDA/bin/nvcc" ] || ! "$CUDA/bin/nvcc" --version | grep -q 'release 13\.0' ||
    [ ! -e "$CUDA/include/cudnn_version.h" ]; then
    echo "skip: no CUDA 13.0 toolkit with cuDNN in $CUDA"
    exit 77
fi
start_redis

# The stand-in tree: ORT's own library (C++), a dependency added below it
# with its own project() (as FetchContent adds protobuf or onnx), and a CUDA
# provider (a kernel and host C++) that includes a header generated in the
# build directory, as ORT's do.
mkdir -p ort/cmake ort/src dep
echo 1.21.0 >ort/VERSION_NUMBER
cat >ort/cmake/CMakeLists.txt <<'CM'
cmake_minimum_required(VERSION 3.21)
project(onnxruntime C CXX)
include(FetchContent)
FetchContent_Declare(dep URL https://example.invalid/dep-1.0.tar.gz)
FetchContent_MakeAvailable(dep)
set(ORT ${CMAKE_CURRENT_SOURCE_DIR}/../src)
file(WRITE ${CMAKE_BINARY_DIR}/generated/ort_config.h "#define ORT_STANDIN 1\n")
add_library(onnxruntime STATIC ${ORT}/ort.cc)
target_link_libraries(onnxruntime PRIVATE dep)
if(onnxruntime_USE_CUDA)
  enable_language(CUDA)
  add_library(onnxruntime_providers_cuda STATIC ${ORT}/kernel.cu ${ORT}/provider.cc)
  target_include_directories(onnxruntime_providers_cuda PRIVATE ${CMAKE_BINARY_DIR}/generated)
  # ORT passes its warning flags to the host compiler the same way.
  target_compile_options(onnxruntime_providers_cuda PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:SHELL:-Xcompiler -Wno-reorder>")
endif()
CM
printf 'int ort_add(int a, int b) { return a + b; }\n' >ort/src/ort.cc
printf '#include "ort_config.h"\nint provider_version() { return ORT_STANDIN; }\n' >ort/src/provider.cc
cat >ort/src/kernel.cu <<'CU'
#include "ort_config.h"
__global__ void add_one(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += ORT_STANDIN;
}
void launch_add_one(float *x, int n) { add_one<<<(n + 255) / 256, 256>>>(x, n); }
CU
printf 'cmake_minimum_required(VERSION 3.21)\nproject(dep CXX)\nadd_library(dep STATIC dep.cc)\n' >dep/CMakeLists.txt
printf 'int dep_value() { return 7; }\n' >dep/dep.cc

# Two builders: own build directories and cache directories; the base
# directory above both build directories makes their generated-header paths
# compare equal.
build() { # VARIANT CACHE_DIR
    expect_exit 0 env CCACHE_DIR="$PWD/$2" CUDA_HOME="$CUDA" "$ORTKIT" build --source ort --variant "$1" \
        --build-dir "$PWD/v/$1" --dep dep="$PWD/dep" --cache ccache --cache-remote "redis://127.0.0.1:$port" \
        --cache-basedir "$PWD/v" --min-disk 1M --no-bundle --jobs 2 --json
    cp out "$1.json"
    cp err "$1.err"
}
build cuda13.0-sm90-avx2 ccA
build cuda13.0-sm90-avx512 ccB

# The commands themselves: nvcc without the variant's flags, the dependency
# too, ORT's own C++ with them.
for v in cuda13.0-sm90-avx2 cuda13.0-sm90-avx512; do
    ninja -C "v/$v" -t commands >"$v.cmds"
    grep 'kernel.cu' "$v.cmds" >"$v.cu"
    grep 'dep.cc' "$v.cmds" >"$v.dep"
    grep '/ort.cc' "$v.cmds" >"$v.ort"
    expect_in "$v.cu" "arch=compute_90a,code=[sm_90a]"
    expect_not_in "$v.cu" "-mavx"
    expect_not_in "$v.cu" "-mfma"
    expect_not_in "$v.dep" "-mavx"
    expect_in "$v.ort" "-mavx"
done
expect_in cuda13.0-sm90-avx512.ort "-mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma"

/usr/bin/python3 - cuda13.0-sm90-avx2.json cuda13.0-sm90-avx512.json <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
def outcomes(r):
    return {x["path"].rsplit("/", 1)[-1]: x["cache"] for x in r["compiles"] if x["lang"] != "link"}
# What the variant's flags reach, as the report accounts for it.
for r, flags in ((a, "-mavx2 -mfma"), (b, "-mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma")):
    s = r["sharing"]
    assert s["variant_flags"] == flags, s
    assert s["ort"]["c++"] == {"variant_specific": 2, "shared": 0}, s     # ort.cc, provider.cc
    assert s["ort"]["cuda"] == {"variant_specific": 0, "shared": 1}, s    # kernel.cu
    assert s["dependencies"]["c++"] == {"variant_specific": 0, "shared": 1}, s  # dep.cc
    assert s["stray"] == 0 and (s["variant_specific"], s["shared"]) == (2, 2), s
# The first builder compiled everything; the second took the shared compiles
# from the server and compiled only its own.
assert set(outcomes(a).values()) == {"miss"}, outcomes(a)
assert outcomes(b) == {"kernel.cu": "remote-hit", "dep.cc": "remote-hit", "ort.cc": "miss",
                       "provider.cc": "miss"}, outcomes(b)
wall = lambda r: {x["path"].rsplit("/", 1)[-1]: x["wall_s"] for x in r["compiles"]}
print("sharing", a["sharing"]["shared"], "shared,", a["sharing"]["variant_specific"],
      "variant-specific; kernel.cu: %.2f s compiled by nvcc, %.2f s from the server (%s)"
      % (wall(a)["kernel.cu"], wall(b)["kernel.cu"], outcomes(b)["kernel.cu"]))
PY
expect_not_in cuda13.0-sm90-avx512.err "carry the variant's"
