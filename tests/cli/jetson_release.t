# jetson_release.t - Jetson and SBSA builds of ONNX Runtime as they are
# distributed, imported here without loading: an aarch64 libonnxruntime.so
# with its provider libraries, the CUDA one needing CUDA's libraries by
# soname and carrying its GPU code in .nv_fatbin.  Nothing in the files names
# the CUDA toolkit; the SASS does: Jetson's integrated GPUs only (sm_87) is a
# build of Jetson's L4T CUDA, none of them (sm_90, sm_110) one of NVIDIA's
# SBSA CUDA, a mix is asked for.  Each is then chosen only on the described
# machines of its platform (tests/hosts/root: Orin on JetPack 6, Thor on
# JetPack 7, a Grace Hopper server), the other refused with both named.
# The parts are real: nvcc compiles the fat binaries, aarch64-linux-gnu-gcc
# links the libraries (stand-ins for ONNX Runtime's code: what import reads
# of them is real); skipped by name without either.
set -eu
R="$SRC/tests/hosts/root"
CUDA="${CUDA_HOME:-/usr/local/cuda}"
CC=aarch64-linux-gnu-gcc
if [ ! -x "$CUDA/bin/nvcc" ]; then
    echo "skipped: no nvcc in $CUDA/bin to compile the fat binaries"
    exit 77
fi
if ! command -v "$CC" >/dev/null; then
    echo "skipped: no $CC to link the aarch64 libraries"
    exit 77
fi
for sm in sm_87 sm_90 sm_110; do
    "$CUDA/bin/nvcc" --list-gpu-code | grep -qx "$sm" || {
        echo "skipped: this nvcc does not compile for $sm"
        exit 77
    }
done

printf '__global__ void scale(float *x, float a) { x[threadIdx.x] *= a; }\n' >kernel.cu
printf 'int ortkit_stub;\n' >stub.c
cat >core.c <<'C'
/* What import reads of a core built with CUDA: its version string, and the
 * CUDA entry a provider bridge needs of it. */
const char ortkit_fixture_version[] = "\0" VERSION;
const void *OrtGetApiBase(void) { return ortkit_fixture_version; }
int OrtSessionOptionsAppendExecutionProvider_CUDA(void *options, int device) { return device; }
C
cat >provider.c <<'C'
const char ortkit_fixture_version[] = "\0" VERSION;
void *GetProvider(void) { return (void *)ortkit_fixture_version; }
C
printf 'void *Provider_GetHost(void) { return 0; }\n' >shared.c

# release DIR VERSION CUDA_MAJOR SM...: lib/ of a release whose CUDA provider
# needs that CUDA's libraries and carries SASS for each SM.
release() {
    dir=$1 version=$2 cuda=$3
    shift 3
    mkdir -p "$dir/lib" "$dir/cuda"
    gencode=
    for sm in "$@"; do gencode="$gencode -gencode arch=compute_$sm,code=sm_$sm"; done
    # shellcheck disable=SC2086 # one word per -gencode
    "$CUDA/bin/nvcc" -fatbin $gencode -o "$dir/kernel.fatbin" kernel.cu
    printf '.section .nv_fatbin, "a"\n.balign 8\n.incbin "%s"\n' "$dir/kernel.fatbin" >"$dir/fatbin.S"
    fft=$((cuda - 1))
    libs="libcudart.so.$cuda libcublas.so.$cuda libcublasLt.so.$cuda libcudnn.so.9 libcufft.so.$fft libcurand.so.10"
    needs=
    for n in $libs; do
        "$CC" -shared -nostdlib -o "$dir/cuda/$n" -Wl,-soname,"$n" stub.c
        needs="$needs -l:$n"
    done
    lib=$dir/lib
    "$CC" -shared -fPIC -DVERSION="\"$version\"" -o "$lib/libonnxruntime.so.$version" \
        -Wl,-soname,libonnxruntime.so.1 core.c
    ln -s "libonnxruntime.so.$version" "$lib/libonnxruntime.so.1"
    "$CC" -shared -fPIC -o "$lib/libonnxruntime_providers_shared.so" \
        -Wl,-soname,libonnxruntime_providers_shared.so shared.c
    # shellcheck disable=SC2086 # one word per library
    "$CC" -shared -fPIC -DVERSION="\"$version\"" -o "$lib/libonnxruntime_providers_cuda.so" \
        -Wl,-soname,libonnxruntime_providers_cuda.so provider.c "$dir/fatbin.S" -L"$dir/cuda" -L"$lib" \
        -Wl,--no-as-needed $needs -l:libonnxruntime_providers_shared.so
}

