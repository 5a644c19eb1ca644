/* run: "$APP_MODEL" */
/* link: -I"$ORT_INCLUDE" "$ORT_LIB/libonnxruntime.so" -Wl,-rpath,"$ORT_LIB" */
/*
 * static_link.c - a program that links ONNX Runtime itself (a static
 * libonnxruntime.a, or its own libonnxruntime.so) hands ortkit its own
 * OrtGetApiBase: ortkit then searches and loads nothing, and sessions,
 * checks and errors work as with a runtime it found.  This runs Silero VAD
 * (a voice-activity model) on 32 ms of a tone and prints the
 * probability that it is speech.
 *
 *   cc static_link.c $(pkg-config --cflags --libs ortkit) -I ORT/include \
 *      ORT/lib/libonnxruntime.a (and the libraries it needs) -o static_link
 *   ./static_link silero_vad.onnx
 */
#include <onnxruntime_c_api.h>
#include <ortkit.h>

#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s silero_vad.onnx\n", argv[0]);
        return 2;
    }
    ortkit_runtime *rt = NULL;
    ortkit_session *vad = NULL;
    ortkit_tensor *in[4] = {NULL}, *out[3] = {NULL};
    int status = 1;

    /* 512 samples of a 250 Hz square wave; the model's state starts at zero. */
    static float audio[512], state[2][1][64];
    int64_t rate = 16000;
    for (int i = 0; i < 512; i++)
        audio[i] = (i / 32) % 2 ? 0.3f : -0.3f;
    const int64_t audio_shape[] = {1, 512}, state_shape[] = {2, 1, 64};

    ortkit_runtime_options opts = ORTKIT_RUNTIME_OPTIONS_INIT;
    opts.api_base = OrtGetApiBase; /* this program's own runtime */
    if (ortkit_runtime_open(&rt, &opts) || ortkit_session_open(&vad, rt, argv[1], NULL) ||
        ortkit_tensor_borrow(&in[0], ORTKIT_TYPE_FLOAT32, audio_shape, 2, audio, sizeof audio) ||
        ortkit_tensor_borrow(&in[1], ORTKIT_TYPE_INT64, NULL, 0, &rate, sizeof rate) ||
        ortkit_tensor_borrow(&in[2], ORTKIT_TYPE_FLOAT32, state_shape, 3, state, sizeof state) ||
        ortkit_tensor_borrow(&in[3], ORTKIT_TYPE_FLOAT32, state_shape, 3, state, sizeof state) ||
        /* inputs input, sr, h, c; outputs output, hn, cn */
        ortkit_session_infer(vad, (const ortkit_tensor *const *)in, 4, out, 3)) {
        fprintf(stderr, "static_link: %s\n", ortkit_error_last());
        goto done;
    }
    float p = *(const float *)ortkit_tensor_data(out[0]);
    printf("ONNX Runtime %s (%s, in %s): speech probability %.6f\n", ortkit_runtime_version(rt),
           ortkit_runtime_source(rt), ortkit_runtime_path(rt), p);
    status = p >= 0 && p <= 1 ? 0 : 1;
done:
    for (int i = 0; i < 4; i++)
        ortkit_tensor_free(in[i]);
    for (int i = 0; i < 3; i++)
        ortkit_tensor_free(out[i]);
    ortkit_session_free(vad);
    ortkit_runtime_free(rt);
    return status;
}
