/* test_plan.c - build plans against golden files, the CUDA architectures,
 * the required-operators file of --ops-from, and the shared compiler cache:
 * --cache-remote URLs, what ccache can reach, what it did with a compile,
 * and the report's and the progress line's cache figures.
 * ORTKIT_UPDATE_GOLDEN=1 rewrites the golden files instead of comparing. */
#include "testutil.h"

#include "builder_deps.h"
#include "builder_compiler_cache.h"
#include "builder_cross.h"
#include "builder_plan.h"
#include "builder_options.h"
#include "builder_ops.h"
#include "builder_gate.h"
#include "builder_sharing.h"
#include "builder_report.h"
#include "builder_progress.h"

#include <cjson/cJSON.h>

#include <sys/stat.h>
#include <unistd.h>

#define PLANS ORTKIT_TEST_SOURCE_DIR "/tests/builder/plans/"

static char *plan_text(const ortkit__builder_config *cfg)
{
    ortkit__builder_plan plan;
    int rc = ortkit__builder_plan_make(&plan, cfg);
    if (rc)
        fail_msg("plan: %s", ortkit__error_message());
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_non_null(f);
    assert_int_equal(ortkit__builder_plan_write(&plan, f), 0);
    fclose(f);
    ortkit__builder_plan_free(&plan);
    return text;
}

static void check_golden(const char *variant, ortkit__builder_config *cfg)
{
    char build[256], golden[512], *want = NULL;
    const ortkit_variant *v = NULL;
    assert_int_equal(ortkit_variant_parse(&v, variant), 0);
    snprintf(build, sizeof build, "/build/%s", variant);
    cfg->kind = ORTKIT__BUILD_ORT;
    cfg->source = "/src/onnxruntime-1.21.0";
    cfg->build_dir = build;
    cfg->variant = v;
    cfg->ort_version = "1.21.0";
    /* Every golden plan has the gate and a preinstalled Eigen. */
    ortkit__builder_options o = cfg->opts ? *cfg->opts : (ortkit__builder_options){0};
    o.launcher = "/usr/bin/ortkit";
    o.eigen_dir = "/usr/include/eigen3";
    cfg->opts = &o;
    char *got = plan_text(cfg);
    snprintf(golden, sizeof golden, PLANS "%s.txt", variant);
    const char *update = getenv("ORTKIT_UPDATE_GOLDEN");
    if (update && *update == '1') {
        assert_int_equal(ortkit__file_write_atomic(golden, got, strlen(got)), 0);
    } else {
        if (ortkit__file_read(&want, NULL, golden, 1 << 20))
            fail_msg("%s", ortkit__error_message());
        if (strcmp(want, got))
            fail_msg("plan for %s differs from %s:\n%s", variant, golden, got);
    }
    free(want);
    free(got);
}

static void test_golden_cpu_avx2(void **state)
{
    ortkit__builder_config cfg = {0};
    check_golden("cpu-avx2", &cfg);
}

static void test_golden_avx512vnni_lto_ops(void **state)
{
    ortkit__builder_options o = {.lto = 1};
    ortkit__builder_config cfg = {.opts = &o};
    cfg.ops_config = "/build/cpu-avx512vnni/.ortkit/required_operators.config";
    cfg.python = "python3";
    check_golden("cpu-avx512vnni", &cfg);
}

static void test_golden_cuda129_sm90(void **state)
{
    ortkit__builder_config cfg = {0};
    cfg.cuda_home = "/usr/local/cuda-12.9";
    cfg.cudnn_home = "/usr";
    check_golden("cuda12.9-sm90-avx512", &cfg);
}

static void test_golden_cuda130_sm120(void **state)
{
    char *defines[] = {"onnxruntime_USE_FLASH_ATTENTION=OFF"};
    char *deps[] = {"cudnn_frontend=/usr/src/cudnn-frontend"};
    ortkit__builder_options o = {.ccache = 1, .has_cache_remote = 1, .cache_basedir = "/build",
                                 .defines = {defines, 1, 1}, .deps = {deps, 1, 1}};
    assert_int_equal(ortkit__builder_cache_remote_parse(&o.cache_remote, "redis://default:pw@cache.ci:6380/1"), 0);
    ortkit__builder_config cfg = {.opts = &o};
    cfg.cuda_home = "/usr/local/cuda-13.0";
    cfg.cudnn_home = "/usr/local/cuda-13.0";
    check_golden("cuda13.0-sm120-avx2", &cfg);
}

/* A variant of another architecture, planned on this x86-64 machine as a
 * cross build; fetch: whether --fetch was given.  Returns where its protoc
 * was to come from (the cross is freed). */
static const char *check_golden_cross(const char *variant, int fetch, const char *protoc)
{
    const ortkit_variant *v = NULL;
    char build[128], state[160];
    assert_int_equal(ortkit_variant_parse(&v, variant), 0);
    snprintf(build, sizeof build, "/build/%s", variant);
    snprintf(state, sizeof state, "%s/.ortkit", build);
    ortkit__builder_cross x;
    assert_int_equal(ortkit__builder_cross_init(&x, v, state, NULL, NULL, NULL), 0);
    assert_int_equal(ortkit__builder_cross_protoc(&x, NULL, fetch, build, 0, 2, 1, NULL), 0);
    const char *from = x.protoc_from;
    if (protoc) {
        snprintf(x.protoc, sizeof x.protoc, "%s", protoc);
        x.protoc_from = ORTKIT__PROTOC_BUILT;
    }
    ortkit__builder_config cfg = {0};
    cfg.cross = &x;
    check_golden(variant, &cfg);
    ortkit__builder_cross_free(&x);
    return from;
}

