/*
 * elf.c - the few facts ortkit needs from a shared library without loading
 * it: its machine, SONAME, RUNPATH/RPATH, DT_NEEDED and the symbol versions
 * it needs and defines.  Files may be
 * hostile, so every offset and size is checked against the file before use.
 */
#include "elf_reader.h"

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
/* Version records (needed files, their versions, definitions) walked in one file. */
#define MAX_VERSION_RECORDS 65536

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
    ortkit_arch arch = ortkit__elf_arch(e.machine), here = ortkit_arch_here();
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
    for (ortkit__path_list it = {.rest = list}; ortkit__path_list_next(&it);)
        if ((it.len == 7 && !strncmp(it.entry, "$ORIGIN", 7)) ||
            (it.len == 9 && !strncmp(it.entry, "${ORIGIN}", 9)))
            return 1;
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

static int bad(const char *path, const char *why);

/* Keep the number of name (after prefix) in best when it is a dotted
 * version higher than what best holds. */
static void keep_highest(char *best, const char *name, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(name, prefix, n))
        return;
    const char *v = name + n;
    size_t len = strlen(v);
    /* Dotted digits only: not GLIBC_PRIVATE, GLIBC_ABI_DT_RELR, "2.", "2..3". */
    if (len == 0 || len >= ORTKIT__ELF_VERSION_MAX || strspn(v, "0123456789.") != len ||
        v[0] == '.' || v[len - 1] == '.' || strstr(v, ".."))
        return;
    if (!best[0] || ortkit__version_compare(v, best) > 0)
        snprintf(best, ORTKIT__ELF_VERSION_MAX, "%s", v);
}

static void keep_needed(ortkit__elf *e, const char *name)
{
    keep_highest(e->need_glibcxx, name, "GLIBCXX_");
    keep_highest(e->need_glibc, name, "GLIBC_");
    keep_highest(e->need_cxxabi, name, "CXXABI_");
}

/* A record of size bytes at off + rel, read when it lies inside the file. */
static int read_record(int fd, void *rec, size_t size, uint64_t off, uint64_t rel, uint64_t file_size,
                       uint64_t *at)
{
    if (off > file_size || rel > file_size - off || size > file_size - off - rel)
        return -1;
    *at = off + rel;
    return read_at(fd, rec, size, *at);
}

/* A version name in the dynamic string table: a string of its own, or NULL. */
static const char *version_name(const char *strtab, size_t strsz, uint64_t off)
{
    if (off >= strsz || !memchr(strtab + off, '\0', strsz - off))
        return NULL;
    return strtab + off;
}

/* DT_VERNEED: for each file needed, the versions it must define. */
static int read_verneed(ortkit__elf *e, int fd, const char *path, uint64_t file_size, uint64_t off,
                        uint64_t count, const char *strtab, size_t strsz)
{
    size_t records = 0;
    for (uint64_t i = 0; i < count; i++) {
        Elf64_Verneed vn;
        uint64_t vn_at;
        if (++records > MAX_VERSION_RECORDS || read_record(fd, &vn, sizeof vn, off, 0, file_size, &vn_at))
            return bad(path, "version needs outside the file");
        if (!version_name(strtab, strsz, vn.vn_file))
            return bad(path, "a version need names a file outside the string table");
        uint64_t aux = vn.vn_aux;
        uint64_t aux_base = vn_at;
        for (unsigned j = 0; j < vn.vn_cnt; j++) {
            Elf64_Vernaux va;
            uint64_t va_at;
            if (++records > MAX_VERSION_RECORDS ||
                read_record(fd, &va, sizeof va, aux_base, aux, file_size, &va_at))
                return bad(path, "version needs outside the file");
            const char *name = version_name(strtab, strsz, va.vna_name);
            if (!name)
                return bad(path, "a version need names a version outside the string table");
            keep_needed(e, name);
            aux_base = va_at;
            aux = va.vna_next;
            if (!aux && j + 1 < vn.vn_cnt)
                return bad(path, "a version need ends before its count");
        }
        if (!vn.vn_next) {
            if (i + 1 < count)
                return bad(path, "version needs end before DT_VERNEEDNUM");
            break;
        }
        if (vn.vn_next > file_size - vn_at)
            return bad(path, "version needs outside the file");
        off = vn_at + vn.vn_next;
    }
    return ORTKIT_OK;
}

