# gpu_toolkit.t - with NVIDIA's CUDA 13 toolkit on the machine (CUDA_HOME,
# else /usr/local/cuda; skipped by name when it is not there): the CUDA 13
# release completed from it and chosen for an H100 with driver 580, its cuDNN
# (built for CUDA 13) refused for the CUDA 12 release, and the driver's own
# library (Debian's libcuda1) never taken.
set -eu
G="$(dirname "$ORTKIT")/gpu-fixture"
U="${ORTKIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ortkit}/downloads/unpacked"
CUDA="${CUDA_HOME:-/usr/local/cuda}"
if [ ! -f "$G/stamp" ]; then
    echo "skipped: no GPU fixture (scripts/fetch_cuda.sh fetches the material)"
    exit 77
fi
if [ ! -e "$CUDA/lib64/libcudnn.so.9" ] || [ ! -e "$CUDA/lib64/libcudart.so.13" ]; then
    echo "skipped: no CUDA 13 toolkit with cuDNN 9 in $CUDA"
    exit 77
fi
B="$G/bundles"
H="$SRC/tests/hosts"

# cuDNN for CUDA 13 offered to the CUDA 12 release: named, never taken.
cp -al "$B/ort-1.19.2-cuda12" c12
chmod -R go-w c12
expect_exit 1 "$ORTKIT" bundle complete "$PWD/c12" --from "$CUDA/lib64"
expect_in out "libcudnn.so.9: cuDNN 9 for CUDA 12; passed over: "
expect_in out "libcudnn.so.9: built for CUDA 13 (libcudnn_engines_precompiled.so.9 beside it opens libcublasLt.so.13)"
[ ! -e c12/lib/libcudnn.so.9 ]

# The CUDA 13 release, completed from the toolkit; libcuda1's directory
# comes first and is passed over: the driver's library belongs to the host.
cp -al "$B/ort-1.29.0-cuda13" c13
chmod -R go-w c13
expect_exit 0 "$ORTKIT" bundle complete "$PWD/c13" --from "$U/cuda-12.4/usr/lib/x86_64-linux-gnu/nvidia/current"
expect_in out "complete   yes: every CUDA library the providers need is in the bundle"
expect_in out "  libcudnn_engines_precompiled.so.9"
expect_in out "  libcudart.so.13"
[ ! -e c13/lib/libcuda.so.1 ]
expect_exit 0 "$ORTKIT" bundle verify "$PWD/c13"

mkdir path
mv c13 path/ort-1.29.0-cuda13
export ORTKIT_PATH="$PWD/path" XDG_DATA_HOME="$PWD/xdg" XDG_DATA_DIRS="$PWD/sys"
expect_exit 0 "$ORTKIT" doctor --host "$H/h100-580.json"
expect_in out "  1     ort-1.29.0-cuda13  1.29.0  cuda13   x86_64  ORTKIT_PATH  yes   accelerator"
expect_in out "a GPU build (cuda13) that this host's GPU and driver can run"
