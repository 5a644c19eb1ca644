# repo_slow.t - downloads from real servers on loopback that misbehave: one
# that drips an archive a byte at a time (the total deadline and the minimum
# rate stop it, each named), and Python's http.server, which ignores Range,
# under an interrupted download (the install starts over from byte 0).
set -eu
. "$SRC/tests/cli/repo_lib.sh"
make_repo
A=$(basename repo/archives/*.tar.zst)
SHA=${A%.tar.zst}

# serve ROOT MODE: a Python server on a free loopback port (PORT, URL); MODE
# "drip" sends archives one byte every 0.2 s, "plain" is http.server as is.
serve() {
    rm -f port
    /usr/bin/python3 - "$1" "$2" <<'PY' &
import http.server, os, sys, time
root, mode = sys.argv[1], sys.argv[2]
class Drip(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **k):
        super().__init__(*a, directory=root, **k)
    def log_message(self, *a):
        pass
    def do_GET(self):
        if mode != "drip" or "/archives/" not in self.path:
            return super().do_GET()
        data = open(os.path.join(root, self.path.lstrip("/")), "rb").read()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            for i in range(len(data)):
                self.wfile.write(data[i:i + 1])
                self.wfile.flush()
                time.sleep(0.2)
        except (BrokenPipeError, ConnectionResetError):
            pass
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Drip)
s.daemon_threads = True
open("port.tmp", "w").write(str(s.server_address[1]))
os.rename("port.tmp", "port")
s.serve_forever()
PY
    SERVER=$!
    tries=0
    until [ -s port ]; do
        tries=$((tries + 1))
        [ $tries -le 100 ] || { echo "FAIL: the server did not start" >&2; exit 1; }
        sleep 0.1
    done
    URL="http://127.0.0.1:$(cat port)"
}
stop() { kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; }
trap stop EXIT

# A server that drips: the total deadline stops it, and says which limit.
serve "$PWD/repo" drip
start=$(date +%s)
expect_exit 1 "$ORTKIT" bundle install "$URL" --pubkey ortkit.pub --into t1 --timeout 2 --min-rate 1/1
expect_in err "not done after 2 s, the limit of one download (--timeout"
[ $(($(date +%s) - start)) -lt 20 ] || { echo "FAIL: the deadline did not hold" >&2; exit 1; }
# ... and the minimum rate, over its window.
expect_exit 1 "$ORTKIT" bundle install "$URL" --pubkey ortkit.pub --into t2 --min-rate 100/2
expect_in err "slower than 100 bytes a second for 2 s"
expect_in err "(--min-rate"
# What the drip delivered is kept for the next attempt, as after any broken transfer.
[ -f "t2/.ortkit-download-$SHA.part" ] || { echo "FAIL: no part kept" >&2; exit 1; }
stop

# Usage.
expect_exit 2 "$ORTKIT" bundle install repo --pubkey ortkit.pub --timeout 0
expect_in err "--timeout wants seconds"
expect_exit 2 "$ORTKIT" bundle install repo --pubkey ortkit.pub --min-rate 10/0
expect_in err "--min-rate wants"

# Python's http.server ignores Range and answers 200 with the whole file: an
# interrupted download starts over from byte 0 instead of failing every time.
serve "$PWD/repo" plain
mkdir -p t3
head -c 1000 "repo/archives/$A" >"t3/.ortkit-download-$SHA.part"
expect_exit 0 "$ORTKIT" bundle install "$URL" --pubkey ortkit.pub --into t3 --json
expect_in out '"outcome":	"installed"'
expect_in out '"resumed_from":	0'
expect_exit 0 "$ORTKIT" bundle verify t3/ort-1.17.3-cpu
[ ! -e "t3/.ortkit-download-$SHA.part" ] || { echo "FAIL: the part stayed" >&2; exit 1; }
stop
