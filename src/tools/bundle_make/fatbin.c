/*
 * fatbin.c - which GPUs a CUDA library can run on, read from its fat
 * binaries, not from its name.
 *
 * nvcc puts each translation unit's GPU code in a fat binary: a 16-byte
 * header (magic 0xBA55ED50, version, header size, size of what follows) and
 * entries, each with its own header (kind: 1 PTX, 2 ELF cubin; the target
 * SM; flags) and a payload, in the library's .nv_fatbin section one after
 * another, 8-byte aligned with zero padding between them.  Only the headers
 * are read: a compressed payload is skipped by its stored size, never
 * decompressed.
 */
#include "fatbin.h"
#include "core.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { KIND_PTX = 1, KIND_ELF = 2 };
/* Entry flags, as nvcc 12.x and 13.x write them. */
#define FLAG_COMPRESSED_LZ 0x2000u
#define FLAG_COMPRESSED_ZSTD 0x8000u
#define FLAG_ARCH_SPECIFIC 0x100000u   /* sm_90a */
#define FLAG_FAMILY_SPECIFIC 0x200000u /* sm_100f */
#define ENTRY_HEADER_MIN 48            /* up to and including the flags */
#define ENTRY_HEADER_MAX 4096

static uint16_t le16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t le32(const unsigned char *p) { return (uint32_t)le16(p) | (uint32_t)le16(p + 2) << 16; }
static uint64_t le64(const unsigned char *p) { return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32; }

static int target_cmp(const ortkit__gpu_target *a, const ortkit__gpu_target *b)
{
    return a->sm != b->sm ? a->sm - b->sm : a->suffix - b->suffix;
}

/* Insert into a sorted set; a full set keeps what it has. */
static void add_target(ortkit__gpu_target *set, size_t *count, int sm, char suffix)
{
    ortkit__gpu_target t = {sm, suffix};
    size_t i = 0;
    while (i < *count && target_cmp(&set[i], &t) < 0)
        i++;
    if ((i < *count && !target_cmp(&set[i], &t)) || *count == ORTKIT__GPU_TARGETS_MAX)
        return;
    memmove(set + i + 1, set + i, (*count - i) * sizeof *set);
    set[i] = t;
    (*count)++;
}

static int entry(ortkit__fatbin *out, const unsigned char *h, uint64_t at)
{
    unsigned kind = le16(h);
    uint32_t arch = le32(h + 28);
    unsigned minor = le16(h + 24), major = le16(h + 26);
    uint64_t flags = le64(h + 40);
    out->entries++;
    if (flags & (FLAG_COMPRESSED_LZ | FLAG_COMPRESSED_ZSTD))
        out->compressed++;
    if (kind != KIND_PTX && kind != KIND_ELF)
        return ORTKIT_OK; /* other kinds (LTO IR...) run on no GPU by themselves */
    if (arch < 10 || arch > 999)
        return ortkit__error_set(ORTKIT_E_FORMAT, "fat binary entry at offset %llu: GPU target %u "
                                 "is no SM", (unsigned long long)at, (unsigned)arch);
    char suffix = (flags & FLAG_ARCH_SPECIFIC) ? 'a' : (flags & FLAG_FAMILY_SPECIFIC) ? 'f' : 0;
    if (kind == KIND_ELF) {
        add_target(out->sass, &out->sass_count, (int)arch, suffix);
    } else {
        add_target(out->ptx, &out->ptx_count, (int)arch, 0);
        if (major < 100 && minor < 10 && (int)(major * 10 + minor) > out->ptx_isa)
            out->ptx_isa = (int)(major * 10 + minor);
    }
    return ORTKIT_OK;
}

