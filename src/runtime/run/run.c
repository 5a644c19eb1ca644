/*
 * run.c - running a session: inputs checked against the model, passed to
 * ORT without copying, outputs handed back as tensors that own ORT's memory.
 */
#include "session_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Whether a failed run was cancelled is decided from that run alone, never
 * from the control's state when the run has returned: another thread may
 * have reset it in between (and a reset is how a control is used again).
 * A run counts as cancelled when ONNX Runtime stopped it for the terminate
 * flag (its status says so, and only this control sets that flag), or when
 * the control was cancelled at its start or during it: cancels are
 * counted, and the run compares the count before and after.
 */
struct ortkit_run_control {
    ortkit_runtime *rt;
    OrtRunOptions *options;
    atomic_int cancelled;
    atomic_uint cancels; /* ortkit_run_control_cancel calls so far */
};

int ortkit_run_control_new(ortkit_run_control **out, ortkit_session *s)
{
    if (!out || !s)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_run_control_new: NULL argument");
    *out = NULL;
    ortkit_run_control *c = calloc(1, sizeof *c);
    if (!c)
        return ortkit__error_nomem();
    OrtStatus *st = s->rt->api->CreateRunOptions(&c->options);
    if (st) {
        free(c);
        return ortkit__ort_error(s->rt, st, ORTKIT_E_ORT, "cannot create run options");
    }
    ortkit__runtime_ref(s->rt);
    c->rt = s->rt;
    *out = c;
    return ORTKIT_OK;
}

void ortkit_run_control_cancel(ortkit_run_control *c)
{
    if (!c)
        return;
    atomic_fetch_add(&c->cancels, 1);
    atomic_store(&c->cancelled, 1);
    OrtStatus *st = c->rt->api->RunOptionsSetTerminate(c->options);
    if (st)
        c->rt->api->ReleaseStatus(st);
}

void ortkit_run_control_reset(ortkit_run_control *c)
{
    if (!c)
        return;
    OrtStatus *st = c->rt->api->RunOptionsUnsetTerminate(c->options);
    if (st)
        c->rt->api->ReleaseStatus(st);
    atomic_store(&c->cancelled, 0);
}

void ortkit_run_control_free(ortkit_run_control *c)
{
    if (!c)
        return;
    c->rt->api->ReleaseRunOptions(c->options);
    ortkit_runtime_free(c->rt);
    free(c);
}

/* Does the tensor fit what the model declares?  Symbolic dims fit any
 * size; a type without a shape (rank SIZE_MAX) fits any shape. */
static int input_fits(const ortkit_io_info *io, const ortkit_tensor *t)
{
    if (io->type != t->type)
        return 0;
    if (io->rank == SIZE_MAX)
        return 1;
    if (io->rank != t->rank)
        return 0;
    for (size_t d = 0; d < io->rank; d++)
        if (io->dims[d].value >= 0 && io->dims[d].value != t->shape[d])
            return 0;
    return 1;
}

static int input_mismatch(const ortkit_io_info *io, const ortkit_tensor *t)
{
    char want[256], got[256];
    ortkit_io_describe(io, want, sizeof want);
    ortkit_tensor_describe(t, got, sizeof got);
    return ortkit__error_set(ORTKIT_E_SHAPE, "input '%s' expects %s, got %s", io->name, want, got);
}

static const char *const kind_names[] = {"an unknown value", "a tensor", "a sequence", "a map",
                                         "an optional", "a sparse tensor"};

/* What one run is given and gives back: tensors (ortkit_session_run) or
 * values (ortkit_session_run_values), never both. */
typedef struct run_io {
    const char *const *input_names;
    const ortkit_tensor *const *tensors;
    const ortkit_value *const *values;
    size_t n_inputs;
    const char *const *output_names;
    size_t n_outputs;
    ortkit_tensor **tensors_out;
    ortkit_value **values_out;
    const char *fn; /* the API function, for messages */
} run_io;

static int check_input(const ortkit_session *s, size_t idx, const run_io *io, size_t i)
{
    const ortkit_io_info *info = &s->inputs[idx];
    if (io->tensors)
        return input_fits(info, io->tensors[i]) ? ORTKIT_OK : input_mismatch(info, io->tensors[i]);
    const ortkit_value *v = io->values[i];
    if (v->type.kind == ORTKIT_KIND_TENSOR && info->kind == ORTKIT_KIND_TENSOR)
        return input_fits(info, v->tensor) ? ORTKIT_OK : input_mismatch(info, v->tensor);
    if (ortkit__value_type_fits(info->value_type, &v->type))
        return ORTKIT_OK;
    char want[256], got[256];
    ortkit_io_describe(info, want, sizeof want);
    ortkit_value_describe(v, got, sizeof got);
    return ortkit__error_set(ORTKIT_E_SHAPE, "input '%s' expects %s, got %s", info->name, want, got);
}

