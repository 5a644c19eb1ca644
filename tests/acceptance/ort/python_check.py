"""python_check.py - what an installed `onnxruntime` Python package does, for
tests/acceptance/ort/python_check.sh.  Runs under the Python being checked (any 3.x
with numpy); imports nothing of ortkit's.

  python_check.py which
      the module imported: its file, version, the wheel's variant and providers
  python_check.py run OUT MODEL INPUTS [NAME=FILE.npy ...]
      one InferenceSession on the CPU provider, fed the .npy files given, its
      outputs saved as OUT/MODEL/OUTPUT.npy (what `ortkit compare` compares)
  python_check.py time MODEL THREADS ROUNDS NAME=FILE.npy ...
      session creation time and ROUNDS runs' times (seconds, one line of JSON)
"""
import json
import os
import sys
import time

import numpy as np
import onnxruntime as ort


def inputs_of(args):
    feeds = {}
    for a in args:
        name, path = a.split("=", 1)
        feeds[name] = np.load(path)
    return feeds


def which():
    variant = ""
    dist = os.path.dirname(os.path.dirname(ort.__file__))
    for d in os.listdir(dist):
        if d.startswith("onnxruntime-") and d.endswith(".dist-info"):
            facts = os.path.join(dist, d, "ortkit.json")
            if os.path.exists(facts):
                with open(facts) as f:
                    variant = json.load(f)["wheel"]["variant"]
    print(json.dumps({"file": ort.__file__, "version": ort.__version__, "variant": variant,
                      "numpy": np.__version__, "providers": ort.get_available_providers(),
                      "python": "%d.%d.%d" % sys.version_info[:3]}))


def session(model, threads):
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    return ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])


def run(out, model, feeds):
    s = session(model, 0)
    name = os.path.basename(model)
    os.makedirs(os.path.join(out, name), exist_ok=True)
    for meta, value in zip(s.get_outputs(), s.run(None, feeds)):
        np.save(os.path.join(out, name, meta.name + ".npy"), value)
    print("%s: %s" % (name, ", ".join(o.name for o in s.get_outputs())))


def timed(model, threads, rounds, feeds):
    t = time.perf_counter()
    s = session(model, threads)
    created = time.perf_counter() - t
    s.run(None, feeds)  # the first run is set-up, as ortkit bench's warm-up
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        s.run(None, feeds)
        times.append(time.perf_counter() - t)
    print(json.dumps({"create_s": created, "run_s": times}))


def main(argv):
    if len(argv) >= 1 and argv[0] == "which":
        return which()
    if len(argv) >= 3 and argv[0] == "run":
        return run(argv[1], argv[2], inputs_of(argv[3:]))
    if len(argv) >= 4 and argv[0] == "time":
        return timed(argv[1], int(argv[2]), int(argv[3]), inputs_of(argv[4:]))
    sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
