/* inputs.c - model inputs and provider lists for `ortkit run` and `ortkit bench`. */
#include "inputs.h"
#include "cli.h"
#include "value_files.h"

#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

int input_spec_add_file(input_spec *spec, const char *cmd, char *arg)
{
    if (spec->n_files == INPUTS_MAX)
        return cli_usage(cmd, "too many -i options");
    char *eq = strchr(arg, '=');
    spec->names[spec->n_files] = eq ? arg : NULL;
    spec->files[spec->n_files] = eq ? eq + 1 : arg;
    if (eq)
        *eq = '\0';
    if (eq && (!arg[0] || !eq[1]))
        return cli_usage(cmd, "-i wants NAME=FILE.npy");
    spec->n_files++;
    return 0;
}

int input_opt_file(cli_opt_parser *p, void *spec, char *value)
{
    return input_spec_add_file(spec, p->spec->command, value);
}

int input_opt_dim(cli_opt_parser *p, void *spec, char *value)
{
    return input_spec_add_dim(spec, p->spec->command, value);
}

int input_opt_shape(cli_opt_parser *p, void *spec, char *value)
{
    return input_spec_add_shape(spec, p->spec->command, value);
}

int input_spec_add_dim(input_spec *spec, const char *cmd, char *arg)
{
    char *eq = strchr(arg, '=');
    long v;
    if (!eq || eq == arg || cli_parse_long(eq + 1, 0, LONG_MAX, &v))
        return cli_usage(cmd, "--dim wants SYMBOL=SIZE, SIZE a whole number from 0 to %d, got '%s'",
                         INT32_MAX, arg);
    if (v > INT32_MAX)
        return cli_usage(cmd, "--dim %s: a dimension is at most %d (INT32_MAX)", arg, INT32_MAX);
    for (size_t i = 0; i < spec->n_dims; i++)
        if (!strncmp(spec->dims[i].symbol, arg, (size_t)(eq - arg)) &&
            !spec->dims[i].symbol[eq - arg])
            return cli_usage(cmd, "--dim %.*s is given twice (=%lld and =%s); give it once",
                             (int)(eq - arg), arg, (long long)spec->dims[i].value, eq + 1);
    if (spec->n_dims == INPUTS_MAX)
        return cli_usage(cmd, "too many --dim options");
    *eq = '\0';
    spec->dims[spec->n_dims++] = (dim_value){arg, v};
    return 0;
}

int input_spec_add_shape(input_spec *spec, const char *cmd, char *arg)
{
    /* The last '=': a shape holds none, an input's name may. */
    char *eq = strrchr(arg, '=');
    if (!eq || eq == arg)
        return cli_usage(cmd, "--shape wants NAME=D0,D1,... (the input's whole shape; NAME= for a "
                         "scalar), got '%s'", arg);
    *eq = '\0';
    if (input_spec_shape(spec, arg))
        return cli_usage(cmd, "--shape %s is given twice; give it once", arg);
    if (spec->n_shapes == SHAPES_MAX)
        return cli_usage(cmd, "too many --shape options (at most %d)", SHAPES_MAX);
    shape_value *sh = &spec->shapes[spec->n_shapes];
    sh->name = arg;
    sh->text = eq + 1;
    sh->rank = 0;
    for (const char *p = eq + 1; *p;) {
        size_t len = strcspn(p, ",");
        char word[32];
        long v;
        snprintf(word, sizeof word, "%.*s", (int)(len < sizeof word ? len : sizeof word - 1), p);
        if (len >= sizeof word || cli_parse_long(word, 0, INT32_MAX, &v) ||
            (p[len] == ',' && !p[len + 1]))
            return cli_usage(cmd, "--shape %s=%s: each dimension is a whole number from 0 to %d, "
                             "separated by commas", arg, sh->text, INT32_MAX);
        if (sh->rank == ORTKIT_MAX_RANK)
            return cli_usage(cmd, "--shape %s=%s: at most %d dimensions", arg, sh->text,
                             ORTKIT_MAX_RANK);
        sh->dims[sh->rank++] = v;
        p += len + (p[len] == ',');
    }
    spec->n_shapes++;
    return 0;
}

const shape_value *input_spec_shape(const input_spec *spec, const char *name)
{
    for (size_t k = 0; k < spec->n_shapes; k++)
        if (!strcmp(spec->shapes[k].name, name))
            return &spec->shapes[k];
    return NULL;
}

void shape_text(const shape_value *sh, char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "[");
    for (size_t d = 0; d < sh->rank && used < size; d++)
        used += (size_t)snprintf(buf + used, size - used, "%s%lld", d ? "," : "",
                                 (long long)sh->dims[d]);
    if (used < size)
        snprintf(buf + used, size - used, "]");
}

