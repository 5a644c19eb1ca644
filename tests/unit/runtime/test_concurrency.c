/*
 * test_concurrency.c - one session of a real model run from 8 threads, 500
 * runs each, with everything freed in the orders a program may choose:
 * outputs freed on another thread than the one that ran, the session freed
 * while outputs are still held, the runtime freed before the session, the
 * shared input (and the runtime value it caches) freed last of all; and a
 * control cancelled and reset from another thread the while.  Every run
 * must end ok, with the single-threaded answer, or cancelled.
 *
 * It runs in every build, under AddressSanitizer in `make test-asan`, and
 * under ThreadSanitizer in `make test-tsan` (tests/tsan.supp says what of
 * ONNX Runtime's own is left out there).
 */
#include "testutil.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

enum { THREADS = 8, RUNS = 500, KEEP = 3, QUEUE = 64 };

/* Outputs handed from the running threads to the one that frees them. */
typedef struct queue {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    ortkit_tensor *items[QUEUE];
    size_t n;
    int closed;
    size_t freed;
} queue;

static void queue_put(queue *q, ortkit_tensor *t)
{
    pthread_mutex_lock(&q->lock);
    while (q->n == QUEUE)
        pthread_cond_wait(&q->changed, &q->lock);
    q->items[q->n++] = t;
    pthread_cond_broadcast(&q->changed);
    pthread_mutex_unlock(&q->lock);
}

/* Frees what arrives, newest first, a batch at a time: in no order the
 * running threads made them. */
static void *reaper(void *arg)
{
    queue *q = arg;
    ortkit_tensor *batch[QUEUE];
    for (;;) {
        pthread_mutex_lock(&q->lock);
        while (!q->n && !q->closed)
            pthread_cond_wait(&q->changed, &q->lock);
        size_t n = q->n;
        memcpy(batch, q->items, n * sizeof *batch);
        q->n = 0;
        int closed = q->closed;
        pthread_cond_broadcast(&q->changed);
        pthread_mutex_unlock(&q->lock);
        for (size_t i = n; i-- > 0;)
            ortkit_tensor_free(batch[i]);
        q->freed += n; /* only this thread writes it */
        if (closed && !n)
            return NULL;
    }
}

typedef struct shared {
    ortkit_session *session;
    ortkit_run_control *control;
    const ortkit_tensor *x;        /* one input for every thread: its cached value is shared */
    const ortkit_tensor *expected; /* the single-threaded answer */
    queue q;
    atomic_int done;
} shared;

typedef struct worker {
    shared *sh;
    int id;
    int ok, cancelled, failed, wrong;
    char error[300];
    ortkit_tensor *kept[KEEP]; /* outputs that outlive the session */
} worker;

static int same(const ortkit_tensor *a, const ortkit_tensor *b)
{
    return ortkit_tensor_nbytes(a) == ortkit_tensor_nbytes(b) &&
           !memcmp(ortkit_tensor_data(a), ortkit_tensor_data(b), ortkit_tensor_nbytes(a));
}

static void *work(void *arg)
{
    worker *w = arg;
    shared *sh = w->sh;
    const char *names[] = {"x"};
    for (int i = 0; i < RUNS; i++) {
        /* Every third run feeds a tensor of its own over borrowed memory,
         * freed at once; the others share one. */
        ortkit_tensor *own = NULL;
        const ortkit_tensor *in = sh->x;
        if (i % 3 == 0) {
            if (ortkit_tensor_borrow(&own, ortkit_tensor_type(sh->x), ortkit_tensor_shape(sh->x),
                                     ortkit_tensor_rank(sh->x), (void *)ortkit_tensor_data(sh->x),
                                     ortkit_tensor_nbytes(sh->x))) {
                w->failed++;
                continue;
            }
            in = own;
        }
        /* Odd runs can be cancelled; even runs are not under the control. */
        ortkit_run_control *control = (i + w->id) % 2 ? sh->control : NULL;
        ortkit_tensor *y = NULL;
        int rc = ortkit_session_run(sh->session, control, names, &in, 1, NULL, 0, &y);
        ortkit_tensor_free(own);
        if (rc == ORTKIT_E_CANCELLED && control) {
            w->cancelled++;
            continue;
        }
        if (rc) {
            if (!w->failed++)
                snprintf(w->error, sizeof w->error, "run %d: %s", i, ortkit_error_last());
            continue;
        }
        w->ok++;
        w->wrong += !same(y, sh->expected);
        if (i >= RUNS - KEEP)
            w->kept[i - (RUNS - KEEP)] = y; /* freed after the session */
        else if (i % 2)
            queue_put(&sh->q, y); /* freed on the reaper's thread */
        else
            ortkit_tensor_free(y);
    }
    return NULL;
}

