/*
 * fuzz_model_file.c - an .onnx file's bytes: the nesting check, the decoder
 * behind ortkit_model_file_read, and the scan for inputs and outputs without
 * a shape.  No crash (however deep the nesting), no leak, and a verdict
 * consistent with the check: a file nested too deep is always refused, with
 * the limit named.
 */
#include "fuzz_verdict.h"
#include "core.h"
#include "model_scan.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int ortkit_fuzz_expect;
static volatile size_t sink;


typedef struct scan {
    const uint8_t *data;
    size_t size, names;
} scan;

static void visit(void *ctx, int output, const char *name, size_t len)
{
    scan *s = ctx;
    /* Names point into the input. */
    if ((output != 0 && output != 1) || (const uint8_t *)name < s->data ||
        (const uint8_t *)name + len > s->data + s->size)
        abort();
    s->names += len + 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[160];
    int nesting = ortkit__model_nesting(data, size, why, sizeof why);
    if (nesting != ORTKIT__PB_OK && !why[0])
        abort();
    if (nesting == ORTKIT__PB_TOO_DEEP && !strstr(why, "nested deeper than 100 levels"))
        abort();

    scan s = {data, size, 0};
    ortkit__model_unshaped_io(data, size, visit, &s);

    ortkit_model_file *m = (ortkit_model_file *)&s;
    int rc = ortkit_model_file_read(&m, fuzz_input_path(data, size));
    fuzz_verdict(rc == 0);
    if (rc) {
        if (m || (rc != ORTKIT_E_MODEL && rc != ORTKIT_E_NOMEM) || !ortkit_error_last()[0])
            abort();
        if (nesting == ORTKIT__PB_TOO_DEEP && !strstr(ortkit_error_last(), "nested deeper than 100"))
            abort();
        sink = s.names;
        return 0;
    }
    /* Accepted: within bounds, and consistent. */
    if (nesting != ORTKIT__PB_OK || !m || (m->opset_count && !m->opsets))
        abort();
    size_t sum = s.names + m->node_count + m->initializer_count + (size_t)m->ir_version;
    for (size_t i = 0; i < m->opset_count; i++)
        sum += strlen(m->opsets[i].domain) + (size_t)m->opsets[i].version;
    ortkit_model_file_free(m);
    sink = sum;
    return 0;
}
