# --ep: execution providers in order, with the fallback policy (default:
# skip what cannot be added, say why) or --strict (fail).  The npm builds of
# ONNX Runtime list the CUDA and TensorRT providers but ship without their
# libraries, so here they can never be added, on any machine (and no probe
# process is started for them).

ADD="$MODELS/add.onnx"
INPUTS="-i a=$MODELS/add_a.npy -i b=$MODELS/add_b.npy"

for rt in "$RT_NEW" "$RT_OLD"; do
    # --- fallback: the run succeeds on the CPU and the warning says why ---
    # shellcheck disable=SC2086
    expect_exit 0 "$ORTKIT" run "$ADD" $INPUTS --ep cuda --runtime "$rt" -o out-cuda
    expect_in err "ortkit: warning: provider 'cuda' skipped: "
    expect_in err "libonnxruntime_providers_cuda.so is not beside it"
    expect_in err "ortkit: warning: the session runs on the CPU only"
    expect_lines err 2
    expect_in out "providers CUDAExecutionProvider (skipped) CPUExecutionProvider"
    expect_in out "sum     float32  [2,3]"
    /usr/bin/python3 -c 'import sys, numpy as np
assert np.allclose(np.load("out-cuda/sum.npy"), np.load(sys.argv[1]), atol=1e-6)' "$MODELS/add_sum.npy"

    # Several providers in order; cpu in the list is the one always added last.
    # shellcheck disable=SC2086
    expect_exit 0 "$ORTKIT" run "$ADD" $INPUTS --ep tensorrt,cuda,cpu --runtime "$rt" --json
    expect_in err "provider 'tensorrt' skipped"
    expect_in err "provider 'cuda' skipped"
    expect_lines err 3
    /usr/bin/python3 -c 'import json
p = json.load(open("out"))["providers"]
assert [x["name"] for x in p] == ["TensorrtExecutionProvider", "CUDAExecutionProvider", "CPUExecutionProvider"], p
assert [x["active"] for x in p] == [False, False, True], p
assert all(x["reason"] for x in p[:2]), p'

    # --- strict: the same request fails, naming the provider ---
    # shellcheck disable=SC2086
    expect_exit 1 "$ORTKIT" run "$ADD" $INPUTS --ep cuda --strict --runtime "$rt" -o strict-out
    expect_lines out 0
    expect_lines err 1
    expect_in err "ortkit: execution provider 'cuda' cannot be used: "
    [ ! -e strict-out ] || { echo "FAIL: a failed run created strict-out" >&2; exit 1; }
    # shellcheck disable=SC2086
    expect_exit 1 "$ORTKIT" run "$ADD" $INPUTS --ep tensorrt,cpu --strict --runtime "$rt"
    expect_in err "execution provider 'tensorrt' cannot be used"

    # --- a provider ortkit does not know ---
    # shellcheck disable=SC2086
    expect_exit 0 "$ORTKIT" run "$ADD" $INPUTS --ep nosuch --runtime "$rt"
    expect_lines err 2
    expect_in err "ortkit: warning: provider 'nosuch' skipped: unknown execution provider 'nosuch'"
    expect_in out "providers nosuch (skipped) CPUExecutionProvider"
    # shellcheck disable=SC2086
    expect_exit 1 "$ORTKIT" run "$ADD" $INPUTS --ep nosuch --strict --runtime "$rt"
    expect_lines out 0
    expect_lines err 1
    expect_in err "ortkit: execution provider 'nosuch' cannot be used: unknown execution provider 'nosuch'"

    # --- a provider ortkit knows but this runtime was built without ---
    # shellcheck disable=SC2086
    expect_exit 0 "$ORTKIT" run "$ADD" $INPUTS --ep openvino --runtime "$rt"
    expect_in err "provider 'openvino' skipped"
    expect_in err "built without OpenVINOExecutionProvider"
    # shellcheck disable=SC2086
    expect_exit 1 "$ORTKIT" run "$ADD" $INPUTS --ep openvino --strict --runtime "$rt"
    expect_in err "execution provider 'openvino' cannot be used"
    expect_in err "built without OpenVINOExecutionProvider"

    # --- cpu alone, even strict, is always there ---
    # shellcheck disable=SC2086
    expect_exit 0 "$ORTKIT" run "$ADD" $INPUTS --ep cpu --strict --runtime "$rt"
    expect_lines err 0
    expect_in out "providers CPUExecutionProvider"
done

# Provider options that are not key=value are refused, even under fallback.
# shellcheck disable=SC2086
expect_exit 1 "$ORTKIT" run "$ADD" $INPUTS --ep cuda:device_id
expect_lines out 0
expect_in err "'cuda:device_id'"