static void free_outputs(const run_io *io, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (io->tensors_out) {
            ortkit_tensor_free(io->tensors_out[i]);
            io->tensors_out[i] = NULL;
        } else {
            ortkit_value_free(io->values_out[i]);
            io->values_out[i] = NULL;
        }
    }
}

/* Each input given named in the model's own strings (in_names), once, not
 * NULL, and checked against its declaration; every input the model needs
 * given (given: which were). */
static int name_inputs(const ortkit_session *s, const run_io *io, const void *const *inputs,
                       unsigned char *given, const char **in_names)
{
    const char *const *input_names = io->input_names;
    size_t n_inputs = io->n_inputs;
    int io_values = io->values_out != NULL, rc;
    for (size_t i = 0; i < n_inputs; i++) {
        long idx = ortkit_session_input_index(s, input_names[i]);
        if (idx < 0)
            return ortkit__error_set(ORTKIT_E_NAME, "'%s' has no input named '%s'", s->label,
                                     input_names[i] ? input_names[i] : "(null)");
        if (given[idx])
            return ortkit__error_set(ORTKIT_E_NAME, "input '%s' is given twice", input_names[i]);
        given[idx] = 1;
        /* ORT is given the model's own name strings. */
        in_names[i] = s->inputs[idx].name;
        if (!inputs[i])
            return ortkit__error_set(ORTKIT_E_INVALID_ARG, "input '%s' is NULL", input_names[i]);
        if ((rc = check_input(s, idx, io, i)))
            return rc;
    }
    for (size_t i = 0; i < s->input_count; i++)
        if (!given[i] && !(io_values && s->inputs[i].kind == ORTKIT_KIND_OPTIONAL)) {
            char want[256];
            ortkit_io_describe(&s->inputs[i], want, sizeof want);
            return ortkit__error_set(ORTKIT_E_NAME, "missing input '%s' (%s)", s->inputs[i].name,
                                     want);
        }
    return ORTKIT_OK;
}

/* The outputs asked for (all, when none are named), by the model's own
 * names and types; a plain run returns tensors only. */
static int name_outputs(const ortkit_session *s, const run_io *io, size_t n_out, const char **out_names,
                        const ortkit_value_type **out_types)
{
    const char *const *output_names = io->output_names;
    size_t n_outputs = io->n_outputs;
    int io_values = io->values_out != NULL;
    for (size_t i = 0; i < n_out; i++) {
        long idx = n_outputs ? ortkit_session_output_index(s, output_names[i]) : (long)i;
        if (idx < 0)
            return ortkit__error_set(ORTKIT_E_NAME, "'%s' has no output named '%s'", s->label,
                                     output_names[i] ? output_names[i] : "(null)");
        const ortkit_io_info *info = &s->outputs[idx];
        if (!io_values && info->kind != ORTKIT_KIND_TENSOR)
            return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "output '%s' is %s; "
                                     "ortkit_session_run_values returns it", info->name,
                                     kind_names[info->kind <= 5 ? info->kind : 0]);
        out_names[i] = info->name;
        out_types[i] = info->value_type;
    }
    return ORTKIT_OK;
}

