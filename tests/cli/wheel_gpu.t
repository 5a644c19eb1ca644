# wheel_gpu.t - a wheel carrying a GPU release's facts (Microsoft's 1.29.0
# built with CUDA 13, tests/gpu_fixture.sh) judged for described machines
# by the bundles' accelerator step: the driver, the SASS it carries, the CUDA
# libraries it lacks; and its variant properties for an NVIDIA-aware installer.
set -eu
G="$(dirname "$ORTKIT")/gpu-fixture"
if [ ! -f "$G/stamp" ]; then
    echo "skipped: no GPU fixture (scripts/fetch_cuda.sh fetches the material)"
    exit 77
fi
H="$SRC/tests/hosts"
export XDG_STATE_HOME="$PWD/state"
unset ORTKIT_FORCE_CUDA ORTKIT_FORCE_SM CUDA_VISIBLE_DEVICES || true
mkdir -p t/onnxruntime/capi
printf '# a stub package\n' >t/onnxruntime/__init__.py
printf 'int stub(void) { return 1; }\n' >stub.c
cc -shared -fPIC -o t/onnxruntime/capi/onnxruntime_pybind11_state.so stub.c
expect_exit 0 "$ORTKIT" wheel pack t/onnxruntime --bundle "$G/bundles/ort-1.29.0-cuda13" --python 3.11 --into w
W=$(ls w/*.whl)
expect_in out "cp311-cp311-manylinux_2_17_x86_64"
unzip -p "$W" 'onnxruntime-1.29.0+cuda13.dist-info/variant.json' >variant
expect_in variant '"cuda_version_lower_bound":	["13.0"]'
expect_in variant '"90a_real"'
unzip -p "$W" 'onnxruntime/capi/build_and_package_info.py' >info
expect_in info "cuda_version = '13.0'"
"$ORTKIT" bundle keygen >/dev/null
expect_exit 0 "$ORTKIT" wheel publish "$W" --index idx --key ortkit.key
# A T4 on driver 535 runs CUDA 12.2: the wheel's CUDA 13 code needs 580.
expect_exit 1 "$ORTKIT" wheel choose idx --pubkey ortkit.pub --python 3.11 --host "$H/t4-535.json"
expect_in out "needs a driver for CUDA 13 (>= 580.65.06)"
# An H100 on 580 could run it, but the release carries no CUDA libraries yet.
expect_exit 1 "$ORTKIT" wheel choose idx --pubkey ortkit.pub --python 3.11 --host "$H/h100-580.json"
expect_in out "lacks 6 CUDA libraries"
# A GPU whose SM none of its SASS serves.
ORTKIT_FORCE_SM=100 expect_exit 1 "$ORTKIT" wheel choose idx --pubkey ortkit.pub --python 3.11 --host "$H/h100-580.json"
expect_in out "runs none of its code: sm_75 sm_80 sm_86 sm_89 sm_90a sm_120a"
