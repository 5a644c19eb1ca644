/*
 * session_io.c - what the model says about itself once the session is
 * open: its inputs and outputs (names, kinds, element types, shapes, whole
 * value types, and a name -> index table for each), and its metadata.
 */
#include "session_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void free_io(ortkit_io_info *io, size_t n)
{
    for (size_t i = 0; io && i < n; i++) {
        free((char *)io[i].name);
        for (size_t d = 0; io[i].dims && io[i].rank != SIZE_MAX && d < io[i].rank; d++)
            free((char *)io[i].dims[d].symbol);
        free((ortkit_dim *)io[i].dims);
        ortkit__value_type_free((ortkit_value_type *)io[i].value_type);
    }
    free(io);
}

static void free_meta(ortkit_model_metadata *m)
{
    free((char *)m->producer);
    free((char *)m->graph_name);
    free((char *)m->graph_description);
    free((char *)m->domain);
    free((char *)m->description);
    for (size_t i = 0; i < m->custom_count; i++) {
        free((char *)m->custom_keys[i]);
        free((char *)m->custom_values[i]);
    }
    free((char **)m->custom_keys);
    free((char **)m->custom_values);
}

void ortkit__session_free_io(ortkit_session *s)
{
    free_io(s->inputs, s->input_count);
    free_io(s->outputs, s->output_count);
    free(s->input_names);
    free(s->output_names);
    if (s->input_table_made)
        hdestroy_r(&s->input_table);
    if (s->output_table_made)
        hdestroy_r(&s->output_table);
    free_meta(&s->meta);
}

/* Copy an allocator-owned string and give it back. */
static char *take_string(const OrtApi *api, OrtAllocator *alloc, char *s)
{
    char *copy = ortkit__strdup(s);
    if (s)
        ortkit__ort_discard(api, api->AllocatorFree(alloc, s));
    return copy;
}

/* Element type, rank and dims of a tensor type info. */
static int describe_tensor(ortkit_session *s, const OrtTensorTypeAndShapeInfo *ti, ortkit_io_info *io)
{
    const OrtApi *api = s->rt->api;
    ONNXTensorElementDataType et;
    size_t rank;
    OrtStatus *st;
    if ((st = api->GetTensorElementType(ti, &et)) || (st = api->GetDimensionsCount(ti, &rank)))
        return ortkit__ort_error(s->rt, st, ORTKIT_E_ORT, "cannot read the type of '%s'", io->name);
    io->type = (ortkit_type)et;
    if (rank > ORTKIT_MAX_RANK)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "'%s' has rank %zu, above ortkit's limit %d",
                                 io->name, rank, ORTKIT_MAX_RANK);
    int64_t values[ORTKIT_MAX_RANK];
    const char *symbols[ORTKIT_MAX_RANK];
    ortkit_dim *dims = calloc(rank ? rank : 1, sizeof *dims);
    if (!dims)
        return ortkit__error_nomem();
    io->dims = dims;
    io->rank = rank;
    if ((st = api->GetDimensions(ti, values, rank)) ||
        (st = api->GetSymbolicDimensions(ti, symbols, rank)))
        return ortkit__ort_error(s->rt, st, ORTKIT_E_ORT, "cannot read the shape of '%s'", io->name);
    for (size_t d = 0; d < rank; d++) {
        dims[d].value = values[d] >= 0 ? values[d] : -1;
        if (!(dims[d].symbol = ortkit__strdup(symbols[d])))
            return ORTKIT_E_NOMEM;
    }
    return ORTKIT_OK;
}

/* The element type a tensor, a sequence, a map (its values) or an optional
 * holds at its innermost, for ortkit_io_info.type. */
static ortkit_type innermost_elem(const ortkit_value_type *t)
{
    while (t && t->kind != ORTKIT_KIND_TENSOR && t->kind != ORTKIT_KIND_SPARSE_TENSOR)
        t = t->inner;
    return t ? t->elem : ORTKIT_TYPE_UNDEFINED;
}

static int describe_type(ortkit_session *s, const OrtTypeInfo *info, ortkit_io_info *io)
{
    const OrtApi *api = s->rt->api;
    ortkit_value_type *vt = NULL;
    int rc = ortkit__run_type_from_info(s->rt, info, &vt);
    if (rc)
        return ortkit__error_wrap(rc, "cannot read the type of '%s'", io->name);
    io->value_type = vt;
    io->kind = vt->kind;
    io->type = innermost_elem(vt);
    if (vt->kind != ORTKIT_KIND_TENSOR && vt->kind != ORTKIT_KIND_SPARSE_TENSOR)
        return ORTKIT_OK;
    const OrtTensorTypeAndShapeInfo *ti = NULL;
    OrtStatus *st = api->CastTypeInfoToTensorInfo(info, &ti);
    if (st)
        return ortkit__ort_error(s->rt, st, ORTKIT_E_ORT, "cannot read '%s'", io->name);
    return ti ? describe_tensor(s, ti, io) : ORTKIT_OK;
}