/* "a, b, c": the model's input names, for a message about a name it lacks. */
static void input_list(const ortkit_session *s, char *buf, size_t size)
{
    buf[0] = '\0';
    for (size_t i = 0; i < ortkit_session_input_count(s); i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, size - used, "%s%s", i ? ", " : "", ortkit_session_input(s, i)->name);
    }
}

int input_shapes_check(const input_spec *spec, const char *model, const ortkit_session *s)
{
    for (size_t k = 0; k < spec->n_shapes; k++) {
        const shape_value *sh = &spec->shapes[k];
        long idx = ortkit_session_input_index(s, sh->name);
        if (idx < 0) {
            char list[1024];
            input_list(s, list, sizeof list);
            return cli_fail("--shape %s=%s: '%s' has no input named '%s' (its inputs: %s)",
                            sh->name, sh->text, model, sh->name, list);
        }
        const ortkit_io_info *io = ortkit_session_input(s, (size_t)idx);
        char type[512];
        ortkit_io_describe(io, type, sizeof type);
        if (io->kind != ORTKIT_KIND_TENSOR)
            return cli_fail("--shape %s=%s: input '%s' is %s, not a tensor; give it with -i %s=PATH",
                            sh->name, sh->text, sh->name, type, sh->name);
        if (io->rank == SIZE_MAX) /* no shape in the model: any rank */
            continue;
        if (io->rank != sh->rank)
            return cli_fail("--shape %s=%s: input '%s' is %s: give %zu dimension%s", sh->name,
                            sh->text, sh->name, type, io->rank, io->rank == 1 ? "" : "s");
        for (size_t d = 0; d < io->rank; d++)
            if (io->dims[d].value >= 0 && io->dims[d].value != sh->dims[d])
                return cli_fail("--shape %s=%s: input '%s' is %s: dimension %zu is %lld", sh->name,
                                sh->text, sh->name, type, d, (long long)io->dims[d].value);
    }
    return 0;
}

/* Whether symbol already has a size in dims. */
static int has_dim(const dim_value *dims, size_t n, const char *symbol)
{
    for (size_t k = 0; k < n; k++)
        if (!strcmp(dims[k].symbol, symbol))
            return 1;
    return 0;
}

/*
 * The --dim sizes, then the sizes that inputs read from files give their
 * symbols: with a [2,3] file for a float32[N,3] input, a generated input
 * float32[N,3] is also [2,3].  An input of the wrong rank is left for the
 * check before the run to report.
 */
static size_t known_dims(const input_spec *spec, const ortkit_session *s, ortkit_value *const *values,
                         dim_value *dims, size_t n, size_t cap)
{
    for (size_t i = 0; i < ortkit_session_input_count(s); i++) {
        const ortkit_io_info *io = ortkit_session_input(s, i);
        const ortkit_tensor *t = ortkit_value_tensor(values[i]);
        if (!t || io->kind != ORTKIT_KIND_TENSOR || io->rank != ortkit_tensor_rank(t))
            continue;
        for (size_t d = 0; d < io->rank && n < cap; d++) {
            const char *sym = io->dims[d].symbol;
            if (io->dims[d].value < 0 && sym[0] && !has_dim(dims, n, sym))
                dims[n++] = (dim_value){sym, ortkit_tensor_shape(t)[d]};
        }
    }
    return n;
}

/*
 * The --dim sizes, then those each --shape gives its input's symbols (so
 * that other generated inputs with the symbol agree); a symbol sized two
 * ways is refused.  The count, or (size_t)-1 after saying why.
 */
static size_t given_dims(const input_spec *spec, const ortkit_session *s, dim_value *dims, size_t cap)
{
    size_t n = spec->n_dims;
    memcpy(dims, spec->dims, n * sizeof *dims);
    for (size_t k = 0; k < spec->n_shapes; k++) {
        const shape_value *sh = &spec->shapes[k];
        const ortkit_io_info *io = ortkit_session_input(s, (size_t)ortkit_session_input_index(s, sh->name));
        for (size_t d = 0; io->rank == sh->rank && d < io->rank; d++) {
            const char *sym = io->dims[d].symbol;
            size_t j = 0;
            if (io->dims[d].value >= 0 || !sym[0])
                continue;
            while (j < n && strcmp(dims[j].symbol, sym))
                j++;
            if (j < n && dims[j].value != sh->dims[d]) {
                cli_fail("--shape %s=%s makes %s %lld, but %s makes it %lld", sh->name, sh->text,
                         sym, (long long)sh->dims[d], j < spec->n_dims ? "--dim" : "another --shape",
                         (long long)dims[j].value);
                return (size_t)-1;
            }
            if (j == n && n < cap)
                dims[n++] = (dim_value){sym, sh->dims[d]};
        }
    }
    return n;
}

