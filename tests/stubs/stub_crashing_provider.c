/*
 * stub_crashing_provider.c - a GPU provider library that crashes while it is
 * loaded, as a driver library can (a segmentation fault in its constructor).
 * Installed as libonnxruntime_providers_cuda.so beside a real runtime, it
 * shows that the probe process dies (or is stopped at its time limit) and
 * the caller does not.  The real NVIDIA
 * material on this machine fails cleanly instead, so the crash is made here.
 */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

/* STUB_PROVIDER_HANG set: hang instead, as a driver waiting on a device can. */
__attribute__((constructor)) static void crash_on_load(void)
{
    if (getenv("STUB_PROVIDER_HANG"))
        for (;;)
            pause();
    raise(SIGSEGV);
}

/* The entry points a provider library exports, never reached. */
void *GetProvider(void);
int CreateEpFactories(void);
void *GetProvider(void) { return 0; }
int CreateEpFactories(void) { return 0; }
