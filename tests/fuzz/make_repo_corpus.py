#!/usr/bin/python3
"""Write the seed corpora of fuzz_repo_index and fuzz_repo_signature: a real
repository published by ortkit (its index.json, signature and public key, if
a build and a bundle are at hand), small valid ones, and ones broken in one
way each.

    python3 tests/fuzz/make_repo_corpus.py tests/fuzz/corpus
"""
import base64
import copy
import json
import os
import sys

SHA = "0123456789abcdef" * 4
MANIFEST = {
    "schema": 1, "name": "ort-1.30.0-cpu", "created_by": "ortkit 0.1.0",
    "onnxruntime": {"version": "1.30.0", "api_level": 30}, "variant": "cpu",
    "requires": {"arch": "x86_64", "cpu_features": [], "cuda": None, "compute_capability": None,
                 "exact_sm_only": False, "jetson": False, "min_driver": None},
    "library": "lib/libonnxruntime.so.1.30.0", "providers": ["CPUExecutionProvider"],
    "files": [{"path": "lib/libonnxruntime.so", "link": "libonnxruntime.so.1.30.0"},
              {"path": "lib/libonnxruntime.so.1.30.0", "size": 45828512, "sha256": SHA}],
}
INDEX = {
    "schema": 1, "serial": 7, "created": "2025-11-23T10:00:00Z", "expires": "2025-12-23T10:00:00Z",
    "bundles": [{"name": "ort-1.30.0-cpu", "onnxruntime": "1.30.0", "variant": "cpu",
                 "archive": "archives/%s.tar.zst" % SHA, "size": 12345, "sha256": SHA,
                 "unpacked_size": 45828512, "manifest": MANIFEST}],
}


def edited(fn):
    i = copy.deepcopy(INDEX)
    fn(i)
    return json.dumps(i, indent="\t").encode() + b"\n"


def index_seeds():
    yield "valid_one", edited(lambda i: None)
    yield "valid_empty", edited(lambda i: i.update(bundles=[]))
    yield "bad_traversal", edited(lambda i: i["bundles"][0].update(archive="archives/../../x"))
    yield "bad_sha", edited(lambda i: i["bundles"][0].update(sha256="XYZ"))
    yield "bad_schema", edited(lambda i: i.update(schema=2))
    yield "bad_serial_zero", edited(lambda i: i.update(serial=0))
    yield "bad_time", edited(lambda i: i.update(expires="tomorrow"))
    yield "bad_unknown_key", edited(lambda i: i.update(mirror="x"))
    yield "bad_name_differs", edited(lambda i: i["bundles"][0].update(name="other"))
    yield "bad_twice", edited(lambda i: i["bundles"].append(copy.deepcopy(i["bundles"][0])))
    yield "bad_manifest", edited(lambda i: i["bundles"][0]["manifest"].pop("files"))
    # A GPU release's manifest, with its "gpu" key, listed in an index.
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "bundles", "gpu", "ort-1.29.0-cuda13.json")) as f:
        gpu = json.load(f)

    def with_gpu(i):
        i["bundles"].append({"name": gpu["name"], "onnxruntime": "1.29.0", "variant": gpu["variant"],
                             "archive": "archives/%s.tar.zst" % SHA[::-1], "size": 2 ** 31,
                             "sha256": SHA[::-1], "unpacked_size": 2 ** 32, "manifest": gpu})
    yield "valid_gpu", edited(with_gpu)
    yield "bad_gpu_sass", edited(lambda i: (with_gpu(i), i["bundles"][1]["manifest"]["gpu"]
                                            .update(sass=["sm_9x"])))
    yield "bad_gpu_variant", edited(lambda i: (with_gpu(i), i["bundles"][1].update(variant="cpu")))
    yield "bad_nul", b'{"schema": 1, "serial": 1, "created": "2025\\u0000"}'
    yield "bad_not_json", b"{"


def b64(b):
    return base64.b64encode(b).decode()


def signature_seeds():
    kid = bytes(range(8))
    sig = b"ED" + kid + bytes(64)
    good = ("untrusted comment: signature\n%s\ntrusted comment: serial 7\n%s\n"
            % (b64(sig), b64(bytes(64)))).encode()
    yield "valid_prehashed", good
    yield "valid_legacy", good.replace(b64(sig).encode(), b64(b"Ed" + kid + bytes(64)).encode())
    yield "valid_crlf", good.replace(b"\n", b"\r\n")
    yield "valid_public_key", ("untrusted comment: minisign public key\n%s\n"
                               % b64(b"Ed" + kid + bytes(32))).encode()
    yield "bad_three_lines", b"\n".join(good.split(b"\n")[:3])
    yield "bad_algorithm", good.replace(b64(sig).encode(), b64(b"XX" + kid + bytes(64)).encode())
    yield "bad_base64", good.replace(b64(sig).encode(), b"!!!!")
    yield "bad_short", good.replace(b64(sig).encode(), b64(sig[:40]).encode())
    yield "bad_no_trusted", good.replace(b"trusted comment: ", b"comment: ")
    yield "bad_nul", good.replace(b"serial", b"ser\0al")
    yield "bad_comment_long", good.replace(b"serial 7", b"x" * 2000)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "corpus"
    for target, seeds in (("fuzz_repo_index", index_seeds()),
                          ("fuzz_repo_signature", signature_seeds())):
        os.makedirs(os.path.join(out, target), exist_ok=True)
        for name, data in seeds:
            with open(os.path.join(out, target, name), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main()
