/* opt.c - a command's option table: it parses the command line, stores and
 * checks the values, and writes --help. */
#include "opt.h"
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* --help and -h, which every command takes without listing them. */
static const cli_opt implicit_help = {0, "help", 'h', NULL, 0, NULL, .type = CLI_OPT_TYPE_NONE};

static int row_is_end(const cli_opt *o)
{
    return !o->id && !o->name && !o->letter && !o->arg && !o->help && !o->type;
}

static int row_is_bound(const cli_opt *o) { return o->type && o->type != CLI_OPT_TYPE_ARGS; }

static int row_is_option(const cli_opt *o)
{
    return (o->id > 0 || row_is_bound(o)) && (o->name || o->letter);
}

static int row_is_args(const cli_opt *o) { return o->type == CLI_OPT_TYPE_ARGS; }

void cli_opt_init(cli_opt_parser *p, const cli_opt_spec *spec, const cli_opt *opts, int argc,
                  char **argv)
{
    memset(p, 0, sizeof *p);
    p->spec = spec;
    p->opts = opts ? opts : spec->opts;
    p->argc = argc;
    p->argv = argv;
    p->out = stdout;
    p->err = stderr;
    p->args = argc > 0 ? argv + 1 : argv;
    p->next = 1;
}

static int bad(cli_opt_parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(cli_opt_parser *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vusage(p->err, p->spec->command, fmt, ap);
    va_end(ap);
    return CLI_OPT_BAD;
}

/* The same message, for a bad value or count; returns CLI_USAGE. */
static int usage(const cli_opt_parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage(const cli_opt_parser *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vusage(p->err, p->spec->command, fmt, ap);
    va_end(ap);
    return CLI_USAGE;
}

/* Whether the table has an option of this long name or letter itself. */
static int table_has_long(const cli_opt *o, const char *name)
{
    for (; !row_is_end(o); o++)
        if (row_is_option(o) && o->name && !strcmp(o->name, name))
            return 1;
    return 0;
}

static int table_has_letter(const cli_opt *o, char letter)
{
    for (; !row_is_end(o); o++)
        if (row_is_option(o) && o->letter == letter)
            return 1;
    return 0;
}

/*
 * The option a long name (len bytes of name) means: the one of that exact
 * name, else the only one it abbreviates.  NULL when none or several match.
 */
static const cli_opt *find_long(const cli_opt_parser *p, const char *name, size_t len)
{
    const cli_opt *abbreviated = NULL;
    size_t candidates = 0;
    if (len == 0)
        return NULL;
    for (const cli_opt *o = p->opts; !row_is_end(o); o++) {
        if (!row_is_option(o) || !o->name || strncmp(o->name, name, len))
            continue;
        if (!o->name[len])
            return o;
        abbreviated = o;
        candidates++;
    }
    if (!table_has_long(p->opts, implicit_help.name) && !strncmp(implicit_help.name, name, len)) {
        if (!implicit_help.name[len])
            return &implicit_help;
        abbreviated = &implicit_help;
        candidates++;
    }
    return candidates == 1 ? abbreviated : NULL;
}

static const cli_opt *find_letter(const cli_opt_parser *p, char letter)
{
    for (const cli_opt *o = p->opts; !row_is_end(o); o++)
        if (row_is_option(o) && o->letter == letter)
            return o;
    return letter == implicit_help.letter && !table_has_letter(p->opts, letter) ? &implicit_help
                                                                                 : NULL;
}

/* ---- suggestions ---------------------------------------------------------------- */

/* The edit distance (insert, delete, replace, swap two neighbours) between
 * a (alen bytes) and b, stopping at 3: past that nothing is suggested. */
static size_t distance(const char *a, size_t alen, const char *b)
{
    size_t blen = strlen(b);
    if (alen > 40 || blen > 40)
        return 3;
    size_t d[42][42];
    for (size_t i = 0; i <= alen; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= blen; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= alen; i++)
        for (size_t j = 1; j <= blen; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[alen][blen];
}

const char *cli_opt_suggest(const char *word, size_t len, const char *const *names, size_t count)
{
    const char *best = NULL;
    size_t most = len < 4 ? 1 : 2, best_d = most + 1;
    int tie = 0;
    for (size_t i = 0; i < count; i++) {
        size_t d = names[i] ? distance(word, len, names[i]) : most + 1;
        if (d < best_d) {
            best = names[i];
            best_d = d;
            tie = 0;
        } else if (d == best_d && best && strcmp(best, names[i])) {
            tie = 1;
        }
    }
    return best && !tie && best_d > 0 ? best : NULL;
}

/* "; did you mean --threads?" for an unknown long option, else "". */
static void suggest_long(const cli_opt_parser *p, const char *name, size_t len, char *buf,
                         size_t size)
{
    const char *names[256];
    size_t n = 0;
    buf[0] = '\0';
    for (const cli_opt *o = p->opts; !row_is_end(o) && n < 255; o++)
        if (row_is_option(o) && o->name)
            names[n++] = o->name;
    names[n++] = implicit_help.name;
    const char *best = cli_opt_suggest(name, len, names, n);
    if (best)
        snprintf(buf, size, "; did you mean --%s?", best);
}

/* ---- values --------------------------------------------------------------------- */

int cli_opt_bad_value(const cli_opt_parser *p, const char *want)
{
    const cli_opt *o = p->opt;
    char words[256];
    if (!want)
        want = o->want;
    if (!want) {
        /* The type's own words: "a number from 1 to 4096", "on or off". */
        switch (o->type) {
        case CLI_OPT_TYPE_LONG:
            snprintf(words, sizeof words, "a number from %.0f to %.0f", o->min, o->max);
            break;
        case CLI_OPT_TYPE_DOUBLE:
            if (isinf(o->max))
                snprintf(words, sizeof words, "a number >= %g", o->min);
            else
                snprintf(words, sizeof words, "a number from %g to %g", o->min, o->max);
            break;
        case CLI_OPT_TYPE_SIZE:
            snprintf(words, sizeof words, "a size such as 6G");
            break;
        case CLI_OPT_TYPE_CHOICE: {
            /* "on|off" -> "on or off"; "a|b|c" -> "a, b or c" */
            const char *arg = o->arg ? o->arg : "";
            size_t used = 0, bars = 0;
            for (const char *c = arg; *c; c++)
                bars += *c == '|';
            for (const char *w = arg; *w && used < sizeof words;) {
                size_t len = strcspn(w, "|");
                used += (size_t)snprintf(words + used, sizeof words - used, "%.*s%s", (int)len, w,
                                         !w[len] ? "" : --bars ? ", " : " or ");
                w += len + (w[len] == '|');
            }
            break;
        }
        default:
            snprintf(words, sizeof words, "%s", o->arg ? o->arg : "a value");
        }
        want = words;
    }
    return usage(p, "%s wants %s, got '%s'", p->named, want, p->value ? p->value : "");
}

/* "64M" for a size that is a whole number of KiB, MiB, GiB or TiB. */
static void size_text(char *buf, size_t size, uint64_t v)
{
    /* A unit letter as a string of its own: GCC 12 crashes on "%.*s" of
     * &units[u] in its printf checks (-g -fsanitize=address). */
    static const char *const units[] = {"", "K", "M", "G", "T"};
    size_t u = 0;
    while (u < 4 && v && v % 1024 == 0) {
        v /= 1024;
        u++;
    }
    snprintf(buf, size, "%llu%s", (unsigned long long)v, units[u]);
}

/* Read p->value into the field of bound row p->opt: 0, or the exit status after saying why. */
static int store(cli_opt_parser *p)
{
    const cli_opt *o = p->opt;
    char *value = p->value;
    void *field = (char *)p->target + o->offset;
    switch (o->type) {
    case CLI_OPT_TYPE_SET:
        *(int *)field = o->value;
        return 0;
    case CLI_OPT_TYPE_STRING:
        *(char **)field = value;
        return 0;
    case CLI_OPT_TYPE_LONG: {
        long v;
        if (cli_parse_long(value, LONG_MIN, LONG_MAX, &v) || (double)v < o->min ||
            (double)v > o->max)
            return cli_opt_bad_value(p, NULL);
        *(long *)field = v;
        return 0;
    }
    case CLI_OPT_TYPE_DOUBLE: {
        char *end;
        errno = 0;
        double v = strtod(value, &end);
        if (!*value || *end || errno || !isfinite(v) || v < o->min || v > o->max)
            return cli_opt_bad_value(p, NULL);
        *(double *)field = v;
        return 0;
    }
    case CLI_OPT_TYPE_SIZE: {
        uint64_t v;
        if (ortkit__human_parse_size(value, &v))
            return usage(p, "%s wants %s: %s", p->named, o->want ? o->want : "a size such as 6G",
                         ortkit__error_message());
        if ((double)v < o->min) {
            char least[32], want[64];
            size_text(least, sizeof least, (uint64_t)o->min);
            snprintf(want, sizeof want, "a size of at least %s", least);
            return cli_opt_bad_value(p, want);
        }
        *(uint64_t *)field = v;
        return 0;
    }
    case CLI_OPT_TYPE_CHOICE: {
        size_t len = strlen(value);
        int i = 0;
        for (const char *w = o->arg; *w; i++) {
            size_t wlen = strcspn(w, "|");
            if (wlen == len && !strncmp(w, value, len)) {
                *(int *)field = o->values[i];
                return 0;
            }
            w += wlen + (w[wlen] == '|');
        }
        return cli_opt_bad_value(p, NULL);
    }
    case CLI_OPT_TYPE_STRV:
        return ortkit__strv_push(field, value) ? cli_fail("out of memory") : 0;
    case CLI_OPT_TYPE_CALL:
        return o->call(p, field, value);
    default:
        return cli_fail("internal error: option '%s' has no place to go", p->named);
    }
}

/* The subcommand of spec whose option table is opts, or NULL. */
static const cli_subcommand *subcommand_of(const cli_opt_spec *spec, const cli_opt *opts)
{
    for (const cli_subcommand *s = spec->subs; s && s->name && opts; s++)
        if (s->opts == opts)
            return s;
    return NULL;
}

static void help_of_subcommand(const cli_opt_spec *spec, const cli_subcommand *sub, FILE *out);

static int found(cli_opt_parser *p, const cli_opt *o, char *value)
{
    if (o == &implicit_help) {
        const cli_subcommand *sub = subcommand_of(p->spec, p->opts);
        if (sub)
            help_of_subcommand(p->spec, sub, p->out);
        else
            cli_opt_help(p->spec, p->out);
        return CLI_OPT_HELP;
    }
    p->opt = o;
    p->value = value;
    if (!row_is_bound(o))
        return o->id;
    int rc = store(p);
    if (rc) {
        p->status = rc;
        return CLI_OPT_BAD;
    }
    return 0; /* stored: read on */
}

static int long_option(cli_opt_parser *p, char *body)
{
    char *eq = strchr(body, '=');
    size_t len = eq ? (size_t)(eq - body) : strlen(body);
    const cli_opt *o = find_long(p, body, len);
    char *value = NULL;
    int optional = o && o->arg && (o->flags & CLI_OPT_OPTIONAL);
    if (o && o->arg)
        value = eq ? eq + 1 : optional ? NULL : p->next < p->argc ? p->argv[p->next++] : NULL;
    if (!o || (o->arg && !value && !optional) || (!o->arg && eq)) {
        char hint[80] = "";
        if (!o)
            suggest_long(p, body, len, hint, sizeof hint);
        return bad(p, "option '--%.*s' is unknown or needs a value%s", (int)len, body, hint);
    }
    snprintf(p->named, sizeof p->named, "--%s", o->name);
    return found(p, o, value);
}

/* The next letter of a cluster ("-jv", "-ix", "-i x"). */
static int short_option(cli_opt_parser *p)
{
    char letter = *p->cluster++;
    const cli_opt *o = find_letter(p, letter);
    char *value = NULL;
    int optional = o && o->arg && (o->flags & CLI_OPT_OPTIONAL);
    if (o && o->arg && !optional) {
        value = *p->cluster ? p->cluster : p->next < p->argc ? p->argv[p->next++] : NULL;
        p->cluster = NULL;
    }
    if (!o || (o->arg && !value && !optional))
        return bad(p, "option '-%c' is unknown or needs a value", letter);
    snprintf(p->named, sizeof p->named, "-%c", letter);
    return found(p, o, value);
}

/* The next option read: its id, 0 after a bound row was stored, or CLI_OPT_DONE (also 0),
 * CLI_OPT_HELP or CLI_OPT_BAD; *more says whether it was an option at all. */
static int next_option(cli_opt_parser *p, int *more)
{
    p->opt = NULL;
    p->value = NULL;
    *more = 1;
    if (p->cluster && *p->cluster)
        return short_option(p);
    p->cluster = NULL;
    while (p->next < p->argc) {
        char *arg = p->argv[p->next++];
        if (p->only_args || arg[0] != '-' || !arg[1]) {
            /* Gathered at the front: the slot written was read already. */
            p->args[p->n_args++] = arg;
        } else if (!strcmp(arg, "--")) {
            p->only_args = 1;
        } else if (arg[1] == '-') {
            return long_option(p, arg + 2);
        } else {
            p->cluster = arg + 1;
            return short_option(p);
        }
    }
    *more = 0;
    return CLI_OPT_DONE;
}

int cli_opt_next(cli_opt_parser *p)
{
    int c, more;
    while ((c = next_option(p, &more)) == 0 && more)
        ; /* a bound row, stored */
    return c;
}

/* The table's CLI_OPT_ARGS row, or NULL. */
static const cli_opt *args_row(const cli_opt *o)
{
    for (; o && !row_is_end(o); o++)
        if (row_is_args(o))
            return o;
    return NULL;
}

int cli_opt_parse(cli_opt_parser *p, const cli_opt_spec *spec, const cli_opt *opts, void *target,
                  int argc, char **argv)
{
    cli_opt_init(p, spec, opts, argc, argv);
    return cli_opt_read(p, target);
}

int cli_opt_read(cli_opt_parser *p, void *target)
{
    p->target = target;
    int c = cli_opt_next(p);
    if (c > 0) {
        /* Every row of a table read whole is bound: an id has no one to go to. */
        p->status = cli_fail("internal error: option '%s' is not bound", p->named);
        return 1;
    }
    if (c == CLI_OPT_HELP || c == CLI_OPT_BAD) {
        p->status = c == CLI_OPT_HELP ? CLI_OK : p->status ? p->status : CLI_USAGE;
        return 1;
    }
    const cli_opt *count = args_row(p->opts);
    double least = count ? count->min : 0, most = count ? count->max : 0;
    if (p->n_args < least) {
        p->status = usage(p, "%s", count->help);
        return 1;
    }
    if (p->n_args > most) {
        p->status = usage(p, "unexpected argument '%s'", p->args[(int)most]);
        return 1;
    }
    return 0;
}

/* ---- --help -------------------------------------------------------------------- */

#define HELP_WIDTH 80
#define LEFT_MAX 96 /* the longest left column a table may have */

/* The left column of row o and the rows shown on its line; returns how many rows that is. */
static size_t left_text(const cli_opt *o, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    do {
        size_t used = strlen(buf);
        const char *dots = o[n].flags & CLI_OPT_REPEATS ? "..." : "";
        if (!row_is_option(&o[n]))
            snprintf(buf + used, size - used, "%s", o[n].arg ? o[n].arg : "");
        else if (o[n].letter && o[n].name)
            snprintf(buf + used, size - used, "%s-%c, --%s%s%s%s", n ? ", " : "", o[n].letter,
                     o[n].name, o[n].arg ? " " : "", o[n].arg ? o[n].arg : "", dots);
        else if (o[n].name && o[n].arg && (o[n].flags & CLI_OPT_OPTIONAL))
            snprintf(buf + used, size - used, "%s--%s[=%s]%s", n ? ", " : "", o[n].name, o[n].arg,
                     dots);
        else if (o[n].name)
            snprintf(buf + used, size - used, "%s--%s%s%s%s", n ? ", " : "", o[n].name,
                     o[n].arg ? " " : "", o[n].arg ? o[n].arg : "", dots);
        else
            snprintf(buf + used, size - used, "%s-%c%s%s%s", n ? ", " : "", o[n].letter,
                     o[n].arg ? " " : "", o[n].arg ? o[n].arg : "", dots);
        n++;
    } while (row_is_option(&o[0]) && !row_is_end(&o[n]) && (o[n].flags & CLI_OPT_SAME_LINE));
    return n;
}

static int row_is_heading(const cli_opt *o) { return !row_is_option(o) && !o->arg && !row_is_args(o); }

/* The widest left column of a table, indented by indent. */
static size_t widest(const cli_opt *o, size_t indent)
{
    size_t w = 0;
    char left[LEFT_MAX];
    while (o && !row_is_end(o)) {
        if (row_is_args(o)) {
            o++;
            continue;
        }
        size_t n = row_is_heading(o) ? 1 : left_text(o, left, sizeof left);
        if (!row_is_heading(o) && indent + strlen(left) > w)
            w = indent + strlen(left);
        o += n;
    }
    return w;
}

/*
 * Print lead, then text wrapped under the column where lead ends; '\n'
 * starts a line.  Words are split at each space, so two spaces stay two.
 */
static void print_wrapped_text(FILE *out, const char *lead, size_t column, const char *text)
{
    size_t most = 1;
    for (const char *s = text; *s; s++)
        most += *s == ' ' || *s == '\n';
    char *copy = strdup(text);
    const char **words = malloc(most * sizeof *words);
    char pad[HELP_WIDTH + 1];
    snprintf(pad, sizeof pad, "%*s", (int)(column < HELP_WIDTH ? column : HELP_WIDTH), "");
    if (!copy || !words) {
        fprintf(out, "%s%s\n", lead, text); /* unwrapped, but all there */
    } else {
        char *line = copy;
        for (int first = 1; line; first = 0) {
            char *end = strchr(line, '\n');
            if (end)
                *end = '\0';
            size_t n = 0;
            for (char *w = line; w; n++) {
                words[n] = w;
                w = strchr(w, ' ');
                if (w)
                    *w++ = '\0';
            }
            cli_print_wrapped(out, first ? lead : pad, words, n);
            line = end ? end + 1 : NULL;
        }
    }
    free(words);
    free(copy);
}

static void print_row(FILE *out, size_t indent, const char *left, size_t column, const char *help)
{
    char lead[LEFT_MAX + HELP_WIDTH];
    if (!help || !*help) {
        fprintf(out, "%*s%s\n", (int)indent, "", left);
        return;
    }
    snprintf(lead, sizeof lead, "%*s%-*s", (int)indent, "", (int)(column - indent), left);
    print_wrapped_text(out, lead, column, help);
}

static void print_rows(FILE *out, const cli_opt *o, size_t indent, size_t column)
{
    char left[LEFT_MAX];
    while (!row_is_end(o)) {
        if (row_is_args(o)) {
            o++;
            continue;
        }
        if (row_is_heading(o)) {
            fprintf(out, "\n%s\n", o->help);
            o++;
            continue;
        }
        size_t n = left_text(o, left, sizeof left);
        print_row(out, indent, left, column, o->help);
        o += n;
    }
}

void cli_opt_help(const cli_opt_spec *spec, FILE *out)
{
    fputs(spec->usage, out);
    if (spec->intro)
        fprintf(out, "\n%s", spec->intro);
    fputc('\n', out);
    /* One column for the help texts of every row, subcommands' too. */
    size_t w = widest(spec->opts, 2);
    for (const cli_subcommand *s = spec->subs; s && s->name; s++) {
        size_t sw = strlen(s->name) + (s->args ? 1 + strlen(s->args) : 0), ow = widest(s->opts, 2);
        w = sw > w ? sw : w;
        w = ow > w ? ow : w;
    }
    size_t column = w + 2;
    if (spec->opts)
        print_rows(out, spec->opts, 2, column);
    for (const cli_subcommand *s = spec->subs; s && s->name; s++) {
        char left[LEFT_MAX];
        snprintf(left, sizeof left, "%s%s%s", s->name, s->args ? " " : "", s->args ? s->args : "");
        print_row(out, 0, left, column, s->help);
        if (s->opts)
            print_rows(out, s->opts, 2, column);
    }
    if (spec->outro)
        fprintf(out, "\n%s", spec->outro);
}

/*
 * `ortkit CMD SUB --help`: the usage lines of spec that are SUB's (each
 * "ortkit CMD SUB ..." line and the lines continuing it), then SUB's row and
 * its options; the whole command's help is `ortkit CMD --help`.
 */
static void help_of_subcommand(const cli_opt_spec *spec, const cli_subcommand *sub, FILE *out)
{
    char head[128];
    size_t head_len = (size_t)snprintf(head, sizeof head, "ortkit %s %s", spec->command, sub->name);
    int mine = 0, printed = 0;
    for (const char *line = spec->usage; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        const char *body = line;
        if (n >= 7 && !strncmp(body, "usage: ", 7))
            body += 7;
        while (*body == ' ' && body < line + n)
            body++;
        if (!strncmp(body, "ortkit ", 7))
            mine = !strncmp(body, head, head_len) && (body[head_len] == ' ' ||
                                                      body + head_len == line + n);
        if (mine) {
            if (body == line + 7 || (n >= 7 && !strncmp(body, "ortkit ", 7)))
                fprintf(out, "%s%.*s\n", printed ? "       " : "usage: ",
                        (int)(n - (size_t)(body - line)), body);
            else
                fprintf(out, "%.*s\n", (int)n, line);
            printed = 1;
        }
        line = end ? end + 1 : NULL;
    }
    if (!printed)
        fprintf(out, "usage: %s%s%s [options]\n", head, sub->args ? " " : "",
                sub->args ? sub->args : "");
    fputc('\n', out);
    size_t w = strlen(sub->name) + (sub->args ? 1 + strlen(sub->args) : 0);
    size_t ow = sub->opts ? widest(sub->opts, 2) : 0;
    size_t column = (ow > w ? ow : w) + 2;
    char left[LEFT_MAX];
    snprintf(left, sizeof left, "%s%s%s", sub->name, sub->args ? " " : "",
             sub->args ? sub->args : "");
    print_row(out, 0, left, column, sub->help);
    if (sub->opts)
        print_rows(out, sub->opts, 2, column);
    fprintf(out, "\n'ortkit %s --help' describes every %s subcommand.\n", spec->command,
            spec->command);
}

/* "import, verify or list" */
static void subcommand_names(const cli_subcommand *s, char *buf, size_t size)
{
    buf[0] = '\0';
    for (size_t i = 0; s[i].name; i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, size - used, "%s%s", i == 0 ? "" : s[i + 1].name ? ", " : " or ",
                 s[i].name);
    }
}

int cli_opt_run_subcommand(const cli_opt_spec *spec, int argc, char **argv)
{
    char names[256];
    subcommand_names(spec->subs, names, sizeof names);
    if (argc < 2)
        return cli_usage(spec->command, "a subcommand is needed: %s", names);
    const char *name = argv[1];
    if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
        cli_opt_help(spec, stdout);
        return CLI_OK;
    }
    const char *all[64];
    size_t n = 0;
    for (const cli_subcommand *s = spec->subs; s->name; s++) {
        if (!strcmp(s->name, name))
            return s->run(spec, argc - 1, argv + 1);
        if (n < 64)
            all[n++] = s->name;
    }
    const char *near = cli_opt_suggest(name, strlen(name), all, n);
    if (near)
        return cli_usage(spec->command, "unknown subcommand '%s'; did you mean '%s'? (%s)", name,
                         near, names);
    return cli_usage(spec->command, "unknown subcommand '%s' (%s)", name, names);
}
