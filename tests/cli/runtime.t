# ortkit version: which ONNX Runtime is found, how, and at what API level;
# and the runtimes it must refuse, each with a message naming what is wrong.

# --- the default: the runtime that set-up fetched, found without any variable:
# the bundle `make build` imported into deps/bundles, else where set-up put it ---
default_bundle="$RT_NEW/../../bundles/ort-1.30.0-cpu"
expect_exit 0 "$ORTKIT" version
expect_lines err 0
expect_in out "ortkit     0.1.0"
expect_in out "runtime    ONNX Runtime 1.30.0"
if [ -e "$default_bundle/manifest.json" ]; then
    expect_in out "found by   bundle ort-1.30.0-cpu"
else
    expect_in out "path       $RT_NEW/libonnxruntime.so"
    expect_in out "found by   default"
fi
expect_in out "API level  "
expect_in out "(ortkit supports 17 and newer)"
expect_in out "CPUExecutionProvider"
# --version is the same command.
expect_exit 0 "$ORTKIT" --version
expect_in out "runtime    ONNX Runtime 1.30.0"

# --- --runtime: the oldest supported release, at its own API level ---
expect_exit 0 "$ORTKIT" version --runtime "$RT_OLD"
expect_in out "runtime    ONNX Runtime 1.17.3"
expect_in out "path       $RT_OLD/libonnxruntime.so"
expect_in out "found by   options"
expect_in out "API level  17 "
# A library file works as well as its directory.
expect_exit 0 "$ORTKIT" version --runtime "$RT_OLD/libonnxruntime.so.1.17.3"
expect_in out "runtime    ONNX Runtime 1.17.3"

# --- ORTKIT_RUNTIME, a directory or a file ---
expect_exit 0 env ORTKIT_RUNTIME="$RT_OLD" "$ORTKIT" version
expect_in out "runtime    ONNX Runtime 1.17.3"
expect_in out "found by   ORTKIT_RUNTIME"
expect_in out "API level  17 "
expect_exit 0 env ORTKIT_RUNTIME="$RT_NEW/libonnxruntime.so.1" "$ORTKIT" version
expect_in out "runtime    ONNX Runtime 1.30.0"
expect_in out "found by   ORTKIT_RUNTIME"
# An explicit --runtime wins over the variable.
expect_exit 0 env ORTKIT_RUNTIME="$RT_OLD" "$ORTKIT" version --runtime "$RT_NEW"
expect_in out "runtime    ONNX Runtime 1.30.0"
expect_in out "found by   options"
# The runtime found by ORTKIT_RUNTIME is the one that runs the model.
expect_exit 0 env ORTKIT_RUNTIME="$RT_OLD" "$ORTKIT" run "$MODELS/add.onnx" -i a="$MODELS/add_a.npy" -i b="$MODELS/add_b.npy"
expect_in out "runtime   ONNX Runtime 1.17.3"

# --- --json ---
expect_exit 0 "$ORTKIT" version --json
/usr/bin/python3 - "$RT_NEW" "$default_bundle" <<'EOF'
import json, os, sys
doc = json.load(open("out"))
assert doc["ortkit"] == "0.1.0", doc
r = doc["runtime"]
assert r["version"] == "1.30.0", r
if os.path.exists(sys.argv[2] + "/manifest.json"):
    assert r["source"] == "bundle ort-1.30.0-cpu", r
else:
    assert r["path"].startswith(sys.argv[1] + "/libonnxruntime.so"), r
    assert r["source"] == "default", r
assert isinstance(r["api_level"], int) and r["api_level"] >= 17, r
assert "CPUExecutionProvider" in r["providers"], r
EOF
expect_exit 0 env ORTKIT_RUNTIME="$RT_OLD" "$ORTKIT" version --json
/usr/bin/python3 -c 'import json
r = json.load(open("out"))["runtime"]
assert (r["version"], r["api_level"], r["source"]) == ("1.17.3", 17, "ORTKIT_RUNTIME"), r'

# --- runtimes that must be refused ---
# refused 'TEXT|TEXT...' ARGS...: `ortkit version ARGS` and `ortkit run ARGS`
# exit 1 with one line on stderr holding every TEXT; run prints nothing.
refused() {
    texts=$1; shift
    for cmd in version run; do
        if [ "$cmd" = version ]; then
            expect_exit 1 "$ORTKIT" version "$@"
        else
            expect_exit 1 "$ORTKIT" run "$MODELS/add.onnx" --random --dim N=1 "$@"
            expect_lines out 0
        fi
        expect_lines err 1
        expect_in err "ortkit: "
        saved_ifs=$IFS; IFS='|'
        for t in $texts; do IFS=$saved_ifs; expect_in err "$t"; done
        IFS=$saved_ifs
    done
}

# A path that does not exist.
refused "'$PWD/nosuch/libonnxruntime.so'|No such file" --runtime "$PWD/nosuch/libonnxruntime.so"
refused "'nosuch-dir'" --runtime nosuch-dir
# A text file is not a library.
echo "not a library" >libonnxruntime.so
refused "'$PWD/libonnxruntime.so'" --runtime "$PWD/libonnxruntime.so"
# A directory without the library.
mkdir empty-dir
refused "'empty-dir'|libonnxruntime" --runtime empty-dir
# A library without OrtGetApiBase.
refused "$STUBS/libstub_no_symbol.so|OrtGetApiBase" --runtime "$STUBS/libstub_no_symbol.so"
# A runtime older than ortkit supports: both versions are named.
refused "$STUBS/libstub_too_old.so|1.16.3|1.17" --runtime "$STUBS/libstub_too_old.so"

# The same failures through ORTKIT_RUNTIME say where the path came from.
expect_exit 1 env ORTKIT_RUNTIME="$PWD/nosuch" "$ORTKIT" version
expect_in err "'$PWD/nosuch'"
expect_in err "ORTKIT_RUNTIME"
expect_exit 1 env ORTKIT_RUNTIME="$STUBS/libstub_too_old.so" "$ORTKIT" run "$MODELS/add.onnx" --random --dim N=1
expect_lines out 0
expect_in err "1.16.3"
expect_in err "1.17"

# --json reports the failure as JSON too.
expect_exit 1 "$ORTKIT" version --json --runtime "$STUBS/libstub_no_symbol.so"
/usr/bin/python3 -c 'import json
doc = json.load(open("out"))
assert doc["runtime"] is None and "OrtGetApiBase" in doc["error"], doc'

# Usage.
expect_exit 2 "$ORTKIT" version extra
expect_in err "'extra'"
expect_exit 2 "$ORTKIT" version --nosuch
expect_exit 2 "$ORTKIT" version --runtime
