#!/usr/bin/python3
"""sample_rss.py MATCH OUT STOPFILE - an independent witness for the gate's
memory claims: every 20 ms, sum the resident memory of the compiler
processes (cc1plus, cc1, as, ld, lto1) whose command line mentions MATCH,
and count them; stop when STOPFILE appears and write "max_bytes max_procs"
to OUT."""
import os
import sys
import time

match, out, stop = sys.argv[1].encode(), sys.argv[2], sys.argv[3]
names = {b"cc1plus", b"cc1", b"as", b"ld", b"lto1", b"collect2"}
max_bytes = max_procs = 0
deadline = time.time() + 600
while not os.path.exists(stop) and time.time() < deadline:
    total = procs = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                argv = f.read().split(b"\0")
            if os.path.basename(argv[0]) not in names or not any(match in a for a in argv):
                continue
            with open("/proc/%s/status" % pid) as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
                        procs += 1
        except OSError:
            continue
    max_bytes = max(max_bytes, total)
    max_procs = max(max_procs, procs)
    time.sleep(0.02)
with open(out, "w") as f:
    f.write("%d %d\n" % (max_bytes, max_procs))
