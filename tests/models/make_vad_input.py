#!/usr/bin/python3
"""Prepare real inputs for the Silero voice activity detector (silero_vad.onnx, v4).

Usage: make_vad_input.py [-v] [--model PATH] OUTDIR

The detector should be shown actual speech, so this synthesises an English
sentence with espeak-ng, resamples it to the 16 kHz the model expects, and cuts
the loudest 96 ms window. It writes, as .npy:

  speech.npy    float32 [1, 1536]  voiced audio in [-1, 1]       (input "input")
  context.npy   float32 [1, 4608]  the 288 ms just before it     (input "input")
  utterance.npy float32 [1, L]     the whole sentence, trimmed   (input "input")
  silence.npy   float32 [1, 1536]  faint noise, fixed seed       (input "input")
  sr.npy        int64   []         16000                          (input "sr")
  state.npy     float32 [2, 1, 64] zeros, the initial LSTM state  (inputs "h", "c")

The model is recurrent: from the zero state a single 96 ms window of speech
scores below 0.5 (about 0.4 for speech.npy) because the detector has heard
nothing before it. Run context.npy first and pass its "hn"/"cn" outputs as
"h"/"c" with speech.npy (about 0.96), or give utterance.npy in one run (about
0.9); silence.npy scores below 0.01 either way.

When the model file is present its inputs are checked against these files
first, so a different model version fails here rather than at run time.
Outputs are written under temporary names and renamed; nothing is redone when
every output exists and is newer than this script.
"""

import argparse
import io
import os
import subprocess
import sys
import tempfile
import wave

import numpy as np

RATE = 16000
WINDOW = 1536  # 96 ms: one of the chunk sizes Silero v4 takes at 16 kHz
CONTEXT = 3 * WINDOW  # audio before the window that warms up the recurrent state
SENTENCE = "Voice activity detection finds the parts of a recording where somebody is speaking."
OUTPUTS = ("speech.npy", "context.npy", "utterance.npy", "silence.npy", "sr.npy", "state.npy")

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_MODEL = os.path.join(HERE, "..", "..", "deps", "models", "silero_vad.onnx")

# What the model must declare for these files to fit: name -> (ONNX element type, shape),
# where a string is a symbolic dimension.
EXPECTED_INPUTS = {
    "input": (1, ("batch", "sequence")),  # 1 = FLOAT
    "sr": (7, ()),  # 7 = INT64
    "h": (1, (2, "batch", 64)),
    "c": (1, (2, "batch", 64)),
}


def say(verbose: bool, msg: str) -> None:
    if verbose:
        print(f"make_vad_input: {msg}", file=sys.stderr)


def check_model(path: str) -> None:
    """Fail early if the model's inputs are not the ones these files are made for."""
    import onnx  # only needed for this check

    graph = onnx.load(path).graph
    init = {i.name for i in graph.initializer}
    got = {}
    for v in graph.input:
        if v.name in init:
            continue
        t = v.type.tensor_type
        dims = tuple(d.dim_param if d.dim_param else d.dim_value for d in t.shape.dim)
        got[v.name] = (t.elem_type, dims)
    if got != EXPECTED_INPUTS:
        sys.exit(f"make_vad_input: {path}: inputs are {got}, expected {EXPECTED_INPUTS}")


def synthesise(text: str) -> tuple[np.ndarray, int]:
    """Speak `text` with espeak-ng; returns mono samples in [-1, 1) and their rate."""
    with tempfile.TemporaryDirectory() as tmp:
        wav_path = os.path.join(tmp, "speech.wav")
        try:
            subprocess.run(["espeak-ng", "-v", "en-us", "-w", wav_path, text], check=True)
        except FileNotFoundError:
            sys.exit("make_vad_input: cannot run 'espeak-ng': not installed")
        with wave.open(wav_path, "rb") as w:
            if w.getsampwidth() != 2 or w.getnchannels() != 1:
                sys.exit(f"make_vad_input: espeak-ng gave {w.getnchannels()} channels of {w.getsampwidth()} bytes")
            rate = w.getframerate()
            pcm = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    return pcm.astype(np.float64) / 32768.0, rate


