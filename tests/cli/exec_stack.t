# A runtime that asks for an executable stack (PT_GNU_STACK executable, as
# one linked by Debian 11's ld from objects without .note.GNU-stack is):
# import records it (needs.exec_stack), `bundle show` says so, and a host
# whose glibc refuses such a library (2.41 and newer) does not get it.
# The library is 1.30.0 with that one flag set in a copy.

mkdir rt
cp "$RT_NEW/libonnxruntime.so.1" rt/
/usr/bin/python3 - rt/libonnxruntime.so.1 <<'PY'
import struct, sys
PT_GNU_STACK, PF_X = 0x6474E551, 1
with open(sys.argv[1], "r+b") as f:
    eh = f.read(64)
    phoff, = struct.unpack_from("<Q", eh, 32)
    phentsize, phnum = struct.unpack_from("<HH", eh, 54)
    for i in range(phnum):
        f.seek(phoff + i * phentsize)
        p_type, p_flags = struct.unpack("<II", f.read(8))
        if p_type == PT_GNU_STACK:
            f.seek(phoff + i * phentsize + 4)
            f.write(struct.pack("<I", p_flags | PF_X))
            break
    else:
        sys.exit("no PT_GNU_STACK")
PY

# Imported without loading: this host's glibc may refuse it too.
expect_exit 0 "$ORTKIT" bundle import rt --name xs --version 1.30.0 --no-load --into "$PWD/b"
expect_exit 0 "$ORTKIT" bundle import "$RT_NEW" --name plain --no-load --into "$PWD/b"
/usr/bin/python3 - <<'PY'
import json
assert json.load(open("b/xs/manifest.json"))["needs"]["exec_stack"] is True
assert "exec_stack" not in json.load(open("b/plain/manifest.json"))["needs"]
PY
expect_exit 0 "$ORTKIT" bundle show "$PWD/b/xs"
expect_in out "and an executable stack, which glibc 2.41 and newer refuse to a loaded"
expect_exit 0 "$ORTKIT" bundle show "$PWD/b/plain"
expect_not_in out "executable stack"
expect_exit 0 "$ORTKIT" bundle show --json "$PWD/b/xs"
/usr/bin/python3 -c 'import json; assert json.load(open("out"))["needs"]["exec_stack"] is True'

# glibc 2.39 loads it; 2.41 does not, and says why.
sed 's/"glibc": "2.39"/"glibc": "2.41"/' "$SRC/tests/hosts/laptop-avx2.json" >host-2.41.json
expect_exit 0 "$ORTKIT" bundle choose --host "$SRC/tests/hosts/laptop-avx2.json" --json "$PWD/b"
/usr/bin/python3 - <<'PY'
import json
d = json.load(open("out"))
assert all(c["fits"] for c in d["candidates"]), d["candidates"]
PY
expect_exit 0 "$ORTKIT" bundle choose --host host-2.41.json "$PWD/b"
expect_in out "choice     plain"
expect_in out "needs an executable stack, which glibc 2.41 and newer (this host has 2.41) refuse"

# Verify reads the needs again from the files (issue 36): a manifest without
# exec_stack (every one written before the key, or a lying one) is refused,
# saying how to mend it, and so is one that understates glibc or a library.
expect_exit 0 "$ORTKIT" bundle verify --no-load "$PWD/b/xs"
cp -r b/xs xs-old
/usr/bin/python3 - xs-old/manifest.json <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
del m["needs"]["exec_stack"]
json.dump(m, open(sys.argv[1], "w"), indent=2)
PY
expect_exit 1 "$ORTKIT" bundle verify --no-load "$PWD/xs-old"
expect_in out "asks for an executable stack, which the manifest's needs do not say"
expect_in out "import the bundle again to record it"
# Such a bundle is no longer chosen for a 2.41 host: it does not verify.
expect_exit 0 "$ORTKIT" bundle choose --host host-2.41.json "$PWD/xs-old" "$PWD/b/plain"
expect_in out "choice     plain"
cp -r b/plain plain-lies
/usr/bin/python3 - plain-lies/manifest.json <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["needs"]["glibc"] = "2.2.5"
m["needs"]["libraries"] = [l for l in m["needs"]["libraries"] if l != "libdl.so.2"]
json.dump(m, open(sys.argv[1], "w"), indent=2)
PY
expect_exit 1 "$ORTKIT" bundle verify --no-load "$PWD/plain-lies"
expect_in out "needs GLIBC_2.28, the manifest's needs.glibc says GLIBC_2.2.5"
expect_in out "needs libdl.so.2, which the manifest's needs.libraries do not list"
