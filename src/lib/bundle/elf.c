/*
 * elf.c - the few facts ortkit needs from a shared library without loading
 * it: its machine, SONAME, RUNPATH/RPATH and DT_NEEDED.  Files may be
 * hostile, so every offset and size is checked against the file before use.
 */
#include "bundle.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Limits on what is read from one file: far above any real library. */
#define MAX_PHDRS 4096
#define MAX_DYNAMIC ((size_t)1 << 20)
#define MAX_STRTAB ((size_t)64 << 20)
#define MAX_NEEDED 256

ortkit_arch ortkit__host_arch(void)
{
#if defined(__x86_64__)
    return ORTKIT_ARCH_X86_64;
#elif defined(__aarch64__)
    return ORTKIT_ARCH_AARCH64;
#else
    return ORTKIT_ARCH_UNKNOWN;
#endif
}

ortkit_arch ortkit__elf_arch(unsigned machine)
{
    switch (machine) {
    case EM_X86_64: return ORTKIT_ARCH_X86_64;
    case EM_AARCH64: return ORTKIT_ARCH_AARCH64;
    default: return ORTKIT_ARCH_UNKNOWN;
    }
}

const char *ortkit__elf_machine_name(unsigned machine, char *buf, size_t size)
{
    ortkit_arch a = ortkit__elf_arch(machine);
    if (a != ORTKIT_ARCH_UNKNOWN)
        return ortkit_arch_name(a);
    snprintf(buf, size, "ELF machine %u", machine);
    return buf;
}

const char *ortkit__elf_kind(const ortkit__elf *elf, char *buf, size_t size)
{
    switch (elf->type) {
    case ET_DYN: return elf->executable ? "an executable" : "a shared library";
    case ET_EXEC: return "an executable";
    case ET_REL: return "an object file";
    case ET_CORE: return "a core dump";
    default: snprintf(buf, size, "an ELF file of type %u", elf->type); return buf;
    }
}

int ortkit__elf_check_runtime(const char *path, const char *from)
{
    ortkit__elf e;
    if (ortkit__elf_read(&e, path))
        return ortkit__error_wrap(ORTKIT_E_RUNTIME_INVALID, "runtime '%s' (from %s)", path, from);
    char kind[48], mach[32], why[160] = "";
    ortkit_arch arch = ortkit__elf_arch(e.machine), here = ortkit__host_arch();
    if (e.type != ET_DYN || e.executable)
        snprintf(why, sizeof why, "it is %s, not a shared library",
                 ortkit__elf_kind(&e, kind, sizeof kind));
    else if (arch != here || e.elf_class != ELFCLASS64)
        snprintf(why, sizeof why, "it is built for %s%s, this machine is %s",
                 ortkit__elf_machine_name(e.machine, mach, sizeof mach),
                 e.elf_class == ELFCLASS64 ? "" : " (32-bit)", ortkit_arch_name(here));
    ortkit__elf_free(&e);
    if (why[0])
        return ortkit__error_set(ORTKIT_E_RUNTIME_INVALID, "runtime '%s' (from %s): %s", path, from,
                                 why);
    return ORTKIT_OK;
}

int ortkit__elf_origin(const char *list)
{
    if (!list)
        return 0;
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ":");
        if ((n == 7 && !strncmp(p, "$ORIGIN", 7)) || (n == 9 && !strncmp(p, "${ORIGIN}", 9)))
            return 1;
        p += n;
        if (*p == ':')
            p++;
    }
    return 0;
}

