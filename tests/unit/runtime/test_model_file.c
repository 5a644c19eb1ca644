/*
 * test_model_file.c - what ortkit_model_file_read says about real model
 * files (the generated test models and a real application model), about
 * hand-encoded ModelProto bytes, and about files that are no model at all.
 *
 * The expected IR versions, operator sets and graph sizes were read from the
 * same files with the onnx package (onnx.load, len(graph.node), ...), not
 * with the decoder under test.
 */
#include "testutil.h"
#include "scratch.h"

#include "pbwriter.h"

#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

static int make_scratch(void **state)
{
    (void)state;
    return scratch_make("model-file");
}

static int remove_scratch(void **state)
{
    (void)state;
    return scratch_remove();
}

static ortkit_model_file *read_ok(const char *path)
{
    ortkit_model_file *m = NULL;
    if (ortkit_model_file_read(&m, path))
        fail_msg("cannot read %s: %s", path, ortkit_error_last());
    assert_non_null(m);
    return m;
}

/* Reading fails with code, names the file, and leaves *out NULL. */
static void read_fails(const char *path, int code, const char *why)
{
    ortkit_model_file *m = (ortkit_model_file *)&m;
    assert_int_equal(ortkit_model_file_read(&m, path), code);
    assert_null(m);
    assert_error_has(path);
    assert_error_has(why);
}

static void write_bytes(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(size ? fwrite(data, 1, size, f) : 0, size);
    assert_int_equal(fclose(f), 0);
}

/* ---- the generated models ------------------------------------------------- */

typedef struct expected {
    const char *file;
    size_t nodes, initializers;
} expected;

/* Every generated model is IR 8 with one operator set, ai.onnx 17
 * (make_models.py pins both for ORT 1.17). */
static void test_generated_models(void **state)
{
    (void)state;
    static const expected models[] = {
        {"add.onnx", 1, 0},      {"identity_types.onnx", 14, 0}, {"many_io.onnx", 6, 0},
        {"dynamic.onnx", 2, 1},  {"matmul.onnx", 12, 8},         {"tiny.onnx", 1, 0},
        {"slow.onnx", 5, 2},     {"strings.onnx", 2, 0},         {"seq_out.onnx", 2, 0},
        {"int_scalar.onnx", 1, 1}, {"shapeless.onnx", 2, 0},
        /* An operator that does not exist is the runtime's business, not the file's. */
        {"bad_op.onnx", 1, 0},
    };
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        ortkit_model_file *m = read_ok(model_path(models[i].file));
        if (m->node_count != models[i].nodes || m->initializer_count != models[i].initializers)
            fail_msg("%s: %zu nodes, %zu initialisers; expected %zu, %zu", models[i].file,
                     m->node_count, m->initializer_count, models[i].nodes, models[i].initializers);
        assert_int_equal(m->ir_version, 8);
        assert_int_equal(m->opset_count, 1);
        assert_string_equal(m->opsets[0].domain, "");
        assert_int_equal(m->opsets[0].version, 17);
        ortkit_model_file_free(m);
    }
}

/* silero_vad.onnx, a model exported by PyTorch: nine operator sets, most of
 * them in other domains, and a main graph of two If nodes over 69 weights. */
static void test_application_model(void **state)
{
    (void)state;
    static const ortkit_opset opsets[] = {
        {"", 16},
        {"ai.onnx.ml", 3},
        {"ai.onnx.training", 1},
        {"com.ms.internal.nhwc", 1},
        {"ai.onnx.preview.training", 1},
        {"com.microsoft", 1},
        {"com.microsoft.experimental", 1},
        {"com.microsoft.nchwc", 1},
        {"org.pytorch.aten", 1},
    };
    ortkit_model_file *m = read_ok(ORTKIT_TEST_APP_MODEL);
    assert_int_equal(m->ir_version, 8);
    assert_int_equal(m->node_count, 2);
    assert_int_equal(m->initializer_count, 69);
    assert_int_equal(m->opset_count, sizeof opsets / sizeof opsets[0]);
    for (size_t i = 0; i < m->opset_count; i++) {
        assert_string_equal(m->opsets[i].domain, opsets[i].domain);
        assert_int_equal(m->opsets[i].version, opsets[i].version);
    }
    ortkit_model_file_free(m);
}

/* ---- hand-encoded ModelProto ---------------------------------------------- */

