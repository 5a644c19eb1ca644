#!/usr/bin/python3
"""Write the seed corpus of fuzz_measured: entries of the measured-choice
memory ($XDG_CACHE_HOME/ortkit/measured/KEY.json) of each outcome, and entries
broken in one way each (bad_*: the reader must refuse them).

Run from anywhere, with any python 3:
    python3 tests/fuzz/make_measured_corpus.py tests/fuzz/corpus/fuzz_measured
"""
import copy
import json
import os
import sys

H = "0123456789abcdef" * 4


def cand(name, state, p50, digest="a"):
    return {"name": name, "manifest_sha256": digest * 64, "state": state, "p50_s": p50,
            "p50_low_s": p50 * 0.98, "p50_high_s": p50 * 1.02, "runs": 400, "rounds": 20,
            "pair_p50_s": p50, "pair_chosen_p50_s": 0.00125, "pair_ratio": p50 / 0.00125,
            "pair_rounds": 20, "note": ""}


BASE = {
    "format": 1, "key": H, "model": "silero_vad.onnx", "model_sha256": "b" * 64,
    "shapes": "input[1,512],sr[],state[2,1,128]", "threads": 1,
    "host": "x86_64, AMD EPYC 7B13 (avx2), glibc 2.36", "when": 1764000000, "seconds": 41.5,
    "rounds": 20, "outcome": "clear", "chosen": "ort-1.30.0-cpu-avx2",
    "declared": "ort-1.30.0-cpu", "candidates": [
        cand("ort-1.30.0-cpu", "slower", 0.00131, "c"),
        cand("ort-1.30.0-cpu-avx2", "fastest", 0.00125, "d"),
    ],
}


def edited(fn):
    e = copy.deepcopy(BASE)
    fn(e)
    return e


def tied(e):
    e["outcome"] = "tied"
    e["candidates"][0]["state"] = "tied"
    e["candidates"][1]["state"] = "tied"


def single(e):
    e["outcome"] = "single"
    e["candidates"][0].update(state="differs", note="output 'output': max abs diff 0.5 > 1e-4")
    e["candidates"][1]["state"] = "pending"


def none(e):
    e["outcome"] = "none"
    e["chosen"] = ""
    for c in e["candidates"]:
        c.update(state="failed", note="the runtime refused the model", p50_s=0)


def many(e):
    e["candidates"] = [cand("b%02d" % i, "slower", 0.001 + i / 1e5, "%x" % (i % 16))
                       for i in range(16)]
    e["candidates"][3]["state"] = "fastest"
    e["chosen"], e["declared"] = "b03", "b00"


VALID = {
    "clear": BASE, "tied": edited(tied), "single": edited(single), "none": edited(none),
    "sixteen": edited(many),
    "controls_in_note": edited(lambda e: e["candidates"][0].update(note="a\tb\nc\u0007")),
}


def remove(*path):
    def fn(e):
        o = e
        for p in path[:-1]:
            o = o[p]
        del o[path[-1]]
    return fn


def put(value, *path):
    def fn(e):
        o = e
        for p in path[:-1]:
            o = o[p]
        o[path[-1]] = value
    return fn


BAD = {
    "unknown_key": put(1, "extra"),
    "unknown_cand_key": put(1, "candidates", 0, "extra"),
    "format_2": put(2, "format"),
    "no_key": remove("key"),
    "key_not_hex": put("g" * 64, "key"),
    "key_short": put("a" * 63, "key"),
    "threads_negative": put(-1, "threads"),
    "threads_fraction": put(1.5, "threads"),
    "seconds_negative": put(-0.1, "seconds"),
    "seconds_string": put("1", "seconds"),
    "rounds_huge": put(2 ** 60, "rounds"),
    "state_unknown": put("fast", "candidates", 0, "state"),
    "outcome_unknown": put("won", "outcome"),
    "chosen_no_candidate": put("ort-9", "chosen"),
    "chosen_differs": put("differs", "candidates", 1, "state"),
    "chosen_slower": put("slower", "candidates", 1, "state"),
    "chosen_empty_not_none": put("", "chosen"),
    "none_with_choice": put("none", "outcome"),
    "declared_no_candidate": put("ort-9", "declared"),
    "one_candidate": lambda e: e["candidates"].pop(),
    "seventeen": lambda e: (many(e), e["candidates"].append(cand("b16", "slower", 0.002))),
    "candidates_object": put({}, "candidates"),
    "cand_not_object": put([], "candidates", 0),
    "digest_upper": put("A" * 64, "candidates", 0, "manifest_sha256"),
    "name_control": put("ort\n1", "candidates", 0, "name"),
    "p50_nan_string": put("NaN", "candidates", 0, "p50_s"),
    "runs_negative": put(-1, "candidates", 0, "runs"),
    "top_array": lambda e: None,
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, entry in VALID.items():
        with open(os.path.join(out, "valid_" + name + ".json"), "w") as f:
            json.dump(entry, f, indent=2)
    for name, fn in BAD.items():
        e = edited(fn)
        text = json.dumps([e] if name == "top_array" else e, indent=2)
        with open(os.path.join(out, "bad_" + name + ".json"), "w") as f:
            f.write(text)
    raw = json.dumps(BASE)
    extra = {
        "bad_text_after": raw + " {}",
        "bad_nul_escape": raw.replace('"silero_vad.onnx"', '"silero\\u0000.onnx"'),
        "bad_truncated": raw[:len(raw) // 2],
        "bad_empty": "",
        "bad_deep": "[" * 5000 + "]" * 5000,
        "valid_trailing_space": raw + " \n",
    }
    for name, text in extra.items():
        with open(os.path.join(out, name + ".json"), "w") as f:
            f.write(text)
    with open(os.path.join(out, "bad_nul_byte.json"), "wb") as f:
        f.write(raw.encode()[:40] + b"\0" + raw.encode()[40:])


main()
