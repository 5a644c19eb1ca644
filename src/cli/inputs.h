/*
 * inputs.h - what `ortkit run` and `ortkit bench` share: model inputs from
 * .npy files or generated, and the --ep provider list.
 */
#ifndef ORTKIT_CLI_INPUTS_H
#define ORTKIT_CLI_INPUTS_H

#include "ortkit.h"
#include "values.h"

#include <stddef.h>

#define INPUTS_MAX 256

/* The inputs a command line asked for; zero-initialise, then fill. */
typedef struct input_spec {
    const char *names[INPUTS_MAX]; /* NULL: the model's only input */
    const char *files[INPUTS_MAX];
    size_t n_files;
    dim_value dims[INPUTS_MAX];
    size_t n_dims;
    fill_mode fill;    /* for inputs no file gives; FILL_NONE: they are an error */
    unsigned seed;     /* for FILL_RANDOM */
} input_spec;

/*
 * Option parsers.  arg is modified in place (split at '=').  0 on success;
 * otherwise CLI_USAGE, with the message printed for command cmd.
 */
int input_spec_add_file(input_spec *spec, const char *cmd, char *arg);   /* -i NAME=FILE */
int input_spec_add_dim(input_spec *spec, const char *cmd, char *arg);    /* --dim SYMBOL=SIZE */

/* Split "cuda,cpu" in place into out[]; 0, or CLI_USAGE when more than max. */
int providers_split(const char *cmd, char *list, const char **out, size_t max, size_t *n);

/* Warn on stderr about each requested provider the session skipped. */
void providers_warn_skipped(const ortkit_session *s);

/*
 * Build every input of session s, in model order, as values: from the
 * spec's files (.npy, .json, a sequence's directory), the rest generated;
 * an optional input neither given nor generated holds none.  names[i] gets
 * each input's name.  0 on success; CLI_FAIL after printing why (values made
 * so far stay for the caller to free).
 */
int inputs_build(const input_spec *spec, const char *model, const ortkit_session *s,
                 ortkit_value **values, const char **names);

#endif