/* "--shape X=1,12": the model's shape with a size for each dimension (the
 * known ones, else 1), for the message about a dimension without a name. */
static void shape_example(const ortkit_io_info *io, const dim_value *dims, size_t n_dims, char *buf,
                          size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "--shape %s=", io->name);
    for (size_t d = 0; d < io->rank && used < size; d++) {
        int64_t v = io->dims[d].value >= 0 ? io->dims[d].value : 1;
        for (size_t k = 0; io->dims[d].value < 0 && io->dims[d].symbol[0] && k < n_dims; k++)
            if (!strcmp(dims[k].symbol, io->dims[d].symbol))
                v = dims[k].value;
        used += (size_t)snprintf(buf + used, size - used, "%s%lld", d ? "," : "", (long long)v);
    }
}

/* Whether input io has a dimension without a size: 1 among those with a
 * name (and none in dims), 0 among those without. */
static int lacks_size(const ortkit_io_info *io, int named, const dim_value *dims, size_t n_dims)
{
    for (size_t d = 0; io->rank != SIZE_MAX && d < io->rank; d++) {
        const char *sym = io->dims[d].symbol;
        if (io->dims[d].value >= 0 || (sym[0] != 0) != named)
            continue;
        size_t k = 0;
        while (named && k < n_dims && strcmp(dims[k].symbol, sym))
            k++;
        if (!named || k == n_dims)
            return 1;
    }
    return 0;
}

/* An input that is not a plain tensor: generated from its type; an
 * optional not given and not generated holds none. */
static int make_other(ortkit_value **out, const ortkit_io_info *io, fill_mode fill, unsigned *seed)
{
    if (fill == FILL_NONE)
        return ortkit_value_new_optional(out, NULL) ? cli_fail_lib() : 0;
    int rc = make_value(out, io->value_type, fill, seed);
    if (rc == VALUES_NO_RANK) {
        char type[256];
        ortkit_io_describe(io, type, sizeof type);
        return cli_fail("input '%s' (%s): ortkit cannot generate it; give it with -i %s=PATH",
                        io->name, type, io->name);
    }
    return rc ? cli_fail_lib() : 0;
}