/* cpu-armv9 as `ortkit build --dry-run` plans it here (cli.build_plan prints
 * the same file): no protoc given yet, which the plan says. */
static void test_golden_armv9(void **state)
{
    if (ortkit_arch_here() != ORTKIT_ARCH_X86_64)
        skip();
    assert_string_equal(check_golden_cross("cpu-armv9", 0, NULL), ORTKIT__PROTOC_MISSING);
}

/* cpu-armv8.2 with protoc built from the protobuf dependency (and --fetch
 * alone would have had ONNX Runtime download one). */
static void test_golden_armv82_cross(void **state)
{
    if (ortkit_arch_here() != ORTKIT_ARCH_X86_64)
        skip();
    assert_string_equal(check_golden_cross("cpu-armv8.2", 1, "/build/cpu-armv8.2/host-protoc/protoc"),
                        ORTKIT__PROTOC_FETCHED);
}

/* Which builds are cross builds, and what each refuses. */
static void test_cross_init(void **state)
{
    const ortkit_variant *native = NULL, *arm = NULL, *arm_cuda = NULL;
    ortkit__builder_cross x;
    int here_x86 = ortkit_arch_here() == ORTKIT_ARCH_X86_64;
    assert_int_equal(ortkit_variant_parse(&native, here_x86 ? "cpu-avx2" : "cpu-armv8.2"), 0);
    assert_int_equal(ortkit_variant_parse(&arm, here_x86 ? "cpu-armv8.2" : "cpu-avx2"), 0);
    assert_int_equal(ortkit_variant_parse(&arm_cuda, here_x86 ? "cuda13.0-sm90-armv9" : "cuda13.0-sm90-avx2"), 0);

    /* Native: nothing to do, and the cross options are a mistake. */
    assert_int_equal(ortkit__builder_cross_init(&x, native, "/b/.ortkit", NULL, NULL, NULL), 0);
    assert_false(x.active);
    assert_null(x.toolchain_text);
    assert_int_equal(ortkit__builder_cross_init(&x, native, "/b/.ortkit", NULL, "x-", NULL),
                     ORTKIT_E_INVALID_ARG);
    assert_non_null(strstr(ortkit__error_message(), "this machine's own architecture"));

    /* Another architecture: Debian's compilers by default. */
    assert_int_equal(ortkit__builder_cross_init(&x, arm, "/b/.ortkit", NULL, NULL, NULL), 0);
    assert_true(x.active);
    assert_int_equal(x.target, arm->arch);
    char want[64];
    snprintf(want, sizeof want, "%s-linux-gnu-", ortkit_arch_name(arm->arch));
    assert_string_equal(x.prefix, want);
    snprintf(want, sizeof want, "/b/.ortkit/toolchain-%s.cmake", ortkit_arch_name(arm->arch));
    assert_string_equal(x.toolchain, want);
    assert_non_null(strstr(x.toolchain_text, "set(CMAKE_SYSTEM_PROCESSOR "));
    assert_non_null(strstr(x.toolchain_text, "set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)"));
    ortkit__builder_cross_free(&x);

    /* A toolchain file of the user's: it must be there, and is not written. */
    assert_int_equal(ortkit__builder_cross_init(&x, arm, "/b/.ortkit", "/nonexistent/t.cmake", NULL, NULL),
                     ORTKIT_E_INVALID_ARG);
    assert_non_null(strstr(ortkit__error_message(), "/nonexistent/t.cmake"));
    char tc[] = "/tmp/ortkit_test_toolchain_XXXXXX";
    int fd = mkstemp(tc);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(ortkit__builder_cross_init(&x, arm, "/b/.ortkit", tc, "aarch64-none-linux-gnu-", NULL), 0);
    assert_string_equal(x.toolchain, tc);
    assert_null(x.toolchain_text);
    assert_string_equal(x.prefix, "aarch64-none-linux-gnu-");
    unlink(tc);

    /* A CUDA variant of another architecture is planned, but building it
     * needs that architecture's toolkit. */
    assert_int_equal(ortkit__builder_cross_init(&x, arm_cuda, "/b/.ortkit", NULL, NULL, NULL), 0);
    assert_int_equal(ortkit__builder_cross_buildable(&x, arm_cuda), ORTKIT_E_UNSUPPORTED);
    assert_non_null(strstr(ortkit__error_message(), arm_cuda->name));
    ortkit__builder_cross_free(&x);
    assert_int_equal(ortkit__builder_cross_init(&x, arm, "/b/.ortkit", NULL, NULL, NULL), 0);
    assert_int_equal(ortkit__builder_cross_buildable(&x, arm), 0);
    ortkit__builder_cross_free(&x);
}

