# build_deps.t - `ortkit build --deps DIR` and `--glibc-floor` as a user types
# them: ONNX Runtime 1.21.0's real cmake/deps.txt in a stand-in tree, source
# archives made here with real tar; usage errors, a missing and a mismatched
# dependency refused by name, the plan's lines, the floor held before
# compiling (no compiling).
set -eu

mkdir -p ort/cmake
echo 1.21.0 >ort/VERSION_NUMBER
printf 'cmake_minimum_required(VERSION 3.21)\nproject(onnxruntime C CXX ASM)\n' >ort/cmake/CMakeLists.txt
cp "$SRC/tests/builder/deps-1.21.0.txt" ort/cmake/deps.txt

# NAME-VERSION.tar.gz holding NAME-VERSION/CMakeLists.txt.
archive() {
    mkdir -p "t/$1-$2"
    printf 'project(%s)\n' "$1" >"t/$1-$2/CMakeLists.txt"
    tar -czf "src/$1-$2.tar.gz" -C t "$1-$2"
    rm -rf t
}
mkdir -p src
for d in abseil_cpp:20240722.0 date:3.0.1 eigen:1d8b82b0 flatbuffers:23.5.26 json:3.11.3 \
    microsoft_gsl:4.0.0 mp11:1.82.0 onnx:1.17.0 protobuf:3.21.12 pytorch_cpuinfo:8a1772a0 \
    re2:2024-07-02 safeint:3.0.28; do
    archive "${d%%:*}" "${d#*:}"
done
echo "Debian trixie source package onnx 1.17.0-3" >src/onnx-1.17.0.tar.gz.origin
export XDG_CACHE_HOME="$PWD/cache"

# Usage.
expect_exit 2 "$ORTKIT" build --source ort --variant cpu-avx2 --accept-dep-version eigen --dry-run
expect_in err "--accept-dep-version goes with --deps DIR"
expect_exit 2 "$ORTKIT" build --source ort --variant cpu-avx2 --deps src --fetch --dry-run
expect_in err "does not go with --fetch"
expect_exit 2 "$ORTKIT" build --source ort --variant cpu-avx2 --glibc-floor two --dry-run
expect_in err "--glibc-floor wants a glibc version such as 2.31"
expect_exit 2 "$ORTKIT" build --cmake-project ort --deps src --dry-run

# One missing (utf8_range), named with where it would go.
expect_exit 1 "$ORTKIT" build --source ort --variant cpu-avx2 --deps src --dry-run
expect_in err "ortkit: dependency utf8_range (deps.txt: commit 72c943dea2b9240cd09efde15191e144bc7c7d38) is not in $PWD/src"
expect_in err "github.com/protocolbuffers/utf8_range/archive/72c943dea2b9240cd09efde15191e144bc7c7d38.zip"
archive utf8_range 72c943de

# Another version than deps.txt pins: refused by name, then taken when accepted.
rm src/date-3.0.1.tar.gz
archive date 3.0.3
expect_exit 1 "$ORTKIT" build --source ort --variant cpu-avx2 --deps src --dry-run
expect_in err "dependency date: $PWD/src/date-3.0.3.tar.gz is version 3.0.3, deps.txt pins 3.0.1"
expect_in err "--accept-dep-version date"
expect_exit 0 "$ORTKIT" build --source ort --variant cpu-avx2 --build-dir /b/avx2 --deps src \
    --accept-dep-version date --glibc-floor 2.31 --dry-run
expect_in out "  dependencies  compiled in, from $PWD/src (cmake/deps.txt: 13 used by this build, 28 not); none from the system"
expect_in out "  dependency    protobuf 3.21.12, the pinned version (deps.txt: 21.12) from protobuf-3.21.12.tar.gz, sha256 "
expect_in out "  dependency    date 3.0.3, ANOTHER VERSION (--accept-dep-version) (deps.txt: 3.0.1) from date-3.0.3.tar.gz"
expect_in out "    origin      Debian trixie source package onnx 1.17.0-3"
expect_in out "  glibc floor   at most 2.31 (--glibc-floor); this environment's C library is glibc "
expect_in out "-DFETCHCONTENT_TRY_FIND_PACKAGE_MODE=NEVER"
expect_in out "-DFETCHCONTENT_SOURCE_DIR_PROTOBUF=$PWD/cache/ortkit/dep-sources/protobuf-3.21.12-"
expect_in out "-DCMAKE_PROJECT_INCLUDE=/b/avx2/.ortkit/cpu-flags.cmake"
# A plan extracts nothing.
[ -z "$(ls cache/ortkit/dep-sources 2>/dev/null)" ] || { echo "FAIL: the plan extracted sources" >&2; exit 1; }

# JSON: the same lines in the summary.
expect_exit 0 "$ORTKIT" build --source ort --variant cpu-x86-64 --deps src --accept-dep-version date \
    --dry-run --json
/usr/bin/python3 - out <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
lines = [(l["label"], l["value"]) for l in p["summary"]]
summary = dict(lines)
assert summary["dependencies"].startswith("compiled in, from "), p["summary"]
# A label that repeats (one "dependency" a dependency) keeps every line.
assert sum(1 for label, _ in lines if label == "dependency") == 13, lines
assert "-DFETCHCONTENT_TRY_FIND_PACKAGE_MODE=NEVER" in p["configure"]
assert "-march=x86-64 -mtune=generic" in p["cpu_flags_file"]["text"], p["cpu_flags_file"]
PY

# The floor is held before anything compiles: no glibc is as old as 2.1.
expect_exit 1 "$ORTKIT" build --source ort --variant cpu-avx2 --build-dir b --deps src \
    --accept-dep-version date --glibc-floor 2.1 --check --min-disk 1M
expect_in err "newer than --glibc-floor 2.1"
expect_in err "scripts/build_root.sh"
