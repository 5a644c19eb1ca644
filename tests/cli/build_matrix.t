# build_matrix.t - `ortkit build --matrix VARIANT,...`: the jobs of a CI
# matrix, ordered so that shared work is built first, for a stand-in ONNX
# Runtime tree (nothing is built).  The text and the JSON are compared byte
# for byte with tests/builder/plans/matrix.{txt,json}; the JSON's shape is
# checked key by key (what a CI system's matrix reads); refusals by name.
set -eu
GOLDEN="$SRC/tests/builder/plans"
mkdir -p ort/cmake
echo 1.21.0 >ort/VERSION_NUMBER
printf 'cmake_minimum_required(VERSION 3.21)\nproject(onnxruntime C CXX ASM)\n' >ort/cmake/CMakeLists.txt
set -- --source ort --cache ccache --cache-remote redis://cache.ci.example:6379/1 --cache-basedir /build \
    --build-dir /build --bundle-into /bundles --jobs 4 -D CMAKE_POLICY_VERSION_MINIMUM=3.5
# Given in no particular order, Flox names too.
M=cuda12.9-sm90-avx512,onnxruntime-python313-cpu-avx2,cuda13.0-sm90-avx2,cpu-x86-64,cuda12.9-sm89-avx2,cuda12.9-sm90-avx2,cpu-armv9

expect_exit 0 env -u CUDA_HOME -u CUDNN_HOME "$ORTKIT" build --matrix "$M" "$@"
expect_same "$GOLDEN/matrix.txt" <out
expect_exit 0 env -u CUDA_HOME -u CUDNN_HOME "$ORTKIT" build --matrix "$M" "$@" --dry-run --json
expect_same "$GOLDEN/matrix.json" <out

# The shape a CI matrix reads: these keys exactly, each job once in
# "include" (in order) and once in its wave's "include".
/usr/bin/python3 - out <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
assert list(m) == ["rule", "source", "jobs", "wave_sizes", "include", "waves"], list(m)
assert isinstance(m["rule"], str) and m["source"] == "ort"
jobs, waves = m["include"], m["waves"]
assert m["jobs"] == len(jobs) == 7 and sum(m["wave_sizes"]) == 7 and len(waves) == 3
keys = ["variant", "wave", "arch", "group", "seeds", "takes", "build_dir", "args", "command", "cache",
        "bundle_into"]
for j in jobs:
    assert list(j) == keys, list(j)
    assert isinstance(j["wave"], int) and 1 <= j["wave"] <= 3
    assert all(isinstance(x, str) for x in j["seeds"] + j["takes"] + j["args"])
    assert j["args"][:7] == ["build", "--source", "ort", "--variant", j["variant"], "--build-dir",
                             "/build/" + j["variant"]], j["args"]
    assert j["command"] == "ortkit " + " ".join(j["args"]), j["command"]
    assert list(j["cache"]) == ["tool", "remote", "remote_only", "basedir"], j["cache"]
    assert j["cache"]["remote"] == "redis://cache.ci.example:6379/1" and j["bundle_into"] == "/bundles"
for w, wave in enumerate(waves, 1):
    assert list(wave) == ["include"], list(wave)
    assert len(wave["include"]) == m["wave_sizes"][w - 1]
    assert all(j["wave"] == w for j in wave["include"]), w
assert [j for w in waves for j in w["include"]] == jobs
assert [j["wave"] for j in jobs] == sorted(j["wave"] for j in jobs)
# The rule at work: one seed per platform, one per other CUDA/SM group.
order = [(j["wave"], j["variant"]) for j in jobs]
assert order == [(1, "cpu-x86-64"), (1, "cpu-armv9"), (2, "cuda12.9-sm89-avx2"), (2, "cuda12.9-sm90-avx2"),
                 (2, "cuda13.0-sm90-avx2"), (3, "cpu-avx2"), (3, "cuda12.9-sm90-avx512")], order
assert jobs[-1]["takes"] == ["the x86_64 dependencies", "CUDA 12.9 sm_90a device code"], jobs[-1]
assert jobs[1]["arch"] == "aarch64" and jobs[1]["seeds"] == ["the aarch64 dependencies"]
PY

# Without a CPU-only variant, a platform's first CUDA variant seeds it; no
# cache: "cache" is null.
expect_exit 0 "$ORTKIT" build --matrix cuda12.9-sm90-avx512,cuda12.9-sm90-avx2 --source ort --json
/usr/bin/python3 - out <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
assert m["wave_sizes"] == [1, 0, 1], m["wave_sizes"]
first = m["include"][0]
assert first["variant"] == "cuda12.9-sm90-avx2" and first["build_dir"] == "build-cuda12.9-sm90-avx2"
assert first["seeds"] == ["the x86_64 dependencies", "CUDA 12.9 sm_90a device code"], first
assert first["cache"] is None and first["bundle_into"] is None
assert m["waves"][1] == {"include": []}
PY

# Refusals: each names what is wrong, and nothing is written.
expect_exit 2 "$ORTKIT" build --matrix cpu-avx2
expect_in err "--matrix needs --source DIR"
expect_exit 2 "$ORTKIT" build --matrix cpu-avx2 --source ort --variant cpu-avx2
expect_in err "--matrix plans the variants it names: it takes --source, not --variant"
expect_exit 2 "$ORTKIT" build --matrix , --source ort
expect_in err "--matrix wants variants"
expect_exit 2 "$ORTKIT" build --matrix cpu-avx2 --source ort --cache ccache --cache-remote redis://pw@cache:6379
expect_in err "--matrix writes the cache's URL into every job, where CI logs show it"
expect_not_in err "pw@"
expect_exit 1 "$ORTKIT" build --matrix cpu-avx2,cpu-avx3 --source ort
expect_in err "cpu-avx3"
expect_exit 1 "$ORTKIT" build --matrix cpu-avx2,onnxruntime-python313-cpu-avx2 --source ort
expect_in err "ortkit: --matrix names cpu-avx2 twice"
expect_exit 1 "$ORTKIT" build --matrix cpu-avx2,cuda12.4-sm120-avx2 --source ort
expect_in err "variant cuda12.4-sm120-avx2 cannot be built"
[ ! -s out ] || { echo "FAIL: a refused matrix wrote jobs" >&2; cat out >&2; exit 1; }
expect_exit 1 "$ORTKIT" build --matrix cpu-avx2 --source ort --deps nowhere
expect_in err "ortkit: --matrix: cpu-avx2: "
