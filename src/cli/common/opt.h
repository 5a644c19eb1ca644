/*
 * opt.h - one table per command drives its option parsing, the checks of
 * its values and its --help text.
 *
 * A command describes itself in a cli_opt_spec: the usage lines, the text
 * before and after the option list, and a table of rows.  Each option row
 * names where its value goes and what type it is (the way libgit2's
 * cli_opt_spec binds a row to its variable): a switch setting an int, a
 * string, a whole number in a range, a size, a number, one word of a
 * choice, strings appended to a vector, or a function for the few options
 * that need their own handling.  cli_opt_parse() reads the whole command
 * line with that table, stores and range-checks every value in one place
 * with one message shape ("ortkit run: --threads wants a number from 1 to
 * 4096, got '0'"), and checks how many positional arguments remain.
 *
 * The reading itself is getopt_long's (options after positional arguments,
 * "--opt=value" and "--opt value", "-ix" and "-i x", clusters such as
 * "-jv", unambiguous abbreviations of long names, "--" ending the options);
 * cli_opt_help() writes --help from the same table, its columns lined up and
 * its help texts wrapped at 80 columns.
 *
 * Every command takes --help and -h without listing them: they print the
 * help on stdout and stop the command (exit 0).  A bad option or value is
 * named in one line on stderr (exit 2).
 *
 * Not glibc's argp: musl has none (static builds), and argp brings its own
 * messages, its own --usage and -?, and its own help layout.
 */
#ifndef ORTKIT_CLI_OPT_H
#define ORTKIT_CLI_OPT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum cli_opt_flags {
    CLI_OPT_REPEATS = 1 << 0,   /* may be given more than once; --help shows "ARG..." */
    CLI_OPT_SAME_LINE = 1 << 1, /* --help shows it on the row above, after a comma */
    CLI_OPT_OPTIONAL = 1 << 2,  /* its value is optional and only given as "--name=VALUE";
                                   without one the value is NULL; --help shows "--name[=ARG]" */
};

/* Where a bound option's value goes, and how it is read. */
typedef enum cli_opt_type {
    CLI_OPT_TYPE_NONE = 0, /* not bound: cli_opt_next() returns the row's id */
    CLI_OPT_TYPE_SET,      /* no value: an int is set to the row's value */
    CLI_OPT_TYPE_STRING,   /* a char * or const char * points at the value */
    CLI_OPT_TYPE_LONG,     /* a long: a whole decimal number in [min, max] */
    CLI_OPT_TYPE_DOUBLE,   /* a double: a finite number in [min, max] */
    CLI_OPT_TYPE_SIZE,     /* a uint64_t: a size ("6G", ortkit__human_parse_size), >= min */
    CLI_OPT_TYPE_CHOICE,   /* an int: values[i] for the i-th word of arg ("on|off") */
    CLI_OPT_TYPE_STRV,     /* an ortkit__strv: each value appended (a copy) */
    CLI_OPT_TYPE_CALL,     /* call(parser, the field, value) reads it: the escape hatch */
    CLI_OPT_TYPE_ARGS,     /* not an option: how many positional arguments (see CLI_OPT_ARGS) */
} cli_opt_type;

struct cli_opt_parser;

/*
 * One row of a command's table.  Four kinds:
 *   an option:  a long name and/or a letter, arg when it takes a value, and
 *               either a type and the offset of its field in the command's
 *               arguments (a bound row; id 0) or an id > 0 (cli_opt_next()
 *               returns it);
 *   a term:     arg only ("NAME...": what a positional argument is);
 *   a heading:  help only: a blank line, then the heading, in --help;
 *   the positional arguments' count: CLI_OPT_ARGS, not shown in --help.
 * A row of zeros ends the table.  Bound rows are written with the macros
 * below, which check the field's type at compile time:
 *   {0, "threads", 0, "N", 0, "intra-op threads", CLI_OPT_LONG(run_args, threads, 1, 4096)}
 */
typedef struct cli_opt {
    int id;            /* an unbound row: what cli_opt_next() returns for it */
    const char *name;  /* long name without "--", or NULL */
    char letter;       /* short name, or 0 */
    const char *arg;   /* the value's name in --help ("N", "NAME=FILE"); NULL: no value */
    unsigned flags;    /* cli_opt_flags */
    const char *help;  /* wrapped at 80 columns; '\n' starts a new line */

    /* A bound row: where its value goes (offset into the target given to
     * cli_opt_parse) and how it is read and checked. */
    cli_opt_type type;
    size_t offset;
    double min, max;   /* LONG and DOUBLE: the range; SIZE: the least; ARGS: the count */
    int value;         /* SET: what the int is set to */
    const int *values; /* CHOICE: the value of each word of arg */
    /* CALL: 0, or the exit status after saying why (cli_usage: CLI_USAGE). */
    int (*call)(struct cli_opt_parser *p, void *field, char *value);
    const char *want;  /* what a bad value is told it wants ("a number of runs from 1 to
                          10"), instead of the type's own words */
} cli_opt;

