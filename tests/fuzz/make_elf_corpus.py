#!/usr/bin/python3
"""Write the seed corpus of fuzz_elf: real ONNX Runtime libraries (a small one
whole, the big ones' first pages) and small hand-made images, valid and broken.

Run from anywhere, with any python 3; the real files come from deps/runtime/:
    python3 tests/fuzz/make_elf_corpus.py tests/fuzz/corpus/fuzz_elf
"""
import os
import struct
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
RUNTIME = os.path.join(ROOT, "deps", "runtime")

EM_386, EM_PPC64, EM_X86_64, EM_AARCH64 = 3, 21, 62, 183
ET_EXEC, ET_DYN = 2, 3
PT_LOAD, PT_DYNAMIC, PT_NOTE = 1, 2, 4
DT_NULL, DT_NEEDED, DT_STRTAB, DT_STRSZ, DT_SONAME, DT_RPATH, DT_RUNPATH = 0, 1, 5, 10, 14, 15, 29
DT_FLAGS_1, DF_1_PIE = 0x6FFFFFFB, 0x08000000
DT_VERNEED, DT_VERNEEDNUM = 0x6FFFFFFE, 0x6FFFFFFF
BASE = 0x400000
EHDR, PHDR, DYN = 64, 56, 16


class Image:
    """A 64-bit little-endian shared library: one PT_LOAD at BASE over the whole
    file, a PT_DYNAMIC, the dynamic entries, their string table, then the
    version needs (versions: {file: [version names]}), 8-aligned."""

    def __init__(self, soname=None, needed=(), runpath=None, rpath=None, machine=EM_X86_64,
                 versions=None):
        strtab = bytearray(b"\0")

        def string(s):
            off = len(strtab)
            strtab.extend(s.encode() + b"\0")
            return off

        dyn = []
        if soname is not None:
            dyn.append((DT_SONAME, string(soname)))
        dyn += [(DT_NEEDED, string(n)) for n in needed]
        if runpath is not None:
            dyn.append((DT_RUNPATH, string(runpath)))
        if rpath is not None:
            dyn.append((DT_RPATH, string(rpath)))
        records = bytearray()
        for k, (file, names) in enumerate((versions or {}).items()):
            last = k + 1 == len(versions)
            records += struct.pack("<HHIII", 1, len(names), string(file), 16,
                                   0 if last else 16 + 16 * len(names))
            for j, name in enumerate(names):
                records += struct.pack("<IHHII", 0, 0, 2 + j, string(name), 0 if j + 1 == len(names) else 16)
        self.dyn_off = EHDR + 2 * PHDR
        self.str_off = self.dyn_off + (len(dyn) + 3 + (2 if versions else 0)) * DYN
        ver_off = (self.str_off + len(strtab) + 7) & ~7
        if versions:
            dyn += [(DT_VERNEED, BASE + ver_off), (DT_VERNEEDNUM, len(versions))]
        dyn += [(DT_STRTAB, BASE + self.str_off), (DT_STRSZ, len(strtab)), (DT_NULL, 0)]
        self.dyn = dyn
        self.strtab = bytes(strtab)
        if versions:
            self.strtab = self.strtab.ljust(ver_off - self.str_off, b"\0")
        self.records = bytes(records)
        self.size = self.str_off + len(self.strtab) + len(self.records)
        self.ehdr = dict(ident=b"\x7fELF\x02\x01\x01", type=ET_DYN, machine=machine, phoff=EHDR,
                         phentsize=PHDR, phnum=2)
        self.load = dict(type=PT_LOAD, offset=0, vaddr=BASE, filesz=self.size)
        self.dynamic = dict(type=PT_DYNAMIC, offset=self.dyn_off, vaddr=BASE + self.dyn_off,
                            filesz=len(dyn) * DYN)

    def set_dyn(self, tag, value, new_tag=None):
        self.dyn = [(new_tag if t == tag and new_tag is not None else t, value if t == tag else v)
                    for t, v in self.dyn]
        return self

    def bytes(self):
        e = self.ehdr
        out = bytearray(e["ident"].ljust(16, b"\0"))
        out += struct.pack("<HHIQQQIHHHHHH", e["type"], e["machine"], 1, 0, e["phoff"], 0, 0, EHDR,
                           e["phentsize"], e["phnum"], 0, 0, 0)
        for ph in (self.load, self.dynamic):
            out += struct.pack("<IIQQQQQQ", ph["type"], 6, ph["offset"], ph["vaddr"], ph["vaddr"],
                               ph["filesz"], ph["filesz"], 8)
        for tag, val in self.dyn:
            out += struct.pack("<qQ", tag, val & 0xFFFFFFFFFFFFFFFF)
        out += self.strtab + self.records
        return bytes(out)


VERSIONS = {"libc.so.6": ["GLIBC_2.9", "GLIBC_PRIVATE", "GLIBC_2.43"],
            "libstdc++.so.6": ["GLIBCXX_3.4.32", "CXXABI_1.3.15"]}


def header(ident, typ, machine, big=False):
    return ident.ljust(16, b"\0") + struct.pack(">HH" if big else "<HH", typ, machine)


def head(path, size):
    with open(path, "rb") as f:
        return f.read(size)


