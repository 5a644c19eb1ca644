#!/usr/bin/python3
"""measure_proof_table.py FILE.jsonl - measure_proof.sh's measurements as
the Markdown table of docs/PERFORMANCE.md, one row per measurement."""
import json
import sys


def pct(x):
    return "-" if x is None else "%+.1f%%" % (100 * x)


def row(d):
    if "text" in d:  # bench --compare: B against A
        ratio = d.get("b_over_a")
        diff = pct(ratio - 1 if ratio else None) if d["faster"] == "A" or ratio is None \
            else pct(ratio - 1)
        res = d.get("resolution")
        verdict = {"slower": "B clearly slower" if d["faster"] == "A" else "A clearly slower"}.get(
            d["verdict"], d["verdict"])
        return verdict, diff, "-" if res is None else "%.1f%%" % (100 * res), d["rounds"], d["disturbed"]
    states, ratios, res = d["states"], d["ratio"], d["resolution"]
    other = [k for k in states if k != d["chosen"]][0]
    verdict = {"clear": "%s clearly slower" % other}.get(d["verdict"], d["verdict"])
    r = res.get(other)
    return (verdict, pct(ratios[other] - 1 if ratios[other] else None),
            "-" if not r else "%.1f%%" % (100 * r), d["rounds"], sum((v or 0) for v in d["disturbed"].values()))


def main():
    print("| case | condition | run | verdict | B/A or other/chosen | resolution | rounds | disturbed runs | took | load average |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for line in open(sys.argv[1]):
        d = json.loads(line)
        verdict, diff, res, rounds, dist = row(d)
        print("| %s | %s | %d | %s | %s | %s | %s | %s | %.1f s | %s |" % (
            d["case"], d["condition"], d["run"], verdict, diff, res, rounds, dist, d["took_s"],
            " ".join(d["loadavg"].split()[:1])))


if __name__ == "__main__":
    main()
