# repo_https.t - a repository served by Debian's nginx over TLS (a test CA
# made here): install, the CA refused when not given, two installs at once,
# and a server killed mid-download whose download resumes from a new one.
set -eu
. "$SRC/tests/cli/repo_lib.sh"
if ! have_nginx; then
    echo "skipped: nginx or openssl is not installed" >&2
    exit 77
fi
trap 'stop_nginx; rm -rf "$work"' EXIT
make_repo
start_nginx "$PWD/repo"

# The server's certificate is trusted only through the test CA.
expect_exit 1 "$ORTKIT" bundle install "$URL" --pubkey ortkit.pub --list
expect_in err "cannot fetch '$URL/index.json'"
expect_exit 0 "$ORTKIT" bundle install "$URL" --pubkey ortkit.pub --cacert tls/ca.pem --into inst
expect_in out "installed  ort-1.17.3-cpu"
expect_exit 0 "$ORTKIT" bundle verify inst/ort-1.17.3-cpu
expect_in nginx/logs/access.log '"GET /archives/'

# Two installs at once into one directory: one installs, the other finds it done.
"$ORTKIT" bundle install "$URL" --pubkey ortkit.pub --cacert tls/ca.pem --into both --json >one 2>one.err &
p1=$!
"$ORTKIT" bundle install "$URL" --pubkey ortkit.pub --cacert tls/ca.pem --into both --json >two 2>two.err &
p2=$!
wait $p1 || { cat one.err >&2; echo "FAIL: the first install failed" >&2; exit 1; }
wait $p2 || { cat two.err >&2; echo "FAIL: the second install failed" >&2; exit 1; }
cat one two >outcomes
expect_in outcomes '"outcome":	"installed"'
expect_in outcomes '"outcome":	"unchanged"'
expect_exit 0 "$ORTKIT" bundle verify both/ort-1.17.3-cpu
[ "$(ls -A both)" = ".ortkit-install.lock
ort-1.17.3-cpu" ] || { echo "FAIL: both holds: $(ls -A both)" >&2; exit 1; }

# The server dies mid-download (a slow one, killed once a part has arrived):
# nothing is installed, the part is kept, and the next attempt resumes it.
stop_nginx
start_nginx "$PWD/repo" 2m
"$ORTKIT" bundle install "$URL" --pubkey ortkit.pub --cacert tls/ca.pem --into slow >slow.out 2>slow.err &
pi=$!
tries=0
while :; do
    size=$(stat -c %s slow/.ortkit-download-*.part 2>/dev/null || echo 0)
    [ "$size" -gt 1000000 ] && break
    tries=$((tries + 1))
    [ $tries -lt 300 ] || { echo "FAIL: the slow download never reached 1 MB" >&2; exit 1; }
    sleep 0.05
done
stop_nginx
if wait $pi; then
    echo "FAIL: the install succeeded although its server was killed" >&2
    exit 1
fi
expect_in slow.err "cannot fetch"
[ ! -e slow/ort-1.17.3-cpu ]
ls slow/.ortkit-download-*.part >/dev/null
start_nginx "$PWD/repo"
expect_exit 0 "$ORTKIT" bundle install "$URL" --pubkey ortkit.pub --cacert tls/ca.pem --into slow --json
expect_in out '"outcome":	"installed"'
expect_in err "resumed an interrupted download at byte"
expect_in nginx/logs/access.log '" 206 '
expect_exit 0 "$ORTKIT" bundle verify slow/ort-1.17.3-cpu
[ "$(ls -A slow)" = ".ortkit-install.lock
ort-1.17.3-cpu" ] || { echo "FAIL: slow holds: $(ls -A slow)" >&2; exit 1; }
