/*
 * wheel_facts.c - what a wheel says of itself: its file name (PEP 427),
 * RECORD's hashes, the CPython tag, what its ELF files need together, the
 * bundle facts selection reads, and the variant properties of the
 * wheel-variant draft.
 */
#include "wheel_internal.h"
#include "elf_reader.h"

#include <cjson/cJSON.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ortkit__wheel_name_parse(ortkit__wheel_name *out, const char *file)
{
    memset(out, 0, sizeof *out);
    size_t n = strlen(file);
    if (n < 5 || n >= sizeof out->buf || strcmp(file + n - 4, ".whl") != 0)
        return ortkit__error_set(ORTKIT_E_FORMAT, "'%.200s' is not a wheel's file name "
                                 "(NAME-VERSION-PYTHON-ABI-PLATFORM.whl)", file);
    memcpy(out->buf, file, n - 4);
    out->buf[n - 4] = '\0';
    char *part[6];
    size_t k = 0;
    for (char *s = out->buf, *dash; k < 6; s = dash + 1) {
        part[k++] = s;
        if (!(dash = strchr(s, '-')))
            break;
        *dash = '\0';
    }
    if ((k != 5 && k != 6) || strchr(part[k - 1], '-'))
        return ortkit__error_set(ORTKIT_E_FORMAT, "'%.200s' is not a wheel's file name "
                                 "(NAME-VERSION[-BUILD]-PYTHON-ABI-PLATFORM.whl)", file);
    for (size_t i = 0; i < k; i++)
        for (const char *c = part[i]; ; c++) {
            if (!*c) {
                if (c == part[i])
                    return ortkit__error_set(ORTKIT_E_FORMAT, "'%.200s': an empty part", file);
                break;
            }
            if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
                  strchr("._+!", *c)))
                return ortkit__error_set(ORTKIT_E_FORMAT, "'%.200s': '%c' in a wheel's file name",
                                         file, *c);
        }
    out->dist = part[0];
    out->version = part[1];
    out->build = k == 6 ? part[2] : NULL;
    out->python_tag = part[k - 3];
    out->abi_tag = part[k - 2];
    out->platform_tag = part[k - 1];
    if (out->build && !(out->build[0] >= '0' && out->build[0] <= '9'))
        return ortkit__error_set(ORTKIT_E_FORMAT, "'%.200s': a build tag starts with a digit", file);
    return ORTKIT_OK;
}

void ortkit__wheel_record_hash(char out[WHEEL_RECORD_HASH], const unsigned char md[32])
{
    memcpy(out, "sha256=", 7);
    sodium_bin2base64(out + 7, WHEEL_RECORD_HASH - 7, md, 32, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
}

int ortkit__wheel_python_tag(char *buf, size_t size, const char *python, int *major, int *minor)
{
    int a = 0, b = 0, used = 0;
    if (!python || sscanf(python, "%d.%d%n", &a, &b, &used) != 2 || python[used] || a != 3 ||
        b < 0 || b > 99)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "'%.40s' is not a CPython 3 version such "
                                 "as 3.11", python ? python : "");
    if ((size_t)snprintf(buf, size, "cp%d%d", a, b) >= size)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "python tag buffer too small");
    if (major)
        *major = a;
    if (minor)
        *minor = b;
    return ORTKIT_OK;
}

static void keep_higher(char *have, size_t size, const char *v)
{
    if (v[0] && (!have[0] || ortkit__version_compare(v, have) > 0))
        snprintf(have, size, "%s", v);
}

