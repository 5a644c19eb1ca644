# cpus.t - ortkit on three emulated aarch64 CPUs (qemu-user's -cpu models,
# through QEMU_CPU): what `ortkit host` detects, set beside what the kernel
# words AT_HWCAP/AT_HWCAP2 and /proc/cpuinfo tell an emulated program
# ($CPUINFO, tests/arm64/cpuinfo.c); which variants fit; and which bundle
# `bundle choose` takes of an ARMv8.0-generic, an ARMv8.2 and an ARMv9 one.
#
#   cortex-a72   ARMv8.0 (a Raspberry Pi 4)   asimd
#   neoverse-n1  ARMv8.2 (Graviton2, Ampere)  asimd fp16 dotprod
#   max          qemu's everything            asimd fp16 dotprod i8mm bf16 sve sve2
#
# The bundles: Microsoft's linux/arm64 1.30.0 ($RT_NEW) imported once as
# what it is, a generic prebuilt ("cpu"), and the SAME library imported twice
# more labelled cpu-armv8.2 and cpu-armv9 (--variant), for this selection
# test only: the suite needs no ONNX Runtime build of its own (the real
# cross-built cpu-armv8.2 is checked by scripts/build_ort.sh --arm64-check).
# Selection reads manifests, not code, so the labels are what it judges; each
# chosen bundle is then loaded on its CPU.
set -eu

# features CPU: ortkit's features, from the kernel's words, from /proc/cpuinfo
# (three lines, ortkit's names, in ortkit's order).
features() {
    QEMU_CPU=$1 "$ORTKIT" host --json >host.json
    QEMU_CPU=$1 "$CPUINFO" >cpuinfo.txt
    /usr/bin/python3 - host.json cpuinfo.txt <<'PY'
import json, sys
order = ["asimd", "fp16", "dotprod", "i8mm", "bf16", "sve", "sve2"]
host = json.load(open(sys.argv[1]))
assert host["arch"] == "aarch64", host["arch"]
lines = open(sys.argv[2]).read().splitlines()
words = dict(l.split(" ", 1) for l in lines[:2])
hw, hw2 = int(words["hwcap"], 16), int(words["hwcap2"], 16)
# arch/arm64/include/uapi/asm/hwcap.h; FP16 is FPHP and ASIMDHP together
bits = {"asimd": hw >> 1 & 1, "fp16": hw >> 9 & hw >> 10 & 1, "dotprod": hw >> 20 & 1,
        "sve": hw >> 22 & 1, "sve2": hw2 >> 1 & 1, "i8mm": hw2 >> 13 & 1, "bf16": hw2 >> 14 & 1}
info = dict((k.strip(), v.strip()) for k, v in (l.split(":", 1) for l in lines[2:] if ":" in l))
flags = set(info["Features"].split())
names = {"asimd": {"asimd"}, "fp16": {"fphp", "asimdhp"}, "dotprod": {"asimddp"},
         "i8mm": {"i8mm"}, "bf16": {"bf16"}, "sve": {"sve"}, "sve2": {"sve2"}}
print(" ".join(f for f in order if f in host["cpu"]["features"]))
print(" ".join(f for f in order if bits[f]))
print(" ".join(f for f in order if names[f] <= flags))
PY
}

# check_cpu CPU "FEATURES" "CPU LINE": the three views agree with what qemu
# documents for the model, and `ortkit host` names the core.
check_cpu() {
    features "$1" >got
    printf '%s\n%s\n%s\n' "$2" "$2" "$2" | expect_same got
    QEMU_CPU=$1 expect_exit 0 "$ORTKIT" host
    expect_in out "cpu         $3"
    expect_in out "features    $2"
}
check_cpu cortex-a72 "asimd" "Cortex-A72 (ARM)"
check_cpu neoverse-n1 "asimd fp16 dotprod" "Neoverse-N1 (ARM)"
check_cpu max "asimd fp16 dotprod i8mm bf16 sve sve2" "max (QEMU)"