int inputs_build(const input_spec *spec, const char *model, const ortkit_session *s,
                 ortkit_value **values, const char **names)
{
    size_t n = ortkit_session_input_count(s);
    for (size_t k = 0; k < spec->n_files; k++) {
        if (!spec->names[k] && n != 1)
            return cli_fail("-i %s: the model has %zu inputs; write -i NAME=FILE", spec->files[k], n);
        const char *name = spec->names[k] ? spec->names[k] : ortkit_session_input(s, 0)->name;
        long idx = ortkit_session_input_index(s, name);
        if (idx < 0) {
            char list[1024];
            input_list(s, list, sizeof list);
            return cli_fail("'%s' has no input named '%s' (its inputs: %s)", model, name, list);
        }
        if (values[idx])
            return cli_fail("input '%s' is given twice", name);
        char what[600];
        snprintf(what, sizeof what, "input '%.500s'", name);
        if (value_load(&values[idx], spec->files[k], ortkit_session_input(s, idx)->value_type, what))
            return CLI_FAIL;
    }
    if (input_shapes_check(spec, model, s))
        return CLI_FAIL;
    for (size_t k = 0; k < spec->n_shapes; k++)
        if (values[ortkit_session_input_index(s, spec->shapes[k].name)])
            return cli_fail("input '%s' is given with -i and --shape: --shape is the shape of a "
                            "generated input; give one", spec->shapes[k].name);
    dim_value dims[2 * INPUTS_MAX + SHAPES_MAX * ORTKIT_MAX_RANK];
    size_t cap = sizeof dims / sizeof dims[0], n_dims = given_dims(spec, s, dims, cap);
    if (n_dims == (size_t)-1)
        return CLI_FAIL;
    n_dims = known_dims(spec, s, values, dims, n_dims, cap);
    unsigned seed = spec->seed;
    char missing[1024] = "", not_given[1024] = "", unnamed[600] = "";
    int named = 0;
    for (size_t i = 0; i < n; i++) {
        const ortkit_io_info *io = ortkit_session_input(s, i);
        names[i] = io->name;
        if (values[i])
            continue;
        if (io->kind == ORTKIT_KIND_OPTIONAL ||
            (io->kind != ORTKIT_KIND_TENSOR && spec->fill != FILL_NONE)) {
            if (make_other(&values[i], io, spec->fill, &seed))
                return CLI_FAIL;
            continue;
        }
        if (spec->fill == FILL_NONE) {
            size_t used = strlen(not_given);
            snprintf(not_given + used, sizeof not_given - used, "%s%s", used ? ", " : "", io->name);
            continue;
        }
        const shape_value *sh = input_spec_shape(spec, io->name);
        /* No rank to generate: any guess would fail inside the model, far from here. */
        if (io->rank == SIZE_MAX && !sh)
            return cli_fail("input '%s' has no shape in the model (%s, any rank): ortkit cannot "
                            "generate it; give it with -i %s=FILE.npy, or its shape with --shape "
                            "%s=D0,D1,...", io->name, ortkit_type_name(io->type), io->name, io->name);
        ortkit_tensor *t = NULL;
        int rc = sh ? make_tensor(&t, io->type, sh->dims, sh->rank, spec->fill, &seed)
                    : make_input(&t, io, spec->fill, dims, n_dims, &seed, missing, sizeof missing);
        if (rc < 0 && !unnamed[0] && lacks_size(io, 0, dims, n_dims))
            shape_example(io, dims, n_dims, unnamed, sizeof unnamed);
        named |= rc < 0 && lacks_size(io, 1, dims, n_dims);
        if (rc == VALUES_NO_RANK)
            return cli_fail("input '%s' has no usable rank in the model: ortkit cannot generate it; "
                            "give it with -i %s=FILE.npy", io->name, io->name);
        if (rc > 0 || (rc < 0 && !missing[0]))
            return cli_fail_lib();
        if (!rc && ortkit_value_new_tensor(&values[i], t)) {
            ortkit_tensor_free(t);
            return cli_fail_lib();
        }
    }
    if (not_given[0])
        return cli_fail("inputs not given: %s (use -i NAME=FILE.npy, --random or --zeros)", not_given);
    /* A dimension without a name has no SYMBOL for --dim: the input's whole
     * shape is what sizes it. */
    if (missing[0] && unnamed[0])
        return cli_fail("symbolic dimensions without a size: %s (%sa dimension without a name has "
                        "no SYMBOL: give the input's whole shape, e.g. %s)", missing,
                        named ? "set each named one with --dim SYMBOL=SIZE; " : "", unnamed);
    if (missing[0])
        return cli_fail("symbolic dimensions without a size: %s (set each with --dim SYMBOL=SIZE)", missing);
    return 0;
}

/* Append "NAME=[D0,D1]" (a leading comma when buf holds something). */
static int append_shape(char *buf, size_t size, const char *name, const int64_t *dims, size_t rank)
{
    size_t len = strlen(buf);
    int n = snprintf(buf + len, size - len, "%s%s=[", len ? "," : "", name);
    for (size_t k = 0; n >= 0 && (size_t)n < size - len && k < rank; k++)
        n += snprintf(buf + len + n, size - len - (size_t)n, "%s%lld", k ? "," : "", (long long)dims[k]);
    if (n >= 0 && (size_t)n < size - len)
        n += snprintf(buf + len + n, size - len - (size_t)n, "]");
    return n < 0 || (size_t)n >= size - len ? -1 : 0;
}

int input_spec_shapes(const input_spec *spec, char *buf, size_t size)
{
    buf[0] = '\0';
    for (size_t i = 0; i < spec->n_dims; i++) {
        size_t len = strlen(buf);
        int n = snprintf(buf + len, size - len, "%s%s=%lld", len ? "," : "", spec->dims[i].symbol,
                         (long long)spec->dims[i].value);
        if (n < 0 || (size_t)n >= size - len)
            return -1;
    }
    for (size_t i = 0; i < spec->n_shapes; i++)
        if (append_shape(buf, size, spec->shapes[i].name, spec->shapes[i].dims, spec->shapes[i].rank))
            return -1;
    for (size_t i = 0; i < spec->n_files; i++) {
        const char *f = spec->files[i];
        size_t len = strlen(f);
        ortkit_tensor *t = NULL;
        if (!spec->names[i] || len < 4 || strcmp(f + len - 4, ".npy") || ortkit_npy_read(&t, f))
            continue; /* the run says what is wrong with it */
        int rc = append_shape(buf, size, spec->names[i], ortkit_tensor_shape(t), ortkit_tensor_rank(t));
        ortkit_tensor_free(t);
        if (rc)
            return -1;
    }
    return 0;
}