/* protoc's version against deps.txt's protobuf tag. */
static void test_protoc_version(void **state)
{
    assert_true(ortkit__builder_protoc_matches("3.21.12", "21.12"));
    assert_true(ortkit__builder_protoc_matches("25.1", "25.1"));
    assert_false(ortkit__builder_protoc_matches("3.12.4", "21.12"));
    assert_false(ortkit__builder_protoc_matches("3.21.1", "21.12"));
    assert_false(ortkit__builder_protoc_matches("21.12", ""));
    assert_false(ortkit__builder_protoc_matches(NULL, "21.12"));

    const ortkit_variant *arm = NULL;
    int here_x86 = ortkit_arch_here() == ORTKIT_ARCH_X86_64;
    assert_int_equal(ortkit_variant_parse(&arm, here_x86 ? "cpu-armv8.2" : "cpu-avx2"), 0);
    ortkit__builder_dep pb = {.name = "protobuf", .pinned = "21.12", .version = "21.12"};
    ortkit__builder_deps deps = {.d = &pb, .n = 1};
    ortkit__builder_cross x;

    /* No protoc at all: named, with the three ways to give one. */
    assert_int_equal(ortkit__builder_cross_init(&x, arm, "/b/.ortkit", NULL, NULL, NULL), 0);
    assert_int_equal(ortkit__builder_cross_protoc(&x, NULL, 0, "/b", 0, 2, 0, NULL), ORTKIT_E_INVALID_ARG);
    assert_non_null(strstr(ortkit__error_message(), "--host-protoc FILE"));
    /* The protobuf dependency's tree: protoc is built from it, in the build directory. */
    pb.tree = "/deps/protobuf-21.12";
    assert_int_equal(ortkit__builder_cross_protoc(&x, &deps, 0, "/b", 0, 2, 1, NULL), 0);
    assert_string_equal(x.protoc, "/b/host-protoc/protoc");
    assert_string_equal(x.protoc_from, ORTKIT__PROTOC_BUILT);
    ortkit__builder_cross_free(&x);

    /* A given protoc must say deps.txt's version (a script stands for
     * Debian 11's protoc 3.12.4 and Debian 12's 3.21.12). */
    char old[] = "/tmp/ortkit_test_protoc_XXXXXX", good[] = "/tmp/ortkit_test_protoc_XXXXXX";
    const char *paths[] = {old, good}, *says[] = {"3.12.4", "3.21.12"};
    for (int i = 0; i < 2; i++) {
        int fd = mkstemp((char *)paths[i]);
        assert_true(fd >= 0);
        dprintf(fd, "#!/bin/sh\necho 'libprotoc %s'\n", says[i]);
        fchmod(fd, 0755);
        close(fd);
    }
    assert_int_equal(ortkit__builder_cross_init(&x, arm, "/b/.ortkit", NULL, NULL, old), 0);
    assert_int_equal(ortkit__builder_cross_protoc(&x, &deps, 0, "/b", 0, 2, 0, NULL), ORTKIT_E_UNSUPPORTED);
    assert_non_null(strstr(ortkit__error_message(), "is libprotoc 3.12.4, but this ONNX Runtime links "
                                                    "protobuf 21.12"));
    ortkit__builder_cross_free(&x);
    assert_int_equal(ortkit__builder_cross_init(&x, arm, "/b/.ortkit", NULL, NULL, good), 0);
    assert_int_equal(ortkit__builder_cross_protoc(&x, &deps, 0, "/b", 0, 2, 0, NULL), 0);
    assert_string_equal(x.protoc_version, "3.21.12");
    assert_string_equal(x.protoc_from, ORTKIT__PROTOC_GIVEN);
    ortkit__builder_cross_free(&x);
    /* Not a program for this machine. */
    assert_int_equal(ortkit__builder_cross_init(&x, arm, "/b/.ortkit", NULL, NULL, "/nonexistent/protoc"), 0);
    assert_int_equal(ortkit__builder_cross_protoc(&x, &deps, 0, "/b", 0, 2, 0, NULL), ORTKIT_E_UNSUPPORTED);
    assert_non_null(strstr(ortkit__error_message(), "does not run here"));
    ortkit__builder_cross_free(&x);
    unlink(old);
    unlink(good);
}

static void test_cuda_architectures(void **state)
{
    const ortkit_variant *v;
    char buf[32];
    assert_int_equal(ortkit_variant_parse(&v, "cuda12.9-sm90-avx2"), 0);
    assert_int_equal(ortkit__builder_cuda_architectures(v, buf, sizeof buf), 0);
    assert_string_equal(buf, "90a-real");
    assert_int_equal(ortkit_variant_parse(&v, "cuda12.4-sm75-avx2"), 0);
    assert_int_equal(ortkit__builder_cuda_architectures(v, buf, sizeof buf), 0);
    assert_string_equal(buf, "75-real");
    assert_int_equal(ortkit_variant_parse(&v, "cpu-avx2"), 0);
    assert_int_not_equal(ortkit__builder_cuda_architectures(v, buf, sizeof buf), 0);
}