# Which arm64 CPU variants fit each, and why the others do not.
fits() {
    QEMU_CPU=$1 expect_exit 0 "$ORTKIT" variants --fits cpu-armv8.0 cpu-armv8.2 cpu-armv9
    sed 's/ *$//' out >fits.txt
    expect_same fits.txt
}
fits cortex-a72 <<'OUT'
VARIANT      FITS  WHY
cpu-armv8.0  yes
cpu-armv8.2  no    needs FP16 arithmetic and dot product (SDOT/UDOT); this CPU lacks them
cpu-armv9    no    needs FP16 arithmetic, dot product (SDOT/UDOT), SVE and SVE2; this CPU lacks them

1 of 3 variants fit this host
OUT
fits neoverse-n1 <<'OUT'
VARIANT      FITS  WHY
cpu-armv8.0  yes
cpu-armv8.2  yes
cpu-armv9    no    needs SVE and SVE2; this CPU lacks them

2 of 3 variants fit this host
OUT
fits max <<'OUT'
VARIANT      FITS  WHY
cpu-armv8.0  yes
cpu-armv8.2  yes
cpu-armv9    yes

3 of 3 variants fit this host
OUT
# Every variant gets an answer on each, and the x86-64 ones are refused by architecture.
QEMU_CPU=cortex-a72 expect_exit 0 "$ORTKIT" variants --fits --json
/usr/bin/python3 - out <<'PY'
import json, sys
vs = json.load(open(sys.argv[1]))["variants"]
fit = sorted(v["name"] for v in vs if v["fits"])
assert fit == ["cpu-armv8.0"], fit
for v in vs:
    if v["arch"] == "x86_64" and "defect" not in v:
        assert v["why"] == "built for x86_64; this host is aarch64", v
PY

# The bundles: one real, two labels of the same library (see above).
expect_exit 0 "$ORTKIT" bundle import "$RT_NEW" --name ms-1.30.0 --into b
expect_in out "variant cpu, aarch64"
expect_in out "confirmed by loading it"
expect_exit 0 "$ORTKIT" bundle import "$RT_NEW" --name label-armv8.2 --variant cpu-armv8.2 --into b
expect_exit 0 "$ORTKIT" bundle import "$RT_NEW" --name label-armv9 --variant cpu-armv9 --into b

# choose CPU NAME: CPU takes bundle NAME; the verdicts are in verdicts.txt
# (name, fits, step, why; one a line).
choose() {
    QEMU_CPU=$1 expect_exit 0 "$ORTKIT" bundle choose b --json
    /usr/bin/python3 - out "$2" <<'PY' >verdicts.txt
import json, sys
c = json.load(open(sys.argv[1]))
assert c["chosen"] == sys.argv[2], (c["chosen"], c)
for v in c["candidates"]:
    print("%s|%s|%s|%s" % (v["name"], "fits" if v["fits"] else "no", v["step"], v["why"]))
PY
}
choose max label-armv9
expect_in verdicts.txt "label-armv9|fits|cpu level|"
choose neoverse-n1 label-armv8.2
expect_in verdicts.txt "label-armv9|no|cpu level|needs SVE, SVE2, which this CPU lacks"
expect_in verdicts.txt "label-armv8.2|fits|cpu level|"
choose cortex-a72 ms-1.30.0
expect_in verdicts.txt "label-armv9|no|cpu level|needs FP16 arithmetic, dot product (SDOT/UDOT), SVE, SVE2, which this CPU lacks"
expect_in verdicts.txt "label-armv8.2|no|cpu level|needs FP16 arithmetic, dot product (SDOT/UDOT), which this CPU lacks"
expect_in verdicts.txt "ms-1.30.0|fits|"

# The text account says the same for the Raspberry Pi 4 class CPU.
QEMU_CPU=cortex-a72 expect_exit 0 "$ORTKIT" bundle choose b
expect_in out "choice     ms-1.30.0"

# And each CPU loads its choice: with the bundles on ORTKIT_PATH and no
# runtime named, a runtime open takes the best bundle that fits.
for pair in max:label-armv9 neoverse-n1:label-armv8.2 cortex-a72:ms-1.30.0; do
    cpu=${pair%%:*} name=${pair#*:}
    QEMU_CPU=$cpu ORTKIT_PATH="$PWD/b" expect_exit 0 "$ORTKIT" version
    expect_in out "runtime    ONNX Runtime 1.30.0"
    expect_in out "found by   bundle $name"
done
