#!/usr/bin/python3
"""Compare `ortkit bench` with the same measurement on the raw ORT C API.

Usage: compare_raw.py [--pairs K] [--wait-idle] [--callgrind] BUILD_DIR RUNTIME MODEL [ARGS...]

ARGS are given to both programs unchanged: -i NAME=FILE.npy, --threads N,
-n RUNS, --warmup N.  The two run as separate processes, alternately (ortkit
first in even pairs, raw first in odd ones) so that drift in machine load
hits both; each figure is the median over the K pairs, and the ratio is
ortkit / raw.

--wait-idle holds each pair back until the machine has been idle (at least
95% of every CPU's time) for a second, so that other work on a shared box
does not land inside a measurement.

--callgrind counts instructions instead of time: each program runs under
valgrind with -n R and -n 2R, and the difference divided by R is what one
timed run costs, set-up and reporting cancelling out.  Instruction counts do
not depend on machine load.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

FIGURES = [
    ("session create", lambda s: s["session_create_s"], "s"),
    ("first run", lambda s: s["first_run_s"], "s"),
    ("latency min", lambda s: s["latency_s"]["min"], "s"),
    ("latency mean", lambda s: s["latency_s"]["mean"], "s"),
    ("latency p50", lambda s: s["latency_s"]["p50"], "s"),
    ("latency p90", lambda s: s["latency_s"]["p90"], "s"),
    ("latency p95", lambda s: s["latency_s"]["p95"], "s"),
    ("latency p99", lambda s: s["latency_s"]["p99"], "s"),
    ("latency max", lambda s: s["latency_s"]["max"], "s"),
    ("throughput", lambda s: s["throughput_runs_per_s"], "runs/s"),
    ("CPU use", lambda s: s["cpu"]["percent_of_one_core"], "%"),
]


def fmt(v, unit):
    if unit == "s":
        for scale, name in ((1e-3, "us"), (1, "ms")):
            if v < scale:
                return "%.4g %s" % (v / scale * 1e3, name)
        return "%.4g s" % v
    return "%.5g %s" % (v, unit)


def with_runs(args, runs):
    """ARGS with -n replaced by runs."""
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a == "-n":
            skip = True
        else:
            out.append(a)
    return out + ["-n", str(runs)]


def commands(build, runtime, model, args):
    ortkit = [os.path.join(build, "ortkit"), "bench", model, "--runtime", runtime, "--json"] + args
    raw = [os.path.join(build, "bench", "bench_compare_raw"), model, "--runtime", runtime] + args
    return ortkit, raw


def side(output, is_ortkit):
    doc = json.loads(output)
    return doc["sides"][0] if is_ortkit else doc


def cpu_times():
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    return fields[3] + fields[4], sum(fields)  # idle + iowait, total


def wait_idle(limit=1800):
    """Wait until a one-second sample shows the CPUs at least 95% idle."""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        i0, t0 = cpu_times()
        time.sleep(1)
        i1, t1 = cpu_times()
        if t1 > t0 and (i1 - i0) / (t1 - t0) >= 0.95:
            return time.monotonic() - start
    sys.exit("the machine was not idle for %d s" % limit)


def timed(build, runtime, model, args, pairs, idle):
    ortkit_cmd, raw_cmd = commands(build, runtime, model, args)
    got = {"ortkit": [], "raw": []}
    waited = 0.0
    for k in range(pairs):
        if idle:
            waited += wait_idle()
        order = [("ortkit", ortkit_cmd), ("raw", raw_cmd)]
        if k % 2:
            order.reverse()
        for name, cmd in order:
            out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            got[name].append(side(out, name == "ortkit"))
    print("%d pairs, alternating; median of each figure%s" % (pairs, "; waited %.0f s for idle CPUs" % waited
                                                               if idle else ""))
    print("%-15s %14s %14s %9s %s" % ("figure", "raw C API", "ortkit bench", "ortkit/raw", "  ratio per pair: min..max"))
    for label, get, unit in FIGURES:
        raw = [get(s) for s in got["raw"]]
        kit = [get(s) for s in got["ortkit"]]
        per_pair = [a / b for a, b in zip(kit, raw) if b]
        r, o = statistics.median(raw), statistics.median(kit)
        print("%-15s %14s %14s %9.4f   %.3f..%.3f" % (label, fmt(r, unit), fmt(o, unit), o / r if r else 0,
                                                   min(per_pair), max(per_pair)))


def instructions(cmd):
    with tempfile.TemporaryDirectory() as tmp:
        res = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + os.path.join(tmp, "cg")]
                             + cmd, check=True, capture_output=True, text=True)
    m = re.search(r"Collected : (\d+)", res.stderr)
    if not m:
        sys.exit("no instruction count in valgrind's output:\n" + res.stderr[-2000:])
    return int(m.group(1))


def counted(build, runtime, model, args, runs):
    per_run = {}
    for name, index in (("raw", 1), ("ortkit", 0)):
        counts = []
        for n in (runs, 2 * runs):
            cmd = commands(build, runtime, model, with_runs(args, n))[index]
            if name == "ortkit":
                # Blocks of R runs: one block and two, so the per-block
                # bookkeeping (reading /proc/self/statm, getrusage) nearly cancels.
                cmd += ["--block", str(runs)]
            counts.append(instructions(cmd))
        per_run[name] = (counts[1] - counts[0]) / runs
        print("%-7s -n %d: %d instructions, -n %d: %d; per timed run %.0f" % (name, runs, counts[0], 2 * runs,
                                                                               counts[1], per_run[name]))
    print("ortkit/raw instructions per run: %.4f (%+.0f per run)" % (per_run["ortkit"] / per_run["raw"],
                                                                      per_run["ortkit"] - per_run["raw"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=10)
    ap.add_argument("--callgrind", action="store_true")
    ap.add_argument("--wait-idle", action="store_true")
    ap.add_argument("build")
    ap.add_argument("runtime")
    ap.add_argument("model")
    ap.add_argument("args", nargs=argparse.REMAINDER)
    o = ap.parse_args()
    if o.callgrind:
        runs = 200
        if "-n" in o.args:
            runs = int(o.args[o.args.index("-n") + 1])
        counted(o.build, o.runtime, o.model, o.args, runs)
    else:
        timed(o.build, o.runtime, o.model, o.args, o.pairs, o.wait_idle)


if __name__ == "__main__":
    main()
