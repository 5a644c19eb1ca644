/* run: "$MODELS/add.onnx" */
/*
 * introspect.c - what does a model take and return?  Open any ONNX model and
 * print its inputs and outputs (name, element type, shape with symbolic
 * dimensions), its metadata, and the IR version and operator sets read
 * straight from the file.
 *
 *   cc introspect.c $(pkg-config --cflags --libs ortkit) -o introspect
 *   ./introspect model.onnx
 */
#include <ortkit.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Print one input or output; 0 if what the session reports hangs together. */
static int print_io(const ortkit_session *session, const ortkit_io_info *io, size_t i, int is_input)
{
    /* "float32[N,3]": symbolic dimensions by name, fixed ones by size. */
    char desc[256];
    ortkit_io_describe(io, desc, sizeof desc);
    printf("  %-12s %s\n", io->name, desc);

    if (io->kind == ORTKIT_KIND_TENSOR && io->rank != SIZE_MAX) {
        for (size_t d = 0; d < io->rank; d++) {
            const ortkit_dim *dim = &io->dims[d];
            /* A dimension is either fixed (value >= 0) or free (value -1),
             * and then usually named: that name is what `ortkit run --dim`
             * sets. */
            if (dim->value < 0)
                printf("      dim %zu: %s\n", d, dim->symbol[0] ? dim->symbol : "(unnamed)");
        }
    }
    /* Names lead back to positions: what ortkit_session_run matches on. */
    long back = is_input ? ortkit_session_input_index(session, io->name)
                         : ortkit_session_output_index(session, io->name);
    if (back != (long)i)
        return fprintf(stderr, "introspect: '%s' is at %zu but its index is %ld\n", io->name, i, back), 1;
    return desc[0] && strstr(desc, ortkit_type_name(io->type)) ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s MODEL.onnx\n", argv[0]);
        return 2;
    }
    ortkit_runtime *rt = NULL;
    ortkit_session *session = NULL;
    ortkit_model_file *file = NULL;
    int status = 1, bad = 0;

    /* The file itself, decoded without any runtime: cheap and always safe. */
    if (ortkit_model_file_read(&file, argv[1])) {
        fprintf(stderr, "introspect: %s\n", ortkit_error_last());
        goto done;
    }
    printf("%s: IR version %lld, %zu nodes, opsets", argv[1], (long long)file->ir_version,
           file->node_count);
    for (size_t i = 0; i < file->opset_count; i++)
        printf(" %s %lld", file->opsets[i].domain[0] ? file->opsets[i].domain : "ai.onnx",
               (long long)file->opsets[i].version);
    printf("\n");

    /* Inputs, outputs and metadata as the runtime sees them. */
    if (ortkit_runtime_open(&rt, NULL) || ortkit_session_open(&session, rt, argv[1], NULL)) {
        fprintf(stderr, "introspect: %s\n", ortkit_error_last());
        goto done;
    }
    printf("inputs:\n");
    for (size_t i = 0; i < ortkit_session_input_count(session); i++)
        bad |= print_io(session, ortkit_session_input(session, i), i, 1);
    printf("outputs:\n");
    for (size_t i = 0; i < ortkit_session_output_count(session); i++)
        bad |= print_io(session, ortkit_session_output(session, i), i, 0);

    const ortkit_model_metadata *m = ortkit_session_metadata(session);
    printf("metadata:\n");
    printf("  producer     %s\n", m->producer);
    printf("  graph        %s\n", m->graph_name);
    printf("  domain       %s\n", m->domain);
    printf("  description  %s\n", m->description);
    /* Custom key/values are whatever the exporter stored: labels, authors... */
    for (size_t i = 0; i < m->custom_count; i++)
        printf("  %-12s %s\n", m->custom_keys[i], m->custom_values[i]);

    /* A model always has at least one output; unknown names have no index. */
    if (ortkit_session_output_count(session) == 0 || ortkit_session_input_index(session, "no such name") != -1)
        bad = 1;
    status = bad;
done:
    ortkit_session_free(session);
    ortkit_runtime_free(rt);
    ortkit_model_file_free(file);
    return status;
}
