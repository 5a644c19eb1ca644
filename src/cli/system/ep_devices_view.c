/* ep_devices_view.c - the EP devices a runtime discovers, as `ortkit version`
 * and `ortkit doctor` both show them. */
#include "ep_devices_view.h"

cJSON *ep_devices_json(const ortkit_ep_devices *eps)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < ortkit_ep_devices_count(eps); i++) {
        const ortkit_ep_device *d = ortkit_ep_devices_get(eps, i);
        cJSON *o = cJSON_CreateObject();
        ortkit__json_add_strings(o, "ep", d->ep_name, "ep_vendor", d->ep_vendor, "type",
                                 d->device_type, "vendor", d->vendor, NULL);
        cJSON_AddNumberToObject(o, "vendor_id", d->vendor_id);
        cJSON_AddNumberToObject(o, "device_id", d->device_id);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

void ep_devices_print(const ortkit_ep_devices *eps)
{
    size_t n = ortkit_ep_devices_count(eps);
    if (n == 0)
        printf("EP devices none listed (ONNX Runtime lists them from 1.22 on)\n");
    for (size_t i = 0; i < n; i++) {
        const ortkit_ep_device *d = ortkit_ep_devices_get(eps, i);
        printf("%-11s%s on %s (%s%s0x%04x)\n", i ? "" : "EP devices", cli_esc(d->ep_name),
               d->device_type, cli_esc(d->vendor), d->vendor[0] ? ", " : "", d->vendor_id);
    }
}
