# doctor.t - `ortkit doctor`: the host, every bundle with fit or not and why,
# the choice and why, integrity, and a live run of the runtime it loads.
set -eu
export XDG_DATA_HOME="$PWD/xdg" XDG_DATA_DIRS="$PWD/sys" ORTKIT_PATH="$PWD/path"
unset ORTKIT_BUNDLE
H="$SRC/tests/hosts"

expect_exit 0 "$ORTKIT" doctor --help
expect_in out "usage: ortkit doctor [--json] [--host FILE.json] [--bundle NAME]"
expect_exit 2 "$ORTKIT" doctor extra
expect_in err "unexpected argument 'extra'"
expect_exit 2 "$ORTKIT" doctor --bogus

# Set-up's two runtimes as bundles on ORTKIT_PATH.  They carry the names of
# the bundles `make build` puts in deps/bundles, so those (when present) are
# shadowed and the choice below is the same either way.
"$ORTKIT" bundle import "$RT_OLD" --name ort-1.17.3-cpu --into "$PWD/path" >/dev/null
"$ORTKIT" bundle import "$RT_NEW" --name ort-1.30.0-cpu --into "$PWD/path" >/dev/null
default_bundles=$(cd "$RT_NEW/../.." && pwd)/bundles

expect_exit 0 "$ORTKIT" doctor
expect_lines err 0
expect_in out "ortkit doctor: ortkit 0.1.0"
expect_in out "Host"
expect_in out "  arch       x86_64"
expect_in out "  features   "
expect_in out "  gpus       "
expect_in out "Bundle directories, searched in this order"
expect_in out "  FROM         STATE    BUNDLES  DIRECTORY"
expect_in out "  ORTKIT_PATH  ok             2  $PWD/path"
expect_in out "  user         missing        0  $PWD/xdg/ortkit/bundles"
expect_in out "  system       missing        0  $PWD/sys/ortkit/bundles"
expect_in out "  default      "
expect_in out "  RANK  NAME            ORT     VARIANT  ARCH    FROM         FITS  STEP"
expect_in out "  1     ort-1.30.0-cpu  1.30.0  cpu      x86_64  ORTKIT_PATH  yes   onnxruntime  the newest ONNX Runtime: 1.30.0 (ort-1.17.3-cpu: 1.17.3)"
expect_in out "  2     ort-1.17.3-cpu  1.17.3  cpu      x86_64  ORTKIT_PATH  yes"
if [ -e "$default_bundles/ort-1.30.0-cpu/manifest.json" ]; then
    expect_in out "ort-1.30.0-cpu  1.30.0  cpu      x86_64  default      no    shadowed     shadowed by the bundle of the same name in '$PWD/path/ort-1.30.0-cpu'"
fi
expect_in out "  bundle     ort-1.30.0-cpu ($PWD/path/ort-1.30.0-cpu)"
expect_in out "  why        the newest ONNX Runtime: 1.30.0 (ort-1.17.3-cpu: 1.17.3)"
expect_in out "  integrity  ok: 18 files match the manifest (sizes, SHA-256), RUNPATH \$ORIGIN"
expect_in out "  version    ONNX Runtime 1.30.0"
expect_in out "  path       $PWD/path/ort-1.30.0-cpu/lib/libonnxruntime.so.1.30.0"
expect_in out "  found by   bundle ort-1.30.0-cpu"
expect_in out "  PROVIDER                   RESULT"
expect_in out "  CPUExecutionProvider       ok"
expect_in out "Verdict: ok: ONNX Runtime 1.30.0 (bundle ort-1.30.0-cpu) works on this host"
# The search as the load acted on it: every place, the one that decided.
expect_in out "Search, in order: the first place that decides is what gets loaded"
expect_in out "  PLACE            RESULT       DETAIL"
expect_in out "  options          skipped      not set"
expect_in out "  ORTKIT_RUNTIME   skipped      not set"
expect_in out "  bundles          taken        ort-1.30.0-cpu: the newest ONNX Runtime: 1.30.0"
expect_in out "  default          not reached  "
# The system step names the file ld.so would load, or that there is none.
grep -Eq "^  system +not reached +(would find /.*libonnxruntime\.so|no libonnxruntime\.so\.1 or libonnxruntime\.so where the dynamic loader looks)" out ||
    { echo "FAIL: doctor's system step" >&2; grep "  system " out >&2; exit 1; }
# Every variable of ortkit's table that is set, escaped, in a section of its
# own after the Environment section (whose list stays as it was).
expect_in out "Variables ortkit reads, those set"
expect_in out "  XDG_DATA_HOME = $PWD/xdg"
expect_in out "  ORTKIT_PATH = $PWD/path"
expect_not_in out "  ORTKIT_FORCE_ISA = "
sections=$(grep -E '^(Host|Environment|Variables ortkit reads|Bundle directories|Bundles|Choice|Search|Runtime)' out | cut -c1-12 | tr '\n' '|')
[ "$sections" = "Host|Environment|Variables or|Bundle direc|Bundles|Choice|Search, in o|Runtime|" ] ||
    { echo "FAIL: doctor's sections: $sections" >&2; exit 1; }
