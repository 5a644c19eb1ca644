# bundle_fetch_github.t - `ortkit bundle fetch VERSION --from github`:
# Microsoft's release tarball from a GitHub release, checked against the
# SHA-256 ortkit carries for it or the one given with --sha256.  The releases
# are Debian's nginx on loopback (TLS, a test CA) serving, at
# $ORTKIT_GITHUB_RELEASES/vVERSION/FILE, a tarball laid out as Microsoft's
# (onnxruntime-linux-<arch>-1.30.0/lib/libonnxruntime.so*, include/, LICENSE)
# holding set-up's real 1.30.0 library, and where scripts/fetch_cuda.sh has
# filled the download cache, a GPU release made of the real 1.29.0 CUDA 13
# build.  Nothing goes past loopback.
set -eu
U="${ORTKIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ortkit}/downloads/unpacked"
. "$SRC/tests/cli/repo_lib.sh"
if ! have_nginx; then
    echo "skipped: nginx or openssl is not installed" >&2
    exit 77
fi
case $(uname -m) in
x86_64) gh_arch=x64 ;;
aarch64) gh_arch=aarch64 ;;
*) echo "skipped: Microsoft's releases are for x86-64 and aarch64 only" >&2; exit 77 ;;
esac
trap 'stop_nginx' EXIT
top=onnxruntime-linux-$gh_arch-1.30.0
file=$top.tgz
downloads="$XDG_CACHE_HOME/ortkit/downloads"

# The fixture release, as Microsoft lays it out.
mkdir -p "rel/$top/lib" "rel/$top/include" "gh/v1.30.0" "gh/v1.99.0"
cp "$RT_NEW/libonnxruntime.so.1" "rel/$top/lib/libonnxruntime.so.1.30.0"
ln -s libonnxruntime.so.1.30.0 "rel/$top/lib/libonnxruntime.so.1"
ln -s libonnxruntime.so.1 "rel/$top/lib/libonnxruntime.so"
cp "$SRC/deps/ort-headers/include/onnxruntime_c_api.h" "rel/$top/include/" 2>/dev/null ||
    printf '/* headers */\n' >"rel/$top/include/onnxruntime_c_api.h"
printf 'MIT License\n' >"rel/$top/LICENSE"
tar -czf "gh/v1.30.0/$file" -C rel "$top"
sha=$(sha256sum "gh/v1.30.0/$file" | cut -d' ' -f1)
NGINX_PROBE=v1.30.0/$file start_nginx "$PWD/gh"
export ORTKIT_GITHUB_RELEASES="$URL"

# Fetched with the fixture's SHA-256, checked, imported, verified; the
# download leaves the cache once imported.
expect_exit 0 "$ORTKIT" bundle fetch 1.30.0 --from github --sha256 "$sha" --ca-file tls/ca.pem
expect_in out "fetched    onnxruntime 1.30.0 (GitHub, SHA-256 checked against --sha256)"
expect_in out "imported   ort-1.30.0-cpu"
expect_in out "into       $XDG_DATA_HOME/ortkit/bundles/ort-1.30.0-cpu"
expect_in err "from GitHub"
expect_in nginx/logs/access.log "\"GET /v1.30.0/$file "
expect_exit 0 "$ORTKIT" bundle verify "$XDG_DATA_HOME/ortkit/bundles/ort-1.30.0-cpu"
[ -f "$XDG_DATA_HOME/ortkit/bundles/ort-1.30.0-cpu/lib/libonnxruntime.so.1.30.0" ]
[ -z "$(ls -A "$downloads")" ] || { echo "FAIL: the download stayed in the cache" >&2; exit 1; }

# An upper-case hash is the same hash; --force replaces; --json.
upper=$(printf '%s' "$sha" | tr a-f A-F)
expect_exit 0 "$ORTKIT" bundle fetch 1.30.0 --from github --sha256 "$upper" --ca-file tls/ca.pem --force --json
expect_in out '"name":	"ort-1.30.0-cpu"'

