/*
 * probe.c - ortkit-probe, the one program that loads a runtime to learn
 * whether it can (util.h gives its command line and its lines): where it
 * is, how it is run, and its answer read.  The library runs it before it
 * trusts a GPU provider (src/runtime/session/provider_probe.c); the tool runs
 * it before `validate` and in `bundle verify` / `bundle probe`.
 */
#include "util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef ORTKIT_INSTALLED_PROBE_DIRS
#define ORTKIT_INSTALLED_PROBE_DIRS "../libexec/ortkit"
#endif

int ortkit__probe_find(char *buf, size_t size)
{
    const char *env = ortkit__env("ORTKIT_PROBE_EXE");
    if (env && env[0])
        return ortkit__pathf(buf, size, "%s", env) ? -1 : access(buf, X_OK);
    return ortkit__self_find(buf, size, "libexec/ortkit:" ORTKIT_INSTALLED_PROBE_DIRS, "ortkit-probe",
                             X_OK);
}

void ortkit__probe_answer_free(ortkit__probe_answer *a)
{
    if (!a)
        return;
    free(a->output);
    ortkit__strv_free(&a->providers);
    memset(a, 0, sizeof *a);
}

/* Field i of a line (tabs between fields), into out. */
static void field(const char *line, int i, char *out, size_t size)
{
    for (; i > 0 && line; i--)
        line = (line = strchr(line, '\t')) ? line + 1 : NULL;
    size_t len = line ? strcspn(line, "\t") : 0;
    snprintf(out, size, "%.*s", (int)len, line ? line : "");
}

static int kind_is(const char *line, const char *kind)
{
    size_t n = strlen(kind);
    return !strncmp(line, kind, n) && (line[n] == '\t' || line[n] == '\0');
}

int ortkit__probe_parse(ortkit__probe_answer *a, const char *output)
{
    int rc = ORTKIT_OK;
    const char *p = output ? output : "";
    while (*p && !rc) {
        size_t len = strcspn(p, "\n");
        char *line = strndup(p, len);
        if (!line)
            return ortkit__error_nomem();
        if (kind_is(line, "stage")) {
            field(line, 1, a->stage, sizeof a->stage);
        } else if (kind_is(line, "runtime")) {
            field(line, 1, a->version, sizeof a->version);
            field(line, 2, a->path, sizeof a->path);
        } else if (kind_is(line, "provider")) {
            char name[256];
            field(line, 1, name, sizeof name);
            rc = ortkit__strv_push(&a->providers, name);
        } else if (kind_is(line, "ok")) {
            a->ok = 1;
        } else if (kind_is(line, "fail")) {
            field(line, 1, a->fail_stage, sizeof a->fail_stage);
            field(line, 2, a->message, sizeof a->message);
        } else if (!kind_is(line, "need") && !kind_is(line, "cudnn") && line[0]) {
            snprintf(a->last, sizeof a->last, "%s", line);
        }
        free(line);
        p += len + (p[len] == '\n');
    }
    return rc;
}

int ortkit__probe_run(ortkit__probe_answer *a, const char *const *args, char *const *envp,
                      double timeout_s, int merge_stderr)
{
    memset(a, 0, sizeof *a);
    a->status = -1;
    char exe[PATH_MAX];
    if (ortkit__probe_find(exe, sizeof exe) != 0)
        return ortkit__error_set(ORTKIT_E_IO, "ortkit-probe is not installed beside libortkit "
                                              "(libexec/ortkit/ortkit-probe; ORTKIT_PROBE_EXE names "
                                              "another)");
    size_t n = 0;
    while (args && args[n])
        n++;
    const char **argv = calloc(n + 2, sizeof *argv);
    if (!argv)
        return ortkit__error_nomem();
    argv[0] = exe;
    for (size_t i = 0; i < n; i++)
        argv[i + 1] = args[i];
    int rc = ortkit__spawn_timed(argv, envp, timeout_s, merge_stderr, &a->output, &a->status,
                                 &a->timed_out);
    free(argv);
    if (!rc)
        rc = ortkit__probe_parse(a, a->output);
    return rc;
}

int ortkit__probe_load(ortkit__probe_answer *a, const char *runtime, double timeout_s)
{
    const char *args[] = {runtime, NULL};
    int rc = ortkit__probe_run(a, runtime ? args : NULL, NULL, timeout_s, 1);
    if (rc)
        return ortkit__error_wrap(rc, "cannot run ortkit-probe to load the runtime");
    if (a->ok && a->status == 0 && a->version[0])
        return ORTKIT_OK;
    a->ok = 0;
    if (a->fail_stage[0])
        return ortkit__error_set(ORTKIT_E_RUNTIME_INVALID, "%s", a->message);
    if (a->timed_out)
        return ortkit__error_set(ORTKIT_E_IO, "loading it did not end in %g s; the process that "
                                              "tried was killed", timeout_s);
    if (a->status > 128)
        return ortkit__error_set(ORTKIT_E_IO, "loading it killed the process that tried (signal %d)%s%.300s",
                                 a->status - 128, a->last[0] ? ": " : "", a->last);
    return ortkit__error_set(ORTKIT_E_IO, "loading it ended the process that tried with status %d%s%.300s",
                             a->status, a->last[0] ? ": " : "", a->last);
}
