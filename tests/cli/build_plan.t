# build_plan.t - `ortkit build`: usage, plans (--dry-run) for every variant,
# ORT's real option names, --ops-from, and pre-flight refusals (no compiling).
set -eu
REAL=$(readlink -f "$ORTKIT")
GOLDEN="$SRC/tests/builder/plans"

expect_exit 0 "$ORTKIT" build --help
expect_in out "usage: ortkit build --source DIR --variant NAME [options]"
expect_exit 2 "$ORTKIT" build --bogus
expect_exit 2 "$ORTKIT" build --variant cpu-avx2
expect_exit 2 "$ORTKIT" build --source x
expect_in err "--source needs --variant NAME"
expect_exit 2 "$ORTKIT" build --source x --variant cpu-avx2 --mem-budget lots
expect_exit 2 "$ORTKIT" build --source x --cmake-project y
expect_exit 2 "$ORTKIT" build --source x --variant cpu-avx2 -D NOEQUALS

# A stand-in ORT tree: what pre-flight reads (the version, cmake/CMakeLists.txt).
mkdir -p ort/cmake notort
echo 1.21.0 >ort/VERSION_NUMBER
printf 'cmake_minimum_required(VERSION 3.21)\nproject(onnxruntime C CXX ASM)\n' >ort/cmake/CMakeLists.txt

expect_exit 1 "$ORTKIT" build --source notort --variant cpu-avx2 --dry-run
expect_in err "ortkit: '$PWD/notort' is not an ONNX Runtime source tree: it has no VERSION_NUMBER"
expect_exit 1 "$ORTKIT" build --source ort --variant cpu-avx3 --dry-run
expect_in err "cpu-avx3"
expect_exit 1 "$ORTKIT" build --source ort --variant cuda12.4-sm120-avx2 --dry-run
expect_in err "cannot be built: nvcc 12.4 cannot compile for Blackwell"

# --static: only for an ONNX Runtime build that makes a bundle; the plan says it.
expect_exit 1 "$ORTKIT" build --cmake-project notort --static --dry-run
expect_in err "ortkit: --static makes a bundle of an ONNX Runtime build: it needs --source and --variant"
expect_exit 1 "$ORTKIT" build --source ort --variant cpu-x86-64 --static --no-bundle --dry-run
expect_in err "ortkit: --static makes a static bundle: it cannot go with --no-bundle"
expect_exit 0 "$ORTKIT" build --source ort --variant cpu-x86-64 --static --dry-run
expect_in out "outputs       static core: the shared library's static libraries merged into libonnxruntime.a after the build (providers stay shared)"

# The dry run prints the golden plan (paths aside) and how it would build.
for v in cpu-avx2 cuda12.9-sm90-avx512 cpu-armv9 cpu-x86-64; do
    expect_exit 0 env CUDA_HOME=/usr/local/cuda-12.9 CUDNN_HOME=/usr "$ORTKIT" build --source ort \
        --variant "$v" --build-dir "/build/$v" --eigen /usr/include/eigen3 --dry-run
    expect_in out "ninja -C /build/$v under the compile gate"
    sed -e '/^build:$/,$d' -e "s|$PWD/ort|/src/onnxruntime-1.21.0|g" -e "s|$REAL|/usr/bin/ortkit|g" out |
        sed -e '$d' | expect_same "$GOLDEN/$v.txt"
done

# Every variant of the table plans (or says why it cannot be built).
expect_exit 0 "$ORTKIT" variants --json
/usr/bin/python3 - out "$ORTKIT" "$PWD/ort" <<'PY'
import json, subprocess, sys
vs = json.load(open(sys.argv[1]))["variants"]
ortkit, src = sys.argv[2], sys.argv[3]
for v in vs:
    p = subprocess.run([ortkit, "build", "--source", src, "--variant", v["name"], "--build-dir",
                        "/b/" + v["name"], "--dry-run", "--json"], capture_output=True, text=True,
                       env={"PATH": "/usr/bin:/bin", "CUDA_HOME": "/opt/cuda"})
    if "defect" in v:
        assert p.returncode == 1 and "cannot be built" in p.stderr, (v["name"], p.stderr)
        continue
    assert p.returncode == 0, (v["name"], p.stderr)
    plan = json.loads(p.stdout)
    cfg = plan["configure"]
    assert "-Donnxruntime_BUILD_SHARED_LIB=ON" in cfg and "-Donnxruntime_BUILD_UNIT_TESTS=OFF" in cfg
    # The variant's flags reach ORT's own project only (CMAKE_PROJECT_INCLUDE).
    assert "-DCMAKE_CXX_FLAGS=" in cfg, v["name"]
    if v["cpu_flags"]:
        assert "-DCMAKE_PROJECT_INCLUDE=/b/%s/.ortkit/cpu-flags.cmake" % v["name"] in cfg, v["name"]
        assert 'string(APPEND CMAKE_CXX_FLAGS " %s")' % v["cpu_flags"] in plan["cpu_flags_file"]["text"], v["name"]
    if v["cuda"] is None:
        assert "-Donnxruntime_USE_CUDA=OFF" in cfg
        assert not any("CUDA_ARCHITECTURES" in a for a in cfg)
    else:
        assert "-Donnxruntime_USE_CUDA=ON" in cfg
        assert "-DCMAKE_CUDA_ARCHITECTURES=%s-real" % v["cubin"][3:] in cfg, v["name"]
        assert "-Donnxruntime_CUDA_HOME=/opt/cuda" in cfg
        assert any(a.startswith("-DCMAKE_CUDA_COMPILER_LAUNCHER=") for a in cfg)
