/*
 * test_select.c - choosing a bundle, as a table: the machines described in
 * tests/hosts/ x a set of bundle manifests -> the bundle chosen, and why;
 * pins; what never fits; hosts and manifests that are refused.
 */
#include "testutil.h"
#include "manifest_maker.h"

#include <stdint.h>

#define HOSTS ORTKIT_TEST_SOURCE_DIR "/tests/hosts/"

/* A manifest for a bundle of variant ("cpu" takes arch), parsed. */
static ortkit_bundle *make(const char *name, const char *version, const char *variant,
                           const char *arch)
{
    return make_manifest(name, version, variant, arch, NULL, 1);
}

/* The set every described host chooses from. */
static const struct { const char *name, *version, *variant, *arch; } set[] = {
    {"ort-1.30.0-cpu", "1.30.0", "cpu", "x86_64"},          /* 0 */
    {"ort-1.17.3-cpu", "1.17.3", "cpu", "x86_64"},          /* 1 */
    {"x-avx2", "1.22.0", "cpu-avx2", NULL},                 /* 2 */
    {"x-avx512", "1.22.0", "cpu-avx512", NULL},             /* 3 */
    {"x-bf16", "1.22.0", "cpu-avx512bf16", NULL},           /* 4 */
    {"x-vnni", "1.22.0", "cpu-avx512vnni", NULL},           /* 5 */
    {"g-sm90", "1.22.0", "cuda12.9-sm90-avx512", NULL},     /* 6 */
    {"g-sm86", "1.20.0", "cuda12.4-sm86-avx2", NULL},       /* 7 */
    {"g-sm75", "1.20.0", "cuda12.4-sm75-avx2", NULL},       /* 8 */
    {"g-sm120", "1.22.0", "cuda13.0-sm120-avx512bf16", NULL}, /* 9 */
    {"g-sm80-13", "1.22.0", "cuda13.0-sm80-avx2", NULL},    /* 10 */
    {"a-v82", "1.22.0", "cpu-armv8.2", NULL},               /* 11 */
    {"a-v9", "1.22.0", "cpu-armv9", NULL},                  /* 12 */
    {"a-cpu", "1.30.0", "cpu", "aarch64"},                  /* 13 */
    {"j-orin", "1.20.0", "cuda12.6-sm87-armv8.2", NULL},    /* 14 */
    {"g-gh200", "1.22.0", "cuda12.9-sm90-armv9", NULL},     /* 15 */
    {"j-thor", "1.22.0", "cuda13.0-sm110-armv9", NULL},     /* 16 */
};
#define SET_SIZE (sizeof set / sizeof set[0])

typedef struct expect_why {
    size_t bundle;
    const char *text; /* in its verdict's why */
} expect_why;

typedef struct row {
    const char *host;
    size_t chosen;
    const char *reason;          /* in the choice's reason */
    const char *fits;            /* one char per bundle of the set: 'y' or 'n' */
    expect_why why[4];
} row;

