# gpu_bundle.t - real NVIDIA builds as bundles: ONNX Runtime 1.19.2 for CUDA
# 12 and 1.29.0 for CUDA 13 imported with their providers (made once per
# build tree by tests/gpu_fixture.sh, the gpu.fixture test), the GPU
# targets read from their fat binaries, a provider of another release
# refused, completion from Debian's CUDA 12.4 libraries (incomplete: no
# cuDNN for CUDA 12 is to be had), and what `bundle complete` refuses.
set -eu
G="$(dirname "$ORTKIT")/gpu-fixture"
U="${ORTKIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ortkit}/downloads/unpacked"
if [ ! -f "$G/stamp" ]; then
    echo "skipped: no GPU fixture (scripts/fetch_cuda.sh fetches the material)"
    exit 77
fi
B="$G/bundles"
X64=package/Plugins/Linux/x64
CUDA124="$U/cuda-12.4/usr/lib/x86_64-linux-gnu"

# What import writes is what tests/bundles/gpu holds (the unit tests judge
# those): the gpu key, without hashes, origins and what was passed over here.
for b in ort-1.19.2-cuda12 ort-1.29.0-cuda13; do
    /usr/bin/python3 - "$B/$b/manifest.json" "$SRC/tests/bundles/gpu/$b.json" <<'PY'
import json, sys
def gpu(path):
    g = json.load(open(path))["gpu"]
    g["missing"] = [m.split(";")[0] for m in g["missing"]]
    for lib in g["libraries"]:
        del lib["sha256"]
        lib.pop("origin", None)  # this machine's path
    return g
a, b = gpu(sys.argv[1]), gpu(sys.argv[2])
if a != b:
    sys.exit("gpu key differs:\n%s\n%s" % (a, b))
PY
done

# What this ortkit's import writes, parts and all (tests/bundles/gpu/current;
# the files above are of the version before parts, kept to show they read).
for b in ort-1.19.2-cuda12 ort-1.29.0-cuda13; do
    /usr/bin/python3 - "$B/$b/manifest.json" "$SRC/tests/bundles/gpu/current/$b.json" <<'PY'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
if a["parts"] != b["parts"]:
    sys.exit("parts differ:\n%s\n%s" % (a["parts"], b["parts"]))
assert [p["name"] for p in a["parts"]] == ["core", "CUDAExecutionProvider", "TensorrtExecutionProvider"], a["parts"]
PY
done

# --- a GPU release as it comes: Microsoft's layout, the CUDA-built core and the
# CUDA, shared and TensorRT providers together in lib/.  Both forms of import
# take it, without a variant or with cudaN, and write the same manifest.
mkdir -p rel/lib
for f in "$U/core-node-1.29.0/package/bin/napi-v6/linux/x64/libonnxruntime.so.1" "$U/gpu-1.29.0/$X64/"*.so; do
    ln "$f" rel/lib/ 2>/dev/null || cp "$f" rel/lib/
done
mkdir forms
expect_exit 0 "$ORTKIT" bundle import "$PWD/rel" --into "$PWD/forms" --name dir
expect_in out "runtime    ONNX Runtime 1.29.0 (C API 29), variant cuda13, x86_64"
expect_in out "complete   no: 6 of 6 CUDA libraries missing"
expect_exit 0 "$ORTKIT" bundle import "$PWD/rel" --variant cuda13 --into "$PWD/forms" --name dir13
expect_exit 0 "$ORTKIT" bundle import "$PWD/rel/lib/libonnxruntime.so.1" --providers "$PWD/rel/lib" \
    --into "$PWD/forms" --name providers
/usr/bin/python3 - forms <<'PY'
import json, sys
def m(n):
    d = json.load(open("%s/%s/manifest.json" % (sys.argv[1], n)))
    d.pop("name")
    # The .pc and CMake files name the bundle: the rest is the same, byte for byte.
    d["files"] = [f for f in d["files"] if not f["path"].startswith(("lib/pkgconfig", "lib/cmake"))]
    return d
a, b, c = m("dir"), m("dir13"), m("providers")
assert a == b == c, [k for k in a if a[k] != c.get(k)]
assert a["variant"] == "cuda13" and a["gpu"]["sass"][-1] == "sm_120a", a["variant"]
PY
expect_exit 1 "$ORTKIT" bundle import "$PWD/rel" --variant cuda12 --into "$PWD/forms"
expect_in err "ortkit: cannot import '$PWD/rel' as cuda12: its CUDA provider is built for CUDA 13"
expect_exit 1 "$ORTKIT" bundle import "$PWD/rel" --variant cuda13.0-sm100-avx2 --into "$PWD/forms"
expect_in err "its providers carry no sm_100a code"