static void test_refusals(void **state)
{
    const ortkit_variant *v;
    ortkit__builder_plan plan;
    ortkit__builder_config cfg = {.source = "/s", .build_dir = "/b", .ort_version = "1.21.0"};
    /* A GPU variant needs the toolkit's location. */
    assert_int_equal(ortkit_variant_parse(&v, "cuda12.9-sm90-avx2"), 0);
    cfg.variant = v;
    assert_int_equal(ortkit__builder_plan_make(&plan, &cfg), ORTKIT_E_INVALID_ARG);
    /* A variant the matrix names but no toolkit can build. */
    assert_int_equal(ortkit_variant_parse(&v, "cuda12.4-sm120-avx2"), 0);
    cfg.variant = v;
    cfg.cuda_home = cfg.cudnn_home = "/c";
    assert_int_equal(ortkit__builder_plan_make(&plan, &cfg), ORTKIT_E_UNSUPPORTED);
    assert_non_null(strstr(ortkit__error_message(), "Blackwell"));
    /* A malformed --dep. */
    char *bad[] = {"noequals"};
    ortkit__builder_options o = {.deps = {bad, 1, 1}};
    assert_int_equal(ortkit_variant_parse(&v, "cpu-avx2"), 0);
    cfg.variant = v;
    cfg.opts = &o;
    assert_int_equal(ortkit__builder_plan_make(&plan, &cfg), ORTKIT_E_INVALID_ARG);
}

static void test_cmake_project_plan(void **state)
{
    char *defines[] = {"FOO=bar baz"};
    ortkit__builder_options o = {.launcher = "/x/ortkit", .defines = {defines, 1, 1}};
    ortkit__builder_config cfg = {.kind = ORTKIT__BUILD_CMAKE, .opts = &o, .source = "/p", .build_dir = "/b"};
    ortkit__builder_plan plan;
    assert_int_equal(ortkit__builder_plan_make(&plan, &cfg), 0);
    char *line = ortkit__builder_plan_command_line(&plan.configure);
    assert_non_null(line);
    assert_non_null(strstr(line, "'-DCMAKE_CXX_COMPILER_LAUNCHER=/x/ortkit;build;--launch=/b/.ortkit'"));
    assert_non_null(strstr(line, "'-DFOO=bar baz'"));
    assert_null(strstr(line, "onnxruntime_"));
    free(line);
    ortkit__builder_plan_free(&plan);
}

static void test_ops_config(void **state)
{
    char path[] = "/tmp/ortkit_test_ops_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    /* slow.onnx has a Loop whose body holds more operators. */
    const char *models[] = {model_path("add.onnx"), model_path("slow.onnx")};
    size_t n = 0;
    assert_int_equal(ortkit__builder_ops_write(path, models, 2, 0, &n), 0);
    char *text = NULL;
    assert_int_equal(ortkit__file_read(&text, NULL, path, 1 << 16), 0);
    assert_string_equal(text, "ai.onnx;17;Add,Identity,Loop,MatMul,ReduceMean,Tanh,Tile,Transpose\n");
    assert_int_equal(n, 8);
    free(text);
    /* A GPU build: the device copies too, on a line of their own. */
    assert_int_equal(ortkit__builder_ops_write(path, models, 2, 1, &n), 0);
    assert_int_equal(ortkit__file_read(&text, NULL, path, 1 << 16), 0);
    assert_string_equal(text, "ai.onnx;1;MemcpyFromHost,MemcpyToHost\n"
                              "ai.onnx;17;Add,Identity,Loop,MatMul,ReduceMean,Tanh,Tile,Transpose\n");
    assert_int_equal(n, 10);
    free(text);
    /* Silero VAD: an If whose branches hold the LSTM. */
    const char *vad[] = {ORTKIT_TEST_APP_MODEL};
    if (access(vad[0], R_OK) == 0) {
        assert_int_equal(ortkit__builder_ops_write(path, vad, 1, 0, &n), 0);
        assert_int_equal(ortkit__file_read(&text, NULL, path, 1 << 16), 0);
        assert_non_null(strstr(text, "ai.onnx;16;"));
        assert_non_null(strstr(text, ",LSTM,"));
        assert_non_null(strstr(text, ",If,"));
        free(text);
    }
    /* Not a model. */
    const char *bad[] = {model_path("not_onnx.onnx")};
    assert_int_equal(ortkit__builder_ops_write(path, bad, 1, 0, &n), ORTKIT_E_MODEL);
    /* Graphs nested 20,000 deep: refused before the decoder recurses into them. */
    const char *deep[] = {model_path("deep_graph.onnx")};
    assert_int_equal(ortkit__builder_ops_write(path, deep, 1, 0, &n), ORTKIT_E_MODEL);
    assert_non_null(strstr(ortkit_error_last(), "nested deeper than 100 levels"));
    unlink(path);
}

/* ---- the shared compiler cache ------------------------------------------------ */

#define assert_message_has(text)                                                            \
    do {                                                                                    \
        if (!strstr(ortkit__error_message(), (text)))                                       \
            fail_msg("error '%s' lacks '%s'", ortkit__error_message(), (text));             \
    } while (0)

