/*
 * wheel_tag.c - the platform tag measured needs earn, and a variant's local
 * version label.
 *
 * A manylinux_X_Y tag promises pip that the wheel loads on any distribution
 * with glibc X.Y or newer, and with the libstdc++ such distributions ship.
 * auditwheel's policy (PEP 600 profiles) gives each profile the newest
 * GLIBC_, GLIBCXX_ and CXXABI_ symbol versions a wheel may require; these
 * rows are its x86_64 and aarch64 maxima, with the distribution each
 * profile's libstdc++ comes from.  The tag is the oldest row admitting all
 * three needs: a glibc-only reading (what a glibc floor alone would say)
 * would promise Debian 11's libstdc++ to a glibc 2.29 system that lacks it.
 */
#include "wheel_internal.h"

#include <stdio.h>
#include <string.h>

static const struct profile {
    const char *glibc, *glibcxx, *cxxabi, *reference;
} profiles[] = {
    {"2.17", "3.4.19", "1.3.7", "CentOS 7"},
    {"2.24", "3.4.22", "1.3.10", "Debian 9"},
    {"2.28", "3.4.25", "1.3.11", "AlmaLinux 8"},
    {"2.31", "3.4.28", "1.3.12", "Ubuntu 20.04"},
    {"2.34", "3.4.29", "1.3.13", "AlmaLinux 9"},
    {"2.35", "3.4.30", "1.3.13", "Ubuntu 22.04"},
    {"2.39", "3.4.33", "1.3.15", "Ubuntu 24.04"},
};
#define N_PROFILES (sizeof profiles / sizeof profiles[0])

static int above(const char *need, const char *max)
{
    return need && need[0] && ortkit__version_compare(need, max) > 0;
}

/* "GLIBC_2.29, GLIBCXX_3.4.26, CXXABI_1.3.11": what the needs are, said once. */
static void needs_words(char *buf, size_t size, const char *glibc, const char *glibcxx,
                        const char *cxxabi)
{
    size_t n = 0;
    buf[0] = '\0';
    const char *names[] = {"GLIBC_", "GLIBCXX_", "CXXABI_"}, *values[] = {glibc, glibcxx, cxxabi};
    for (size_t i = 0; i < 3; i++)
        if (values[i] && values[i][0] && n < size)
            n += (size_t)snprintf(buf + n, size - n, "%s%s%s", n ? ", " : "", names[i], values[i]);
    if (!buf[0])
        snprintf(buf, size, "no versioned symbols");
}

int ortkit_wheel_platform_tag(char *buf, size_t size, ortkit_arch arch, const char *glibc,
                              const char *glibcxx, const char *cxxabi, char *why, size_t why_size)
{
    if (!buf || !size)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_wheel_platform_tag: no buffer");
    const char *machine = arch == ORTKIT_ARCH_X86_64    ? "x86_64"
                          : arch == ORTKIT_ARCH_AARCH64 ? "aarch64"
                                                        : NULL;
    if (!machine)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "no wheel platform tag for architecture %s",
                                 ortkit_arch_name(arch));
    char words[160];
    needs_words(words, sizeof words, glibc, glibcxx, cxxabi);
    for (size_t i = 0; i < N_PROFILES; i++) {
        const struct profile *p = &profiles[i];
        if (above(glibc, p->glibc) || above(glibcxx, p->glibcxx) || above(cxxabi, p->cxxabi))
            continue;
        int maj = 0, min = 0;
        sscanf(p->glibc, "%d.%d", &maj, &min);
        if ((size_t)snprintf(buf, size, "manylinux_%d_%d_%s", maj, min, machine) >= size)
            return ortkit__error_set(ORTKIT_E_INVALID_ARG, "platform tag buffer too small");
        if (why && why_size) {
            if (i == 0)
                snprintf(why, why_size, "%s: the oldest profile ortkit knows, manylinux_2_17 "
                         "(%s: glibc 2.17, GLIBCXX_%s), admits them", words, p->reference, p->glibcxx);
            else {
                /* Every need the profile below cannot admit, said. */
                const struct profile *q = &profiles[i - 1];
                char stops[160] = "";
                size_t n = 0;
                if (above(glibc, q->glibc))
                    n += (size_t)snprintf(stops + n, sizeof stops - n, "glibc %s", q->glibc);
                if (above(glibcxx, q->glibcxx))
                    n += (size_t)snprintf(stops + n, sizeof stops - n, "%sGLIBCXX %s", n ? " and " : "", q->glibcxx);
                if (above(cxxabi, q->cxxabi))
                    snprintf(stops + n, sizeof stops - n, "%sCXXABI %s", n ? " and " : "", q->cxxabi);
                snprintf(why, why_size, "%s: the oldest PEP 600 profile that admits them is "
                         "manylinux_%.1s_%s (%s: glibc %s, GLIBCXX_%s, CXXABI_%s); the one below "
                         "stops at %s", words, p->glibc, p->glibc + 2, p->reference, p->glibc,
                         p->glibcxx, p->cxxabi, stops);
            }
        }
        return ORTKIT_OK;
    }
    if ((size_t)snprintf(buf, size, "linux_%s", machine) >= size)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "platform tag buffer too small");
    if (why && why_size)
        snprintf(why, why_size, "%s: newer than every manylinux profile ortkit knows (the newest, "
                 "manylinux_2_39, stops at glibc 2.39, GLIBCXX_3.4.33, CXXABI_1.3.15): a plain "
                 "linux tag, which installs only where the index is trusted to know the host",
                 words);
    return ORTKIT_OK;
}

int ortkit_wheel_local_label(char *buf, size_t size, const char *variant)
{
    if (!buf || !size || !variant || !variant[0])
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_wheel_local_label: no variant");
    size_t n = strlen(variant);
    if (n >= size)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "variant name '%.64s' too long", variant);
    /* PEP 440: a local version is ASCII letters and digits in segments
     * separated by '.'; '-' and '_' would be normalised to '.' anyway. */
    for (size_t i = 0; i < n; i++) {
        char c = variant[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c == '-' || c == '_')
            c = '.';
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.') ||
            (c == '.' && (i == 0 || i + 1 == n || buf[i - 1] == '.')))
            return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                     "variant name '%.64s' makes no local version label", variant);
        buf[i] = c;
    }
    buf[n] = '\0';
    return ORTKIT_OK;
}
