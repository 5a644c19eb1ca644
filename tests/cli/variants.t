# variants.t - `ortkit variants`: the table, names in both forms, fitness on described hosts.
set -eu
H="$SRC/tests/hosts"

expect_exit 0 "$ORTKIT" variants --help
expect_in out "usage: ortkit variants [--fits [--all]] [--host FILE.json] [--flox] [--json] [NAME...]"
expect_exit 2 "$ORTKIT" variants --bogus

# All of them: a header and 101 rows (66 Flox + 30 CUDA 13.0 + Jetson Thor and GB10 on
# SBSA's CUDA 13.0 + Jetson Orin + generic x86-64 and arm64),
# then, after a blank line, what each CPU level was measured to buy (its words are
# compared byte for byte in expected.t).
table() { sed '/^$/,$d' out >table; }
expect_exit 0 "$ORTKIT" variants
table
expect_lines table 102
expect_in out "what a CPU level buys over lower ones (docs/PERFORMANCE.md):"

# The Flox matrix, name for name, as its README states it.
expect_exit 0 "$ORTKIT" variants --json
/usr/bin/python3 - out <<'PY'
import json, sys
vs = json.load(open(sys.argv[1]))["variants"]
assert len(vs) == 101, len(vs)
want = {"onnxruntime-python313-cpu-" + i for i in
        ("avx2", "avx512", "avx512bf16", "avx512vnni", "armv8_2", "armv9")}
for py, cu in (("312", "12_4"), ("313", "12_9")):
    for sm in ("75", "80", "86", "89", "90", "100", "120"):
        for isa in ("avx2", "avx512", "avx512bf16", "avx512vnni"):
            want.add("onnxruntime-python%s-cuda%s-sm%s-%s" % (py, cu, sm, isa))
    for isa in ("armv8_2", "armv9"):
        want.add("onnxruntime-python%s-cuda%s-sm90-%s" % (py, cu, isa))
assert len(want) == 66
got = {v["flox_name"] for v in vs if v["in_flox_matrix"]}
assert got == want, (sorted(got - want), sorted(want - got))
assert len({v["name"] for v in vs}) == 101
for isa, name, arch in (("x86-64", "cpu-x86-64", "x86_64"), ("armv8.0", "cpu-armv8.0", "aarch64")):
    generic, = [v for v in vs if v["isa"] == isa]
    assert generic["name"] == name and not generic["in_flox_matrix"], generic
    assert generic["cpu_features"] == [] and generic["cuda"] is None, generic
    assert generic["arch"] == arch, generic
for v in vs:
    if v["cuda"] is not None:
        assert v["cuda_architectures"] == str(int(float(v["compute_capability"]) * 10)), v
        assert v["cuda"] != "13.0" or float(v["compute_capability"]) >= 7.5, v
        # A CUDA build's platform: Jetson's L4T, or its architecture's.
        want = "l4t" if v["jetson"] else "x86_64" if v["arch"] == "x86_64" else "sbsa"
        assert v["platform"] == want, v
    else:
        assert "platform" not in v, v
sbsa13 = sorted(v["name"] for v in vs if v.get("platform") == "sbsa" and v["cuda"] == "13.0")
assert sbsa13 == ["cuda13.0-sm110-armv9", "cuda13.0-sm121-armv9", "cuda13.0-sm90-armv8.2",
                  "cuda13.0-sm90-armv9"], sbsa13
bad = sorted(v["name"] for v in vs if "defect" in v)
assert bad == sorted("cuda12.4-sm%s-%s" % (sm, i) for sm in ("100", "120")
                     for i in ("avx2", "avx512", "avx512bf16", "avx512vnni")), bad
PY

# A few rows, named either way.
expect_exit 0 "$ORTKIT" variants cuda12.9-sm90-avx512 onnxruntime-python313-cpu-avx2 cuda12.6-sm87-armv8.2 CPU-X86-64
expect_same out <<'OUT'
VARIANT                ARCH     CUBIN   MIN DRIVER  CPU FLAGS
cuda12.9-sm90-avx512   x86_64   sm_90a  525.60.13   -mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma
cpu-avx2               x86_64   -       -           -mavx2 -mfma
cuda12.6-sm87-armv8.2  aarch64  sm_87   L4T R36.4   -march=armv8.2-a+fp16+dotprod
cpu-x86-64             x86_64   -       -           -march=x86-64 -mtune=generic

what a CPU level buys over lower ones (docs/PERFORMANCE.md):
  cpu-avx2 over cpu-x86-64: measured 0.85-1.13 p50 (medians of 3 rounds) on 7 models, ONNX Runtime 1.21.0 built by ortkit, AMD EPYC with AVX2, 1 and 2 threads: no consistent gain
  cpu-x86-64 over cpu: measured 0.86-1.06 p50 (medians of 3 rounds) on 7 models against Microsoft's generic 1.21.0, on an AMD EPYC with AVX2 and on one with AVX-512, 1 and 2 threads: faster on Silero VAD (0.86-0.88) and PP-OCRv4 det (0.92-0.98), within 6% on the rest
OUT

expect_exit 0 "$ORTKIT" variants --flox ONNXRUNTIME-PYTHON312-CUDA12_4-SM120-AVX2 cpu-armv9
sed 's/ *$//' out >trimmed
expect_same trimmed <<'OUT'
VARIANT              FLOX NAME                                  ARCH     CUBIN    MIN DRIVER  CPU FLAGS            NOTE
cuda12.4-sm120-avx2  onnxruntime-python312-cuda12_4-sm120-avx2  x86_64   sm_120a  525.60.13   -mavx2 -mfma         nvcc 12.4 cannot compile for Blackwell (SM 10.0 and 12.0 need CUDA 12.8)
cpu-armv9            onnxruntime-python313-cpu-armv9            aarch64  -        -           -march=armv9-a+sve2

