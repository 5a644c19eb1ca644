/* run: "$MODELS/slow.onnx" */
/*
 * cancel.c - stop a long run from another thread.  A run control, passed to
 * ortkit_session_run, lets any thread cancel the run in progress: it then
 * returns ORTKIT_E_CANCELLED.  The model (slow.onnx from ortkit's tests)
 * loops over 256x256 matrix products as many times as its "iterations"
 * input says.
 *
 *   cc cancel.c $(pkg-config --cflags --libs ortkit) -o cancel
 *   ./cancel slow.onnx
 */
#define _POSIX_C_SOURCE 200809L
#include <ortkit.h>

#include <pthread.h>
#include <stdio.h>
#include <time.h>

/* At about 0.2 ms per iteration on one core, this run would take tens of
 * seconds: only a cancel ends it within a fraction of a second. */
#define LONG_RUN 150000

typedef struct job {
    ortkit_session *session;
    ortkit_run_control *control;
    int64_t iterations;
    int rc; /* what ortkit_session_run returned */
} job;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Run the model once with the job's control; the thread's body. */
static void *run(void *arg)
{
    job *j = arg;
    float x[256] = {0};
    const int64_t x_shape[] = {1, 256};
    ortkit_tensor *inputs[2] = {NULL, NULL}, *y = NULL;
    x[0] = 0.5f;
    j->rc = ortkit_tensor_borrow(&inputs[0], ORTKIT_TYPE_FLOAT32, x_shape, 2, x, sizeof x);
    /* A scalar: rank 0, no shape. */
    if (!j->rc)
        j->rc = ortkit_tensor_borrow(&inputs[1], ORTKIT_TYPE_INT64, NULL, 0, &j->iterations, sizeof j->iterations);
    const char *names[] = {"x", "iterations"};
    if (!j->rc)
        j->rc = ortkit_session_run(j->session, j->control, names, (const ortkit_tensor *const *)inputs, 2,
                                   NULL, 0, &y);
    ortkit_tensor_free(y);
    ortkit_tensor_free(inputs[0]);
    ortkit_tensor_free(inputs[1]);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s slow.onnx\n", argv[0]);
        return 2;
    }
    ortkit_runtime *rt = NULL;
    ortkit_session *session = NULL;
    ortkit_run_control *control = NULL;
    int status = 1;

    ortkit_session_options opts = ORTKIT_SESSION_OPTIONS_INIT;
    opts.intra_op_threads = 1;
    if (ortkit_runtime_open(&rt, NULL) || ortkit_session_open(&session, rt, argv[1], &opts) ||
        ortkit_run_control_new(&control, session)) {
        fprintf(stderr, "cancel: %s\n", ortkit_error_last());
        goto done;
    }

    /* Start the long run on its own thread... */
    job j = {session, control, LONG_RUN, 1};
    pthread_t thread;
    double start = now();
    if (pthread_create(&thread, NULL, run, &j)) {
        fprintf(stderr, "cancel: cannot start a thread\n");
        goto done;
    }
    /* ...let it work for a moment, then cancel it from here. */
    nanosleep(&(struct timespec){0, 200 * 1000 * 1000}, NULL);
    ortkit_run_control_cancel(control);
    pthread_join(thread, NULL);
    double elapsed = now() - start;
    printf("run of %d iterations: %s after %.3f s\n", LONG_RUN, ortkit_status_name(j.rc), elapsed);
    /* Had the cancel not worked, the run would have finished (rc 0) tens of
     * seconds later; any other code is a failure of its own. */
    if (j.rc != ORTKIT_E_CANCELLED) {
        fprintf(stderr, "cancel: expected ORTKIT_E_CANCELLED, got %s: %s\n", ortkit_status_name(j.rc),
                ortkit_error_last());
        goto done;
    }

    /* The control stays cancelled until it is reset; then it runs again. */
    j.iterations = 3;
    run(&j);
    printf("short run, control still cancelled: %s\n", ortkit_status_name(j.rc));
    if (j.rc != ORTKIT_E_CANCELLED)
        goto done;
    ortkit_run_control_reset(control);
    run(&j);
    printf("short run after reset: %s\n", ortkit_status_name(j.rc));
    status = j.rc == ORTKIT_OK ? 0 : 1;
done:
    ortkit_run_control_free(control);
    ortkit_session_free(session);
    ortkit_runtime_free(rt);
    return status;
}
