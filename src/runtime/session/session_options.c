/*
 * session_options.c - ONNX Runtime's session options made from ortkit's:
 * threads, spinning and the shared arena as the runtime was set up, the
 * graph optimisation level, memory pattern and arena, profiling, the
 * optimised model's path, the model's format, config entries, and last the
 * execution providers (session_providers.c).
 */
#include "session_internal.h"

static int check(const ortkit_runtime *rt, OrtStatus *st, const char *what)
{
    return st ? ortkit__ort_error(rt, st, ORTKIT_E_INVALID_ARG, "session option %s", what) : 0;
}

/* An on/off option: ONNX Runtime's default unless the caller said. */
typedef __typeof__(((const OrtApi *)0)->EnableMemPattern) switch_fn;
static int set_switch(const ortkit_runtime *rt, OrtSessionOptions *so, ortkit_switch v,
                      switch_fn on, switch_fn off, const char *what)
{
    if (v == ORTKIT_SWITCH_ON)
        return check(rt, on(so), what);
    if (v == ORTKIT_SWITCH_OFF)
        return check(rt, off(so), what);
    return 0;
}

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

int ortkit__session_build_options(OrtSessionOptions **out, ortkit_session *s,
                                  const ortkit_session_options *o, const char *optimized_tmp,
                                  ortkit__model_format format, const unsigned char *exclude,
                                  const char *exclude_reason)
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
    if (format == ORTKIT__FORMAT_ONNX_SAVE_ORT && (rc = add_config(s->rt, so, "session.save_model_format", "ORT")))
        goto done;
    /* The entry stays mapped for the session's life, so ONNX Runtime uses
     * its graph and initializers in place instead of copying them. */
    if (format == ORTKIT__FORMAT_ORT && ((rc = add_config(s->rt, so, "session.load_model_format", "ORT")) ||
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
        if ((rc = set_switch(s->rt, so, o->mem_pattern, api->EnableMemPattern,
                             api->DisableMemPattern, "mem_pattern")) ||
            (rc = set_switch(s->rt, so, o->cpu_arena, api->EnableCpuMemArena,
                             api->DisableCpuMemArena, "cpu_arena")))
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
    rc = ortkit__session_add_providers(s, so, o, exclude, exclude_reason);
done:
    if (rc) {
        api->ReleaseSessionOptions(so);
        return rc;
    }
    *out = so;
    return ORTKIT_OK;
}
