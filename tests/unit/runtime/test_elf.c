/*
 * test_elf.c - the ELF reader on real libraries (the ONNX Runtime builds the
 * tests use, this process's own libc) and on broken files: real libraries cut
 * short, and small hand-made images each wrong in one way.
 *
 * The expected SONAME, RUNPATH/RPATH and DT_NEEDED lists of the real
 * libraries were read with binutils' readelf -d, their symbol versions with
 * readelf -V; this system's libstdc++ is compared with readelf -V run here.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr */
#endif
#include "testutil.h"
#include "scratch.h"

#include "bundle.h"

#include <dlfcn.h>
#include <link.h>
#include <elf.h>
#include <gnu/libc-version.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

static int make_scratch(void **state)
{
    (void)state;
    return scratch_make("elf");
}

static int remove_scratch(void **state)
{
    (void)state;
    return scratch_remove();
}

static void write_bytes(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(size ? fwrite(data, 1, size, f) : 0, size);
    assert_int_equal(fclose(f), 0);
}

/* The first size bytes of a file, written to name in the scratch directory. */
static const char *cut(const char *from, size_t size, const char *name)
{
    static unsigned char buf[64 << 10];
    assert_true(size <= sizeof buf);
    FILE *f = fopen(from, "rb");
    assert_non_null(f);
    assert_int_equal(fread(buf, 1, size, f), size);
    fclose(f);
    write_bytes(at(name), buf, size);
    return at(name);
}

static void read_ok(ortkit__elf *e, const char *path)
{
    if (ortkit__elf_read(e, path))
        fail_msg("cannot read %s: %s", path, ortkit_error_last());
}

/* Reading fails with code and a message holding why; nothing is left behind. */
static void read_fails(const char *path, int code, const char *why)
{
    ortkit__elf e;
    memset(&e, 0xa5, sizeof e);
    assert_int_equal(ortkit__elf_read(&e, path), code);
    assert_error_has(why);
    assert_null(e.soname);
    assert_null(e.runpath);
    assert_null(e.rpath);
    assert_null(e.needed);
    assert_int_equal(e.needed_count, 0);
}

