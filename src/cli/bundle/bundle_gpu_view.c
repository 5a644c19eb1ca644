/* bundle_gpu_view.c - a GPU release bundle for people and as JSON (`ortkit
 * bundle import --providers`, `show`, `complete`): CUDA, cuDNN, driver, GPU
 * code, the CUDA libraries carried and missing; one view, the text drawn from it. */
#include "bundle_gpu_view.h"
#include "view.h"

#include <stdlib.h>

static cJSON *strings(const char *const *list, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(list[i]));
    return a;
}

cJSON *bundle_gpu_view(const ortkit_manifest *m)
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
    const struct {
        const char *key;
        const char *const *list;
        size_t n;
    } lists[] = {{"sass", m->gpu_sass, m->gpu_sass_count},
                 {"ptx", m->gpu_ptx, m->gpu_ptx_count},
                 {"needs", m->gpu_needs, m->gpu_need_count}};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        cJSON_AddItemToObject(g, lists[i].key, strings(lists[i].list, lists[i].n));
    cJSON *libs = cJSON_AddArrayToObject(g, "libraries");
    for (size_t i = 0; libs && i < m->gpu_library_count; i++) {
        cJSON *l = cJSON_CreateObject();
        if (!l || !cJSON_AddItemToArray(libs, l))
            break;
        ortkit__json_add_strings(l, "soname", m->gpu_libraries[i].soname, "version",
                                 m->gpu_libraries[i].version, "path", m->gpu_libraries[i].path,
                                 "sha256", m->gpu_libraries[i].sha256, NULL);
    }
    cJSON_AddItemToObject(g, "missing", strings(m->gpu_missing, m->gpu_missing_count));
    cJSON_AddBoolToObject(g, "complete", m->gpu_complete);
    return g;
}

/* ---- the text, drawn from the view ---------------------------------------------- */

static void sha_cell(const cJSON *o, char *buf, size_t size)
{
    snprintf(buf, size, "%.12s...", cli_view_str(o, "sha256"));
}

static const cli_view_column library_columns[] = {{"SONAME", "soname", NULL, 0, NULL},
                                                  {"VERSION", "version", NULL, 0, NULL},
                                                  {"SHA-256", NULL, sha_cell, 0, NULL}};

void bundle_gpu_lines(FILE *out, const char *lead, const cJSON *o)
{
    const cJSON *g = cli_view_at(o, "gpu");
    if (!cJSON_IsObject(g))
        return;
    const char *ptx_driver = cli_view_str(g, "ptx_driver");
    fprintf(out, "cuda       %s (cuDNN %s), driver >= %s", cli_view_str(g, "cuda"),
            cli_view_str(g, "cudnn"), cli_esc(cli_view_str(g, "min_driver")));
    if (ptx_driver[0])
        fprintf(out, " (PTX JIT: >= %s)", cli_esc(ptx_driver));
    fprintf(out, "\n");
    cli_view_wrapped(out, "sass       ", cli_view_at(g, "sass"), "none");
    cli_view_wrapped(out, "ptx        ", cli_view_at(g, "ptx"), "none");
    const cJSON *libs = cli_view_at(g, "libraries");
    if (cJSON_GetArraySize(libs)) {
        fprintf(out, "carries    %d CUDA libraries\n", cJSON_GetArraySize(libs));
        if (cli_view_table(out, libs, CLI_VIEW_COLUMNS(library_columns), "  ") != 0)
            fprintf(out, "  (out of memory)\n");
    }
    const cJSON *missing = cli_view_at(g, "missing"), *it;
    if (cli_view_bool(g, "complete")) {
        fprintf(out, "complete   yes: every CUDA library the providers need is in the bundle\n");
        return;
    }
    fprintf(out, "complete   no: %d of %d CUDA libraries missing\n", cJSON_GetArraySize(missing),
            cJSON_GetArraySize(cli_view_at(g, "needs")));
    cJSON_ArrayForEach(it, missing)
        fprintf(out, "  %s\n", cli_esc(it->valuestring));
}
