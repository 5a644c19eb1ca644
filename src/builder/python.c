/*
 * python.c - the CPythons a build with Python (--python) makes ONNX
 * Runtime's package for: each interpreter asked what it is and where its
 * headers are, and where the numpy headers the extension compiles against
 * come from (--numpy-include, else the interpreter's own numpy), read for
 * the ABI they target.
 *
 * ONNX Runtime's CMake builds the extension onnxruntime_pybind11_state for
 * one interpreter (find_package(Python 3.10 ... NumPy)), linking the same
 * static libraries as libonnxruntime.so; pybind11 needs RTTI, which ORT
 * then leaves on for the whole build.  The first interpreter is the
 * build's; each further one configures the same build directory again with
 * only Python_EXECUTABLE changed, so only the extension is compiled again.
 */
#include "builder_python.h"
#include "builder_report.h"
#include "builder_build.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the interpreter says, one line each: version, implementation, include dir. */
static const char probe_code[] =
    "import sys, sysconfig\n"
    "print('%d.%d' % sys.version_info[:2])\n"
    "print(sys.implementation.name)\n"
    "print(sysconfig.get_paths()['include'])\n";
static const char numpy_code[] = "import numpy\nprint(numpy.get_include())\n";

static char *line_at(char *text, int n)
{
    for (char *s = text; s; n--) {
        char *nl = strchr(s, '\n');
        if (n == 0) {
            if (nl)
                *nl = '\0';
            return s;
        }
        s = nl ? nl + 1 : NULL;
    }
    return NULL;
}

/* "numpy headers ABI 0x02000000, C API 0x00000013" from DIR/numpy/_numpyconfig.h. */
static int numpy_headers(char *out, size_t size, const char *dir)
{
    char path[PATH_MAX], *text = NULL;
    int rc = ortkit__pathf(path, sizeof path, "%s/numpy/_numpyconfig.h", dir);
    if (rc || (rc = ortkit__file_read(&text, NULL, path, 1 << 20)))
        return ortkit__error_set(ORTKIT_E_IO, "'%s' holds no numpy headers (numpy/_numpyconfig.h): "
                                 "--numpy-include wants the directory numpy.get_include() names", dir);
    const char *abi = strstr(text, "#define NPY_ABI_VERSION "), *api = strstr(text, "#define NPY_API_VERSION ");
    unsigned long a = abi ? strtoul(abi + 24, NULL, 16) : 0, b = api ? strtoul(api + 24, NULL, 16) : 0;
    free(text);
    if (!a || !b)
        return ortkit__error_set(ORTKIT_E_FORMAT, "%s names no NPY_ABI_VERSION or NPY_API_VERSION", path);
    snprintf(out, size, "numpy headers ABI 0x%08lx, C API 0x%08lx (numpy %s)", a, b,
             a >= 0x02000000 ? "2.x: the extension runs with numpy 1.x and 2.x" : "1.x: not with numpy 2");
    return ORTKIT_OK;
}

int ortkit__builder_python_probe(ortkit__builder_python *out, const char *interpreter,
                                 const char *numpy_include)
{
    memset(out, 0, sizeof *out);
    char *found = NULL, *text = NULL;
    int status = 0, rc = ortkit__path_which(&found, interpreter);
    if (rc)
        return ortkit__error_set(ORTKIT_E_IO, "--python %s: no such interpreter", interpreter);
    snprintf(out->interpreter, sizeof out->interpreter, "%s", found);
    free(found);
    const char *argv[] = {out->interpreter, "-I", "-c", probe_code, NULL};
    if (ortkit__spawn(argv, 0, &text, &status) || status != 0) {
        free(text);
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "--python %s does not run here (exit status %d)",
                                 out->interpreter, status);
    }
    char *save = NULL, *version = strtok_r(text, "\n", &save), *impl = strtok_r(NULL, "\n", &save);
    char *include = strtok_r(NULL, "\n", &save);
    int major = 0, minor = 0;
    if (!version || !impl || !include || sscanf(version, "%d.%d", &major, &minor) != 2) {
        free(text);
        return ortkit__error_set(ORTKIT_E_FORMAT, "--python %s: not a Python that says its version",
                                 out->interpreter);
    }
    if (strcmp(impl, "cpython") != 0 || major != 3 || minor < 10) {
        rc = ortkit__error_set(ORTKIT_E_UNSUPPORTED, "--python %s is %s %d.%d: ONNX Runtime 1.21's "
                               "extension is built for CPython 3.10 or newer", out->interpreter, impl,
                               major, minor);
        free(text);
        return rc;
    }
    snprintf(out->version, sizeof out->version, "%d.%d", major, minor);
    snprintf(out->include, sizeof out->include, "%s", include);
    free(text);
    text = NULL;
    if (numpy_include) {
        snprintf(out->numpy_include, sizeof out->numpy_include, "%s", numpy_include);
        snprintf(out->numpy_from, sizeof out->numpy_from, "--numpy-include");
    } else {
        const char *nargv[] = {out->interpreter, "-I", "-c", numpy_code, NULL};
        if (ortkit__spawn(nargv, 0, &text, &status) || status != 0 || !text || !line_at(text, 0)[0]) {
            free(text);
            return ortkit__error_set(ORTKIT_E_IO, "--python %s cannot import numpy: give "
                                     "--numpy-include DIR (numpy's C headers, e.g. Debian's "
                                     "python3-numpy-dev)", out->interpreter);
        }
        snprintf(out->numpy_include, sizeof out->numpy_include, "%s", line_at(text, 0));
        snprintf(out->numpy_from, sizeof out->numpy_from, "the interpreter's numpy");
        free(text);
    }
    return numpy_headers(out->numpy_headers, sizeof out->numpy_headers, out->numpy_include);
}

/* A compile or link of the extension: ORT's pybind sources, or its module. */
static int is_extension(const char *path)
{
    return strstr(path, "/onnxruntime/python/") || strstr(path, "onnxruntime_pybind11_state");
}

void ortkit__builder_python_account(const ortkit__builder_report *rep, double *cpu, double *wall,
                                    size_t *steps)
{
    *cpu = *wall = 0;
    *steps = 0;
    for (size_t i = 0; i < rep->n; i++)
        if (rep->r[i].path && is_extension(rep->r[i].path)) {
            *cpu += rep->r[i].cpu;
            *wall += rep->r[i].wall;
            (*steps)++;
        }
}