static void test_cache_remote_urls(void **state)
{
    ortkit__builder_cache_remote r;
    /* Redis: host, port, database; the password alone is hidden. */
    assert_int_equal(ortkit__builder_cache_remote_parse(&r, "redis://127.0.0.1:6379"), 0);
    assert_int_equal(r.scheme, ORTKIT__CACHE_REDIS);
    assert_string_equal(r.host, "127.0.0.1");
    assert_int_equal(r.port, 6379);
    assert_true(r.port_given);
    assert_int_equal(r.db, -1);
    assert_false(r.has_password);
    assert_string_equal(r.shown, "redis://127.0.0.1:6379");
    assert_int_equal(ortkit__builder_cache_remote_parse(&r, "redis://s3cret@cache-1.ci.example/2"), 0);
    assert_int_equal(r.port, 6379);
    assert_false(r.port_given);
    assert_int_equal(r.db, 2);
    assert_true(r.has_password);
    assert_string_equal(r.url, "redis://s3cret@cache-1.ci.example/2");
    assert_string_equal(r.shown, "redis://***@cache-1.ci.example/2");
    assert_int_equal(ortkit__builder_cache_remote_parse(
                         &r, "redis://builder:p%40ss@10.0.0.7:7000/15|connect-timeout=500|read-only"), 0);
    assert_string_equal(r.shown, "redis://builder:***@10.0.0.7:7000/15|connect-timeout=500|read-only");
    assert_int_equal(r.port, 7000);
    /* HTTP: a user without a password is shown as it is; a path. */
    assert_int_equal(ortkit__builder_cache_remote_parse(&r, "http://cache.example/ccache/|layout=bazel"), 0);
    assert_int_equal(r.scheme, ORTKIT__CACHE_HTTP);
    assert_int_equal(r.port, 80);
    assert_string_equal(r.shown, r.url);
    assert_int_equal(ortkit__builder_cache_remote_parse(&r, "http://ci@cache.example:8080/c"), 0);
    assert_false(r.has_password);
    assert_int_equal(ortkit__builder_cache_remote_parse(&r, "http://ci:tok@cache.example:8080/c"), 0);
    assert_string_equal(r.shown, "http://ci:***@cache.example:8080/c");
    assert_int_equal(ortkit__builder_cache_remote_parse(&r, "https://cache.example/c"), 0);
    assert_int_equal(r.port, 443);

    /* Refused, each saying what is wrong and never the password. */
    static const struct {
        const char *url, *says;
    } bad[] = {
        {"", "wants a URL"},
        {"cache.example:6379", "wants redis://HOST[:PORT][/DB]"},
        {"ftp://pw@h", "the scheme 'ftp' is not one"},
        {"REDIS://pw@h", "the scheme 'REDIS' is not one"},
        {"redis://pw@h:0", "the port of h is not a number from 1 to 65535"},
        {"redis://pw@h:65536", "the port of h is not a number from 1 to 65535"},
        {"redis://pw@h:", "the port of h is not a number"},
        {"redis://pw@h:63x", "the port of h is not a number"},
        {"redis://pw@", "names no host"},
        {"redis://pw@[::1]:6379", "an IPv6 address"},
        {"redis://pw@bad_host", "'bad_host' is not a host name"},
        {"redis://pw@-h", "'-h' is not a host name"},
        {"redis://pw@h.", "'h.' is not a host name"},
        {"redis://pw@300.1.1.1", "'300.1.1.1' is not a host name or an IPv4 address"},
        {"redis://pw@1.2.3", "'1.2.3' is not a host name or an IPv4 address"},
        {"redis://:pw@h", "names an empty user"},
        {"redis://u:@h", "an empty password"},
        {"redis://p w@h", "white space"},
        {"redis://pw@h\n", "white space"},
        {"redis://pw@h/db", "'/' takes a database number"},
        {"redis://pw@h/", "'/' takes a database number"},
        {"http://u:pw@h/a b", "white space"},
        {"http://u:pw@h/a\"b", "percent-encode"},
        {"http://u:pw@h/p?x=1", "no query"},
        {"redis://p<w@h", "percent-encode"},
        {"redis://pw@h|shards=a,b", "the attribute 'shards' is not one ortkit passes"},
        {"redis://pw@h|layout=flat", "the attribute 'layout' is not one"},
        {"redis://pw@h|read-only=yes", "the attribute 'read-only' has a value it does not take"},
        {"http://u:pw@h|connect-timeout=soon", "the attribute 'connect-timeout' has a value"},
        {"http://u:pw@h|layout=deep", "the attribute 'layout' has a value"},
        {"http://u:pw@h|", "an empty or overlong attribute"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (ortkit__builder_cache_remote_parse(&r, bad[i].url) != ORTKIT_E_INVALID_ARG)
            fail_msg("'%s' was taken", bad[i].url);
        assert_message_has(bad[i].says);
        if (strstr(ortkit__error_message(), "pw"))
            fail_msg("'%s': the message shows the password: %s", bad[i].url, ortkit__error_message());
    }
    char longer[1100];
    memset(longer, 'a', sizeof longer - 1);
    memcpy(longer, "redis://", 8);
    longer[sizeof longer - 1] = '\0';
    assert_int_equal(ortkit__builder_cache_remote_parse(&r, longer), ORTKIT_E_INVALID_ARG);
    assert_message_has("longer than 1023 bytes");
}

static void test_ccache_can_reach(void **state)
{
    static const char v475[] = "ccache version 4.7.5\nFeatures: file-storage http-storage "
                               "redis+unix-storage redis-storage\n\nCopyright (C) 2002-2007\n";
    static const char v421[] = "ccache version 4.2.1\n\nCopyright (C) 2002-2007 Andrew Tridgell\n";
    static const char no_redis[] = "ccache version 4.9.1\nFeatures: file-storage http-storage\n";
    static const char v413[] = "ccache version 4.13.1\nFeatures: file-storage http-storage redis-storage\n";
    ortkit__builder_cache_remote redis, http, https;
    assert_int_equal(ortkit__builder_cache_remote_parse(&redis, "redis://h"), 0);
    assert_int_equal(ortkit__builder_cache_remote_parse(&http, "http://h/c"), 0);
    assert_int_equal(ortkit__builder_cache_remote_parse(&https, "https://h/c"), 0);
    char v[32];
    assert_int_equal(ortkit__builder_ccache_check(v475, NULL, v, sizeof v), 0);
    assert_string_equal(v, "4.7.5");
    assert_int_equal(ortkit__builder_ccache_check(v475, &redis, v, sizeof v), 0);
    assert_int_equal(ortkit__builder_ccache_check(v475, &http, v, sizeof v), 0);
    assert_int_equal(ortkit__builder_ccache_check(v475, &https, v, sizeof v), ORTKIT_E_UNSUPPORTED);
    assert_message_has("ccache 4.7.5 cannot reach https:// storage");
    assert_int_equal(ortkit__builder_ccache_check(v413, &https, v, sizeof v), 0);
    /* Debian 11's ccache: no remote storage at all. */
    assert_int_equal(ortkit__builder_ccache_check(v421, NULL, v, sizeof v), 0);
    assert_int_equal(ortkit__builder_ccache_check(v421, &redis, v, sizeof v), ORTKIT_E_UNSUPPORTED);
    assert_message_has("ccache 4.2.1 is too old");
    assert_int_equal(ortkit__builder_ccache_check(no_redis, &redis, v, sizeof v), ORTKIT_E_UNSUPPORTED);
    assert_message_has("built without redis-storage");
    assert_int_equal(ortkit__builder_ccache_check(no_redis, &http, v, sizeof v), 0);
    assert_int_equal(ortkit__builder_ccache_check("not ccache", NULL, v, sizeof v), ORTKIT_E_UNSUPPORTED);
    assert_int_equal(ortkit__builder_ccache_check(NULL, NULL, v, sizeof v), ORTKIT_E_UNSUPPORTED);
    /* Nothing listens on a port of a socket just closed (loopback). */
    ortkit__builder_cache_remote closed;
    assert_int_equal(ortkit__builder_cache_remote_parse(&closed, "redis://127.0.0.1:1"), 0);
    assert_int_equal(ortkit__builder_cache_remote_reach(&closed, 500), ORTKIT_E_IO);
    assert_message_has("cannot connect to 127.0.0.1 port 1");
}

/* What ccache 4.7.5 wrote to a compile's stats log, case by case. */
static void test_ccache_outcomes(void **state)
{
    int errors = -1;
    assert_int_equal(ortkit__builder_ccache_outcome("# a.c\ncache_miss\ndirect_cache_miss\n"
                                                    "local_storage_miss\nlocal_storage_read_miss\n"
                                                    "local_storage_write\npreprocessed_cache_miss\n"
                                                    "remote_storage_miss\nremote_storage_write\n",
                                                    &errors),
                     ORTKIT__CACHE_MISS);
    assert_int_equal(errors, 0);
    assert_int_equal(ortkit__builder_ccache_outcome("# a.c\ndirect_cache_hit\nlocal_storage_miss\n"
                                                    "local_storage_read_miss\nlocal_storage_write\n"
                                                    "remote_storage_hit\nremote_storage_read_hit\n",
                                                    &errors),
                     ORTKIT__CACHE_REMOTE_HIT);
    assert_int_equal(ortkit__builder_ccache_outcome("# a.c\ndirect_cache_hit\nlocal_storage_hit\n"
                                                    "local_storage_read_hit\n", NULL),
                     ORTKIT__CACHE_LOCAL_HIT);
    assert_int_equal(ortkit__builder_ccache_outcome("# a.c\npreprocessed_cache_hit\nlocal_storage_hit\n", NULL),
                     ORTKIT__CACHE_LOCAL_HIT);
    assert_int_equal(ortkit__builder_ccache_outcome("# a.o\ncalled_for_link\n", NULL),
                     ORTKIT__CACHE_UNCACHEABLE);
    assert_int_equal(ortkit__builder_ccache_outcome("# a.c\r\nunsupported_compiler_option\r\n", NULL),
                     ORTKIT__CACHE_UNCACHEABLE);
    /* The server gone: a miss, and the errors counted. */
    assert_int_equal(ortkit__builder_ccache_outcome("# a.c\ncache_miss\nremote_storage_error\n"
                                                    "remote_storage_timeout\n", &errors),
                     ORTKIT__CACHE_MISS);
    assert_int_equal(errors, 2);
    assert_int_equal(ortkit__builder_ccache_outcome("", &errors), ORTKIT__CACHE_NONE);
    assert_int_equal(ortkit__builder_ccache_outcome(NULL, &errors), ORTKIT__CACHE_NONE);
    assert_int_equal(ortkit__builder_ccache_outcome("# only a comment\n", NULL), ORTKIT__CACHE_NONE);
    for (int i = 0; i < ORTKIT__CACHE_OUTCOMES; i++)
        assert_int_equal(ortkit__builder_cache_outcome_parse(ortkit__builder_cache_outcome_name(i)), i);
    assert_int_equal(ortkit__builder_cache_outcome_parse("hit"), -1);
}

/* The report's and the progress line's cache figures. */
static void test_cache_report(void **state)
{
    ortkit__builder_report rep;
    memset(&rep, 0, sizeof rep);
    rep.cache.on = 1;
    snprintf(rep.cache.remote, sizeof rep.cache.remote, "redis://***@h:6379");
    ortkit__builder_report_add(&rep, "/s/a.cc", ORTKIT__LANG_CXX, 0.25, 0.1, 0, 1, 1, 0, 0);
    ortkit__builder_report_cache(&rep, ORTKIT__CACHE_REMOTE_HIT, 0, 4.75);
    ortkit__builder_report_add(&rep, "/s/b.cc", ORTKIT__LANG_CXX, 0.5, 0.1, 0, 1, 1, 0, 0);
    ortkit__builder_report_cache(&rep, ORTKIT__CACHE_LOCAL_HIT, 0, -1);
    ortkit__builder_report_add(&rep, "/s/c.cu", ORTKIT__LANG_CUDA, 30, 29, 0, 1, 1, 0, 0);
    ortkit__builder_report_cache(&rep, ORTKIT__CACHE_MISS, 1, -1);
    ortkit__builder_report_add(&rep, "lib.so", ORTKIT__LANG_LINK, 2, 1, 0, 1, 1, 0, 0);
    ortkit__builder_report_cache(&rep, ORTKIT__CACHE_UNCACHEABLE, 0, -1);
    const ortkit__builder_cache_stats *c = &rep.cache;
    assert_int_equal(c->outcome[ORTKIT__CACHE_REMOTE_HIT], 1);
    assert_int_equal(c->outcome[ORTKIT__CACHE_LOCAL_HIT], 1);
    assert_int_equal(c->outcome[ORTKIT__CACHE_MISS], 1);
    assert_int_equal(c->unpriced, 1);
    assert_int_equal(c->remote_errors, 1);
    assert_true(c->saved == 4.75 && c->hit_wall == 0.75);
    char line[160];
    ortkit__builder_cache_line(c, line, sizeof line);
    assert_string_equal(line, "2 hits (1 remote, 1 local), 1 miss");

    char *text = NULL;
    size_t size;
    FILE *out = open_memstream(&text, &size);
    ortkit__builder_report_print(&rep, out);
    fclose(out);
    assert_non_null(strstr(text, "cache: ccache, remote redis://***@h:6379: 2 hits (1 remote, 1 "
                                 "local), 1 miss, 1 not cacheable (links and the like); hits took "
                                 "0.8 s and saved 4.8 s (and 1 hit of files never compiled in this "
                                 "build directory, not priced); 1 remote storage errors or timeouts"));
    free(text);
    char *json = ortkit__builder_report_json(&rep, NULL);
    assert_non_null(json);
    cJSON *root = cJSON_Parse(json);
    cJSON *cj = cJSON_GetObjectItem(root, "cache");
    assert_string_equal(cJSON_GetObjectItem(cj, "remote")->valuestring, "redis://***@h:6379");
    assert_int_equal(cJSON_GetObjectItem(cj, "hits")->valueint, 2);
    assert_int_equal(cJSON_GetObjectItem(cj, "remote_hits")->valueint, 1);
    assert_int_equal(cJSON_GetObjectItem(cj, "misses")->valueint, 1);
    assert_int_equal(cJSON_GetObjectItem(cj, "uncacheable")->valueint, 1);
    assert_int_equal(cJSON_GetObjectItem(cj, "hits_unpriced")->valueint, 1);
    cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "compiles"), 0);
    assert_string_equal(cJSON_GetObjectItem(first, "cache")->valuestring, "remote-hit");
    assert_true(cJSON_GetObjectItem(first, "saved_s")->valuedouble == 4.75);
    cJSON_Delete(root);
    free(json);

    ortkit__builder_progress p = {.t_start = 100, .done = 50, .total = 200, .cache = &rep.cache};
    char bar[512];
    ortkit__builder_progress_format(&p, bar, sizeof bar, 2, ORTKIT__GiB, 2 * ORTKIT__GiB, 200);
    assert_string_equal(bar, "[ 25%] 50/200 steps  1:40 elapsed  ETA 5:00  2 compiling  1.00 GiB of "
                             "2.00 GiB  cache 2 hit (1 remote) 1 miss");
    ortkit__builder_report_free(&rep);
}

