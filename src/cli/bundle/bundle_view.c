/* bundle_view.c - the bundle search as `ortkit bundle list` and `ortkit doctor` show it. */
#include "bundle_view.h"
#include "bundle_gpu_view.h"
#include "view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *bundle_dir_state_name(ortkit_bundle_dir_state s)
{
    return s == ORTKIT_BUNDLE_DIR_OK ? "ok" : s == ORTKIT_BUNDLE_DIR_MISSING ? "missing" : "unreadable";
}

cJSON *bundle_dirs_view(const ortkit_bundle_list *l)
{
    cJSON *dirs = cJSON_CreateArray();
    for (size_t i = 0; dirs && i < ortkit_bundle_list_dir_count(l); i++) {
        const ortkit_bundle_dir *d = ortkit_bundle_list_dir(l, i);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "path", d->path);
        cJSON_AddStringToObject(o, "source", d->source);
        cJSON_AddStringToObject(o, "state", bundle_dir_state_name(d->state));
        cJSON_AddStringToObject(o, "note", d->note);
        cJSON_AddNumberToObject(o, "bundles", (double)d->bundle_count);
        cJSON_AddItemToArray(dirs, o);
    }
    return dirs;
}

/* cJSON's string array, which wants an int count. */
static cJSON *strings(const char *const *list, size_t n)
{
    return n ? cJSON_CreateStringArray(list, (int)n) : cJSON_CreateArray();
}

static double total_bytes(const ortkit_manifest *m)
{
    double bytes = 0;
    for (size_t i = 0; i < m->file_count; i++)
        bytes += (double)m->files[i].size;
    return bytes;
}

/* A dependency compiled in: its version, how it matched deps.txt, its source. */
static cJSON *dependency_object(const ortkit_bundle_dependency *d)
{
    cJSON *e = cJSON_CreateObject();
    ortkit__json_add_strings(e, "name", d->name, "version", d->version, "pinned", d->pinned, "match",
                             d->match, "origin", d->origin, "sha256", d->sha256, NULL);
    cJSON_AddBoolToObject(e, "patched", d->patched);
    return e;
}

/* The manifest's "build": what ortkit compiled into the library. */
static cJSON *build_view(const ortkit_manifest *m)
{
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "glibc", m->build_glibc);
    cJSON_AddStringToObject(b, "glibc_floor", m->build_glibc_floor);
    cJSON *a = cJSON_AddArrayToObject(b, "dependencies");
    for (size_t i = 0; a && i < m->build_dependency_count; i++)
        cJSON_AddItemToArray(a, dependency_object(&m->build_dependencies[i]));
    if (m->build_cache) {
        cJSON *c = cJSON_AddObjectToObject(b, "cache");
        cJSON_AddStringToObject(c, "tool", m->build_cache);
        cJSON_AddItemToObject(c, "remote", m->build_cache_remote ? cJSON_CreateString(m->build_cache_remote)
                                                                 : cJSON_CreateNull());
        cJSON_AddNumberToObject(c, "remote_hits", (double)m->build_cache_remote_hits);
        cJSON_AddItemToObject(c, "local", m->build_cache_local ? cJSON_CreateString(m->build_cache_local)
                                                               : cJSON_CreateNull());
    } else {
        cJSON_AddNullToObject(b, "cache");
    }
    return b;
}

/* A dependency's origin as the build matched it against deps.txt. */
static const char *match_words(const char *match)
{
    return !strcmp(match, "sha1") ? "deps.txt's own file"
           : !strcmp(match, "version") ? "deps.txt's version"
           : !strcmp(match, "named") ? "a source given as it is"
                                     : "deps.txt pins ";
}

/* How ortkit built it, drawn from the view's "build": the line, each
 * dependency, the cache; nothing for other bundles. */
static void build_lines(FILE *out, const char *lead, const cJSON *o)
{
    const cJSON *b = cli_view_at(o, "build");
    if (!b)
        return;
    const cJSON *deps = cJSON_GetObjectItemCaseSensitive(b, "dependencies"), *d;
    const cJSON *cache = cJSON_GetObjectItemCaseSensitive(b, "cache");
    const char *glibc = cli_view_str(b, "glibc"), *floor = cli_view_str(b, "glibc_floor");
    size_t other = 0;
    cJSON_ArrayForEach(d, deps)
        other += strcmp(cli_view_str(d, "match"), "sha1") &&
                 strcmp(cli_view_str(d, "match"), "version");
    fprintf(out, "built      by ortkit with glibc %s%s%s; %d dependencies compiled in",
           glibc[0] ? cli_esc(glibc) : "?", floor[0] ? ", held to " : "",
           floor[0] ? cli_esc(floor) : "", cJSON_GetArraySize(deps));
    if (other)
        fprintf(out, ", %zu not at deps.txt's version", other);
    fprintf(out, "\n");
    cJSON_ArrayForEach(d, deps) {
        const char *match = cli_view_str(d, "match");
        fprintf(out, "  %-16s %-22s %s%s\n", cli_esc(cli_view_str(d, "name")),
               cli_esc(cli_view_str(d, "version")), match_words(match),
               !strcmp(match, "accepted") ? cli_esc(cli_view_str(d, "pinned")) : "");
    }
    /* Objects from a shared cache are trusted as its server is: said. */
    const char *tool = cli_view_str(cache, "tool"), *remote = cli_view_str(cache, "remote");
    if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(cache, "remote")))
        fprintf(out, "cache      %s, shared through %s: %.0f compiles came from it\n", cli_esc(tool),
               cli_esc(remote), cli_view_num(cache, "remote_hits"));
    else if (cJSON_IsObject(cache))
        fprintf(out, "cache      %s, this machine's own%s\n", cli_esc(tool),
               !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(cache, "local"))
                   ? " (by an older ortkit, whose local cache a server may have filled)" : "");
}

