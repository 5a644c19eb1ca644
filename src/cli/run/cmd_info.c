/* cmd_info.c - `ortkit info MODEL`: what a model takes, returns and says about itself. */
#include "cli.h"
#include "inputs.h"
#include "opt.h"
#include "view.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct info_args {
    const char *runtime, *bundle;
    int json;
    input_spec shapes;
} info_args;

static int add_shape(cli_opt_parser *p, void *in, char *value)
{
    return input_spec_add_shape(in, p->spec->command, value);
}

static const cli_opt info_opts[] = {
    {0, "runtime", 'r', "PATH", 0, "load this ONNX Runtime library or directory",
     CLI_OPT_STRING(info_args, runtime)},
    CLI_BUNDLE_ROW(info_args, bundle),
    {0, "json", 'j', NULL, 0, "print JSON", CLI_OPT_FLAG(info_args, json)},
    {0, "shape", 0, "NAME=D0,D1", CLI_OPT_REPEATS,
     "check a shape for run and bench's --shape against the model, and show it",
     CLI_OPT_CALL(info_args, shapes, add_shape)},
    CLI_OPT_ARGS(1, 1, "no model given"),
    CLI_OPT_END};

static const cli_opt_spec info_spec = {
    "info",
    "usage: ortkit info MODEL [--runtime PATH | --bundle NAME|DIR] [--json]\n"
    "                   [--shape NAME=D0,D1,...]...\n",
    "Show a model's inputs and outputs (name, element type, shape with symbolic\n"
    "dimensions), its metadata, IR version and operator sets.\n",
    info_opts, NULL,
    "A dimension without a name is shown as '?': run and bench cannot size it with\n"
    "--dim, and a note says which --shape gives generated inputs their shape.\n"};

static cJSON *io_view(const ortkit_io_info *io, const input_spec *spec)
{
    static const char *const kinds[] = {"unknown", "tensor", "sequence", "map", "optional", "sparse_tensor"};
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", io->name);
    cJSON_AddStringToObject(o, "kind", kinds[io->kind <= 5 ? io->kind : 0]);
    cJSON_AddStringToObject(o, "type", ortkit_type_name(io->type));
    if (io->kind != ORTKIT_KIND_TENSOR) { /* the whole type: "sequence<map<int64,float32>>" */
        char whole[256];
        ortkit_value_type_describe(io->value_type, whole, sizeof whole);
        cJSON_AddStringToObject(o, "value_type", whole);
    }
    if (io->kind == ORTKIT_KIND_TENSOR && io->rank == SIZE_MAX) {
        cJSON_AddNullToObject(o, "shape"); /* no shape in the model: any rank */
    } else if (io->kind == ORTKIT_KIND_TENSOR) {
        cJSON *shape = cJSON_AddArrayToObject(o, "shape");
        for (size_t d = 0; d < io->rank; d++) {
            if (io->dims[d].value >= 0)
                cJSON_AddItemToArray(shape, cJSON_CreateNumber((double)io->dims[d].value));
            else
                cJSON_AddItemToArray(shape, cJSON_CreateString(io->dims[d].symbol[0] ? io->dims[d].symbol : "?"));
        }
    }
    const shape_value *sh = spec ? input_spec_shape(spec, io->name) : NULL;
    if (sh) {
        cJSON *given = cJSON_AddArrayToObject(o, "shape_given");
        for (size_t d = 0; d < sh->rank; d++)
            cJSON_AddItemToArray(given, cJSON_CreateNumber((double)sh->dims[d]));
    }
    return o;
}

