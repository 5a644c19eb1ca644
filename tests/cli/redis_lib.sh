# redis_lib.sh - what the shared-cache tests (build_remote_cache.t,
# build_shared_variants.t) share: Debian's redis-server on a free loopback
# port, in a scratch directory, stopped when the test ends, and a ccache that
# can reach it.  Sourced by the .t files after run_cli_test.sh's helpers.

# need_redis_ccache: skip the test (77) without redis-server or a ccache
# built with redis storage.
need_redis_ccache() {
    if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
        echo "skip: redis-server is not installed (scripts/setup.sh test installs it)"
        exit 77
    fi
    if ! command -v ccache >/dev/null 2>&1 || ! ccache --version | grep -q 'redis-storage'; then
        echo "skip: no ccache with redis-storage (scripts/setup.sh test installs Debian's)"
        exit 77
    fi
}

# start_redis [PASSWORD]: a server on 127.0.0.1:$port (no persistence) whose
# PID is $rpid; stop_redis ends it, and so does the end of the test.
start_redis() {
    port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    redis_pw=${1:-}
    mkdir -p redis
    set --
    [ -z "$redis_pw" ] || set -- --requirepass "$redis_pw"
    redis-server --port "$port" --bind 127.0.0.1 --dir "$PWD/redis" --save '' --appendonly no \
        --logfile "$PWD/redis/log" "$@" &
    rpid=$!
    trap 'stop_redis; rm -rf "$work"' EXIT
    i=0
    until REDISCLI_AUTH="$redis_pw" redis-cli -p "$port" ping 2>/dev/null | grep -q PONG; do
        i=$((i + 1))
        [ "$i" -lt 100 ] || { echo "FAIL: redis-server never answered on port $port" >&2; cat redis/log >&2; exit 1; }
        sleep 0.1
    done
}

stop_redis() {
    [ -n "${rpid:-}" ] || return 0
    kill "$rpid" 2>/dev/null || true
    wait "$rpid" 2>/dev/null || true
    rpid=""
}