static const row table[] = {
    {"h100-server.json", 6, "a GPU build (cuda12.9-sm90-avx512)", "yyyynyynnnnnnnnnn",
     {{6, "minor-version compatibility"}, {4, "AVX-512 BF16"}, {7, "SM 8.6 cubins do not run on SM 9.0"},
      {11, "built for aarch64; this host is x86_64"}}},
    {"graviton3.json", 11, "the highest CPU level this host supports: armv8.2 (a-cpu: any CPU)",
     "nnnnnnnnnnnynynnn", {{12, "SVE2"}, {0, "built for x86_64"}, {14, "Jetson"}}},
    {"jetson-orin.json", 14, "a GPU build (cuda12.6-sm87-armv8.2)", "nnnnnnnnnnnynyynn",
     {{15, "built for NVIDIA's SBSA CUDA"}, {16, "this host takes Jetson's L4T CUDA (JetPack 6"},
      {12, "SVE2"}}},
    /* Thor, a Jetson on SBSA's CUDA, and a Grace server: neither takes Orin's build. */
    {"jetson-thor.json", 16, "a GPU build (cuda13.0-sm110-armv9)", "nnnnnnnnnnnyyynny",
     {{14, "built for Jetson's L4T CUDA (JetPack 6); this host takes NVIDIA's SBSA CUDA (a Jetson on "
           "JetPack 7, L4T R38.2.0)"},
      {15, "SM 9.0 cubins do not run on SM 11.0"}}},
    {"grace-gh200.json", 15, "a GPU build (cuda12.9-sm90-armv9)", "nnnnnnnnnnnyyynyn",
     {{14, "built for Jetson's L4T CUDA (JetPack 6); this host takes NVIDIA's SBSA CUDA (arm64, not "
           "a Jetson)"},
      {16, "SM 11.0 cubins do not run on SM 9.0"}}},
    {"laptop-avx2.json", 2, "the highest CPU level this host supports: avx2 (ort-1.30.0-cpu: any CPU)",
     "yyynnnnnnnnnnnnnn", {{3, "AVX-512"}, {7, "needs an NVIDIA GPU with SM 8.6; none found"}}},
    {"old-driver-3090.json", 7, "a GPU build (cuda12.4-sm86-avx2)", "yyynnnnynnnnnnnnn",
     {{7, "minor-version compatibility"}, {10, "needs driver >= 580.65.06 for CUDA 13.0; found 525.147.05"},
      {8, "SM 7.5 cubins do not run on SM 8.6"}}},
    {"rtx5090.json", 9, "a GPU build (cuda13.0-sm120-avx512bf16)", "yyyyyynnnynnnnnnn",
     {{6, "SM 9.0 cubins do not run on SM 12.0"}, {10, "SM 8.0 cubins do not run on SM 12.0"}}},
    {"sapphire-rapids.json", 4,
     "the highest CPU level this host supports: avx512bf16 (x-vnni: avx512vnni)", "yyyyyynnnnnnnnnnn",
     {{6, "needs an NVIDIA GPU with SM 9.0; none found"}}},
    {"t4.json", 8, "a GPU build (cuda12.4-sm75-avx2)", "yyyynnnnynnnnnnnn",
     {{5, "AVX-512 VNNI"}, {7, "SM 8.6 cubins do not run on SM 7.5"}}},
};

static ortkit_bundle *bundles[SET_SIZE];

static int setup(void **state)
{
    (void)state;
    for (size_t i = 0; i < SET_SIZE; i++)
        bundles[i] = make(set[i].name, set[i].version, set[i].variant, set[i].arch);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (size_t i = 0; i < SET_SIZE; i++)
        ortkit_bundle_free(bundles[i]);
    return 0;
}

static ortkit_host *load_host(const char *file)
{
    char path[1024];
    ortkit_host *h = NULL;
    snprintf(path, sizeof path, HOSTS "%s", file);
    if (ortkit_host_load(&h, path) != 0)
        fail_msg("%s: %s", file, ortkit_error_last());
    return h;
}

/* The verdict on bundle i. */
static const ortkit_bundle_verdict *verdict(const ortkit_bundle_choice *c, size_t i)
{
    const ortkit_bundle_verdict *v = ortkit_bundle_choice_verdict(c, i);
    assert_non_null(v);
    return v;
}

static void test_table(void **state)
{
    (void)state;
    assert_true(sizeof table / sizeof table[0] >= 8);
    for (size_t r = 0; r < sizeof table / sizeof table[0]; r++) {
        const row *t = &table[r];
        ortkit_host *h = load_host(t->host);
        ortkit_bundle_choice *c = NULL;
        int rc = ortkit_bundle_select(&c, h, (const ortkit_bundle *const *)bundles, SET_SIZE, NULL);
        if (rc != 0 || c->index != t->chosen)
            fail_msg("%s: chose %zu (%s), expected %s: %s", t->host, c->index,
                     c->index < SET_SIZE ? set[c->index].name : "none", set[t->chosen].name,
                     c->reason);
        if (!strstr(c->reason, t->reason))
            fail_msg("%s: reason '%s' lacks '%s'", t->host, c->reason, t->reason);
        assert_int_equal(c->count, SET_SIZE);
        for (size_t i = 0; i < SET_SIZE; i++)
            if (verdict(c, i)->fits != (t->fits[i] == 'y'))
                fail_msg("%s: %s %s, expected %s (%s)", t->host, set[i].name,
                         verdict(c, i)->fits ? "fits" : "does not fit",
                         t->fits[i] == 'y' ? "fits" : "not", verdict(c, i)->why);
        for (size_t k = 0; k < 4 && t->why[k].text; k++)
            if (!strstr(verdict(c, t->why[k].bundle)->why, t->why[k].text))
                fail_msg("%s: why for %s is '%s', lacks '%s'", t->host, set[t->why[k].bundle].name,
                         verdict(c, t->why[k].bundle)->why, t->why[k].text);
        assert_null(ortkit_bundle_choice_verdict(c, SET_SIZE));
        ortkit_bundle_choice_free(c);
        ortkit_host_free(h);
    }
}

