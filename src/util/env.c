/*
 * env.c - every environment variable ortkit reads, in one table, and the
 * one accessor every read goes through: what changes ortkit's behaviour
 * from outside is listed in one place, `ortkit doctor` shows it, and a name
 * missing from the table reads as unset (and stops a debug build), so the
 * table cannot fall behind the code (test_util.c checks every name src/
 * reads against it).  The user's directories ($HOME, the XDG base
 * directories) are worked out here too, by one rule.
 *
 * Only error.c is used here: path.c and cache.c read the environment
 * through this file, so it must not use them.
 */
#include "util.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ortkit__env_var table[] = {
    /* Which runtime is loaded (docs/USER_GUIDE.md, "Finding the runtime"). */
    {"ORTKIT_RUNTIME", "the ONNX Runtime library, or a directory holding one, to load before any "
                       "bundle", "runtime: resolve"},
    {"ORTKIT_BUNDLE", "pin a bundle by name or ONNX Runtime version", "runtime: resolve"},
    {"ORTKIT_PATH", "bundle directories searched first (':' between them)", "runtime: bundle"},
    {"ONNXRUNTIME_DIR", "a directory holding ONNX Runtime, searched after the bundles",
     "runtime: resolve"},
    {"ORTKIT_LOG", "let ONNX Runtime's own log through, 1 (verbose) to 5 (fatal)",
     "ortkit (the tool)"},
    /* Where ortkit keeps its files. */
    {"HOME", "where the XDG directories below default to, and pip's ~/.local",
     "util, tools: bundle complete"},
    {"XDG_DATA_HOME", "the user's bundles: $XDG_DATA_HOME/ortkit/bundles "
                      "(~/.local/share/ortkit/bundles)", "runtime: bundle"},
    {"XDG_DATA_DIRS", "the system's bundles: DIR/ortkit/bundles for each (/usr/local/share:"
                      "/usr/share)", "runtime: bundle"},
    {"XDG_CACHE_HOME", "ortkit's caches: $XDG_CACHE_HOME/ortkit (~/.cache/ortkit): verified "
                       "bundles, probe answers, sessions, measurements", "util"},
    {"XDG_STATE_HOME", "repository state: $XDG_STATE_HOME/ortkit/repos "
                       "(~/.local/state/ortkit/repos)", "tools: repo"},
    /* What selection believes of the host (for testing, or a host that
     * reports less or more than it runs). */
    {"ORTKIT_FORCE_ISA", "take the CPU to have exactly the features of a variant's level (avx2, "
                         "avx512, armv9, x86-64)", "runtime: select"},
    {"ORTKIT_IGNORE_NEEDS", "do not refuse bundles for what they need of the host (glibc, "
                            "glibcxx, libraries, all)", "runtime: bundle"},
    {"ORTKIT_FORCE_CUDA", "take the driver's CUDA version to be this (12.4)", "runtime: bundle"},
    {"ORTKIT_FORCE_SM", "take the GPUs to be of these compute capabilities (90 or 90,86)",
     "runtime: bundle"},
    {"CUDA_VISIBLE_DEVICES", "the GPUs a GPU bundle must fit; part of the probe's cache key",
     "runtime: bundle, open"},
    {"LD_LIBRARY_PATH", "libraries the dynamic loader finds: judged for bundles' needs, part of "
                        "the probe's cache key, searched for CUDA libraries",
     "runtime: host, open; tools: bundle complete"},
    /* GPU providers, tried in ortkit-probe first. */
    {"ORTKIT_GPU_PROBE", "'off': add GPU providers without a probe", "runtime: run, open"},
    {"ORTKIT_GPU_PROBE_TIMEOUT", "seconds a probe may take (120)", "runtime: open"},
    /* Choosing by measurement (bundle choose --measure, bench --compare). */
    {"ORTKIT_MEASURE_COUNTERS", "'off': time runs by CPU time alone, without hardware counters",
     "util: work_clock (bundle choose --measure, bench)"},
    {"ORTKIT_MEASURE_TRACE", "a file every timed run of a measurement is appended to",
     "bundle choose --measure, bench"},
    {"ORTKIT_PROBE_EXE", "the probe program to run instead of ortkit-probe", "runtime: open"},
    /* Making bundles and building ONNX Runtime. */
    {"CUDA_HOME", "the CUDA toolkit (/usr/local/cuda): its libraries for bundle complete, its "
                  "compiler for ortkit build", "tools: bundle complete, ortkit build"},
    {"CUDA_PATH", "another CUDA toolkit whose libraries bundle complete searches",
     "tools: bundle complete"},
    {"CUDNN_HOME", "cuDNN for ortkit build (CUDA_HOME)", "ortkit build"},
    {"CC", "the C compiler ortkit build uses (cc)", "ortkit build"},
    {"CXX", "the C++ compiler ortkit build uses (c++)", "ortkit build"},
    {"TMPDIR", "where ortkit build --plan writes its scratch files, and bundle fetch its "
               "download (/tmp)", "ortkit build, tools: repo (bundle fetch)"},
    {"ORTKIT_CACHE_PASSWORD", "the password of ortkit build --cache-remote's URL, kept out of "
                              "the command line", "ortkit build"},
    {"ORTKIT_NPM_REGISTRY", "the npm registry ortkit bundle fetch gets Microsoft's releases from "
                            "(https://registry.npmjs.org)", "tools: repo (bundle fetch)"},
    {"ORTKIT_GITHUB_RELEASES", "where ortkit bundle fetch --from github gets Microsoft's release "
                               "tarballs, BASE/vVERSION/FILE "
                               "(https://github.com/microsoft/onnxruntime/releases/download)",
     "tools: repo (bundle fetch)"},
    {"CCACHE_DIR", "ccache's local cache; ortkit build --cache-remote keeps one of its own per "
                   "server and CCACHE_DIR", "ortkit build"},
    {"PATH", "where the programs ortkit runs are found (pkg-config, cmake, the compilers)",
     "util"},
};