/* DT_VERDEF: the versions the file defines; the first name of each is its own. */
static int read_verdef(ortkit__elf *e, int fd, const char *path, uint64_t file_size, uint64_t off,
                       uint64_t count, const char *strtab, size_t strsz)
{
    for (uint64_t i = 0; i < count; i++) {
        Elf64_Verdef vd;
        Elf64_Verdaux vda;
        uint64_t vd_at, vda_at;
        if (i >= MAX_VERSION_RECORDS || read_record(fd, &vd, sizeof vd, off, 0, file_size, &vd_at))
            return bad(path, "version definitions outside the file");
        if (vd.vd_cnt) {
            if (read_record(fd, &vda, sizeof vda, vd_at, vd.vd_aux, file_size, &vda_at))
                return bad(path, "version definitions outside the file");
            const char *name = version_name(strtab, strsz, vda.vda_name);
            if (!name)
                return bad(path, "a version definition names a version outside the string table");
            if (!(vd.vd_flags & VER_FLG_BASE)) {
                keep_highest(e->def_glibcxx, name, "GLIBCXX_");
                keep_highest(e->def_glibc, name, "GLIBC_");
            }
        }
        if (!vd.vd_next) {
            if (i + 1 < count)
                return bad(path, "version definitions end before DT_VERDEFNUM");
            break;
        }
        if (vd.vd_next > file_size - vd_at)
            return bad(path, "version definitions outside the file");
        off = vd_at + vd.vd_next;
    }
    return ORTKIT_OK;
}

static int bad(const char *path, const char *why)
{
    return ortkit__error_set(ORTKIT_E_FORMAT, "'%s': malformed ELF file: %s", path, why);
}

/* What the dynamic section says of the string table and the symbol versions. */
typedef struct dyn_tags {
    uint64_t strtab_addr, strsz, verneed, verneednum, verdef, verdefnum;
    int have_strtab, have_verneed, have_verdef;
} dyn_tags;

/* The dynamic entries up to DT_NULL: the tables' places into t, and whether
 * the file is a position-independent program. */
static void scan_dynamic(ortkit__elf *e, const Elf64_Dyn *dyn, size_t ndyn, dyn_tags *t)
{
    memset(t, 0, sizeof *t);
    for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
        if (dyn[i].d_tag == DT_STRTAB) {
            t->strtab_addr = dyn[i].d_un.d_ptr;
            t->have_strtab = 1;
        } else if (dyn[i].d_tag == DT_STRSZ) {
            t->strsz = dyn[i].d_un.d_val;
        } else if (dyn[i].d_tag == DT_VERNEED) {
            t->verneed = dyn[i].d_un.d_ptr;
            t->have_verneed = 1;
        } else if (dyn[i].d_tag == DT_VERNEEDNUM) {
            t->verneednum = dyn[i].d_un.d_val;
        } else if (dyn[i].d_tag == DT_VERDEF) {
            t->verdef = dyn[i].d_un.d_ptr;
            t->have_verdef = 1;
        } else if (dyn[i].d_tag == DT_VERDEFNUM) {
            t->verdefnum = dyn[i].d_un.d_val;
        } else if (dyn[i].d_tag == DT_FLAGS_1 && (dyn[i].d_un.d_val & DF_1_PIE)) {
            e->executable = 1;
        }
    }
}

