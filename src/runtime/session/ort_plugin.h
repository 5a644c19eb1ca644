/*
 * ort_plugin.h - the plugin-EP part of ONNX Runtime's C API (API 22, ORT
 * 1.22), which the 1.21 headers ortkit builds with do not declare.
 *
 * The API table only grows at its end, so these functions sit at fixed
 * places after the last entry the 1.21 headers know (SetEpDynamicOptions),
 * in the order ORT's onnxruntime_c_api.h documents them.  They are taken
 * only from the table GetApi(22) returns, and only from runtimes of 1.22
 * or newer.
 */
#ifndef ORTKIT_ORT_PLUGIN_H
#define ORTKIT_ORT_PLUGIN_H

#include "runtime_internal.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define ORTKIT__PLUGIN_API 22

typedef struct OrtEpDevice OrtEpDevice;
typedef struct OrtHardwareDevice OrtHardwareDevice;

typedef struct ortkit__plugin_api {
    OrtStatus *(*register_library)(OrtEnv *env, const char *registration_name, const char *path);
    OrtStatus *(*get_ep_devices)(const OrtEnv *env, const OrtEpDevice *const **devices,
                                 size_t *count);
    OrtStatus *(*append_v2)(OrtSessionOptions *so, OrtEnv *env, const OrtEpDevice *const *devices,
                            size_t device_count, const char *const *keys,
                            const char *const *values, size_t option_count);
    int (*hw_type)(const OrtHardwareDevice *device); /* OrtHardwareDeviceType: 0 CPU, 1 GPU, 2 NPU */
    uint32_t (*hw_vendor_id)(const OrtHardwareDevice *device);
    const char *(*hw_vendor)(const OrtHardwareDevice *device);
    uint32_t (*hw_device_id)(const OrtHardwareDevice *device);
    const char *(*ep_name)(const OrtEpDevice *device);
    const char *(*ep_vendor)(const OrtEpDevice *device);
    const OrtHardwareDevice *(*ep_device)(const OrtEpDevice *device);
} ortkit__plugin_api;

/* Places after SetEpDynamicOptions (API 21's last entry). */
enum {
    ORTKIT__SLOT_REGISTER_LIBRARY = 17,
    ORTKIT__SLOT_GET_EP_DEVICES = 19,
    ORTKIT__SLOT_APPEND_V2 = 20,
    ORTKIT__SLOT_HW_TYPE = 23,
    ORTKIT__SLOT_HW_VENDOR_ID = 24,
    ORTKIT__SLOT_HW_VENDOR = 25,
    ORTKIT__SLOT_HW_DEVICE_ID = 26,
    ORTKIT__SLOT_EP_NAME = 28,
    ORTKIT__SLOT_EP_VENDOR = 29,
    ORTKIT__SLOT_EP_DEVICE = 32,
};

/* The plugin functions of rt, or 0 when it is older than 1.22. */
static inline int ortkit__plugin_api_get(ortkit__plugin_api *p, const ortkit_runtime *rt)
{
    memset(p, 0, sizeof *p);
    int minor = 0;
    if (!rt->base || sscanf(rt->version, "1.%d", &minor) != 1 || minor < ORTKIT__PLUGIN_API)
        return 0;
    const OrtApi *api = rt->base->GetApi(ORTKIT__PLUGIN_API);
    if (!api)
        return 0;
    typedef void (*fn)(void);
    const fn *table = (const fn *)(const void *)api;
    size_t last21 = offsetof(OrtApi, SetEpDynamicOptions) / sizeof(fn);
#define ORTKIT__TAKE(field, slot) memcpy(&p->field, &table[last21 + (slot)], sizeof p->field)
    ORTKIT__TAKE(register_library, ORTKIT__SLOT_REGISTER_LIBRARY);
    ORTKIT__TAKE(get_ep_devices, ORTKIT__SLOT_GET_EP_DEVICES);
    ORTKIT__TAKE(append_v2, ORTKIT__SLOT_APPEND_V2);
    ORTKIT__TAKE(hw_type, ORTKIT__SLOT_HW_TYPE);
    ORTKIT__TAKE(hw_vendor_id, ORTKIT__SLOT_HW_VENDOR_ID);
    ORTKIT__TAKE(hw_vendor, ORTKIT__SLOT_HW_VENDOR);
    ORTKIT__TAKE(hw_device_id, ORTKIT__SLOT_HW_DEVICE_ID);
    ORTKIT__TAKE(ep_name, ORTKIT__SLOT_EP_NAME);
    ORTKIT__TAKE(ep_vendor, ORTKIT__SLOT_EP_VENDOR);
    ORTKIT__TAKE(ep_device, ORTKIT__SLOT_EP_DEVICE);
#undef ORTKIT__TAKE
    return 1;
}

#endif
