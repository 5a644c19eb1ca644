/* cmd_bundle_complete.c - `ortkit bundle complete`: a GPU bundle made
 * self-contained with the CUDA libraries its providers need. */
#include "bundle_gpu_view.h"
#include "interrupt.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_FROM = 1, OPT_JSON };

const cli_opt bundle_complete_opts[] = {
    {OPT_FROM, "from", 'F', "DIR", CLI_OPT_REPEATS,
     "look here first (and in its site-packages/nvidia/*/lib, pip's layout); then CUDA_HOME, "
     "the Python installations' nvidia packages and the ld cache"},
    {OPT_JSON, "json", 'j', NULL, 0, "print JSON"},
    CLI_OPT_END};

static const cli_opt_spec complete_spec = {
    "bundle",
    "usage: ortkit bundle complete BUNDLE [--from DIR]... [--json]\n",
    NULL, bundle_complete_opts, NULL, NULL};

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

int bundle_complete(int argc, char **argv)
{
    cli_opt_parser p;
    const char *from[64];
    size_t n_from = 0;
    int c, json = 0;
    cli_opt_init(&p, &complete_spec, bundle_complete_opts, argc, argv);
    while ((c = cli_opt_next(&p)) > 0) {
        if (c == OPT_JSON)
            json = 1;
        else if (c == OPT_FROM && n_from == 64)
            return cli_usage("bundle", "at most 64 --from directories");
        else if (c == OPT_FROM)
            from[n_from++] = p.value;
    }
    if (c == CLI_OPT_HELP)
        return CLI_OK;
    if (c == CLI_OPT_BAD)
        return CLI_USAGE;
    if (p.n_args != 1)
        return p.n_args ? cli_usage("bundle", "unexpected argument '%s'", p.args[1])
                        : cli_usage("bundle", "complete needs BUNDLE: a directory or a bundle's name");

    ortkit_bundle *b = NULL;
    int rc = bundle_open_named(&b, p.args[0]);
    if (rc)
        return rc;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", ortkit_bundle_manifest(b)->dir);
    ortkit_bundle_free(b);
    b = NULL;

    ortkit_bundle_complete_options o = ORTKIT_BUNDLE_COMPLETE_OPTIONS_INIT;
    o.from = from;
    o.from_count = n_from;
    o.cancel = cli_interrupt_poll;
    cli_interrupt_init();
    cli_interrupt_hold();
    fprintf(stderr, "ortkit: completing '%s' (copying CUDA libraries, then hashing)\n", cli_esc(dir));
    int lrc = ortkit_bundle_complete(&b, dir, &o);
    cli_interrupt_release();
    if (lrc == ORTKIT_E_CANCELLED && cli_interrupted())
        return cli_interrupt_fail("the bundle is as it was");
    if (lrc)
        return cli_fail_lib();
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    rc = m->gpu_complete ? CLI_OK : CLI_FAIL;
    if (json) {
        cJSON *o2 = cJSON_CreateObject();
        if (o2) {
            cJSON_AddStringToObject(o2, "name", m->name);
            cJSON_AddStringToObject(o2, "dir", m->dir);
            cJSON_AddItemToObject(o2, "gpu", bundle_gpu_json(m));
        }
        if (cli_json_print(o2) != CLI_OK)
            rc = CLI_FAIL;
    } else {
        printf("bundle     %s (%s)\n", cli_esc(m->name), cli_esc(m->dir));
        bundle_gpu_print(m);
    }
    if (!m->gpu_complete)
        fprintf(stderr, "ortkit: bundle '%s' is incomplete: %zu CUDA %s missing (listed above); "
                "give the directory holding %s with --from\n", cli_esc(m->name), m->gpu_missing_count,
                m->gpu_missing_count == 1 ? "library is" : "libraries are",
                m->gpu_missing_count == 1 ? "it" : "them");
    ortkit_bundle_free(b);
    return rc;
}