/* Field numbers of onnx.ModelProto, OperatorSetIdProto, GraphProto, NodeProto. */
enum { MP_IR_VERSION = 1, MP_GRAPH = 7, MP_OPSET_IMPORT = 8 };
enum { OS_DOMAIN = 1, OS_VERSION = 2 };
enum { GP_NODE = 1, GP_NAME = 2, GP_INITIALIZER = 5 };
enum { NP_INPUT = 1, NP_OUTPUT = 2, NP_OP_TYPE = 4 };

static void add_opset(pbw *w, const char *domain, int64_t version)
{
    pbw o = {0};
    if (domain)
        pb_str(&o, OS_DOMAIN, domain);
    pb_int(&o, OS_VERSION, version);
    pb_msg(w, MP_OPSET_IMPORT, &o);
    pb_free(&o);
}

static void graph_of(pbw *g, size_t nodes, size_t initializers)
{
    pb_str(g, GP_NAME, "g");
    for (size_t i = 0; i < nodes; i++) {
        pbw n = {0};
        pb_str(&n, NP_INPUT, "x");
        pb_str(&n, NP_OUTPUT, "y");
        pb_str(&n, NP_OP_TYPE, "Relu");
        pb_msg(g, GP_NODE, &n);
        pb_free(&n);
    }
    for (size_t i = 0; i < initializers; i++) {
        pbw t = {0};
        const int64_t dims[] = {2};
        const float v[] = {1, 2};
        pb_float_tensor(&t, "w", dims, 1, v, 2);
        pb_msg(g, GP_INITIALIZER, &t);
        pb_free(&t);
    }
}

/* Values no generated model has: a newer IR, opsets in their file order, an
 * opset without a domain field (the default domain), counts above one. */
static void test_encoded_model(void **state)
{
    (void)state;
    pbw w = {0}, g = {0};
    graph_of(&g, 3, 5);
    add_opset(&w, "ai.onnx.ml", 5);
    pb_int(&w, MP_IR_VERSION, 11);
    pb_msg(&w, MP_GRAPH, &g);
    add_opset(&w, NULL, 23);
    add_opset(&w, "com.example", 1);
    assert_int_equal(pb_save(&w, at("encoded.onnx")), 0);

    ortkit_model_file *m = read_ok(at("encoded.onnx"));
    assert_int_equal(m->ir_version, 11);
    assert_int_equal(m->node_count, 3);
    assert_int_equal(m->initializer_count, 5);
    assert_int_equal(m->opset_count, 3);
    assert_string_equal(m->opsets[0].domain, "ai.onnx.ml");
    assert_int_equal(m->opsets[0].version, 5);
    assert_string_equal(m->opsets[1].domain, "");
    assert_int_equal(m->opsets[1].version, 23);
    assert_string_equal(m->opsets[2].domain, "com.example");
    assert_int_equal(m->opsets[2].version, 1);
    ortkit_model_file_free(m);
    pb_free(&w);
    pb_free(&g);
}

/* An empty graph and no opset_import at all still make a model. */
static void test_minimal_model(void **state)
{
    (void)state;
    pbw w = {0}, g = {0};
    pb_int(&w, MP_IR_VERSION, 3);
    pb_msg(&w, MP_GRAPH, &g);
    assert_int_equal(pb_save(&w, at("minimal.onnx")), 0);
    ortkit_model_file *m = read_ok(at("minimal.onnx"));
    assert_int_equal(m->ir_version, 3);
    assert_int_equal(m->opset_count, 0);
    assert_int_equal(m->node_count, 0);
    assert_int_equal(m->initializer_count, 0);
    ortkit_model_file_free(m);
    pb_free(&w);
}

/* Well-formed protobuf that lacks a ModelProto's required parts. */
static void test_missing_parts(void **state)
{
    (void)state;
    pbw no_ir = {0}, no_graph = {0}, g = {0};
    graph_of(&g, 1, 0);
    pb_msg(&no_ir, MP_GRAPH, &g);
    add_opset(&no_ir, "", 17);
    assert_int_equal(pb_save(&no_ir, at("no_ir.onnx")), 0);
    read_fails(at("no_ir.onnx"), ORTKIT_E_MODEL, "no IR version");

    pb_int(&no_graph, MP_IR_VERSION, 8);
    add_opset(&no_graph, "", 17);
    assert_int_equal(pb_save(&no_graph, at("no_graph.onnx")), 0);
    read_fails(at("no_graph.onnx"), ORTKIT_E_MODEL, "no graph");

    /* A serialised TensorProto: protobuf, but no model either way it is read. */
    read_fails(model_path("not_onnx.onnx"), ORTKIT_E_MODEL, "not an ONNX model");
    pb_free(&no_ir);
    pb_free(&no_graph);
    pb_free(&g);
}

