/*
 * fatbin.h - the GPU code inside a CUDA library: the fat binaries of its
 * .nv_fatbin section (fatbin.c).  Only headers are read; no payload is
 * decompressed, so a 500 MB provider costs a few thousand small reads.
 */
#ifndef ORTKIT_FATBIN_H
#define ORTKIT_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#define ORTKIT__FATBIN_MAGIC 0xBA55ED50u
#define ORTKIT__FATBIN_MAX_TARGETS 64

/* One GPU target: SASS for sm_<sm><suffix>, or PTX for compute_<sm>. */
typedef struct ortkit__gpu_target {
    int sm;      /* 10*major + minor: 90 for sm_90 */
    char suffix; /* 0, 'a' (that SM only) or 'f' (that family) */
} ortkit__gpu_target;

typedef struct ortkit__fatbin {
    ortkit__gpu_target sass[ORTKIT__FATBIN_MAX_TARGETS]; /* sorted, each once */
    size_t sass_count;
    ortkit__gpu_target ptx[ORTKIT__FATBIN_MAX_TARGETS];
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
/* "sm_90a" / "compute_80" into buf. */
const char *ortkit__gpu_target_name(const ortkit__gpu_target *t, int ptx, char *buf, size_t size);
/* Parse "sm_90a" or "compute_80" (ptx tells which); 0 ok, -1 not one. */
int ortkit__gpu_target_parse(ortkit__gpu_target *out, const char *text, int ptx);

#endif
