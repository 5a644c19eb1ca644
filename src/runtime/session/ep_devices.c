/*
 * ep_devices.c - the execution-provider devices ONNX Runtime discovers
 * (API 22, ORT 1.22 and newer): its CPU device and those of the plugin
 * provider libraries registered with its environment.
 */
#include "ort_plugin.h"

#include <stdlib.h>

struct ortkit_ep_devices {
    ortkit_ep_device *items;
    size_t count;
};

static const char *device_type_name(int type)
{
    static const char *const names[] = {"cpu", "gpu", "npu"};
    return type >= 0 && type < 3 ? names[type] : "unknown";
}

static void free_items(ortkit_ep_devices *list)
{
    for (size_t i = 0; i < list->count; i++) {
        free((char *)list->items[i].ep_name);
        free((char *)list->items[i].ep_vendor);
        free((char *)list->items[i].vendor);
    }
    free(list->items);
}

void ortkit_ep_devices_free(ortkit_ep_devices *list)
{
    if (!list)
        return;
    free_items(list);
    free(list);
}

int ortkit_runtime_ep_devices(ortkit_ep_devices **out, ortkit_runtime *rt)
{
    if (!out)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_runtime_ep_devices: out is NULL");
    *out = NULL;
    if (!rt)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_runtime_ep_devices: runtime is NULL");
    ortkit_ep_devices *list = calloc(1, sizeof *list);
    if (!list)
        return ortkit__error_nomem();
    ortkit__plugin_api p;
    if (!ortkit__plugin_api_get(&p, rt)) { /* older than 1.22: no EP devices */
        *out = list;
        return ORTKIT_OK;
    }
    const OrtEpDevice *const *devices = NULL;
    size_t n = 0;
    OrtStatus *st = p.get_ep_devices(rt->env, &devices, &n);
    if (st) {
        ortkit_ep_devices_free(list);
        return ortkit__ort_error(rt, st, ORTKIT_E_ORT, "cannot list the runtime's EP devices");
    }
    if (n && !(list->items = calloc(n, sizeof *list->items))) {
        ortkit_ep_devices_free(list);
        return ortkit__error_nomem();
    }
    for (size_t i = 0; i < n; i++) {
        ortkit_ep_device *d = &list->items[list->count++];
        const OrtHardwareDevice *hw = p.ep_device(devices[i]);
        d->ep_name = ortkit__strdup(p.ep_name(devices[i]));
        d->ep_vendor = ortkit__strdup(p.ep_vendor(devices[i]));
        d->vendor = ortkit__strdup(hw ? p.hw_vendor(hw) : "");
        d->device_type = device_type_name(hw ? p.hw_type(hw) : -1);
        d->vendor_id = hw ? p.hw_vendor_id(hw) : 0;
        d->device_id = hw ? p.hw_device_id(hw) : 0;
        if (!d->ep_name || !d->ep_vendor || !d->vendor) {
            ortkit_ep_devices_free(list);
            return ORTKIT_E_NOMEM;
        }
    }
    *out = list;
    return ORTKIT_OK;
}

size_t ortkit_ep_devices_count(const ortkit_ep_devices *list) { return list ? list->count : 0; }

const ortkit_ep_device *ortkit_ep_devices_get(const ortkit_ep_devices *list, size_t i)
{
    return list && i < list->count ? &list->items[i] : NULL;
}
