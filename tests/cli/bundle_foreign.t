# Bundles for other machines, imported without loading: the arm64 library of
# onnxruntime-node 1.30.0 and Debian unstable's libonnxruntime1.23 (needs
# glibc 2.43 and system libraries it does not carry), both from the download
# cache (scripts/setup.sh, scripts/fetch_unstable_ort.sh).  Skipped (77) when
# they are not there.

cache="${ORTKIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ortkit}/downloads"
tgz="$cache/onnxruntime-node-1.30.0.tgz"
deb="$cache/libonnxruntime1.23_1.23.2+dfsg-6.1_amd64.deb"
if [ ! -s "$tgz" ] || [ ! -s "$deb" ]; then
    echo "skip: $tgz or $deb is not in the download cache" >&2
    exit 77
fi
[ "$(uname -m)" = x86_64 ] || { echo "skip: the verdicts below are an x86-64 host's" >&2; exit 77; }
tar -xzf "$tgz" --wildcards 'package/bin/napi-v6/linux/arm64/libonnxruntime.so*'
dpkg-deb -x "$deb" deb

# arm64: the version from its read-only data, nothing loaded.
expect_exit 0 "$ORTKIT" bundle import package/bin/napi-v6/linux/arm64 --into "$PWD/b"
expect_in out "imported   ort-1.30.0-cpu-aarch64"
expect_in out "runtime    ONNX Runtime 1.30.0 (C API 30), variant cpu, aarch64"
expect_in out "version    from its read-only data (its name says only the major version)"
expect_in out "loaded     no: not yet verified by loading"
expect_in out "why        this host cannot load it: built for aarch64; this host is x86_64"
# 1.23 from Debian unstable: file name and data agree; too new a glibc to load here.
expect_exit 0 "$ORTKIT" bundle import deb/usr/lib/x86_64-linux-gnu --into "$PWD/b"
expect_in out "imported   ort-1.23.2-cpu"
expect_in out "version    from its file name and its read-only data"
expect_in out "loaded     no"
expect_in out "why        this host cannot load it: needs glibc 2.43"
expect_in "$PWD/b/ort-1.23.2-cpu/manifest.json" '"glibc":	"2.43"'
expect_in "$PWD/b/ort-1.23.2-cpu/manifest.json" '"libXNNPACK.so.0.20241108"'
# A --version the binary contradicts is refused; nothing is imported.
expect_exit 1 "$ORTKIT" bundle import deb/usr/lib/x86_64-linux-gnu --into "$PWD/c" --version 1.23.1
expect_in err "--version 1.23.1 contradicts"
expect_in err "holds the version 1.23.2"

# The verdicts: neither fits here, each saying why.
expect_exit 0 "$ORTKIT" bundle list
expect_exit 1 "$ORTKIT" bundle choose "$PWD/b"
expect_in out "no    architecture  built for aarch64; this host is x86_64"
expect_in out "needs glibc 2.43, this host has"
# Past the C library, the libraries the host lacks are named.
ORTKIT_IGNORE_NEEDS=glibc expect_exit 1 "$ORTKIT" bundle choose "$PWD/b"
expect_in out "needs libXNNPACK.so.0.20241108"
expect_in out "not in the bundle, not on this host"
# verify checks the files and says why it does not load them here.
expect_exit 0 "$ORTKIT" bundle verify "$PWD/b/ort-1.30.0-cpu-aarch64"
expect_in out "not yet verified by loading: this host cannot load it (built for aarch64; this host is x86_64)"
# A described arm64 host that lists what the library needs: it fits there.
/usr/bin/python3 - "$SRC/tests/hosts/graviton3.json" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))
h["os"]["libraries"] = ["libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1",
                        "libgcc_s.so.1", "libstdc++.so.6", "ld-linux-aarch64.so.1"]
json.dump(h, open("arm.json", "w"))
PY
expect_exit 0 "$ORTKIT" bundle choose --host arm.json "$PWD/b"
expect_in out "choice     ort-1.30.0-cpu-aarch64"
expect_in out "not yet verified by loading"