def resample(x: np.ndarray, src: int, dst: int, taps: int = 32) -> np.ndarray:
    """Windowed-sinc resampling; the low-pass at the lower Nyquist rate avoids aliasing."""
    if src == dst:
        return x.copy()
    n_out = int(len(x) * dst // src)
    t = np.arange(n_out) * (src / dst)  # output instants, in input samples
    cutoff = 0.95 * min(1.0, dst / src)  # fraction of the input Nyquist rate
    base = np.floor(t).astype(np.int64)
    k = np.arange(-taps + 1, taps + 1)
    idx = base[:, None] + k[None, :]
    dist = t[:, None] - idx
    kernel = cutoff * np.sinc(cutoff * dist) * np.kaiser(2 * taps, 8.0)[None, :]
    samples = np.where((idx >= 0) & (idx < len(x)), x[np.clip(idx, 0, len(x) - 1)], 0.0)
    return (samples * kernel).sum(axis=1)


def loudest_window(x: np.ndarray, size: int, first: int, hop: int = 160) -> int:
    """Start of the `size` samples with the most energy (voiced speech, not a
    pause), at or after sample `first`."""
    if len(x) < first + size:
        sys.exit(f"make_vad_input: synthesised audio is only {len(x)} samples")
    energy = np.concatenate(([0.0], np.cumsum(x * x)))
    starts = np.arange(first, len(x) - size + 1, hop)
    return int(starts[np.argmax(energy[starts + size] - energy[starts])])


def trim(x: np.ndarray, level: float = 0.01) -> np.ndarray:
    """Drop the leading and trailing quiet that espeak-ng pads the sentence with."""
    loud = np.nonzero(np.abs(x) > level)[0]
    return x[loud[0] : loud[-1] + 1]


def write_npy(outdir: str, name: str, arr: np.ndarray) -> None:
    buf = io.BytesIO()
    np.save(buf, arr, allow_pickle=False)
    tmp = os.path.join(outdir, f".{name}.tmp{os.getpid()}")
    try:
        with open(tmp, "wb") as f:
            f.write(buf.getvalue())
        os.replace(tmp, os.path.join(outdir, name))
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def up_to_date(outdir: str) -> bool:
    script_mtime = os.path.getmtime(os.path.abspath(__file__))
    try:
        return all(os.path.getmtime(os.path.join(outdir, n)) > script_mtime for n in OUTPUTS)
    except FileNotFoundError:
        return False


def main() -> int:
    ap = argparse.ArgumentParser(description="Make speech and silence inputs for silero_vad.onnx.")
    ap.add_argument("outdir")
    ap.add_argument("--model", default=DEFAULT_MODEL, help="model whose inputs to check (skipped if absent)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()

    if up_to_date(args.outdir):
        say(args.verbose, f"{args.outdir}: up to date")
        return 0
    if os.path.exists(args.model):
        check_model(args.model)
    os.makedirs(args.outdir, exist_ok=True)

    audio, rate = synthesise(SENTENCE)
    audio = resample(audio, rate, RATE)
    # Peak-normalise so the level does not depend on the voice's loudness.
    # Trimming the quiet ends keeps utterance.npy about speech, not padding.
    audio = trim(audio * (0.9 / max(np.abs(audio).max(), 1e-9)))
    # The window needs CONTEXT samples of the sentence before it to warm up on.
    start = loudest_window(audio, WINDOW, CONTEXT)
    speech = audio[start : start + WINDOW].astype(np.float32).reshape(1, WINDOW)
    context = audio[start - CONTEXT : start].astype(np.float32).reshape(1, CONTEXT)
    utterance = audio.astype(np.float32).reshape(1, -1)
    say(args.verbose, f"{len(audio)} samples at {RATE} Hz from {rate} Hz; window rms {np.sqrt((speech**2).mean()):.3f}")

    # Faint noise rather than exact zeros: closer to a quiet room.
    silence = (np.random.RandomState(7).standard_normal((1, WINDOW)) * 1e-4).astype(np.float32)

    write_npy(args.outdir, "speech.npy", speech)
    write_npy(args.outdir, "context.npy", context)
    write_npy(args.outdir, "utterance.npy", utterance)
    write_npy(args.outdir, "silence.npy", silence)
    write_npy(args.outdir, "sr.npy", np.array(RATE, dtype=np.int64))
    write_npy(args.outdir, "state.npy", np.zeros((2, 1, 64), dtype=np.float32))
    for name in OUTPUTS:
        say(args.verbose, f"wrote {os.path.join(args.outdir, name)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
