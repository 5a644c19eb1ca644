/*
 * opt.h - one table per command drives both its option parsing and its
 * --help text.
 *
 * A command describes itself in a cli_opt_spec: the usage lines, the text
 * before and after the option list, and a table of rows.  cli_opt_next()
 * walks a command line with that table the way getopt_long does (options
 * after positional arguments, "--opt=value" and "--opt value", "-ix" and
 * "-i x", clusters such as "-jv", unambiguous abbreviations of long names,
 * "--" ending the options); cli_opt_help() writes --help from the same table,
 * its columns lined up and its help texts wrapped at 80 columns.
 *
 * Every command takes --help and -h without listing them: they print the
 * help on stdout and stop the command (exit 0).  A bad option is named in
 * one line on stderr (exit 2).
 *
 * Not glibc's argp: musl has none (static builds), and argp brings its own
 * messages, its own --usage and -?, and its own help layout.
 */
#ifndef ORTKIT_CLI_OPT_H
#define ORTKIT_CLI_OPT_H

#include <stdio.h>

enum cli_opt_flags {
    CLI_OPT_REPEATS = 1 << 0,   /* may be given more than once; --help shows "ARG..." */
    CLI_OPT_SAME_LINE = 1 << 1, /* --help shows it on the row above, after a comma */
    CLI_OPT_OPTIONAL = 1 << 2,  /* its value is optional and only given as "--name=VALUE";
                                   without one the value is NULL; --help shows "--name[=ARG]" */
};

/*
 * One row of a command's table.  Three kinds:
 *   an option:  id > 0, a long name and/or a letter, arg when it takes a value;
 *   a term:     id 0, arg only ("NAME...": what a positional argument is);
 *   a heading:  id 0, help only: a blank line, then the heading, in --help.
 * A row of zeros ends the table.
 */
typedef struct cli_opt {
    int id;            /* what cli_opt_next() returns for it */
    const char *name;  /* long name without "--", or NULL */
    char letter;       /* short name, or 0 */
    const char *arg;   /* the value's name in --help ("N", "NAME=FILE"); NULL: no value */
    unsigned flags;    /* cli_opt_flags */
    const char *help;  /* wrapped at 80 columns; '\n' starts a new line */
} cli_opt;

#define CLI_OPT_TERM(text, help) {0, NULL, 0, (text), 0, (help)}
#define CLI_OPT_HEADING(text) {0, NULL, 0, NULL, 0, (text)}
#define CLI_OPT_END {0, NULL, 0, NULL, 0, NULL}

/* A subcommand (`ortkit bundle import`): its own options, run with argv[0] = its name. */
typedef struct cli_subcommand {
    const char *name;     /* "import"; NULL ends a table */
    const char *args;     /* shown after the name in --help ("SRC"), or NULL */
    const char *help;
    const cli_opt *opts;
    int (*run)(int argc, char **argv);
} cli_subcommand;

typedef struct cli_opt_spec {
    const char *command;        /* "run": messages read "ortkit run: ..." */
    const char *usage;          /* the usage lines, as they are printed */
    const char *intro;          /* the text between usage and options, or NULL */
    const cli_opt *opts;        /* the command's options ... */
    const cli_subcommand *subs; /* ... or its subcommands, each with options */
    const char *outro;          /* the text after the options, or NULL */
} cli_opt_spec;

/* What cli_opt_next() returns besides an option's id. */
enum {
    CLI_OPT_DONE = 0,  /* every option is read; the positional arguments are in args */
    CLI_OPT_HELP = -1, /* --help was given and printed on out */
    CLI_OPT_BAD = -2,  /* a bad option was named on err */
};

typedef struct cli_opt_parser {
    const cli_opt_spec *spec; /* names the command in messages; its help is printed */
    const cli_opt *opts;      /* the options accepted */
    int argc;
    char **argv;
    FILE *out, *err;          /* stdout and stderr unless a test changes them */

    /* After an option: the row and its value (NULL when it takes none). */
    const cli_opt *opt;
    char *value;

    /* The positional arguments, in order (complete at CLI_OPT_DONE). */
    char **args;
    int n_args;

    /* Internal. */
    int next;            /* the next element of argv to read */
    char *cluster;       /* the rest of a cluster of short options, or NULL */
    int only_args;       /* "--" was seen */
} cli_opt_parser;

/*
 * Start reading argv (argv[0] is the command's name) with the options of
 * opts (NULL: spec->opts).  Positional arguments are gathered at the front
 * of argv[1..], as getopt_long permutes them; option values keep pointing
 * into the strings of argv.
 */
void cli_opt_init(cli_opt_parser *p, const cli_opt_spec *spec, const cli_opt *opts, int argc,
                  char **argv);

/* The next option's id (> 0, with p->opt and p->value set), or CLI_OPT_DONE,
 * CLI_OPT_HELP or CLI_OPT_BAD. */
int cli_opt_next(cli_opt_parser *p);

/* Write the command's --help: usage, intro, the option rows, outro. */
void cli_opt_help(const cli_opt_spec *spec, FILE *out);

/*
 * Run the subcommand argv[1] names, from spec->subs.  "--help", "-h" and
 * "help" there print the command's help; a missing or unknown subcommand is
 * a usage error naming those there are.
 */
int cli_opt_run_subcommand(const cli_opt_spec *spec, int argc, char **argv);

#endif