/* The index chosen among bundles[which[...]] on a described host; *out (may
 * be NULL) keeps the choice for the caller to free. */
static size_t choose(const char *host, const size_t *which, size_t n, const char *pin, int *rc,
                     char *reason, ortkit_bundle_choice **out)
{
    ortkit_host *h = load_host(host);
    const ortkit_bundle *list[SET_SIZE + 2];
    for (size_t i = 0; i < n; i++)
        list[i] = which[i] == SIZE_MAX ? NULL : bundles[which[i]];
    ortkit_bundle_choice *c = NULL;
    *rc = ortkit_bundle_select(&c, h, list, n, pin);
    assert_non_null(c); /* an answer, even when it is "none" */
    snprintf(reason, 512, "%s", c->reason);
    size_t index = c->index;
    if (out)
        *out = c;
    else
        ortkit_bundle_choice_free(c);
    ortkit_host_free(h);
    return index;
}

static void test_newest_ort_and_search_order(void **state)
{
    (void)state;
    char reason[512];
    int rc;
    /* Two builds for any CPU: the newer ONNX Runtime. */
    size_t two[] = {1, 0};
    assert_int_equal(choose("laptop-avx2.json", two, 2, NULL, &rc, reason, NULL), 1);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(reason, "the newest ONNX Runtime: 1.30.0 (ort-1.17.3-cpu: 1.17.3)"));
    /* Equal in every way but the name: the name decides. */
    ortkit_bundle *twin = make("twin", "1.30.0", "cpu", "x86_64");
    ortkit_host *h = load_host("laptop-avx2.json");
    const ortkit_bundle *list[] = {twin, bundles[0]};
    ortkit_bundle_choice *c = NULL;
    assert_int_equal(ortkit_bundle_select(&c, h, list, 2, NULL), 0);
    assert_int_equal(c->index, 1);
    assert_non_null(strstr(c->reason, "ranks the same as twin and its name comes first"));
    assert_int_equal(verdict(c, 1)->rank, 1);
    assert_string_equal(verdict(c, 1)->step, "name");
    assert_int_equal(verdict(c, 0)->rank, 2);
    assert_string_equal(verdict(c, 0)->step, "");
    ortkit_bundle_choice_free(c);
    /* The same name again, later in the order: shadowed, never chosen. */
    ortkit_bundle *again = make("twin", "1.31.0", "cpu", "x86_64");
    const ortkit_bundle *dup[] = {twin, again};
    assert_int_equal(ortkit_bundle_select(&c, h, dup, 2, NULL), 0);
    assert_int_equal(c->index, 0);
    assert_false(verdict(c, 1)->fits);
    assert_non_null(strstr(verdict(c, 1)->why, "shadowed"));
    ortkit_bundle_choice_free(c);
    /* One bundle only. */
    const ortkit_bundle *one[] = {twin};
    assert_int_equal(ortkit_bundle_select(&c, h, one, 1, NULL), 0);
    assert_non_null(strstr(c->reason, "the only bundle found"));
    ortkit_bundle_choice_free(c);
    ortkit_bundle_free(twin);
    ortkit_bundle_free(again);
    ortkit_host_free(h);
}

static void test_pins(void **state)
{
    (void)state;
    char reason[512];
    int rc;
    size_t all[SET_SIZE];
    for (size_t i = 0; i < SET_SIZE; i++)
        all[i] = i;
    /* By name: that bundle, though a better one fits. */
    assert_int_equal(choose("laptop-avx2.json", all, SET_SIZE, "ort-1.17.3-cpu", &rc, reason, NULL), 1);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(reason, "pinned by name"));
    /* By version, whole or major.minor: the best of those. */
    assert_int_equal(choose("laptop-avx2.json", all, SET_SIZE, "1.17", &rc, reason, NULL), 1);
    assert_non_null(strstr(reason, "pinned to ONNX Runtime 1.17"));
    assert_int_equal(choose("sapphire-rapids.json", all, SET_SIZE, "1.22.0", &rc, reason, NULL), 4);
    /* "1.2" is not a prefix of 1.22.0 at a dot boundary: nothing matches. */
    assert_int_equal(choose("laptop-avx2.json", all, SET_SIZE, "1.2", &rc, reason, NULL),
                     ORTKIT_BUNDLE_NONE);
    assert_int_equal(rc, ORTKIT_E_RUNTIME_NOT_FOUND);
    assert_non_null(strstr(reason, "found: ort-1.30.0-cpu, ort-1.17.3-cpu"));
    /* A pinned bundle that does not fit is an error saying why, not a fallback. */
    ortkit_bundle_choice *c = NULL;
    assert_int_equal(choose("laptop-avx2.json", all, SET_SIZE, "x-avx512", &rc, reason, &c),
                     ORTKIT_BUNDLE_NONE);
    assert_int_equal(rc, ORTKIT_E_UNSUPPORTED);
    assert_non_null(strstr(reason, "bundle 'x-avx512' does not fit this host: needs AVX-512"));
    assert_error_has("x-avx512");
    /* The verdicts are filled all the same. */
    assert_true(verdict(c, 2)->fits);
    assert_false(verdict(c, 3)->fits);
    ortkit_bundle_choice_free(c);
}