def main(out):
    os.makedirs(out, exist_ok=True)
    full = dict(soname="libonnxruntime_providers_cuda.so", needed=["libcudart.so.12", "libcublas.so.12",
                "libcudnn.so.9", "libstdc++.so.6", "libc.so.6"], runpath="$ORIGIN")

    def img(**kw):
        return Image(**{**full, **kw})

    def edit(image, fn):
        fn(image)
        return image.bytes()

    seeds = {
        # Real files: ORT 1.17.3's providers bridge whole, the runtimes' first pages.
        "real_providers_shared_1.17.3.elf": head(os.path.join(RUNTIME, "1.17.3",
                                                "libonnxruntime_providers_shared.so"), 64 << 10),
        "real_runtime_1.17.3_head.elf": head(os.path.join(RUNTIME, "1.17.3", "libonnxruntime.so.1.17.3"), 2048),
        "real_runtime_1.30.0_head.elf": head(os.path.join(RUNTIME, "1.30.0", "libonnxruntime.so.1"), 4096),
        # Hand-made, valid.
        "valid_provider.elf": img().bytes(),
        "valid_rpath_only.elf": img(runpath=None, rpath="/opt/x:${ORIGIN}").bytes(),
        "valid_aarch64.elf": img(machine=EM_AARCH64).bytes(),
        "valid_bare.elf": Image().bytes(),
        "valid_no_phdrs.elf": edit(img(), lambda i: i.ehdr.update(phnum=0)),
        "valid_static.elf": edit(img(), lambda i: i.dynamic.update(type=PT_NOTE)),
        "valid_after_null.elf": edit(img(), lambda i: i.dyn.sort(key=lambda d: d[0] == DT_NEEDED)),
        "valid_needed_256.elf": img(needed=[f"libn{i:03d}.so" for i in range(256)]).bytes(),
        "valid_i386.elf": header(b"\x7fELF\x01\x01\x01", ET_DYN, EM_386),
        "valid_ppc64_be.elf": header(b"\x7fELF\x02\x02\x01", ET_EXEC, EM_PPC64, big=True),
        # Programs, which are no libraries: ET_EXEC, and position-independent (DF_1_PIE).
        "valid_exec.elf": edit(img(), lambda i: i.ehdr.update(type=ET_EXEC)),
        "valid_pie.elf": img(rpath="x").set_dyn(DT_RPATH, DF_1_PIE, DT_FLAGS_1).bytes(),
        "valid_verneed.elf": img(versions=VERSIONS).bytes(),
        "valid_verneed_count_0.elf": img(versions=VERSIONS).set_dyn(DT_VERNEEDNUM, 0).bytes(),
        # Hand-made, broken in one way each.
        "bad_verneed_cut.elf": img(versions=VERSIONS).bytes()[:-4],
        "bad_verneed_count.elf": img(versions=VERSIONS).set_dyn(DT_VERNEEDNUM, 3).bytes(),
        "bad_verneed_unmapped.elf": img(versions=VERSIONS).set_dyn(DT_VERNEED, 16).bytes(),
        "bad_needed_257.elf": img(needed=[f"libn{i:03d}.so" for i in range(257)]).bytes(),
        "bad_class.elf": edit(img(), lambda i: i.ehdr.update(ident=b"\x7fELF\x03\x01\x01")),
        "bad_byte_order.elf": edit(img(), lambda i: i.ehdr.update(ident=b"\x7fELF\x02\x00\x01")),
        "bad_phentsize.elf": edit(img(), lambda i: i.ehdr.update(phentsize=PHDR - 1)),
        "bad_phoff_wrap.elf": edit(img(), lambda i: i.ehdr.update(phoff=(1 << 64) - 8)),
        "bad_phnum.elf": edit(img(), lambda i: i.ehdr.update(phnum=0xFFFF)),
        "bad_dynamic_off.elf": edit(img(), lambda i: i.dynamic.update(offset=(1 << 64) - 16)),
        "bad_dynamic_size.elf": edit(img(), lambda i: i.dynamic.update(filesz=1 << 20)),
        "bad_no_load.elf": edit(img(), lambda i: i.load.update(type=PT_NOTE)),
        "bad_unmapped_strtab.elf": edit(img(), lambda i: i.load.update(vaddr=BASE + (1 << 20))),
        "bad_no_strtab.elf": img().set_dyn(DT_STRTAB, 0, 21).bytes(),
        "bad_strsz_zero.elf": img().set_dyn(DT_STRSZ, 0).bytes(),
        "bad_strsz_huge.elf": img().set_dyn(DT_STRSZ, (1 << 64) - 1).bytes(),
        "bad_soname_offset.elf": img().set_dyn(DT_SONAME, 1 << 40).bytes(),
        "bad_unterminated.elf": edit(img(), lambda i: i.set_dyn(DT_STRSZ, len(i.strtab) - 1)),
        "bad_cut_strtab.elf": img().bytes()[:-1],
        "bad_truncated_header.elf": img().bytes()[:40],
        "bad_magic.elf": b"\x7fELG" + img().bytes()[4:],
        "bad_empty.elf": b"",
        "bad_text.elf": b"#!/bin/sh\nexec true\n",
    }
    for name, data in seeds.items():
        assert len(data) < 16384, name
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    print(f"{len(seeds)} files in {out}")


if __name__ == "__main__":
    main(sys.argv[1])
