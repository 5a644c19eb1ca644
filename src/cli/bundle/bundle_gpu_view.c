/* bundle_gpu_view.c - a GPU release bundle for people and as JSON (`ortkit
 * bundle import --providers`, `show`, `complete`): CUDA, cuDNN, driver, GPU
 * code, the CUDA libraries carried and missing. */
#include "bundle_gpu_view.h"

static void print_list(const char *lead, const char *const *items, size_t n)
{
    if (n)
        cli_print_wrapped(stdout, lead, items, n);
    else
        printf("%snone\n", lead);
}

void bundle_gpu_print(const ortkit_manifest *m)
{
    if (!m->gpu_known)
        return;
    printf("cuda       %d.%d (cuDNN %d), driver >= %s", m->gpu_cuda / 1000,
           (m->gpu_cuda % 1000) / 10, m->gpu_cudnn, cli_esc(m->gpu_min_driver));
    if (m->gpu_ptx_driver[0])
        printf(" (PTX JIT: >= %s)", cli_esc(m->gpu_ptx_driver));
    printf("\n");
    print_list("sass       ", m->gpu_sass, m->gpu_sass_count);
    print_list("ptx        ", m->gpu_ptx, m->gpu_ptx_count);
    if (m->gpu_library_count) {
        cli_table *t = cli_table_new(3, (const char *const[]){"SONAME", "VERSION", "SHA-256"});
        for (size_t i = 0; t && i < m->gpu_library_count; i++) {
            char sha[17];
            snprintf(sha, sizeof sha, "%.12s...", m->gpu_libraries[i].sha256);
            cli_table_add(t, (const char *const[]){m->gpu_libraries[i].soname,
                                                   m->gpu_libraries[i].version, sha});
        }
        printf("carries    %zu CUDA libraries\n", m->gpu_library_count);
        if (cli_table_print(t, stdout, "  ") != 0)
            printf("  (out of memory)\n");
        cli_table_free(t);
    }
    if (m->gpu_complete) {
        printf("complete   yes: every CUDA library the providers need is in the bundle\n");
        return;
    }
    printf("complete   no: %zu of %zu CUDA libraries missing\n", m->gpu_missing_count,
           m->gpu_need_count);
    for (size_t i = 0; i < m->gpu_missing_count; i++)
        printf("  %s\n", cli_esc(m->gpu_missing[i]));
}

static cJSON *strings(const char *const *list, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(list[i]));
    return a;
}

cJSON *bundle_gpu_json(const ortkit_manifest *m)
{
    if (!m->gpu_known)
        return NULL;
    char cuda[16];
    cJSON *g = cJSON_CreateObject();
    if (!g)
        return NULL;
    snprintf(cuda, sizeof cuda, "%d.%d", m->gpu_cuda / 1000, (m->gpu_cuda % 1000) / 10);
    cJSON_AddStringToObject(g, "cuda", cuda);
    cJSON_AddNumberToObject(g, "cudnn", m->gpu_cudnn);
    cJSON_AddStringToObject(g, "min_driver", m->gpu_min_driver);
    cJSON_AddItemToObject(g, "ptx_driver", m->gpu_ptx_driver[0] ? cJSON_CreateString(m->gpu_ptx_driver)
                                                                 : cJSON_CreateNull());
    cJSON_AddItemToObject(g, "sass", strings(m->gpu_sass, m->gpu_sass_count));
    cJSON_AddItemToObject(g, "ptx", strings(m->gpu_ptx, m->gpu_ptx_count));
    cJSON_AddItemToObject(g, "needs", strings(m->gpu_needs, m->gpu_need_count));
    cJSON *libs = cJSON_AddArrayToObject(g, "libraries");
    for (size_t i = 0; libs && i < m->gpu_library_count; i++) {
        cJSON *l = cJSON_CreateObject();
        if (!l || !cJSON_AddItemToArray(libs, l))
            break;
        cJSON_AddStringToObject(l, "soname", m->gpu_libraries[i].soname);
        cJSON_AddStringToObject(l, "version", m->gpu_libraries[i].version);
        cJSON_AddStringToObject(l, "path", m->gpu_libraries[i].path);
        cJSON_AddStringToObject(l, "sha256", m->gpu_libraries[i].sha256);
    }
    cJSON_AddItemToObject(g, "missing", strings(m->gpu_missing, m->gpu_missing_count));
    cJSON_AddBoolToObject(g, "complete", m->gpu_complete);
    return g;
}
