/* runtime_view.h - a loaded runtime's facts as `version` and `doctor` both
 * draw them from their views (an object with version, path, source and
 * api_level, as --json prints it). */
#ifndef ORTKIT_CLI_RUNTIME_VIEW_H
#define ORTKIT_CLI_RUNTIME_VIEW_H

#include "cli.h"
#include "view.h"

/* The runtime's fields, "ONNX Runtime 1.30.0", path, where it was found,
 * API level; the first labelled version_label ("runtime", "version"). */
void runtime_view_lines(FILE *out, const cJSON *runtime, const char *version_label,
                        const char *label_fmt);

#endif
