/*
 * bundle.c - a bundle as an object: its manifest (read by bundle_manifest.c),
 * where it lies, and the cheap checks made on its library when it is opened.
 */
#include "bundle.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


int ortkit__bundle_cpu_level(const ortkit_manifest *m, const char **label)
{
    const ortkit_variant *v = NULL;
    if (!strcmp(m->variant, "cpu")) {
        if (label)
            *label = "any CPU";
        return 0;
    }
    if (ortkit_variant_parse(&v, m->variant) != 0) {
        if (label)
            *label = "unknown";
        return 0;
    }
    /* BF16 comes after VNNI: the CPUs with AVX-512 BF16 are the newer ones. */
    static const int rank[] = {[ORTKIT_ISA_AVX2] = 1, [ORTKIT_ISA_AVX512] = 2,
                               [ORTKIT_ISA_AVX512VNNI] = 3, [ORTKIT_ISA_AVX512BF16] = 4,
                               [ORTKIT_ISA_ARMV8_2] = 1, [ORTKIT_ISA_ARMV9] = 2};
    if (label)
        *label = ortkit_isa_name(v->isa);
    return (unsigned)v->isa < sizeof rank / sizeof rank[0] ? rank[v->isa] : 0;
}

/* ---- opening a bundle on disk --------------------------------------------- */

/* Cheap checks before a bundle is offered for loading: the whole file is
 * hashed only by verify, but a missing, truncated or foreign library is
 * caught here. */
static void check_library(ortkit_bundle *b)
{
    const ortkit_manifest *m = &b->m;
    const ortkit_bundle_file *f = ortkit__bundle_file(m, m->library);
    char lib_dir[PATH_MAX], mach[32];
    struct stat st;
    snprintf(lib_dir, sizeof lib_dir, "%s/lib", m->dir);
    if (lstat(lib_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(b->damage, sizeof b->damage, "lib/ is missing or not a directory");
        return;
    }
    if (lstat(b->library_path, &st) != 0) {
        snprintf(b->damage, sizeof b->damage, "%s is missing", m->library);
        return;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(b->damage, sizeof b->damage, "%s is not a regular file", m->library);
        return;
    }
    if ((uint64_t)st.st_size != f->size) {
        snprintf(b->damage, sizeof b->damage, "%s is %llu bytes, the manifest says %llu%s",
                 m->library, (unsigned long long)st.st_size, (unsigned long long)f->size,
                 (uint64_t)st.st_size < f->size ? " (truncated)" : "");
        return;
    }
    if (ortkit__bundle_is_static(m)) {
        unsigned machine;
        size_t objects;
        if (ortkit__elf_archive_machine(b->library_path, &machine, &objects) != 0)
            snprintf(b->damage, sizeof b->damage, "%s", ortkit_error_last());
        else if (ortkit__elf_arch(machine) != m->arch)
            snprintf(b->damage, sizeof b->damage, "%s holds objects for %s; the manifest says %s",
                     m->library, ortkit__elf_machine_name(machine, mach, sizeof mach),
                     ortkit_arch_name(m->arch));
        return;
    }
    ortkit__elf elf;
    if (ortkit__elf_read(&elf, b->library_path) != 0) {
        snprintf(b->damage, sizeof b->damage, "%s: %s", m->library, ortkit_error_last());
        return;
    }
    if (ortkit__elf_arch(elf.machine) != m->arch)
        snprintf(b->damage, sizeof b->damage, "%s is built for %s; the manifest says %s",
                 m->library, ortkit__elf_machine_name(elf.machine, mach, sizeof mach),
                 ortkit_arch_name(m->arch));
    ortkit__elf_free(&elf);
}

int ortkit_bundle_open(ortkit_bundle **out, const char *dir)
{
    if (!out || !dir)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_bundle_open: NULL argument");
    *out = NULL;
    char *real = realpath(dir, NULL);
    if (!real)
        return ortkit__error_set(ORTKIT_E_IO, "cannot open bundle '%s': %s", dir, strerror(errno));
    int rc = ORTKIT_OK;
    char path[PATH_MAX + 32], what[PATH_MAX + 40];
    char *json = NULL;
    size_t size = 0;
    ortkit_bundle *b = NULL;
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", real, BUNDLE_MANIFEST);
    snprintf(what, sizeof what, "'%s'", path);
    if (stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot open bundle '%s': not a directory", dir);
        goto cleanup;
    }
    /* The manifest itself must be a file of the bundle, not a link out of it. */
    if (lstat(path, &st) != 0) {
        rc = ortkit__error_set(ORTKIT_E_IO, "'%s' is not a bundle: %s: %s", dir, BUNDLE_MANIFEST,
                               strerror(errno));
        goto cleanup;
    }
    if (!S_ISREG(st.st_mode)) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "%s is not a regular file", what);
        goto cleanup;
    }
    if ((rc = ortkit__file_read(&json, &size, path, BUNDLE_MANIFEST_MAX)) ||
        (rc = ortkit__bundle_parse(&b, json, size, what)))
        goto cleanup;
    const char *slash = strrchr(real, '/');
    const char *name = slash && slash[1] ? slash + 1 : real;
    size_t n = strlen(real) + strlen(b->m.library) + 2;
    free(b->library_path);
    if (!(b->m.dir = ortkit__bundle_keep(b, real)) || !(b->m.name = ortkit__bundle_keep(b, name)) ||
        !(b->library_path = malloc(n))) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    snprintf(b->library_path, n, "%s/%s", real, b->m.library);
    check_library(b);
cleanup:
    free(json);
    free(real);
    if (rc)
        ortkit_bundle_free(b);
    else
        *out = b;
    return rc;
}