what a CPU level buys over lower ones (docs/PERFORMANCE.md):
  cpu-armv9 over cpu-armv8.2: not measured
OUT

# Fitness on described hosts: yes, yes with a caveat, or exactly why not.
expect_exit 0 "$ORTKIT" variants --host "$H/t4.json" cuda12.4-sm75-avx512 cuda12.9-sm75-avx2 \
    cuda13.0-sm75-avx2 cuda12.4-sm75-avx512vnni cuda12.4-sm80-avx2 cpu-armv8.2
sed 's/ *$//' out >trimmed
expect_same trimmed <<'OUT'
VARIANT                   FITS  WHY
cuda12.4-sm75-avx512      yes
cuda12.9-sm75-avx2        yes   driver 550.54.15 is older than CUDA 12.9's own minimum 575.51.03; it runs through minor-version compatibility
cuda13.0-sm75-avx2        no    needs driver >= 580.65.06 for CUDA 13.0; found 550.54.15
cuda12.4-sm75-avx512vnni  no    needs AVX-512 VNNI; this CPU lacks it
cuda12.4-sm80-avx2        no    SM 8.0 cubins do not run on SM 7.5 (Tesla T4)
cpu-armv8.2               no    built for aarch64; this host is x86_64

2 of 6 variants fit the described host
OUT

# What fits each described host, as JSON.
fitting() {
    expect_exit 0 "$ORTKIT" variants --host "$H/$1.json" --json
    /usr/bin/python3 -c 'import json,sys; print(" ".join(v["name"] for v in json.load(open(sys.argv[1]))["variants"] if v["fits"]))' out
}
check_fitting() {
    got=$(fitting "$1")
    if [ "$got" != "$2" ]; then
        echo "FAIL: on $1 these fit: $got" >&2
        echo "      expected:         $2" >&2
        exit 1
    fi
}
check_fitting graviton3 "cpu-armv8.2 cpu-armv8.0"
check_fitting laptop-avx2 "cpu-avx2 cpu-x86-64"
check_fitting jetson-orin "cpu-armv8.2 cuda12.6-sm87-armv8.2 cpu-armv8.0"
# Jetson Thor takes SBSA's CUDA 13 and its own SM; a Grace server SBSA's sm_90 builds.
check_fitting jetson-thor "cpu-armv8.2 cpu-armv9 cuda13.0-sm110-armv9 cpu-armv8.0"
check_fitting grace-gh200 "cpu-armv8.2 cpu-armv9 cuda12.4-sm90-armv8.2 cuda12.4-sm90-armv9 cuda12.9-sm90-armv8.2 cuda12.9-sm90-armv9 cuda13.0-sm90-armv8.2 cuda13.0-sm90-armv9 cpu-armv8.0"
check_fitting sapphire-rapids "cpu-avx2 cpu-avx512 cpu-avx512bf16 cpu-avx512vnni cpu-x86-64"
check_fitting old-driver-3090 "cpu-avx2 cuda12.4-sm80-avx2 cuda12.4-sm86-avx2 cuda12.9-sm80-avx2 cuda12.9-sm86-avx2 cpu-x86-64"
check_fitting h100-server "cpu-avx2 cpu-avx512 cpu-avx512vnni cuda12.4-sm90-avx2 cuda12.4-sm90-avx512 cuda12.4-sm90-avx512vnni cuda12.9-sm90-avx2 cuda12.9-sm90-avx512 cuda12.9-sm90-avx512vnni cpu-x86-64"

expect_exit 0 "$ORTKIT" variants --host "$H/graviton3.json" cpu-armv9 --json
/usr/bin/python3 - out <<'PY'
import json, sys
v, = json.load(open(sys.argv[1]))["variants"]
assert v["fits"] is False and v["why"] == "needs SVE2; this CPU lacks it", v
assert v["cpu_flags"] == "-march=armv9-a+sve2" and "sve2" in v["cpu_features"], v
PY

# This machine: --fits lists the variants that fit, and only those; --all
# gives every variant an answer, and the generic build of its architecture
# fits (x86-64, or arm64 where this runs under qemu).
expect_exit 0 "$ORTKIT" variants --fits
expect_not_in out " no "
expect_in out "; --all lists the others and why not"
fit_lines=$(wc -l <out)
[ "$fit_lines" -lt 30 ] || { echo "FAIL: variants --fits printed $fit_lines lines" >&2; exit 1; }
expect_exit 0 "$ORTKIT" variants --fits --all
table
expect_lines table 102
case $("$ORTKIT" host --json | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["arch"])') in
aarch64) expect_in out "cpu-armv8.0                yes" ;;
*) expect_in out "cpu-x86-64                 yes" ;;
esac
expect_in out "variants fit this host"

# Names that are not variants, and hosts that cannot be read.
expect_exit 1 "$ORTKIT" variants cuda12.9-sm61-avx2
expect_same err <<'OUT'
ortkit: unknown variant 'cuda12.9-sm61-avx2': CUDA 12.9 has no variant for sm61 (known: 75 80 86 89 90 100 120)
OUT
expect_exit 1 "$ORTKIT" variants onnxruntime-python312-cuda12_9-sm90-avx512
expect_in err "the Flox name of cuda12.9-sm90-avx512 is onnxruntime-python313-cuda12_9-sm90-avx512"
expect_exit 1 "$ORTKIT" variants --host missing.json
expect_in err "ortkit: cannot open 'missing.json'"