/* The model's view: what --json prints and the text is drawn from. */
static cJSON *info_view(const char *path, const ortkit_model_file *mf, const ortkit_session *s,
                        const input_spec *spec)
{
    const ortkit_model_metadata *m = ortkit_session_metadata(s);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "model", path);
    cJSON_AddNumberToObject(root, "ir_version", (double)mf->ir_version);
    cJSON *ops = cJSON_AddArrayToObject(root, "opsets");
    for (size_t i = 0; i < mf->opset_count; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "domain", mf->opsets[i].domain);
        cJSON_AddNumberToObject(o, "version", (double)mf->opsets[i].version);
        cJSON_AddItemToArray(ops, o);
    }
    cJSON_AddNumberToObject(root, "nodes", (double)mf->node_count);
    cJSON_AddNumberToObject(root, "initializers", (double)mf->initializer_count);
    cJSON *in = cJSON_AddArrayToObject(root, "inputs");
    for (size_t i = 0; i < ortkit_session_input_count(s); i++)
        cJSON_AddItemToArray(in, io_view(ortkit_session_input(s, i), spec));
    cJSON *out = cJSON_AddArrayToObject(root, "outputs");
    for (size_t i = 0; i < ortkit_session_output_count(s); i++)
        cJSON_AddItemToArray(out, io_view(ortkit_session_output(s, i), NULL));
    cJSON *md = cJSON_AddObjectToObject(root, "metadata");
    ortkit__json_add_strings(md, "producer", m->producer, "graph_name", m->graph_name,
                             "graph_description", m->graph_description, "domain", m->domain,
                             "description", m->description, NULL);
    /* ORT reports INT64_MAX when the model sets none: null, not 9.22e+18. */
    if (m->version == INT64_MAX)
        cJSON_AddNullToObject(md, "version");
    else
        cJSON_AddNumberToObject(md, "version", (double)m->version);
    cJSON *custom = cJSON_AddObjectToObject(md, "custom");
    for (size_t i = 0; i < m->custom_count; i++)
        cJSON_AddStringToObject(custom, m->custom_keys[i], m->custom_values[i]);
    return root;
}

/* A number of the view as an integer ("%g" would write 1e+06). */
static const char *integer(const cJSON *it, char *buf, size_t size)
{
    snprintf(buf, size, "%lld", (long long)(cJSON_IsNumber(it) ? it->valuedouble : 0));
    return buf;
}

/* A shape's dimensions, comma-separated; with as_d each one without a
 * size as "D<index>", the form --shape wants.  1 when one has no name
 * either (a string "?"). */
static int dims_text(const cJSON *shape, char *buf, size_t size, int as_d)
{
    size_t used = 0;
    int d = 0, unnamed = 0;
    const cJSON *dim;
    buf[0] = '\0';
    cJSON_ArrayForEach(dim, shape) {
        char n[32];
        const char *text = cJSON_IsString(dim) ? dim->valuestring : integer(dim, n, sizeof n);
        unnamed |= cJSON_IsString(dim) && !strcmp(dim->valuestring, "?");
        if (as_d && cJSON_IsString(dim)) {
            snprintf(n, sizeof n, "D%d", d);
            text = n;
        }
        if (used < size)
            used += (size_t)snprintf(buf + used, size - used, "%s%s", d ? "," : "", text);
        d++;
    }
    return unnamed;
}

/* An input's or output's type as the library describes it ("float32[N,3]",
 * "sequence<map<int64,float32>>"), and the shape --shape gives it. */
static void type_cell(const cJSON *o, char *buf, size_t size)
{
    const cJSON *shape = cli_view_at(o, "shape"), *given = cli_view_at(o, "shape_given");
    char dims[400] = "?...";
    if (cJSON_IsString(cli_view_at(o, "value_type"))) {
        snprintf(buf, size, "%s", cli_view_str(o, "value_type"));
    } else {
        if (cJSON_IsArray(shape))
            dims_text(shape, dims, sizeof dims, 0);
        snprintf(buf, size, "%s[%s]", cli_view_str(o, "type"), dims);
    }
    if (given) {
        size_t used = strlen(buf);
        dims_text(given, dims, sizeof dims, 0);
        snprintf(buf + used, size - used, " as [%s] (--shape)", dims);
    }
}

static const cli_view_column io_columns[] = {{"name", "name", NULL, 0, NULL},
                                             {"type", NULL, type_cell, 0, NULL}};

/* The inputs or outputs under their title: 0, or CLI_FAIL when the table
 * could not be made.  An input with a dimension without a name and no
 * --shape gets a note on what run and bench need. */
static int io_lines(const char *title, const cJSON *list)
{
    const cJSON *io, *inputs = strcmp(title, "inputs") ? NULL : list;
    printf("%s (%d)\n", title, cJSON_GetArraySize(list));
    if (cli_view_table(stdout, list, CLI_VIEW_COLUMNS(io_columns), "  "))
        return cli_fail("out of memory");
    cJSON_ArrayForEach(io, inputs) {
        char shape[400];
        const char *name = cli_esc(cli_view_str(io, "name"));
        if (!cli_view_at(io, "shape_given") &&
            dims_text(cli_view_at(io, "shape"), shape, sizeof shape, 1))
            printf("  note: '%s' has a dimension without a name (no --dim sizes it): run and bench "
                   "generate it with --shape %s=%s\n", name, name, shape);
    }
    return 0;
}

