#!/bin/sh
# startup_links.sh BUILD_DIR [RUNS]: what linking only libortkit saves a
# program at start, against linking libortkit-tools too (what every program
# linked when the two were one library: libcurl, libsodium, libarchive and
# their own dependencies).  The same program (bench/startup_version.c) is
# built both ways against BUILD_DIR's libraries and run RUNS times (default
# 400) each, alternating, so the machine's noise falls on both alike.
# Prints the libraries each maps (ldd) and the median and p90 start time.
set -eu
build=$(cd "$1" && pwd)
runs=${2:-400}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/ortkit-startup.XXXXXX")
trap 'rm -rf "$work"' EXIT
inc="$here/../include"
cc -O2 -I"$inc" -o "$work/runtime_only" "$here/startup_version.c" \
    -L"$build" -lortkit -Wl,-rpath,"$build"
cc -O2 -I"$inc" -o "$work/with_tools" "$here/startup_version.c" \
    -L"$build" -Wl,--no-as-needed -lortkit-tools -lortkit -Wl,-rpath,"$build"
for p in runtime_only with_tools; do
    echo "$p maps $(ldd "$work/$p" | grep -c '=>') libraries"
done
python3 - "$work" "$runs" <<'PY'
import statistics, subprocess, sys, time
work, runs = sys.argv[1], int(sys.argv[2])
progs = ["runtime_only", "with_tools"]
times = {p: [] for p in progs}
for i in range(runs):
    for p in (progs if i % 2 == 0 else progs[::-1]):
        t = time.perf_counter()
        subprocess.run([f"{work}/{p}"], stdout=subprocess.DEVNULL, check=True)
        times[p].append((time.perf_counter() - t) * 1e3)
for p in progs:
    v = sorted(times[p])
    print(f"{p:13s} median {statistics.median(v):.3f} ms  p90 {v[int(len(v) * 0.9)]:.3f} ms  ({runs} runs)")
a, b = statistics.median(times["runtime_only"]), statistics.median(times["with_tools"])
print(f"ratio runtime_only / with_tools: {a / b:.2f}")
PY
