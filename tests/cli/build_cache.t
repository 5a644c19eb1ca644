# build_cache.t - the gate's launcher chains to ccache and distcc: a second
# build from an empty build directory is mostly ccache hits, and two distccd
# daemons on loopback ports each receive compiles.
set -eu
F="$PWD/fx"
sh "$SRC/tests/builder/fixture/make_fixture.sh" "$F" 120,200,160,140,180,100

if command -v ccache >/dev/null 2>&1; then
    export CCACHE_DIR="$PWD/ccache"
    expect_exit 0 "$ORTKIT" build --cmake-project "$F" --build-dir b --cache ccache --no-progress
    rm -rf b
    ccache -z >/dev/null
    expect_exit 0 "$ORTKIT" build --cmake-project "$F" --build-dir b --cache ccache --json
    ccache --print-stats >stats
    hits=$(awk '$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" {n += $2} END {print n + 0}' stats)
    misses=$(awk '$1 == "cache_miss" {print $2}' stats)
    echo "ccache: $hits hits, $misses misses"
    [ "$hits" -ge 8 ] && [ "$misses" -le 1 ] || { echo "FAIL: second build not from the cache" >&2; cat stats >&2; exit 1; }
    expect_in out '"chain":	"ccache"'
    unset CCACHE_DIR
else
    echo "note: ccache not installed (scripts/setup.sh installs it); ccache check skipped"
fi

if command -v distccd >/dev/null 2>&1 && command -v distcc >/dev/null 2>&1; then
    mkdir -p dlog distcc-state
    # distccd drops root for its own user, which must reach its log here.
    chmod 711 "$PWD"
    chmod 777 dlog
    # Free loopback ports in 36xx, picked by trying to bind them.
    ports=$(/usr/bin/python3 -c '
import socket
found = []
for p in range(3632, 3700):
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", p)); found.append(str(p))
    except OSError:
        pass
    finally:
        s.close()
    if len(found) == 2:
        break
print(" ".join(found))')
    set -- $ports
    P1=$1 P2=$2
    user=""
    [ "$(id -u)" = 0 ] && user="--user distccd"
    # In the foreground (--no-detach), so the test holds their PIDs and stops
    # them whatever happens; each daemon ends its workers when it ends.
    daemons=""
    stop_daemons() {
        for d in $daemons; do kill "$d" 2>/dev/null || true; done
        daemons=""
    }
    trap 'stop_daemons; rm -rf "$work"' EXIT
    for p in $P1 $P2; do
        # shellcheck disable=SC2086
        distccd --no-detach --daemon --allow 127.0.0.1 --listen 127.0.0.1 --port "$p" --jobs 2 $user \
            --log-file "$PWD/dlog/d$p.log" --log-level info &
        daemons="$daemons $!"
    done
    # Bounded wait until both listen (their logs say so).
    for i in $(seq 1 50); do
        grep -q 'daemon started' "dlog/d$P1.log" 2>/dev/null && grep -q 'daemon started' "dlog/d$P2.log" 2>/dev/null && break
        sleep 0.1
    done
    rm -rf b
    expect_exit 0 env DISTCC_DIR="$PWD/distcc-state" "$ORTKIT" build --cmake-project "$F" --build-dir b \
        --distcc "127.0.0.1:$P1/1 127.0.0.1:$P2/1" --jobs 2 --no-progress
    stop_daemons
    n1=$(grep -c COMPILE_OK "dlog/d$P1.log" || true)
    n2=$(grep -c COMPILE_OK "dlog/d$P2.log" || true)
    echo "distccd on $P1: $n1 compiles; on $P2: $n2 compiles"
    [ "$n1" -ge 1 ] && [ "$n2" -ge 1 ] && [ $((n1 + n2)) -ge 7 ] ||
        { echo "FAIL: both daemons should have compiled" >&2; cat dlog/*.log >&2; exit 1; }
    b/stage/bin/fixture >/dev/null
else
    echo "note: distcc not installed (scripts/setup.sh installs it); distcc check skipped"
fi
