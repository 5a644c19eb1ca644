/*
 * session.c - session options, execution providers, opening a model and
 * what the model says about itself.  Running is in run.c.
 */
#include "session_internal.h"
#include "session_gpu.h"
#include "abi.h"
#include "model_scan.h"
#include "session_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int runtime_has(const ortkit_runtime *rt, const char *ort_name)
{
    for (size_t i = 0; i < rt->provider_count; i++)
        if (!strcmp(rt->providers[i], ort_name))
            return 1;
    return 0;
}

/* "k=v,k2=v2" -> parallel arrays of copies.  Returns count, or -1. */
static long split_options(const char *spec, char ***keys, char ***values)
{
    *keys = *values = NULL;
    if (!spec || !*spec)
        return 0;
    size_t cap = 1;
    for (const char *c = spec; *c; c++)
        cap += *c == ',';
    *keys = calloc(cap, sizeof **keys);
    *values = calloc(cap, sizeof **values);
    char *copy = strdup(spec);
    long n = 0;
    if (!*keys || !*values || !copy)
        goto fail;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq || eq == tok) {
            ortkit__error_set(ORTKIT_E_INVALID_ARG, "provider option '%s' is not key=value", tok);
            goto fail;
        }
        *eq = '\0';
        (*keys)[n] = strdup(tok);
        (*values)[n] = strdup(eq + 1);
        if (!(*keys)[n] || !(*values)[n]) {
            n++;
            ortkit__error_nomem();
            goto fail;
        }
        n++;
    }
    free(copy);
    return n;
fail:
    for (long i = 0; *keys && i < n; i++) {
        free((*keys)[i]);
        free((*values)[i]);
    }
    free(*keys);
    free(*values);
    free(copy);
    *keys = *values = NULL;
    return -1;
}

static int options_valid(const char *spec)
{
    char **keys, **values;
    long n = split_options(spec, &keys, &values);
    for (long k = 0; k < n; k++) {
        free(keys[k]);
        free(values[k]);
    }
    if (n >= 0) {
        free(keys);
        free(values);
    }
    return n >= 0;
}

/* Add one provider to the options; returns an OrtStatus (NULL on success). */
static OrtStatus *append_provider(const ortkit_runtime *rt, OrtSessionOptions *so,
                                  const ortkit__provider_name *p, char **keys, char **values,
                                  size_t n)
{
    const OrtApi *api = rt->api;
    OrtStatus *st = NULL;
    if (!strcmp(p->ort_name, "CUDAExecutionProvider")) {
        OrtCUDAProviderOptionsV2 *cuda = NULL;
        if (!(st = api->CreateCUDAProviderOptions(&cuda)) &&
            !(st = api->UpdateCUDAProviderOptions(cuda, (const char *const *)keys,
                                                  (const char *const *)values, n)))
            st = api->SessionOptionsAppendExecutionProvider_CUDA_V2(so, cuda);
        if (cuda)
            api->ReleaseCUDAProviderOptions(cuda);
    } else if (!strcmp(p->ort_name, "TensorrtExecutionProvider")) {
        OrtTensorRTProviderOptionsV2 *trt = NULL;
        if (!(st = api->CreateTensorRTProviderOptions(&trt)) &&
            !(st = api->UpdateTensorRTProviderOptions(trt, (const char *const *)keys,
                                                      (const char *const *)values, n)))
            st = api->SessionOptionsAppendExecutionProvider_TensorRT_V2(so, trt);
        if (trt)
            api->ReleaseTensorRTProviderOptions(trt);
    } else {
        st = api->SessionOptionsAppendExecutionProvider(so, p->generic, (const char *const *)keys,
                                                        (const char *const *)values, n);
    }
    return st;
}

/* gpu: the probe's verdict for CUDA and TensorRT, NULL for others. */
static int set_status(ortkit_provider_status *ps, const char *requested, const char *name,
                      int active, const char *reason, const ortkit__probe_verdict *gpu)
{
    ps->requested = ortkit__strdup(requested);
    ps->name = ortkit__strdup(name);
    ps->reason = ortkit__strdup(reason);
    ps->detail = ortkit__strdup(gpu && !active ? gpu->detail : "");
    ps->method = ortkit__strdup(gpu ? gpu->method : "");
    ps->probe = ortkit__strdup(gpu ? gpu->probe : "");
    ps->active = active;
    return ps->requested && ps->name && ps->reason && ps->detail && ps->method && ps->probe
               ? ORTKIT_OK
               : ORTKIT_E_NOMEM;
}

