/* cmd_info.c - `ortkit info MODEL`: what a model takes, returns and says about itself. */
#include "cli.h"
#include "inputs.h"
#include "opt.h"

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

static cJSON *io_json(const ortkit_io_info *io, const input_spec *spec)
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

/* "D0,12": the shape --shape wants, Dn for each dimension without a size. */
static int unnamed_shape(const ortkit_io_info *io, char *buf, size_t size)
{
    int unnamed = 0;
    size_t used = 0;
    buf[0] = '\0';
    for (size_t d = 0; io->kind == ORTKIT_KIND_TENSOR && io->rank != SIZE_MAX && d < io->rank; d++) {
        unnamed |= io->dims[d].value < 0 && !io->dims[d].symbol[0];
        if (used < size)
            used += (size_t)(io->dims[d].value >= 0
                                 ? snprintf(buf + used, size - used, "%s%lld", d ? "," : "",
                                            (long long)io->dims[d].value)
                                 : snprintf(buf + used, size - used, "%sD%zu", d ? "," : "", d));
    }
    return unnamed;
}

/* 0, or CLI_FAIL when the table could not be made.  An input's --shape is
 * shown after its type; an input with a dimension without a name and no
 * --shape gets a note on what run and bench need. */
static int print_io(const char *title, const ortkit_session *s, int outputs, const input_spec *spec)
{
    size_t n = outputs ? ortkit_session_output_count(s) : ortkit_session_input_count(s);
    printf("%s (%zu)\n", title, n);
    static const char *const headers[] = {"name", "type"};
    cli_table *t = cli_table_new(2, headers);
    for (size_t i = 0; i < n; i++) {
        const ortkit_io_info *io = outputs ? ortkit_session_output(s, i) : ortkit_session_input(s, i);
        const shape_value *sh = outputs ? NULL : input_spec_shape(spec, io->name);
        char desc[512], given[400];
        ortkit_io_describe(io, desc, sizeof desc);
        if (sh) {
            shape_text(sh, given, sizeof given);
            size_t used = strlen(desc);
            snprintf(desc + used, sizeof desc - used, " as %s (--shape)", given);
        }
        cli_table_add(t, (const char *const[]){io->name, desc});
    }
    int rc = cli_table_print(t, stdout, "  ") ? cli_fail("out of memory") : 0;
    cli_table_free(t);
    for (size_t i = 0; !rc && !outputs && i < n; i++) {
        const ortkit_io_info *io = ortkit_session_input(s, i);
        char shape[400];
        if (unnamed_shape(io, shape, sizeof shape) && !input_spec_shape(spec, io->name))
            printf("  note: '%s' has a dimension without a name (no --dim sizes it): run and bench "
                   "generate it with --shape %s=%s\n", cli_esc(io->name), cli_esc(io->name), shape);
    }
    return rc;
}

int cmd_info(int argc, char **argv)
{
    static info_args a; /* large: not on the stack */
    char *bundle_path = NULL;
    cli_opt_parser p;
    if (cli_opt_parse(&p, &info_spec, NULL, &a, argc, argv))
        return p.status;
    const char *runtime_path = a.runtime, *bundle = a.bundle;
    int json = a.json;
    const input_spec *spec = &a.shapes;
    const char *path = p.args[0];
    int brc = cli_bundle_path(&bundle_path, "info", runtime_path, bundle);
    if (brc)
        return brc;
    if (bundle_path)
        runtime_path = bundle_path;

    ortkit_model_file *mf = NULL;
    ortkit_runtime *rt = NULL;
    ortkit_session *s = NULL;
    int rc = CLI_FAIL;
    if (ortkit_model_file_read(&mf, path) || cli_open_runtime(&rt, runtime_path) ||
        ortkit_session_open(&s, rt, path, NULL)) {
        cli_fail_lib();
        goto cleanup;
    }
    if (input_shapes_check(spec, path, s))
        goto cleanup;
    const ortkit_model_metadata *m = ortkit_session_metadata(s);
    if (json) {
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
            cJSON_AddItemToArray(in, io_json(ortkit_session_input(s, i), spec));
        cJSON *out = cJSON_AddArrayToObject(root, "outputs");
        for (size_t i = 0; i < ortkit_session_output_count(s); i++)
            cJSON_AddItemToArray(out, io_json(ortkit_session_output(s, i), NULL));
        cJSON *md = cJSON_AddObjectToObject(root, "metadata");
        cJSON_AddStringToObject(md, "producer", m->producer);
        cJSON_AddStringToObject(md, "graph_name", m->graph_name);
        cJSON_AddStringToObject(md, "graph_description", m->graph_description);
        cJSON_AddStringToObject(md, "domain", m->domain);
        cJSON_AddStringToObject(md, "description", m->description);
        /* ORT reports INT64_MAX when the model sets none: null, not 9.22e+18. */
        if (m->version == INT64_MAX)
            cJSON_AddNullToObject(md, "version");
        else
            cJSON_AddNumberToObject(md, "version", (double)m->version);
        cJSON *custom = cJSON_AddObjectToObject(md, "custom");
        for (size_t i = 0; i < m->custom_count; i++)
            cJSON_AddStringToObject(custom, m->custom_keys[i], m->custom_values[i]);
        rc = cli_json_print(root);
        goto cleanup;
    }
    printf("model     %s\n", cli_esc(path));
    printf("IR        %lld\n", (long long)mf->ir_version);
    printf("opsets   ");
    for (size_t i = 0; i < mf->opset_count; i++)
        printf(" %s %lld%s", mf->opsets[i].domain[0] ? cli_esc(mf->opsets[i].domain) : "ai.onnx",
               (long long)mf->opsets[i].version, i + 1 < mf->opset_count ? "," : "");
    printf("\ngraph     %zu nodes, %zu initializers\n\n", mf->node_count, mf->initializer_count);
    if (print_io("inputs", s, 0, spec))
        goto cleanup;
    printf("\n");
    if (print_io("outputs", s, 1, spec))
        goto cleanup;
    printf("\nmetadata\n");
    static const char *const headers[] = {"key", "value"};
    cli_table *t = cli_table_new(2, headers);
    char version[32] = "-"; /* ORT reports INT64_MAX when the model sets none */
    if (m->version != INT64_MAX)
        snprintf(version, sizeof version, "%lld", (long long)m->version);
    cli_table_add(t, (const char *const[]){"producer", m->producer});
    cli_table_add(t, (const char *const[]){"graph", m->graph_name});
    cli_table_add(t, (const char *const[]){"domain", m->domain});
    cli_table_add(t, (const char *const[]){"version", version});
    if (m->description[0])
        cli_table_add(t, (const char *const[]){"description", m->description});
    if (m->graph_description[0])
        cli_table_add(t, (const char *const[]){"graph description", m->graph_description});
    for (size_t i = 0; i < m->custom_count; i++)
        cli_table_add(t, (const char *const[]){m->custom_keys[i], m->custom_values[i]});
    rc = cli_table_print(t, stdout, "  ") ? cli_fail("out of memory") : CLI_OK;
    cli_table_free(t);
cleanup:
    ortkit_session_free(s);
    ortkit_runtime_free(rt);
    ortkit_model_file_free(mf);
    free(bundle_path);
    return rc;
}