/* The entries that name strings: SONAME, RUNPATH, RPATH, each DT_NEEDED. */
static int dynamic_strings(ortkit__elf *e, const char *path, const Elf64_Dyn *dyn, size_t ndyn,
                           const char *strtab, uint64_t strsz)
{
    for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
        char **slot = NULL;
        switch (dyn[i].d_tag) {
        case DT_SONAME: slot = &e->soname; break;
        case DT_RUNPATH: slot = &e->runpath; break;
        case DT_RPATH: slot = &e->rpath; break;
        case DT_NEEDED:
            if (e->needed_count == MAX_NEEDED)
                return bad(path, "too many DT_NEEDED entries");
            if (!e->needed && !(e->needed = calloc(MAX_NEEDED, sizeof *e->needed)))
                return ortkit__error_nomem();
            slot = &e->needed[e->needed_count++];
            break;
        default: continue;
        }
        free(*slot);
        if (!(*slot = dyn_string(strtab, strsz, dyn[i].d_un.d_val)))
            return bad(path, "a dynamic entry points outside the string table");
    }
    return ORTKIT_OK;
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
    int interp = 0, stack = -1; /* -1: no PT_GNU_STACK, which the loader takes as executable */
    for (size_t i = 0; i < eh.e_phnum; i++) {
        if (ph[i].p_type == PT_DYNAMIC && !dp)
            dp = &ph[i];
        interp |= ph[i].p_type == PT_INTERP;
        if (ph[i].p_type == PT_GNU_STACK)
            stack = (ph[i].p_flags & PF_X) != 0;
    }
    e->executable = eh.e_type == ET_EXEC;
    e->exec_stack = stack != 0;
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
    dyn_tags t;
    scan_dynamic(e, dyn, ndyn, &t);
    uint64_t strtab_addr = t.strtab_addr, strsz = t.strsz;
    uint64_t stroff;
    if (!t.have_strtab || strsz == 0 || strsz > MAX_STRTAB ||
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
    if ((rc = dynamic_strings(e, path, dyn, ndyn, strtab, strsz)))
        goto cleanup;
    /* A program made position-independent by an older linker has no
     * DF_1_PIE; it asks for an interpreter and, unlike a library, has no
     * SONAME.  (libc.so.6, which has both, counts as a library.) */
    if (interp && !e->soname)
        e->executable = 1;
    uint64_t veroff;
    if (t.have_verneed && t.verneednum) {
        if (vaddr_to_offset(ph, eh.e_phnum, t.verneed, &veroff)) {
            rc = bad(path, "version needs outside the loaded segments");
            goto cleanup;
        }
        if ((rc = read_verneed(e, fd, path, file_size, veroff, t.verneednum, strtab, strsz)))
            goto cleanup;
    }
    if (t.have_verdef && t.verdefnum) {
        if (vaddr_to_offset(ph, eh.e_phnum, t.verdef, &veroff)) {
            rc = bad(path, "version definitions outside the loaded segments");
            goto cleanup;
        }
        rc = read_verdef(e, fd, path, file_size, veroff, t.verdefnum, strtab, strsz);
    }
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

int ortkit__elf_section(const char *path, const char *name, uint64_t *offset, uint64_t *size)
{
    *offset = *size = 0;
    int fd;
    int rc = ortkit__file_open(&fd, path, 0, NULL);
    if (rc)
        return rc;
    struct stat st;
    Elf64_Ehdr eh;
    Elf64_Shdr *sh = NULL;
    char *names = NULL;
    rc = ORTKIT_OK;
    if (fstat(fd, &st) != 0 || read_at(fd, &eh, sizeof eh, 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
        goto cleanup; /* not a file whose sections ortkit reads: none found */
    uint64_t file_size = (uint64_t)st.st_size;
    if (eh.e_shnum == 0 || eh.e_shnum > 65000 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
        eh.e_shstrndx >= eh.e_shnum || eh.e_shoff > file_size ||
        (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr) > file_size - eh.e_shoff)
        goto cleanup; /* no section headers (stripped of them), or not where they say */
    if (!(sh = malloc((size_t)eh.e_shnum * sizeof *sh))) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    if (read_at(fd, sh, (size_t)eh.e_shnum * sizeof *sh, eh.e_shoff)) {
        rc = bad(path, "section headers cannot be read");
        goto cleanup;
    }
    const Elf64_Shdr *ns = &sh[eh.e_shstrndx];
    if (ns->sh_offset > file_size || ns->sh_size > file_size - ns->sh_offset ||
        ns->sh_size > MAX_STRTAB || ns->sh_size == 0)
        goto cleanup;
    if (!(names = malloc(ns->sh_size + 1))) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    if (read_at(fd, names, ns->sh_size, ns->sh_offset)) {
        rc = bad(path, "section names cannot be read");
        goto cleanup;
    }
    names[ns->sh_size] = '\0';
    for (size_t i = 0; i < eh.e_shnum; i++) {
        if (sh[i].sh_name >= ns->sh_size || strcmp(names + sh[i].sh_name, name) ||
            sh[i].sh_type == SHT_NOBITS)
            continue;
        if (sh[i].sh_offset > file_size || sh[i].sh_size > file_size - sh[i].sh_offset) {
            rc = bad(path, "a section lies outside the file");
            goto cleanup;
        }
        *offset = sh[i].sh_offset;
        *size = sh[i].sh_size;
        break;
    }
cleanup:
    free(sh);
    free(names);
    close(fd);
    return rc;
}

int ortkit__elf_defines(const char *path, const char *symbol, int *found)
{
    *found = -1;
    uint64_t sym_off, sym_size, str_off, str_size;
    int rc;
    if ((rc = ortkit__elf_section(path, ".dynsym", &sym_off, &sym_size)) ||
        (rc = ortkit__elf_section(path, ".dynstr", &str_off, &str_size)))
        return rc;
    if (!sym_size || !str_size)
        return ORTKIT_OK;
    if (str_size > MAX_STRTAB || sym_size > MAX_STRTAB || sym_size % sizeof(Elf64_Sym))
        return bad(path, "its dynamic symbol table is malformed");
    int fd;
    if ((rc = ortkit__file_open(&fd, path, 0, NULL)))
        return rc;
    char *names = malloc(str_size + 1);
    Elf64_Sym *syms = malloc(sym_size);
    if (!names || !syms) {
        rc = ortkit__error_nomem();
    } else if (read_at(fd, names, str_size, str_off) || read_at(fd, syms, sym_size, sym_off)) {
        rc = bad(path, "its dynamic symbols cannot be read");
    } else {
        names[str_size] = '\0';
        *found = 0;
        for (size_t i = 0; i < sym_size / sizeof *syms && !*found; i++)
            *found = syms[i].st_shndx != SHN_UNDEF && syms[i].st_name < str_size &&
                     ELF64_ST_BIND(syms[i].st_info) != STB_LOCAL &&
                     !strcmp(names + syms[i].st_name, symbol);
    }
    free(names);
    free(syms);
    close(fd);
    return rc;
}

/* ---- static archives ------------------------------------------------------ */

/* A member header of the common ar format: 60 bytes, text fields, "`\n" last. */
#define AR_MAGIC "!<arch>\n"
#define AR_HEADER 60
#define MAX_AR_MEMBERS 100000

int ortkit__elf_archive_machine(const char *path, unsigned *machine, size_t *objects)
{
    *machine = 0;
    *objects = 0;
    int fd;
    struct stat st;
    if (ortkit__file_open(&fd, path, 0, &st))
        return ORTKIT_E_IO;
    int rc = ORTKIT_OK;
    char magic[8];
    if (read_at(fd, magic, sizeof magic, 0) != 0 || memcmp(magic, AR_MAGIC, 8)) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' is not a static library (no \"!<arch>\" "
                               "header)", path);
        goto cleanup;
    }
    /* Each member: its header, its data, padded to an even offset.  The
     * symbol index ("/") and the long-name table ("//") are not objects. */
    uint64_t off = 8;
    for (size_t i = 0; off < (uint64_t)st.st_size && i < MAX_AR_MEMBERS; i++) {
        char h[AR_HEADER + 1];
        if (off + AR_HEADER > (uint64_t)st.st_size || read_at(fd, h, AR_HEADER, (off_t)off) != 0 ||
            h[58] != '`' || h[59] != '\n') {
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s': member header at offset %llu is "
                                   "damaged", path, (unsigned long long)off);
            goto cleanup;
        }
        h[58] = '\0';
        char *end;
        unsigned long long size = strtoull(h + 48, &end, 10);
        if (end == h + 48 || size > (uint64_t)st.st_size - off - AR_HEADER) {
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s': member at offset %llu claims %.10s "
                                   "bytes, past the end of the file", path,
                                   (unsigned long long)off, h + 48);
            goto cleanup;
        }
        int special = h[0] == '/' && (h[1] == ' ' || (h[1] == '/' && h[2] == ' '));
        unsigned char ehdr[EI_NIDENT + 4];
        if (!special && size >= sizeof(Elf64_Ehdr) &&
            read_at(fd, ehdr, sizeof ehdr, (off_t)(off + AR_HEADER)) == 0 &&
            !memcmp(ehdr, ELFMAG, SELFMAG)) {
            /* e_machine follows e_type, both in the file's byte order. */
            unsigned m = ehdr[EI_DATA] == ELFDATA2MSB ? (unsigned)ehdr[18] << 8 | ehdr[19]
                                                      : (unsigned)ehdr[19] << 8 | ehdr[18];
            if (*objects && m != *machine) {
                char a[32], b[32];
                rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' mixes objects for %s and %s", path,
                                       ortkit__elf_machine_name(*machine, a, sizeof a),
                                       ortkit__elf_machine_name(m, b, sizeof b));
                goto cleanup;
            }
            *machine = m;
            (*objects)++;
        }
        off += AR_HEADER + size + (size & 1);
    }
    if (!*objects)
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' holds no ELF object", path);
cleanup:
    close(fd);
    return rc;
}
