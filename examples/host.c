/* run: */
/*
 * host.c - what this machine is, and which CPU builds of ONNX Runtime it can
 * run.  The host is the library's: ortkit_host_detect makes it and
 * ortkit_host_free gives it back, and the program only reads its fields.
 * Text the library hands over goes back through ortkit_free.
 *
 *   cc host.c $(pkg-config --cflags --libs ortkit) -o host
 *   ./host
 */
#include <ortkit.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
    ortkit_host *host = NULL;
    char *json = NULL;
    int status = 1;

    if (ortkit_host_detect(&host)) {
        fprintf(stderr, "host: %s\n", ortkit_error_last());
        goto done;
    }
    printf("%s, %s, %d logical CPUs, %zu NVIDIA GPU%s\n", ortkit_arch_name(host->arch),
           host->cpu_model[0] ? host->cpu_model : "unknown CPU", host->logical_cpus,
           host->gpu_count, host->gpu_count == 1 ? "" : "s");
    for (size_t i = 0; i < host->gpu_count; i++)
        printf("  GPU %zu: %s, SM %d.%d\n", i, host->gpus[i]->name, host->gpus[i]->cc_major,
               host->gpus[i]->cc_minor);

    /* The CPU-only variants of the table, and whether each fits. */
    for (size_t i = 0; i < ortkit_variant_count(); i++) {
        const ortkit_variant *v = ortkit_variant_get(i);
        char why[256];
        if (v->cuda || v->arch != host->arch)
            continue;
        if (ortkit_variant_fits(v, host, why, sizeof why) == 1)
            printf("  %-16s fits\n", v->name);
        else
            printf("  %-16s no: %s\n", v->name, why);
    }

    if (ortkit_host_to_json(host, &json)) {
        fprintf(stderr, "host: %s\n", ortkit_error_last());
        goto done;
    }
    printf("as JSON: %zu bytes (ortkit host --json prints the same)\n", strlen(json));
    status = 0;
done:
    ortkit_free(json);
    ortkit_host_free(host);
    return status;
}
