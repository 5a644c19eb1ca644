/* fuzz_elf.c - the ELF reader on arbitrary bytes: no crash, no leak, and
 * either a consistent record or a reported error that leaves nothing behind. */
#include "bundle.h"
#include "fuzz_verdict.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int ortkit_fuzz_expect;
static volatile size_t sink;


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_path(data, size);
    ortkit__elf e;
    int rc = ortkit__elf_read(&e, path);
    fuzz_verdict(rc == 0);
    if (rc) {
        if ((rc != ORTKIT_E_FORMAT && rc != ORTKIT_E_NOMEM) || e.soname || e.runpath || e.rpath ||
            e.needed || e.needed_count || !ortkit_error_last()[0])
            abort();
        return 0;
    }
    if ((e.elf_class != 1 && e.elf_class != 2) || e.needed_count > 256 ||
        (e.needed_count && !e.needed) || ortkit__elf_is(path) != 1)
        abort();
    size_t sum = 0;
    for (size_t i = 0; i < e.needed_count; i++)
        sum += strlen(e.needed[i]);
    sum += e.soname ? strlen(e.soname) : 0;
    sum += (size_t)ortkit__elf_origin(e.runpath) + (size_t)ortkit__elf_origin(e.rpath);
    char buf[32];
    sink = sum + strlen(ortkit__elf_machine_name(e.machine, buf, sizeof buf));
    ortkit__elf_free(&e);
    return 0;
}
