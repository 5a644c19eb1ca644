/* host_view.c - what `host` and `doctor` both print of a host (host_view.h). */
#include "host_view.h"

void host_view_features(FILE *out, const char *lead, const ortkit_host *h, const char *none_word)
{
    const char *words[ORTKIT_CPU_FEATURE_COUNT];
    size_t n = 0;
    for (int f = 0; f < ORTKIT_CPU_FEATURE_COUNT; f++)
        if (ortkit_host_has(h, (ortkit_cpu_feature)f))
            words[n++] = ortkit_cpu_feature_name((ortkit_cpu_feature)f);
    if (n == 0)
        words[n++] = none_word;
    cli_print_wrapped(out, lead, words, n);
}

void host_view_platform(FILE *out, const char *lead, const ortkit_host *h)
{
    char text[192];
    if (h->arch == ORTKIT_ARCH_AARCH64)
        fprintf(out, "%s%s: %s\n", lead, ortkit_cuda_platform_name(h->cuda_platform),
                cli_esc(ortkit_host_platform_text(h, text, sizeof text)));
}