/*
 * Add the requested providers in order.  exclude[i] set: leave provider i
 * out (it broke session creation before).  Fills s->providers.
 */
static int add_providers(ortkit_session *s, OrtSessionOptions *so, const ortkit_session_options *o,
                         const unsigned char *exclude, const char *exclude_reason)
{
    const ortkit_runtime *rt = s->rt;
    size_t n = o ? o->provider_count : 0;
    s->providers = calloc(n + 1, sizeof *s->providers);
    if (!s->providers)
        return ortkit__error_nomem();
    for (size_t i = 0; i < n; i++) {
        const char *req = o->providers[i] ? o->providers[i] : "";
        size_t len = strcspn(req, ":");
        const ortkit__provider_name *p = ortkit__provider_lookup(req, len);
        ortkit_provider_status *ps = &s->providers[s->provider_count++];
        char reason[1536] = "";
        char name[128];
        ortkit__probe_verdict gpu_verdict, *gpu = NULL;
        if (p && req[len] && !options_valid(req + len + 1)) /* before any probe */
            return ortkit__error_wrap(ORTKIT_E_INVALID_ARG, "execution provider '%s'", req);
        _Static_assert(sizeof reason == sizeof gpu_verdict.reason, "reasons of one size");
        snprintf(name, sizeof name, "%.*s", (int)len, req);
        if (!p) {
            snprintf(reason, sizeof reason, "unknown execution provider '%s'", name);
        } else if (!strcmp(p->ort_name, "CPUExecutionProvider")) {
            s->provider_count--; /* the CPU provider is always added last */
            continue;
        } else if (exclude && exclude[i]) {
            snprintf(reason, sizeof reason, "%s", exclude_reason);
        } else if (ortkit__gpu_provider(p->ort_name) &&
                   (ortkit__gpu_decide(rt, p->ort_name, runtime_has(rt, p->ort_name),
                                       req[len] ? req + len + 1 : "", gpu = &gpu_verdict),
                    !gpu->usable)) {
            memcpy(reason, gpu->reason, sizeof reason); /* the same size */
        } else if (!gpu && !runtime_has(rt, p->ort_name)) {
            snprintf(reason, sizeof reason, "ONNX Runtime %s at '%s' was built without %s",
                     rt->version, rt->path, p->ort_name);
        } else {
            char **keys, **values;
            long nk = split_options(req[len] ? req + len + 1 : "", &keys, &values);
            if (nk < 0)
                return ortkit__error_wrap(ORTKIT_E_INVALID_ARG, "execution provider '%s'", req);
            OrtStatus *st = NULL;
            int plugin_rc = 0;
            if (gpu && !strcmp(gpu->method, "plugin"))
                plugin_rc = ortkit__gpu_append_plugin(rt, so, p->ort_name, keys, values,
                                                      (size_t)nk, gpu);
            else
                st = append_provider(rt, so, p, keys, values, (size_t)nk);
            if (plugin_rc > 0)
                memcpy(reason, gpu->reason, sizeof reason);
            for (long k = 0; k < nk; k++) {
                free(keys[k]);
                free(values[k]);
            }
            free(keys);
            free(values);
            if (plugin_rc < 0)
                return plugin_rc;
            if (st) {
                const char *msg = rt->api->GetErrorMessage(st);
                snprintf(reason, sizeof reason, "%s", msg ? msg : "ONNX Runtime refused it");
                reason[strcspn(reason, "\r\n")] = '\0';
                rt->api->ReleaseStatus(st);
            }
        }
        int active = reason[0] == '\0';
        if (set_status(ps, req, p ? p->ort_name : name, active, reason, gpu))
            return ORTKIT_E_NOMEM;
        if (!active && o->ep_policy == ORTKIT_EP_STRICT)
            return ortkit__error_set(ORTKIT_E_PROVIDER,
                                     "execution provider '%s' cannot be used: %s%s%s%s", req, reason,
                                     ps->detail[0] ? " (ONNX Runtime: " : "", ps->detail,
                                     ps->detail[0] ? ")" : "");
    }
    return set_status(&s->providers[s->provider_count++], "cpu", "CPUExecutionProvider", 1, "", NULL);
}

