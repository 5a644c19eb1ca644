# bundle.t - Microsoft's linux/arm64 runtimes (1.30.0 and 1.17.3, from the
# same onnxruntime-node packages as the x86-64 ones) as bundles, made and used
# by the aarch64 ortkit under qemu on an ARMv8.0 CPU (QEMU_CPU, cortex-a72 by
# default: a Raspberry Pi 4 class core): import loads each, verify, list,
# show, choose, and real models run through the chosen one with the outputs
# the x86-64 build gives.
set -eu
export ORTKIT_PATH="$PWD/b"

for v in 1.30.0 1.17.3; do
    rt=$(dirname "$RT_NEW")/$v
    expect_exit 0 "$ORTKIT" bundle import "$rt" --into b
    expect_in out "imported   ort-$v-cpu-aarch64"
    expect_in out "variant cpu, aarch64"
    expect_in out "providers  CPUExecutionProvider"
    expect_in out "confirmed by loading it"
    expect_exit 0 "$ORTKIT" bundle verify "ort-$v-cpu-aarch64"
    expect_in out "result     ok"
    expect_in out "libraries  ld-linux-aarch64.so.1 libc.so.6"
done
expect_exit 0 "$ORTKIT" bundle show ort-1.30.0-cpu-aarch64 --json
/usr/bin/python3 - out <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
text = json.dumps(m)
assert "aarch64" in text and "x86_64" not in text, text[:400]
PY
expect_exit 0 "$ORTKIT" bundle list
expect_in out "ort-1.17.3-cpu-aarch64"
expect_in out "ort-1.30.0-cpu-aarch64"

# The newer of the two, both generic, is the choice; and it is what loads.
expect_exit 0 "$ORTKIT" bundle choose
expect_in out "choice     ort-1.30.0-cpu-aarch64"
expect_exit 0 "$ORTKIT" version
expect_in out "found by   bundle ort-1.30.0-cpu-aarch64"
expect_in out "providers  CPUExecutionProvider"

# A damaged bundle is refused by verify and passed over by the choice.
cp -a b/ort-1.30.0-cpu-aarch64 b/damaged
sed -i 's/"name": "ort-1.30.0-cpu-aarch64"/"name": "damaged"/' b/damaged/manifest.json
lib=$(ls b/damaged/lib/libonnxruntime.so.1*.* 2>/dev/null | head -1)
[ -n "$lib" ] || lib=b/damaged/lib/libonnxruntime.so.1
printf 'x' | dd of="$lib" bs=1 seek=4096 conv=notrunc 2>/dev/null
expect_exit 1 "$ORTKIT" bundle verify b/damaged
expect_in out "SHA-256"
rm -rf b/damaged

# Real models through the chosen bundle, with the x86-64 build's outputs.
expect_exit 0 "$ORTKIT" run "$MODELS/add.onnx" -i a="$MODELS/add_a.npy" -i b="$MODELS/add_b.npy" -o outdir
expect_in out "runtime   ONNX Runtime 1.30.0"
expect_lines err 0
/usr/bin/python3 -c 'import numpy as np, sys; a, b = np.load(sys.argv[1]), np.load(sys.argv[2]); assert a.dtype == b.dtype and a.shape == b.shape and np.allclose(a, b, rtol=1e-6, atol=1e-6), (a, b)' outdir/sum.npy "$MODELS/add_sum.npy"

# The classifier (a sequence of maps out): the probabilities numpy computes.
for v in 1.30.0 1.17.3; do
    expect_exit 0 "$ORTKIT" run "$MODELS/classifier.onnx" -i "$MODELS/classifier_x.npy" \
        --runtime "b/ort-$v-cpu-aarch64" -o "cls-$v" --json
    /usr/bin/python3 - out "cls-$v" "$MODELS/classifier_expected.json" <<'PY'
import json, os, sys
import numpy as np
want = json.load(open(sys.argv[3]))
out = {o["name"]: o for o in json.load(open(sys.argv[1]))["outputs"]}
got = np.array([m["values"] for m in out["probabilities"]["items"]])
assert np.abs(got - np.array(want["probabilities"])).max() < 1e-5, got
assert np.load(os.path.join(sys.argv[2], "label.npy")).tolist() == want["label"]
PY
done

# Silero VAD on zeros: the speech probability the x86-64 build gives.
expect_exit 0 "$ORTKIT" run "$APP_MODEL" --zeros --dim batch=1 --dim sequence=512
expect_in out "output  float32  [1,1]     0.0248211  0.0248211  0.0248211  0.0248211"