/* What the variant's flags reach, read from ninja's commands. */
static void test_sharing_account(void **state)
{
    ortkit__builder_sharing s;
    memset(&s, 0, sizeof s);
    snprintf(s.flags, sizeof s.flags, "-mavx2 -mfma");
    const char *src = "/src/ort", *bld = "/build/v";
    static const char *const lines[] = {
        /* ORT's own C++, with the flags: variant-specific. */
        "/opt/ortkit/bin/ortkit build --launch=/build/v/.ortkit /usr/bin/c++ -DX -I/src/ort/include "
        "-mavx2 -mfma -O3 -o a.o -c /src/ort/onnxruntime/core/a.cc",
        /* A generated source in the build directory: ORT's too. */
        "/opt/ortkit/bin/ortkit build --launch /build/v/.ortkit /usr/bin/c++ -mavx2 -mfma -o g.o -c "
        "/build/v/op_reduction.generated/g.cc",
        /* A dependency under _deps and one from --deps, without the flags: shared. */
        "/opt/ortkit/bin/ortkit build --launch=/build/v/.ortkit /usr/bin/c++ -O3 -o p.o -c "
        "/build/v/_deps/protobuf-src/src/p.cc",
        "/opt/ortkit/bin/ortkit build --launch=/build/v/.ortkit /usr/bin/cc -O3 -o r.o -c "
        "'/home/u/.cache/ortkit/dep-sources/re2-1/r e.c'",
        /* nvcc: ORT's host flags through -Xcompiler, none of the variant's. */
        "/opt/ortkit/bin/ortkit build --launch=/build/v/.ortkit /opt/cuda/bin/nvcc "
        "-forward-unknown-to-host-compiler -Xcompiler=-fPIC \"--generate-code=arch=compute_90a,code=[sm_90a]\" "
        "-Xcompiler -Wno-reorder -x cu -c /src/ort/onnxruntime/core/providers/cuda/k.cu -o k.o",
        /* A stray: nvcc handed the variant's flags inside -Xcompiler=A,B. */
        "/opt/ortkit/bin/ortkit build --launch=/build/v/.ortkit /opt/cuda/bin/nvcc "
        "-Xcompiler=-fPIC,-mavx2 -x cu -c /src/ort/onnxruntime/core/providers/cuda/bad.cu -o b.o",
        /* Links, archives and custom commands: not compiles. */
        ": && /opt/ortkit/bin/ortkit build --launch=/build/v/.ortkit /usr/bin/c++ -mavx2 a.o -o libonnxruntime.so && :",
        ": && /usr/bin/cmake -E rm -f libx.a && /usr/bin/ar qc libx.a a.o && :",
        "cd /build/v && /usr/bin/python3 gen.py",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        assert_int_equal(ortkit__builder_sharing_add(&s, lines[i], src, bld), 0);
    assert_int_equal(s.n[ORTKIT__PART_ORT][ORTKIT__LANG_CXX][1], 2);
    assert_int_equal(s.n[ORTKIT__PART_ORT][ORTKIT__LANG_CXX][0], 0);
    assert_int_equal(s.n[ORTKIT__PART_DEPS][ORTKIT__LANG_CXX][0], 1);
    assert_int_equal(s.n[ORTKIT__PART_DEPS][ORTKIT__LANG_C][0], 1);
    assert_int_equal(s.n[ORTKIT__PART_ORT][ORTKIT__LANG_CUDA][0], 1);
    assert_int_equal(s.n[ORTKIT__PART_ORT][ORTKIT__LANG_CUDA][1], 1);
    assert_int_equal(s.n[ORTKIT__PART_ORT][ORTKIT__LANG_LINK][0] + s.n[ORTKIT__PART_ORT][ORTKIT__LANG_LINK][1], 0);
    assert_int_equal(s.stray, 1);
    assert_int_equal(s.stray_files.n, 1);
    assert_string_equal(s.stray_files.v[0], "/src/ort/onnxruntime/core/providers/cuda/bad.cu");
    /* The generic variant's flags hold '=': matched as words. */
    ortkit__builder_sharing_free(&s);
    snprintf(s.flags, sizeof s.flags, "-march=x86-64 -mtune=generic");
    assert_int_equal(ortkit__builder_sharing_add(&s, "x/ortkit build --launch=/b/.ortkit c++ "
                                                 "-march=x86-64 -mtune=generic -c /src/ort/a.cc -o a.o",
                                                 src, bld), 0);
    assert_int_equal(ortkit__builder_sharing_add(&s, "x/ortkit build --launch=/b/.ortkit nvcc "
                                                 "-Xcompiler=-march=x86-64 -c /src/ort/k.cu -o k.o",
                                                 src, bld), 0);
    assert_int_equal(s.n[ORTKIT__PART_ORT][ORTKIT__LANG_CXX][1], 1);
    assert_int_equal(s.n[ORTKIT__PART_ORT][ORTKIT__LANG_CUDA][1], 1);
    assert_int_equal(s.stray, 1);
    ortkit__builder_sharing_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_cpu_avx2),
        cmocka_unit_test(test_golden_avx512vnni_lto_ops),
        cmocka_unit_test(test_golden_cuda129_sm90),
        cmocka_unit_test(test_golden_cuda130_sm120),
        cmocka_unit_test(test_golden_armv9),
        cmocka_unit_test(test_golden_armv82_cross),
        cmocka_unit_test(test_cross_init),
        cmocka_unit_test(test_protoc_version),
        cmocka_unit_test(test_cuda_architectures),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_cmake_project_plan),
        cmocka_unit_test(test_ops_config),
        cmocka_unit_test(test_cache_remote_urls),
        cmocka_unit_test(test_ccache_can_reach),
        cmocka_unit_test(test_ccache_outcomes),
        cmocka_unit_test(test_cache_report),
        cmocka_unit_test(test_sharing_account),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
