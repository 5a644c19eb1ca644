/*
 * inputs.h - what `ortkit run` and `ortkit bench` share: model inputs from
 * .npy files or generated.
 */
#ifndef ORTKIT_CLI_INPUTS_H
#define ORTKIT_CLI_INPUTS_H

#include "opt.h"
#include "ortkit.h"
#include "values.h"

#include <stddef.h>

#define INPUTS_MAX 256
#define SHAPES_MAX 64

/* A whole input's shape for a generated input (--shape x=1,12): what a
 * dimension without a name in the model, which no --dim can set, needs. */
typedef struct shape_value {
    const char *name;
    const char *text; /* "1,12", as given */
    size_t rank;
    int64_t dims[ORTKIT_MAX_RANK];
} shape_value;

/* The inputs a command line asked for; zero-initialise, then fill. */
typedef struct input_spec {
    const char *names[INPUTS_MAX]; /* NULL: the model's only input */
    const char *files[INPUTS_MAX];
    size_t n_files;
    dim_value dims[INPUTS_MAX];
    size_t n_dims;
    shape_value shapes[SHAPES_MAX];
    size_t n_shapes;
    fill_mode fill;    /* for inputs no file gives; FILL_NONE: they are an error */
    unsigned seed;     /* for FILL_RANDOM */
} input_spec;

/*
 * Option parsers.  arg is modified in place (split at '=').  0 on success;
 * otherwise CLI_USAGE, with the message printed for command cmd.
 */
int input_spec_add_file(input_spec *spec, const char *cmd, char *arg);   /* -i NAME=FILE */
int input_spec_add_dim(input_spec *spec, const char *cmd, char *arg);    /* --dim SYMBOL=SIZE */
int input_spec_add_shape(input_spec *spec, const char *cmd, char *arg);  /* --shape NAME=D0,D1,... */
/* The same as CLI_OPT_CALL functions, for a row whose field is an input_spec. */
int input_opt_file(cli_opt_parser *p, void *spec, char *value);
int input_opt_dim(cli_opt_parser *p, void *spec, char *value);
int input_opt_shape(cli_opt_parser *p, void *spec, char *value);

/*
 * Each --shape against session s: an input of that name, a tensor, of the
 * model's rank (any, when the model gives none), and the model's fixed
 * dimensions.  0, or CLI_FAIL after saying why.
 */
int input_shapes_check(const input_spec *spec, const char *model, const ortkit_session *s);
/* The --shape given for input name, or NULL. */
const shape_value *input_spec_shape(const input_spec *spec, const char *name);
/* "[4,12]" (a scalar: "[]"). */
void shape_text(const shape_value *sh, char *buf, size_t size);

/*
 * The sizes spec gives, in the form of ortkit_runtime_options' model_shapes
 * (what choosing by measurement is keyed by): "SYMBOL=SIZE" for each --dim,
 * "NAME=[D0,D1,...]" for each --shape and each named .npy input (the shape
 * its file holds), separated by commas; inputs given in other files, or
 * without a name, are left out.  "" when nothing is given.  0, or -1 when
 * it does not fit in size.
 */
int input_spec_shapes(const input_spec *spec, char *buf, size_t size);

/*
 * Build every input of session s, in model order, as values: from the
 * spec's files (.npy, .json, a sequence's directory), the rest generated
 * (of the --shape given, else the model's shape with --dim's sizes);
 * an optional input neither given nor generated holds none.  names[i] gets
 * each input's name.  0 on success; CLI_FAIL after printing why (values made
 * so far stay for the caller to free).
 */
int inputs_build(const input_spec *spec, const char *model, const ortkit_session *s,
                 ortkit_value **values, const char **names);

#endif