/* ---- files that are not models -------------------------------------------- */

static void test_not_protobuf(void **state)
{
    (void)state;
    read_fails(model_path("truncated.onnx"), ORTKIT_E_MODEL, "protobuf decoding failed");
    read_fails(model_path("random.onnx"), ORTKIT_E_MODEL, "not an ONNX model");
    read_fails(model_path("empty.onnx"), ORTKIT_E_MODEL, "is empty");

    /* The application model cut in the middle of its graph. */
    FILE *f = fopen(ORTKIT_TEST_APP_MODEL, "rb");
    assert_non_null(f);
    static unsigned char half[256 << 10];
    size_t n = fread(half, 1, sizeof half, f);
    fclose(f);
    assert_int_equal(n, sizeof half);
    write_bytes(at("silero_cut.onnx"), half, n);
    read_fails(at("silero_cut.onnx"), ORTKIT_E_MODEL, "protobuf decoding failed");

    /* A length prefix that runs past the end of the file. */
    static const unsigned char overlong[] = {0x08, 0x08, 0x3a, 0x7f, 0x0a, 0x00};
    write_bytes(at("overlong.onnx"), overlong, sizeof overlong);
    read_fails(at("overlong.onnx"), ORTKIT_E_MODEL, "protobuf decoding failed");
}

/* ---- nesting ---------------------------------------------------------------- */

/* Field numbers of onnx.GraphProto.input, ValueInfoProto, TypeProto and its parts. */
enum { GP_INPUT = 11, VI_NAME = 1, VI_TYPE = 2, TP_TENSOR_TYPE = 1, TP_SEQUENCE_TYPE = 4,
       SEQ_ELEM_TYPE = 1, TT_ELEM_TYPE = 1, NP_ATTRIBUTE = 5, AP_NAME = 1, AP_G = 6, AP_TYPE = 20 };

/*
 * A model whose input x has `sequences` nested sequence types.  The
 * innermost TypeProto lies 3 + 2 * sequences messages below the ModelProto
 * (graph, input, type, then two per sequence); with_tensor adds its
 * tensor_type, one level more.
 */
static void deep_type(pbw *w, size_t sequences, int with_tensor)
{
    pbw inner = {0}, tt = {0}, vi = {0}, type = {0}, g = {0};
    if (with_tensor) {
        pb_int(&tt, TT_ELEM_TYPE, 1);
        pb_msg(&inner, TP_TENSOR_TYPE, &tt);
    }
    static const int numbers[] = {TP_SEQUENCE_TYPE, SEQ_ELEM_TYPE};
    pb_nest(&type, numbers, NULL, 2, 2 * sequences, &inner);
    pb_str(&vi, VI_NAME, "x");
    pb_msg(&vi, VI_TYPE, &type);
    pb_str(&g, GP_NAME, "deep");
    pb_msg(&g, GP_INPUT, &vi);
    pb_int(w, MP_IR_VERSION, 8);
    add_opset(w, "", 17);
    pb_msg(w, MP_GRAPH, &g);
    pb_free(&inner);
    pb_free(&tt);
    pb_free(&vi);
    pb_free(&type);
    pb_free(&g);
}

/* A graph whose node's graph attribute holds a graph whose node ..., graphs deep. */
static void deep_graph(pbw *w, size_t graphs)
{
    pbw prefix[3] = {{0}}, g = {0};
    pb_str(&prefix[0], NP_OP_TYPE, "If");
    pb_str(&prefix[1], AP_NAME, "then_branch");
    pb_int(&prefix[1], AP_TYPE, 5);
    static const int numbers[] = {GP_NODE, NP_ATTRIBUTE, AP_G};
    pb_nest(&g, numbers, prefix, 3, 3 * graphs, NULL);
    pb_int(w, MP_IR_VERSION, 8);
    pb_msg(w, MP_GRAPH, &g);
    for (int i = 0; i < 3; i++)
        pb_free(&prefix[i]);
    pb_free(&g);
}

static void save_and_fail_deep(const pbw *w, const char *name)
{
    assert_int_equal(pb_save(w, at(name)), 0);
    read_fails(at(name), ORTKIT_E_MODEL, "nested deeper than 100 levels");
}

/*
 * protobuf-c recurses once per nested message, with no limit of its own: a
 * model of a few tens of kilobytes nesting types or graphs thousands deep
 * overflowed the stack.  ortkit refuses, before decoding, anything nested
 * deeper than 100 levels, protobuf's and so ONNX Runtime's limit.
 */
