/* doctor_python.h - `ortkit doctor --python PYTHON` (doctor_python.c). */
#ifndef ORTKIT_CLI_DOCTOR_PYTHON_H
#define ORTKIT_CLI_DOCTOR_PYTHON_H

#include "cli.h"

#include <stdio.h>

/* Which ONNX Runtime PYTHON imports, what its package says it is, and
 * whether it fits host; never NULL ("error" names what went wrong). */
cJSON *doctor_python_view(const char *python, const ortkit_host *host);
/* The view as text. */
void doctor_python_print(const cJSON *view, FILE *out);
/* `doctor --python`: the view of PYTHON for this host (or host_file's),
 * printed; 1 when it imports no onnxruntime. */
int doctor_python(const char *python, const char *host_file, int json);

#endif
