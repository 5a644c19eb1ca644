/* manifest_maker.h - bundle manifests for selection tests, parsed from JSON
 * made from a variant of the table (header-only). */
#ifndef ORTKIT_MANIFEST_MAKER_H
#define ORTKIT_MANIFEST_MAKER_H

#include "testutil.h"

/*
 * A manifest for a bundle of variant ("cpu" takes arch; a variant the table
 * does not know keeps arch and needs no CPU feature), parsed.  needs: the
 * JSON object of "needs" (NULL: none recorded); verified: whether it was
 * verified by loading.
 */
static ortkit_bundle *make_manifest(const char *name, const char *version, const char *variant,
                                    const char *arch, const char *needs, int verified)
{
    char feats[512] = "", cuda[16] = "null", cc[16] = "null", driver[32] = "null", json[4096];
    int exact = 0, jetson = 0, minor = atoi(strchr(version, '.') + 1);
    const ortkit_variant *v = NULL;
    if (strcmp(variant, "cpu") && ortkit_variant_parse(&v, variant) == 0) {
        arch = ortkit_arch_name(v->arch);
        for (int f = 0; f < ORTKIT_CPU_FEATURE_COUNT; f++)
            if (v->cpu_features & ORTKIT_CPU_BIT(f))
                snprintf(feats + strlen(feats), sizeof feats - strlen(feats), "%s\"%s\"",
                         feats[0] ? "," : "", ortkit_cpu_feature_name((ortkit_cpu_feature)f));
        if (v->cuda) {
            snprintf(cuda, sizeof cuda, "\"%d.%d\"", v->cuda / 1000, (v->cuda % 1000) / 10);
            snprintf(cc, sizeof cc, "\"%d.%d\"", v->sm / 10, v->sm % 10);
            snprintf(driver, sizeof driver, "\"%s\"", v->min_driver);
        }
        exact = v->sm_exact;
        jetson = v->tegra;
    }
    snprintf(json, sizeof json,
             "{\"schema\": 1, \"name\": \"%s\", \"onnxruntime\": {\"version\": \"%s\", "
             "\"api_level\": %d}, \"variant\": \"%s\", \"requires\": {\"arch\": \"%s\", "
             "\"cpu_features\": [%s], \"cuda\": %s, \"compute_capability\": %s, "
             "\"exact_sm_only\": %s, \"jetson\": %s, \"min_driver\": %s}, "
             "\"library\": \"lib/libonnxruntime.so.%s\", \"providers\": [\"CPUExecutionProvider\"], "
             "\"files\": [{\"path\": \"lib/libonnxruntime.so.%s\", \"size\": 1, \"sha256\": "
             "\"%064d\"}]%s%s, \"verified_by_loading\": %s}",
             name, version, minor, variant, arch, feats, cuda, cc, exact ? "true" : "false",
             jetson ? "true" : "false", driver, version, version, 0, needs ? ", \"needs\": " : "",
             needs ? needs : "", verified ? "true" : "false");
    ortkit_bundle *b = NULL;
    if (ortkit_bundle_parse(&b, json, strlen(json)) != 0)
        fail_msg("manifest for %s: %s", name, ortkit_error_last());
    return b;
}

#endif
