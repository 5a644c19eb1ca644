/* ep_devices_view.h - the EP devices a runtime discovers (ONNX Runtime 1.22
 * and newer), as `ortkit version` and `ortkit doctor` both show them: one
 * view, printed as JSON or drawn as text. */
#ifndef ORTKIT_CLI_EP_DEVICES_VIEW_H
#define ORTKIT_CLI_EP_DEVICES_VIEW_H

#include "cli.h"

/* The devices as a JSON array (version and doctor --json). */
cJSON *ep_devices_view(const ortkit_ep_devices *eps);
/* The view as text, "EP devices  CPUExecutionProvider on cpu (vendor, 0x1022)": one line each. */
void ep_devices_print(const cJSON *view);

#endif