cJSON *bundle_summary_view(const ortkit_manifest *m)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    ortkit__json_add_strings(o, "name", m->name, "dir", m->dir, "ort_version", m->ort_version, NULL);
    cJSON_AddNumberToObject(o, "api_level", m->api_level);
    ortkit__json_add_strings(o, "variant", m->variant, "arch", ortkit_arch_name(m->arch), NULL);
    if (m->cuda)
        cJSON_AddStringToObject(o, "cuda_platform", ortkit_cuda_platform_name(m->cuda_platform));
    cJSON_AddStringToObject(o, "linkage", m->linkage ? m->linkage : "shared");
    cJSON *p = cJSON_AddArrayToObject(o, "providers");
    for (size_t i = 0; p && i < m->provider_count; i++)
        cJSON_AddItemToArray(p, cJSON_CreateString(m->providers[i]));
    cJSON_AddNumberToObject(o, "files", (double)m->file_count);
    cJSON_AddNumberToObject(o, "bytes", total_bytes(m));
    cJSON_AddBoolToObject(o, "verified_by_loading", m->verified_by_loading);
    cJSON_AddStringToObject(o, "version_from", m->version_from ? m->version_from : "");
    if (m->gpu_known)
        cJSON_AddItemToObject(o, "gpu", bundle_gpu_view(m));
    if (m->needs_known) {
        cJSON *n = cJSON_AddObjectToObject(o, "needs");
        cJSON_AddStringToObject(n, "glibc", m->needs_glibc);
        cJSON_AddStringToObject(n, "glibcxx", m->needs_glibcxx);
        cJSON_AddStringToObject(n, "cxxabi", m->needs_cxxabi);
        cJSON_AddItemToObject(n, "libraries", strings(m->needs_libraries, m->needs_library_count));
        cJSON_AddBoolToObject(n, "exec_stack", m->needs_exec_stack);
    }
    if (m->build_known)
        cJSON_AddItemToObject(o, "build", build_view(m));
    cJSON *parts = cJSON_AddArrayToObject(o, "parts");
    for (size_t i = 0; parts && i < m->part_count; i++) {
        cJSON *part = cJSON_CreateObject();
        cJSON_AddStringToObject(part, "name", m->parts[i]->name);
        cJSON_AddItemToObject(part, "files", strings(m->parts[i]->files, m->parts[i]->file_count));
        cJSON_AddItemToObject(part, "libraries",
                              strings(m->parts[i]->libraries, m->parts[i]->library_count));
        cJSON_AddItemToArray(parts, part);
    }
    return o;
}

/* ---- the text, drawn from the view ---------------------------------------------- */

static void runtime_cell(const cJSON *o, char *buf, size_t size)
{
    snprintf(buf, size, "ONNX Runtime %s (C API %s), variant %s, %s", cli_view_str(o, "ort_version"),
             cli_view_str(o, "api_level"), cli_view_str(o, "variant"), cli_view_str(o, "arch"));
}

/* On arm64 the CUDA a bundle is built with decides where it runs. */
static void platform_cell(const cJSON *o, char *buf, size_t size)
{
    const char *name = cli_view_str(o, "cuda_platform");
    int p = ortkit_cuda_platform_from_name(name);
    if (name[0] && !strcmp(cli_view_str(o, "arch"), ortkit_arch_name(ORTKIT_ARCH_AARCH64)))
        snprintf(buf, size, "%s: %s", name,
                 p > 0 ? ortkit_cuda_platform_label((ortkit_cuda_platform)p)
                       : "not recorded (imported before ortkit told SBSA from L4T; import it again "
                         "with --platform)");
}

static void providers_cell(const cJSON *o, char *buf, size_t size)
{
    cli_view_join(cli_view_at(o, "providers"), " ", buf, size);
}

static void version_from_cell(const cJSON *o, char *buf, size_t size)
{
    const char *from = cli_view_str(o, "version_from");
    snprintf(buf, size, "from %s", from[0] ? from : "-");
}

static void files_cell(const cJSON *o, char *buf, size_t size)
{
    char bytes[32];
    ortkit__human_bytes(bytes, sizeof bytes, cli_view_num(o, "bytes"));
    snprintf(buf, size, "%s, %s", cli_view_str(o, "files"), bytes);
}