static int read_at(int fd, void *buf, size_t size, uint64_t off)
{
    size_t got = 0;
    while (got < size) {
        ssize_t n = pread(fd, (char *)buf + got, size - got, (off_t)(off + got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        got += (size_t)n;
    }
    return 0;
}

int ortkit__elf_is(const char *path)
{
    struct stat st;
    int fd;
    if (stat(path, &st) != 0)
        return -1;
    if (!S_ISREG(st.st_mode))
        return 0; /* a directory, a FIFO...: no image, and nothing to wait for */
    if (ortkit__file_open(&fd, path, 0, NULL))
        return -1;
    unsigned char magic[SELFMAG];
    int is = read_at(fd, magic, SELFMAG, 0) == 0 && !memcmp(magic, ELFMAG, SELFMAG);
    close(fd);
    return is;
}

void ortkit__elf_free(ortkit__elf *elf)
{
    if (!elf)
        return;
    free(elf->soname);
    free(elf->runpath);
    free(elf->rpath);
    for (size_t i = 0; i < elf->needed_count; i++)
        free(elf->needed[i]);
    free(elf->needed);
    memset(elf, 0, sizeof *elf);
}

/* A string of the dynamic string table, or NULL when it lies outside it. */
static char *dyn_string(const char *strtab, size_t strsz, uint64_t off)
{
    if (off >= strsz)
        return NULL;
    size_t len = strnlen(strtab + off, strsz - off);
    if (off + len >= strsz)
        return NULL; /* not terminated inside the table */
    return strndup(strtab + off, len);
}

/* The file offset of a virtual address, through the PT_LOAD segments. */
static int vaddr_to_offset(const Elf64_Phdr *ph, size_t n, uint64_t vaddr, uint64_t *off)
{
    for (size_t i = 0; i < n; i++) {
        if (ph[i].p_type != PT_LOAD)
            continue;
        if (vaddr >= ph[i].p_vaddr && vaddr - ph[i].p_vaddr < ph[i].p_filesz) {
            *off = ph[i].p_offset + (vaddr - ph[i].p_vaddr);
            return 0;
        }
    }
    return -1;
}

static int bad(const char *path, const char *why)
{
    return ortkit__error_set(ORTKIT_E_FORMAT, "'%s': malformed ELF file: %s", path, why);
}

/* The dynamic section of a 64-bit little-endian file (the only kind ORT ships). */
static int read_dynamic64(ortkit__elf *e, int fd, const char *path, uint64_t file_size)
{
    Elf64_Ehdr eh;
    if (read_at(fd, &eh, sizeof eh, 0))
        return bad(path, "truncated header");
    e->type = eh.e_type;
    e->machine = eh.e_machine;
    if (eh.e_phnum == 0)
        return ORTKIT_OK; /* nothing dynamic: an object file, or a crafted header */
    if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum > MAX_PHDRS ||
        eh.e_phoff > file_size || (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr) > file_size - eh.e_phoff)
        return bad(path, "program headers outside the file");
    int rc = ORTKIT_OK;
    Elf64_Phdr *ph = malloc(eh.e_phnum * sizeof *ph);
    Elf64_Dyn *dyn = NULL;
    char *strtab = NULL;
    if (!ph)
        return ortkit__error_nomem();
    if (read_at(fd, ph, eh.e_phnum * sizeof *ph, eh.e_phoff)) {
        rc = bad(path, "cannot read the program headers");
        goto cleanup;
    }
    const Elf64_Phdr *dp = NULL;
    int interp = 0;
    for (size_t i = 0; i < eh.e_phnum; i++) {
        if (ph[i].p_type == PT_DYNAMIC && !dp)
            dp = &ph[i];
        interp |= ph[i].p_type == PT_INTERP;
    }
    e->executable = eh.e_type == ET_EXEC;
    if (!dp)
        goto cleanup; /* statically linked */
    if (dp->p_filesz > MAX_DYNAMIC || dp->p_offset > file_size || dp->p_filesz > file_size - dp->p_offset) {
        rc = bad(path, "dynamic section outside the file");
        goto cleanup;
    }
    size_t ndyn = dp->p_filesz / sizeof(Elf64_Dyn);
    if (!(dyn = malloc(ndyn ? ndyn * sizeof *dyn : 1))) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    if (ndyn && read_at(fd, dyn, ndyn * sizeof *dyn, dp->p_offset)) {
        rc = bad(path, "cannot read the dynamic section");
        goto cleanup;
    }
    uint64_t strtab_addr = 0, strsz = 0;
    int have_strtab = 0;
    for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
        if (dyn[i].d_tag == DT_STRTAB) {
            strtab_addr = dyn[i].d_un.d_ptr;
            have_strtab = 1;
        } else if (dyn[i].d_tag == DT_STRSZ) {
            strsz = dyn[i].d_un.d_val;
        } else if (dyn[i].d_tag == DT_FLAGS_1 && (dyn[i].d_un.d_val & DF_1_PIE)) {
            e->executable = 1;
        }
    }
    uint64_t stroff;
    if (!have_strtab || strsz == 0 || strsz > MAX_STRTAB ||
        vaddr_to_offset(ph, eh.e_phnum, strtab_addr, &stroff) || stroff > file_size ||
        strsz > file_size - stroff) {
        rc = bad(path, "no usable dynamic string table");
        goto cleanup;
    }
    if (!(strtab = malloc(strsz))) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    if (read_at(fd, strtab, strsz, stroff)) {
        rc = bad(path, "cannot read the dynamic string table");
        goto cleanup;
    }
    for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
        char **slot = NULL;
        switch (dyn[i].d_tag) {
        case DT_SONAME: slot = &e->soname; break;
        case DT_RUNPATH: slot = &e->runpath; break;
        case DT_RPATH: slot = &e->rpath; break;
        case DT_NEEDED:
            if (e->needed_count == MAX_NEEDED) {
                rc = bad(path, "too many DT_NEEDED entries");
                goto cleanup;
            }
            if (!e->needed && !(e->needed = calloc(MAX_NEEDED, sizeof *e->needed))) {
                rc = ortkit__error_nomem();
                goto cleanup;
            }
            slot = &e->needed[e->needed_count++];
            break;
        default: continue;
        }
        free(*slot);
        if (!(*slot = dyn_string(strtab, strsz, dyn[i].d_un.d_val))) {
            rc = bad(path, "a dynamic entry points outside the string table");
            goto cleanup;
        }
    }
    /* A program made position-independent by an older linker has no
     * DF_1_PIE; it asks for an interpreter and, unlike a library, has no
     * SONAME.  (libc.so.6, which has both, counts as a library.) */
    if (interp && !e->soname)
        e->executable = 1;
