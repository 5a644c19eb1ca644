# host.t - `ortkit host`: this machine (shape only) and described hosts (exact).
set -eu
H="$SRC/tests/hosts"

expect_exit 0 "$ORTKIT" host --help
expect_in out "usage: ortkit host [--json] [--load FILE.json]"
expect_exit 2 "$ORTKIT" host --bogus
expect_exit 2 "$ORTKIT" host extra
expect_in err "unexpected argument 'extra'"

# This machine: whatever it is, the report has its parts and never fails for
# want of a GPU driver.
expect_exit 0 "$ORTKIT" host
expect_in out "arch        "
expect_in out "features    "
expect_in out "memory      "
expect_exit 0 "$ORTKIT" host --json
/usr/bin/python3 - out <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))
assert h["schema"] == 1 and h["arch"] in ("x86_64", "aarch64"), h
assert h["cpu"]["logical_cpus"] >= 1 and h["memory"]["total"] > 0, h
assert isinstance(h["cpu"]["features"], list)
gpus = h["nvidia"]["gpus"]
assert gpus or h["nvidia"]["note"], "no GPU and no reason given"
PY

# What --json writes, --load reads back unchanged.
cp out this.json
expect_exit 0 "$ORTKIT" host --load this.json --json
expect_same this.json <out

expect_exit 0 "$ORTKIT" host --load "$H/h100-server.json"
expect_same out <<'OUT'
arch        x86_64 (x86-64-v4)
cpu         Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz (GenuineIntel)
cores       160 logical, 80 physical
caches      L1d 48.0 KiB, L1i 32.0 KiB, L2 1.2 MiB, L3 60.0 MiB
features    sse3 ssse3 sse4.1 sse4.2 popcnt cx16 lahf movbe lzcnt bmi1 bmi2 avx
            avx2 fma f16c avx512f avx512cd avx512bw avx512dq avx512vl avx512vnni
memory      1.0 TiB total, 980.0 GiB available
os          Linux 5.15.0-131-generic, Ubuntu 22.04.5 LTS, glibc 2.35, libstdc++ GLIBCXX_3.4.30
nvidia      driver 570.124.06, CUDA 12.8
gpu 0       NVIDIA H100 PCIe, SM 9.0, 79.6 GiB
gpu 1       NVIDIA H100 PCIe, SM 9.0, 79.6 GiB
OUT

expect_exit 0 "$ORTKIT" host --load "$H/graviton3.json"
expect_same out <<'OUT'
arch        aarch64
cpu         Neoverse-V1 (ARM)
cores       64 logical, 64 physical
caches      L1d 64.0 KiB, L1i 64.0 KiB, L2 1.0 MiB, L3 32.0 MiB
features    asimd fp16 dotprod i8mm bf16 sve
memory      128.0 GiB total, 124.0 GiB available
os          Linux 6.1.119-129.201.amzn2023.aarch64, Amazon Linux 2023.6.20241212, glibc 2.34
gpus        none (no NVIDIA driver: libnvidia-ml.so.1 not found)
OUT

expect_exit 0 "$ORTKIT" host --load "$H/jetson-orin.json"
expect_same out <<'OUT'
arch        aarch64
cpu         Cortex-A78AE (ARM)
cores       12 logical, 12 physical
caches      L1d 64.0 KiB, L1i 64.0 KiB, L2 256.0 KiB, L3 2.0 MiB
features    asimd fp16 dotprod
memory      62.0 GiB total, 55.0 GiB available
os          Linux 5.15.148-tegra, Ubuntu 22.04.5 LTS, glibc 2.35
nvidia      L4T driver, CUDA 12.6
jetson      L4T 36.4.3, NVIDIA Jetson AGX Orin Developer Kit
gpu 0       Orin (integrated), SM 8.7, 62.0 GiB
note        Jetson: integrated GPU from the device tree, CUDA from L4T R36.4
OUT

# Every described host reads back to the same JSON.
for f in "$H"/*.json; do
    expect_exit 0 "$ORTKIT" host --load "$f" --json
    /usr/bin/python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); sys.exit(a != b)' out "$f" ||
        { echo "FAIL: $f does not read back the same" >&2; exit 1; }
done

# Bad descriptions fail with one line naming the problem.
expect_exit 1 "$ORTKIT" host --load missing.json
expect_in err "ortkit: cannot open 'missing.json'"
printf '{"arch": "x86_64", "cpu": {"features": ["avx2", "avx512_bf16"]}}\n' >typo.json
expect_exit 1 "$ORTKIT" host --load typo.json
expect_same err <<'OUT'
ortkit: 'typo.json': host JSON: unknown CPU feature 'avx512_bf16' in cpu.features
OUT
printf '{"arch": "x86_64", "nvidia": {"gpus": [{"compute_capability": 9}]}}\n' >type.json
expect_exit 1 "$ORTKIT" host --load type.json
expect_in err "'nvidia.gpus[0].compute_capability' must be a string, not a number"
