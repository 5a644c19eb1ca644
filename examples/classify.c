/* run: "$MODELS/classifier.onnx" "$MODELS/classifier_x.npy" */
/*
 * classify.c - a scikit-learn-style classifier, whose probabilities are not
 * a tensor but a sequence of maps (one map per row, class -> probability),
 * as ZipMap makes them.  ortkit_session_run_values takes and returns values
 * of every kind; this prints each row's class and the probability of each.
 *
 *   cc classify.c $(pkg-config --cflags --libs ortkit) -o classify
 *   ./classify classifier.onnx features.npy
 */
#include <ortkit.h>

#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s MODEL.onnx FEATURES.npy\n", argv[0]);
        return 2;
    }
    ortkit_runtime *rt = NULL;
    ortkit_session *session = NULL;
    ortkit_tensor *x = NULL;
    ortkit_value *input = NULL, *out[2] = {NULL};
    int status = 1;

    if (ortkit_runtime_open(&rt, NULL) || ortkit_session_open(&session, rt, argv[1], NULL) ||
        ortkit_npy_read(&x, argv[2]))
        goto fail;
    /* The value takes the tensor: freeing the value frees it. */
    if (ortkit_value_new_tensor(&input, x))
        goto fail;
    x = NULL;

    const char *names[] = {"x"};
    const ortkit_value *inputs[] = {input};
    if (ortkit_session_run_values(session, NULL, names, inputs, 1, NULL, 0, out))
        goto fail;

    /* out[0]: label, a tensor; out[1]: probabilities, sequence<map<int64,float32>>. */
    const int64_t *labels = ortkit_tensor_data(ortkit_value_tensor(out[0]));
    char type[128];
    ortkit_value_type_describe(ortkit_value_type_of(out[1]), type, sizeof type);
    printf("probabilities: %s, %zu rows\n", type, ortkit_value_count(out[1]));
    for (size_t row = 0; row < ortkit_value_count(out[1]); row++) {
        const ortkit_value *map = ortkit_value_item(out[1], row);
        const int64_t *classes = ortkit_tensor_data(ortkit_value_map_keys(map));
        const float *probs = ortkit_tensor_data(ortkit_value_map_values(map));
        printf("row %zu: class %lld;", row, (long long)labels[row]);
        for (size_t k = 0; k < ortkit_value_count(map); k++)
            printf(" %lld: %.3f", (long long)classes[k], probs[k]);
        printf("\n");
    }
    status = 0;
    goto done;
fail:
    fprintf(stderr, "classify: %s\n", ortkit_error_last());
done:
    ortkit_value_free(out[0]);
    ortkit_value_free(out[1]);
    ortkit_value_free(input);
    ortkit_tensor_free(x);
    ortkit_session_free(session);
    ortkit_runtime_free(rt);
    return status;
}