/* The name -> index table of a list (glibc's hsearch_r); a name given
 * twice keeps its first index, as a search from the start would. */
static int index_names(struct hsearch_data *table, int *made, const ortkit_io_info *io, size_t n)
{
    memset(table, 0, sizeof *table);
    if (!hcreate_r(n + n / 2 + 8, table))
        return ortkit__error_nomem();
    *made = 1;
    for (size_t i = 0; i < n; i++) {
        ENTRY e = {(char *)io[i].name, (void *)(uintptr_t)i}, *found = NULL;
        if (!hsearch_r(e, ENTER, &found, table))
            return ortkit__error_nomem();
    }
    return ORTKIT_OK;
}

static int load_io(ortkit_session *s, int outputs)
{
    const OrtApi *api = s->rt->api;
    OrtAllocator *alloc;
    size_t n;
    OrtStatus *st = api->GetAllocatorWithDefaultOptions(&alloc);
    if (!st)
        st = outputs ? api->SessionGetOutputCount(s->ort, &n) : api->SessionGetInputCount(s->ort, &n);
    if (st)
        return ortkit__ort_error(s->rt, st, ORTKIT_E_ORT, "cannot list the model's %s",
                                 outputs ? "outputs" : "inputs");
    ortkit_io_info *io = calloc(n ? n : 1, sizeof *io);
    const char **names = calloc(n ? n : 1, sizeof *names);
    if (outputs) {
        s->outputs = io, s->output_names = names;
    } else {
        s->inputs = io, s->input_names = names;
    }
    if (!io || !names)
        return ortkit__error_nomem();
    for (size_t i = 0; i < n; i++) {
        char *name = NULL;
        OrtTypeInfo *info = NULL;
        st = outputs ? api->SessionGetOutputName(s->ort, i, alloc, &name)
                     : api->SessionGetInputName(s->ort, i, alloc, &name);
        if (st)
            return ortkit__ort_error(s->rt, st, ORTKIT_E_ORT, "cannot read the name of %s %zu",
                                     outputs ? "output" : "input", i);
        if (outputs)
            s->output_count++;
        else
            s->input_count++;
        if (!(io[i].name = take_string(api, alloc, name)))
            return ORTKIT_E_NOMEM;
        names[i] = io[i].name;
        st = outputs ? api->SessionGetOutputTypeInfo(s->ort, i, &info)
                     : api->SessionGetInputTypeInfo(s->ort, i, &info);
        if (st)
            return ortkit__ort_error(s->rt, st, ORTKIT_E_ORT, "cannot read the type of '%s'", io[i].name);
        int rc = describe_type(s, info, &io[i]);
        api->ReleaseTypeInfo(info);
        if (rc)
            return rc;
    }
    return index_names(outputs ? &s->output_table : &s->input_table,
                       outputs ? &s->output_table_made : &s->input_table_made, io, n);
}

