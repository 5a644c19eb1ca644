# build_bundle.t - the whole ONNX Runtime path of `ortkit build` on a
# stand-in source tree: its CMake project compiles through the gate and
# installs Microsoft's real prebuilt runtime and headers, so pre-flight,
# patches, configure, build, install, the bundle import and the report all run
# for a variant (the real 23-minute compile is `make build-ort`).
set -eu
mkdir -p ort/cmake ort/src patches
echo 1.30.0 >ort/VERSION_NUMBER
cat >ort/cmake/CMakeLists.txt <<'CM'
cmake_minimum_required(VERSION 3.21)
project(onnxruntime C CXX)
add_library(ortkit_standin STATIC ../src/standin.cc)
install(FILES "${RT_DIR}/libonnxruntime.so.1" DESTINATION lib)
install(DIRECTORY "${HDR_DIR}/" DESTINATION include/onnxruntime)
CM
printf 'int standin() { return 1; }\n' >ort/src/standin.cc
# One patch, applied once: a rerun must not apply it again.
cat >patches/0001-note.patch <<'P'
--- a/src/standin.cc
+++ b/src/standin.cc
@@ -1 +1,2 @@
 int standin() { return 1; }
+int patched() { return 2; }
P

run_build() {
    "$ORTKIT" build --source ort --variant cpu-avx2 --build-dir b --min-disk 1M --patch patches \
        -D "RT_DIR=$RT_NEW" -D "HDR_DIR=$SRC/deps/ort-headers/include" --bundle-into "$PWD/bundles" "$@"
}
expect_exit 0 run_build --no-progress
expect_in out "built cpu-avx2 in $PWD/b"
expect_in out "bundle: $PWD/bundles/"
grep -q 'int patched' ort/src/standin.cc
[ "$(grep -c patched ort/src/standin.cc)" = 1 ]
expect_in b/.ortkit/patches-applied "0001-note.patch"

bundle=$(sed -n 's/^bundle: //p' out)
expect_exit 0 "$ORTKIT" bundle verify "$bundle"
/usr/bin/python3 - "$bundle/manifest.json" b/ortkit-report.json <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
assert m["variant"] == "cpu-avx2", m["variant"]
assert m["onnxruntime"]["version"] == "1.30.0"
r = json.load(open(sys.argv[2]))
assert r["variant"] == "cpu-avx2" and r["cpu_flags"] == "-mavx2 -mfma"
assert r["toolchain"]["cmake"] and r["toolchain"]["cxx"]
assert "-Donnxruntime_BUILD_SHARED_LIB=ON" in r["configure"]
assert r["bundle"].endswith(m["name"])
PY

# Again: patches are not re-applied, configure is not redone, the bundle is replaced.
expect_exit 0 run_build --json
[ "$(grep -c patched ort/src/standin.cc)" = 1 ]
expect_in b/ortkit-build.log "configuration unchanged; not configuring again"
