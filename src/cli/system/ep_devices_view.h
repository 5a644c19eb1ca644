/* ep_devices_view.h - the EP devices a runtime discovers (ONNX Runtime 1.22
 * and newer), as `ortkit version` and `ortkit doctor` both show them. */
#ifndef ORTKIT_CLI_EP_DEVICES_VIEW_H
#define ORTKIT_CLI_EP_DEVICES_VIEW_H

#include "cli.h"

/* "EP devices  CPUExecutionProvider on cpu (vendor, 0x1022)": one line each. */
void ep_devices_print(const ortkit_ep_devices *eps);
/* The same as a JSON array (version and doctor --json). */
cJSON *ep_devices_json(const ortkit_ep_devices *eps);

#endif
