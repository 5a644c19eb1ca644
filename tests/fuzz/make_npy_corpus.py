#!/usr/bin/python3
"""Write the seed corpus of fuzz_npy: small valid .npy files and malformed ones.

Run with a python that has numpy (Debian's /usr/bin/python3 with python3-numpy):
    /usr/bin/python3 tests/fuzz/make_npy_corpus.py tests/fuzz/corpus/fuzz_npy
"""
import io
import os
import struct
import sys

import numpy as np


def saved(arr, version=None):
    buf = io.BytesIO()
    if version is None:
        np.save(buf, arr, allow_pickle=False)
    else:
        np.lib.format.write_array(buf, arr, version=version, allow_pickle=False)
    return buf.getvalue()


def raw(header, data=b"", major=1):
    """An image with a hand-written header, padded the way numpy pads it."""
    prefix = 10 if major == 1 else 12
    total = prefix + len(header) + 1
    total += (-total) % 64
    body = header + b" " * (total - prefix - len(header) - 1) + b"\n"
    size = struct.pack("<H" if major == 1 else "<I", len(body))
    return b"\x93NUMPY" + bytes([major, 0]) + size + body + data


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    cut = b"{'descr': '<f4', 'fortran_ord"
    m23 = np.arange(6, dtype=np.float32).reshape(2, 3)
    files = {
        "valid_f32_2x3": saved(m23),
        "valid_f64_scalar": saved(np.array(2.5)),
        "valid_i64_1d": saved(np.arange(5, dtype=np.int64)),
        "valid_u8_empty": saved(np.zeros((0, 3), np.uint8)),
        "valid_bool": saved(np.array([True, False, True])),
        "valid_f16": saved(np.arange(4, dtype=np.float16)),
        "valid_c64": saved(np.array([1 + 2j, 3 - 4j], np.complex64)),
        "valid_i8_rank4": saved(np.arange(24, dtype=np.int8).reshape(2, 3, 2, 2)),
        "valid_unicode": saved(np.array(["", "a", "h\u00e9llo", "\U0001f600"])),
        "valid_v2": saved(m23, (2, 0)),
        "valid_v3": saved(m23, (3, 0)),
        "valid_odd_dict": raw(b"{ \"shape\" : ( 2 , 1L , ) , \"descr\":'=u2' , 'fortran_order':False }",
                              b"\x01\x00\x02\x00"),
        "bad_magic": b"\x93NUMPX" + saved(m23)[6:],
        "bad_version": b"\x93NUMPY\x04\x00" + saved(m23)[8:],
        "trunc_prefix": saved(m23)[:9],
        "trunc_header": saved(m23)[:40],
        "trunc_data": saved(m23)[:-5],
        "trailing_bytes": saved(m23) + b"\x00\x00",
        "lying_shape": raw(b"{'descr': '<f4', 'fortran_order': False, 'shape': (100, 100), }", b"\0" * 16),
        "overflow_shape": raw(b"{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }"),
        "negative_dim": raw(b"{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }"),
        "fortran": saved(np.asfortranarray(m23)),
        "big_endian": saved(m23.astype(">f4")),
        "structured": saved(np.zeros(2, dtype=[("a", "<f4"), ("b", "<i4")])),
        "object_dtype": raw(b"{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", b"\0" * 8),
        "bad_codepoint": raw(b"{'descr': '<U2', 'fortran_order': False, 'shape': (1,), }",
                             struct.pack("<2I", 0x41, 0x110000)),
        "not_tuple": raw(b"{'descr': '<f4', 'fortran_order': False, 'shape': (1), }", b"\0" * 4),
        "unterminated": b"\x93NUMPY\x01\x00" + struct.pack("<H", len(cut)) + cut,
        # Terminal control sequences in the header: refused, and the message
        # that quotes the header must not pass them on.
        "bad_descr_escape": raw(b"{'descr': '\x1b]0;title\x07\x1b[2J', 'fortran_order': False, 'shape': (1,), }",
                                b"\0" * 4),
        # A dimension past INT32_MAX is a valid .npy; the data is what is missing.
        "lying_dim_3e9": raw(b"{'descr': '|u1', 'fortran_order': False, 'shape': (3000000000,), }", b"\0" * 8),
    }
    for name, data in files.items():
        assert len(data) < 4096, name
        with open(os.path.join(out, name + ".npy"), "wb") as f:
            f.write(data)
    print(f"{len(files)} files in {out}")


if __name__ == "__main__":
    main()
