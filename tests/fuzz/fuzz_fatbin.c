/* fuzz_fatbin.c - the fat-binary reader on arbitrary bytes (as a section's
 * content, and as a whole ELF file through a memfd): no crash, no endless
 * walk, and either a consistent list of GPU targets or a format error. */
#include "fatbin.h"
#include "fuzz_verdict.h"
#include "core.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int ortkit_fuzz_expect;

static void check_sorted(const ortkit__gpu_target *t, size_t n, int ptx)
{
    char name[32];
    for (size_t i = 0; i < n; i++) {
        ortkit__gpu_target back;
        if (t[i].sm < 10 || t[i].sm > 999 ||
            ortkit__gpu_target_parse(&back, ortkit__gpu_target_name(&t[i], ptx, name, sizeof name),
                                     ptx) != 0 ||
            back.sm != t[i].sm || back.suffix != t[i].suffix)
            abort();
        if (i && (t[i - 1].sm > t[i].sm || (t[i - 1].sm == t[i].sm && t[i - 1].suffix >= t[i].suffix)))
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ortkit__fatbin f;
    int rc = ortkit__fatbin_parse(&f, data, size);
    fuzz_verdict(rc == 0);
    if (rc) {
        if (rc != ORTKIT_E_FORMAT || !ortkit_error_last()[0])
            abort();
    } else {
        if (f.sass_count > ORTKIT__GPU_TARGETS_MAX || f.ptx_count > ORTKIT__GPU_TARGETS_MAX ||
            f.compressed > f.entries || f.entries > size / 16 || f.fatbins > size / 16 ||
            (f.ptx_isa && !f.ptx_count))
            abort();
        check_sorted(f.sass, f.sass_count, 0);
        check_sorted(f.ptx, f.ptx_count, 1);
    }
    /* The same bytes as a file: an ELF file's section table is read first. */
    int found = 0;
    rc = ortkit__fatbin_read(&f, &found, fuzz_input_path(data, size));
    if (rc && (rc != ORTKIT_E_FORMAT || found))
        abort();
    return 0;
}