int ortkit__fatbin_walk(ortkit__fatbin *out, ortkit__read_at_fn read, void *ctx, uint64_t offset,
                        uint64_t size)
{
    memset(out, 0, sizeof *out);
    const uint64_t end = offset + size;
    uint64_t pos = offset;
    unsigned char h[ENTRY_HEADER_MIN + 16];
    int rc;
    if (end < offset)
        return ortkit__error_set(ORTKIT_E_FORMAT, "fat binary section size overflows");
    while (end - pos >= 16) {
        if ((rc = read(ctx, pos, h, 16)))
            return rc;
        if (le32(h) != ORTKIT__FATBIN_MAGIC) {
            /* Padding between fat binaries is zeros, 8-byte aligned. */
            if (le64(h) == 0) {
                pos += 8;
                continue;
            }
            return ortkit__error_set(ORTKIT_E_FORMAT, "no fat binary at offset %llu (found 0x%08x, "
                                     "not the magic 0x%08x)", (unsigned long long)pos, le32(h),
                                     ORTKIT__FATBIN_MAGIC);
        }
        unsigned header = le16(h + 6);
        uint64_t fat_size = le64(h + 8);
        if (header < 16 || header > end - pos || fat_size > end - pos - header)
            return ortkit__error_set(ORTKIT_E_FORMAT, "fat binary at offset %llu: header %u bytes "
                                     "and %llu bytes of entries leave the section",
                                     (unsigned long long)pos, header, (unsigned long long)fat_size);
        out->fatbins++;
        uint64_t e = pos + header, fat_end = pos + header + fat_size;
        while (fat_end - e >= 16) {
            if ((rc = read(ctx, e, h, 16)))
                return rc;
            uint32_t eh = le32(h + 4);
            uint64_t payload = le64(h + 8);
            if (eh < ENTRY_HEADER_MIN || eh > ENTRY_HEADER_MAX || eh > fat_end - e ||
                payload > fat_end - e - eh)
                return ortkit__error_set(ORTKIT_E_FORMAT, "fat binary entry at offset %llu: header "
                                         "%u bytes and payload %llu bytes leave its fat binary",
                                         (unsigned long long)e, (unsigned)eh,
                                         (unsigned long long)payload);
            if ((rc = read(ctx, e, h, ENTRY_HEADER_MIN)) || (rc = entry(out, h, e)))
                return rc;
            e += eh + payload;
        }
        if (e != fat_end)
            return ortkit__error_set(ORTKIT_E_FORMAT, "fat binary at offset %llu: %llu bytes after "
                                     "its last entry", (unsigned long long)pos,
                                     (unsigned long long)(fat_end - e));
        pos = fat_end;
    }
    return ORTKIT_OK;
}

typedef struct memory {
    const unsigned char *data;
    size_t size;
} memory;

static int memory_read(void *ctx, uint64_t offset, void *buf, size_t size)
{
    const memory *m = ctx;
    if (offset > m->size || size > m->size - offset)
        return ortkit__error_set(ORTKIT_E_FORMAT, "read past the end at offset %llu",
                                 (unsigned long long)offset);
    memcpy(buf, m->data + offset, size);
    return ORTKIT_OK;
}

int ortkit__fatbin_parse(ortkit__fatbin *out, const unsigned char *data, size_t size)
{
    memory m = {data, size};
    return ortkit__fatbin_walk(out, memory_read, &m, 0, size);
}

typedef struct file {
    int fd;
    const char *path;
    uint64_t size;
} file;