static int add_library(ortkit__strv *libs, const char *name)
{
    for (size_t i = 0; i < libs->n; i++)
        if (!strcmp(libs->v[i], name))
            return ORTKIT_OK;
    return ortkit__strv_push(libs, name);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int ortkit__wheel_needs_add(ortkit__wheel_needs *needs, const char *path, const char *rel,
                            ortkit_arch arch)
{
    ortkit__elf elf;
    int rc = ortkit__elf_read(&elf, path);
    if (rc)
        return ortkit__error_wrap(rc, "'%.300s'", rel);
    unsigned want = arch == ORTKIT_ARCH_X86_64 ? 62 : arch == ORTKIT_ARCH_AARCH64 ? 183 : 0;
    if (elf.machine != want) {
        char m[32];
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%.300s' is for %s, not %s", rel,
                               ortkit__elf_machine_name(elf.machine, m, sizeof m),
                               ortkit_arch_name(arch));
        goto cleanup;
    }
    keep_higher(needs->glibc, sizeof needs->glibc, elf.need_glibc);
    keep_higher(needs->glibcxx, sizeof needs->glibcxx, elf.need_glibcxx);
    keep_higher(needs->cxxabi, sizeof needs->cxxabi, elf.need_cxxabi);
    needs->exec_stack |= elf.exec_stack;
    if (!needs->elf && !(needs->elf = cJSON_CreateArray())) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    cJSON *e = cJSON_CreateObject();
    if (!e || !cJSON_AddItemToArray(needs->elf, e)) {
        cJSON_Delete(e);
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    cJSON_AddStringToObject(e, "path", rel);
    ortkit__json_add_strings(e, "glibc", elf.need_glibc, "glibcxx", elf.need_glibcxx, "cxxabi",
                             elf.need_cxxabi, NULL);
    cJSON_AddBoolToObject(e, "exec_stack", elf.exec_stack);
    cJSON *needed = cJSON_AddArrayToObject(e, "needed");
    for (size_t i = 0; i < elf.needed_count; i++) {
        cJSON_AddItemToArray(needed, cJSON_CreateString(elf.needed[i]));
        if ((rc = add_library(&needs->libraries, elf.needed[i])))
            goto cleanup;
    }
    if (needs->libraries.n > 1)
        qsort(needs->libraries.v, needs->libraries.n, sizeof *needs->libraries.v, by_name);
cleanup:
    ortkit__elf_free(&elf);
    return rc;
}

void ortkit__wheel_needs_own(ortkit__wheel_needs *needs, const ortkit__strv *basenames)
{
    size_t k = 0;
    for (size_t i = 0; i < needs->libraries.n; i++) {
        int own = 0;
        for (size_t j = 0; j < basenames->n && !own; j++)
            own = !strcmp(needs->libraries.v[i], basenames->v[j]);
        if (own)
            free(needs->libraries.v[i]);
        else
            needs->libraries.v[k++] = needs->libraries.v[i];
    }
    needs->libraries.n = k;
    if (needs->libraries.v)
        needs->libraries.v[k] = NULL;
}

void ortkit__wheel_needs_free(ortkit__wheel_needs *needs)
{
    ortkit__strv_free(&needs->libraries);
    cJSON_Delete(needs->elf);
    memset(needs, 0, sizeof *needs);
}

static cJSON *string_or_null(const char *s)
{
    return s && s[0] ? cJSON_CreateString(s) : cJSON_CreateNull();
}

cJSON *ortkit__wheel_bundle_facts(const char *bundle_json, size_t size,
                                  const ortkit__wheel_needs *needs)
{
    cJSON *m = cJSON_ParseWithLength(bundle_json, size);
    if (!cJSON_IsObject(m)) {
        cJSON_Delete(m);
        return NULL;
    }
    cJSON_DeleteItemFromObjectCaseSensitive(m, "parts");
    cJSON *n = cJSON_CreateObject();
    if (!n) {
        cJSON_Delete(m);
        return NULL;
    }
    cJSON_AddItemToObject(n, "glibc", string_or_null(needs->glibc));
    cJSON_AddItemToObject(n, "glibcxx", string_or_null(needs->glibcxx));
    cJSON_AddItemToObject(n, "cxxabi", string_or_null(needs->cxxabi));
    cJSON_AddItemToObject(n, "libraries",
                          cJSON_CreateStringArray((const char *const *)needs->libraries.v,
                                                  (int)needs->libraries.n));
    if (needs->exec_stack)
        cJSON_AddTrueToObject(n, "exec_stack");
    if (cJSON_HasObjectItem(m, "needs"))
        cJSON_ReplaceItemInObjectCaseSensitive(m, "needs", n);
    else
        cJSON_AddItemToObject(m, "needs", n);
    return m;
}

/*
 * The draft's properties (namespace :: feature :: value): x86_64 :: level
 * (the x86-64 micro-architecture level the variant's flags need),
 * aarch64 :: version, and for a CUDA build nvidia :: cuda_version_lower_bound
 * and nvidia :: sm_arch (the SASS it carries, as the draft's NVIDIA
 * provider names it).  Values are [a-z0-9_.]: "v3", "8.2a", "90_real".
 */
char *ortkit__wheel_variant_json(const ortkit_manifest *m, const char *label)
{
    const ortkit_variant *v = NULL;
    if (m->variant && strcmp(m->variant, "cpu") != 0)
        (void)ortkit_variant_parse(&v, m->variant);
    cJSON *root = cJSON_CreateObject(), *props = NULL, *ns;
    if (!root)
        return NULL;
    cJSON_AddStringToObject(root, "$schema", "https://variants-schema.wheelnext.dev/peps/825/v0.1.0.json");
    cJSON *prio = cJSON_AddObjectToObject(root, "default-priorities");
    cJSON *order = cJSON_AddArrayToObject(prio, "namespace");
    cJSON *variants = cJSON_AddObjectToObject(root, "variants");
    props = cJSON_AddObjectToObject(variants, label);
    /* A variant of the table names its SASS; a GPU release's is read from
     * its providers' fat binaries at import (gpu.sass). */
    int cuda = v && v->cuda ? v->cuda : m->gpu_known ? m->gpu_cuda : 0;
    if (cuda) {
        char text[32];
        cJSON_AddItemToArray(order, cJSON_CreateString("nvidia"));
        ns = cJSON_AddObjectToObject(props, "nvidia");
        snprintf(text, sizeof text, "%d.%d", cuda / 1000, (cuda % 1000) / 10);
        cJSON_AddItemToObject(ns, "cuda_version_lower_bound", cJSON_CreateStringArray((const char *[]){text}, 1));
        cJSON *sm = cJSON_AddArrayToObject(ns, "sm_arch");
        size_t n = v && v->cuda ? 1 : m->gpu_sass_count;
        for (size_t i = 0; i < n; i++) {
            const char *sass = v && v->cuda ? v->cubin : m->gpu_sass[i];
            snprintf(text, sizeof text, "%s_real", strncmp(sass, "sm_", 3) ? sass : sass + 3);
            cJSON_AddItemToArray(sm, cJSON_CreateString(text));
        }
    }
    if (m->arch == ORTKIT_ARCH_X86_64) {
        const char *level = "v1";
        if (v && v->isa == ORTKIT_ISA_AVX2)
            level = "v3";
        else if (v && (v->isa == ORTKIT_ISA_AVX512 || v->isa == ORTKIT_ISA_AVX512BF16 ||
                       v->isa == ORTKIT_ISA_AVX512VNNI))
            level = "v4";
        cJSON_AddItemToArray(order, cJSON_CreateString("x86_64"));
        ns = cJSON_AddObjectToObject(props, "x86_64");
        cJSON_AddItemToObject(ns, "level", cJSON_CreateStringArray((const char *[]){level}, 1));
    } else if (m->arch == ORTKIT_ARCH_AARCH64) {
        const char *ver = v && v->isa == ORTKIT_ISA_ARMV9     ? "9.0a"
                          : v && v->isa == ORTKIT_ISA_ARMV8_2 ? "8.2a"
                                                              : "8.0a";
        cJSON_AddItemToArray(order, cJSON_CreateString("aarch64"));
        ns = cJSON_AddObjectToObject(props, "aarch64");
        cJSON_AddItemToObject(ns, "version", cJSON_CreateStringArray((const char *[]){ver}, 1));
    }
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}
