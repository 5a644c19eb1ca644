# `make install PREFIX=DIR` gives DIR/bin/ortkit, DIR/lib/libortkit.so and .a,
# DIR/include/ortkit.h with the headers under DIR/include/ortkit/,
# DIR/lib/pkgconfig/ortkit.pc and validate's known-failure lists in
# DIR/share/ortkit/validate/; the installed tool finds the runtime set-up
# fetched with no environment variable at all, and its lists from where it
# lies.
build=$(dirname "$ORTKIT")
# No environment but PATH (and the sanitizers' settings, in the ASan build).
bare_env() {
    env -i PATH=/usr/bin:/bin ${LSAN_OPTIONS:+"LSAN_OPTIONS=$LSAN_OPTIONS"} \
        ${UBSAN_OPTIONS:+"UBSAN_OPTIONS=$UBSAN_OPTIONS"} "$@"
}
prefix="$PWD/prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/ortkit lib/libortkit.so lib/libortkit.a include/ortkit.h lib/pkgconfig/ortkit.pc \
    share/ortkit/validate/known_failures_1.30.txt share/ortkit/validate/known_failures_1.17.txt; do
    [ -e "$prefix/$f" ] || { echo "FAIL: $f not installed" >&2; exit 1; }
done
# Every public header, the tooling tier's too.
(cd "$SRC/include" && find . -name '*.h' | sort) >headers.want
(cd "$prefix/include" && find . -name '*.h' | sort) >headers.got
expect_same headers.want <headers.got
expect_in headers.got "./ortkit/tools/compare.h"
expect_exit 0 bare_env "$prefix/bin/ortkit" version
# The bundle `make build` imported (deps/bundles), else set-up's runtime.
if [ -e "$RT_NEW/../../bundles/ort-1.30.0-cpu/manifest.json" ]; then
    expect_in out "found by   bundle ort-1.30.0-cpu"
else
    expect_in out "found by   default"
fi
expect_in out "ONNX Runtime 1.30.0"
# The installed tree can move: ortkit.pc and the tool's RUNPATH are relative.
mv "$prefix" "$PWD/moved"
expect_exit 0 bare_env "$PWD/moved/bin/ortkit" run "$MODELS/add.onnx" --zeros --dim N=2
expect_in out "sum"
# validate's known failures: the list of the moved tree, found from where the
# tool lies, even when PATH found it (its argv[0] a bare name).  The lists
# describe the default suite (Debian's libonnx-testdata).
if [ -d "$VALIDATE_SUITE/node/test_adagrad" ]; then
    expect_exit 0 env -i PATH="$PWD/moved/bin:/usr/bin:/bin" \
        ${LSAN_OPTIONS:+"LSAN_OPTIONS=$LSAN_OPTIONS"} ${UBSAN_OPTIONS:+"UBSAN_OPTIONS=$UBSAN_OPTIONS"} \
        ortkit validate --filter test_adagrad --no-progress
    expect_in out "known     $PWD/moved/share/ortkit/validate/known_failures_1.30.txt"
    expect_in out "result: OK: 0 passed, 0 failed, 1 expected failures"
fi
# Nothing of the source tree is compiled in, nor the test hooks (the
# tests' own ortkit-test-hooks has them).
expect_not_in "$PWD/moved/bin/ortkit" "$SRC/tests/validate"
expect_not_in "$PWD/moved/bin/ortkit" "ORTKIT_RUN_SAVE_PAUSE_TEST"
expect_not_in "$PWD/moved/bin/ortkit" "ORTKIT_VALIDATE_CRASH_TEST"
PKG_CONFIG_PATH="$PWD/moved/lib/pkgconfig" pkg-config --cflags ortkit >flags
expect_in flags "$PWD/moved/lib/pkgconfig/../../include"
# A program of the tooling tier builds against the moved tree: it includes
# <ortkit/tools/...> by name.
cat >tier.c <<'EOF'
#include <ortkit.h>
#include <ortkit/tools/compare.h>
#include <stdio.h>

int main(void)
{
    ortkit_compare c = ORTKIT_COMPARE_INIT;
    printf("ortkit %s, compare version %u\n", ortkit_version(), c.version);
    return 0;
}
EOF
# shellcheck disable=SC2046
# shellcheck disable=SC2086
cc -std=c11 -Wall -Wextra -Werror ${EXAMPLE_CFLAGS:-} -o tier tier.c \
    $(PKG_CONFIG_PATH="$PWD/moved/lib/pkgconfig" pkg-config --cflags --libs ortkit) \
    -Wl,-rpath,"$PWD/moved/lib"
expect_exit 0 ./tier
expect_in out "ortkit 0.1.0, compare version 1"
