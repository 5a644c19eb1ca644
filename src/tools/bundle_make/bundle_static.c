/*
 * bundle_static.c - what a static bundle adds to an import: the archive,
 * checked against the shared library of the same build, and the words a
 * program links after it.  The archive is never loaded: what can be known
 * of it without running it is its objects' machine and the version string
 * ONNX Runtime keeps in its read-only data.
 */
#include "bundle_make.h"

#include <stdio.h>
#include <string.h>

/* Only library words: a file path, a linker script or a flag such as
 * -Wl,... in a pkg-config file would run whatever a program's link does. */
static int link_word_ok(const char *w, size_t n)
{
    if (n == 8 && !strncmp(w, "-pthread", 8))
        return 1;
    if (n < 3 || strncmp(w, "-l", 2))
        return 0;
    for (size_t i = 2; i < n; i++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-:", w[i]) ||
            (w[i] == ':' && i != 2))
            return 0;
    return 1;
}

int ortkit__static_check(const char *archive, const char *libs, ortkit_arch arch,
                         const char *version)
{
    unsigned machine;
    size_t objects;
    char mach[32];
    int rc = ortkit__elf_archive_machine(archive, &machine, &objects);
    if (rc)
        return ortkit__error_wrap(rc, "cannot make a static bundle");
    if (ortkit__elf_arch(machine) != arch)
        return ortkit__error_set(ORTKIT_E_FORMAT, "cannot make a static bundle: '%s' holds objects "
                                 "for %s, the shared library of its build is for %s", archive,
                                 ortkit__elf_machine_name(machine, mach, sizeof mach),
                                 ortkit_arch_name(arch));
    int found = 0;
    if ((rc = ortkit__elf_has_string(archive, version, &found)))
        return ortkit__error_wrap(rc, "cannot make a static bundle");
    if (!found)
        return ortkit__error_set(ORTKIT_E_FORMAT, "cannot make a static bundle: '%s' holds no "
                                 "version string \"%s\": it is not from the build of ONNX Runtime %s "
                                 "beside it", archive, version, version);
    if (!libs)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "cannot make a static bundle: no list of "
                                 "the libraries it links (static_libs; \"\" when none)");
    for (const char *p = libs; *p;) {
        size_t n = strcspn(p, " ");
        if (n && !link_word_ok(p, n))
            return ortkit__error_set(ORTKIT_E_INVALID_ARG, "cannot make a static bundle: '%.*s' "
                                     "is not a library to link (-lNAME, -l:FILE or -pthread)",
                                     (int)(n > 200 ? 200 : n), p);
        p += n + (p[n] == ' ');
    }
    return ORTKIT_OK;
}
