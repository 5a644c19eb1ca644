# GPU providers are decided by a probe process before they are trusted in
# this one, and every cause is named: the real ONNX Runtime 1.29.0 (CUDA 13,
# provider bridge) with no NVIDIA driver, then with Debian's libcuda1 550 and
# no GPU; its CUDA provider beside a CPU build's core (refused before any
# probe); a provider that crashes while loading; the probe's cache.
sh "$SRC/tests/gpu_material.sh" "$GPU_MATERIAL" || exit $?
R129="$GPU_MATERIAL/ort-1.29.0/libonnxruntime.so"
LIBCUDA="$GPU_MATERIAL/libcuda1/usr/lib/x86_64-linux-gnu/nvidia/current"
ADD="$MODELS/add.onnx"
INPUTS="-i a=$MODELS/add_a.npy -i b=$MODELS/add_b.npy"
export XDG_CACHE_HOME="$PWD/cache"
unset LD_LIBRARY_PATH ORTKIT_GPU_PROBE

# --- no driver: libcuda.so.1 is missing; the session falls back and says so ---
# shellcheck disable=SC2086
expect_exit 0 "$ORTKIT" run "$ADD" $INPUTS --ep cuda --runtime "$R129" --json
expect_in err "provider 'cuda' skipped: "
expect_in err "the NVIDIA driver's libcuda.so.1 is not installed"
expect_in err "install the NVIDIA driver, 580.65.06 or newer"
expect_in err "the session runs on the CPU only"
if [ ! -e /usr/local/cuda/lib64/libcublasLt.so.13 ] && ! ldconfig -p | grep -q 'libcublasLt.so.13 '; then
    expect_in err "libcublasLt.so.13 (cuBLASLt for CUDA 13) not found"
fi
/usr/bin/python3 -c 'import json
r = json.load(open("out"))
p = r["providers"][0]
assert r["cpu_fallback"] is True, r
assert p["name"] == "CUDAExecutionProvider" and p["active"] is False, p
assert p["method"] == "bridge" and p["probe"] == "ran", p
assert "libcuda.so.1" in p["reason"] and "libcuda.so.1" in p["detail"], p'
cp out first.json

# The second open is decided by the cache: the same answer, no probe.
# shellcheck disable=SC2086
expect_exit 0 "$ORTKIT" run "$ADD" $INPUTS --ep cuda --runtime "$R129" --json
/usr/bin/python3 -c 'import json
a, b = (json.load(open(f))["providers"][0] for f in ("first.json", "out"))
assert b["probe"] == "cached", b
assert a["reason"] == b["reason"], (a, b)'
[ "$(ls cache/ortkit/probe | wc -l)" = 1 ]

# Text output says where the session runs; --strict fails with the cause.
# shellcheck disable=SC2086
expect_exit 0 "$ORTKIT" run "$ADD" $INPUTS --ep cuda --runtime "$R129"
expect_in out "providers CUDAExecutionProvider (skipped) CPUExecutionProvider"
expect_in out "runs on   the CPU only"
# shellcheck disable=SC2086
expect_exit 1 "$ORTKIT" run "$ADD" $INPUTS --ep cuda --strict --runtime "$R129"
expect_in err "execution provider 'cuda' cannot be used: "
expect_in err "libcuda.so.1 is not installed"

# --- the driver's library without a GPU (Debian's libcuda1 550) ---
if [ -e /usr/local/cuda/lib64/libcublasLt.so.13 ] || ldconfig -p | grep -q 'libcublasLt.so.13 '; then
    # shellcheck disable=SC2086
    LD_LIBRARY_PATH="$LIBCUDA" expect_exit 0 "$ORTKIT" run "$ADD" $INPUTS --ep cuda --runtime "$R129"
    # CUDA 13's runtime asks the driver's version before looking for a device.
    expect_in err "provider 'cuda' skipped: driver 550.163.01 is older than 580.65.06, the floor for CUDA 13"
    expect_in err "ONNX Runtime said: CUDA failure 35: CUDA driver version is insufficient"
    expect_not_in err "is too old for this provider"
else
    echo "gpu_probe: the no-device case of 1.29.0 needs CUDA 13's libraries (the CUDA toolkit): skipped" >&2
fi

# doctor shows the verdicts and the EP devices ONNX Runtime discovers.
ORTKIT_RUNTIME="$R129" expect_exit 0 "$ORTKIT" doctor
expect_in out "GPU providers: decided in a probe process"
expect_in out "CUDAExecutionProvider      no      bridge  cached"
expect_in out "EP devices CPUExecutionProvider on cpu"
ORTKIT_RUNTIME="$R129" expect_exit 0 "$ORTKIT" version --json
/usr/bin/python3 -c 'import json
d = json.load(open("out"))["runtime"]["ep_devices"]
assert any(x["ep"] == "CPUExecutionProvider" and x["type"] == "cpu" for x in d), d'

# --- the CUDA provider beside a CPU build's core: offered as a plugin it
# registers and runs simple models, then crashes the process on shared
# kernels (seen on an H100); refused from the files' symbols, no probe ---
CPUCORE="$GPU_MATERIAL/ort-1.29.0-cpu-core/libonnxruntime.so"
# shellcheck disable=SC2086
expect_exit 1 "$ORTKIT" run "$ADD" $INPUTS --ep cuda --strict --runtime "$CPUCORE"
expect_in err "ONNX Runtime 1.29.0 at '$CPUCORE' was built without CUDA, and "
expect_in err "libonnxruntime_providers_cuda.so beside it is a provider-bridge library that needs a core built with CUDA"
ORTKIT_RUNTIME="$CPUCORE" expect_exit 0 "$ORTKIT" doctor --json
/usr/bin/python3 -c 'import json
g = [p for p in json.load(open("out"))["gpu_providers"] if p["provider"] == "CUDAExecutionProvider"][0]
assert g["usable"] is False and g["method"] == "plugin" and g["probe"] == "", g
assert "provider-bridge library" in g["reason"], g'

# --- a provider that crashes while loading: the probe dies, ortkit does not ---
mkdir crash
cp -L "$RT_NEW/libonnxruntime.so.1" crash/libonnxruntime.so.1
cp "$GPU_MATERIAL/ort-1.29.0/libonnxruntime_providers_shared.so" crash/
cp "$GPU_STUB" crash/libonnxruntime_providers_cuda.so
# shellcheck disable=SC2086
expect_exit 0 "$ORTKIT" run "$ADD" $INPUTS --ep cuda --runtime "$PWD/crash/libonnxruntime.so.1"
# (Under ASan the sanitizer's handler ends the probe with a status, not the signal.)
expect_in err "the provider crashed while loading ("
expect_in err "provider stage): the probe process died, this one did not"
if [ -z "${EXAMPLE_CFLAGS:-}" ]; then
    expect_in err "(signal 11, SIGSEGV, provider stage)"
fi
expect_in err "the session runs on the CPU only"
expect_in out "sum     float32  [2,3]"

# --- one that hangs: stopped at the time limit, named as such ---
# shellcheck disable=SC2086
XDG_CACHE_HOME="$PWD/cache2" STUB_PROVIDER_HANG=1 ORTKIT_GPU_PROBE_TIMEOUT=1 expect_exit 0 "$ORTKIT" run "$ADD" $INPUTS --ep cuda --runtime "$PWD/crash/libonnxruntime.so.1"
expect_in err "the probe did not finish within 1 s (it hung while loading: provider stage)"
[ ! -d cache2/ortkit/probe ] || [ "$(ls cache2/ortkit/probe | wc -l)" = 0 ]