static void test_nothing_fits(void **state)
{
    (void)state;
    char reason[512];
    int rc;
    /* Only GPU builds on a laptop without a GPU. */
    size_t gpus[] = {6, 7, 8};
    ortkit_bundle_choice *c = NULL;
    assert_int_equal(choose("laptop-avx2.json", gpus, 3, NULL, &rc, reason, &c), ORTKIT_BUNDLE_NONE);
    assert_int_equal(rc, ORTKIT_E_RUNTIME_NOT_FOUND);
    assert_non_null(strstr(reason, "none of the 3 bundles"));
    for (size_t i = 0; i < 3; i++)
        assert_false(verdict(c, i)->fits);
    ortkit_bundle_choice_free(c);
    /* An unusable manifest (NULL) never fits. */
    size_t broken[] = {SIZE_MAX, 0};
    assert_int_equal(choose("laptop-avx2.json", broken, 2, NULL, &rc, reason, &c), 1);
    assert_false(verdict(c, 0)->fits);
    assert_non_null(strstr(verdict(c, 0)->why, "manifest"));
    ortkit_bundle_choice_free(c);
    /* No bundles at all. */
    assert_int_equal(choose("laptop-avx2.json", broken, 0, NULL, &rc, reason, &c), ORTKIT_BUNDLE_NONE);
    assert_int_equal(rc, ORTKIT_E_RUNTIME_NOT_FOUND);
    assert_int_equal(c->count, 0);
    assert_null(ortkit_bundle_choice_verdict(c, 0));
    ortkit_bundle_choice_free(c);
}

static void test_unsupported_builds(void **state)
{
    (void)state;
    ortkit_host *h = load_host("sapphire-rapids.json");
    /* Too old for ortkit, and a variant this ortkit does not know. */
    ortkit_bundle *old = make("old", "1.16.3", "cpu", "x86_64");
    ortkit_bundle *future = make("future", "1.40.0", "cpu-avx1024", "x86_64");
    const ortkit_bundle *list[] = {old, future};
    ortkit_bundle_choice *c = NULL;
    assert_int_equal(ortkit_bundle_select(&c, h, list, 2, NULL), ORTKIT_E_RUNTIME_NOT_FOUND);
    assert_non_null(strstr(verdict(c, 0)->why, "1.16.3 is older than ortkit supports (1.17)"));
    assert_non_null(strstr(verdict(c, 1)->why, "unknown variant 'cpu-avx1024'"));
    ortkit_bundle_choice_free(c);
    ortkit_bundle_free(old);
    ortkit_bundle_free(future);
    /* Bad arguments: no answer. */
    assert_int_equal(ortkit_bundle_select(NULL, h, list, 2, NULL), ORTKIT_E_INVALID_ARG);
    c = NULL;
    assert_int_equal(ortkit_bundle_select(&c, NULL, list, 2, NULL), ORTKIT_E_INVALID_ARG);
    assert_null(c);
    assert_null(ortkit_bundle_choice_verdict(NULL, 0));
    ortkit_bundle_choice_free(NULL);
    ortkit_host_free(h);
}

