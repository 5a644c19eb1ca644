/* run: "$MODELS/add.onnx" */
/*
 * hello.c - the smallest complete ortkit program: load the runtime, open a
 * model, run it on two tensors and print the result.
 *
 *   cc hello.c $(pkg-config --cflags --libs ortkit) -o hello && ./hello add.onnx
 */
#include <ortkit.h>

#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s MODEL (a model adding float32 inputs a and b of shape [N,3])\n", argv[0]);
        return 2;
    }
    ortkit_runtime *rt = NULL;
    ortkit_session *session = NULL;
    ortkit_tensor *a = NULL, *b = NULL, *sum = NULL;
    int status = 1;

    float a_data[2][3] = {{1, 2, 3}, {4, 5, 6}};
    float b_data[2][3] = {{10, 20, 30}, {40, 50, 60}};
    const int64_t shape[] = {2, 3};

    /* NULL options: search ORTKIT_RUNTIME, the set-up location, ... */
    if (ortkit_runtime_open(&rt, NULL) ||
        ortkit_session_open(&session, rt, argv[1], NULL) ||
        /* borrow: the tensors point at our arrays, nothing is copied */
        ortkit_tensor_borrow(&a, ORTKIT_TYPE_FLOAT32, shape, 2, a_data, sizeof a_data) ||
        ortkit_tensor_borrow(&b, ORTKIT_TYPE_FLOAT32, shape, 2, b_data, sizeof b_data)) {
        fprintf(stderr, "hello: %s\n", ortkit_error_last());
        goto done;
    }
    /* inputs in the model's order; every output comes back */
    const ortkit_tensor *inputs[] = {a, b};
    if (ortkit_session_infer(session, inputs, 2, &sum, 1)) {
        fprintf(stderr, "hello: %s\n", ortkit_error_last());
        goto done;
    }
    const float *out = ortkit_tensor_data(sum);
    printf("ONNX Runtime %s says a + b =", ortkit_runtime_version(rt));
    for (size_t i = 0; i < ortkit_tensor_count(sum); i++)
        printf(" %g", out[i]);
    printf("\n");
    status = out[5] == 66.0f ? 0 : 1;
done:
    ortkit_tensor_free(sum);
    ortkit_tensor_free(a);
    ortkit_tensor_free(b);
    ortkit_session_free(session);
    ortkit_runtime_free(rt);
    return status;
}
