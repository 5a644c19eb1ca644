# gpu_select.t - `ortkit doctor --host` over the real GPU release bundles
# (tests/gpu_fixture.sh) for described machines: H100 with driver 580,
# T4 with 535, RTX 5090 with 570, Jetson Orin; the overrides it shows.
set -eu
G="$(dirname "$ORTKIT")/gpu-fixture"
if [ ! -f "$G/stamp" ]; then
    echo "skipped: no GPU fixture (scripts/fetch_cuda.sh fetches the material)"
    exit 77
fi
H="$SRC/tests/hosts"
export ORTKIT_PATH="$G/bundles" XDG_DATA_HOME="$PWD/xdg" XDG_DATA_DIRS="$PWD/sys"
unset ORTKIT_FORCE_CUDA ORTKIT_FORCE_SM CUDA_VISIBLE_DEVICES ORTKIT_BUNDLE || true

expect_exit 0 "$ORTKIT" doctor --host "$H/h100-580.json"
expect_in out "ort-1.19.2-cuda12  1.19.2  cuda12   x86_64  ORTKIT_PATH  no    accelerator  lacks 1 CUDA library (libcudnn.so.9: cuDNN 9 for CUDA 12); add it with 'ortkit bundle complete'"
expect_in out "ort-1.29.0-cuda13  1.29.0  cuda13   x86_64  ORTKIT_PATH  no    accelerator  lacks 6 CUDA libraries (libcublas.so.13: cuBLAS of CUDA 13, ...); add them with 'ortkit bundle complete'"

expect_exit 0 "$ORTKIT" doctor --host "$H/t4-535.json"
expect_in out "ort-1.29.0-cuda13  1.29.0  cuda13   x86_64  ORTKIT_PATH  no    accelerator  needs a driver for CUDA 13 (>= 580.65.06); the driver runs CUDA 12.2, driver 535.183.01"
expect_in out "ort-1.19.2-cuda12  1.19.2  cuda12   x86_64  ORTKIT_PATH  no    accelerator  lacks 1 CUDA library"

expect_exit 0 "$ORTKIT" doctor --host "$H/rtx5090-570.json"
expect_in out "ort-1.29.0-cuda13  1.29.0  cuda13   x86_64  ORTKIT_PATH  no    accelerator  needs a driver for CUDA 13 (>= 580.65.06); the driver runs CUDA 12.8, driver 570.133.07"

expect_exit 1 "$ORTKIT" doctor --host "$H/jetson-orin.json"
expect_in out "ort-1.29.0-cuda13  1.29.0  cuda13   x86_64  ORTKIT_PATH  no    architecture  built for x86_64; this host is aarch64"

# The overrides stand in for detection, and the report shows them.
export ORTKIT_FORCE_CUDA=13.0 ORTKIT_FORCE_SM=100
expect_exit 0 "$ORTKIT" doctor --host "$H/t4-535.json"
expect_in out "  ORTKIT_FORCE_CUDA    13.0"
expect_in out "  ORTKIT_FORCE_SM      100"
expect_in out "overrides  ORTKIT_FORCE_CUDA=13.0"
expect_in out "no    accelerator  GPU 0 (forced by ORTKIT_FORCE_SM, SM 10.0) runs none of its code: sm_75 sm_80 sm_86 sm_89 sm_90a sm_120a"
unset ORTKIT_FORCE_SM
expect_exit 0 "$ORTKIT" doctor --host "$H/t4-535.json" --json
/usr/bin/python3 - out <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["environment"]["ORTKIT_FORCE_CUDA"] == "13.0", d["environment"]
PY
