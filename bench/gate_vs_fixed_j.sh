#!/bin/sh
# gate_vs_fixed_j.sh - the compile gate against fixed `ninja -jN` on the
# generated fixture, under one memory budget: wall time and peak memory
# (sampled every 20 ms from /proc, compilers of the fixture only) for each.
#
# usage: bench/gate_vs_fixed_j.sh [ORTKIT] [BUDGET] [RUNS] [SIZES]
#   ORTKIT  the ortkit binary (default: build/ortkit)
#   BUDGET  the memory budget (default: 1.5G)
#   RUNS    runs per setting; the median is reported (default: 3)
#   SIZES   the fixture's per-file peaks in MiB (default: make_fixture.sh's)
#
# Fixed -j runs use the same build directory with no gate listening: the
# launcher then runs each compiler directly, so both sides compile the same
# commands.  The gate's runs come after one warm-up build, so it knows each
# file's peak (as on any rebuild); the warm-up is not timed.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
ortkit=$(readlink -f "${1:-$here/build/ortkit}")
budget=${2:-1.5G}
runs=${3:-3}
sizes=${4:-300,900,600,400,800,500,350,700}
work=$(mktemp -d "${TMPDIR:-/tmp}/ortkit-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
fx="$work/fx"
b="$work/b"
sh "$here/tests/builder/fixture/make_fixture.sh" "$fx" "$sizes"
budget_bytes=$(/usr/bin/python3 -c "
import sys; s = sys.argv[1].upper().rstrip('B').rstrip('I'); m = {'K': 2**10, 'M': 2**20, 'G': 2**30}
print(int(float(s[:-1]) * m[s[-1]]) if s[-1] in m else int(s))" "$budget")

# Configure and warm up (the gate learns the peaks).
"$ortkit" build --cmake-project "$fx" --build-dir "$b" --mem-budget "$budget" --no-progress >/dev/null

one_run() { # label command...
    ninja -C "$b" -t clean >/dev/null
    rm -f "$work/stop" "$work/sampled"
    /usr/bin/python3 "$here/tests/builder/sample_rss.py" "$fx/" "$work/sampled" "$work/stop" &
    sampler=$!
    t0=$(date +%s.%N)
    "$@" >"$work/stdout" 2>/dev/null
    t1=$(date +%s.%N)
    touch "$work/stop"
    wait "$sampler"
    # For the gate, also its own figure for the ninja phase alone (without
    # pre-flight's tool checks and the install), from its JSON report.
    phase=$(/usr/bin/python3 -c 'import json, sys
try: print("%.2f" % json.load(open(sys.argv[1]))["wall_s"])
except Exception: print("-")' "$work/stdout")
    echo "$t0 $t1 $(cat "$work/sampled") $phase" | awk '{printf "%.2f %d %d %s\n", $2 - $1, $3, $4, $5}'
}

# Settings alternate within each round, so drift in the machine's load hits all alike.
settings="gate j1 j2 j3 j4"
i=0
while [ "$i" -lt "$runs" ]; do
    for setting in $settings; do
        case $setting in
        gate) one_run "$ortkit" build --cmake-project "$fx" --build-dir "$b" --mem-budget "$budget" --jobs 2 --json ;;
        j*) one_run ninja -C "$b" -j "${setting#j}" ;;
        esac >>"$work/results.$setting"
    done
    i=$((i + 1))
done

printf '| setting | whole command, s (median of %s) | ninja phase, s | peak MiB (max, sampled) | over %s budget |\n|---|---|---|---|---|\n' "$runs" "$budget"
for setting in $settings; do
    sort -n "$work/results.$setting" | awk -v n="$runs" -v budget="$budget_bytes" -v s="$setting" '
        { wall[NR] = $1; phase[NR] = $4; if ($2 > peak) peak = $2 }
        END {
            label = s == "gate" ? "gate (--jobs 2)" : "ninja -j" substr(s, 2)
            m = int((n + 1) / 2)
            printf "| %s | %.2f | %s | %d | %s |\n", label, wall[m], (s == "gate" ? phase[m] : "same"), peak / 1048576, (peak > budget ? "yes" : "no")
        }'
done
echo
echo "machine: $(nproc) cores, load average at the end $(cut -d' ' -f1-3 /proc/loadavg), $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(c++ --version | head -1)"