/* An unbound row: cli_opt_next() returns id for it (a loop of the caller's own). */
#define CLI_OPT_ID(id, name, letter, arg, flags, help)                                             \
    {(id), (name), (letter), (arg), (flags), (help), .type = CLI_OPT_TYPE_NONE}
#define CLI_OPT_TERM(text, help) {0, NULL, 0, (text), 0, (help), .type = CLI_OPT_TYPE_NONE}
#define CLI_OPT_HEADING(text) {0, NULL, 0, NULL, 0, (text), .type = CLI_OPT_TYPE_NONE}
#define CLI_OPT_END {0, NULL, 0, NULL, 0, NULL, .type = CLI_OPT_TYPE_NONE}
/* Between least and most positional arguments (CLI_OPT_ANY: no limit);
 * fewer is the usage error missing ("import needs SRC: ..."), more
 * "unexpected argument 'X'".  A table without this row takes none. */
#define CLI_OPT_ARGS(least, most, missing)                                                         \
    {0, NULL, 0, NULL, 0, (missing), .type = CLI_OPT_TYPE_ARGS, .min = (least), .max = (most)}
#define CLI_OPT_ANY 1e9

/* The offset of field f of struct T, which must be of type type (else a compile error). */
#define CLI_OPT_FIELD(T, f, type) _Generic(((T *)0)->f, type: offsetof(T, f))

/* The binding part of a row: CLI_OPT_<TYPE>(struct, field, ...). */
#define CLI_OPT_SET(T, f, v) .type = CLI_OPT_TYPE_SET, .offset = CLI_OPT_FIELD(T, f, int), .value = (v)
#define CLI_OPT_FLAG(T, f) CLI_OPT_SET(T, f, 1)
#define CLI_OPT_STRING(T, f)                                                                       \
    .type = CLI_OPT_TYPE_STRING,                                                                   \
    .offset = _Generic(((T *)0)->f, char *: offsetof(T, f), const char *: offsetof(T, f))
#define CLI_OPT_LONG(T, f, lo, hi)                                                                 \
    .type = CLI_OPT_TYPE_LONG, .offset = CLI_OPT_FIELD(T, f, long), .min = (lo), .max = (hi)
#define CLI_OPT_DOUBLE(T, f, lo, hi)                                                               \
    .type = CLI_OPT_TYPE_DOUBLE, .offset = CLI_OPT_FIELD(T, f, double), .min = (lo), .max = (hi)
#define CLI_OPT_SIZE(T, f, least)                                                                  \
    .type = CLI_OPT_TYPE_SIZE, .offset = CLI_OPT_FIELD(T, f, uint64_t), .min = (least)
#define CLI_OPT_CHOICE(T, f, vals)                                                                 \
    .type = CLI_OPT_TYPE_CHOICE, .offset = CLI_OPT_FIELD(T, f, int), .values = (vals)
#define CLI_OPT_STRV(T, f) .type = CLI_OPT_TYPE_STRV, .offset = CLI_OPT_FIELD(T, f, ortkit__strv)
/* fn gets a pointer to field f (of any type); CLI_OPT_CALL_ARGS: to the whole target. */
#define CLI_OPT_CALL(T, f, fn) .type = CLI_OPT_TYPE_CALL, .offset = offsetof(T, f), .call = (fn)
#define CLI_OPT_CALL_ARGS(fn) .type = CLI_OPT_TYPE_CALL, .offset = 0, .call = (fn)

struct cli_opt_spec;

/* A subcommand (`ortkit bundle import`): its own options, run with argv[0] =
 * its name and the whole command's spec (its messages and --help). */
typedef struct cli_subcommand {
    const char *name;     /* "import"; NULL ends a table */
    const char *args;     /* shown after the name in --help ("SRC"), or NULL */
    const char *help;
    const cli_opt *opts;
    int (*run)(const struct cli_opt_spec *spec, int argc, char **argv);
} cli_subcommand;