static void loaded_cell(const cJSON *o, char *buf, size_t size)
{
    if (cJSON_IsFalse(cli_view_at(o, "verified_by_loading")))
        snprintf(buf, size, "no: not yet verified by loading; 'ortkit bundle verify %s' on a host "
                 "that can load it does", cli_view_str(o, "name"));
}

static const cli_view_field summary_fields[] = {{"runtime", NULL, runtime_cell, NULL, NULL},
                                                {"platform", NULL, platform_cell, NULL, NULL},
                                                {"providers", NULL, providers_cell, NULL, NULL},
                                                {"version", NULL, version_from_cell, NULL, NULL},
                                                {"files", NULL, files_cell, NULL, NULL},
                                                {"loaded", NULL, loaded_cell, NULL, NULL},
                                                {"", NULL, NULL, bundle_gpu_lines, NULL}};

void bundle_summary_lines(FILE *out, const char *lead, const cJSON *o)
{
    cli_view_fields(out, o, CLI_VIEW_FIELDS(summary_fields), BUNDLE_VIEW_LABEL);
}

/* What it needs of a host: C and C++ libraries, then each part's libraries
 * (a provider's are its own: without them the core loads and that provider
 * is unavailable), or all together in a manifest without parts. */
static void needs_lines(FILE *out, const char *lead, const cJSON *o)
{
    const cJSON *n = cli_view_at(o, "needs"), *part;
    if (!n) {
        fprintf(out, "%snot recorded (a manifest older than ortkit 0.1)\n", lead);
        return;
    }
    const char *glibc = cli_view_str(n, "glibc"), *glibcxx = cli_view_str(n, "glibcxx");
    const char *cxxabi = cli_view_str(n, "cxxabi");
    fprintf(out, "%sglibc %s, GLIBCXX %s, CXXABI %s\n", lead, glibc[0] ? cli_esc(glibc) : "-",
            glibcxx[0] ? cli_esc(glibcxx) : "-", cxxabi[0] ? cli_esc(cxxabi) : "-");
    if (cli_view_bool(n, "exec_stack"))
        fprintf(out, "           and an executable stack, which glibc 2.41 and newer refuse to a "
                "loaded\n           library: rebuild it linked with -z noexecstack\n");
    if (cJSON_GetArraySize(cli_view_at(o, "parts")) == 0) {
        cli_view_wrapped(out, "libraries  ", cli_view_at(n, "libraries"), NULL);
        return;
    }
    fprintf(out, "parts      what each needs that the bundle does not carry\n");
    cJSON_ArrayForEach(part, cli_view_at(o, "parts")) {
        char part_lead[96];
        snprintf(part_lead, sizeof part_lead, "  %-26s ", cli_esc(cli_view_str(part, "name")));
        cli_view_wrapped(out, part_lead, cli_view_at(part, "libraries"), "nothing");
    }
}

static const cli_view_field needs_fields[] = {{"needs", NULL, NULL, needs_lines, NULL},
                                              {"built", NULL, NULL, build_lines, NULL}};

void bundle_needs_lines(FILE *out, const char *lead, const cJSON *o)
{
    cli_view_fields(out, o, CLI_VIEW_FIELDS(needs_fields), BUNDLE_VIEW_LABEL);
}

/* Does the bundle carry a file of that name in lib/? */
static int carries(const ortkit_manifest *m, const char *name)
{
    for (size_t i = 0; i < m->file_count; i++)
        if (!strncmp(m->files[i].path, "lib/", 4) && !strcmp(m->files[i].path + 4, name))
            return 1;
    return 0;
}

int bundle_part_missing(const ortkit_manifest *m, const ortkit_bundle_part *p, const ortkit_host *h,
                        char *buf, size_t size)
{
    int judged = 1;
    buf[0] = '\0';
    for (size_t i = 0; i < p->library_count; i++) {
        if (carries(m, p->libraries[i]))
            continue;
        int has = ortkit_host_has_library(h, p->libraries[i]);
        judged &= has >= 0;
        if (has == 0)
            snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", buf[0] ? ", " : "", p->libraries[i]);
    }
    return buf[0] ? 1 : judged ? 0 : -1;
}

int bundle_provider_unavailable(const ortkit_manifest *m, const char *provider, const ortkit_host *h,
                                char *buf, size_t size)
{
    char missing[512];
    for (size_t i = 1; i < m->part_count; i++) {
        if (strcmp(m->parts[i]->name, provider) || bundle_part_missing(m, m->parts[i], h, missing,
                                                                       sizeof missing) != 1)
            continue;
        /* TensorRT says its major in its soname: name what is not installed. */
        const char *trt = strstr(missing, "libnvinfer.so.");
        if (trt)
            snprintf(buf, size, "TensorRT %d is not installed (needs %s, not in the bundle, not on "
                     "this host)", atoi(trt + 14), missing);
        else
            snprintf(buf, size, "needs %s, not in the bundle, not on this host", missing);
        return 1;
    }
    return 0;
}