# A transfer broken half-way resumes from the download cache (a Range
# request, answered 206).
mkdir -p "$downloads"
half=$(( $(stat -c %s "gh/v1.30.0/$file") / 2 ))
head -c "$half" "gh/v1.30.0/$file" >"$downloads/$(printf '%.16s' "$sha")-$file"
expect_exit 0 "$ORTKIT" bundle fetch 1.30.0 --from github --sha256 "$sha" --ca-file tls/ca.pem --into resumed
expect_in nginx/logs/access.log "\"GET /v1.30.0/$file HTTP/1.1\" 206 "
expect_exit 0 "$ORTKIT" bundle verify resumed/ort-1.30.0-cpu

# Without --sha256, ortkit's own table decides: Microsoft's real tarball is
# not the fixture, so it is refused, and nothing is kept or imported.
expect_exit 1 "$ORTKIT" bundle fetch 1.30.0 --from github --ca-file tls/ca.pem --into table
expect_in err "ortkit's table of Microsoft's releases"
expect_in err "refused"
[ ! -e table/ort-1.30.0-cpu ]
[ -z "$(ls -A "$downloads")" ] || { echo "FAIL: a refused download stayed in the cache" >&2; exit 1; }

# A wrong --sha256 is refused the same way.
zeros=0000000000000000000000000000000000000000000000000000000000000000
expect_exit 1 "$ORTKIT" bundle fetch 1.30.0 --from github --sha256 "$zeros" --ca-file tls/ca.pem --into wrong
expect_in err "has SHA-256 $(printf '%.16s' "$sha")..., the SHA-256 given (--sha256) says 0000000000000000...: the archive was changed or damaged; refused"
[ -z "$(ls -A wrong 2>/dev/null)" ] || { echo "FAIL: a wrong hash left $(ls -A wrong)" >&2; exit 1; }
[ -z "$(ls -A "$downloads")" ] || { echo "FAIL: a wrong download stayed in the cache" >&2; exit 1; }
expect_exit 1 "$ORTKIT" bundle fetch 1.30.0 --from github --sha256 abc --ca-file tls/ca.pem
expect_in err "'abc' is not a SHA-256 (64 hex digits)"

# A release ortkit knows no hash of is refused before anything is asked of
# the server; the GPU releases' names follow Microsoft's.
expect_exit 1 "$ORTKIT" bundle fetch 1.99.0 --from github --ca-file tls/ca.pem
expect_in err "ortkit: ortkit knows no SHA-256 of onnxruntime-linux-$gh_arch-1.99.0.tgz (it carries those of Microsoft's releases 1.17 to 1.30 that it could source): pass the tarball's SHA-256, from a source you trust, with --sha256 HEX"
expect_not_in nginx/logs/access.log "1.99.0"
if [ "$gh_arch" = x64 ]; then
    expect_exit 1 "$ORTKIT" bundle fetch 1.99.0 --from github --gpu cuda13
    expect_in err "onnxruntime-linux-x64-gpu_cuda13-1.99.0.tgz"
    expect_exit 1 "$ORTKIT" bundle fetch 1.26.9 --from github --gpu cuda12
    expect_in err "onnxruntime-linux-x64-gpu-1.26.9.tgz"
fi
# With --sha256 it is asked for; the server has none.
expect_exit 1 "$ORTKIT" bundle fetch 1.99.0 --from github --sha256 "$zeros" --ca-file tls/ca.pem
expect_in err "the server answers 404"
expect_exit 1 "$ORTKIT" bundle fetch '../1.30.0' --from github --sha256 "$sha"
expect_in err "'../1.30.0' is not an ONNX Runtime version"

# Hostile tarballs, each with its own --sha256 and --url: a link that leads
# out, and a path through "..".  Refused; nothing written outside, nothing
# imported, nothing left under TMPDIR.
/usr/bin/python3 - "$top" gh/v1.99.0 <<'PY'
import io, sys, tarfile
top, out = sys.argv[1], sys.argv[2]
def entry(t, name, kind=tarfile.REGTYPE, link="", data=b"x"):
    ti = tarfile.TarInfo(name)
    ti.type, ti.linkname = kind, link
    ti.size = len(data) if kind == tarfile.REGTYPE else 0
    t.addfile(ti, io.BytesIO(data) if kind == tarfile.REGTYPE else None)