static int check(const ortkit_runtime *rt, OrtStatus *st, const char *what)
{
    return st ? ortkit__ort_error(rt, st, ORTKIT_E_INVALID_ARG, "session option %s", what) : 0;
}

/* How the model's format is given to ONNX Runtime: an ONNX model, an ONNX
 * model whose optimised graph is saved in ORT format, or an ORT-format graph. */
typedef enum model_format { FORMAT_ONNX, FORMAT_ONNX_SAVE_ORT, FORMAT_ORT } model_format;

static int add_config(const ortkit_runtime *rt, OrtSessionOptions *so, const char *key,
                      const char *value)
{
    OrtStatus *st = rt->api->AddSessionConfigEntry(so, key, value);
    return st ? ortkit__ort_error(rt, st, ORTKIT_E_INVALID_ARG, "session config entry '%s'", key) : 0;
}

/* Threads, spinning and the shared arena, as the runtime was set up. */
static int threading_options(const ortkit_runtime *rt, OrtSessionOptions *so,
                             const ortkit_session_options *o)
{
    int rc = 0;
    if ((unsigned)o->intra_op_spinning > ORTKIT_SWITCH_OFF || (unsigned)o->inter_op_spinning > ORTKIT_SWITCH_OFF)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "intra_op_spinning and inter_op_spinning take "
                                 "an ortkit_switch");
    if (rt->global_pools)
        return check(rt, rt->api->DisablePerSessionThreads(so), "global thread pools");
    if (o->intra_op_spinning)
        rc = add_config(rt, so, "session.intra_op.allow_spinning",
                        o->intra_op_spinning == ORTKIT_SWITCH_ON ? "1" : "0");
    if (!rc && o->inter_op_spinning)
        rc = add_config(rt, so, "session.inter_op.allow_spinning",
                        o->inter_op_spinning == ORTKIT_SWITCH_ON ? "1" : "0");
    return rc;
}

