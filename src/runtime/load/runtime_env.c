/*
 * runtime_env.c - the ONNX Runtime environment a runtime's sessions share:
 * its log level, and on request global thread pools and a shared CPU arena.
 */
#include "runtime_internal.h"

#include <stdio.h>
#include <string.h>

static OrtLoggingLevel ort_log_level(ortkit_log_level level)
{
    switch (level) {
    case ORTKIT_LOG_VERBOSE: return ORT_LOGGING_LEVEL_VERBOSE;
    case ORTKIT_LOG_INFO: return ORT_LOGGING_LEVEL_INFO;
    case ORTKIT_LOG_WARNING: return ORT_LOGGING_LEVEL_WARNING;
    case ORTKIT_LOG_ERROR: return ORT_LOGGING_LEVEL_ERROR;
    /* ORT logs every failure it also returns; ortkit passes those on, so by
     * default only fatal messages are let through to stderr. */
    default: return ORT_LOGGING_LEVEL_FATAL;
    }
}

static int check_options(const ortkit_runtime_options *o)
{
    if (o->global_intra_threads < 0 || o->global_inter_threads < 0)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "global thread counts must not be negative");
    if ((unsigned)o->global_thread_pools > ORTKIT_SWITCH_OFF || (unsigned)o->global_spinning > ORTKIT_SWITCH_OFF)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "global_thread_pools and global_spinning take an "
                                 "ortkit_switch");
    if ((unsigned)o->cpu_arena_extend > ORTKIT_ARENA_EXTEND_REQUESTED)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "unknown arena extend strategy %d",
                                 (int)o->cpu_arena_extend);
    if (o->global_thread_pools != ORTKIT_SWITCH_ON &&
        (o->global_intra_threads || o->global_inter_threads || o->global_spinning))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "global thread counts and spinning need "
                                 "global_thread_pools = ORTKIT_SWITCH_ON");
    return ORTKIT_OK;
}

/* The environment with one intra-op and one inter-op pool for all sessions. */
static int create_with_global_pools(ortkit_runtime *rt, const ortkit_runtime_options *o,
                                    OrtLoggingLevel level, const char *log_id)
{
    const OrtApi *api = rt->api;
    OrtThreadingOptions *tp = NULL;
    OrtStatus *st = api->CreateThreadingOptions(&tp);
    if (!st && o->global_intra_threads)
        st = api->SetGlobalIntraOpNumThreads(tp, o->global_intra_threads);
    if (!st && o->global_inter_threads)
        st = api->SetGlobalInterOpNumThreads(tp, o->global_inter_threads);
    if (!st && o->global_spinning)
        st = api->SetGlobalSpinControl(tp, o->global_spinning == ORTKIT_SWITCH_ON);
    if (!st)
        st = api->CreateEnvWithGlobalThreadPools(level, log_id, tp, &rt->env);
    if (tp)
        api->ReleaseThreadingOptions(tp);
    if (st)
        return ortkit__ort_error(rt, st, ORTKIT_E_ORT, "cannot create the ONNX Runtime environment "
                                 "with global thread pools");
    rt->global_pools = 1;
    return ORTKIT_OK;
}

/* One CPU arena in the environment, growing as asked; sessions opt in with
 * "session.use_env_allocators".  This is the only way ONNX Runtime's C API
 * sets the CPU arena's extend strategy. */
static int register_arena(ortkit_runtime *rt, ortkit_arena_extend extend)
{
    const OrtApi *api = rt->api;
    const char *keys[] = {"arena_extend_strategy"};
    const size_t values[] = {extend == ORTKIT_ARENA_EXTEND_REQUESTED ? 1 : 0};
    OrtArenaCfg *cfg = NULL;
    OrtMemoryInfo *info = NULL;
    OrtStatus *st = api->CreateArenaCfgV2(keys, values, 1, &cfg);
    if (!st)
        st = api->CreateCpuMemoryInfo(OrtArenaAllocator, OrtMemTypeDefault, &info);
    if (!st)
        st = api->CreateAndRegisterAllocator(rt->env, info, cfg);
    if (info)
        api->ReleaseMemoryInfo(info);
    if (cfg)
        api->ReleaseArenaCfg(cfg);
    if (st)
        return ortkit__ort_error(rt, st, ORTKIT_E_ORT, "cannot create the shared CPU arena");
    rt->shared_arena = 1;
    return ORTKIT_OK;
}

int ortkit__runtime_env_create(ortkit_runtime *rt, const ortkit_runtime_options *opts)
{
    ortkit_runtime_options defaults = ORTKIT_RUNTIME_OPTIONS_INIT;
    const ortkit_runtime_options *o = opts ? opts : &defaults;
    int rc = check_options(o);
    if (rc)
        return rc;
    const char *log_id = o->log_id ? o->log_id : "ortkit";
    OrtLoggingLevel level = ort_log_level(o->log_level);
    if (o->global_thread_pools == ORTKIT_SWITCH_ON) {
        if ((rc = create_with_global_pools(rt, o, level, log_id)))
            return rc;
    } else {
        OrtStatus *st = rt->api->CreateEnv(level, log_id, &rt->env);
        if (st)
            return ortkit__ort_error(rt, st, ORTKIT_E_ORT, "cannot create the ONNX Runtime environment");
    }
    if (o->cpu_arena_extend != ORTKIT_ARENA_EXTEND_DEFAULT)
        return register_arena(rt, o->cpu_arena_extend);
    return ORTKIT_OK;
}