typedef struct cli_opt_spec {
    const char *command;        /* "run": messages read "ortkit run: ..." */
    const char *usage;          /* the usage lines, as they are printed */
    const char *intro;          /* the text between usage and options, or NULL */
    const cli_opt *opts;        /* the command's options ... */
    const cli_subcommand *subs; /* ... or its subcommands, each with options */
    const char *outro;          /* the text after the options, or NULL */
} cli_opt_spec;

/* A subcommand's option table and run, declared (cmd_<family>_<name>.c
 * defines them): CLI_SUBCOMMAND(bundle, import) declares bundle_import_opts
 * and cmd_bundle_import. */
#define CLI_SUBCOMMAND(family, name)                   \
    extern const cli_opt family##_##name##_opts[];     \
    int cmd_##family##_##name(const cli_opt_spec *spec, int argc, char **argv)

/* What cli_opt_next() returns besides an option's id. */
enum {
    CLI_OPT_DONE = 0,  /* every option is read; the positional arguments are in args */
    CLI_OPT_HELP = -1, /* --help was given and printed on out */
    CLI_OPT_BAD = -2,  /* a bad option or value was named on err; status says how to exit */
};

typedef struct cli_opt_parser {
    const cli_opt_spec *spec; /* names the command in messages; its help is printed */
    const cli_opt *opts;      /* the options accepted */
    void *target;             /* where bound rows store their values (their offsets' base) */
    int argc;
    char **argv;
    FILE *out, *err;          /* stdout and stderr unless a test changes them */

    /* After an option: the row and its value (NULL when it takes none). */
    const cli_opt *opt;
    char *value;
    char named[64];           /* the option as the command line named it: "-n", "--threads" */

    /* After cli_opt_parse() said stop: the command's exit status. */
    int status;

    /* The positional arguments, in order (complete at CLI_OPT_DONE). */
    char **args;
    int n_args;

    /* Internal. */
    int next;            /* the next element of argv to read */
    char *cluster;       /* the rest of a cluster of short options, or NULL */
    int only_args;       /* "--" was seen */
} cli_opt_parser;

/*
 * Read the whole command line argv (argv[0] is the command's name) with the
 * options of opts (NULL: spec->opts), every one of them bound: each value is
 * stored into target at its row's offset, then the count of positional
 * arguments is checked against the table's CLI_OPT_ARGS row.  Returns 0 to
 * go on, the positional arguments in p->args; otherwise the command stops
 * now and returns p->status: CLI_OK after --help, CLI_USAGE after a bad
 * option, value or count (said on stderr), or what a CALL row returned.
 *     cli_opt_parser p;
 *     if (cli_opt_parse(&p, &run_spec, NULL, &args, argc, argv))
 *         return p.status;
 * Positional arguments are gathered at the front of argv[1..], as
 * getopt_long permutes them; string values keep pointing into argv.
 */
int cli_opt_parse(cli_opt_parser *p, const cli_opt_spec *spec, const cli_opt *opts, void *target,
                  int argc, char **argv);

/* The same in two steps (a test sets p->out and p->err between them). */
void cli_opt_init(cli_opt_parser *p, const cli_opt_spec *spec, const cli_opt *opts, int argc,
                  char **argv);
int cli_opt_read(cli_opt_parser *p, void *target);

/* Or option by option, after cli_opt_init() (and p->target set, for a table
 * with bound rows): ... */
/* the next unbound option's id (> 0, with p->opt and p->value set),
 * or CLI_OPT_DONE, CLI_OPT_HELP or CLI_OPT_BAD.  Bound rows are stored on
 * the way. */
int cli_opt_next(cli_opt_parser *p);

/* For a CALL row: "ortkit CMD: OPTION wants WANT, got 'VALUE'" on stderr
 * (want NULL: the row's own), as every bad value is said; returns CLI_USAGE. */
int cli_opt_bad_value(const cli_opt_parser *p, const char *want);

/* Write the command's --help: usage, intro, the option rows, outro. */
void cli_opt_help(const cli_opt_spec *spec, FILE *out);

/* The one of names[0..count) that word (len bytes) is a near miss of (an
 * edit or two away, one for a word under 4 letters), NULL when none or two
 * are equally near: what "did you mean ...?" offers. */
const char *cli_opt_suggest(const char *word, size_t len, const char *const *names, size_t count);

/*
 * Run the subcommand argv[1] names, from spec->subs, handing it spec.
 * "--help", "-h" and "help" there print the command's help (and
 * `CMD SUB --help` SUB's alone); a missing or unknown subcommand is a usage
 * error naming those there are (and the one a typo nearly names).
 */
int cli_opt_run_subcommand(const cli_opt_spec *spec, int argc, char **argv);

#endif