# --- bundle show: what it is, and what each part needs ------------------------
expect_exit 0 "$ORTKIT" bundle show "$PWD/forms/dir"
expect_in out "bundle     dir"
expect_in out "cuda       13.0 (cuDNN 9), driver >= 580.65.06"
expect_in out "sass       sm_75 sm_80 sm_86 sm_89 sm_90a sm_120a"
expect_in out "needs      glibc 2.28, GLIBCXX 3.4.22, CXXABI 1.3.11"
expect_in out "parts      what each needs that the bundle does not carry"
expect_in out "  core                       ld-linux-x86-64.so.2 libc.so.6"
expect_in out "  CUDAExecutionProvider      ld-linux-x86-64.so.2 libc.so.6 libcublas.so.13"
expect_in out "  TensorrtExecutionProvider  ld-linux-x86-64.so.2 libc.so.6 libcublas.so.13"
expect_in out "libnvinfer.so.10"
expect_exit 0 "$ORTKIT" bundle show "$PWD/forms/dir" --json
/usr/bin/python3 - out <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
parts = {p["name"]: p for p in d["parts"]}
assert "libnvinfer.so.10" in parts["TensorrtExecutionProvider"]["libraries"]
assert "libnvinfer.so.10" not in parts["core"]["libraries"] + parts["CUDAExecutionProvider"]["libraries"]
assert "libcuda.so.1" in parts["CUDAExecutionProvider"]["libraries"] and "libcuda.so.1" not in parts["core"]["libraries"]
assert d["gpu"]["cuda"] == "13.0" and d["damage"] == "", d
PY
# Selection on a machine without a GPU: the core serves the CPU.
expect_exit 0 "$ORTKIT" bundle choose --host "$SRC/tests/hosts/sapphire-rapids.json" "$PWD/forms/dir"
expect_in out "for its CPU only: CUDAExecutionProvider unavailable (this host has no NVIDIA GPU)"
# doctor shows each part against the host: here a machine without a GPU,
# CUDA or TensorRT, which lists its libraries.
cat >nogpu.json <<'EOF'
{"schema": 1, "arch": "x86_64", "cpu": {"features": ["sse3", "avx", "avx2", "fma"]},
 "os": {"name": "Linux", "glibc": "2.36", "glibcxx": "3.4.30",
        "libraries": ["ld-linux-x86-64.so.2", "libc.so.6", "libdl.so.2", "libgcc_s.so.1", "libm.so.6",
                      "libpthread.so.0", "librt.so.1", "libstdc++.so.6"]}}
EOF
expect_exit 0 env ORTKIT_PATH="$PWD/forms" ORTKIT_BUNDLE=dir "$ORTKIT" doctor --host nogpu.json
expect_in out "  caveat     for its CPU only: CUDAExecutionProvider unavailable (this host has no NVIDIA GPU); TensorrtExecutionProvider unavailable: needs libcublas.so.13, libcudart.so.13, libcudnn.so.9, libnvinfer.so.10 and 1 more"
expect_in out "    PART                       ON THIS HOST  LACKS"
expect_in out "    core                       ok"
expect_in out "    CUDAExecutionProvider      unavailable   libcublas.so.13, libcublasLt.so.13, libcuda.so.1, libcudart.so.13, libcurand.so.10"
expect_in out "    TensorrtExecutionProvider  unavailable   libcublas.so.13, libcudart.so.13, libcudnn.so.9, libnvinfer.so.10, libnvonnxparser.so.10"
expect_exit 0 env ORTKIT_PATH="$PWD/forms" ORTKIT_BUNDLE=dir "$ORTKIT" doctor --host nogpu.json --json
/usr/bin/python3 - out <<'PY'
import json, sys
parts = {p["name"]: p for p in json.load(open(sys.argv[1]))["choice"]["parts"]}
assert parts["core"]["on_this_host"] == "ok", parts
assert "libnvinfer.so.10" in parts["TensorrtExecutionProvider"]["lacks"], parts
PY
expect_exit 2 "$ORTKIT" bundle show
expect_in err "show needs BUNDLE"
expect_exit 1 "$ORTKIT" bundle show "$PWD/nowhere"
rm -rf rel forms

# A provider of another release is refused by name, and nothing is left.
mkdir into
expect_exit 1 "$ORTKIT" bundle import "$U/core-1.19.2/package/bin/napi-v3/linux/x64" \
    --providers "$U/gpu-1.29.0/$X64" --into "$PWD/into"
