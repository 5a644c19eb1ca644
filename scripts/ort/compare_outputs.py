#!/usr/bin/python3
"""Two runs' saved outputs (DIR/MODEL/OUTPUT.npy, as `ortkit run -o` writes
them), A against B: the largest difference per output, one line each.

Usage: compare_outputs.py A B

Exits 1 when an output differs in shape or is not close (rtol 1e-4, atol 1e-5).
"""
import os
import sys

import numpy as np


def main(a, b):
    bad = 0
    for model in sorted(os.listdir(b)):
        for f in sorted(os.listdir(os.path.join(b, model))):
            x = np.load(os.path.join(a, model, f)).astype(np.float64)
            y = np.load(os.path.join(b, model, f)).astype(np.float64)
            d = float(np.max(np.abs(x - y))) if x.size else 0.0
            ok = x.shape == y.shape and np.allclose(x, y, rtol=1e-4, atol=1e-5)
            bad += not ok
            print("%-24s %-12s %-16s max |diff| %.3g  %s" % (model, f[:-4], x.shape, d, "ok" if ok else "DIFFERS"))
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
