/*
 * ortkit/run.h - running a session on tensors or on values of any kind, and
 * cancelling a run.
 *
 * A session may be run from many threads at once.
 *
 * Part of the stable API; programs include <ortkit.h>.
 */
#ifndef ORTKIT_INCLUDE_RUN_H
#define ORTKIT_INCLUDE_RUN_H

#include "ortkit/common.h"
#include "ortkit/session.h"
#include "ortkit/tensor.h"
#include "ortkit/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Lets another thread cancel a run in progress. */
typedef struct ortkit_run_control ortkit_run_control;

ORTKIT_API int ortkit_run_control_new(ortkit_run_control **out, ortkit_session *session);
/* Thread-safe.  Runs using this control fail with ORTKIT_E_CANCELLED until reset. */
ORTKIT_API void ortkit_run_control_cancel(ortkit_run_control *control);
ORTKIT_API void ortkit_run_control_reset(ortkit_run_control *control);
ORTKIT_API void ortkit_run_control_free(ortkit_run_control *control);

/*
 * Run the model.  Inputs are matched by name and checked against the model
 * before ORT sees them; their memory is used in place.  output_names may be
 * NULL (n_outputs == 0) for every output in model order; outputs must then
 * have room for ortkit_session_output_count() entries.  On success each
 * outputs[i] is a new tensor for the caller to free; on failure none are set.
 * Every input and output must be a tensor (ORTKIT_E_UNSUPPORTED otherwise):
 * other kinds go through ortkit_session_run_values.
 * control may be NULL.
 */
ORTKIT_API int ortkit_session_run(ortkit_session *session, ortkit_run_control *control,
                                  const char *const *input_names,
                                  const ortkit_tensor *const *inputs, size_t n_inputs,
                                  const char *const *output_names, size_t n_outputs,
                                  ortkit_tensor **outputs);

/*
 * Run the model on values of any kind (ortkit/value.h): tensors, sequences,
 * maps and optionals, as the model declares them.  The same rules as
 * ortkit_session_run; besides:
 * - an input declared optional takes a value of its contained type, an
 *   optional value, or nothing (left out of input_names): none;
 * - outputs are values of the model's kinds; an optional output is always
 *   an optional value (holding none, or the value).
 * Memory: tensors, alone or in a sequence, are passed in place (a
 * sequence's runtime value is made once and kept, as a tensor's is); maps
 * are copied into the runtime on every run, since it keeps them in its own
 * form.  Output tensors are wrapped as they come; each element of an output
 * sequence and both halves of an output map are copies the runtime makes.
 */
ORTKIT_API int ortkit_session_run_values(ortkit_session *session, ortkit_run_control *control,
                                         const char *const *input_names,
                                         const ortkit_value *const *inputs, size_t n_inputs,
                                         const char *const *output_names, size_t n_outputs,
                                         ortkit_value **outputs);

/* The simple case: inputs in model order, every output in model order. */
ORTKIT_API int ortkit_session_infer(ortkit_session *session,
                                    const ortkit_tensor *const *inputs, size_t n_inputs,
                                    ortkit_tensor **outputs, size_t n_outputs);

#ifdef __cplusplus
}
#endif

#endif /* ORTKIT_INCLUDE_RUN_H */