expect_in err "'libonnxruntime_providers_cuda.so' is ONNX Runtime 1.29.0, the core is 1.19.2; take the providers of the core's release"
[ -z "$(ls -A into)" ]
expect_exit 1 "$ORTKIT" bundle import "$U/core-1.29.0/$X64" --providers "$U/core-1.19.2/package/bin/napi-v3/linux/x64" \
    --into "$PWD/into"
expect_in err "hold no libonnxruntime_providers_cuda.so: not a CUDA release's providers"
expect_exit 1 "$ORTKIT" bundle import "$U/core-1.29.0/$X64" --providers "$U/gpu-1.29.0/$X64" \
    --variant cpu-avx2 --into "$PWD/into"
expect_in err "--providers is for a CUDA build, and variant cpu-avx2 is for the CPU only"
# The CPU build's core beside the GPU release's bridge provider: on a GPU
# this crashes on If, Loop, Einsum and other shared kernels (seen on an
# H100), so import refuses it, read from the two files' symbols.
expect_exit 1 "$ORTKIT" bundle import "$U/core-1.29.0/$X64/libonnxruntime.so" --providers "$U/gpu-1.29.0/$X64" \
    --into "$PWD/into"
expect_in err "this core was built without CUDA (it does not export OrtSessionOptionsAppendExecutionProvider_CUDA)"
expect_in err "is a provider-bridge library that needs one built with CUDA"
expect_in err "take the libonnxruntime.so of the same GPU release"
[ -z "$(ls -A into)" ]
# A GPU release unpacked in one directory: --providers may name the core's own.
mkdir one
for f in "$U/core-node-1.29.0/package/bin/napi-v6/linux/x64/libonnxruntime.so.1" \
         "$U/gpu-1.29.0/$X64/libonnxruntime_providers_cuda.so" "$U/gpu-1.29.0/$X64/libonnxruntime_providers_shared.so"; do
    ln "$f" one/ 2>/dev/null || cp "$f" one/
done
expect_exit 0 "$ORTKIT" bundle import "$PWD/one/libonnxruntime.so.1" --providers "$PWD/one" --name one --into "$PWD/into"
expect_in out "runtime    ONNX Runtime 1.29.0 (C API 29), variant cuda13, x86_64"
expect_in out "sass       sm_75 sm_80 sm_86 sm_89 sm_90a sm_120a"
# A variant named with --providers (how `ortkit build` bundles a CUDA build)
# names the bundle and its CPU needs; the binaries must bear out its CUDA
# major and its GPU code.
expect_exit 1 "$ORTKIT" bundle import "$PWD/one/libonnxruntime.so.1" --providers "$PWD/one" \
    --variant cuda12.9-sm90-avx2 --into "$PWD/into"
expect_in err "as cuda12.9-sm90-avx2: its CUDA provider is built for CUDA 13, the variant is CUDA 12"
expect_exit 1 "$ORTKIT" bundle import "$PWD/one/libonnxruntime.so.1" --providers "$PWD/one" \
    --variant cuda13.0-sm100-avx2 --into "$PWD/into"
expect_in err "as cuda13.0-sm100-avx2: its providers carry no sm_100a code (SASS: sm_75 sm_80 sm_86 sm_89 sm_90a sm_120a)"
[ "$(ls -A into)" = one ]
expect_exit 0 "$ORTKIT" bundle import "$PWD/one/libonnxruntime.so.1" --providers "$PWD/one" \
    --variant cuda13.0-sm90-avx512 --into "$PWD/into" --json
/usr/bin/python3 - "$PWD/into/ort-1.29.0-cuda13.0-sm90-avx512/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
assert m["variant"] == "cuda13.0-sm90-avx512", m["variant"]
assert "avx512f" in m["requires"]["cpu_features"], m["requires"]
assert m["gpu"]["sass"] == ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90a", "sm_120a"], m["gpu"]
assert m["gpu"]["complete"] is False and "libcudart.so.13" in m["gpu"]["needs"], m["gpu"]
PY
rm -rf one into/one into/ort-1.29.0-cuda13.0-sm90-avx512

