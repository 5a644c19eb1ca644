#!/bin/sh
# run.sh ARM64_BUILD TEST - run one test of the aarch64 cross build tree
# (cmake/aarch64-linux-gnu.cmake; `make build-arm64`) under qemu-user, as
# one of the native suite's arm64.* tests.  Exits 77 (skipped) when there is
# no cross build (no aarch64-linux-gnu-gcc, or it was not built) or no
# emulator; otherwise as the test does.
set -u
build=$1 name=$2
if [ ! -x "$build/ortkit" ] || [ ! -f "$build/CTestTestfile.cmake" ]; then
    echo "skipped: no aarch64 build in $build (make build-arm64; it needs aarch64-linux-gnu-gcc)"
    exit 77
fi
qemu=$(sed -n 's/^ORTKIT_QEMU:FILEPATH=//p' "$build/CMakeCache.txt")
if [ -z "$qemu" ] || [ ! -x "$qemu" ]; then
    echo "skipped: no qemu-aarch64 for $build (scripts/setup.sh test puts one in deps/qemu)"
    exit 77
fi
out=$(mktemp "${TMPDIR:-/tmp}/ortkit-arm64.XXXXXX")
trap 'rm -f "$out"' EXIT
ctest --test-dir "$build" -R "^$(printf '%s' "$name" | sed 's/\./\\./g')\$" --output-on-failure \
    --no-tests=error >"$out" 2>&1
rc=$?
cat "$out"
if [ "$rc" = 0 ] && grep -q '\*\*\*Skipped\|Not Run' "$out"; then
    exit 77
fi
exit "$rc"
