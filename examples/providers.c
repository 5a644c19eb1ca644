/* run: "$MODELS/add.onnx" */
/*
 * providers.c - ask for execution providers in order of preference and find
 * out what the session really got.  Under the fallback policy a provider
 * that cannot be added (no GPU, its library missing, a runtime built without
 * it) is skipped and the reason recorded; the CPU provider is always last.
 * Under the strict policy the same request fails instead.
 *
 *   cc providers.c $(pkg-config --cflags --libs ortkit) -o providers
 *   ./providers add.onnx
 */
#include <ortkit.h>

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s MODEL\n", argv[0]);
        return 2;
    }
    ortkit_runtime *rt = NULL;
    ortkit_session *session = NULL, *strict = NULL;
    int status = 1;

    if (ortkit_runtime_open(&rt, NULL)) {
        fprintf(stderr, "providers: %s\n", ortkit_error_last());
        goto done;
    }
    /* What this runtime was built with: a list, not a promise that each works here. */
    printf("ONNX Runtime %s offers:", ortkit_runtime_version(rt));
    for (size_t i = 0; i < ortkit_runtime_provider_count(rt); i++)
        printf(" %s", ortkit_runtime_provider(rt, i));
    printf("\n");

    /* CUDA if possible, else the CPU.  Options may follow a colon. */
    const char *wanted[] = {"cuda:device_id=0", "cpu"};
    ortkit_session_options opts = ORTKIT_SESSION_OPTIONS_INIT;
    opts.providers = wanted;
    opts.provider_count = 2;
    opts.ep_policy = ORTKIT_EP_FALLBACK;
    if (ortkit_session_open(&session, rt, argv[1], &opts)) {
        fprintf(stderr, "providers: %s\n", ortkit_error_last());
        goto done;
    }

    /* Requested providers in order, then the CPU provider. */
    size_t n = ortkit_session_provider_count(session);
    int cuda_active = 0, ok = n >= 2;
    for (size_t i = 0; i < n; i++) {
        const ortkit_provider_status *p = ortkit_session_provider(session, i);
        printf("  %-24s (asked as '%s'): %s%s%s\n", p->name, p->requested, p->active ? "in use" : "skipped",
               p->active ? "" : ": ", p->reason);
        if (!strcmp(p->name, "CUDAExecutionProvider"))
            cuda_active = p->active;
        /* A skipped provider always says why. */
        ok &= p->active || p->reason[0] != '\0';
    }
    const ortkit_provider_status *last = ortkit_session_provider(session, n - 1);
    ok &= !strcmp(last->name, "CPUExecutionProvider") && last->active;

    /* Strict: the same request fails unless CUDA really could be added, and
     * the error names the provider. */
    opts.ep_policy = ORTKIT_EP_STRICT;
    int rc = ortkit_session_open(&strict, rt, argv[1], &opts);
    printf("strict: %s%s%s\n", rc ? ortkit_status_name(rc) : "CUDA in use", rc ? ": " : "",
           rc ? ortkit_error_last() : "");
    if (cuda_active)
        ok &= rc == ORTKIT_OK;
    else
        ok &= rc == ORTKIT_E_PROVIDER && strstr(ortkit_error_last(), "'cuda:device_id=0'") != NULL;
    status = ok ? 0 : 1;
done:
    ortkit_session_free(strict);
    ortkit_session_free(session);
    ortkit_runtime_free(rt);
    return status;
}