/* A generic x86_64 CPU build whose ELF files need the given C and C++ libraries. */
static ortkit_bundle *make_needs(const char *name, const char *glibc, const char *glibcxx)
{
    char json[1024];
    snprintf(json, sizeof json,
             "{\"schema\": 1, \"name\": \"%s\", \"onnxruntime\": {\"version\": \"1.30.0\", "
             "\"api_level\": 30}, \"variant\": \"cpu\", \"requires\": {\"arch\": \"x86_64\"}, "
             "\"library\": \"lib/libonnxruntime.so.1\", \"needs\": {\"glibc\": \"%s\", \"glibcxx\": \"%s\", "
             "\"libraries\": [\"libc.so.6\"]}, \"files\": [{\"path\": \"lib/libonnxruntime.so.1\", "
             "\"size\": 1, \"sha256\": \"%064d\"}]}",
             name, glibc, glibcxx, 0);
    ortkit_bundle *b = NULL;
    if (ortkit_bundle_parse(&b, json, strlen(json)) != 0)
        fail_msg("manifest for %s: %s", name, ortkit_error_last());
    return b;
}

/* A bundle whose files need a newer C or C++ library than the host has is
 * refused, saying which and what the host has; a host that does not say
 * (no glibcxx in its description) is not refused for it. */
static void test_needs_of_the_binaries(void **state)
{
    (void)state;
    ortkit_host *laptop = load_host("laptop-avx2.json"); /* glibc 2.39, GLIBCXX_3.4.33 */
    ortkit_host *aws = load_host("sapphire-rapids.json"); /* glibc 2.39, libstdc++ not described */
    ortkit_bundle *b[] = {
        make_needs("sid", "2.43", "3.4.33"),     /* Debian unstable's libonnxruntime1.23 */
        make_needs("trixie", "2.41", "3.4.30"),  /* ortkit's own build on trixie */
        make_needs("cxx", "2.17", "3.4.34"),
        make_needs("ok", "2.28", "3.4.22"),       /* Microsoft's 1.30.0 */
        make_needs("ok-10", "2.10", "3.4.9"),     /* 2.10 > 2.9, but not > 2.39 */
        make("old-manifest", "1.30.0", "cpu", "x86_64"), /* no needs recorded */
    };
    const ortkit_bundle *list[] = {b[0], b[1], b[2], b[3], b[4], b[5]};
    ortkit_bundle_choice *c = NULL;
    assert_int_equal(ortkit_bundle_select(&c, laptop, list, 6, NULL), 0);
    assert_false(verdict(c, 0)->fits);
    assert_string_equal(verdict(c, 0)->why, "needs glibc 2.43, this host has 2.39");
    assert_false(verdict(c, 1)->fits);
    assert_string_equal(verdict(c, 1)->why, "needs glibc 2.41, this host has 2.39");
    assert_false(verdict(c, 2)->fits);
    assert_string_equal(verdict(c, 2)->why, "needs GLIBCXX_3.4.34 (libstdc++), this host has 3.4.33");
    assert_true(verdict(c, 3)->fits);
    assert_true(verdict(c, 4)->fits);
    assert_true(verdict(c, 5)->fits);
    ortkit_bundle_choice_free(c);

    assert_int_equal(ortkit_bundle_select(&c, aws, list, 6, NULL), 0);
    assert_false(verdict(c, 0)->fits);
    assert_true(verdict(c, 2)->fits); /* GLIBCXX_ unknown here: not refused */
    ortkit_bundle_choice_free(c);

    /* A described version that is no version ("2" and a control sequence)
     * says nothing, and refuses nothing. */
    ortkit_host *odd = load_host("laptop-avx2.json");
    odd->glibc = "2\x1b[2J";
    odd->glibcxx = "3.4.x";
    assert_int_equal(ortkit_bundle_select(&c, odd, list, 6, NULL), 0);
    assert_true(verdict(c, 0)->fits);
    assert_true(verdict(c, 2)->fits);
    ortkit_bundle_choice_free(c);
    ortkit_host_free(odd);

    /* Nothing fits: the reason names the C library. */
    const ortkit_bundle *newer[] = {b[0], b[1]};
    assert_int_equal(ortkit_bundle_select(&c, laptop, newer, 2, NULL), ORTKIT_E_RUNTIME_NOT_FOUND);
    assert_error_has("needs glibc 2.43, this host has 2.39");
    ortkit_bundle_choice_free(c);
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++)
        ortkit_bundle_free(b[i]);
    ortkit_host_free(laptop);
    ortkit_host_free(aws);
}

/* A bundle one of whose files asks for an executable stack (needs.exec_stack,
 * as a library linked by Debian 11's ld from objects without .note.GNU-stack
 * does): glibc 2.41 and newer refuse to load it, older ones do not. */