with tarfile.open(out + "/linkout.tgz", "w:gz") as t:
    entry(t, top + "/", tarfile.DIRTYPE)
    entry(t, top + "/LICENSE", tarfile.SYMTYPE, "/etc/passwd")
with tarfile.open(out + "/dotdot.tgz", "w:gz") as t:
    entry(t, top + "/", tarfile.DIRTYPE)
    entry(t, top + "/../../evil")
PY
mkdir -p tmp
for bad in linkout dotdot; do
    bsha=$(sha256sum "gh/v1.99.0/$bad.tgz" | cut -d' ' -f1)
    expect_exit 1 env TMPDIR="$PWD/tmp" "$ORTKIT" bundle fetch 1.30.0 --from github --sha256 "$bsha" \
        --url "$URL/v1.99.0/$bad.tgz" --ca-file tls/ca.pem --into hostile
    expect_in err "cannot unpack '$URL/v1.99.0/$bad.tgz'"
    [ ! -e hostile/ort-1.30.0-cpu ] && [ ! -e evil ] && [ ! -e tmp/evil ]
    [ -z "$(ls -A tmp)" ] || { echo "FAIL: $bad left $(ls -A tmp) in TMPDIR" >&2; exit 1; }
done
expect_in err "leaves the bundle: '$top/../../evil'"

# --gpu, --sha256 and --url are GitHub's; --registry is npm's.
expect_exit 2 "$ORTKIT" bundle fetch 1.30.0 --gpu cuda13
expect_in err "--gpu, --sha256 and --url are for --from github"
expect_exit 2 "$ORTKIT" bundle fetch 1.30.0 --from github --registry "$URL"
expect_in err "--registry is for --from npm"
expect_exit 2 "$ORTKIT" bundle fetch 1.30.0 --from ftp

# A GPU release (--gpu cuda13) is imported with its providers, as Microsoft's
# tarball holds them: the real 1.29.0 CUDA 13 build, where the cache has it.
gpu_core="$U/core-node-1.29.0/package/bin/napi-v6/linux/x64/libonnxruntime.so.1"
gpu_libs="$U/gpu-1.29.0/package/Plugins/Linux/x64"
if [ "$gh_arch" = x64 ] && [ -f "$gpu_core" ] && [ -f "$gpu_libs/libonnxruntime_providers_cuda.so" ]; then
    gtop=onnxruntime-linux-x64-gpu_cuda13-1.29.0
    mkdir -p "rel/$gtop/lib" "rel/$gtop/include" gh/v1.29.0
    cp "$gpu_core" "rel/$gtop/lib/libonnxruntime.so.1.29.0"
    ln -s libonnxruntime.so.1.29.0 "rel/$gtop/lib/libonnxruntime.so.1"
    ln -s libonnxruntime.so.1 "rel/$gtop/lib/libonnxruntime.so"
    cp "$gpu_libs"/libonnxruntime_providers_*.so "rel/$gtop/lib/"
    cp "rel/$top/include/onnxruntime_c_api.h" "rel/$gtop/include/"
    tar -cf - -C rel "$gtop" | gzip -1 >"gh/v1.29.0/$gtop.tgz"
    gsha=$(sha256sum "gh/v1.29.0/$gtop.tgz" | cut -d' ' -f1)
    expect_exit 0 "$ORTKIT" bundle fetch 1.29.0 --from github --gpu cuda13 --sha256 "$gsha" \
        --ca-file tls/ca.pem --into gpu
    expect_in out "fetched    onnxruntime 1.29.0 cuda13 (GitHub, SHA-256 checked against --sha256)"
    expect_in out "runtime    ONNX Runtime 1.29.0 (C API 29), variant cuda13, x86_64"
    expect_in nginx/logs/access.log "\"GET /v1.29.0/$gtop.tgz "
    [ -f gpu/ort-1.29.0-cuda13/lib/libonnxruntime_providers_cuda.so ]
else
    echo "note: no GPU material in the download cache (scripts/fetch_cuda.sh); the GPU case is left out" >&2
fi
