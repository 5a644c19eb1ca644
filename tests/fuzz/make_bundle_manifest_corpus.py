#!/usr/bin/python3
"""Write the seed corpus of fuzz_bundle_manifest: the real manifests of the
bundles in deps/bundles/, small manifests of each kind (CPU, CUDA, Jetson,
links), and manifests broken in one way each.

Run from anywhere, with any python 3:
    python3 tests/fuzz/make_bundle_manifest_corpus.py tests/fuzz/corpus/fuzz_bundle_manifest
"""
import copy
import glob
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SHA = "0123456789abcdef" * 4


def small(variant="cpu", arch="x86_64", features=(), cuda=None, sm=None, exact=False, jetson=False,
          driver=None):
    return {
        "schema": 1,
        "name": "ort-1.30.0-" + variant,
        "created_by": "ortkit 0.1.0",
        "onnxruntime": {"version": "1.30.0", "api_level": 30},
        "headers": {"api_level": 21},
        "variant": variant,
        "requires": {"arch": arch, "cpu_features": list(features), "cuda": cuda, "compute_capability": sm,
                     "exact_sm_only": exact, "jetson": jetson, "min_driver": driver},
        "library": "lib/libonnxruntime.so.1.30.0",
        "providers": ["CUDAExecutionProvider", "CPUExecutionProvider"] if cuda else ["CPUExecutionProvider"],
        "files": [
            {"path": "include/onnxruntime_c_api.h", "size": 219712, "sha256": SHA},
            {"path": "lib/libonnxruntime.so", "link": "libonnxruntime.so.1"},
            {"path": "lib/libonnxruntime.so.1", "link": "libonnxruntime.so.1.30.0"},
            {"path": "lib/libonnxruntime.so.1.30.0", "size": 45828512, "sha256": SHA},
        ],
    }


def edited(fn, base=None):
    m = copy.deepcopy(base or small())
    fn(m)
    return m


def text(m):
    return json.dumps(m, indent="\t").encode() + b"\n"


def compact(value):
    """What a hand-edited or generated file may look like: no whitespace."""
    return json.dumps(value, separators=(",", ":")).encode()


NEEDS = {"glibc": "2.28", "glibcxx": "3.4.22", "cxxabi": "1.3.11",
         "libraries": ["libc.so.6", "libm.so.6", "libstdc++.so.6"]}

# A GPU release's core and providers, each part with its own needs.
PROVIDER_FILES = [{"path": "lib/libonnxruntime_providers_cuda.so", "size": 229797928, "sha256": SHA},
                  {"path": "lib/libonnxruntime_providers_shared.so", "size": 17520, "sha256": SHA},
                  {"path": "lib/libonnxruntime_providers_tensorrt.so", "size": 872592, "sha256": SHA}]
PARTS = [{"name": "core", "files": ["lib/libonnxruntime.so.1.30.0"], "libraries": ["libc.so.6"]},
         {"name": "CUDAExecutionProvider", "files": ["lib/libonnxruntime_providers_cuda.so",
                                                     "lib/libonnxruntime_providers_shared.so"],
          "libraries": ["libc.so.6", "libcuda.so.1", "libcudart.so.12"]},
         {"name": "TensorrtExecutionProvider", "files": ["lib/libonnxruntime_providers_tensorrt.so"],
          "libraries": ["libnvinfer.so.10"]}]


def with_parts(parts):
    def fn(m):
        m["files"] += copy.deepcopy(PROVIDER_FILES)
        m["parts"] = parts
    return fn