expect_exit 0 env ORTKIT_GPU_PROBE_TIMEOUT="$(printf '77\t')" "$ORTKIT" doctor
expect_in out "  ORTKIT_GPU_PROBE_TIMEOUT = 77\\t"
# ORTKIT_RUNTIME decides before the bundles, and the report says so.
expect_exit 0 env ORTKIT_RUNTIME="$RT_OLD" "$ORTKIT" doctor
expect_in out "  ORTKIT_RUNTIME   taken        "
expect_in out "  bundles          not reached  would choose ort-1.30.0-cpu: "
expect_in out "  found by   ORTKIT_RUNTIME"
expect_in out "  note       ORTKIT_RUNTIME decided: it comes before any bundle"
expect_in out "  version    ONNX Runtime 1.17.3"

expect_exit 0 "$ORTKIT" doctor --json
/usr/bin/python3 - "$PWD" <<'EOF'
import json, sys
d = json.load(open("out"))
assert d["ok"] is True and d["ortkit"] == "0.1.0", d
assert d["host"]["arch"] == "x86_64", d["host"]
mine = [b for b in d["bundles"] if b["source"] == "ORTKIT_PATH"]
assert [(b["name"], b["fits"], b["chosen"], b["rank"], b["step"]) for b in mine] == [
    ("ort-1.30.0-cpu", True, True, 1, "onnxruntime"), ("ort-1.17.3-cpu", True, False, 2, "")], mine
assert d["choice"]["bundle"] == "ort-1.30.0-cpu" and d["choice"]["integrity_ok"] is True, d["choice"]
assert d["runtime"]["source"] == "bundle ort-1.30.0-cpu", d["runtime"]
places = [(p["source"], p["result"]) for p in d["search"]]
assert [p[0] for p in places] == ["options", "ORTKIT_RUNTIME", "bundles", "default",
                                  "ONNXRUNTIME_DIR", "pkg-config", "system"], places
assert [p for p in places if p[1] == "taken"] == [("bundles", "taken")], places
# All of ortkit's variables, set or not, with what each does and who reads it.
v = {x["name"]: x for x in d["variables"]}
assert {"ORTKIT_RUNTIME", "ORTKIT_PATH", "HOME", "XDG_CACHE_HOME", "LD_LIBRARY_PATH",
        "ORTKIT_GPU_PROBE", "CUDA_HOME", "PATH"} <= set(v), sorted(v)
assert v["ORTKIT_PATH"]["value"] == sys.argv[1] + "/path", v["ORTKIT_PATH"]
assert v["ORTKIT_FORCE_ISA"]["value"] is None, v["ORTKIT_FORCE_ISA"]
assert all(x["what"] and x["read_by"] for x in d["variables"]), d["variables"]
assert d["environment"]["ORTKIT_PATH"] == sys.argv[1] + "/path", d["environment"]
cpu = [c for c in d["checks"] if c["provider"] == "CPUExecutionProvider"]
assert cpu and cpu[0]["result"] == "ok" and cpu[0]["seconds"] > 0, d["checks"]
for c in d["checks"]:
    assert c["result"] in ("ok", "not tried"), c
EOF

# Pinned, by name or by version: that bundle is loaded.
expect_exit 0 "$ORTKIT" doctor --bundle ort-1.17.3-cpu
expect_in out "Choice (pinned: ort-1.17.3-cpu)"
expect_in out "  why        pinned by name; "
expect_in out "  found by   bundle ort-1.17.3-cpu"
expect_in out "  version    ONNX Runtime 1.17.3"
expect_exit 0 env ORTKIT_BUNDLE=1.17 "$ORTKIT" doctor
expect_in out "  why        pinned to ONNX Runtime 1.17; "
expect_in out "  found by   bundle ort-1.17.3-cpu"
# A pin that names nothing: a report all the same, then one line saying why.
expect_exit 1 "$ORTKIT" doctor --bundle nosuch
expect_lines err 1
expect_in err "ortkit: cannot use bundle 'nosuch' (from the options)"
expect_in out "  bundle     none"
expect_in out "no bundle is named 'nosuch'"

