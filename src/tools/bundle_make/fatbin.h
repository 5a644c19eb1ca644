/*
 * fatbin.h - the GPU code inside a CUDA library: the fat binaries of its
 * .nv_fatbin section (fatbin.c), for importing GPU releases.  Only headers are read; no payload is
 * decompressed, so a 500 MB provider costs a few thousand small reads.
 */
#ifndef ORTKIT_FATBIN_H
#define ORTKIT_FATBIN_H

#include "gpu_target.h"

#include <stddef.h>
#include <stdint.h>

#define ORTKIT__FATBIN_MAGIC 0xBA55ED50u


typedef struct ortkit__fatbin {
    ortkit__gpu_target sass[ORTKIT__GPU_TARGETS_MAX]; /* sorted, each once */
    size_t sass_count;
    ortkit__gpu_target ptx[ORTKIT__GPU_TARGETS_MAX];
    size_t ptx_count;
    int ptx_isa;            /* the newest PTX ISA, 10*major + minor: 82; 0 without PTX */
    size_t fatbins;         /* fat binaries walked */
    size_t entries;         /* their entries */
    size_t compressed;      /* entries whose payload is compressed */
} ortkit__fatbin;

/* Reads size bytes at offset into buf: 0, or negative (an error recorded). */
typedef int (*ortkit__read_at_fn)(void *ctx, uint64_t offset, void *buf, size_t size);

/* Walk the fat binaries in [offset, offset + size) of a source: headers and
 * entries, bounds-checked; ORTKIT_E_FORMAT names what is wrong and where. */
int ortkit__fatbin_walk(ortkit__fatbin *out, ortkit__read_at_fn read, void *ctx, uint64_t offset,
                        uint64_t size);
/* The same over bytes in memory (a section's content). */
int ortkit__fatbin_parse(ortkit__fatbin *out, const unsigned char *data, size_t size);
/* The GPU code of an ELF file's .nv_fatbin section; *found 0 when it has none. */
int ortkit__fatbin_read(ortkit__fatbin *out, int *found, const char *path);
/* An ELF file's section by name (".rodata"), read whole into *out (free()
 * it); *out NULL and *size 0 when the file has none.  Larger than max:
 * ORTKIT_E_FORMAT. */
int ortkit__elf_section_read(unsigned char **out, size_t *size, const char *path, const char *name,
                             size_t max);
#endif
