/*
 * cmd_bundle_choose.c - `ortkit bundle choose [--host FILE] [--json] [DIR...]`:
 * every candidate's verdict under the one selection order, and for those
 * that fit, the step that put each above the next.  DIR is a bundle, or a
 * directory of bundles; without one, the bundles the search finds.
 */
#include "bundle_cmds.h"
#include "choice_view.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct choose_args {
    const char *host;
    int json;
} choose_args;

const cli_opt bundle_choose_opts[] = {
    {0, "host", 'H', "FILE", 0,
     "judge for the machine described in FILE ('ortkit host --json'; its os.libraries, when "
     "given, are the libraries it has) instead of this one", CLI_OPT_STRING(choose_args, host)},
    {0, "json", 'j', NULL, 0, "print JSON", CLI_OPT_FLAG(choose_args, json)},
    CLI_OPT_ARGS(0, CLI_OPT_ANY, NULL),
    CLI_OPT_END};

typedef struct candidates {
    choice_row *rows;
    ortkit_bundle **owned;
    char **texts;
    size_t n, cap;
} candidates;

static int add(candidates *c, const char *dir, const char *name)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 16;
        choice_row *r = realloc(c->rows, cap * sizeof *r);
        if (r)
            c->rows = r;
        ortkit_bundle **o = realloc(c->owned, cap * sizeof *o);
        if (o)
            c->owned = o;
        char **t = realloc(c->texts, 3 * cap * sizeof *t);
        if (t)
            c->texts = t;
        if (!r || !o || !t)
            return -1;
        c->cap = cap;
    }
    size_t i = c->n++;
    ortkit_bundle *b = NULL;
    int rc = ortkit_bundle_open(&b, dir);
    c->owned[i] = b;
    c->texts[3 * i] = strdup(name);
    c->texts[3 * i + 1] = strdup(dir);
    c->texts[3 * i + 2] = strdup(rc ? ortkit_error_last() : "");
    c->rows[i] = (choice_row){c->texts[3 * i] ? c->texts[3 * i] : "?",
                              c->texts[3 * i + 1] ? c->texts[3 * i + 1] : "?", "argument", b,
                              c->texts[3 * i + 2] ? c->texts[3 * i + 2] : ""};
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A bundle directory, or each bundle in a directory of them (by name). */
static int add_argument(candidates *c, const char *arg)
{
    char manifest[PATH_MAX];
    struct stat st;
    const char *base = strrchr(arg, '/') && strrchr(arg, '/')[1] ? strrchr(arg, '/') + 1 : arg;
    snprintf(manifest, sizeof manifest, "%s/manifest.json", arg);
    if (stat(manifest, &st) == 0)
        return add(c, arg, base);
    DIR *d = opendir(arg);
    if (!d)
        return cli_fail("cannot read '%s': not a bundle (no manifest.json) nor a directory of "
                        "bundles", arg);
    char **names = NULL;
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        char path[PATH_MAX];
        if (e->d_name[0] == '.' ||
            (size_t)snprintf(path, sizeof path, "%s/%s/manifest.json", arg, e->d_name) >= sizeof path ||
            stat(path, &st) != 0)
            continue;
        char **grown = realloc(names, (n + 1) * sizeof *names);
        if (!grown || !(grown[n] = strdup(e->d_name))) {
            names = grown ? grown : names;
            break;
        }
        names = grown;
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    int rc = CLI_OK;
    for (size_t i = 0; i < n; i++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", arg, names[i]);
        if (!rc && add(c, path, names[i]))
            rc = cli_fail("out of memory");
        free(names[i]);
    }
    free(names);
    return rc;
}

static void host_line(const ortkit_host *h, const char *file)
{
    printf("host       %s", ortkit_arch_name(h->arch));
    if (h->x86_64_level)
        printf(" (x86-64-v%d)", h->x86_64_level);
    printf(", glibc %s, GLIBCXX %s, ", h->glibc[0] ? cli_esc(h->glibc) : "unknown",
           h->glibcxx[0] ? cli_esc(h->glibcxx) : "unknown");
    if (h->libraries_known)
        printf("%zu libraries", h->library_count);
    else
        printf("libraries not listed (needed libraries are not judged)");
    printf(", %zu GPU%s%s%s\n", h->gpu_count, h->gpu_count == 1 ? "" : "s",
           file ? "; described in " : "", file ? cli_esc(file) : "");
}

int cmd_bundle_choose(const cli_opt_spec *spec, int argc, char **argv)
{
    choose_args a = {NULL, 0};
    cli_opt_parser p;
    if (cli_opt_parse(&p, spec, bundle_choose_opts, &a, argc, argv))
        return p.status;
    const char *host_file = a.host;
    int json = a.json;

    ortkit_host *h = NULL;
    ortkit_bundle_list *list = NULL;
    ortkit_bundle_choice *choice = NULL;
    candidates cand = {0};
    const ortkit_bundle **arr = NULL;
    int rc = CLI_OK;
    if (host_file ? ortkit_host_load(&h, host_file) : ortkit_host_detect(&h))
        return cli_fail_lib();
    if (p.n_args) {
        for (int i = 0; !rc && i < p.n_args; i++)
            rc = add_argument(&cand, p.args[i]);
        if (rc)
            goto cleanup;
    } else {
        if (ortkit_bundle_list_open(&list)) {
            rc = cli_fail_lib();
            goto cleanup;
        }
        cand.rows = choice_rows_of_list(list, &cand.n);
    }
    arr = calloc(cand.n ? cand.n : 1, sizeof *arr);
    if (!arr || (cand.n && !cand.rows)) {
        rc = cli_fail("out of memory");
        goto cleanup;
    }
    for (size_t i = 0; i < cand.n; i++)
        arr[i] = cand.rows[i].bundle;
    int sel = ortkit_bundle_select(&choice, h, arr, cand.n, NULL);
    if (!choice) {
        rc = cli_fail_lib();
        goto cleanup;
    }
    int chosen = sel == 0 && choice->index != ORTKIT_BUNDLE_NONE;
    if (json) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToObject(o, "host", host_file ? cJSON_CreateString(host_file) : cJSON_CreateNull());
        cJSON_AddItemToObject(o, "overrides", choice_view_overrides_json());
        cJSON_AddItemToObject(o, "candidates", choice_view_json(cand.rows, cand.n, choice));
        cJSON_AddItemToObject(o, "chosen", chosen ? cJSON_CreateString(cand.rows[choice->index].name)
                                                  : cJSON_CreateNull());
        cJSON_AddStringToObject(o, "reason", choice->reason);
        rc = cli_json_print(o);
    } else {
        host_line(h, host_file);
        choice_view_preamble(stdout, "");
        if (cand.n) {
            printf("\n");
            if (choice_view_print(stdout, cand.rows, cand.n, choice, "  ")) {
                rc = cli_fail("out of memory");
                goto cleanup;
            }
            printf("\n");
        }
        printf("choice     %s\n", chosen ? cli_esc(cand.rows[choice->index].name) : "none");
        printf("why        %s\n", cli_esc(choice->reason));
    }
    if (!rc && !chosen)
        rc = CLI_FAIL;
cleanup:
    for (size_t i = 0; cand.owned && i < cand.n; i++) {
        ortkit_bundle_free(cand.owned[i]);
        free(cand.texts[3 * i]);
        free(cand.texts[3 * i + 1]);
        free(cand.texts[3 * i + 2]);
    }
    free(cand.owned);
    free(cand.texts);
    free(cand.rows);
    free(arr);
    ortkit_bundle_choice_free(choice);
    ortkit_bundle_list_free(list);
    ortkit_host_free(h);
    return rc;
}