#define TABLE_SIZE (sizeof table / sizeof table[0])

size_t ortkit__env_count(void) { return TABLE_SIZE; }

const ortkit__env_var *ortkit__env_at(size_t i) { return i < TABLE_SIZE ? &table[i] : NULL; }

const ortkit__env_var *ortkit__env_find(const char *name)
{
    for (size_t i = 0; name && i < TABLE_SIZE; i++)
        if (!strcmp(table[i].name, name))
            return &table[i];
    return NULL;
}

const char *ortkit__env(const char *name)
{
    if (!ortkit__env_find(name)) {
        assert(!"ortkit__env: a variable missing from env.c's table");
        return NULL;
    }
    return getenv(name);
}

const char *ortkit__env_nonempty(const char *name)
{
    const char *v = ortkit__env(name);
    return v && v[0] ? v : NULL;
}

/* ---- the user's directories -------------------------------------------------------- */

const char *ortkit__home_dir(void)
{
    const char *home = ortkit__env("HOME");
    return home && home[0] == '/' ? home : NULL;
}

int ortkit__xdg_dir(char *buf, size_t size, const char *var, const char *fallback,
                    const char *sub)
{
    const char *xdg = ortkit__env(var), *home = ortkit__home_dir();
    int n;
    if (size)
        buf[0] = '\0';
    /* The XDG spec: a relative value is invalid and ignored. */
    if (xdg && xdg[0] == '/')
        n = snprintf(buf, size, "%s/%s", xdg, sub);
    else if (home)
        n = snprintf(buf, size, "%s/%s/%s", home, fallback, sub);
    else
        return ortkit__error_set(ORTKIT_E_IO, "neither %s nor HOME is an absolute path", var);
    if (n < 0 || (size_t)n >= size) {
        if (size)
            buf[0] = '\0';
        return ortkit__error_set(ORTKIT_E_IO, "the path in %s is too long",
                                 xdg && xdg[0] == '/' ? var : "HOME");
    }
    return ORTKIT_OK;
}
