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

int providers_split(const char *cmd, char *list, const char **out, size_t max, size_t *n)
{
    if (!list)
        return 0;
    /* strtok would pass over an empty name; a list such as "cuda,,cpu" or
     * ",,," is more likely a mistake than a wish for the default. */
    for (char *p = list, *next;; p = next + 1) {
        next = p + strcspn(p, ",");
        int last = *next == '\0';
        *next = '\0';
        if (!*p)
            return cli_usage(cmd, "--ep wants provider names separated by commas, without empty "
                             "ones (such as cuda,cpu)");
        if (*n == max)
            return cli_usage(cmd, "too many providers in --ep");
        out[(*n)++] = p;
        if (last)
            return 0;
    }
}

void providers_warn_skipped(const ortkit_session *s)
{
    int skipped = 0, other = 0;
    for (size_t i = 0; i < ortkit_session_provider_count(s); i++) {
        const ortkit_provider_status *p = ortkit_session_provider(s, i);
        if (!p->active) {
            cli_warn("provider '%s' skipped: %s", p->requested, p->reason);
            if (p->detail[0])
                cli_warn("provider '%s': ONNX Runtime said: %s", p->requested, p->detail);
            skipped = 1;
        } else if (strcmp(p->name, "CPUExecutionProvider")) {
            other = 1;
        }
    }
    if (skipped && !other) /* never a silent fallback */
        cli_warn("the session runs on the CPU only (--strict fails instead)");
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
                         dim_value *dims, size_t cap)
{
    size_t n = spec->n_dims;
    memcpy(dims, spec->dims, n * sizeof *dims);
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
    dim_value dims[2 * INPUTS_MAX];
    size_t n_dims = known_dims(spec, s, values, dims, sizeof dims / sizeof dims[0]);
    unsigned seed = spec->seed;
    char missing[1024] = "", not_given[1024] = "";
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
        /* No rank to generate: any guess would fail inside the model, far from here. */
        if (io->rank == SIZE_MAX)
            return cli_fail("input '%s' has no shape in the model (%s, any rank): ortkit cannot "
                            "generate it; give it with -i %s=FILE.npy", io->name,
                            ortkit_type_name(io->type), io->name);
        ortkit_tensor *t = NULL;
        int rc = make_input(&t, io, spec->fill, dims, n_dims, &seed, missing, sizeof missing);
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
    if (missing[0])
        return cli_fail("symbolic dimensions without a size: %s (set each with --dim SYMBOL=SIZE)", missing);
    return 0;
}
