/*
 * doctor_python.c - `ortkit doctor --python PYTHON`: which ONNX Runtime a
 * Python environment imports, what its package says it is (an ortkit
 * wheel's variant and facts, or another build), whether that fits this
 * host, and whether a variant of a higher CPU level would.  The view is
 * one cJSON; --json prints it, the text is drawn from it.
 */
#include "doctor_python.h"

#include <stdlib.h>
#include <string.h>

/* Asked of the interpreter: nothing of ortkit's is imported there. */
static const char probe_code[] =
    "import json, sys\n"
    "r = {'python': '%d.%d.%d' % sys.version_info[:3], 'executable': sys.executable}\n"
    "try:\n"
    "    import onnxruntime as ort\n"
    "    r.update(file=ort.__file__, version=ort.__version__, providers=ort.get_available_providers())\n"
    "    try:\n"
    "        from importlib import metadata\n"
    "        d = metadata.distribution('onnxruntime')\n"
    "        r['package_version'] = d.version\n"
    "        facts = d.read_text('ortkit.json')\n"
    "        if facts:\n"
    "            r['facts'] = json.loads(facts)\n"
    "    except Exception as e:\n"
    "        r['package_error'] = ortkit__json_str(e)\n"
    "except Exception as e:\n"
    "    r['error'] = '%s: %s' % (type(e).__name__, e)\n"
    "print(json.dumps(r))\n";

/* The CPU variants of the host's architecture, lowest level first. */
static int isa_rank(ortkit_isa isa)
{
    switch (isa) {
    case ORTKIT_ISA_X86_64: case ORTKIT_ISA_ARMV8_0: return 0;
    case ORTKIT_ISA_AVX2: case ORTKIT_ISA_ARMV8_2: return 1;
    case ORTKIT_ISA_AVX512: case ORTKIT_ISA_ARMV9: return 2;
    default: return 3; /* AVX-512 with BF16 or VNNI */
    }
}

/* The highest CPU-only variant this host runs, or NULL. */
static const ortkit_variant *best_cpu_variant(const ortkit_host *host)
{
    const ortkit_variant *best = NULL;
    for (size_t i = 0; i < ortkit_variant_count(); i++) {
        const ortkit_variant *v = ortkit_variant_get(i);
        if (v->cuda || v->arch != host->arch || ortkit_variant_fits(v, host, NULL, 0) != 1)
            continue;
        if (!best || isa_rank(v->isa) > isa_rank(best->isa))
            best = v;
    }
    return best;
}

static void judge(cJSON *view, const cJSON *facts, const ortkit_host *host)
{
    const cJSON *bundle = cJSON_GetObjectItemCaseSensitive(facts, "bundle");
    char *text = bundle ? cJSON_PrintUnformatted(bundle) : NULL;
    ortkit_bundle *b = NULL;
    ortkit_bundle_choice *c = NULL;
    if (!text || ortkit_bundle_parse(&b, text, strlen(text))) {
        cJSON_AddStringToObject(view, "fits_why", "its ortkit.json carries no facts ortkit can read");
        free(text);
        return;
    }
    free(text);
    const ortkit_bundle *list[] = {b};
    (void)ortkit_bundle_select(&c, host, list, 1, NULL);
    const ortkit_bundle_verdict *v = c ? ortkit_bundle_choice_verdict(c, 0) : NULL;
    cJSON_AddBoolToObject(view, "fits", v && v->fits);
    cJSON_AddStringToObject(view, "fits_why", v ? v->why : "");
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    const ortkit_variant *have = NULL, *best = best_cpu_variant(host);
    (void)ortkit_variant_parse(&have, m->variant);
    if (best && (!have || (!have->cuda && isa_rank(best->isa) > isa_rank(have->isa))))
        cJSON_AddStringToObject(view, "better", best->name);
    ortkit_bundle_choice_free(c);
    ortkit_bundle_free(b);
}