/* Cancelled for about a millisecond, then free for two, until the runs end. */
static void *canceller(void *arg)
{
    shared *sh = arg;
    while (!atomic_load(&sh->done)) {
        ortkit_run_control_cancel(sh->control);
        usleep(1000);
        ortkit_run_control_reset(sh->control);
        usleep(2000);
    }
    return NULL;
}

static void run_threads(const char *runtime_dir)
{
    ortkit_runtime *rt = open_runtime(runtime_dir);
    ortkit_session_options o = ORTKIT_SESSION_OPTIONS_INIT;
    o.intra_op_threads = 1;
    shared sh = {.q = {.lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER}};
    assert_int_equal(ortkit_session_open(&sh.session, rt, model_path("matmul.onnx"), &o), 0);
    /* The runtime goes first: the session and the control keep it alive. */
    assert_int_equal(ortkit_run_control_new(&sh.control, sh.session), 0);
    ortkit_runtime_free(rt);

    ortkit_tensor *x = NULL, *ref = NULL;
    assert_int_equal(ortkit_npy_read(&x, model_path("matmul_x.npy")), 0);
    const char *names[] = {"x"};
    const ortkit_tensor *in[] = {x};
    assert_int_equal(ortkit_session_run(sh.session, NULL, names, in, 1, NULL, 0, &ref), 0);
    sh.x = x;
    sh.expected = ref;

    pthread_t tid[THREADS], reap, cancel;
    worker w[THREADS];
    assert_int_equal(pthread_create(&reap, NULL, reaper, &sh.q), 0);
    assert_int_equal(pthread_create(&cancel, NULL, canceller, &sh), 0);
    for (int t = 0; t < THREADS; t++) {
        w[t] = (worker){.sh = &sh, .id = t};
        assert_int_equal(pthread_create(&tid[t], NULL, work, &w[t]), 0);
    }
    int ok = 0, cancelled = 0;
    for (int t = 0; t < THREADS; t++) {
        pthread_join(tid[t], NULL);
        if (w[t].failed)
            fail_msg("%s: thread %d: %d runs failed; first %s", runtime_dir, t, w[t].failed, w[t].error);
        if (w[t].wrong)
            fail_msg("%s: thread %d: %d outputs differ from the single-threaded run", runtime_dir, t,
                     w[t].wrong);
        ok += w[t].ok;
        cancelled += w[t].cancelled;
    }
    atomic_store(&sh.done, 1);
    pthread_join(cancel, NULL);
    pthread_mutex_lock(&sh.q.lock);
    sh.q.closed = 1;
    pthread_cond_broadcast(&sh.q.changed);
    pthread_mutex_unlock(&sh.q.lock);
    pthread_join(reap, NULL);
    assert_int_equal(ok + cancelled, THREADS * RUNS);
    assert_true(sh.q.freed > 0);
    /* Both outcomes of the runs under the control happened. */
    if (!cancelled || ok <= THREADS * RUNS / 2)
        fail_msg("%s: %d runs ok, %d cancelled", runtime_dir, ok, cancelled);

    /* The control and the session go before the outputs they made, which
     * still hold their values; the shared input goes last. */
    ortkit_run_control_free(sh.control);
    ortkit_session_free(sh.session);
    for (int t = 0; t < THREADS; t++)
        for (int k = 0; k < KEEP; k++) {
            if (w[t].kept[k] && !same(w[t].kept[k], ref))
                fail_msg("%s: a kept output changed after the session was freed", runtime_dir);
            ortkit_tensor_free(w[t].kept[k]);
        }
    ortkit_tensor_free(ref);
    ortkit_tensor_free(x);
}

static void test_threads_new_runtime(void **state)
{
    (void)state;
    run_threads(ORTKIT_TEST_RUNTIME_NEW);
}

static void test_threads_old_runtime(void **state)
{
    (void)state;
    run_threads(ORTKIT_TEST_RUNTIME_OLD);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_new_runtime),
        cmocka_unit_test(test_threads_old_runtime),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