def main(out):
    os.makedirs(out, exist_ok=True)
    avx512 = ["avx", "avx2", "fma", "avx512f", "avx512bw", "avx512dq", "avx512vl"]
    arm9 = ["asimd", "fp16", "dotprod", "sve", "sve2"]
    seeds = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "deps", "bundles", "*", "manifest.json"))):
        with open(path, "rb") as f:
            seeds["real_" + os.path.basename(os.path.dirname(path)) + ".json"] = f.read()
    valid = {
        "cpu": small(),
        "cuda": small("cuda12.9-sm90-avx512", features=avx512, cuda="12.9", sm="9.0", exact=True,
                      driver="525.60.13"),
        "cuda_arm": small("cuda12.9-sm90-armv9", "aarch64", arm9, "12.9", "9.0", True, driver="525.60.13"),
        "jetson": small("cuda12.6-sm87-armv8.2", "aarch64", ["asimd", "fp16", "dotprod"], "12.6", "8.7",
                        jetson=True, driver="36.4"),
        "unknown_variant": small("cpu-experimental"),
        "minimal": edited(lambda m: [m.pop(k) for k in ("created_by", "headers", "providers")]),
        "needs": edited(lambda m: m.__setitem__("needs", NEEDS)),
        "needs_empty": edited(lambda m: m.__setitem__("needs", {})),
        "parts": edited(with_parts(PARTS)),
    }
    for name, m in valid.items():
        seeds[f"valid_{name}.json"] = text(m)
    seeds["valid_compact.json"] = compact(small())

    def files(fn):
        return edited(lambda m: fn(m["files"]))

    def req(key, value):
        return edited(lambda m: m["requires"].__setitem__(key, value))

    def top(key, value):
        return edited(lambda m: m.__setitem__(key, value))

    broken = {
        "unknown_key": top("signature", "x"),
        "schema_2": top("schema", 2),
        "schema_string": top("schema", "1"),
        "schema_fraction": top("schema", 1.5),
        "name_slash": top("name", "../evil"),
        "name_long": top("name", "n" * 65),
        "name_control": top("name", "ort\u0007"),
        "version": top("onnxruntime", {"version": "one.two", "api_level": 30}),
        "api_mismatch": top("onnxruntime", {"version": "1.30.0", "api_level": 29}),
        "api_huge": top("onnxruntime", {"version": "1.30.0", "api_level": 1e300}),
        "variant_mismatch": top("variant", "cpu-avx512"),
        "cpu_needs_cuda": req("cuda", "12.9"),
        "cuda_without_sm": edited(lambda m: m["requires"].update(cuda="12.9"),
                                  valid["unknown_variant"]),
        "cuda_bad": req("cuda", "12.x"),
        "feature_unknown": req("cpu_features", ["avx1024"]),
        "feature_other_arch": req("cpu_features", ["sve2"]),
        "arch": req("arch", "riscv64"),
        "driver_letters": req("min_driver", "525.sixty"),
        "jetson_string": req("jetson", "yes"),
        "providers_bad": top("providers", ["CPU Provider"]),
        "needs_array": top("needs", []),
        "needs_unknown": top("needs", {**NEEDS, "musl": "1.2"}),
        "needs_glibc_name": top("needs", {**NEEDS, "glibc": "GLIBC_2.28"}),
        "needs_library_path": top("needs", {**NEEDS, "libraries": ["../libm.so.6"]}),
        "providers_many": top("providers", ["P%d" % i for i in range(65)]),
        "files_empty": top("files", []),
        "files_object": top("files", {}),
        "library_unlisted": top("library", "lib/libonnxruntime.so.1.29.0"),
        "library_link": top("library", "lib/libonnxruntime.so.1"),
        "library_elsewhere": top("library", "include/onnxruntime_c_api.h"),
        "path_dotdot": files(lambda f: f[0].update(path="lib/../../etc/passwd")),
        "path_absolute": files(lambda f: f[0].update(path="/etc/passwd")),
        "path_empty_part": files(lambda f: f[0].update(path="lib//x")),
        "path_trailing_slash": files(lambda f: f[0].update(path="lib/x/")),
        "path_outside": files(lambda f: f[0].update(path="share/x")),
        "path_manifest": files(lambda f: f[0].update(path="manifest.json")),
        "path_backslash": files(lambda f: f[0].update(path="lib\\x")),
        "path_twice": files(lambda f: f.append(dict(f[0]))),
        "size_negative": files(lambda f: f[0].update(size=-1)),
        "size_huge": files(lambda f: f[0].update(size=2 ** 60)),
        "sha_upper": files(lambda f: f[0].update(sha256=SHA.upper())),
        "sha_short": files(lambda f: f[0].update(sha256=SHA[:63])),
        "link_with_size": files(lambda f: f[1].update(size=1)),
        "link_missing": files(lambda f: f[1].update(link="libonnxruntime.so.2")),
        "link_slash": files(lambda f: f[1].update(link="../lib/x")),
        "link_loop": files(lambda f: f[2].update(link="libonnxruntime.so")),
        "parts_no_core": edited(with_parts(PARTS[1:])),
        "parts_core_without_library": edited(with_parts([dict(PARTS[0], files=[])] + PARTS[1:])),
        "parts_twice": edited(with_parts(PARTS + [PARTS[2]])),
        "parts_file_unlisted": edited(with_parts(PARTS[:2] + [dict(PARTS[2], files=["lib/libx.so"])])),
        "parts_library_path": edited(with_parts(PARTS[:2] + [dict(PARTS[2], libraries=["../libx.so"])])),
        "parts_unknown_key": edited(with_parts(PARTS[:2] + [dict(PARTS[2], needs=[])])),
        "parts_object": edited(with_parts({})),
    }
    for name, m in broken.items():
        seeds[f"bad_{name}.json"] = compact(m)

    # GPU releases imported with their providers carry a "gpu" key (the
    # manifests of tests/bundles/gpu/): whole, and broken in one way each.
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "bundles", "gpu", "*.json"))):
        with open(path, "rb") as f:
            seeds["valid_gpu_" + os.path.basename(path)] = f.read()
    with open(os.path.join(ROOT, "tests", "bundles", "gpu", "ort-1.29.0-cuda13.json")) as f:
        gpu = json.load(f)

    def gpu_edit(fn):
        m = copy.deepcopy(gpu)
        fn(m["gpu"])
        return m

    seeds["valid_gpu_complete.json"] = compact(gpu_edit(
        lambda g: g.update(complete=True, missing=[], libraries=[])))
    seeds["valid_gpu_ptx.json"] = compact(gpu_edit(
        lambda g: g.update(ptx=["compute_120"], ptx_driver="580.65.06")))

    # An arm64 release of Jetson's L4T CUDA, and one that does not say.
    def arm64(platform, jetson):
        m = copy.deepcopy(gpu)
        m["requires"].update(arch="aarch64", jetson=jetson)
        if platform:
            m["gpu"]["platform"] = platform
        return m
    seeds["valid_gpu_platform_l4t.json"] = compact(arm64("l4t", True))
    seeds["valid_gpu_platform_unsaid.json"] = compact(arm64(None, False))
    seeds["bad_gpu_platform_jetson.json"] = compact(arm64("l4t", False))
    seeds["bad_gpu_platform_x86.json"] = compact(gpu_edit(lambda g: g.update(platform="sbsa")))
    gpu_broken = {
        "gpu_not_object": lambda m: m.__setitem__("gpu", []),
        "gpu_unknown_key": lambda m: m["gpu"].__setitem__("tensorcores", 4),
        "gpu_cuda_bad": lambda m: m["gpu"].__setitem__("cuda", "13.x"),
        "gpu_sass_bad": lambda m: m["gpu"].__setitem__("sass", ["sm_9x"]),
        "gpu_driver_letters": lambda m: m["gpu"].__setitem__("min_driver", "580.sixty"),
        "gpu_complete_string": lambda m: m["gpu"].__setitem__("complete", "yes"),
        "gpu_needs_path": lambda m: m["gpu"].__setitem__("needs", ["../libcudart.so.13"]),
        "gpu_cudnn_string": lambda m: m["gpu"].__setitem__("cudnn", "9"),
    }
    for name, fn in gpu_broken.items():
        m = copy.deepcopy(gpu)
        fn(m)
        seeds[f"bad_{name}.json"] = compact(m)
    whole = text(small())
    seeds.update({
        "bad_duplicate_key.json": whole.replace(b'\t"schema": 1,', b'\t"schema": 1,\n\t"schema": 1,', 1),
        "bad_truncated.json": whole[: len(whole) // 2],
        "bad_array.json": b"[" + whole + b"]",
        "bad_trailing.json": whole + b"}",
        "bad_nul.json": whole[:40] + b"\0" + whole[40:],
        "bad_escape_nul.json": whole.replace(b'"variant": "cpu"', b'"variant": "cpu\\u0000x"', 1),
        "bad_nested.json": b"[" * 2000 + b"]" * 2000,
        # Past cJSON's limit inside a member: named as nesting, not as syntax.
        "bad_nested_member.json": b'{"name": ' + b"[" * 1500 + b"]" * 1500 + b"}",
        "bad_empty.json": b"",
        "bad_number.json": whole.replace(b'"schema": 1', b'"schema": 1e400', 1),
    })
    for name, data in seeds.items():
        assert len(data) < 8192, name
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    print(f"{len(seeds)} files in {out}")


if __name__ == "__main__":
    main(sys.argv[1])
