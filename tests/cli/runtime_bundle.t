# runtime_bundle.t - a runtime named by path that lies in a bundle is verified
# exactly as a chosen bundle is, whichever way it is named (--runtime, the
# directory or the library inside it, ORTKIT_RUNTIME, --bundle NAME|DIR of
# run, bench, info and validate); an unlisted library in its lib/ (RUNPATH
# $ORIGIN) or a changed listed one is never loaded.
set -eu
export XDG_DATA_HOME="$PWD/data" XDG_CACHE_HOME="$PWD/cache" XDG_STATE_HOME="$PWD/state"
export ORTKIT_PATH=
"$ORTKIT" bundle import "$RT_OLD" >/dev/null
B="$XDG_DATA_HOME/ortkit/bundles/ort-1.17.3-cpu"
[ -f "$B/manifest.json" ] || { echo "FAIL: no bundle at $B" >&2; exit 1; }
/usr/bin/python3 "$SRC/tests/validate/make_cases.py" "$MODELS" cases
ADD="$MODELS/add.onnx -i a=$MODELS/add_a.npy -i b=$MODELS/add_b.npy"

# A bundle that verifies loads by any of its names, and the account says it was verified.
expect_exit 0 "$ORTKIT" version --runtime "$B"
expect_in out "ONNX Runtime 1.17.3"
expect_exit 0 env ORTKIT_RUNTIME="$B/lib/libonnxruntime.so" "$ORTKIT" doctor
expect_in out "(in bundle ort-1.17.3-cpu, verified)"
# shellcheck disable=SC2086
expect_exit 0 "$ORTKIT" run $ADD --bundle ort-1.17.3-cpu
expect_in out "runtime   ONNX Runtime 1.17.3"
# shellcheck disable=SC2086
expect_exit 0 "$ORTKIT" run $ADD --bundle 1.17.3
expect_in out "runtime   ONNX Runtime 1.17.3"
expect_exit 0 "$ORTKIT" info "$MODELS/add.onnx" --bundle "$B"
# shellcheck disable=SC2086
expect_exit 0 "$ORTKIT" bench $ADD --bundle ort-1.17.3-cpu -n 3 --warmup 0
expect_exit 0 "$ORTKIT" validate --no-progress cases/good --bundle "$B"

# An unlisted library in the bundle's lib/, named itself or through the bundle.
cp "$B/lib/libonnxruntime.so.1.17.3" "$B/lib/libplanted.so"
expect_exit 1 "$ORTKIT" version --runtime "$B/lib/libplanted.so"
expect_in err "lies in bundle"
expect_in err "which fails verification: lib/libplanted.so: not in the manifest"
expect_in err "not loaded"
for named in "$B" "$B/lib" "$B/lib/libonnxruntime.so"; do
    expect_exit 1 env ORTKIT_RUNTIME="$named" "$ORTKIT" version
    expect_in err "which fails verification"
done
# shellcheck disable=SC2086
expect_exit 1 "$ORTKIT" run $ADD --runtime "$B"
expect_in err "which fails verification"
# shellcheck disable=SC2086
expect_exit 1 "$ORTKIT" run $ADD --bundle "$B"
expect_in err "which fails verification"
expect_exit 1 "$ORTKIT" info "$MODELS/add.onnx" --bundle "$B"
expect_in err "which fails verification"
# shellcheck disable=SC2086
expect_exit 1 "$ORTKIT" bench $ADD --bundle "$B" -n 3
expect_in err "which fails verification"
expect_exit 1 "$ORTKIT" validate --no-progress cases/good --bundle "$B"
expect_in err "which fails verification"
# A bundle chosen by name fails the same way (selection verifies it, then passes it over).
# shellcheck disable=SC2086
expect_exit 1 "$ORTKIT" run $ADD --bundle ort-1.17.3-cpu
expect_in err "ort-1.17.3-cpu"
rm "$B/lib/libplanted.so"

# A listed file changed after the bundle verified (the verified-state cache sees it).
expect_exit 0 "$ORTKIT" version --runtime "$B"
chmod u+w "$B/lib/libonnxruntime_providers_shared.so"
printf x >>"$B/lib/libonnxruntime_providers_shared.so"
expect_exit 1 "$ORTKIT" version --runtime "$B/lib/libonnxruntime.so.1.17.3"
expect_in err "which fails verification"

# Usage: --bundle with --runtime, and a directory that is no bundle.
# shellcheck disable=SC2086
expect_exit 2 "$ORTKIT" run $ADD --bundle ort-1.17.3-cpu --runtime "$RT_OLD"
expect_in err "give one"
expect_exit 1 "$ORTKIT" info "$MODELS/add.onnx" --bundle "$RT_OLD"
expect_in err "is not a bundle"
# A runtime directory that is no bundle loads as before, unverified.
expect_exit 0 "$ORTKIT" version --runtime "$RT_OLD"
expect_in out "ONNX Runtime 1.17.3"