static void test_deep_nesting(void **state)
{
    (void)state;
    /* The files make_models.py writes: 5,000 sequence types (34 KB), 20,000 graphs. */
    read_fails(model_path("deep_type.onnx"), ORTKIT_E_MODEL, "nested deeper than 100 levels");
    read_fails(model_path("deep_graph.onnx"), ORTKIT_E_MODEL, "nested deeper than 100 levels");
    read_fails(model_path("deep_type_102.onnx"), ORTKIT_E_MODEL,
               "the most ortkit and ONNX Runtime decode");
    ortkit_model_file_free(read_ok(model_path("deep_type_100.onnx")));

    /* Exactly at the limit: 100 levels read, 101 do not. */
    pbw w = {0};
    deep_type(&w, 48, 1); /* tensor_type at 4 + 96 = 100 */
    assert_int_equal(pb_save(&w, at("type_100.onnx")), 0);
    ortkit_model_file_free(read_ok(at("type_100.onnx")));
    pb_free(&w);
    deep_type(&w, 49, 0); /* the innermost TypeProto at 3 + 98 = 101 */
    save_and_fail_deep(&w, "type_101.onnx");
    pb_free(&w);
    deep_type(&w, 50000, 1);
    save_and_fail_deep(&w, "type_50000.onnx");
    pb_free(&w);

    /* Graphs: three levels each (node, attribute, graph) below the first at 1. */
    deep_graph(&w, 33); /* the innermost graph at 1 + 99 = 100 */
    assert_int_equal(pb_save(&w, at("graph_100.onnx")), 0);
    ortkit_model_file_free(read_ok(at("graph_100.onnx")));
    pb_free(&w);
    deep_graph(&w, 20000);
    save_and_fail_deep(&w, "graph_20000.onnx");
    pb_free(&w);

    /* Nesting inside bytes is no nesting: a tensor's raw_data holding what
     * would be 5,000 nested messages, and an unknown field likewise, are
     * skipped unread, as protobuf-c keeps them. */
    pbw deep_bytes = {0}, t = {0}, g = {0};
    static const int seq[] = {TP_SEQUENCE_TYPE, SEQ_ELEM_TYPE};
    pb_nest(&deep_bytes, seq, NULL, 2, 5000, NULL);
    pb_int(&t, TP_DATA_TYPE, 2); /* uint8 */
    int64_t dim = (int64_t)deep_bytes.len;
    pb_dims(&t, &dim, 1);
    pb_bytes(&t, TP_RAW, deep_bytes.buf, deep_bytes.len);
    pb_msg(&g, GP_INITIALIZER, &t);
    pb_bytes(&g, 999, deep_bytes.buf, deep_bytes.len);
    pb_int(&w, MP_IR_VERSION, 8);
    pb_msg(&w, MP_GRAPH, &g);
    pb_bytes(&w, 4242, deep_bytes.buf, deep_bytes.len);
    assert_int_equal(pb_save(&w, at("deep_bytes.onnx")), 0);
    ortkit_model_file *m = read_ok(at("deep_bytes.onnx"));
    assert_int_equal(m->initializer_count, 1);
    ortkit_model_file_free(m);
    pb_free(&w);
    pb_free(&deep_bytes);
    pb_free(&t);
    pb_free(&g);
}

static void test_not_a_file(void **state)
{
    (void)state;
    read_fails(at("no-such-model.onnx"), ORTKIT_E_IO, "no-such-model.onnx");
    assert_int_equal(mkdir(at("dir.onnx"), 0755), 0);
    read_fails(at("dir.onnx"), ORTKIT_E_IO, "is a directory");

    ortkit_model_file *m = NULL;
    assert_int_equal(ortkit_model_file_read(&m, NULL), ORTKIT_E_INVALID_ARG);
    assert_int_equal(ortkit_model_file_read(NULL, model_path("add.onnx")), ORTKIT_E_INVALID_ARG);
    ortkit_model_file_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generated_models), cmocka_unit_test(test_application_model),
        cmocka_unit_test(test_encoded_model),    cmocka_unit_test(test_minimal_model),
        cmocka_unit_test(test_missing_parts),    cmocka_unit_test(test_not_protobuf),
        cmocka_unit_test(test_deep_nesting),     cmocka_unit_test(test_not_a_file),
    };
    return cmocka_run_group_tests(tests, make_scratch, remove_scratch);
}
