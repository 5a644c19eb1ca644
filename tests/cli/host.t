# host.t - `ortkit host`: this machine (shape only) and described hosts (exact).
set -eu
H="$SRC/tests/hosts"

expect_exit 0 "$ORTKIT" host --help
expect_in out "usage: ortkit host [--json] [--load FILE.json | --root DIR]"
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
platform    sbsa: NVIDIA's SBSA CUDA (arm64, not a Jetson)
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
platform    l4t: Jetson's L4T CUDA (JetPack 6, L4T R36.4.3)
jetson      L4T 36.4.3, NVIDIA Jetson AGX Orin Developer Kit
gpu 0       Orin (integrated), SM 8.7, 62.0 GiB
note        Jetson: integrated GPU from the device tree, CUDA from L4T R36.4
OUT

# Machines described as file trees (tests/hosts/root/*): read as "/" is, with
# nothing from this machine.  A Jetson of JetPack 6 takes Jetson's L4T CUDA
# (its display driver's /proc/driver/nvidia/version is no GPU's); Thor, a
# Jetson too, takes NVIDIA's SBSA CUDA from JetPack 7; a Grace server's GPU
# comes from the kernel module's files, its SM from the GPU's name.
R="$H/root"
expect_exit 0 "$ORTKIT" host --root "$R/orin-jp6"
expect_same out <<'OUT'
arch        aarch64
cpu         Cortex-A78AE (ARM)
cores       12 logical
features    asimd fp16 dotprod
memory      61.4 GiB total, 55.4 GiB available
os          Linux 5.15.148-tegra, Ubuntu 22.04.5 LTS
nvidia      L4T driver, CUDA 12.6
platform    l4t: Jetson's L4T CUDA (JetPack 6, L4T R36.4.3)
jetson      L4T 36.4.3, NVIDIA Jetson AGX Orin Developer Kit
gpu 0       Orin (integrated), SM 8.7, 61.4 GiB
note        Jetson: integrated GPU from the device tree, CUDA from L4T R36.4
OUT
expect_exit 0 "$ORTKIT" host --root "$R/thor-jp7"
expect_same out <<'OUT'
arch        aarch64
cpu         Neoverse-V3AE (ARM)
cores       14 logical
features    asimd fp16 dotprod i8mm bf16 sve sve2
memory      122.6 GiB total, 117.7 GiB available
os          Linux 6.8.12-tegra, Ubuntu 24.04.3 LTS
nvidia      L4T driver, CUDA 13.0
platform    sbsa: NVIDIA's SBSA CUDA (a Jetson on JetPack 7, L4T R38.2.0)
jetson      L4T 38.2.0, NVIDIA Jetson AGX Thor Developer Kit
gpu 0       Thor (integrated), SM 11.0, 122.6 GiB
note        Jetson: integrated GPU from the device tree, CUDA from L4T R38.2
OUT
expect_exit 0 "$ORTKIT" host --root "$R/grace-gh200"
expect_same out <<'OUT'
arch        aarch64
cpu         Neoverse-V2 (ARM)
cores       72 logical
features    asimd fp16 dotprod i8mm bf16 sve sve2
memory      479.6 GiB total, 467.4 GiB available
os          Linux 6.8.0-1028-nvidia-64k, Ubuntu 24.04.2 LTS
nvidia      driver 580.126.09, CUDA 13.0
platform    sbsa: NVIDIA's SBSA CUDA (arm64, not a Jetson)
gpu 0       NVIDIA GH200 480GB, SM 9.0
note        GPUs from /proc/driver/nvidia: compute capability by name, memory unknown
OUT

# --json carries the platform and reads back with --load; two of the trees
# are the host files variants and selection tests use.
for t in orin-jp6:l4t thor-jp7:sbsa grace-gh200:sbsa; do
    expect_exit 0 "$ORTKIT" host --root "$R/${t%:*}" --json
    expect_in out "\"platform\":	\"${t#*:}\""
    cp out tree.json
    expect_exit 0 "$ORTKIT" host --load tree.json --json
    expect_same tree.json <out
done
for t in thor-jp7:jetson-thor grace-gh200:grace-gh200; do
    expect_exit 0 "$ORTKIT" host --root "$R/${t%:*}" --json
    /usr/bin/python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1])) != json.load(open(sys.argv[2])))' \
        out "$H/${t#*:}.json" || { echo "FAIL: $t: the tree and its host file differ" >&2; exit 1; }
done

# A tree that is not one, and the two sources at once.
expect_exit 1 "$ORTKIT" host --root "$R/none"
expect_same err <<OUT
ortkit: cannot read the machine described in '$R/none': No such file or directory
OUT
expect_exit 2 "$ORTKIT" host --root "$R/orin-jp6" --load "$H/t4.json"
expect_in err "give --load or --root, not both"

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