cleanup:
    free(ph);
    free(dyn);
    free(strtab);
    return rc;
}

int ortkit__elf_read(ortkit__elf *out, const char *path)
{
    memset(out, 0, sizeof *out);
    int fd;
    int rc = ortkit__file_open(&fd, path, 0, NULL);
    if (rc)
        return rc;
    struct stat st;
    unsigned char ident[EI_NIDENT + 4];
    if (fstat(fd, &st) != 0) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot stat '%s': %s", path, strerror(errno));
        goto cleanup;
    }
    /* e_ident, then e_type and e_machine: the same place in both classes. */
    if (read_at(fd, ident, sizeof ident, 0) || memcmp(ident, ELFMAG, SELFMAG)) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' is not an ELF file", path);
        goto cleanup;
    }
    out->elf_class = ident[EI_CLASS];
    out->little_endian = ident[EI_DATA] == ELFDATA2LSB;
    if (out->elf_class != ELFCLASS32 && out->elf_class != ELFCLASS64) {
        rc = bad(path, "unknown ELF class");
        goto cleanup;
    }
    if (ident[EI_DATA] != ELFDATA2LSB && ident[EI_DATA] != ELFDATA2MSB) {
        rc = bad(path, "unknown byte order");
        goto cleanup;
    }
    const unsigned char *t = ident + EI_NIDENT;
    out->type = out->little_endian ? (unsigned)(t[0] | t[1] << 8) : (unsigned)(t[0] << 8 | t[1]);
    out->machine = out->little_endian ? (unsigned)(t[2] | t[3] << 8) : (unsigned)(t[2] << 8 | t[3]);
    if (out->elf_class == ELFCLASS64 && out->little_endian)
        rc = read_dynamic64(out, fd, path, (uint64_t)st.st_size);
cleanup:
    close(fd);
    if (rc)
        ortkit__elf_free(out);
    return rc;
}

int ortkit__elf_has_string(const char *path, const char *text, int *found)
{
    *found = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot open '%s': %s", path, strerror(errno));
    struct stat st;
    int rc = ORTKIT_OK;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': not a regular file", path);
        goto cleanup;
    }
    if (st.st_size == 0)
        goto cleanup;
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot map '%s': %s", path, strerror(errno));
        goto cleanup;
    }
    /* The text as a string of its own: NUL before and after. */
    size_t n = strlen(text);
    char *needle = malloc(n + 2);
    if (!needle) {
        munmap(map, (size_t)st.st_size);
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    needle[0] = '\0';
    memcpy(needle + 1, text, n);
    needle[n + 1] = '\0';
    *found = memmem(map, (size_t)st.st_size, needle, n + 2) != NULL;
    free(needle);
    munmap(map, (size_t)st.st_size);
cleanup:
    close(fd);
    return rc;
}
