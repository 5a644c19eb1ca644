#!/bin/sh
# shared_cache.sh - what a shared compile cache saves on real ONNX Runtime
# 1.21.0 builds (docs/PERFORMANCE.md, "A shared compile cache on real
# builds"): builders with their own build directories and local ccache
# directories, all reading and filling one Redis on loopback, in the Debian
# 11 root of scripts/build_root.sh (the builds that ship).  As root:
#
#   bench/shared_cache.sh [STEP...]      (default: A B C)
#
#   A  the first builder: cpu-x86-64, into an empty server (all misses)
#   B  a second builder, the same variant: what is left when every compile
#      hits (goal: under 10% of A's wall)
#   C  a third builder, cpu-avx2 after A: what the shared dependencies save
#   D  a CUDA builder: cuda13.0-sm90-avx2 (the reduced-operator plan of
#      docs/BUILD.md, "A CUDA build"; hours on 2 cores)
#   E  a second CUDA builder: cuda13.0-sm90-avx512 after D: the share of the
#      .cu compiles that hit (goal: all)
#
# Each step writes its report to deps/shared-cache-STEP-VARIANT.json and is
# skipped when that report is whole, so the script resumes after an
# interruption (an interrupted step resumes its build: its wall is then not
# a cold build's, and the report's steps_run says so).  The server keeps its
# data in deps/shared-cache-redis (a snapshot each minute), so a later run
# finds what an earlier one stored.  The server is stopped on exit.
# shellcheck disable=SC2154 # root_kind, deps, cuda_mounted: common.sh's settings
set -eu
ort_dir=$(cd "$(dirname "$0")/../scripts/ort" && pwd)
# shellcheck source-path=SCRIPTDIR source=../scripts/ort/common.sh
. "$ort_dir/common.sh"
[ "$root_kind" = bullseye ] || { say "the shared cache is measured in the bullseye root"; exit 2; }
port=${REDIS_PORT:-6379}
url="redis://127.0.0.1:$port"
redis_dir="$deps/shared-cache-redis"

# ---- the server -----------------------------------------------------------------------
command -v redis-server >/dev/null || { say "no redis-server: apt-get install redis-server"; exit 1; }
mkdir -p "$redis_dir"
if redis-cli -p "$port" ping >/dev/null 2>&1; then
    say "a server already answers on port $port: stop it first (it may not be this cache's)"
    exit 1
fi
redis-server --port "$port" --bind 127.0.0.1 --save 60 1 --appendonly no --dir "$redis_dir" \
    --dbfilename cache.rdb --daemonize yes --pidfile "$redis_dir/pid" --logfile "$redis_dir/log"
stop_server() {
    redis-cli -p "$port" shutdown save >/dev/null 2>&1 || true
    cleanup
}
trap stop_server EXIT INT TERM
i=0
# Until it answers, and has loaded what an earlier run stored (-LOADING till then).
until [ "$(redis-cli -p "$port" ping 2>/dev/null)" = PONG ]; do
    i=$((i + 1))
    [ "$i" -lt 50 ] || { say "redis-server did not start; see $redis_dir/log"; exit 1; }
    sleep 0.2
done
say "redis on $url: $(redis-cli -p "$port" dbsize) keys"

fetch_source
prepare_root

# step NAME VARIANT: one builder.  Builders are /build/NAME/VARIANT, all at
# one depth under CCACHE_BASEDIR=/build, so their compile commands compare
# equal; each has its own local cache (/build/.cache/ccache-NAME), so a hit
# that is not remote is the builder's own.
step() {
    name=$1 variant=$2
    report="$deps/shared-cache-$name-$variant.json"
    if python3 -c 'import json,sys; json.load(open(sys.argv[1]))["wall_s"]' "$report" 2>/dev/null; then
        say "$name ($variant): done before ($report)"
        return 0
    fi
    case $variant in cuda*) [ -n "$cuda_mounted" ] || prepare_cuda ;; esac
    keys=$(redis-cli -p "$port" dbsize)
    say "$name: ortkit build $variant, $keys keys on the server"
    # shellcheck disable=SC2034 # read by common.sh's ortkit_build and inside
    build_dir="/build/$name/$variant" ccache_dir="/build/.cache/ccache-$name"
    ortkit_build --cache-remote "$url" --cache-basedir /build --no-bundle --json >"$report.part"
    mv "$report.part" "$report"
    python3 - "$report" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
c = r.get("cache") or {}
print("build-ort: %s: wall %.0f s, cpu %.0f s; cache: %s" % (
    r["variant"], r["wall_s"], r.get("cpu_s", 0),
    ", ".join("%s %s" % (k, v) for k, v in c.items() if not isinstance(v, (dict, list)))), file=sys.stderr)
EOF
}

[ $# -gt 0 ] || set -- A B C
for s; do
    case $s in
    A) step A cpu-x86-64 ;;
    B) step B cpu-x86-64 ;;
    C) step C cpu-avx2 ;;
    D) step D cuda13.0-sm90-avx2 ;;
    E) step E cuda13.0-sm90-avx512 ;;
    *) say "unknown step $s (A B C D E)"; exit 2 ;;
    esac
done
