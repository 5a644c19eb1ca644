/*
 * session_model.c - the model's bytes read again after ONNX Runtime has
 * them (mapped from the file, or the caller's memory): why a parse failed
 * when the messages nest too deep, and which inputs and outputs the model
 * declares without a shape.
 */
#include "session_internal.h"
#include "model_scan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The model's bytes: data when opened from memory, else the file mapped
 * (*mapped set: give it to unmap_model).  NULL when it cannot be read. */
static const void *map_model(const char *path, const void *data, size_t *size, int *mapped)
{
    *mapped = 0;
    if (!path)
        return data;
    int fd;
    struct stat st;
    if (ortkit__file_open(&fd, path, 0, &st))
        return NULL;
    void *m = MAP_FAILED;
    if (st.st_size > 0 && (uint64_t)st.st_size <= SIZE_MAX)
        m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED)
        return NULL;
    *size = (size_t)st.st_size;
    *mapped = 1;
    return m;
}

static void unmap_model(const void *m, size_t size, int mapped)
{
    if (mapped)
        munmap((void *)m, size);
}

/*
 * ONNX Runtime refuses a file whose messages nest too deep (its parser
 * stops at protobuf's limit, as ortkit's decoder does) with only "Protobuf
 * parsing failed".  Nonzero, with the reason recorded, when that is why.
 */
int ortkit__session_explain_parse_failure(const ortkit_session *s, const char *path,
                                          const void *data, size_t size)
{
    int mapped;
    const void *bytes = map_model(path, data, &size, &mapped);
    if (!bytes)
        return 0;
    char why[160];
    int deep = ortkit__model_nesting(bytes, size, why, sizeof why) == ORTKIT__PB_TOO_DEEP;
    unmap_model(bytes, size, mapped);
    if (deep)
        ortkit__error_set(ORTKIT_E_MODEL, "cannot open model '%s': %s, the most ONNX Runtime and "
                          "ortkit decode", s->label, why);
    return deep;
}

static int tensor_of_rank_0(const ortkit_io_info *io)
{
    return (io->kind == ORTKIT_KIND_TENSOR || io->kind == ORTKIT_KIND_SPARSE_TENSOR) && io->rank == 0;
}

static void mark_unshaped(void *ctx, int output, const char *name, size_t len)
{
    ortkit_session *s = ctx;
    ortkit_io_info *io = output ? s->outputs : s->inputs;
    size_t n = output ? s->output_count : s->input_count;
    for (size_t i = 0; i < n; i++) {
        if (tensor_of_rank_0(&io[i]) && strlen(io[i].name) == len && !memcmp(io[i].name, name, len)) {
            free((ortkit_dim *)io[i].dims);
            io[i].dims = NULL;
            io[i].rank = SIZE_MAX;
        }
    }
}

/*
 * ONNX Runtime reports a tensor whose type has no shape as it does a scalar,
 * with no dimensions (only API 24 can tell them apart).  The model says which
 * it is: those it declares without a shape get rank SIZE_MAX.  Read only
 * when some input or output has rank 0; a model that cannot be read again
 * keeps ONNX Runtime's answer.
 */
void ortkit__session_find_unshaped(ortkit_session *s, const char *path, const void *data, size_t size)
{
    int any = 0;
    for (size_t i = 0; i < s->input_count; i++)
        any |= tensor_of_rank_0(&s->inputs[i]);
    for (size_t i = 0; i < s->output_count; i++)
        any |= tensor_of_rank_0(&s->outputs[i]);
    if (!any)
        return;
    int mapped;
    const void *bytes = map_model(path, data, &size, &mapped);
    if (!bytes)
        return;
    ortkit__model_unshaped_io(bytes, size, mark_unshaped, s);
    unmap_model(bytes, size, mapped);
}
