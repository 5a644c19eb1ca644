# fifo.t - a FIFO (or another file that is not a regular one) wherever ortkit
# reads a file is refused at once, with a message naming the path and what it
# is; nothing waits for a writer.  Each command runs under a timeout: a hang
# fails the test instead of stalling it.
set -eu
export XDG_DATA_HOME="$PWD/xdg" XDG_DATA_DIRS="$PWD/sys" ORTKIT_PATH="$PWD/path"
unset ORTKIT_BUNDLE
mkfifo fifo
FIFO="it is a FIFO (named pipe), not a regular file"

# refused CODE TEXT CMD...: CMD exits CODE within 10 s (well under: the
# elapsed time is checked too), and its one-line message holds TEXT.
refused() {
    code=$1 text=$2
    shift 2
    start=$(date +%s)
    expect_exit "$code" timeout 10 "$@"
    if [ $(($(date +%s) - start)) -gt 2 ]; then
        echo "FAIL: '$*' took more than 2 s" >&2
        exit 1
    fi
    [ -z "$text" ] || expect_in err "$text"
}

# Models, inputs, host files, runtimes.
refused 1 "cannot read 'fifo': $FIFO" "$ORTKIT" info fifo
refused 1 "cannot open model 'fifo': $FIFO" "$ORTKIT" run fifo --random
refused 1 "cannot open model 'fifo': $FIFO" "$ORTKIT" bench fifo -n 1
refused 1 "input 'a': cannot read 'fifo': $FIFO" \
    "$ORTKIT" run "$MODELS/add.onnx" -i a=fifo --random --dim N=1
refused 1 "cannot read 'fifo': $FIFO" "$ORTKIT" host --load fifo
refused 1 "cannot read 'fifo': $FIFO" "$ORTKIT" variants --host fifo
refused 1 "cannot read 'fifo': $FIFO" "$ORTKIT" doctor --host fifo
refused 1 "runtime '$PWD/fifo' (from ORTKIT_RUNTIME): cannot read '$PWD/fifo': $FIFO" \
    env ORTKIT_RUNTIME="$PWD/fifo" "$ORTKIT" version
refused 1 "$FIFO" "$ORTKIT" run "$MODELS/add.onnx" --random --dim N=1 --runtime "$PWD/fifo"
# A runtime directory whose library is a FIFO.
mkdir rtdir && mkfifo rtdir/libonnxruntime.so
refused 1 "$FIFO" env ORTKIT_RUNTIME="$PWD/rtdir" "$ORTKIT" version
# Devices and directories are refused the same way.
refused 1 "cannot read '/dev/zero': it is a device, not a regular file" "$ORTKIT" host --load /dev/zero
refused 1 "cannot open model '/dev/zero': it is a device, not a regular file" "$ORTKIT" run /dev/zero --random
mkdir dir.onnx
refused 1 "it is a directory, not a regular file" "$ORTKIT" info dir.onnx

# validate: a test whose model is a FIFO is found, listed and fails by itself;
# the known-failures and tolerances files are checked too.
mkdir -p suite/test_fifo/test_data_set_0 suite/test_ok
mkfifo suite/test_fifo/model.onnx
cp "$MODELS/add.onnx" suite/test_ok/model.onnx
refused 0 "" "$ORTKIT" validate suite --list --timeout 5
expect_in out "suite/test_fifo	-	opset -"
expect_in out "suite/test_ok	Add	opset 17"
refused 1 "" "$ORTKIT" validate suite --filter 'test_fifo' --no-progress
expect_in out "suite/test_fifo: model: cannot open model 'suite/test_fifo/model.onnx': $FIFO"
refused 1 "cannot open known-failures file 'fifo': $FIFO" \
    "$ORTKIT" validate suite --known-failures fifo --no-progress
refused 1 "cannot open tolerances file 'fifo': $FIFO" \
    "$ORTKIT" validate suite --tolerances fifo --no-progress

# Bundles: a FIFO for a manifest makes that bundle unusable, not the listing stuck.
mkdir -p path/stuck && mkfifo path/stuck/manifest.json
refused 0 "" "$ORTKIT" bundle list
expect_in out "stuck/manifest.json' is not a regular file"
refused 1 "not a regular file" "$ORTKIT" bundle verify "$PWD/path/stuck"
refused 1 "$FIFO" "$ORTKIT" bundle import fifo --into "$PWD/path"
rm -rf path/stuck

# The builder: a model for --ops-from.
mkdir -p ort/cmake
echo 1.21.0 >ort/VERSION_NUMBER
printf 'cmake_minimum_required(VERSION 3.21)\nproject(onnxruntime C CXX ASM)\n' >ort/cmake/CMakeLists.txt
refused 1 "$FIFO" "$ORTKIT" build --source ort --variant cpu-avx2 --build-dir b --ops-from fifo --dry-run