static int file_read(void *ctx, uint64_t offset, void *buf, size_t size)
{
    const file *f = ctx;
    if (offset > f->size || size > f->size - offset)
        return ortkit__error_set(ORTKIT_E_FORMAT, "'%s': offset %llu is past the end of the file",
                                 f->path, (unsigned long long)offset);
    ssize_t n = pread(f->fd, buf, size, (off_t)offset);
    if (n < 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': %s", f->path, strerror(errno));
    if ((size_t)n != size)
        return ortkit__error_set(ORTKIT_E_FORMAT, "'%s' is truncated", f->path);
    return ORTKIT_OK;
}

/* Find a section by name in a 64-bit little-endian ELF file: *offset, *size. */
static int find_section(const file *f, const char *want, uint64_t *offset, uint64_t *size, int *found)
{
    size_t want_len = strlen(want) + 1;
    unsigned char eh[64], sh[64], name[32];
    int rc;
    *found = 0;
    if ((rc = file_read((void *)f, 0, eh, sizeof eh)))
        return rc;
    if (memcmp(eh, "\177ELF", 4) || eh[4] != 2 || eh[5] != 1)
        return ORTKIT_OK; /* not a 64-bit little-endian ELF file: no CUDA code ortkit reads */
    uint64_t shoff = le64(eh + 40);
    unsigned shentsize = le16(eh + 58), shnum = le16(eh + 60), shstrndx = le16(eh + 62);
    if (!shoff || !shnum)
        return ORTKIT_OK;
    if (shentsize < 64 || shstrndx >= shnum)
        return ortkit__error_set(ORTKIT_E_FORMAT, "'%s': bad section header table", f->path);
    if ((rc = file_read((void *)f, shoff + (uint64_t)shstrndx * shentsize, sh, sizeof sh)))
        return rc;
    uint64_t strtab = le64(sh + 24), strsize = le64(sh + 32);
    for (unsigned i = 0; i < shnum; i++) {
        if ((rc = file_read((void *)f, shoff + (uint64_t)i * shentsize, sh, sizeof sh)))
            return rc;
        uint32_t n = le32(sh);
        if (want_len > sizeof name || n >= strsize || strsize - n < want_len)
            continue;
        if ((rc = file_read((void *)f, strtab + n, name, want_len)))
            return rc;
        if (memcmp(name, want, want_len))
            continue;
        if (le32(sh + 4) == 8 /* SHT_NOBITS */)
            return ORTKIT_OK;
        *offset = le64(sh + 24);
        *size = le64(sh + 32);
        if (*offset > f->size || *size > f->size - *offset)
            return ortkit__error_set(ORTKIT_E_FORMAT, "'%s': its %s section leaves the file",
                                     f->path, want);
        *found = 1;
        return ORTKIT_OK;
    }
    return ORTKIT_OK;
}

static int file_open(file *f, const char *path)
{
    struct stat st;
    f->path = path;
    f->size = 0;
    if ((f->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot open '%s': %s", path, strerror(errno));
    if (fstat(f->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(f->fd);
        return ortkit__error_set(ORTKIT_E_IO, "'%s' is not a regular file", path);
    }
    f->size = (uint64_t)st.st_size;
    return ORTKIT_OK;
}

int ortkit__fatbin_read(ortkit__fatbin *out, int *found, const char *path)
{
    memset(out, 0, sizeof *out);
    *found = 0;
    file f;
    int rc = file_open(&f, path);
    if (rc)
        return rc;
    uint64_t offset = 0, size = 0;
    if ((rc = find_section(&f, ".nv_fatbin", &offset, &size, found)) || !*found)
        goto cleanup;
    if ((rc = ortkit__fatbin_walk(out, file_read, &f, offset, size)))
        rc = ortkit__error_wrap(rc, "'%s': .nv_fatbin", path);
cleanup:
    close(f.fd);
    return rc;
}

int ortkit__elf_section_read(unsigned char **out, size_t *size, const char *path, const char *name,
                             size_t max)
{
    *out = NULL;
    *size = 0;
    file f;
    int rc = file_open(&f, path), found = 0;
    if (rc)
        return rc;
    uint64_t offset = 0, n = 0;
    if ((rc = find_section(&f, name, &offset, &n, &found)) || !found || !n)
        goto cleanup;
    if (n > max) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s': its %s section is larger than %zu bytes",
                               path, name, max);
        goto cleanup;
    }
    if (!(*out = malloc((size_t)n))) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    if ((rc = file_read(&f, offset, *out, (size_t)n))) {
        free(*out);
        *out = NULL;
        goto cleanup;
    }
    *size = (size_t)n;
cleanup:
    close(f.fd);
    return rc;
}
