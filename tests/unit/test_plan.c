/* test_plan.c - build plans against golden files, the CUDA architectures
 * and the required-operators file of --ops-from.  ORTKIT_UPDATE_GOLDEN=1
 * rewrites the golden files instead of comparing. */
#include "testutil.h"

#include "builder.h"

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
    cfg->launcher = "/usr/bin/ortkit";
    cfg->eigen_dir = "/usr/include/eigen3";
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
    ortkit__builder_config cfg = {0};
    cfg.lto = 1;
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
    static const char *const defines[] = {"onnxruntime_USE_FLASH_ATTENTION=OFF"};
    static const char *const deps[] = {"cudnn_frontend=/usr/src/cudnn-frontend"};
    ortkit__builder_config cfg = {0};
    cfg.cuda_home = "/usr/local/cuda-13.0";
    cfg.cudnn_home = "/usr/local/cuda-13.0";
    cfg.defines = defines;
    cfg.n_defines = 1;
    cfg.deps = deps;
    cfg.n_deps = 1;
    check_golden("cuda13.0-sm120-avx2", &cfg);
}

static void test_golden_armv9(void **state)
{
    ortkit__builder_config cfg = {0};
    check_golden("cpu-armv9", &cfg);
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
    static const char *const bad[] = {"noequals"};
    assert_int_equal(ortkit_variant_parse(&v, "cpu-avx2"), 0);
    cfg.variant = v;
    cfg.deps = bad;
    cfg.n_deps = 1;
    assert_int_equal(ortkit__builder_plan_make(&plan, &cfg), ORTKIT_E_INVALID_ARG);
}

static void test_cmake_project_plan(void **state)
{
    static const char *const defines[] = {"FOO=bar baz"};
    ortkit__builder_config cfg = {.kind = ORTKIT__BUILD_CMAKE, .source = "/p", .build_dir = "/b",
                               .launcher = "/x/ortkit", .defines = defines, .n_defines = 1};
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
    assert_int_equal(ortkit__builder_ops_write(path, models, 2, &n), 0);
    char *text = NULL;
    assert_int_equal(ortkit__file_read(&text, NULL, path, 1 << 16), 0);
    assert_string_equal(text, "ai.onnx;17;Add,Identity,Loop,MatMul,ReduceMean,Tanh,Tile,Transpose\n");
    assert_int_equal(n, 8);
    free(text);
    /* Silero VAD: an If whose branches hold the LSTM. */
    const char *vad[] = {ORTKIT_TEST_APP_MODEL};
    if (access(vad[0], R_OK) == 0) {
        assert_int_equal(ortkit__builder_ops_write(path, vad, 1, &n), 0);
        assert_int_equal(ortkit__file_read(&text, NULL, path, 1 << 16), 0);
        assert_non_null(strstr(text, "ai.onnx;16;"));
        assert_non_null(strstr(text, ",LSTM,"));
        assert_non_null(strstr(text, ",If,"));
        free(text);
    }
    /* Not a model. */
    const char *bad[] = {model_path("not_onnx.onnx")};
    assert_int_equal(ortkit__builder_ops_write(path, bad, 1, &n), ORTKIT_E_MODEL);
    /* Graphs nested 20,000 deep: refused before the decoder recurses into them. */
    const char *deep[] = {model_path("deep_graph.onnx")};
    assert_int_equal(ortkit__builder_ops_write(path, deep, 1, &n), ORTKIT_E_MODEL);
    assert_non_null(strstr(ortkit_error_last(), "nested deeper than 100 levels"));
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_cpu_avx2),
        cmocka_unit_test(test_golden_avx512vnni_lto_ops),
        cmocka_unit_test(test_golden_cuda129_sm90),
        cmocka_unit_test(test_golden_cuda130_sm120),
        cmocka_unit_test(test_golden_armv9),
        cmocka_unit_test(test_cuda_architectures),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_cmake_project_plan),
        cmocka_unit_test(test_ops_config),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