cJSON *doctor_python_view(const char *python, const ortkit_host *host)
{
    const char *argv[] = {python, "-c", probe_code, NULL};
    char *out = NULL;
    int status = 0;
    cJSON *view = NULL;
    if (ortkit__spawn(argv, 0, &out, &status) == 0 && status == 0 && out)
        view = cJSON_Parse(out);
    free(out);
    if (!cJSON_IsObject(view)) {
        cJSON_Delete(view);
        view = cJSON_CreateObject();
        cJSON_AddStringToObject(view, "executable", python);
        cJSON_AddStringToObject(view, "error", "the interpreter did not run, or said nothing readable");
        return view;
    }
    const cJSON *facts = cJSON_GetObjectItemCaseSensitive(view, "facts");
    if (cJSON_IsObject(facts)) {
        const cJSON *wh = cJSON_GetObjectItemCaseSensitive(facts, "wheel");
        const cJSON *var = cJSON_GetObjectItemCaseSensitive(wh, "variant");
        cJSON_AddStringToObject(view, "variant", cJSON_IsString(var) ? var->valuestring : "");
        judge(view, facts, host);
        cJSON_DeleteItemFromObjectCaseSensitive(view, "facts");
    } else if (cJSON_GetObjectItemCaseSensitive(view, "file")) {
        const ortkit_variant *best = best_cpu_variant(host);
        if (best)
            cJSON_AddStringToObject(view, "better", best->name);
    }
    return view;
}

void doctor_python_print(const cJSON *view, FILE *out)
{
    const char *error = ortkit__json_str(view, "error"), *variant = ortkit__json_str(view, "variant"), *better = ortkit__json_str(view, "better");
    fprintf(out, "python     %s", cli_esc(ortkit__json_str(view, "executable")));
    if (ortkit__json_str(view, "python"))
        fprintf(out, " (%s)", cli_esc(ortkit__json_str(view, "python")));
    fprintf(out, "\n");
    if (error) {
        fprintf(out, "imports    no onnxruntime: %s\n", cli_esc(error));
        return;
    }
    fprintf(out, "imports    onnxruntime %s from %s\n", cli_esc(ortkit__json_str(view, "version")),
            cli_esc(ortkit__json_str(view, "file")));
    if (variant)
        fprintf(out, "package    %s: an ortkit wheel of the variant %s\n",
                cli_esc(ortkit__json_str(view, "package_version")), cli_esc(variant));
    else
        fprintf(out, "package    %s: not an ortkit wheel (its build's variant is not recorded)\n",
                cli_esc(ortkit__json_str(view, "package_version") ? ortkit__json_str(view, "package_version") : "unknown"));
    fprintf(out, "providers ");
    const cJSON *p;
    int first = 1;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(view, "providers")) {
        fprintf(out, "%s%s", first ? " " : ", ", cli_esc(p->valuestring));
        first = 0;
    }
    fprintf(out, "\n");
    if (variant) {
        const cJSON *fits = cJSON_GetObjectItemCaseSensitive(view, "fits");
        const char *why = ortkit__json_str(view, "fits_why");
        fprintf(out, "fits here  %s%s%s\n", cJSON_IsTrue(fits) ? "yes" : "no", why && why[0] ? ": " : "",
                why ? cli_esc(why) : "");
    }
    if (better)
        fprintf(out, "best here  %s is the highest CPU level this host runs: %s\n", cli_esc(better),
                variant ? "a wheel of it would fit better ('ortkit wheel choose INDEX --python PYTHON')"
                        : "an ortkit wheel of it would say what it is built for");
}

int doctor_python(const char *python, const char *host_file, int json)
{
    ortkit_host *host = NULL;
    if (host_file ? ortkit_host_load(&host, host_file) : ortkit_host_detect(&host))
        return cli_fail_lib();
    cJSON *view = doctor_python_view(python, host);
    ortkit_host_free(host);
    int found = cJSON_GetObjectItemCaseSensitive(view, "error") == NULL;
    if (json)
        return cli_json_print(view) ? CLI_FAIL : found ? CLI_OK : CLI_FAIL;
    doctor_python_print(view, stdout);
    cJSON_Delete(view);
    return found ? CLI_OK : CLI_FAIL;
}
