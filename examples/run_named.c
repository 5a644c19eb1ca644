/* run: "$MODELS/many_io.onnx" */
/*
 * run_named.c - feed inputs by name, in any order, and ask for just the
 * outputs you need.  The model (many_io.onnx from ortkit's tests) takes five
 * float32[2,2] inputs x0..x4 and returns six outputs; here we only want t0,
 * the transpose of x0, and argmax, the index of the largest value in each
 * row of x0.
 *
 *   cc run_named.c $(pkg-config --cflags --libs ortkit) -o run_named
 *   ./run_named many_io.onnx
 */
#include <ortkit.h>

#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s many_io.onnx\n", argv[0]);
        return 2;
    }
    ortkit_runtime *rt = NULL;
    ortkit_session *session = NULL;
    ortkit_tensor *in[5] = {NULL};
    ortkit_tensor *out[2] = {NULL};
    int status = 1;

    /* x0 is the one that matters; the others only need the right shape. */
    float x[5][2][2] = {{{1, 7}, {5, 3}}, {{0}}, {{0}}, {{0}}, {{0}}};
    const int64_t shape[] = {2, 2};
    /* Any order: inputs are matched by name, not by position. */
    const char *input_names[] = {"x4", "x3", "x2", "x1", "x0"};

    if (ortkit_runtime_open(&rt, NULL) || ortkit_session_open(&session, rt, argv[1], NULL)) {
        fprintf(stderr, "run_named: %s\n", ortkit_error_last());
        goto done;
    }
    for (int i = 0; i < 5; i++) {
        /* input_names[i] is "x<4-i>": borrow x[4-i] for it, without copying. */
        if (ortkit_tensor_borrow(&in[i], ORTKIT_TYPE_FLOAT32, shape, 2, x[4 - i], sizeof x[0])) {
            fprintf(stderr, "run_named: %s\n", ortkit_error_last());
            goto done;
        }
    }

    /* Only t0 and argmax are computed and returned, in the order asked. */
    const char *output_names[] = {"argmax", "t0"};
    if (ortkit_session_run(session, NULL, input_names, (const ortkit_tensor *const *)in, 5,
                           output_names, 2, out)) {
        fprintf(stderr, "run_named: %s\n", ortkit_error_last());
        goto done;
    }

    char desc[64];
    ortkit_tensor_describe(out[1], desc, sizeof desc);
    const float *t0 = ortkit_tensor_data(out[1]);
    printf("t0 = transpose(x0): %s {%g, %g, %g, %g}\n", desc, t0[0], t0[1], t0[2], t0[3]);
    ortkit_tensor_describe(out[0], desc, sizeof desc);
    const int64_t *argmax = ortkit_tensor_data(out[0]);
    printf("argmax(x0, axis 1): %s {%lld, %lld}\n", desc, (long long)argmax[0], (long long)argmax[1]);

    /* x0 = [[1, 7], [5, 3]]: its transpose is [[1, 5], [7, 3]], and the
     * largest values sit in column 1, then column 0. */
    status = ortkit_tensor_type(out[1]) == ORTKIT_TYPE_FLOAT32 && t0[0] == 1 && t0[1] == 5 &&
                     t0[2] == 7 && t0[3] == 3 && ortkit_tensor_type(out[0]) == ORTKIT_TYPE_INT64 &&
                     ortkit_tensor_count(out[0]) == 2 && argmax[0] == 1 && argmax[1] == 0
                 ? 0
                 : 1;

    /* A name the model does not have is refused, and says which. */
    const char *wrong[] = {"no_such_output"};
    ortkit_tensor *unused = NULL;
    int rc = ortkit_session_run(session, NULL, input_names, (const ortkit_tensor *const *)in, 5, wrong, 1, &unused);
    printf("asking for 'no_such_output': %s: %s\n", ortkit_status_name(rc), ortkit_error_last());
    if (rc != ORTKIT_E_NAME || unused)
        status = 1;
done:
    for (int i = 0; i < 5; i++)
        ortkit_tensor_free(in[i]);
    ortkit_tensor_free(out[0]);
    ortkit_tensor_free(out[1]);
    ortkit_session_free(session);
    ortkit_runtime_free(rt);
    return status;
}
