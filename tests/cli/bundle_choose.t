# ortkit bundle choose: every candidate under the one selection order, for
# described hosts (text, exact; and --json), with the overrides shown where
# they apply.  Bundles: set-up's runtimes, imported here (1.17.3 without
# loading), and 1.30.0 claimed as AVX2 and AVX-512 builds.

"$ORTKIT" bundle import "$RT_NEW" --into "$PWD/b" >/dev/null
"$ORTKIT" bundle import "$RT_OLD" --into "$PWD/b" --no-load >/dev/null
"$ORTKIT" bundle import "$RT_NEW" --into "$PWD/b" --variant cpu-avx2 >/dev/null
"$ORTKIT" bundle import "$RT_NEW" --into "$PWD/b" --variant cpu-avx512 >/dev/null
hosts="$SRC/tests/hosts"

expect_exit 0 "$ORTKIT" bundle choose --host "$hosts/laptop-avx2.json" "$PWD/b"
cat >want <<EOF2
host       x86_64 (x86-64-v3), glibc 2.39, GLIBCXX 3.4.33, libraries not listed (needed libraries are not judged), 0 GPUs; described in $hosts/laptop-avx2.json
order      architecture > loadable here (glibc, libstdc++, libraries) > accelerator > CPU level > ONNX Runtime > name
overrides  none (ORTKIT_FORCE_ISA, ORTKIT_IGNORE_NEEDS, ORTKIT_FORCE_CUDA, ORTKIT_FORCE_SM unset)

  RANK  NAME                   ORT     VARIANT     ARCH    FROM      FITS  STEP         WHY
  1     ort-1.30.0-cpu-avx2    1.30.0  cpu-avx2    x86_64  argument  yes   cpu level    the highest CPU level this host supports: avx2 (ort-1.30.0-cpu: any CPU), which it descends from; cpu-avx2 over cpu: not measured; its 8 needed libraries are not judged: the host does not list its libraries
  2     ort-1.30.0-cpu         1.30.0  cpu         x86_64  argument  yes   onnxruntime  the newest ONNX Runtime: 1.30.0 (ort-1.17.3-cpu: 1.17.3); its 8 needed libraries are not judged: the host does not list its libraries
  3     ort-1.17.3-cpu         1.17.3  cpu         x86_64  argument  yes                last of those that fit; its 9 needed libraries are not judged: the host does not list its libraries; not yet verified by loading ('ortkit bundle verify' on this host loads it)
  -     ort-1.30.0-cpu-avx512  1.30.0  cpu-avx512  x86_64  argument  no    cpu level    needs AVX-512 F, AVX-512 BW, AVX-512 DQ, AVX-512 VL, which this CPU lacks

choice     ort-1.30.0-cpu-avx2
why        the highest CPU level this host supports: avx2 (ort-1.30.0-cpu: any CPU), which it descends from
EOF2
expect_same want <out

# The same account as JSON: rank, the deciding step, the order.
expect_exit 0 "$ORTKIT" bundle choose --host "$hosts/sapphire-rapids.json" --json "$PWD/b"
/usr/bin/python3 - <<'PY'
import json
d = json.load(open("out"))
got = [(c["name"], c["fits"], c["rank"], c["step"]) for c in d["candidates"]]
assert got == [("ort-1.30.0-cpu-avx512", True, 1, "cpu level"), ("ort-1.30.0-cpu-avx2", True, 2, "cpu level"),
               ("ort-1.30.0-cpu", True, 3, "onnxruntime"), ("ort-1.17.3-cpu", True, 4, "")], got
assert d["chosen"] == "ort-1.30.0-cpu-avx512" and "descends from" in d["reason"], d
assert d["overrides"] == {"ORTKIT_FORCE_ISA": None, "ORTKIT_IGNORE_NEEDS": None, "ORTKIT_FORCE_CUDA": None,
                          "ORTKIT_FORCE_SM": None}, d["overrides"]
PY

# Overrides: a CPU taken as AVX2 only; shown in the order and the header.
ORTKIT_FORCE_ISA=avx2 expect_exit 0 "$ORTKIT" bundle choose --host "$hosts/sapphire-rapids.json" "$PWD/b"
expect_in out "overrides  ORTKIT_FORCE_ISA=avx2"
expect_in out "needs AVX-512 F, AVX-512 BW, AVX-512 DQ, AVX-512 VL, which this CPU lacks (ORTKIT_FORCE_ISA=avx2)"
expect_in out "choice     ort-1.30.0-cpu-avx2"
expect_in out "CPU taken as avx2 (ORTKIT_FORCE_ISA)"

# A host that lists its libraries, without libstdc++: nothing loads there.
/usr/bin/python3 - "$hosts/laptop-avx2.json" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))
h["os"]["libraries"] = ["libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1",
                        "libgcc_s.so.1", "ld-linux-x86-64.so.2"]
json.dump(h, open("nolibstdcxx.json", "w"))
PY
expect_exit 1 "$ORTKIT" bundle choose --host nolibstdcxx.json "$PWD/b"
expect_in out "7 libraries"
expect_in out "no    loadable  needs libstdc++.so.6, not in the bundle, not on this host"
expect_in out "choice     none"
ORTKIT_IGNORE_NEEDS=libraries expect_exit 0 "$ORTKIT" bundle choose --host nolibstdcxx.json "$PWD/b"
expect_in out "needs libstdc++.so.6, not in the bundle, not on this host (ignored: ORTKIT_IGNORE_NEEDS)"

# The bundle imported without loading: verify loads it in a child process
# (ortkit-probe) and records it; then it carries no caveat.
expect_exit 0 "$ORTKIT" bundle verify "$PWD/b/ort-1.17.3-cpu"
expect_in out "loading    loaded in a child process: ONNX Runtime 1.17.3, "
expect_in out "recorded in its manifest"
expect_in "$PWD/b/ort-1.17.3-cpu/manifest.json" '"verified_by_loading":	true'
expect_exit 0 "$ORTKIT" bundle verify "$PWD/b/ort-1.17.3-cpu"
expect_not_in out "loading "
expect_exit 0 "$ORTKIT" bundle choose --host "$hosts/laptop-avx2.json" "$PWD/b"
expect_not_in out "not yet verified"
# A load that fails in the child is reported, and the caller lives on.
expect_exit 1 "$ORTKIT" bundle probe "$STUBS/libstub_no_symbol.so"
expect_in err "OrtGetApiBase"