static ortkit_bundle *make_exec_stack(const char *name, const char *value)
{
    char json[1024];
    snprintf(json, sizeof json,
             "{\"schema\": 1, \"name\": \"%s\", \"onnxruntime\": {\"version\": \"1.21.0\", "
             "\"api_level\": 21}, \"variant\": \"cpu\", \"requires\": {\"arch\": \"x86_64\"}, "
             "\"library\": \"lib/libonnxruntime.so.1\", \"needs\": {\"glibc\": \"2.29\", "
             "\"glibcxx\": \"3.4.26\", \"libraries\": [\"libc.so.6\"], \"exec_stack\": %s}, "
             "\"files\": [{\"path\": \"lib/libonnxruntime.so.1\", \"size\": 1, \"sha256\": \"%064d\"}]}",
             name, value, 0);
    ortkit_bundle *b = NULL;
    return ortkit_bundle_parse(&b, json, strlen(json)) == 0 ? b : NULL;
}

static void test_needs_exec_stack(void **state)
{
    (void)state;
    ortkit_bundle *b[] = {make_exec_stack("execstack", "true"), make_exec_stack("noexec", "false")};
    assert_non_null(b[0]);
    assert_non_null(b[1]);
    assert_true(ortkit_bundle_manifest(b[0])->needs_exec_stack);
    assert_false(ortkit_bundle_manifest(b[1])->needs_exec_stack);
    const ortkit_bundle *list[] = {b[0], b[1]};
    ortkit_host *h = load_host("laptop-avx2.json"); /* glibc 2.39 */
    ortkit_bundle_choice *c = NULL;
    assert_int_equal(ortkit_bundle_select(&c, h, list, 2, NULL), 0);
    assert_true(verdict(c, 0)->fits);
    assert_true(verdict(c, 1)->fits);
    ortkit_bundle_choice_free(c);

    h->glibc = "2.41"; /* Debian 13 */
    assert_int_equal(ortkit_bundle_select(&c, h, list, 2, NULL), 0);
    assert_false(verdict(c, 0)->fits);
    assert_string_equal(verdict(c, 0)->why,
                        "needs an executable stack, which glibc 2.41 and newer (this host has 2.41) "
                        "refuse to a library loaded by a running program; build it linked with -z "
                        "noexecstack");
    assert_true(verdict(c, 1)->fits);
    assert_int_equal(c->index, 1);
    ortkit_bundle_choice_free(c);

    /* Overridden with the glibc needs: taken, saying so. */
    setenv("ORTKIT_IGNORE_NEEDS", "glibc", 1);
    assert_int_equal(ortkit_bundle_select(&c, h, list, 2, NULL), 0);
    assert_true(verdict(c, 0)->fits);
    assert_non_null(strstr(verdict(c, 0)->why, "(ignored: ORTKIT_IGNORE_NEEDS)"));
    ortkit_bundle_choice_free(c);
    unsetenv("ORTKIT_IGNORE_NEEDS");

    /* Not a boolean: the manifest is refused. */
    assert_null(make_exec_stack("odd", "\"yes\""));
    assert_error_has("exec_stack");
    ortkit_host_free(h);
    for (size_t i = 0; i < 2; i++)
        ortkit_bundle_free(b[i]);
}

/* A described host with a feature ortkit does not know is refused, naming it. */
static void test_host_with_unknown_feature(void **state)
{
    (void)state;
    const char *json = "{\"schema\": 1, \"arch\": \"x86_64\", \"cpu\": {\"features\": "
                       "[\"avx2\", \"avx512_bf16\"]}}";
    ortkit_host *h = NULL;
    assert_int_equal(ortkit_host_from_json(&h, json), ORTKIT_E_FORMAT);
    assert_error_has("avx512_bf16");
    const char *other_arch = "{\"schema\": 1, \"arch\": \"x86_64\", \"cpu\": {\"features\": [\"sve2\"]}}";
    assert_int_equal(ortkit_host_from_json(&h, other_arch), ORTKIT_E_FORMAT);
    assert_error_has("sve2");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_newest_ort_and_search_order),
        cmocka_unit_test(test_pins),
        cmocka_unit_test(test_nothing_fits),
        cmocka_unit_test(test_unsupported_builds),
        cmocka_unit_test(test_needs_of_the_binaries),
        cmocka_unit_test(test_needs_exec_stack),
        cmocka_unit_test(test_host_with_unknown_feature),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
