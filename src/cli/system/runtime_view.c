/* runtime_view.c - a loaded runtime's facts drawn from a view (runtime_view.h). */
#include "runtime_view.h"

static void version_cell(const cJSON *o, char *buf, size_t size)
{
    snprintf(buf, size, "ONNX Runtime %s", cli_view_str(o, "version"));
}

static void api_cell(const cJSON *o, char *buf, size_t size)
{
    snprintf(buf, size, "%s (ortkit supports %d and newer)", cli_view_str(o, "api_level"),
             ORTKIT_MIN_ORT_API);
}

void runtime_view_lines(FILE *out, const cJSON *runtime, const char *version_label,
                        const char *label_fmt)
{
    const cli_view_field fields[] = {{version_label, NULL, version_cell, NULL, NULL},
                                     {"path", "path", NULL, NULL, NULL},
                                     {"found by", "source", NULL, NULL, NULL},
                                     {"API level", NULL, api_cell, NULL, NULL}};
    cli_view_fields(out, runtime, CLI_VIEW_FIELDS(fields), label_fmt);
}
