#!/bin/sh
# The test rust.crate: `cargo test --offline` of the Rust binding against a
# build tree's libortkit, set-up's runtimes and the build's test models.
# Usage: bindings/rust/run_tests.sh BUILD_DIR [CARGO TEST ARGS...]
#
# Without cargo it reports itself skipped (77); which cargo, rustc and
# rustdoc: cargo_env.sh.  Cargo's target directory is BUILD_DIR/cargo, never
# the source tree.  ctest sets the ORTKIT_TEST_* variables (tests/CMakeLists.txt);
# by hand they default to the build tree and set-up's deps/.
set -eu
[ $# -ge 1 ] || { echo "usage: run_tests.sh BUILD_DIR [CARGO TEST ARGS...]" >&2; exit 2; }
build=$(cd "$1" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)

# shellcheck source=cargo_env.sh
. "$here/cargo_env.sh"

export CARGO_TARGET_DIR="$build/cargo"
export ORTKIT_DIR="$build"
deps="$src/deps"
: "${ORTKIT_TEST_RUNTIME_NEW:=$deps/runtime/1.30.0}"
: "${ORTKIT_TEST_RUNTIME_OLD:=$deps/runtime/1.17.3}"
: "${ORTKIT_TEST_MODELS:=$build/test-models}"
: "${ORTKIT_TEST_STUBS:=$build/stubs}"
: "${ORTKIT_TEST_CLI:=$build/ortkit}"
: "${ORTKIT_TEST_APP_MODEL:=$deps/models/silero_vad.onnx}"
: "${ORTKIT_TEST_VAD_DIR:=$build/vad-input}"
export ORTKIT_TEST_RUNTIME_NEW ORTKIT_TEST_RUNTIME_OLD ORTKIT_TEST_MODELS ORTKIT_TEST_STUBS \
    ORTKIT_TEST_CLI ORTKIT_TEST_APP_MODEL ORTKIT_TEST_VAD_DIR
# The library finds set-up's default runtime through ORTKIT_RUNTIME; the
# bundle tests clear it in the processes they start.
export ORTKIT_RUNTIME="$ORTKIT_TEST_RUNTIME_NEW"
export ORT_DISABLE_TELEMETRY=1
unset ONNXRUNTIME_DIR ORTKIT_BUNDLE

# Silero VAD's inputs, as `make run` makes them (a spoken sentence; kept once made).
/usr/bin/python3 "$src/tests/models/make_vad_input.py" "$ORTKIT_TEST_VAD_DIR"

echo "$("$cargo" --version) with $("${RUSTC:-rustc}" --version); libortkit from $build"
cd "$here"
exec "$cargo" test --offline "$@"
