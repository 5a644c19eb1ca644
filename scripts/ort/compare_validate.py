#!/usr/bin/python3
"""Conformance, test by test: `ortkit validate --json` reports of builds
against the reference's (Microsoft's npm build): each one's totals, and the
tests it fails that the reference passes (worse) or passes that the
reference fails (better).

Usage: compare_validate.py REFERENCE.json [validate-NAME.json...]
"""
import json
import sys


def load(f):
    d = json.load(open(f))
    return d["totals"], {t["suite"] + "/" + t["name"]: t["status"] for t in d["tests"]}


def main(reference, others):
    ref_tot, ref = load(reference)
    print("%-28s %5s pass %4s fail" % ("Microsoft's (npm)", ref_tot["pass"], ref_tot["fail"]))
    for f in others:
        tot, got = load(f)
        worse = sorted(k for k in ref if ref[k] == "pass" and got.get(k) != "pass")
        better = sorted(k for k in ref if ref[k] != "pass" and got.get(k) == "pass")
        name = f.rsplit("validate-", 1)[1][:-5]
        print("%-28s %5s pass %4s fail; worse than Microsoft's: %d %s; better: %d %s" % (
            name, tot["pass"], tot["fail"], len(worse), " ".join(worse[:8]), len(better), " ".join(better[:8])))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
