/*
 * ortkit-probe - loads a runtime in a process of its own, and decides there
 * whether a GPU execution provider can be added to it: every "load it in a
 * child to see" of ortkit's is this program, so a library, a driver library
 * or a provider that crashes or hangs while loading takes only this process
 * down.  libortkit runs it (posix_spawn) before it trusts CUDA or TensorRT
 * in the caller's process; the tool runs it before `validate` and for
 * `bundle verify` / `bundle probe`.
 *
 *   ortkit-probe [RUNTIME]
 *   ortkit-probe RUNTIME PROVIDER[:OPTIONS] [--origin DIR] [--cudnn] [-- SONAME...]
 *
 * The first loads RUNTIME (none: the runtime search's choice) and says what
 * it is.  The second first loads each SONAME (the provider's own
 * dependencies) as the provider would find it (first from DIR when its
 * RUNPATH names $ORIGIN); --cudnn also loads libcudnn.so.9 and asks which
 * CUDA it was built for; then the runtime is loaded and a one-node model run
 * on PROVIDER.  The answer is lines on stdout, fields separated by tabs,
 * flushed one by one so that the parent knows how far a crashed probe got
 * (src/util/util.h, "the probe program", reads them):
 *   need SONAME ok PATH | need SONAME missing ERROR
 *   cudnn PATH CUDART_VERSION CUDNN_VERSION | cudnn - missing ERROR
 *   stage NAME
 *   runtime VERSION PATH
 *   provider NAME                 (each provider the runtime was built with)
 *   ok WHAT | fail STAGE MESSAGE
 */
#include <ortkit.h>
#include <ortkit/tools/selftest.h>

#include "util.h"

#include <dlfcn.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

/* One field: tabs and line ends would break the line protocol. */
static void field(const char *text)
{
    for (const char *c = text ? text : ""; *c; c++)
        putchar(*c == '\t' || *c == '\n' || *c == '\r' ? ' ' : *c);
}

static void line(const char *kind, const char *a, const char *b, const char *c)
{
    field(kind);
    const char *rest[] = {a, b, c};
    for (int i = 0; i < 3 && rest[i]; i++) {
        putchar('\t');
        field(rest[i]);
    }
    putchar('\n');
    fflush(stdout);
}

/* The file a handle was loaded from. */
static const char *loaded_path(void *handle)
{
    struct link_map *map = NULL;
    return handle && dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name[0]
               ? map->l_name
               : "?";
}

static void *load(const char *origin, const char *soname, const char **why)
{
    char path[4096];
    void *h = NULL;
    if (origin && snprintf(path, sizeof path, "%s/%s", origin, soname) < (int)sizeof path)
        h = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
    if (!h)
        h = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
    *why = h ? "" : dlerror();
    return h;
}

static void check_cudnn(const char *origin)
{
    const char *why;
    void *h = load(origin, "libcudnn.so.9", &why);
    if (!h) {
        line("cudnn", "-", "missing", why);
        return;
    }
    size_t (*cudart)(void), (*version)(void);
    *(void **)&cudart = dlsym(h, "cudnnGetCudartVersion");
    *(void **)&version = dlsym(h, "cudnnGetVersion");
    char a[32], b[32];
    snprintf(a, sizeof a, "%zu", cudart ? cudart() : 0);
    snprintf(b, sizeof b, "%zu", version ? version() : 0);
    line("cudnn", loaded_path(h), a, b);
}

/* The runtime, as ortkit opens one (ORTKIT_LOG lets its own log through). */
static ortkit_runtime *open_runtime(const char *path)
{
    ortkit_runtime_options ro = ORTKIT_RUNTIME_OPTIONS_INIT;
    ro.path = path && path[0] ? path : NULL;
    const char *log = ortkit__env("ORTKIT_LOG");
    char *end = NULL;
    long level = log && *log ? strtol(log, &end, 10) : 0;
    if (end && !*end && level >= 1 && level <= 5)
        ro.log_level = (ortkit_log_level)level;
    line("stage", "runtime", NULL, NULL);
    ortkit_runtime *rt = NULL;
    if (ortkit_runtime_open(&rt, &ro) != 0) {
        line("fail", "runtime", ortkit_error_last(), NULL);
        return NULL;
    }
    line("runtime", ortkit_runtime_version(rt), ortkit_runtime_path(rt), NULL);
    for (size_t i = 0; i < ortkit_runtime_provider_count(rt); i++)
        line("provider", ortkit_runtime_provider(rt, i), NULL, NULL);
    return rt;
}

int main(int argc, char **argv)
{
    /* It runs in a process group of its own (the caller kills the group at
     * its deadline), so a Ctrl-C at the terminal does not reach it: it must
     * not outlive the caller either. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (argc > 1 && argv[1][0] == '-') {
        fprintf(stderr, "usage: ortkit-probe [RUNTIME]\n"
                        "       ortkit-probe RUNTIME PROVIDER[:OPTIONS] [--origin DIR] [--cudnn] "
                        "[-- SONAME...]\n");
        return 2;
    }
    if (argc < 3) { /* load only */
        ortkit_runtime *rt = open_runtime(argc == 2 ? argv[1] : NULL);
        if (!rt)
            return 1;
        line("ok", "runtime", NULL, NULL);
        ortkit_runtime_free(rt);
        return 0;
    }
    const char *runtime = argv[1], *provider = argv[2], *origin = NULL;
    int cudnn = 0, i = 3;
    for (; i < argc && strcmp(argv[i], "--"); i++) {
        if (!strcmp(argv[i], "--origin") && i + 1 < argc)
            origin = argv[++i];
        else if (!strcmp(argv[i], "--cudnn"))
            cudnn = 1;
    }
    line("stage", "libraries", NULL, NULL);
    for (i++; i < argc; i++) {
        const char *why;
        void *h = load(origin, argv[i], &why);
        line("need", argv[i], h ? "ok" : "missing", h ? loaded_path(h) : why);
    }
    if (cudnn)
        check_cudnn(origin);

    ortkit_runtime *rt = open_runtime(runtime);
    if (!rt)
        return 1;
    /* Registering or appending the provider, creating a session with it and
     * one run: where drivers crash. */
    line("stage", "provider", NULL, NULL);
    ortkit_selftest *t = NULL;
    if (ortkit_selftest_run(&t, rt, provider) != 0) {
        line("fail", "provider", ortkit_error_last(), NULL);
        ortkit_runtime_free(rt);
        return 1;
    }
    int ok = t->ok;
    if (ok)
        line("ok", provider, NULL, NULL);
    else
        line("fail", "provider", t->detail, NULL);
    ortkit_selftest_free(t);
    ortkit_runtime_free(rt);
    return ok ? 0 : 1;
}