static int build_options(OrtSessionOptions **out, ortkit_session *s, const ortkit_session_options *o,
                         const char *optimized_tmp, model_format format,
                         const unsigned char *exclude, const char *exclude_reason)
{
    const OrtApi *api = s->rt->api;
    OrtSessionOptions *so = NULL;
    OrtStatus *st = api->CreateSessionOptions(&so);
    if (st)
        return ortkit__ort_error(s->rt, st, ORTKIT_E_ORT, "cannot create session options");
    int rc = 0;
    if (s->rt->shared_arena && (!o || o->cpu_arena != ORTKIT_SWITCH_OFF) &&
        (rc = add_config(s->rt, so, "session.use_env_allocators", "1")))
        goto done;
    if (format == FORMAT_ONNX_SAVE_ORT && (rc = add_config(s->rt, so, "session.save_model_format", "ORT")))
        goto done;
    /* The entry stays mapped for the session's life, so ONNX Runtime uses
     * its graph and initializers in place instead of copying them. */
    if (format == FORMAT_ORT && ((rc = add_config(s->rt, so, "session.load_model_format", "ORT")) ||
                                 (rc = add_config(s->rt, so, "session.use_ort_model_bytes_directly", "1")) ||
                                 (rc = add_config(s->rt, so, "session.use_ort_model_bytes_for_initializers", "1"))))
        goto done;
    if (o) {
        if ((rc = threading_options(s->rt, so, o)))
            goto done;
        if (o->intra_op_threads < 0 || o->inter_op_threads < 0) {
            rc = ortkit__error_set(ORTKIT_E_INVALID_ARG, "thread counts must not be negative");
            goto done;
        }
        if (o->intra_op_threads &&
            (rc = check(s->rt, api->SetIntraOpNumThreads(so, o->intra_op_threads), "intra_op_threads")))
            goto done;
        if (o->inter_op_threads &&
            (rc = check(s->rt, api->SetInterOpNumThreads(so, o->inter_op_threads), "inter_op_threads")))
            goto done;
        static const GraphOptimizationLevel levels[] = {ORT_DISABLE_ALL, ORT_DISABLE_ALL,
                                                        ORT_ENABLE_BASIC, ORT_ENABLE_EXTENDED,
                                                        ORT_ENABLE_ALL};
        if ((unsigned)o->graph_opt > ORTKIT_GRAPH_OPT_ALL) {
            rc = ortkit__error_set(ORTKIT_E_INVALID_ARG, "unknown graph optimisation level %d",
                                   (int)o->graph_opt);
            goto done;
        }
        /* Left alone unless asked: ORT's default level is not always ORT_ENABLE_ALL. */
        if (o->graph_opt != ORTKIT_GRAPH_OPT_DEFAULT &&
            (rc = check(s->rt, api->SetSessionGraphOptimizationLevel(so, levels[o->graph_opt]),
                        "graph_opt")))
            goto done;
        if (o->exec_mode == ORTKIT_EXEC_PARALLEL &&
            (rc = check(s->rt, api->SetSessionExecutionMode(so, ORT_PARALLEL), "exec_mode")))
            goto done;
        if (o->mem_pattern == ORTKIT_SWITCH_OFF &&
            (rc = check(s->rt, api->DisableMemPattern(so), "mem_pattern")))
            goto done;
        if (o->mem_pattern == ORTKIT_SWITCH_ON &&
            (rc = check(s->rt, api->EnableMemPattern(so), "mem_pattern")))
            goto done;
        if (o->cpu_arena == ORTKIT_SWITCH_OFF &&
            (rc = check(s->rt, api->DisableCpuMemArena(so), "cpu_arena")))
            goto done;
        if (o->cpu_arena == ORTKIT_SWITCH_ON &&
            (rc = check(s->rt, api->EnableCpuMemArena(so), "cpu_arena")))
            goto done;
        if (o->profile_prefix &&
            (rc = check(s->rt, api->EnableProfiling(so, o->profile_prefix), "profile_prefix")))
            goto done;
        if (optimized_tmp &&
            (rc = check(s->rt, api->SetOptimizedModelFilePath(so, optimized_tmp), "optimized_model_path")))
            goto done;
        for (size_t i = 0; i < o->config_count; i++) {
            if (!o->config_keys || !o->config_values || !o->config_keys[i] || !o->config_values[i]) {
                rc = ortkit__error_set(ORTKIT_E_INVALID_ARG, "session config entry %zu is NULL", i);
                goto done;
            }
            st = api->AddSessionConfigEntry(so, o->config_keys[i], o->config_values[i]);
            if (st) {
                rc = ortkit__ort_error(s->rt, st, ORTKIT_E_INVALID_ARG, "session config entry '%s'",
                                       o->config_keys[i]);
                goto done;
            }
        }
    }
    rc = add_providers(s, so, o, exclude, exclude_reason);
done:
    if (rc) {
        api->ReleaseSessionOptions(so);
        return rc;
    }
    *out = so;
    return ORTKIT_OK;
}

static void free_providers(ortkit_session *s)
{
    for (size_t i = 0; i < s->provider_count; i++) {
        free((char *)s->providers[i].requested);
        free((char *)s->providers[i].name);
        free((char *)s->providers[i].reason);
        free((char *)s->providers[i].detail);
        free((char *)s->providers[i].method);
        free((char *)s->providers[i].probe);
    }
    free(s->providers);
    s->providers = NULL;
    s->provider_count = 0;
}

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

