/* util_probe.h - the probe program (probe.c). */
#ifndef ORTKIT_UTIL_PROBE_H
#define ORTKIT_UTIL_PROBE_H

#include "util_base.h"
#include "util_strv.h"

/*
 * ortkit-probe (src/probe) loads a runtime in a process of its own, and
 * tries a GPU provider in it when asked: every "load it in a child to see"
 * of ortkit's goes through it, so a library that crashes or hangs takes the
 * probe down, not the caller.  Its command line:
 *   ortkit-probe [RUNTIME]          load only (no RUNTIME: the runtime search's)
 *   ortkit-probe RUNTIME PROVIDER[:OPTIONS] [--origin DIR] [--cudnn] [-- SONAME...]
 * It answers in lines on stdout, fields separated by tabs, each flushed as
 * it happens, so the parent knows how far a crashed probe got:
 *   stage NAME                      it begins: libraries, runtime, provider
 *   need SONAME ok PATH | need SONAME missing ERROR
 *   cudnn PATH CUDART CUDNN | cudnn - missing ERROR
 *   runtime VERSION PATH            the runtime loaded
 *   provider NAME                   each provider it was built with
 *   ok WHAT | fail STAGE MESSAGE    the end
 */
typedef struct ortkit__probe_answer {
    char *output;        /* what it wrote, as written (its stderr too when merged) */
    int status;          /* its exit status, or 128 + the signal */
    int timed_out;
    int ok;              /* it said ok */
    char stage[32];      /* the last stage it began */
    char fail_stage[32]; /* it said fail: where, and why */
    char message[2048];
    char version[64];    /* the runtime line */
    char path[4096];
    ortkit__strv providers; /* the provider lines */
    char last[512];      /* the last line that is none of these (stderr) */
} ortkit__probe_answer;

/* The probe program: ORTKIT_PROBE_EXE, else libexec/ortkit/ortkit-probe
 * beside the file holding ortkit's code.  0, or -1 when there is none. */
int ortkit__probe_find(char *buf, size_t size);
/* Read the probe's lines into *a (a->output is left as it is). */
int ortkit__probe_parse(ortkit__probe_answer *a, const char *output);
/* Run the probe with args after its name (NULL-terminated), envp (NULL:
 * this process's), a time limit (0: none), and its stderr merged into its
 * output or dropped; *a parsed.  Fails only when it cannot be run. */
int ortkit__probe_run(ortkit__probe_answer *a, const char *const *args, char *const *envp,
                      double timeout_s, int merge_stderr);
/* Load a runtime in the probe: ORTKIT_OK with a->ok, a->version, a->path
 * and a->providers; otherwise ORTKIT_E_RUNTIME_INVALID (it could not load:
 * a->message) or ORTKIT_E_IO (the probe crashed, hung or could not run),
 * with a message that says which. */
int ortkit__probe_load(ortkit__probe_answer *a, const char *runtime, double timeout_s);
void ortkit__probe_answer_free(ortkit__probe_answer *a);

#endif