static int run(ortkit_session *s, ortkit_run_control *control, const run_io *io)
{
    if (!s || !(io->tensors_out || io->values_out) || (io->n_inputs && (!(io->tensors || io->values) ||
        !io->input_names)) || (io->n_outputs && !io->output_names))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "%s: NULL argument", io->fn);
    size_t n_inputs = io->n_inputs, n_outputs = io->n_outputs;
    const void *const *inputs = io->tensors ? (const void *const *)io->tensors
                                            : (const void *const *)io->values;
    int io_values = io->values_out != NULL;
    if (control && control->rt != s->rt)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "run control belongs to another runtime");
    const OrtApi *api = s->rt->api;
    size_t n_out = n_outputs ? n_outputs : s->output_count;
    enum { SMALL = 16 };
    OrtValue *in_small[SMALL], *out_small[SMALL];
    const ortkit_value_type *type_small[SMALL];
    const ortkit_value_type **out_types = type_small;
    const char *in_name_small[SMALL], *out_name_small[SMALL];
    unsigned char temp_small[SMALL], given_small[SMALL];
    OrtValue **in_values = in_small, **out_values = out_small;
    const char **in_names = in_name_small, **out_names = out_name_small;
    unsigned char *temp = temp_small, *given = given_small;
    int rc = ORTKIT_OK;
    size_t made = 0, fed = 0;

    /* Most models have few inputs and outputs: use the stack when they fit. */
    if (n_inputs > SMALL || s->input_count > SMALL || n_out > SMALL) {
        size_t ni = n_inputs > s->input_count ? n_inputs : s->input_count;
        in_values = calloc(ni + 1, sizeof *in_values);
        in_names = calloc(ni + 1, sizeof *in_names);
        temp = calloc(ni + 1, 1);
        given = calloc(ni + 1, 1);
        out_values = calloc(n_out + 1, sizeof *out_values);
        out_names = calloc(n_out + 1, sizeof *out_names);
        out_types = calloc(n_out + 1, sizeof *out_types);
        if (!in_values || !in_names || !temp || !given || !out_values || !out_names || !out_types) {
            rc = ortkit__error_nomem();
            goto cleanup;
        }
    }
    memset(given, 0, s->input_count);
    memset(out_values, 0, n_out * sizeof *out_values);

    if ((rc = name_inputs(s, io, inputs, given, in_names)))
        goto cleanup;
    if ((rc = name_outputs(s, io, n_out, out_names, out_types)))
        goto cleanup;
    /* An optional holding none is left out: the runtime takes a missing
     * optional input as none. */
    for (made = 0; made < n_inputs; made++) {
        int t = 0, omit = 0;
        rc = io->tensors ? ortkit__run_tensor_in(s, io->tensors[made], &in_values[fed], &t)
                         : ortkit__run_value_in(s, in_names[made], io->values[made],
                                                &in_values[fed], &t, &omit);
        if (rc)
            goto cleanup;
        if (omit)
            continue;
        in_names[fed] = in_names[made];
        temp[fed++] = (unsigned char)t;
    }

    /* This run's own record: the control's state as the run starts. */
    unsigned cancels_before = control ? atomic_load(&control->cancels) : 0;
    int cancelled_before = control ? atomic_load(&control->cancelled) : 0;
    OrtStatus *st = api->Run(s->ort, control ? control->options : NULL, in_names,
                             (const OrtValue *const *)in_values, fed, out_names, n_out,
                             out_values);
    if (st) {
        const char *msg = api->GetErrorMessage(st);
        if (control && (cancelled_before || atomic_load(&control->cancels) != cancels_before ||
                        (msg && strstr(msg, "terminate flag")))) {
            api->ReleaseStatus(st);
            rc = ortkit__error_set(ORTKIT_E_CANCELLED, "run of '%s' was cancelled", s->label);
        } else {
            rc = ortkit__ort_error(s->rt, st, ORTKIT_E_RUN, "running '%s' failed", s->label);
        }
        goto cleanup;
    }
    size_t done = 0;
    for (; done < n_out; done++) {
        OrtValue *v = out_values[done];
        out_values[done] = NULL;
        rc = io_values ? ortkit__run_value_out(s, out_names[done], out_types[done], v,
                                               &io->values_out[done])
                       : ortkit__run_tensor_out(s, out_names[done], v, &io->tensors_out[done]);
        if (rc)
            break;
    }
    if (rc)
        free_outputs(io, done);
cleanup:
    for (size_t i = 0; i < fed; i++)
        if (temp[i])
            api->ReleaseValue(in_values[i]);
    for (size_t i = 0; out_values && i < n_out; i++)
        if (out_values[i])
            api->ReleaseValue(out_values[i]);
    if (in_values != in_small) {
        free(in_values);
        free(in_names);
        free(temp);
        free(given);
        free(out_values);
        free(out_names);
        free(out_types);
    }
    return rc;
}

int ortkit_session_run(ortkit_session *s, ortkit_run_control *control,
                       const char *const *input_names, const ortkit_tensor *const *inputs,
                       size_t n_inputs, const char *const *output_names, size_t n_outputs,
                       ortkit_tensor **outputs)
{
    run_io io = {input_names, inputs, NULL, n_inputs, output_names, n_outputs, outputs, NULL,
                 "ortkit_session_run"};
    return run(s, control, &io);
}

int ortkit_session_run_values(ortkit_session *s, ortkit_run_control *control,
                              const char *const *input_names, const ortkit_value *const *inputs,
                              size_t n_inputs, const char *const *output_names, size_t n_outputs,
                              ortkit_value **outputs)
{
    run_io io = {input_names, NULL, inputs, n_inputs, output_names, n_outputs, NULL, outputs,
                 "ortkit_session_run_values"};
    return run(s, control, &io);
}

int ortkit_session_infer(ortkit_session *s, const ortkit_tensor *const *inputs, size_t n_inputs,
                         ortkit_tensor **outputs, size_t n_outputs)
{
    if (!s)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_session_infer: session is NULL");
    if (n_inputs != s->input_count)
        return ortkit__error_set(ORTKIT_E_NAME, "'%s' takes %zu inputs, got %zu", s->label,
                                 s->input_count, n_inputs);
    if (n_outputs < s->output_count)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                 "'%s' has %zu outputs; room was given for %zu", s->label,
                                 s->output_count, n_outputs);
    return ortkit_session_run(s, NULL, s->input_names, inputs, n_inputs, NULL, 0, outputs);
}
