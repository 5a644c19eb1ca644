# bundle_fetch.t - `ortkit bundle fetch VERSION`: Microsoft's release from
# the npm registry, checked against the registry's published SHA-512.  The
# registry is Debian's nginx on loopback (TLS, a test CA) serving a fixture
# made like npm's (npm_lib.sh: onnxruntime-node's tarball holding the real
# 1.17.3 library, decoys beside it, and the version's metadata JSON).
# Nothing goes past loopback.
set -eu
. "$SRC/tests/cli/repo_lib.sh"
. "$SRC/tests/cli/npm_lib.sh"
if ! have_nginx; then
    echo "skipped: nginx or openssl is not installed" >&2
    exit 77
fi
[ -n "$npm_arch" ] || { echo "skipped: npm's releases are for x86-64 and aarch64 only" >&2; exit 77; }
trap 'stop_nginx; rm -rf "$work"' EXIT
lib=$(find "$RT_OLD" -maxdepth 1 -type f -name "libonnxruntime.so.1.*" | head -n 1)
npm_package 1.17.3 "$RT_OLD"
NGINX_PROBE=onnxruntime-node/-/onnxruntime-node-1.17.3.tgz start_nginx "$PWD/reg"
npm_publish 1.17.3
tgz="$URL/onnxruntime-node/-/onnxruntime-node-1.17.3.tgz"

# Fetched, checked, imported into the user's bundle directory, verified.
expect_exit 0 "$ORTKIT" bundle fetch 1.17.3 --registry "$URL" --ca-file tls/ca.pem
expect_in out "fetched    onnxruntime-node@1.17.3 (npm, SHA-512 checked)"
expect_in out "imported   ort-1.17.3-cpu"
expect_in out "into       $XDG_DATA_HOME/ortkit/bundles/ort-1.17.3-cpu"
expect_in nginx/logs/access.log '"GET /onnxruntime-node/1.17.3 '
expect_in nginx/logs/access.log '"GET /onnxruntime-node/-/onnxruntime-node-1.17.3.tgz '
expect_exit 0 "$ORTKIT" bundle verify ort-1.17.3-cpu
[ -f "$XDG_DATA_HOME/ortkit/bundles/ort-1.17.3-cpu/lib/$(basename "$lib")" ]
[ -f "$XDG_DATA_HOME/ortkit/bundles/ort-1.17.3-cpu/lib/libonnxruntime_providers_shared.so" ]
# ...and the runtime search finds it there (pinned: set-up's 1.30.0 ranks higher).
expect_exit 0 env ORTKIT_BUNDLE=1.17.3 "$ORTKIT" version --json
expect_in out "$XDG_DATA_HOME/ortkit/bundles/ort-1.17.3-cpu"

# The registry from the environment (a row of env.c's table); --force replaces.
expect_exit 1 env ORTKIT_NPM_REGISTRY="$URL" "$ORTKIT" bundle fetch 1.17.3 --ca-file tls/ca.pem
expect_in err "ort-1.17.3-cpu"
expect_exit 0 env ORTKIT_NPM_REGISTRY="$URL" "$ORTKIT" bundle fetch 1.17.3 --ca-file tls/ca.pem --force --json
expect_in out '"name":	"ort-1.17.3-cpu"'

# A tarball that is not the one the registry published is refused; nothing imported.
cp reg/onnxruntime-node/-/onnxruntime-node-1.17.3.tgz good.tgz
printf 'x' >>reg/onnxruntime-node/-/onnxruntime-node-1.17.3.tgz
expect_exit 1 "$ORTKIT" bundle fetch 1.17.3 --registry "$URL" --ca-file tls/ca.pem --into tampered
expect_in err "the tarball was changed or damaged; refused"
[ ! -e tampered/ort-1.17.3-cpu ] || { echo "FAIL: a tampered tarball was imported" >&2; exit 1; }
cp good.tgz reg/onnxruntime-node/-/onnxruntime-node-1.17.3.tgz

# Metadata with no SHA-512 is refused before anything is downloaded.
npm_metadata 1.17.3 "$tgz" "sha1-AAAA" >reg/onnxruntime-node/1.17.3
expect_exit 1 "$ORTKIT" bundle fetch 1.17.3 --registry "$URL" --ca-file tls/ca.pem --into nosha
expect_in err "publishes no SHA-512 in dist.integrity"
[ ! -e nosha/ort-1.17.3-cpu ]

# A version the registry does not have, and one that is not a version.
expect_exit 1 "$ORTKIT" bundle fetch 1.99.0 --registry "$URL" --ca-file tls/ca.pem
expect_in err "cannot get onnxruntime-node@1.99.0's metadata from the npm registry $URL"
expect_in err "the server answers 404"
expect_exit 1 "$ORTKIT" bundle fetch '../1.17.3' --registry "$URL" --ca-file tls/ca.pem
expect_in err "'../1.17.3' is not an ONNX Runtime version"
expect_exit 2 "$ORTKIT" bundle fetch
expect_in err "fetch needs the ONNX Runtime version (1.30.0)"

# Ctrl-C during the download: exit 130, nothing imported, nothing left in TMPDIR.
stop_nginx
npm_package 1.17.3 "$RT_OLD"
NGINX_PROBE=onnxruntime-node/1.17.3 start_nginx "$PWD/reg" 2m
npm_publish 1.17.3
mkdir -p tmp
TMPDIR="$PWD/tmp" "$ORTKIT" bundle fetch 1.17.3 --registry "$URL" --ca-file tls/ca.pem --into slow >slow.out 2>slow.err &
pf=$!
tries=0
while :; do
    size=$(stat -c %s tmp/ortkit-fetch-*/package.tgz 2>/dev/null || echo 0)
    [ "$size" -gt 1000000 ] && break
    tries=$((tries + 1))
    [ $tries -lt 300 ] || { echo "FAIL: the slow download never reached 1 MB" >&2; exit 1; }
    sleep 0.05
done
kill -INT $pf
code=0
wait $pf || code=$?
[ "$code" = 130 ] || { cat slow.err >&2; echo "FAIL: an interrupted fetch exited $code, not 130" >&2; exit 1; }
expect_in slow.err "nothing was fetched"
[ -z "$(ls -A tmp)" ] || { echo "FAIL: an interrupted fetch left $(ls -A tmp) in TMPDIR" >&2; exit 1; }
[ ! -e slow/ort-1.17.3-cpu ]