# Described machines: the choice for them; nothing is loaded.
expect_exit 0 "$ORTKIT" doctor --host "$H/laptop-avx2.json"
expect_in out "Host described in $H/laptop-avx2.json"
expect_in out "  1     ort-1.30.0-cpu  1.30.0  cpu      x86_64  ORTKIT_PATH  yes"
expect_in out "  not loaded: the host is a described one, not this machine"
expect_in out "Verdict: a bundle fits the described host"
expect_exit 1 "$ORTKIT" doctor --host "$H/graviton3.json"
expect_in out "ort-1.30.0-cpu  1.30.0  cpu      x86_64  ORTKIT_PATH  no"
expect_in out "built for x86_64; this host is aarch64"
expect_in err "ortkit: none of the "
expect_exit 1 "$ORTKIT" doctor --host "$H/nosuch.json"
expect_lines err 1
expect_in err "nosuch.json"
# A described host with a feature ortkit does not know: refused, naming it.
echo '{"schema": 1, "arch": "x86_64", "cpu": {"features": ["avx2", "avx512_bf16"]}}' >typo.json
expect_exit 1 "$ORTKIT" doctor --host typo.json
expect_lines err 1
expect_in err "avx512_bf16"
expect_lines out 0

# What the binaries need of the C and C++ libraries, recorded at import: a
# bundle whose manifest says it needs a newer glibc or libstdc++ than the
# host has is refused, saying which (on a described host and on this one).
m=path/ort-1.30.0-cpu/manifest.json
expect_in_file() { grep -qF -- "$2" "$1" || { echo "FAIL: $1 lacks '$2'" >&2; exit 1; }; }
expect_in_file "$m" '"needs":'
sed -i 's/\("glibc":[[:space:]]*\)"2.28"/\1"2.43"/' "$m"
expect_exit 0 "$ORTKIT" doctor --host "$H/laptop-avx2.json"
expect_in out "ort-1.30.0-cpu  1.30.0  cpu      x86_64  ORTKIT_PATH  no"
expect_in out "needs glibc 2.43, this host has 2.39"
expect_in out "  1     ort-1.17.3-cpu"
here=$(getconf GNU_LIBC_VERSION | sed 's/^glibc //')
expect_exit 0 "$ORTKIT" doctor
expect_in out "ort-1.30.0-cpu  1.30.0  cpu      x86_64  ORTKIT_PATH  no"
expect_in out "needs glibc 2.43, this host has $here"
expect_in out "  found by   bundle ort-1.17.3-cpu"
sed -i 's/\("glibc":[[:space:]]*\)"2.43"/\1"2.28"/; s/\("glibcxx":[[:space:]]*\)"3.4.22"/\1"3.4.99"/' "$m"
expect_exit 0 "$ORTKIT" doctor --host "$H/laptop-avx2.json"
expect_in out "ort-1.30.0-cpu  1.30.0  cpu      x86_64  ORTKIT_PATH  no"
expect_in out "needs GLIBCXX_3.4.99 (libstdc++), this host has 3.4.33"
# A described host that does not say which libstdc++ it has is not refused for it.
expect_exit 0 "$ORTKIT" doctor --host "$H/sapphire-rapids.json"
expect_in out "  1     ort-1.30.0-cpu  1.30.0  cpu      x86_64  ORTKIT_PATH  yes"
sed -i 's/\("glibcxx":[[:space:]]*\)"3.4.99"/\1"3.4.22"/' "$m"

# A truncated library is never chosen nor loaded: the other bundle is, and
# doctor says why the first does not fit.
truncate -s 100 path/ort-1.30.0-cpu/lib/libonnxruntime.so.1.30.0
expect_exit 0 "$ORTKIT" doctor
expect_in out "ort-1.30.0-cpu  1.30.0  cpu      x86_64  ORTKIT_PATH  no"
expect_in out "damaged: lib/libonnxruntime.so.1.30.0 is 100 bytes, the manifest says 45828512 (truncated)"
expect_in out "  1     ort-1.17.3-cpu"
expect_in out "  found by   bundle ort-1.17.3-cpu"
# A changed byte in the best bundle left: it fails verification, so it is
# never loaded; the search goes on, and doctor exits 1 saying so.
printf X | dd of=path/ort-1.17.3-cpu/include/onnxruntime_c_api.h bs=1 seek=10 conv=notrunc 2>/dev/null
expect_exit 1 "$ORTKIT" doctor
expect_in out "ort-1.17.3-cpu  1.17.3  cpu      x86_64  ORTKIT_PATH  no"
expect_in out "damaged: failed verification: include/onnxruntime_c_api.h: SHA-256"
expect_not_in out "found by   bundle ort-1.17.3-cpu"
expect_in err "ortkit: bundle 'ort-1.17.3-cpu' failed verification and was passed over; see the report"
# Pinned, it is refused outright: nothing else is loaded instead.
expect_exit 1 "$ORTKIT" doctor --bundle ort-1.17.3-cpu
expect_in out "  error      none: cannot use bundle 'ort-1.17.3-cpu' (from the options): bundle 'ort-1.17.3-cpu' does not fit this host: damaged: failed verification"
expect_exit 1 env ORTKIT_BUNDLE=ort-1.17.3-cpu "$ORTKIT" version
expect_in err "failed verification: include/onnxruntime_c_api.h: SHA-256"
