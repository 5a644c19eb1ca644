#!/usr/bin/python3
"""Write the seed corpus of fuzz_host_json: the described hosts of tests/hosts/,
small hosts of each kind, and host files broken in one way each.

Run from anywhere, with any python 3:
    python3 tests/fuzz/make_host_json_corpus.py tests/fuzz/corpus/fuzz_host_json
"""
import copy
import glob
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

BASE = {
    "schema": 1,
    "arch": "x86_64",
    "cpu": {
        "vendor": "GenuineIntel",
        "model": "Intel(R) Xeon(R) Platinum 8480+",
        "logical_cpus": 8,
        "physical_cores": 4,
        "cache": {"l1d": 49152, "l1i": 32768, "l2": 2097152, "l3": 110100480},
        "features": ["avx", "avx2", "fma", "avx512f"],
        "x86_64_level": 3,
    },
    "memory": {"total": 34359738368, "available": 30000000000},
    "os": {"name": "Linux", "release": "6.1.0-28-amd64", "distro": "Debian GNU/Linux 12 (bookworm)",
           "glibc": "2.36"},
    "nvidia": {"driver": "570.124.06", "cuda": "12.8", "note": "",
               "gpus": [{"name": "NVIDIA L4", "compute_capability": "8.9", "memory": 24152899584}]},
}

# What a Debian 12 machine's dynamic loader finds, of what ONNX Runtime needs.
LIBRARIES = ["ld-linux-x86-64.so.2", "libc.so.6", "libdl.so.2", "libgcc_s.so.1", "libm.so.6",
             "libpthread.so.0", "librt.so.1", "libstdc++.so.6"]


def edited(fn):
    h = copy.deepcopy(BASE)
    fn(h)
    return h


def setter(*path_and_value):
    *path, key, value = path_and_value

    def fn(h):
        for p in path:
            h = h[p]
        h[key] = value
    return fn


def text(h):
    return json.dumps(h, indent=2, ensure_ascii=False).encode() + b"\n"


def compact(value):
    """What a hand-edited or generated file may look like: no whitespace."""
    return json.dumps(value, separators=(",", ":")).encode()