void ortkit_session_free(ortkit_session *s)
{
    if (!s)
        return;
    if (s->ort)
        s->rt->api->ReleaseSession(s->ort);
    if (s->cache_map)
        munmap(s->cache_map, s->cache_map_size);
    free_io(s->inputs, s->input_count);
    free_io(s->outputs, s->output_count);
    free(s->input_names);
    free(s->output_names);
    if (s->input_table_made)
        hdestroy_r(&s->input_table);
    if (s->output_table_made)
        hdestroy_r(&s->output_table);
    free_meta(&s->meta);
    free_providers(s);
    free(s->label);
    free(s->cache_reason);
    ortkit_runtime_free(s->rt);
    free(s);
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
static int explain_parse_failure(const ortkit_session *s, const char *path, const void *data,
                                 size_t size)
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
static void find_unshaped(ortkit_session *s, const char *path, const void *data, size_t size)
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

static int session_create(ortkit_session *s, const char *path, const void *data, size_t size,
                          const ortkit_session_options *o, const char *optimized_tmp,
                          model_format format)
{
    const OrtApi *api = s->rt->api;
    size_t n = o ? o->provider_count : 0;
    unsigned char *exclude = NULL;
    char exclude_reason[768] = "";
    for (;;) {
        OrtSessionOptions *so = NULL;
        int rc = build_options(&so, s, o, optimized_tmp, format, exclude, exclude_reason);
        if (rc) {
            free(exclude);
            return rc;
        }
        OrtStatus *st = path ? api->CreateSession(s->rt->env, path, so, &s->ort)
                             : api->CreateSessionFromArray(s->rt->env, data, size, so, &s->ort);
        api->ReleaseSessionOptions(so);
        if (!st) {
            free(exclude);
            return ORTKIT_OK;
        }
        /* A provider can be accepted into the options and still fail when the
         * session starts (a missing CUDA library, no device).  Under the
         * fallback policy, drop the added providers and try once more. */
        int any_gpu = 0;
        for (size_t i = 0; i + 1 < s->provider_count; i++)
            any_gpu |= s->providers[i].active;
        if (!exclude && any_gpu && o->ep_policy == ORTKIT_EP_FALLBACK &&
            (exclude = calloc(n ? n : 1, 1))) {
            const char *msg = api->GetErrorMessage(st);
            snprintf(exclude_reason, sizeof exclude_reason, "session creation failed with it: %s",
                     msg ? msg : "");
            exclude_reason[strcspn(exclude_reason, "\r\n")] = '\0';
            api->ReleaseStatus(st);
            memset(exclude, 1, n ? n : 1);
            free_providers(s);
            continue;
        }
        free(exclude);
        const char *msg = api->GetErrorMessage(st);
        if (msg && strcasestr(msg, "protobuf parsing failed") &&
            explain_parse_failure(s, path, data, size)) {
            api->ReleaseStatus(st);
            return ORTKIT_E_MODEL;
        }
        return ortkit__ort_error(s->rt, st, ORTKIT_E_MODEL, "cannot open model '%s'", s->label);
    }
}

/*
 * Create the session through the cache's plan: from the cached graph on a
 * hit, saving the optimised graph on a fill, as without a cache otherwise.
 * A cached graph ONNX Runtime refuses is removed and made again; a fill that
 * fails is tried once more without the cache, so that a failure is always
 * the model's own.
 */
static int create_through_cache(ortkit_session *s, ortkit__cache_plan *c, const char *path,
                                const void *data, size_t size, const ortkit_session_options *o,
                                const char *optimized_tmp)
{
    int rc;
    if (c->state == ORTKIT_CACHE_HIT) {
        if (!(rc = session_create(s, NULL, c->graph, c->graph_size, o, NULL, FORMAT_ORT))) {
            s->cache_map = c->map;
            s->cache_map_size = c->map_size;
            c->map = NULL; /* the session's now */
            return rc;
        }
        if (rc == ORTKIT_E_NOMEM)
            return rc;
        free_providers(s);
        ortkit__session_cache_reject(c, ortkit_error_last());
    }
    if (c->state == ORTKIT_CACHE_FILLED) {
        if (!(rc = session_create(s, path, data, size, o, c->fill_tmp, FORMAT_ONNX_SAVE_ORT))) {
            ortkit__session_cache_store(c);
            return ORTKIT_OK;
        }
        if (rc == ORTKIT_E_NOMEM)
            return rc;
        free_providers(s);
        ortkit__session_cache_end(c);
        c->state = ORTKIT_CACHE_SKIPPED;
        snprintf(c->reason, sizeof c->reason, "the session could not be made and saved: %s",
                 ortkit_error_last());
    }
    return session_create(s, path, data, size, o, optimized_tmp, FORMAT_ONNX);
}

ORTKIT__ABI_STRUCT(options_abi, ortkit_session_options, "session options",
                   "ORTKIT_SESSION_OPTIONS_INIT", ORTKIT_SESSION_OPTIONS_VERSION,
                   offsetof(ortkit_session_options, cache_dir), sizeof(ortkit_session_options));

static int session_open(ortkit_session **out, ortkit_runtime *rt, const char *path,
                        const void *data, size_t size, const ortkit_session_options *o)
{
    if (!out)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_session_open: out is NULL");
    *out = NULL;
    if (!rt)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_session_open: runtime is NULL");
    ortkit_session_options copy = ORTKIT_SESSION_OPTIONS_INIT;
    if (o) {
        if (ortkit__abi_read(&options_abi, &copy, o))
            return ORTKIT_E_INVALID_ARG;
        o = &copy;
    }
    if (o && o->provider_count && !o->providers)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "provider_count is %zu but providers is NULL",
                                 o->provider_count);
    const char *label = path ? path : "<memory>";
    if (path) {
        struct stat st;
        int rc = ortkit__file_check(path, "model", &st); /* ORT opens it: a FIFO would block there */
        if (rc)
            return rc;
        if (st.st_size == 0)
            return ortkit__error_set(ORTKIT_E_MODEL, "cannot open model '%s': the file is empty", path);
    } else if (!data || size == 0) {
        return ortkit__error_set(ORTKIT_E_MODEL, "cannot open model from memory: no data");
    }

    ortkit_session *s = calloc(1, sizeof *s);
    if (!s)
        return ortkit__error_nomem();
    ortkit__runtime_ref(rt);
    s->rt = rt;
    char *optimized_tmp = NULL;
    ortkit__cache_plan cache;
    int rc = ORTKIT_OK;
    if (!(s->label = ortkit__strdup(label))) {
        rc = ORTKIT_E_NOMEM;
        goto fail;
    }
    /* ORT writes the optimised model itself; aim it at a temporary name and
     * rename only when the session opened, so a failure leaves nothing. */
    if (o && o->optimized_model_path) {
        static atomic_uint counter;
        size_t len = strlen(o->optimized_model_path) + 48;
        if (!(optimized_tmp = malloc(len))) {
            rc = ortkit__error_nomem();
            goto fail;
        }
        /* ORT opens the name and follows links: ortkit makes the file, new. */
        rc = ORTKIT_E_IO;
        for (int tries = 0; rc && tries < 16; tries++) {
            snprintf(optimized_tmp, len, "%s.tmp.%ld.%u", o->optimized_model_path,
                     (long)getpid(), atomic_fetch_add(&counter, 1));
            if ((rc = ortkit__file_create_new(optimized_tmp, 0666)) && errno != EEXIST)
                break;
        }
        if (rc) {
            ortkit__error_wrap(rc, "cannot write optimised model '%s'", o->optimized_model_path);
            free(optimized_tmp);
            optimized_tmp = NULL; /* not ortkit's to remove */
            goto fail;
        }
    }
    ortkit__session_cache_begin(&cache, rt, path, data, size, o);
    rc = create_through_cache(s, &cache, path, data, size, o, optimized_tmp);
    s->cache_state = cache.state;
    ortkit__session_cache_end(&cache);
    if (!rc && !(s->cache_reason = ortkit__strdup(cache.reason)))
        rc = ORTKIT_E_NOMEM;
    if (rc)
        goto fail;
    if ((rc = load_io(s, 0)) || (rc = load_io(s, 1)) || (rc = load_metadata(s)))
        goto fail;
    find_unshaped(s, path, data, size);
    if (optimized_tmp && rename(optimized_tmp, o->optimized_model_path) != 0) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot write optimised model '%s': %s",
                               o->optimized_model_path, strerror(errno));
        goto fail;
    }
    free(optimized_tmp);
    *out = s;
    return ORTKIT_OK;
fail:
    if (optimized_tmp)
        unlink(optimized_tmp);
    free(optimized_tmp);
    ortkit_session_free(s);
    return rc;
}

int ortkit_session_open(ortkit_session **out, ortkit_runtime *rt, const char *path,
                        const ortkit_session_options *opts)
{
    if (!path)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_session_open: path is NULL");
    return session_open(out, rt, path, NULL, 0, opts);
}

int ortkit_session_open_memory(ortkit_session **out, ortkit_runtime *rt, const void *data,
                               size_t size, const ortkit_session_options *opts)
{
    return session_open(out, rt, NULL, data, size, opts);
}

ortkit_cache_state ortkit_session_cache(const ortkit_session *s, const char **reason)
{
    if (reason)
        *reason = s && s->cache_reason ? s->cache_reason : "";
    return s ? s->cache_state : ORTKIT_CACHE_OFF;
}

size_t ortkit_session_provider_count(const ortkit_session *s) { return s ? s->provider_count : 0; }

const ortkit_provider_status *ortkit_session_provider(const ortkit_session *s, size_t i)
{
    return s && i < s->provider_count ? &s->providers[i] : NULL;
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