# Completion, on a copy (hard links: complete never writes into a file it
# did not make).  Debian's CUDA 12.4 gives all but cuDNN.
cp -al "$B/ort-1.19.2-cuda12" c
chmod -R go-w c
expect_exit 1 "$ORTKIT" bundle complete "$PWD/c" --from "$CUDA124"
expect_in out "cuda       12.2 (cuDNN 9), driver >= 525.60.13 (PTX JIT: >= 535.54.03)"
expect_in out "sass       sm_60 sm_61 sm_70 sm_75 sm_80"
expect_in out "carries    5 CUDA libraries"
expect_in out "  libcudart.so.12    12.4.127"
expect_in out "  libcublasLt.so.12  12.4.5.8"
expect_in out "complete   no: 1 of 6 CUDA libraries missing"
expect_in out "  libcudnn.so.9: cuDNN 9 for CUDA 12"
expect_in err "ortkit: bundle 'c' is incomplete: 1 CUDA library is missing (listed above); give the directory holding it with --from"
expect_not_in out "libcuda.so.1"
[ ! -e c/lib/libcuda.so.1 ]
expect_exit 0 "$ORTKIT" bundle verify "$PWD/c"
for f in c/lib/libcudart.so.12 c/lib/libcublas.so.12; do
    readelf -d "$f" | grep -q 'RUNPATH.*\$ORIGIN'
done
ls -a | grep -q '^\.c\.tmp-' && exit 1
# Again, for machines: the same answer, nothing copied twice.
expect_exit 1 "$ORTKIT" bundle complete "$PWD/c" --from "$CUDA124" --json
/usr/bin/python3 - out <<'PY'
import json, sys
g = json.load(open(sys.argv[1]))["gpu"]
assert g["sass"] == ["sm_60", "sm_61", "sm_70", "sm_75", "sm_80"], g["sass"]
assert g["ptx"] == ["compute_60", "compute_61", "compute_70", "compute_75", "compute_80"], g["ptx"]
assert g["cuda"] == "12.2" and g["cudnn"] == 9 and g["ptx_driver"] == "535.54.03", g
assert [l["soname"] for l in g["libraries"]] == ["libcublas.so.12", "libcublasLt.so.12",
        "libcudart.so.12", "libcufft.so.11", "libcurand.so.10"], g["libraries"]
assert not g["complete"] and g["missing"][0].startswith("libcudnn.so.9: cuDNN 9 for CUDA 12"), g
PY

# Each library's origin is in the manifest (issue 36): where it was copied from.
/usr/bin/python3 - c/manifest.json "$(readlink -f "$CUDA124")" <<'PY'
import json, os, sys
libs = json.load(open(sys.argv[1]))["gpu"]["libraries"]
for l in libs:
    assert l["origin"].startswith(sys.argv[2] + "/") and os.path.isfile(l["origin"]), l
PY
# Another user's libraries, or a directory others may write, are never taken:
# passed over, and said.
"$ORTKIT" bundle import "$U/core-1.19.2/package/bin/napi-v3/linux/x64" --name c2 \
    --providers "$U/gpu-1.19.2/$X64" --into "$PWD" >/dev/null
cp -r "$CUDA124" theirs
chown -R 65534 theirs
expect_exit 1 "$ORTKIT" bundle complete "$PWD/c2" --from "$PWD/theirs"
expect_in out "complete   no: 6 of 6 CUDA libraries missing"
expect_in out "libcudart.so.12: the directory $PWD/theirs belongs to uid 65534, who could swap what is in it"
chown -R 0 theirs
chmod 777 theirs
expect_exit 1 "$ORTKIT" bundle complete "$PWD/c2" --from "$PWD/theirs"
expect_in out "theirs is writable by anyone"
rm -rf c2 theirs

# A bundle changed since it was made is refused (its files are checked while
# the new manifest hashes them) and left as it was.  The file is replaced,
# not written through its hard link.
sed 's/ORT_API_VERSION/ORT_API_VERSION_/' c/include/onnxruntime_c_api.h >changed.h
chmod 644 changed.h
mv changed.h c/include/onnxruntime_c_api.h
expect_exit 1 "$ORTKIT" bundle complete "$PWD/c" --from "$CUDA124"
expect_in err "ortkit: bundle 'c': include/onnxruntime_c_api.h differs from its manifest (modified or damaged)"
grep -q 'ORT_API_VERSION_' c/include/onnxruntime_c_api.h
ls -a | grep -q '^\.c\.tmp-' && exit 1

# What complete refuses.
"$ORTKIT" bundle import "$RT_NEW" --name cpu --into "$PWD/cpu" >/dev/null
expect_exit 1 "$ORTKIT" bundle complete "$PWD/cpu/cpu"
expect_in err "bundle 'cpu' records no GPU providers: import a GPU release with --providers to make one"
expect_exit 1 "$ORTKIT" bundle complete "$PWD/nowhere"
expect_exit 2 "$ORTKIT" bundle complete
expect_in err "complete needs BUNDLE"