def main(out):
    os.makedirs(out, exist_ok=True)
    seeds = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "hosts", "*.json"))):
        with open(path, "rb") as f:
            seeds["real_" + os.path.basename(path)] = f.read()
    gpu = BASE["nvidia"]["gpus"][0]
    valid = {
        "base": BASE,
        "minimal": {"schema": 1, "arch": "x86_64"},
        "arm64_alias": {"schema": 1, "arch": "arm64", "cpu": {"features": ["sve2"]}},
        "nulls": {"schema": 1, "arch": "aarch64", "cpu": None, "memory": None, "os": None, "nvidia": None,
                  "jetson": None},
        "no_level": edited(lambda h: h["cpu"].pop("x86_64_level")),
        "gpus_16": edited(setter("nvidia", "gpus", [gpu] * 16)),
        "jetson": edited(lambda h: h.update(arch="aarch64", cpu={"features": ["asimd"]},
                                            jetson={"l4t": "36.4.3", "board": "Orin"})),
        # The CUDA platform: said, or (written before it) what arch and jetson say.
        "platform_sbsa_jetson": edited(lambda h: h.update(arch="aarch64", cpu={"features": ["sve2"]},
                                                          nvidia=dict(h["nvidia"], platform="sbsa"),
                                                          jetson={"l4t": "38.2.0", "board": "Thor"})),
        "platform_x86_64": edited(setter("nvidia", "platform", "x86_64")),
        "utf8": edited(setter("cpu", "model", "Ær\u00f8 \u2603 \U0001f600 \"q\" \\ \t")),
        "longest": edited(setter("cpu", "model", "m" * 95)),
        "cuda_odd": edited(setter("nvidia", "cuda", "12.99")),
        "memory_max": edited(setter("memory", "total", 2 ** 53)),
        # What the dynamic loader finds (os.libraries), with the C++ library's level.
        "libraries": edited(lambda h: h["os"].update(glibcxx="3.4.30", libraries=LIBRARIES)),
        "libraries_empty": edited(setter("os", "libraries", [])),
        "libraries_longest": edited(setter("os", "libraries", ["lib" + "x" * 249 + ".so"])),
    }
    for name, h in valid.items():
        seeds[f"valid_{name}.json"] = text(h)
    seeds["valid_compact.json"] = compact(BASE)

    broken = {
        "unknown_key": setter("cpu", "flags", []),
        "schema_2": setter("schema", 2),
        "schema_string": setter("schema", "1"),
        "arch": setter("arch", "riscv64"),
        "arch_missing": lambda h: h.pop("arch"),
        "cpu_array": setter("cpu", []),
        "model_long": setter("cpu", "model", "m" * 96),
        "cpus_fraction": setter("cpu", "logical_cpus", 2.5),
        "cpus_negative": setter("cpu", "logical_cpus", -1),
        "cpus_huge": setter("cpu", "logical_cpus", 1e300),
        "cache_huge": setter("cpu", "cache", "l3", 2 ** 41),
        "feature_unknown": setter("cpu", "features", ["avx1024"]),
        "feature_other_arch": setter("cpu", "features", ["sve2"]),
        "feature_number": setter("cpu", "features", [1]),
        "level_0": setter("cpu", "x86_64_level", 0),
        "level_5": setter("cpu", "x86_64_level", 5),
        "level_on_arm": lambda h: h.update(arch="aarch64", cpu={"x86_64_level": 2}),
        "memory_over": setter("memory", "total", 2 ** 53 + 2),
        "driver": setter("nvidia", "driver", "570..1"),
        "cuda_no_minor": setter("nvidia", "cuda", "12"),
        "cuda_minor_big": setter("nvidia", "cuda", "12.100"),
        "cuda_huge": setter("nvidia", "cuda", "99999999999.1"),
        "cc_minor": setter("nvidia", "gpus", [dict(gpu, compute_capability="10.10")]),
        "cc_missing": setter("nvidia", "gpus", [{"name": "x"}]),
        "gpus_17": setter("nvidia", "gpus", [gpu] * 17),
        "gpu_string": setter("nvidia", "gpus", ["NVIDIA L4"]),
        "jetson_l4t": lambda h: h.update(jetson={"l4t": "R36", "board": "Orin"}),
        "platform_unknown": setter("nvidia", "platform", "jetson"),
        "platform_arch": setter("nvidia", "platform", "sbsa"),
        "platform_l4t_no_jetson": lambda h: h.update(arch="aarch64", cpu=None,
                                                     nvidia=dict(h["nvidia"], platform="l4t")),
        "libraries_string": setter("os", "libraries", "libc.so.6"),
        "libraries_object": setter("os", "libraries", {"libc.so.6": True}),
        "libraries_number": setter("os", "libraries", ["libc.so.6", 6]),
        "libraries_path": setter("os", "libraries", ["/lib/x86_64-linux-gnu/libc.so.6"]),
        "libraries_empty_name": setter("os", "libraries", [""]),
        "libraries_space": setter("os", "libraries", ["lib c.so.6"]),
        "libraries_newline": setter("os", "libraries", ["libc.so.6\nlibm.so.6"]),
        "libraries_utf8": setter("os", "libraries", ["libc\u00e9.so.6"]),
        "libraries_long": setter("os", "libraries", ["lib" + "x" * 250 + ".so"]),
    }
    for name, fn in broken.items():
        seeds[f"bad_{name}.json"] = compact(edited(fn))
    whole = text(BASE)
    seeds.update({
        "bad_duplicate_key.json": whole.replace(b'  "schema": 1,', b'  "schema": 1,\n  "schema": 1,', 1),
        "bad_truncated.json": whole[: len(whole) // 2],
        "bad_syntax_line.json": whole.replace(b'"glibc": "2.36"', b'"glibc": 2.36.1', 1),
        "bad_trailing.json": whole + b"x",
        "bad_array.json": b"[" + whole + b"]",
        "bad_nested.json": b"{\"cpu\":" * 1100 + b"{}" + b"}" * 1100,
        "bad_escape_nul.json": whole.replace(b'"Linux"', b'"Lin\\u0000ux"', 1),
        # Terminal control sequences (a window title, clear screen) and a
        # newline in a string that is printed.
        "edge_model_escapes.json": text(edited(setter("cpu", "model", "\u001b]0;pwned\u0007\u001b[2J\nfake"))),
        "bad_nested_arrays.json": b"[" * 8000 + b"]" * 8000,
        # Control characters and a C1 in strings: read, and written back as JSON escapes.
        "edge_control_chars.json": whole.replace(b'"Linux"', b'"Lin\\u001b]0;x\\u0007\\n\\u009bux"', 1),
        "bad_empty.json": b"",
    })
    for name, data in seeds.items():
        assert len(data) < 16384, name
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    print(f"{len(seeds)} files in {out}")


if __name__ == "__main__":
    main(sys.argv[1])