static void assert_needed(const ortkit__elf *e, const char *const *names, size_t n)
{
    if (e->needed_count != n)
        fail_msg("%zu DT_NEEDED entries, expected %zu", e->needed_count, n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(e->needed[i], names[i]);
}

/* ---- real libraries ------------------------------------------------------- */

/* What Microsoft's 1.30.0 needs, and its arm64 1.17.3 as well. */
static const char *const ort_needed[] = {"libdl.so.2",  "librt.so.1",    "libpthread.so.0",
                                         "libstdc++.so.6", "libm.so.6", "libgcc_s.so.1",
                                         "libc.so.6", TEST_LOADER};

static void test_runtime_1_30(void **state)
{
    (void)state;
    ortkit__elf e;
    read_ok(&e, ORTKIT_TEST_RUNTIME_NEW "/libonnxruntime.so.1");
    assert_int_equal(e.elf_class, ELFCLASS64);
    assert_true(e.little_endian);
    assert_int_equal(e.type, ET_DYN);
    assert_int_equal(e.machine, TEST_EM);
    assert_int_equal(ortkit__elf_arch(e.machine), TEST_ARCH);
    assert_string_equal(e.soname, "libonnxruntime.so.1");
    assert_string_equal(e.runpath, "$ORIGIN");
    assert_null(e.rpath);
    assert_true(ortkit__elf_origin(e.runpath));
    assert_needed(&e, ort_needed, sizeof ort_needed / sizeof ort_needed[0]);
    /* GLIBC_2.28 over GLIBC_2.3.2, 2.14, 2.27; GLIBCXX_3.4.22 over 3.4.9. */
    assert_string_equal(e.need_glibc, "2.28");
    assert_string_equal(e.need_glibcxx, "3.4.22");
    assert_string_equal(e.need_cxxabi, "1.3.11");
    assert_string_equal(e.def_glibcxx, ""); /* it defines VERS_1.30.0 only */
    assert_false(e.exec_stack); /* PT_GNU_STACK RW */
    ortkit__elf_free(&e);
    ortkit__elf_free(&e); /* a freed record is empty: freeing it again is harmless */
}

/* 1.17.3 for x86-64 says $ORIGIN through the older DT_RPATH, needs zlib and
 * comes with its providers' bridge; the arm64 build says it through
 * DT_RUNPATH, needs no zlib, an older glibc, and comes alone. */
static void test_runtime_1_17(void **state)
{
    (void)state;
#if defined(__aarch64__)
    ortkit__elf e;
    read_ok(&e, ORTKIT_TEST_RUNTIME_OLD "/libonnxruntime.so");
    assert_int_equal(e.machine, TEST_EM);
    assert_string_equal(e.soname, "libonnxruntime.so.1.17.3");
    assert_string_equal(e.runpath, "$ORIGIN");
    assert_null(e.rpath);
    assert_needed(&e, ort_needed, sizeof ort_needed / sizeof ort_needed[0]);
    assert_string_equal(e.need_glibc, "2.27");
    assert_string_equal(e.need_glibcxx, "3.4.22");
    assert_string_equal(e.need_cxxabi, "1.3.11");
    ortkit__elf_free(&e);
    assert_int_not_equal(access(ORTKIT_TEST_RUNTIME_OLD "/libonnxruntime_providers_shared.so", F_OK), 0);
#else
    static const char *const needed[] = {"libdl.so.2", "librt.so.1", "libz.so.1", "libpthread.so.0",
                                         "libstdc++.so.6", "libm.so.6", "libgcc_s.so.1",
                                         "libc.so.6", TEST_LOADER};
    static const char *const shared_needed[] = {"libstdc++.so.6", "libm.so.6", "libgcc_s.so.1",
                                                "libc.so.6"};
    ortkit__elf e;
    read_ok(&e, ORTKIT_TEST_RUNTIME_OLD "/libonnxruntime.so");
    assert_string_equal(e.soname, "libonnxruntime.so.1.17.3");
    assert_null(e.runpath);
    assert_string_equal(e.rpath, "$ORIGIN");
    assert_needed(&e, needed, sizeof needed / sizeof needed[0]);
    assert_string_equal(e.need_glibc, "2.27");
    assert_string_equal(e.need_glibcxx, "3.4.22");
    assert_string_equal(e.need_cxxabi, "1.3.11");
    ortkit__elf_free(&e);

    read_ok(&e, ORTKIT_TEST_RUNTIME_OLD "/libonnxruntime_providers_shared.so");
    assert_int_equal(e.type, ET_DYN);
    assert_string_equal(e.soname, "libonnxruntime_providers_shared.so");
    assert_string_equal(e.rpath, "$ORIGIN");
    assert_needed(&e, shared_needed, sizeof shared_needed / sizeof shared_needed[0]);
    /* It names libstdc++ but asks for no version of it. */
    assert_string_equal(e.need_glibc, "2.2.5");
    assert_string_equal(e.need_glibcxx, "");
    assert_string_equal(e.need_cxxabi, "");
    ortkit__elf_free(&e);
#endif
}

/* The highest GLIBCXX_ version readelf -V finds in a file's definitions. */
static void readelf_glibcxx_defined(const char *path, char *best, size_t size)
{
    char cmd[1024], line[512];
    snprintf(cmd, sizeof cmd, "readelf -V --wide '%s'", path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    int in_defs = 0;
    best[0] = '\0';
    while (fgets(line, sizeof line, p)) {
        if (strstr(line, "Version definition section"))
            in_defs = 1;
        else if (strstr(line, "Version needs section") || strstr(line, "Version symbols section"))
            in_defs = 0;
        const char *v = in_defs ? strstr(line, "Name: GLIBCXX_") : NULL;
        if (!v)
            continue;
        v += strlen("Name: GLIBCXX_");
        char num[32];
        size_t n = strspn(v, "0123456789.");
        if (n == 0 || n >= sizeof num)
            continue;
        memcpy(num, v, n);
        num[n] = '\0';
        if (!best[0] || ortkit__version_compare(num, best) > 0)
            snprintf(best, size, "%s", num);
    }
    assert_int_equal(pclose(p), 0);
}

/* This system's libstdc++: what it defines, as readelf sees it; what it needs of libc. */
static void test_this_libstdcxx(void **state)
{
    (void)state;
    void *h = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        skip();
    struct link_map *map = NULL;
    assert_int_equal(dlinfo(h, RTLD_DI_LINKMAP, &map), 0);
    char path[512];
    snprintf(path, sizeof path, "%s", map->l_name);
    dlclose(h);
    char expected[32];
    readelf_glibcxx_defined(path, expected, sizeof expected);
    assert_true(expected[0]);
    ortkit__elf e;
    read_ok(&e, path);
    assert_string_equal(e.def_glibcxx, expected);
    assert_true(ortkit__version_compare(e.def_glibcxx, "3.4.22") >= 0);
    assert_true(e.need_glibc[0]);
    assert_string_equal(e.need_glibcxx, ""); /* it defines GLIBCXX_, it does not need it */
    ortkit__elf_free(&e);
}

/* The C library this test runs with, wherever this system keeps it (found
 * through a function no sanitizer runtime intercepts). */
static void test_this_libc(void **state)
{
    (void)state;
    Dl_info info;
    assert_true(dladdr((void *)&gnu_get_libc_version, &info) != 0);
    assert_non_null(info.dli_fname);
    ortkit__elf e;
    read_ok(&e, info.dli_fname);
    assert_int_equal(e.elf_class, sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32);
    assert_int_equal(e.type, ET_DYN);
    assert_int_equal(ortkit__elf_arch(e.machine), ortkit_arch_here());
    assert_string_equal(e.soname, "libc.so.6");
    int loader = 0;
    for (size_t i = 0; i < e.needed_count; i++)
        loader |= !strncmp(e.needed[i], "ld-linux", 8);
    assert_true(loader);
    /* libc defines GLIBC_ versions, none of libstdc++'s, and needs the loader's. */
    assert_string_equal(e.def_glibcxx, "");
    assert_string_equal(e.need_glibcxx, "");
    assert_true(ortkit__version_compare(e.need_glibc, gnu_get_libc_version()) <= 0);
    ortkit__elf_free(&e);
    assert_int_equal(ortkit__elf_is(info.dli_fname), 1);
}

/* Real libraries cut short: each cut fails at the first part it removes. */
static void test_truncated_runtime(void **state)
{
    (void)state;
    const char *lib = ORTKIT_TEST_RUNTIME_OLD "/libonnxruntime.so.1.17.3";
    read_fails(cut(lib, 0, "empty.so"), ORTKIT_E_FORMAT, "is not an ELF file");
    read_fails(cut(lib, 3, "magic3.so"), ORTKIT_E_FORMAT, "is not an ELF file");
    read_fails(cut(lib, 19, "ident.so"), ORTKIT_E_FORMAT, "is not an ELF file");
    read_fails(cut(lib, 63, "header63.so"), ORTKIT_E_FORMAT, "truncated header");
    read_fails(cut(lib, 64, "header64.so"), ORTKIT_E_FORMAT, "program headers outside the file");
    read_fails(cut(lib, 4096, "page.so"), ORTKIT_E_FORMAT, "dynamic section outside the file");
    /* Only the header is read from a cut file; ortkit__elf_is needs only the magic. */
    assert_int_equal(ortkit__elf_is(at("magic3.so")), 0);
    assert_int_equal(ortkit__elf_is(at("ident.so")), 1);
}

static void test_not_elf(void **state)
{
    (void)state;
    read_fails(at("missing.so"), ORTKIT_E_IO, "cannot open");
    assert_error_has("missing.so");
    assert_true(ortkit__elf_is(at("missing.so")) < 0);
    assert_int_equal(mkdir(at("dir.so"), 0755), 0);
    read_fails(at("dir.so"), ORTKIT_E_IO, "it is a directory, not a regular file");
    assert_int_equal(ortkit__elf_is(at("dir.so")), 0);
    /* A FIFO is refused at once: opening it for reading would wait for a writer. */
    assert_int_equal(mkfifo(at("fifo.so"), 0644), 0);
    read_fails(at("fifo.so"), ORTKIT_E_IO, "it is a FIFO (named pipe), not a regular file");
    assert_int_equal(ortkit__elf_is(at("fifo.so")), 0);
    read_fails(model_path("add.onnx"), ORTKIT_E_FORMAT, "is not an ELF file");
    assert_int_equal(ortkit__elf_is(model_path("add.onnx")), 0);
    static const char script[] = "#!/bin/sh\nexec true\n";
    write_bytes(at("script.so"), script, sizeof script - 1);
    read_fails(at("script.so"), ORTKIT_E_FORMAT, "is not an ELF file");
}

/* ---- hand-made images ----------------------------------------------------- */

/* One PT_LOAD at BASE covering the whole file, then PT_DYNAMIC, the dynamic
 * entries and their string table, in that order. */
#define BASE 0x400000u
#define IMAGE_MAX (24u << 10)

typedef struct image {
    _Alignas(8) unsigned char data[IMAGE_MAX];
    size_t size;
    Elf64_Ehdr *eh;
    Elf64_Phdr *load, *dynamic;
    Elf64_Dyn *dyn;
    size_t ndyn;
    char *strtab;
    size_t strsz;
} image;

typedef struct spec {
    const char *soname, *runpath, *rpath;
    const char *const *needed;
    size_t needed_count;
} spec;

static uint64_t add_string(image *im, const char *s)
{
    uint64_t off = im->strsz;
    size_t n = strlen(s) + 1;
    assert_true((size_t)(im->strtab - (char *)im->data) + off + n <= IMAGE_MAX);
    memcpy(im->strtab + off, s, n);
    im->strsz += n;
    return off;
}

static void add_dyn(image *im, int64_t tag, uint64_t val)
{
    im->dyn[im->ndyn].d_tag = tag;
    im->dyn[im->ndyn].d_un.d_val = val;
    im->ndyn++;
}

static image *build(const spec *s)
{
    static image im;
    memset(&im, 0, sizeof im);
    im.eh = (Elf64_Ehdr *)im.data;
    im.load = (Elf64_Phdr *)(im.data + sizeof(Elf64_Ehdr));
    im.dynamic = im.load + 1;
    im.dyn = (Elf64_Dyn *)(im.dynamic + 1);
    size_t entries = 6 + s->needed_count; /* SONAME, RUNPATH, RPATH, STRTAB, STRSZ, NULL */
    im.strtab = (char *)(im.dyn + entries);
    add_string(&im, ""); /* offset 0 is the empty string, as in real files */

    if (s->soname)
        add_dyn(&im, DT_SONAME, add_string(&im, s->soname));
    for (size_t i = 0; i < s->needed_count; i++)
        add_dyn(&im, DT_NEEDED, add_string(&im, s->needed[i]));
    if (s->runpath)
        add_dyn(&im, DT_RUNPATH, add_string(&im, s->runpath));
    if (s->rpath)
        add_dyn(&im, DT_RPATH, add_string(&im, s->rpath));
    add_dyn(&im, DT_STRTAB, BASE + (uint64_t)((unsigned char *)im.strtab - im.data));
    add_dyn(&im, DT_STRSZ, im.strsz);
    add_dyn(&im, DT_NULL, 0);
    im.size = (size_t)((unsigned char *)im.strtab - im.data) + im.strsz;

    memcpy(im.eh->e_ident, ELFMAG, SELFMAG);
    im.eh->e_ident[EI_CLASS] = ELFCLASS64;
    im.eh->e_ident[EI_DATA] = ELFDATA2LSB;
    im.eh->e_ident[EI_VERSION] = EV_CURRENT;
    im.eh->e_type = ET_DYN;
    im.eh->e_machine = EM_AARCH64;
    im.eh->e_version = EV_CURRENT;
    im.eh->e_phoff = sizeof(Elf64_Ehdr);
    im.eh->e_ehsize = sizeof(Elf64_Ehdr);
    im.eh->e_phentsize = sizeof(Elf64_Phdr);
    im.eh->e_phnum = 2;
    im.load->p_type = PT_LOAD;
    im.load->p_vaddr = BASE;
    im.load->p_filesz = im.load->p_memsz = im.size;
    im.dynamic->p_type = PT_DYNAMIC;
    im.dynamic->p_offset = (uint64_t)((unsigned char *)im.dyn - im.data);
    im.dynamic->p_vaddr = BASE + im.dynamic->p_offset;
    im.dynamic->p_filesz = im.dynamic->p_memsz = entries * sizeof(Elf64_Dyn);
    return &im;
}

static const char *save(const image *im, const char *name)
{
    write_bytes(at(name), im->data, im->size);
    return at(name);
}

static Elf64_Dyn *find_dyn(image *im, int64_t tag)
{
    for (size_t i = 0; i < im->ndyn; i++)
        if (im->dyn[i].d_tag == tag)
            return &im->dyn[i];
    fail_msg("no dynamic entry %lld", (long long)tag);
    return NULL;
}

static const char *const two[] = {"libcudart.so.12", "libm.so.6"};
static const spec full = {"libexample.so.1", "$ORIGIN:/opt/x", "/old", two, 2};

static void test_image(void **state)
{
    (void)state;
    ortkit__elf e;
    read_ok(&e, save(build(&full), "full.so"));
    assert_int_equal(e.elf_class, ELFCLASS64);
    assert_int_equal(e.type, ET_DYN);
    assert_int_equal(e.machine, EM_AARCH64);
    assert_int_equal(ortkit__elf_arch(e.machine), ORTKIT_ARCH_AARCH64);
    assert_string_equal(e.soname, "libexample.so.1");
    assert_string_equal(e.runpath, "$ORIGIN:/opt/x");
    assert_string_equal(e.rpath, "/old");
    assert_needed(&e, two, 2);
    /* No PT_GNU_STACK: the loader gives it an executable stack. */
    assert_true(e.exec_stack);
    ortkit__elf_free(&e);

    /* Linked here: with -z execstack, and without. */
    read_ok(&e, ORTKIT_TEST_STUBS "/libstub_exec_stack.so");
    assert_true(e.exec_stack);
    ortkit__elf_free(&e);
    read_ok(&e, ORTKIT_TEST_STUBS "/libstub_no_symbol.so");
    assert_false(e.exec_stack);
    ortkit__elf_free(&e);

    /* Nothing but the string table: no SONAME, no paths, no DT_NEEDED. */
    const spec bare = {0};
    read_ok(&e, save(build(&bare), "bare.so"));
    assert_null(e.soname);
    assert_null(e.runpath);
    assert_null(e.needed);
    assert_int_equal(e.needed_count, 0);
    ortkit__elf_free(&e);
}

/* Entries after DT_NULL are not read; a repeated SONAME keeps the last. */
static void test_image_entry_order(void **state)
{
    (void)state;
    const char *const one[] = {"libfirst.so"};
    const spec s = {"libexample.so.1", NULL, NULL, one, 1};
    image *im = build(&s);
    /* Make the DT_NEEDED entry a second DT_SONAME naming "libfirst.so". */
    find_dyn(im, DT_NEEDED)->d_tag = DT_SONAME;
    ortkit__elf e;
    read_ok(&e, save(im, "twice.so"));
    assert_string_equal(e.soname, "libfirst.so");
    ortkit__elf_free(&e);

    /* The DT_NEEDED entry moved to the slot after DT_NULL (the section has room). */
    im = build(&s);
    Elf64_Dyn *needed = find_dyn(im, DT_NEEDED);
    im->dyn[im->ndyn] = *needed;
    needed->d_tag = DT_DEBUG;
    read_ok(&e, save(im, "after_null.so"));
    assert_int_equal(e.needed_count, 0);
    ortkit__elf_free(&e);
}

/* A string table found only through the segment that maps it. */
static void test_image_segments(void **state)
{
    (void)state;
    image *im = build(&full);
    im->eh->e_phnum = 0;
    ortkit__elf e;
    read_ok(&e, save(im, "no_phdrs.o"));
    assert_int_equal(e.machine, EM_AARCH64);
    assert_null(e.soname);
    ortkit__elf_free(&e);

    im = build(&full);
    im->dynamic->p_type = PT_NOTE; /* statically linked: nothing dynamic to read */
    read_ok(&e, save(im, "static"));
    assert_null(e.soname);
    assert_int_equal(e.needed_count, 0);
    ortkit__elf_free(&e);

    im = build(&full);
    im->load->p_type = PT_NOTE;
    read_fails(save(im, "no_load.so"), ORTKIT_E_FORMAT, "no usable dynamic string table");

    im = build(&full);
    im->load->p_vaddr = BASE + 0x100000; /* the string table's address is mapped nowhere */
    read_fails(save(im, "unmapped.so"), ORTKIT_E_FORMAT, "no usable dynamic string table");
}

static void test_image_broken_headers(void **state)
{
    (void)state;
    image *im = build(&full);
    im->eh->e_ident[EI_CLASS] = 3;
    read_fails(save(im, "class.so"), ORTKIT_E_FORMAT, "unknown ELF class");

    im = build(&full);
    im->eh->e_ident[EI_DATA] = ELFDATANONE;
    read_fails(save(im, "data.so"), ORTKIT_E_FORMAT, "unknown byte order");

    im = build(&full);
    im->eh->e_phentsize = sizeof(Elf64_Phdr) - 1;
    read_fails(save(im, "phentsize.so"), ORTKIT_E_FORMAT, "program headers outside the file");

    im = build(&full);
    im->eh->e_phoff = im->size - sizeof(Elf64_Phdr);
    read_fails(save(im, "phoff.so"), ORTKIT_E_FORMAT, "program headers outside the file");

    im = build(&full);
    im->eh->e_phoff = UINT64_MAX - 8; /* offset + size wraps around */
    read_fails(save(im, "phoff_wrap.so"), ORTKIT_E_FORMAT, "program headers outside the file");

    im = build(&full);
    im->eh->e_phnum = 0xffff;
    read_fails(save(im, "phnum.so"), ORTKIT_E_FORMAT, "program headers outside the file");
}

static void test_image_broken_dynamic(void **state)
{
    (void)state;
    image *im = build(&full);
    im->dynamic->p_offset = im->size + 16;
    read_fails(save(im, "dyn_off.so"), ORTKIT_E_FORMAT, "dynamic section outside the file");

    im = build(&full);
    im->dynamic->p_filesz = im->size;
    read_fails(save(im, "dyn_size.so"), ORTKIT_E_FORMAT, "dynamic section outside the file");

    im = build(&full);
    im->dynamic->p_offset = UINT64_MAX - 15;
    read_fails(save(im, "dyn_wrap.so"), ORTKIT_E_FORMAT, "dynamic section outside the file");

    im = build(&full);
    find_dyn(im, DT_STRTAB)->d_tag = DT_DEBUG;
    read_fails(save(im, "no_strtab.so"), ORTKIT_E_FORMAT, "no usable dynamic string table");

    im = build(&full);
    find_dyn(im, DT_STRSZ)->d_un.d_val = 0;
    read_fails(save(im, "strsz0.so"), ORTKIT_E_FORMAT, "no usable dynamic string table");

    im = build(&full);
    find_dyn(im, DT_STRSZ)->d_un.d_val = im->strsz + 1; /* one byte past the end of the file */
    read_fails(save(im, "strsz.so"), ORTKIT_E_FORMAT, "no usable dynamic string table");

    im = build(&full);
    find_dyn(im, DT_STRSZ)->d_un.d_val = UINT64_MAX;
    read_fails(save(im, "strsz_max.so"), ORTKIT_E_FORMAT, "no usable dynamic string table");

    im = build(&full);
    find_dyn(im, DT_SONAME)->d_un.d_val = im->strsz;
    read_fails(save(im, "soname_off.so"), ORTKIT_E_FORMAT, "points outside the string table");

    /* The last string loses its terminator: the table ends inside it. */
    im = build(&full);
    find_dyn(im, DT_STRSZ)->d_un.d_val = im->strsz - 1;
    read_fails(save(im, "unterminated.so"), ORTKIT_E_FORMAT, "points outside the string table");

    /* A DT_NEEDED that fails after the SONAME was read: nothing leaks. */
    im = build(&full);
    find_dyn(im, DT_NEEDED)->d_un.d_val = UINT64_MAX;
    read_fails(save(im, "needed_off.so"), ORTKIT_E_FORMAT, "points outside the string table");
}

/* 256 DT_NEEDED entries are read; one more is refused. */
static void test_image_needed_limit(void **state)
{
    (void)state;
    static char names[257][16];
    static const char *list[257];
    for (size_t i = 0; i < 257; i++) {
        snprintf(names[i], sizeof names[i], "libn%03zu.so", i);
        list[i] = names[i];
    }
    const spec many = {"libmany.so", NULL, NULL, list, 256};
    ortkit__elf e;
    read_ok(&e, save(build(&many), "needed256.so"));
    assert_needed(&e, list, 256);
    ortkit__elf_free(&e);

    const spec too_many = {"libmany.so", NULL, NULL, list, 257};
    read_fails(save(build(&too_many), "needed257.so"), ORTKIT_E_FORMAT, "too many DT_NEEDED");
}

/* Other classes and byte orders: the header's facts only. */
static void test_other_kinds(void **state)
{
    (void)state;
    unsigned char h32[EI_NIDENT + 4] = {0x7f, 'E', 'L', 'F', ELFCLASS32, ELFDATA2LSB, EV_CURRENT};
    h32[EI_NIDENT] = ET_DYN;
    h32[EI_NIDENT + 2] = EM_386;
    write_bytes(at("i386.so"), h32, sizeof h32);
    ortkit__elf e;
    read_ok(&e, at("i386.so"));
    assert_int_equal(e.elf_class, ELFCLASS32);
    assert_true(e.little_endian);
    assert_int_equal(e.type, ET_DYN);
    assert_int_equal(e.machine, EM_386);
    assert_int_equal(ortkit__elf_arch(e.machine), ORTKIT_ARCH_UNKNOWN);
    assert_null(e.soname);
    ortkit__elf_free(&e);

    /* Big-endian 64-bit (ppc64): e_type and e_machine read most significant byte first. */
    image *im = build(&full);
    im->eh->e_ident[EI_DATA] = ELFDATA2MSB;
    unsigned char *t = im->data + EI_NIDENT;
    t[0] = 0, t[1] = ET_EXEC, t[2] = 0, t[3] = EM_PPC64;
    read_ok(&e, save(im, "ppc64.so"));
    assert_int_equal(e.elf_class, ELFCLASS64);
    assert_false(e.little_endian);
    assert_int_equal(e.type, ET_EXEC);
    assert_int_equal(e.machine, EM_PPC64);
    assert_null(e.soname);
    ortkit__elf_free(&e);
}

/* What may be handed to dlopen as a runtime, asked of the file first. */
static void test_check_runtime(void **state)
{
    (void)state;
    char buf[48];
    assert_int_equal(ortkit__elf_check_runtime(ORTKIT_TEST_RUNTIME_NEW "/libonnxruntime.so.1", "x"), 0);
    /* libc asks for an interpreter too, but has a SONAME: a library. */
    char libc[256];
    snprintf(libc, sizeof libc, "/lib/%s-linux-gnu/libc.so.6",
             ortkit_arch_here() == ORTKIT_ARCH_AARCH64 ? "aarch64" : "x86_64");
    if (access(libc, R_OK) == 0)
        assert_int_equal(ortkit__elf_check_runtime(libc, "x"), 0);

    /* A program, position-independent or not, is no library. */
    ortkit__elf e;
    read_ok(&e, "/proc/self/exe");
    assert_true(e.executable);
    assert_string_equal(ortkit__elf_kind(&e, buf, sizeof buf), "an executable");
    ortkit__elf_free(&e);
    assert_int_equal(ortkit__elf_check_runtime("/proc/self/exe", "the test"), ORTKIT_E_RUNTIME_INVALID);
    assert_error_has("runtime '/proc/self/exe' (from the test): it is an executable, not a shared library");
    image *im = build(&full);
    im->eh->e_type = ET_EXEC;
    assert_int_equal(ortkit__elf_check_runtime(save(im, "exec.so"), "x"), ORTKIT_E_RUNTIME_INVALID);
    assert_error_has("it is an executable, not a shared library");
    im = build(&full);
    im->eh->e_type = ET_REL;
    assert_int_equal(ortkit__elf_check_runtime(save(im, "object.so"), "x"), ORTKIT_E_RUNTIME_INVALID);
    assert_error_has("it is an object file, not a shared library");

    /* Another machine, named as such (dlopen would say "No such file"). */
    int other_is_arm = ortkit_arch_here() != ORTKIT_ARCH_AARCH64;
    im = build(&full);
    im->eh->e_machine = other_is_arm ? EM_AARCH64 : EM_X86_64;
    assert_int_equal(ortkit__elf_check_runtime(save(im, "other.so"), "ORTKIT_RUNTIME"),
                     ORTKIT_E_RUNTIME_INVALID);
    assert_error_has(other_is_arm ? "(from ORTKIT_RUNTIME): it is built for aarch64, this machine is x86_64"
                                  : "(from ORTKIT_RUNTIME): it is built for x86_64, this machine is aarch64");
    unsigned char h32[EI_NIDENT + 4] = {0x7f, 'E', 'L', 'F', ELFCLASS32, ELFDATA2LSB, EV_CURRENT};
    h32[EI_NIDENT] = ET_DYN;
    h32[EI_NIDENT + 2] = EM_386;
    write_bytes(at("i386-lib.so"), h32, sizeof h32);
    assert_int_equal(ortkit__elf_check_runtime(at("i386-lib.so"), "x"), ORTKIT_E_RUNTIME_INVALID);
    assert_error_has("it is built for ELF machine 3 (32-bit), this machine is");

    /* Not ELF, not there, not a regular file: the reader's reason, with the runtime's place. */
    assert_int_equal(ortkit__elf_check_runtime(model_path("add.onnx"), "options"), ORTKIT_E_RUNTIME_INVALID);
    assert_error_has("(from options): ");
    assert_error_has("is not an ELF file");
    assert_int_equal(mkfifo(at("fifo-rt.so"), 0644), 0);
    assert_int_equal(ortkit__elf_check_runtime(at("fifo-rt.so"), "x"), ORTKIT_E_RUNTIME_INVALID);
    assert_error_has("it is a FIFO (named pipe), not a regular file");

    e.type = ET_CORE;
    assert_string_equal(ortkit__elf_kind(&e, buf, sizeof buf), "a core dump");
    e.type = 0x1234;
    assert_string_equal(ortkit__elf_kind(&e, buf, sizeof buf), "an ELF file of type 4660");
}

/* ---- symbol versions in hand-made images ---------------------------------- */

/* Bytes appended to an image (8-aligned), inside its one PT_LOAD: their file offset. */
static uint64_t append(image *im, const void *data, size_t size)
{
    size_t at = (im->size + 7) & ~(size_t)7;
    assert_true(at + size <= IMAGE_MAX);
    memset(im->data + im->size, 0, at - im->size);
    memcpy(im->data + at, data, size);
    im->size = at + size;
    im->load->p_filesz = im->load->p_memsz = im->size;
    return at;
}

/* A string added to the image's string table (the last thing in it so far). */
static uint64_t append_string(image *im, const char *s)
{
    uint64_t off = add_string(im, s);
    find_dyn(im, DT_STRSZ)->d_un.d_val = im->strsz;
    im->size = (size_t)((unsigned char *)im->strtab - im->data) + im->strsz;
    im->load->p_filesz = im->load->p_memsz = im->size;
    return off;
}

typedef struct verneed_blob {
    Elf64_Verneed vn[2];
    Elf64_Vernaux va[4];
} verneed_blob;

/* The full image needing, of libc.so.6, each of names[0..n) (at most 3),
 * and of libstdc++.so.6 one more (last), through DT_VERNEED in place of
 * DT_RUNPATH and DT_VERNEEDNUM in place of DT_RPATH.  *blob_at: where the
 * records lie in the file. */
static image *with_verneed(const char *const *names, size_t n, const char *last, verneed_blob **blob)
{
    image *im = build(&full);
    verneed_blob b;
    memset(&b, 0, sizeof b);
    uint64_t libc = append_string(im, "libc.so.6"), cxx = append_string(im, "libstdc++.so.6");
    /* vn[0] at 0, its aux at va[0]; vn[1] at 16, its aux at va[3]. */
    b.vn[0].vn_version = 1;
    b.vn[0].vn_cnt = (Elf64_Half)n;
    b.vn[0].vn_file = (Elf64_Word)libc;
    b.vn[0].vn_aux = (Elf64_Word)offsetof(verneed_blob, va);
    b.vn[0].vn_next = sizeof(Elf64_Verneed);
    for (size_t i = 0; i < n; i++) {
        b.va[i].vna_name = (Elf64_Word)append_string(im, names[i]);
        b.va[i].vna_other = (Elf64_Half)(2 + i);
        b.va[i].vna_next = i + 1 < n ? sizeof(Elf64_Vernaux) : 0;
    }
    b.vn[1].vn_version = 1;
    b.vn[1].vn_cnt = 1;
    b.vn[1].vn_file = (Elf64_Word)cxx;
    b.vn[1].vn_aux = (Elf64_Word)(offsetof(verneed_blob, va) + 3 * sizeof(Elf64_Vernaux) - sizeof(Elf64_Verneed));
    b.va[3].vna_name = (Elf64_Word)append_string(im, last);
    uint64_t at = append(im, &b, sizeof b);
    Elf64_Dyn *d = find_dyn(im, DT_RUNPATH);
    d->d_tag = DT_VERNEED;
    d->d_un.d_ptr = BASE + at;
    d = find_dyn(im, DT_RPATH);
    d->d_tag = DT_VERNEEDNUM;
    d->d_un.d_val = 2;
    *blob = (verneed_blob *)(im->data + at);
    return im;
}

static void test_image_verneed(void **state)
{
    (void)state;
    static const char *const names[] = {"GLIBC_2.9", "GLIBC_PRIVATE", "GLIBC_2.10"};
    verneed_blob *b;
    ortkit__elf e;
    /* 2.10 over 2.9 (numbers, not text); GLIBC_PRIVATE passed over. */
    read_ok(&e, save(with_verneed(names, 3, "GLIBCXX_3.4.32", &b), "verneed.so"));
    assert_string_equal(e.need_glibc, "2.10");
    assert_string_equal(e.need_glibcxx, "3.4.32");
    assert_string_equal(e.need_cxxabi, "");
    assert_string_equal(e.soname, "libexample.so.1");
    assert_null(e.runpath);
    ortkit__elf_free(&e);

    static const char *const odd[] = {"GLIBC_2.", "GLIBC_ABI_DT_RELR", "GLIBC_.2"};
    read_ok(&e, save(with_verneed(odd, 3, "CXXABI_1.3.15", &b), "verneed_odd.so"));
    assert_string_equal(e.need_glibc, "");
    assert_string_equal(e.need_glibcxx, ""); /* GLIBCXX_ is not GLIBC_ */
    assert_string_equal(e.need_cxxabi, "1.3.15");
    ortkit__elf_free(&e);

    /* A name outside the string table, in the first and the second file. */
    image *im = with_verneed(names, 3, "GLIBCXX_3.4.32", &b);
    b->va[1].vna_name = (Elf64_Word)im->strsz;
    read_fails(save(im, "vna_name.so"), ORTKIT_E_FORMAT, "names a version outside the string table");
    im = with_verneed(names, 3, "GLIBCXX_3.4.32", &b);
    b->vn[1].vn_file = UINT32_MAX;
    read_fails(save(im, "vn_file.so"), ORTKIT_E_FORMAT, "names a file outside the string table");

    /* Records outside the file: the aux list, the next file, the section itself. */
    im = with_verneed(names, 3, "GLIBCXX_3.4.32", &b);
    b->vn[0].vn_aux = UINT32_MAX;
    read_fails(save(im, "vn_aux.so"), ORTKIT_E_FORMAT, "version needs outside the file");
    im = with_verneed(names, 3, "GLIBCXX_3.4.32", &b);
    b->va[0].vna_next = (Elf64_Word)im->size;
    read_fails(save(im, "vna_next.so"), ORTKIT_E_FORMAT, "version needs outside the file");
    im = with_verneed(names, 3, "GLIBCXX_3.4.32", &b);
    b->vn[0].vn_next = UINT32_MAX;
    read_fails(save(im, "vn_next.so"), ORTKIT_E_FORMAT, "version needs outside the file");
    im = with_verneed(names, 3, "GLIBCXX_3.4.32", &b);
    find_dyn(im, DT_VERNEED)->d_un.d_ptr = BASE + 0x100000;
    read_fails(save(im, "verneed_addr.so"), ORTKIT_E_FORMAT, "version needs outside the loaded segments");
    im = with_verneed(names, 3, "GLIBCXX_3.4.32", &b);
    read_fails(cut(save(im, "whole.so"), im->size - 8, "verneed_cut.so"), ORTKIT_E_FORMAT,
               "version needs outside the file");

    /* Counts that promise more than the chain holds. */
    im = with_verneed(names, 3, "GLIBCXX_3.4.32", &b);
    b->vn[0].vn_cnt = 4;
    read_fails(save(im, "vn_cnt.so"), ORTKIT_E_FORMAT, "a version need ends before its count");
    im = with_verneed(names, 3, "GLIBCXX_3.4.32", &b);
    find_dyn(im, DT_VERNEEDNUM)->d_un.d_val = UINT64_MAX;
    read_fails(save(im, "verneednum.so"), ORTKIT_E_FORMAT, "version needs end before DT_VERNEEDNUM");
    /* A count of 0 reads nothing. */
    im = with_verneed(names, 3, "GLIBCXX_3.4.32", &b);
    find_dyn(im, DT_VERNEEDNUM)->d_un.d_val = 0;
    read_ok(&e, save(im, "verneednum0.so"));
    assert_string_equal(e.need_glibc, "");
    ortkit__elf_free(&e);
}

typedef struct verdef_blob {
    Elf64_Verdef vd[3];
    Elf64_Verdaux vda[3];
} verdef_blob;

/* The full image defining its base name and two GLIBCXX_ versions. */
static image *with_verdef(verdef_blob **blob)
{
    image *im = build(&full);
    verdef_blob b;
    memset(&b, 0, sizeof b);
    static const char *const names[] = {"GLIBCXX_9.9", "GLIBCXX_3.4.10", "GLIBCXX_3.4.9"};
    for (size_t i = 0; i < 3; i++) {
        b.vd[i].vd_version = 1;
        b.vd[i].vd_flags = i == 0 ? VER_FLG_BASE : 0; /* the base names the file: not counted */
        b.vd[i].vd_ndx = (Elf64_Half)(i + 1);
        b.vd[i].vd_cnt = 1;
        b.vd[i].vd_aux = (Elf64_Word)(offsetof(verdef_blob, vda) + i * sizeof(Elf64_Verdaux) -
                                      i * sizeof(Elf64_Verdef));
        b.vd[i].vd_next = i < 2 ? sizeof(Elf64_Verdef) : 0;
        b.vda[i].vda_name = (Elf64_Word)append_string(im, names[i]);
    }
    uint64_t at = append(im, &b, sizeof b);
    Elf64_Dyn *d = find_dyn(im, DT_RUNPATH);
    d->d_tag = DT_VERDEF;
    d->d_un.d_ptr = BASE + at;
    d = find_dyn(im, DT_RPATH);
    d->d_tag = DT_VERDEFNUM;
    d->d_un.d_val = 3;
    *blob = (verdef_blob *)(im->data + at);
    return im;
}

static void test_image_verdef(void **state)
{
    (void)state;
    verdef_blob *b;
    ortkit__elf e;
    read_ok(&e, save(with_verdef(&b), "verdef.so"));
    assert_string_equal(e.def_glibcxx, "3.4.10");
    ortkit__elf_free(&e);

    image *im = with_verdef(&b);
    b->vda[2].vda_name = (Elf64_Word)im->strsz + 100;
    read_fails(save(im, "vda_name.so"), ORTKIT_E_FORMAT, "names a version outside the string table");
    im = with_verdef(&b);
    b->vd[1].vd_aux = UINT32_MAX;
    read_fails(save(im, "vd_aux.so"), ORTKIT_E_FORMAT, "version definitions outside the file");
    im = with_verdef(&b);
    b->vd[1].vd_next = UINT32_MAX;
    read_fails(save(im, "vd_next.so"), ORTKIT_E_FORMAT, "version definitions outside the file");
    im = with_verdef(&b);
    find_dyn(im, DT_VERDEFNUM)->d_un.d_val = 4;
    read_fails(save(im, "verdefnum.so"), ORTKIT_E_FORMAT, "version definitions end before DT_VERDEFNUM");
    im = with_verdef(&b);
    find_dyn(im, DT_VERDEF)->d_un.d_ptr = 1;
    read_fails(save(im, "verdef_addr.so"), ORTKIT_E_FORMAT, "version definitions outside the loaded segments");
}

static void test_names(void **state)
{
    (void)state;
    char buf[32];
    assert_string_equal(ortkit__elf_machine_name(EM_X86_64, buf, sizeof buf), "x86_64");
    assert_string_equal(ortkit__elf_machine_name(EM_AARCH64, buf, sizeof buf), "aarch64");
    assert_string_equal(ortkit__elf_machine_name(EM_386, buf, sizeof buf), "ELF machine 3");
    assert_int_equal(ortkit__elf_arch(EM_ARM), ORTKIT_ARCH_UNKNOWN);

    assert_true(ortkit__elf_origin("$ORIGIN"));
    assert_true(ortkit__elf_origin("${ORIGIN}"));
    assert_true(ortkit__elf_origin("/opt/cuda/lib64:$ORIGIN"));
    assert_true(ortkit__elf_origin("::$ORIGIN:"));
    assert_false(ortkit__elf_origin(NULL));
    assert_false(ortkit__elf_origin(""));
    assert_false(ortkit__elf_origin("/usr/lib"));
    assert_false(ortkit__elf_origin("$ORIGINAL"));
    assert_false(ortkit__elf_origin("ORIGIN"));
}

/* One ar member: the 60-byte header, then data, padded to even. */
static size_t ar_member(unsigned char *out, const char *name, const void *data, size_t size,
                        const char *size_field)
{
    char h[80];
    char sz[24];
    snprintf(sz, sizeof sz, "%zu", size);
    snprintf(h, sizeof h, "%-16s%-12s%-6s%-6s%-8s%-10s`\n", name, "0", "0", "0", "644",
             size_field ? size_field : sz);
    memcpy(out, h, 60);
    memcpy(out + 60, data, size);
    size_t n = 60 + size;
    if (size & 1)
        out[n++] = '\n';
    return n;
}

static void elf_header(unsigned char *e, unsigned machine)
{
    memset(e, 0, sizeof(Elf64_Ehdr));
    memcpy(e, ELFMAG, SELFMAG);
    e[EI_CLASS] = ELFCLASS64;
    e[EI_DATA] = ELFDATA2LSB;
    e[16] = ET_REL;
    e[18] = (unsigned char)(machine & 0xff);
    e[19] = (unsigned char)(machine >> 8);
}

/* Static libraries: what `ar` writes is read (the symbol index and the
 * long-name table passed over); damaged and mixed ones are refused. */
static void test_archives(void **state)
{
    (void)state;
    static unsigned char buf[4096];
    unsigned char x86[sizeof(Elf64_Ehdr)], arm[sizeof(Elf64_Ehdr)];
    elf_header(x86, EM_X86_64);
    elf_header(arm, EM_AARCH64);
    unsigned machine = 0;
    size_t objects = 0, n = 8;

    memcpy(buf, "!<arch>\n", 8);
    n += ar_member(buf + n, "/", "\0\0\0\0", 4, NULL);
    n += ar_member(buf + n, "//", "a_long_member_name.o/\n", 22, NULL);
    n += ar_member(buf + n, "a.o/", x86, sizeof x86, NULL);
    n += ar_member(buf + n, "/0", x86, sizeof x86, NULL);
    n += ar_member(buf + n, "notes.txt/", "odd", 3, NULL);
    write_bytes(at("good.a"), buf, n);
    assert_int_equal(ortkit__elf_archive_machine(at("good.a"), &machine, &objects), 0);
    assert_int_equal(machine, EM_X86_64);
    assert_int_equal(objects, 2);

    /* Mixed machines. */
    size_t m = n + ar_member(buf + n, "b.o/", arm, sizeof arm, NULL);
    write_bytes(at("mixed.a"), buf, m);
    assert_int_equal(ortkit__elf_archive_machine(at("mixed.a"), &machine, &objects), ORTKIT_E_FORMAT);
    assert_non_null(strstr(ortkit_error_last(), "mixes objects for x86_64 and aarch64"));

    /* A member that claims more than the file holds, a cut header, no objects, no magic. */
    m = 8 + ar_member(buf + 8, "a.o/", x86, sizeof x86, "999999");
    write_bytes(at("long.a"), buf, m);
    assert_int_equal(ortkit__elf_archive_machine(at("long.a"), &machine, &objects), ORTKIT_E_FORMAT);
    assert_non_null(strstr(ortkit_error_last(), "past the end of the file"));
    write_bytes(at("cut.a"), buf, 8 + 30);
    assert_int_equal(ortkit__elf_archive_machine(at("cut.a"), &machine, &objects), ORTKIT_E_FORMAT);
    assert_non_null(strstr(ortkit_error_last(), "is damaged"));
    m = 8 + ar_member(buf + 8, "notes.txt/", "text", 4, NULL);
    write_bytes(at("empty.a"), buf, m);
    assert_int_equal(ortkit__elf_archive_machine(at("empty.a"), &machine, &objects), ORTKIT_E_FORMAT);
    assert_non_null(strstr(ortkit_error_last(), "holds no ELF object"));
    assert_int_equal(ortkit__elf_archive_machine(ORTKIT_TEST_RUNTIME_NEW "/libonnxruntime.so.1",
                                                 &machine, &objects), ORTKIT_E_FORMAT);
    assert_non_null(strstr(ortkit_error_last(), "is not a static library"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runtime_1_30),
        cmocka_unit_test(test_runtime_1_17),
        cmocka_unit_test(test_this_libc),
        cmocka_unit_test(test_this_libstdcxx),
        cmocka_unit_test(test_image_verneed),
        cmocka_unit_test(test_image_verdef),
        cmocka_unit_test(test_truncated_runtime),
        cmocka_unit_test(test_not_elf),
        cmocka_unit_test(test_image),
        cmocka_unit_test(test_image_entry_order),
        cmocka_unit_test(test_image_segments),
        cmocka_unit_test(test_image_broken_headers),
        cmocka_unit_test(test_image_broken_dynamic),
        cmocka_unit_test(test_image_needed_limit),
        cmocka_unit_test(test_other_kinds),
        cmocka_unit_test(test_check_runtime),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_archives),
    };
    return cmocka_run_group_tests(tests, make_scratch, remove_scratch);
}
