# scripts/setup.sh in two parts: `make run` sets up only what it runs (the
# headers, the default runtime, Silero VAD), `make test` the test material
# too.  Run here on a scratch deps directory from the download cache set-up
# filled; skipped (77) when the cache lacks what `run` needs, so that a test
# never downloads.

cache_root="${ORTKIT_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/ortkit}"
for f in onnxruntime-node-1.30.0.tgz vad-node-0.0.3.tgz libonnxruntime-dev_1.21.0+dfsg-1_amd64.deb; do
    [ -s "$cache_root/downloads/$f" ] || { echo "SKIP: $f is not in $cache_root/downloads" >&2; exit 77; }
done

# --- the Makefile: `make run` asks for the run part, `make test` for all -----
expect_exit 0 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n -C "$SRC" run
expect_in out "sh scripts/setup.sh run"
expect_in out 'bundles BUNDLED="1.30.0"'
expect_not_in out "setup.sh test"
expect_exit 0 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n -C "$SRC" test
expect_in out "sh scripts/setup.sh test"
expect_in out 'bundles BUNDLED="1.30.0 1.17.3"'
# `make build` and `make install` set up what building and running need,
# no test material (issue 35); SETUP=test asks for it; the test-* targets
# and the sanitizer and aarch64 builds take it as `make test` does.
for target in build "install PREFIX=$PWD/never"; do
    # shellcheck disable=SC2086 # the target and its variable
    expect_exit 0 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n -C "$SRC" $target
    expect_in out "sh scripts/setup.sh run"
    expect_in out 'bundles BUNDLED="1.30.0"'
    expect_not_in out "setup.sh test"
done
expect_exit 0 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n -C "$SRC" build SETUP=test
expect_in out "sh scripts/setup.sh test"
expect_in out 'bundles BUNDLED="1.30.0 1.17.3"'
for target in test-plain test-rust test-arm64 test-asan test-tsan build-asan; do
    expect_exit 0 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n -C "$SRC" $target
    expect_in out "sh scripts/setup.sh test"
    expect_not_in out "setup.sh run"
done

# --- the run part: the three things, nothing else -----------------------------
expect_exit 0 env ORTKIT_DEPS="$PWD/deps" ORTKIT_CACHE="$cache_root" sh "$SRC/scripts/setup.sh" run --no-apt
expect_not_in err "fetching"
expect_in err "setup: ready to run: $PWD/deps"
(cd deps && find . -type f -o -type l | sort) >got
# Headers are whatever the .deb holds: the one that matters is named.
grep -v '^./ort-headers/include/' got >got.rest
cat >want <<'EOF'
./models/silero_vad.onnx
./runtime/1.30.0/libonnxruntime.so
./runtime/1.30.0/libonnxruntime.so.1
EOF
expect_same want <got.rest
expect_in got "./ort-headers/include/onnxruntime_c_api.h"

# --- idempotent: a second run fetches and unpacks nothing ---------------------
find deps -exec stat -c '%n %Y %i' {} + | sort >before
expect_exit 0 env ORTKIT_DEPS="$PWD/deps" ORTKIT_CACHE="$cache_root" sh "$SRC/scripts/setup.sh" run --no-apt
expect_lines err 1
expect_in err "setup: ready to run"
find deps -exec stat -c '%n %Y %i' {} + | sort | expect_same before

# --- usage ------------------------------------------------------------------
expect_exit 2 sh "$SRC/scripts/setup.sh" everything
expect_in err "usage: scripts/setup.sh [run|test] [--no-apt]"