/* The metadata's rows: what ORT says of the model, then its own keys. */
static cJSON *metadata_rows(const cJSON *md)
{
    static const char *const keys[][3] = {{"producer", "producer", ""},
                                          {"graph", "graph_name", ""},
                                          {"domain", "domain", ""},
                                          {"version", "version", "-"},
                                          {"description", "description", NULL},
                                          {"graph description", "graph_description", NULL}};
    cJSON *rows = cJSON_CreateArray();
    char n[32];
    for (size_t i = 0; rows && i < sizeof keys / sizeof keys[0]; i++) {
        const cJSON *it = cli_view_at(md, keys[i][1]);
        const char *value = cJSON_IsNumber(it) ? integer(it, n, sizeof n) : cli_view_str(md, keys[i][1]);
        if (!keys[i][2] && !value[0])
            continue; /* shown only when the model says something */
        cJSON *o = cJSON_CreateObject();
        ortkit__json_add_strings(o, "key", keys[i][0], "value", cJSON_IsNull(it) ? keys[i][2] : value, NULL);
        cJSON_AddItemToArray(rows, o);
    }
    const cJSON *e;
    cJSON_ArrayForEach(e, cli_view_at(md, "custom")) {
        cJSON *o = cJSON_CreateObject();
        ortkit__json_add_strings(o, "key", e->string, "value", e->valuestring, NULL);
        cJSON_AddItemToArray(rows, o);
    }
    return rows;
}

static const cli_view_column metadata_columns[] = {{"key", "key", NULL, 0, NULL},
                                                   {"value", "value", NULL, 0, NULL}};

/* The view as text. */
static int info_text(const cJSON *view)
{
    char n[32];
    const cJSON *op;
    printf("model     %s\n", cli_esc(cli_view_str(view, "model")));
    printf("IR        %s\n", integer(cli_view_at(view, "ir_version"), n, sizeof n));
    printf("opsets   ");
    cJSON_ArrayForEach(op, cli_view_at(view, "opsets")) {
        const char *domain = cli_view_str(op, "domain");
        printf(" %s %s%s", domain[0] ? cli_esc(domain) : "ai.onnx",
               integer(cli_view_at(op, "version"), n, sizeof n), op->next ? "," : "");
    }
    printf("\ngraph     %s nodes, ", integer(cli_view_at(view, "nodes"), n, sizeof n));
    printf("%s initializers\n\n", integer(cli_view_at(view, "initializers"), n, sizeof n));
    if (io_lines("inputs", cli_view_at(view, "inputs")))
        return CLI_FAIL;
    printf("\n");
    if (io_lines("outputs", cli_view_at(view, "outputs")))
        return CLI_FAIL;
    printf("\nmetadata\n");
    cJSON *rows = metadata_rows(cli_view_at(view, "metadata"));
    int rc = !rows || cli_view_table(stdout, rows, CLI_VIEW_COLUMNS(metadata_columns), "  ")
                 ? cli_fail("out of memory") : CLI_OK;
    cJSON_Delete(rows);
    return rc;
}

int cmd_info(int argc, char **argv)
{
    static info_args a; /* large: not on the stack */
    cli_opt_parser p;
    if (cli_opt_parse(&p, &info_spec, NULL, &a, argc, argv))
        return p.status;
    const char *runtime_path = a.runtime, *bundle = a.bundle;
    int json = a.json;
    const input_spec *spec = &a.shapes;
    const char *path = p.args[0];
    ortkit_runtime_options ro = ORTKIT_RUNTIME_OPTIONS_INIT;
    int brc = cli_runtime_choice(&ro, "info", runtime_path, bundle);
    if (brc)
        return brc;

    ortkit_model_file *mf = NULL;
    ortkit_runtime *rt = NULL;
    ortkit_session *s = NULL;
    int rc = CLI_FAIL;
    if (ortkit_model_file_read(&mf, path) || cli_open_runtime_with(&rt, &ro) ||
        ortkit_session_open(&s, rt, path, NULL)) {
        cli_fail_lib();
        goto cleanup;
    }
    if (input_shapes_check(spec, path, s))
        goto cleanup;
    cJSON *view = info_view(path, mf, s, spec);
    if (json) {
        rc = cli_json_print(view);
        goto cleanup;
    }
    rc = view ? info_text(view) : cli_fail("out of memory");
    cJSON_Delete(view);
cleanup:
    ortkit_session_free(s);
    ortkit_runtime_free(rt);
    ortkit_model_file_free(mf);
    return rc;
}