print("planned", len(vs))
PY

# The options are ONNX Runtime's own: checked against its CMake files when
# the real source tree is at hand (make build-ort fetches it).
ORT_TREE="$SRC/deps/ort-src/onnxruntime-1.21.0"
if [ -d "$ORT_TREE/cmake" ]; then
    for opt in $(cat "$GOLDEN"/*.txt | grep -o -- '-Donnxruntime_[A-Za-z0-9_]*' | sort -u | sed 's/^-D//'); do
        grep -rqw "$opt" "$ORT_TREE/cmake" || { echo "FAIL: $opt is not in ORT's cmake files" >&2; exit 1; }
    done
    grep -q 'cmake_build_dir' "$ORT_TREE/tools/ci_build/reduce_op_kernels.py"
else
    echo "note: no ORT source tree under deps/; option names checked against the golden plans only"
fi

# --ops-from: the operators of the models, and the reduction step before configure.
expect_exit 0 "$ORTKIT" build --source ort --variant cpu-avx2 --build-dir b \
    --ops-from "$MODELS/add.onnx" "$MODELS/matmul.onnx" --dry-run
expect_in out "ai.onnx;17;Add,MatMul,Relu"
expect_in out "tools/ci_build/reduce_op_kernels.py"
expect_in out "-Donnxruntime_REDUCED_OPS_BUILD=ON"
expect_not_in out "MemcpyFromHost"
# A GPU build also keeps the copies ONNX Runtime inserts between device and CPU.
expect_exit 0 "$ORTKIT" build --source ort --variant cuda13.0-sm90-avx2 --build-dir b \
    --ops-from "$MODELS/add.onnx" --dry-run
expect_in out "ai.onnx;1;MemcpyFromHost,MemcpyToHost"
expect_in out "ai.onnx;17;Add"
expect_exit 1 "$ORTKIT" build --source ort --variant cpu-avx2 --ops-from "$MODELS/not_onnx.onnx" --dry-run
expect_in err "not an ONNX model"

# JSON plan, with pass-through definitions and offline dependencies.
expect_exit 0 "$ORTKIT" build --source ort --variant cpu-avx512vnni --lto -D FOO=bar \
    --dep onnx=/usr/src/onnx --mem-budget 6G --jobs 3 --cache ccache --dry-run --json
/usr/bin/python3 - out <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
c = p["configure"]
assert "-Donnxruntime_ENABLE_LTO=ON" in c and c[-1] == "-DFOO=bar", c
assert "-DFETCHCONTENT_SOURCE_DIR_ONNX=/usr/src/onnx" in c
assert "-DFETCHCONTENT_FULLY_DISCONNECTED=ON" in c
assert p["gate"] == {"budget_bytes": 6 * 2**30, "slots": 3, "chain": "ccache"}, p["gate"]
PY

# ---- pre-flight: each refusal before any compile --------------------------
if [ "$(uname -m)" = x86_64 ]; then
    # A variant of another architecture is a cross build: its compilers
    # must be there and take its flags, and it needs a protoc that runs here.
    expect_exit 1 "$ORTKIT" build --source ort --variant cpu-armv9 --build-dir b1 --min-disk 1M \
        --cross-prefix nosuch-linux-gnu-
    expect_in err "the C compiler 'nosuch-linux-gnu-gcc' is not found"
    expect_exit 1 "$ORTKIT" build --source ort --variant cpu-armv9 --build-dir b1 --min-disk 1M \
        --cross-prefix x86_64-linux-gnu-
    expect_in err "rejects the flags '-march=armv9-a+sve2'"
    if command -v aarch64-linux-gnu-g++ >/dev/null; then
        expect_exit 1 "$ORTKIT" build --source ort --variant cpu-armv9 --build-dir b1 --min-disk 1M
        expect_in err "ortkit: a cross build needs a protoc that runs on this machine for ONNX's code generation: give --host-protoc FILE, or --deps DIR with protobuf's source (ortkit builds protoc from it), or --fetch (ONNX Runtime downloads one)"
    fi
    expect_exit 1 "$ORTKIT" build --source ort --variant cpu-x86-64 --build-dir b1 --host-protoc /usr/bin/true --dry-run
    expect_in err "ortkit: --toolchain-file, --cross-prefix and --host-protoc are for a cross build; variant cpu-x86-64 is for x86_64, this machine's own architecture"
    expect_exit 2 "$ORTKIT" build --cmake-project ort --toolchain-file t.cmake
    expect_in err "a CMake project takes its toolchain with -D CMAKE_TOOLCHAIN_FILE=FILE"
fi

# GPU variants: no toolkit, a toolkit of another CUDA version, no cuDNN.
expect_exit 1 env CUDA_HOME="$PWD/nocuda" "$ORTKIT" build --source ort --variant cuda12.9-sm90-avx2 \
    --build-dir b2 --min-disk 1M
expect_in err "no CUDA toolkit: $PWD/nocuda/bin/nvcc not found"
mkdir -p cuda124/bin cuda129/bin
printf '#!/bin/sh\necho "Cuda compilation tools, release 12.4, V12.4.131"\n' >cuda124/bin/nvcc
printf '#!/bin/sh\necho "Cuda compilation tools, release 12.9, V12.9.86"\n' >cuda129/bin/nvcc
chmod +x cuda124/bin/nvcc cuda129/bin/nvcc
expect_exit 1 env CUDA_HOME="$PWD/cuda124" "$ORTKIT" build --source ort --variant cuda12.9-sm90-avx2 \
    --build-dir b2 --min-disk 1M
expect_in err "variant cuda12.9-sm90-avx2 needs CUDA 12.9, but the toolkit in $PWD/cuda124 is CUDA 12.4"
if [ ! -e /usr/include/cudnn_version.h ] && [ ! -e /usr/include/x86_64-linux-gnu/cudnn_version.h ]; then
    expect_exit 1 env -u CUDNN_HOME CUDA_HOME="$PWD/cuda129" "$ORTKIT" build --source ort \
        --variant cuda12.9-sm90-avx2 --build-dir b2 --min-disk 1M
    expect_in err "cuDNN not found"
fi

# CMake older than the tree needs.
mkdir -p newer/cmake
echo 1.99.0 >newer/VERSION_NUMBER
printf 'cmake_minimum_required(VERSION 99.1)\nproject(onnxruntime C CXX)\n' >newer/cmake/CMakeLists.txt
expect_exit 1 "$ORTKIT" build --source newer --variant cpu-avx2 --build-dir b3 --min-disk 1M
expect_in err "is too old: this ONNX Runtime needs 99.1 or newer"

# A full disk: a 2 MiB tmpfs (needs root and mount; skipped otherwise).
mkdir full
if mount -t tmpfs -o size=2m tmpfs full 2>/dev/null; then
    set +e
    "$ORTKIT" build --source ort --variant cpu-avx2 --build-dir full/b >out 2>err
    got=$?
    set -e
    umount full
    [ "$got" = 1 ] || { echo "FAIL: full disk exited $got" >&2; cat err >&2; exit 1; }
    expect_in err "not enough free disk for $PWD/full/b: 2 MiB free, needs 6.00 GiB"
else
    echo "note: cannot mount a tmpfs here; full-disk check skipped"
fi

# --check: pre-flight only.  With a real CUDA toolkit on this machine, a
# variant of its version passes and one of another version is refused.
expect_exit 0 "$ORTKIT" build --source ort --variant cpu-avx2 --build-dir b4 --min-disk 1M --check
expect_in out "pre-flight passed for cpu-avx2"
expect_in out "ONNX Runtime 1.21.0"
expect_exit 2 "$ORTKIT" build --source ort --variant cpu-avx2 --check --dry-run
if [ -x /usr/local/cuda/bin/nvcc ] && [ -e /usr/local/cuda/include/cudnn_version.h ]; then
    rel=$(/usr/local/cuda/bin/nvcc --version | sed -n 's/.*release \([0-9]*\.[0-9]*\).*/\1/p')
    case $rel in
    12.9 | 13.0)
        expect_exit 0 env CUDA_HOME=/usr/local/cuda "$ORTKIT" build --source ort \
            --variant "cuda$rel-sm90-avx2" --build-dir b4 --min-disk 1M --check
        expect_in out "nvcc    $rel (/usr/local/cuda)"
        expect_in out "cuDNN"
        other=13.0
        [ "$rel" = 13.0 ] && other=12.9
        expect_exit 1 env CUDA_HOME=/usr/local/cuda "$ORTKIT" build --source ort \
            --variant "cuda$other-sm90-avx2" --build-dir b4 --min-disk 1M --check
        expect_in err "needs CUDA $other, but the toolkit in /usr/local/cuda is CUDA $rel"
        ;;
    esac
fi
