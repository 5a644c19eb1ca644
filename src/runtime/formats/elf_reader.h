/*
 * elf_reader.h - the ELF reader (elf.c): the few facts ortkit needs of a shared
 * library without loading it.  Part of host detection (the C++ library a
 * host provides is read from its file) and of everything bundles do.
 */
#ifndef ORTKIT_ELF_READER_H
#define ORTKIT_ELF_READER_H

#include "core.h"

#include <stddef.h>
#include <stdint.h>

/* Room for a symbol version's number: "3.4.33"; longer ones are passed over. */
#define ORTKIT__ELF_VERSION_MAX 24

typedef struct ortkit__elf {
    int elf_class;      /* 1: 32-bit, 2: 64-bit */
    int little_endian;
    unsigned type;      /* ET_DYN for shared libraries */
    unsigned machine;   /* EM_X86_64 (62), EM_AARCH64 (183), ... */
    char *soname;       /* NULL when absent (the dynamic fields are read for
                         * 64-bit little-endian files only) */
    char *runpath;
    char *rpath;
    char **needed;
    size_t needed_count;
    int executable;     /* a program (ET_EXEC, or position-independent: DF_1_PIE,
                         * or PT_INTERP without a SONAME), not a library */
    int exec_stack;     /* 1: loading it asks for an executable stack (its
                         * PT_GNU_STACK is executable, or it has none: an
                         * object without .note.GNU-stack, linked by an older
                         * ld).  glibc 2.41 and newer refuse to dlopen such a
                         * library: "cannot enable executable stack". */
    /* The highest symbol versions the file requires of other libraries
     * (DT_VERNEED): "2.28" for GLIBC_2.28, "3.4.22" for GLIBCXX_3.4.22,
     * "1.3.11" for CXXABI_1.3.11; "" when it requires none.  Names that are
     * no dotted version (GLIBC_PRIVATE, GLIBC_ABI_DT_RELR) are passed over. */
    char need_glibc[ORTKIT__ELF_VERSION_MAX];
    char need_glibcxx[ORTKIT__ELF_VERSION_MAX];
    char need_cxxabi[ORTKIT__ELF_VERSION_MAX];
    /* The highest GLIBCXX_ version the file defines (DT_VERDEF): what a
     * libstdc++.so.6 provides; "" for any other file. */
    char def_glibcxx[ORTKIT__ELF_VERSION_MAX];
    /* Likewise GLIBC_: the release a libc.so.6 is ("2.36"); "" for others. */
    char def_glibc[ORTKIT__ELF_VERSION_MAX];
} ortkit__elf;

/* 1 if path starts with the ELF magic, 0 if not, negative on I/O errors. */
int ortkit__elf_is(const char *path);
/* Read the header, the dynamic section and the symbol versions (needed and
 * defined); a version section outside the file or naming strings outside
 * the dynamic string table is ORTKIT_E_FORMAT, like the rest. */
int ortkit__elf_read(ortkit__elf *out, const char *path);
void ortkit__elf_free(ortkit__elf *elf);
/* ORTKIT_ARCH_* for an ELF machine; ORTKIT_ARCH_UNKNOWN for others. */
ortkit_arch ortkit__elf_arch(unsigned machine);
/* "x86_64", "aarch64", or "ELF machine N" (in buf). */
const char *ortkit__elf_machine_name(unsigned machine, char *buf, size_t size);
/* What the file is, for messages: "a shared library", "an executable",
 * "an object file", "a core dump", "an ELF file of type N" (in buf). */
const char *ortkit__elf_kind(const ortkit__elf *elf, char *buf, size_t size);
/*
 * Whether the file at path can be loaded into this process as a library,
 * asked before it is handed to dlopen, whose answers mislead (a library for
 * another machine is "No such file or directory") or never come (a FIFO).
 * ORTKIT_E_RUNTIME_INVALID when it is not a regular file, not ELF, not a
 * shared library or not for this machine: "runtime 'x' (from y): it is
 * built for aarch64, this machine is x86_64".
 */
int ortkit__elf_check_runtime(const char *path, const char *from);
/* Does a RUNPATH/RPATH list name $ORIGIN (or ${ORIGIN})? */
int ortkit__elf_origin(const char *path_list);
/* Does the file hold text as a string of its own (NUL before and after)?
 * How a library's version is confirmed without running it: ONNX Runtime
 * keeps its version string in its read-only data. */
int ortkit__elf_has_string(const char *path, const char *text, int *found);
/* Where section name (".rodata") lies in the file: *offset and *size, both 0
 * when the file has no such section (or no section headers: a stripped
 * file may drop them).  ORTKIT_E_FORMAT when a header points outside it. */
int ortkit__elf_section(const char *path, const char *name, uint64_t *offset, uint64_t *size);
/* Does the file define (export) symbol in its dynamic symbol table?
 * *found: 1 yes, 0 no, -1 cannot tell (no section headers for .dynsym and
 * .dynstr).  ORTKIT_E_FORMAT when those sections are not where they say. */
int ortkit__elf_defines(const char *path, const char *symbol, int *found);
/* The ELF machine of every object in a static library (an ar archive, as
 * `ar` writes it): *machine, and *objects how many there are.
 * ORTKIT_E_FORMAT when it is no archive, a member header is damaged, it
 * holds no object, or objects for two machines. */
int ortkit__elf_archive_machine(const char *path, unsigned *machine, size_t *objects);

#endif
