#!/usr/bin/python3
"""Write the seed corpus of fuzz_wheel_index: wheel indexes (wheels.json) of
none, one and two wheels, and indexes broken in one way each (bad_*: the
reader must refuse them).  The wheels' bundle facts are the bundle manifest
seed valid_cpu.json, so they parse as a manifest does.

Run from anywhere, with any python 3:
    python3 tests/fuzz/make_wheel_index_corpus.py tests/fuzz/corpus/fuzz_wheel_index
"""
import copy
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "corpus", "fuzz_bundle_manifest", "valid_cpu.json")) as f:
    MANIFEST = json.load(f)

NAME = "onnxruntime-1.21.0+cpu.avx2-cp311-cp311-manylinux_2_31_x86_64.whl"


def entry(index="cpu-avx2/", name=NAME, python="3.11"):
    return {"file": index + "onnxruntime/" + name, "index": index, "sha256": "ab" * 32, "size": 123456,
            "facts": {"schema": 1, "wheel": {"version": "1.21.0+cpu.avx2", "python": python,
                                              "platform_tag": "manylinux_2_31_x86_64"},
                      "bundle": MANIFEST}}


BASE = {"schema": 1, "serial": 7, "created": "2026-11-28T18:00:00Z",
        "expires": "2026-12-28T18:00:00Z", "wheels": [entry()]}


def edited(fn):
    e = copy.deepcopy(BASE)
    fn(e)
    return e


def seeds():
    yield "valid_one", BASE
    yield "valid_empty", edited(lambda e: e.update(wheels=[]))
    yield "valid_two", edited(lambda e: e["wheels"].append(
        entry("cpu-avx2/", NAME.replace("cp311", "cp313"), "3.13")))
    yield "bad_schema", edited(lambda e: e.update(schema=2))
    yield "bad_serial_zero", edited(lambda e: e.update(serial=0))
    yield "bad_no_expires", edited(lambda e: e.pop("expires"))
    yield "bad_wheels_object", edited(lambda e: e.update(wheels={}))
    yield "bad_dotdot", edited(lambda e: e["wheels"][0].update(file="cpu-avx2/onnxruntime/../../x.whl"))
    yield "bad_outside_index", edited(lambda e: e["wheels"][0].update(file="cpu/onnxruntime/" + NAME))
    yield "bad_index_upper", edited(lambda e: e["wheels"][0].update(index="CPU/", file="CPU/onnxruntime/" + NAME))
    yield "bad_index_dot", edited(lambda e: e["wheels"][0].update(index="../", file="../onnxruntime/" + NAME))
    yield "bad_not_a_wheel", edited(lambda e: e["wheels"][0].update(file="cpu-avx2/onnxruntime/x.tar.gz"))
    yield "bad_sha_short", edited(lambda e: e["wheels"][0].update(sha256="ab"))
    yield "bad_sha_upper", edited(lambda e: e["wheels"][0].update(sha256="AB" * 32))
    yield "bad_size_zero", edited(lambda e: e["wheels"][0].update(size=0))
    yield "bad_twice", edited(lambda e: e["wheels"].append(entry()))
    yield "bad_no_facts", edited(lambda e: e["wheels"][0].pop("facts"))
    yield "bad_no_bundle", edited(lambda e: e["wheels"][0]["facts"].pop("bundle"))
    yield "bad_bundle_broken", edited(lambda e: e["wheels"][0]["facts"]["bundle"].update(files=7))
    yield "bad_no_python", edited(lambda e: e["wheels"][0]["facts"]["wheel"].pop("python"))


def main(out):
    os.makedirs(out, exist_ok=True)
    for name, doc in seeds():
        with open(os.path.join(out, name + ".json"), "w") as f:
            json.dump(doc, f, indent=1)
    with open(os.path.join(out, "bad_not_json.json"), "w") as f:
        f.write('{"schema": 1, "wheels": [')


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