static int load_metadata(ortkit_session *s)
{
    const OrtApi *api = s->rt->api;
    OrtAllocator *alloc;
    OrtModelMetadata *md = NULL;
    OrtStatus *st = api->GetAllocatorWithDefaultOptions(&alloc);
    if (!st)
        st = api->SessionGetModelMetadata(s->ort, &md);
    if (st)
        return ortkit__ort_error(s->rt, st, ORTKIT_E_ORT, "cannot read the model's metadata");
    ortkit_model_metadata *m = &s->meta;
    int rc = ORTKIT_E_NOMEM;
    char *str = NULL, **keys = NULL;
    int64_t nkeys = 0;
#define TAKE(call, field)                                                        \
    do {                                                                         \
        str = NULL;                                                              \
        if ((st = (call)))                                                       \
            goto ort_fail;                                                       \
        if (!(m->field = take_string(api, alloc, str)))                          \
            goto done;                                                           \
    } while (0)
    TAKE(api->ModelMetadataGetProducerName(md, alloc, &str), producer);
    TAKE(api->ModelMetadataGetGraphName(md, alloc, &str), graph_name);
    TAKE(api->ModelMetadataGetGraphDescription(md, alloc, &str), graph_description);
    TAKE(api->ModelMetadataGetDomain(md, alloc, &str), domain);
    TAKE(api->ModelMetadataGetDescription(md, alloc, &str), description);
#undef TAKE
    if ((st = api->ModelMetadataGetVersion(md, &m->version)))
        goto ort_fail;
    if ((st = api->ModelMetadataGetCustomMetadataMapKeys(md, alloc, &keys, &nkeys)))
        goto ort_fail;
    if (nkeys > 0) {
        m->custom_keys = calloc((size_t)nkeys, sizeof *m->custom_keys);
        m->custom_values = calloc((size_t)nkeys, sizeof *m->custom_values);
        if (!m->custom_keys || !m->custom_values)
            goto done;
        for (int64_t i = 0; i < nkeys; i++) {
            char *value = NULL;
            if ((st = api->ModelMetadataLookupCustomMetadataMap(md, alloc, keys[i], &value)))
                goto ort_fail;
            ((const char **)m->custom_keys)[i] = ortkit__strdup(keys[i]);
            ((const char **)m->custom_values)[i] = take_string(api, alloc, value);
            m->custom_count++;
            if (!m->custom_keys[i] || !m->custom_values[i])
                goto done;
        }
    }
    rc = ORTKIT_OK;
    goto done;
ort_fail:
    rc = ortkit__ort_error(s->rt, st, ORTKIT_E_ORT, "cannot read the model's metadata");
done:
    for (int64_t i = 0; keys && i < nkeys; i++)
        ortkit__ort_discard(api, api->AllocatorFree(alloc, keys[i]));
    if (keys)
        ortkit__ort_discard(api, api->AllocatorFree(alloc, keys));
    api->ReleaseModelMetadata(md);
    return rc;
}

int ortkit__session_describe(ortkit_session *s)
{
    int rc;
    if ((rc = load_io(s, 0)) || (rc = load_io(s, 1)))
        return rc;
    return load_metadata(s);
}

size_t ortkit_session_input_count(const ortkit_session *s) { return s ? s->input_count : 0; }
size_t ortkit_session_output_count(const ortkit_session *s) { return s ? s->output_count : 0; }

const ortkit_io_info *ortkit_session_input(const ortkit_session *s, size_t i)
{
    return s && i < s->input_count ? &s->inputs[i] : NULL;
}

const ortkit_io_info *ortkit_session_output(const ortkit_session *s, size_t i)
{
    return s && i < s->output_count ? &s->outputs[i] : NULL;
}

static long find_name(const ortkit_io_info *io, size_t n, const struct hsearch_data *table,
                      int made, const char *name)
{
    if (!name)
        return -1;
    if (made) {
        /* FIND only reads the table, so threads may look up at once. */
        ENTRY want = {(char *)name, NULL}, *found = NULL;
        return hsearch_r(want, FIND, &found, (struct hsearch_data *)table) && found
                   ? (long)(uintptr_t)found->data
                   : -1;
    }
    for (size_t i = 0; i < n; i++)
        if (!strcmp(io[i].name, name))
            return (long)i;
    return -1;
}

long ortkit_session_input_index(const ortkit_session *s, const char *name)
{
    return s ? find_name(s->inputs, s->input_count, &s->input_table, s->input_table_made, name)
             : -1;
}

long ortkit_session_output_index(const ortkit_session *s, const char *name)
{
    return s ? find_name(s->outputs, s->output_count, &s->output_table, s->output_table_made,
                         name)
             : -1;
}

const ortkit_model_metadata *ortkit_session_metadata(const ortkit_session *s)
{
    return s ? &s->meta : NULL;
}

void ortkit_io_describe(const ortkit_io_info *io, char *buf, size_t size)
{
    if (!size)
        return;
    if (!io) {
        snprintf(buf, size, "(null)");
        return;
    }
    if (io->kind != ORTKIT_KIND_TENSOR) {
        ortkit_value_type_describe(io->value_type, buf, size);
        return;
    }
    size_t n = (size_t)snprintf(buf, size, "%s[", io->type ? ortkit_type_name(io->type) : "?");
    if (io->rank == SIZE_MAX) { /* any rank: "float32[?...]" */
        if (n < size)
            snprintf(buf + n, size - n, "?...]");
        return;
    }
    for (size_t d = 0; d < io->rank && n < size; d++) {
        const ortkit_dim *dim = &io->dims[d];
        if (dim->value >= 0)
            n += (size_t)snprintf(buf + n, size - n, "%s%lld", d ? "," : "", (long long)dim->value);
        else
            n += (size_t)snprintf(buf + n, size - n, "%s%s", d ? "," : "",
                                  dim->symbol[0] ? dim->symbol : "?");
    }
    if (n < size)
        snprintf(buf + n, size - n, "]");
}