release jetson 1.20.0 12 87
release sbsa 1.23.0 13 90 110
release mixed 1.23.0 13 87 90

# Jetson's: an L4T build, from its SASS, imported without loading it here.
expect_exit 0 "$ORTKIT" bundle import jetson/lib --into b
expect_in out "imported   ort-1.20.0-cuda12-l4t"
expect_in out "runtime    ONNX Runtime 1.20.0 (C API 20), variant cuda12, aarch64"
expect_in out "platform   l4t: Jetson's L4T CUDA"
expect_in out "sass       sm_87"
expect_in out "loaded     no: not yet verified by loading"
/usr/bin/python3 - b/ort-1.20.0-cuda12-l4t/manifest.json <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
assert m["requires"]["arch"] == "aarch64" and m["requires"]["jetson"] is True, m["requires"]
g = m["gpu"]
assert g["platform"] == "l4t" and g["cuda"] == "12.0" and g["sass"] == ["sm_87"], g
assert "libcudart.so.12" in g["needs"] and g["complete"] is False, g
assert m["verified_by_loading"] is False, m
PY

# NVIDIA's SBSA CUDA 13 (Grace's SM 9.0, Thor's 11.0).
expect_exit 0 "$ORTKIT" bundle import sbsa/lib --into b
expect_in out "imported   ort-1.23.0-cuda13-sbsa"
expect_in out "platform   sbsa: NVIDIA's SBSA CUDA"
expect_in out "sass       sm_90 sm_110"

# A mix says nothing for itself: it is asked for, and a platform given must
# agree with a variant given.
expect_exit 1 "$ORTKIT" bundle import mixed/lib --into b
expect_in err "cannot tell whether 'mixed/lib' is built with NVIDIA's SBSA CUDA or Jetson's L4T CUDA: its SASS mixes Jetson's integrated GPUs (SM 5.3, 6.2, 7.2, 8.7) with others: sm_87 sm_90; give --platform sbsa or --platform l4t"
expect_exit 0 "$ORTKIT" bundle import mixed/lib --platform sbsa --name mixed-sbsa --into b
expect_in out "platform   sbsa: NVIDIA's SBSA CUDA"
expect_exit 1 "$ORTKIT" bundle import sbsa/lib --variant cuda13.0-sm110-armv9 --platform l4t --into b
expect_in err "variant cuda13.0-sm110-armv9 is built with NVIDIA's SBSA CUDA, and --platform says l4t"
expect_exit 1 "$ORTKIT" bundle import jetson/lib --platform orin --into b
expect_in err "unknown platform 'orin'"
rm -rf b/mixed-sbsa

# Completed from their own CUDA libraries (the stand-ins beside them), each
# fits where its platform and SASS are, and only there.
expect_exit 0 "$ORTKIT" bundle complete b/ort-1.20.0-cuda12-l4t --from jetson/cuda
expect_in out "complete   yes"
expect_exit 0 "$ORTKIT" bundle complete b/ort-1.23.0-cuda13-sbsa --from sbsa/cuda
expect_in out "complete   yes"
choose() {
    expect_exit 0 "$ORTKIT" host --root "$R/$1" --json
    cp out "$1.json"
    expect_exit 0 "$ORTKIT" bundle choose --host "$1.json" b
}
choose orin-jp6
expect_in out "choice     ort-1.20.0-cuda12-l4t"
expect_in out "built for NVIDIA's SBSA CUDA (arm64 servers, and Jetson from JetPack 7); this host takes Jetson's L4T CUDA (JetPack 6, L4T R36.4.3)"
choose thor-jp7
expect_in out "choice     ort-1.23.0-cuda13-sbsa"
expect_in out "built for Jetson's L4T CUDA (JetPack 6); this host takes NVIDIA's SBSA CUDA (a Jetson on JetPack 7, L4T R38.2.0)"
choose grace-gh200
expect_in out "choice     ort-1.23.0-cuda13-sbsa"
expect_in out "built for Jetson's L4T CUDA (JetPack 6); this host takes NVIDIA's SBSA CUDA (arm64, not a Jetson)"
