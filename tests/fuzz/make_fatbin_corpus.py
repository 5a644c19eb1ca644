#!/usr/bin/python3
"""Write the seed corpus of fuzz_fatbin: fat binaries as nvcc 12 and 13 write
them (SASS, PTX, compressed entries, arch- and family-specific targets,
padding between fat binaries), an ELF file holding one in .nv_fatbin, and
broken ones.  Run with any python 3:
    python3 tests/fuzz/make_fatbin_corpus.py tests/fuzz/corpus/fuzz_fatbin
"""
import os
import struct
import sys

MAGIC = 0xBA55ED50
PTX, ELF = 1, 2
F64, LINUX, LZ, ZSTD, ARCH_A, FAMILY_F = 0x1, 0x10, 0x2000, 0x8000, 0x100000, 0x200000


def entry(kind, arch, flags=F64 | LINUX, payload=b"\x7fELF" + bytes(60), major=1, minor=8,
          header=64, size=None):
    h = struct.pack("<HHIQIIHHIIIQQQ", kind, 0x0101, header, len(payload) if size is None else size,
                    len(payload) if flags & (LZ | ZSTD) else 0, 0, minor, major, arch, 0, 0, flags,
                    0, 0)
    return h + bytes(header - len(h)) + payload


def fatbin(entries, header=16, size=None):
    body = b"".join(entries)
    return struct.pack("<IHHQ", MAGIC, 1, header, len(body) if size is None else size) + body


def pad(b):
    return b + bytes(-len(b) % 8)


def elf_with_section(content):
    """A 64-bit little-endian ELF file whose section table has .nv_fatbin."""
    names = b"\0.shstrtab\0.nv_fatbin\0"
    data_off = 64
    names_off = data_off + len(content)
    sh_off = (names_off + len(names) + 7) & ~7
    ehdr = b"\x7fELF" + bytes([2, 1, 1]) + bytes(9) + struct.pack(
        "<HHIQQQIHHHHHH", 3, 62, 1, 0, 0, sh_off, 0, 64, 56, 0, 64, 3, 1)
    sh = bytes(64)
    sh += struct.pack("<IIQQQQIIQQ", 1, 3, 0, 0, names_off, len(names), 0, 0, 1, 0)
    sh += struct.pack("<IIQQQQIIQQ", 11, 1, 2, 0, data_off, len(content), 0, 0, 8, 0)
    body = ehdr + content + names
    return body + bytes(sh_off - len(body)) + sh


def main(out):
    os.makedirs(out, exist_ok=True)
    cuda12 = pad(fatbin([entry(PTX, a, F64 | LINUX | LZ, b"ptx!" * 8, 8, 2, 72) + entry(ELF, a)
                         for a in (60, 70, 80)]))
    cuda13 = pad(fatbin([entry(ELF, 75, F64 | LINUX | ZSTD), entry(ELF, 90, F64 | LINUX | ZSTD | ARCH_A),
                         entry(ELF, 120, F64 | LINUX | ZSTD | ARCH_A | 0x1000000, header=112)]))
    family = pad(fatbin([entry(ELF, 100, F64 | LINUX | FAMILY_F, header=96), entry(PTX, 86, F64 | LINUX | ZSTD,
                                                                                  b"x" * 13, 9, 0, 80)]))
    seeds = {
        "valid_cuda12_sass_ptx.bin": cuda12,
        "valid_cuda13_compressed_arch.bin": cuda13,
        "valid_family_and_ptx.bin": family,
        "valid_two_with_padding.bin": cuda12 + bytes(16) + cuda13,
        "valid_empty.bin": b"",
        "valid_only_padding.bin": bytes(32),
        "valid_unknown_kind.bin": pad(fatbin([entry(8, 90)])),
        "elf_file_cuda13.bin": elf_with_section(cuda13),
        "bad_magic.bin": b"\x01\x02\x03\x04" + cuda12[4:],
        "bad_fat_size.bin": fatbin([entry(ELF, 80)], size=1 << 40),
        "bad_header_size.bin": fatbin([entry(ELF, 80)], header=8),
        "bad_entry_payload.bin": fatbin([entry(ELF, 80, size=1 << 33)]),
        "bad_entry_header_small.bin": fatbin([entry(ELF, 80, header=64)[:4] + struct.pack("<I", 16) +
                                              entry(ELF, 80)[8:]]),
        "bad_arch_zero.bin": fatbin([entry(ELF, 0)]),
        "bad_arch_huge.bin": fatbin([entry(ELF, 5000)]),
        "bad_trailing_bytes.bin": fatbin([entry(ELF, 80) + bytes(8)]),
        "bad_cut.bin": cuda12[:100],
    }
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main(sys.argv[1])
