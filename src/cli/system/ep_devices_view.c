/* ep_devices_view.c - the EP devices a runtime discovers, as `ortkit version`
 * and `ortkit doctor` both show them. */
#include "ep_devices_view.h"
#include "view.h"

cJSON *ep_devices_view(const ortkit_ep_devices *eps)
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

void ep_devices_print(const cJSON *view)
{
    if (cJSON_GetArraySize(view) == 0)
        printf("EP devices none listed (ONNX Runtime lists them from 1.22 on)\n");
    const cJSON *o;
    int first = 1;
    cJSON_ArrayForEach(o, view) {
        const char *vendor = cli_view_str(o, "vendor");
        printf("%-11s%s on %s (%s%s0x%04x)\n", first ? "EP devices" : "",
               cli_esc(cli_view_str(o, "ep")), cli_esc(cli_view_str(o, "type")), cli_esc(vendor),
               vendor[0] ? ", " : "", (unsigned)cli_view_num(o, "vendor_id"));
        first = 0;
    }
}
