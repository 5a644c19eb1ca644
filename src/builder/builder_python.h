/* builder_python.h - the builder: the Python package (python.c). */
#ifndef ORTKIT_BUILDER_PYTHON_H
#define ORTKIT_BUILDER_PYTHON_H

#include "ortkit.h"
#include "util.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* A CPython a build makes ONNX Runtime's Python package for (--python). */
typedef struct ortkit__builder_python {
    char interpreter[4096];    /* as found on PATH, or as given */
    char version[16];          /* "3.11" */
    char include[4096];        /* its C headers (sysconfig's include) */
    char numpy_include[4096];  /* numpy's C headers the extension compiles against */
    char numpy_from[32];       /* "--numpy-include" or "the interpreter's numpy" */
    char numpy_headers[128];   /* "numpy headers ABI 0x02000000, C API 0x00000013 (...)" */
} ortkit__builder_python;

/* Ask interpreter what it is (CPython >= 3.10) and find the numpy headers
 * (numpy_include, else the interpreter's numpy). */
int ortkit__builder_python_probe(ortkit__builder_python *out, const char *interpreter,
                                 const char *numpy_include);

#endif
