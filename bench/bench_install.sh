#!/bin/sh
# bench_install.sh - a repository's costs against the plain tools, side by side
# in one run (docs/PERFORMANCE.md):
#   publish: `ortkit bundle publish` (verify, tar + zstd -3, SHA-256, sign)
#            against `tar | zstd -3` + `sha256sum` of the same bundle;
#   install: `ortkit bundle install` over https from nginx on loopback (index,
#            signature, download with SHA-256, unpack, verify, rename)
#            against `curl -o` + `tar --zstd -x` of the same archive.
# usage: bench/bench_install.sh BUILD_DIR [RUNTIME_DIR] [RUNS]
set -eu
BUILD=$(cd "$1" && pwd)
SRC=$(cd "$(dirname "$0")/.." && pwd)
RT=${2:-$SRC/deps/runtime/1.30.0}
RUNS=${3:-5}
ORTKIT=$BUILD/ortkit
RT_OLD=$RT
work=$(mktemp -d "${TMPDIR:-/tmp}/ortkit-bench-install.XXXXXX")
trap 'stop_nginx; rm -rf "$work"' EXIT
cd "$work"
. "$SRC/tests/cli/repo_lib.sh"

now() { /usr/bin/python3 -c 'import time; print(time.monotonic())'; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

"$ORTKIT" bundle import "$RT" --into bundles >/dev/null
B=$(ls bundles)
"$ORTKIT" bundle keygen >/dev/null
echo "bundle $B: $(du -sh "bundles/$B" | cut -f1), $RUNS runs each, alternating" >&2

: >pub.ortkit
: >pub.plain
for i in $(seq "$RUNS"); do
    t0=$(now)
    "$ORTKIT" bundle publish "bundles/$B" --repo "r$i" --key ortkit.key >/dev/null 2>&1
    t1=$(now)
    tar -C "bundles/$B" -cf - . | zstd -3 -q -o "p$i.tar.zst"
    sha256sum "p$i.tar.zst" >/dev/null
    t2=$(now)
    echo "$t1 - $t0" | bc -l >>pub.ortkit
    echo "$t2 - $t1" | bc -l >>pub.plain
    [ "$i" = "$RUNS" ] || rm -rf "r$i"
    rm -f "p$i.tar.zst"
done
mv "r$RUNS" repo
A=$(ls repo/archives)
start_nginx "$PWD/repo"
echo "archive $(du -h "repo/archives/$A" | cut -f1) served by nginx at $URL" >&2

: >inst.ortkit
: >inst.plain
for i in $(seq "$RUNS"); do
    t0=$(now)
    "$ORTKIT" bundle install "$URL" --pubkey ortkit.pub --cacert tls/ca.pem --into "o$i" >/dev/null 2>&1
    t1=$(now)
    curl -sf --cacert tls/ca.pem -o "c$i.tar.zst" "$URL/archives/$A"
    mkdir "c$i"
    tar -C "c$i" --zstd -xf "c$i.tar.zst"
    t2=$(now)
    echo "$t1 - $t0" | bc -l >>inst.ortkit
    echo "$t2 - $t1" | bc -l >>inst.plain
    rm -rf "o$i" "c$i" "c$i.tar.zst"
done

for what in pub inst; do
    o=$(median <"$what.ortkit")
    p=$(median <"$what.plain")
    printf '%-8s ortkit %.3f s   plain %.3f s   ratio %.2f\n' \
        "$([ $what = pub ] && echo publish || echo install)" "$o" "$p" "$(echo "$o / $p" | bc -l)"
done
