/*
 * cli.h - what the `ortkit` commands share.  Each command lives in
 * <family>/cmd_<name>.c and uses only the public header, these helpers and
 * src/util's (util.h: figures for people, the clock, memory), linked into
 * the tool.  Results go to stdout; diagnostics and progress to stderr.
 * Exit codes: 0 ok, 1 failure, 2 usage.
 */
#ifndef ORTKIT_CLI_H
#define ORTKIT_CLI_H

#include "ortkit.h"
#include "ortkit/tools/bundle_make.h"
#include "ortkit/tools/repo.h"
#include "util.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
    const char *summary;
} cli_command;

/* The commands, one file each (<family>/cmd_<name>.c): argv[0] is the
 * command's name. */
#define CLI_COMMAND(name) int cmd_##name(int argc, char **argv)
CLI_COMMAND(run);
CLI_COMMAND(bench);
CLI_COMMAND(validate);
CLI_COMMAND(info);
CLI_COMMAND(compare);
CLI_COMMAND(version);
CLI_COMMAND(host);
CLI_COMMAND(variants);
CLI_COMMAND(bundle);
CLI_COMMAND(wheel);
CLI_COMMAND(doctor);
CLI_COMMAND(build);

/*
 * Text from files, models, manifests, the environment or the runtime is
 * shown to people escaped, so that it can neither drive the terminal nor
 * break a line or a table: control characters (C0, DEL, and C1 in UTF-8)
 * become \n, \r, \t, \x1b or \u009b, and bytes that are not UTF-8
 * \xff.  JSON output needs none of this (cJSON escapes).
 *
 * cli_escape: an escaped copy of s (NULL reads as ""); malloc'd, NULL when
 * memory runs out.
 * cli_esc: s itself when it needs no escaping, else an escaped copy that
 * stays valid for the next 15 calls on the same thread, which is enough
 * for the arguments of one printf.
 */
char *cli_escape(const char *s);
const char *cli_esc(const char *s);

/* One line on stderr, "ortkit: <message>", the message escaped as a whole;
 * returns CLI_FAIL. */
int cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One line on stderr, "ortkit: warning: <message>", escaped the same way. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "ortkit <cmd>: <message>" (escaped) plus a hint to try --help; returns CLI_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same on any stream, from a va_list; returns CLI_USAGE. */
int cli_vusage(FILE *err, const char *cmd, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
/* The failure recorded by the library, as one line; returns CLI_FAIL. */
int cli_fail_lib(void);

/* Parse a whole decimal integer in [min, max]; 0 on success. */
int cli_parse_long(const char *s, long min, long max, long *out);

/*
 * Tables whose columns line up.  Cells are copied, escaped (cli_escape).  A row that cannot be
 * added (out of memory) makes cli_table_add return -1 and the table refuse
 * to print: a table missing rows would mislead.
 */
typedef struct cli_table cli_table;
cli_table *cli_table_new(size_t columns, const char *const *headers);
/* Right-align column i (numbers). */
void cli_table_align_right(cli_table *t, size_t column);
int cli_table_add(cli_table *t, const char *const *cells);
/* 0, or -1 (nothing printed) when t is NULL, lost a row or memory runs out. */
int cli_table_print(const cli_table *t, FILE *out, const char *indent)
    __attribute__((warn_unused_result));
void cli_table_free(cli_table *t);

/* Print lead, then the words (escaped) space-separated and wrapped at 80
 * columns under the first word; ends the line. */
void cli_print_wrapped(FILE *out, const char *lead, const char *const *words, size_t n);

/* Print text line by line, each line escaped; a last line without '\n' gets one. */
void cli_print_lines(FILE *out, const char *text);

/* Print JSON (pretty) on stdout, then free it; CLI_FAIL if item is NULL. */
int cli_json_print(cJSON *item);

/* This program's own file (/proc/self/exe) into buf: 0, or -1. */
int cli_self_exe(char *buf, size_t size);
/* The file name in the first of rel_dirs (colon-separated, relative to the
 * directory holding this program) where it can be read: 0 with its path in
 * buf, else -1.  What ortkit__self_find does for the library, for the tool:
 * dladdr names a program by its argv[0], a bare name when PATH found it. */
int cli_self_find(char *buf, size_t size, const char *rel_dirs, const char *name);

/* The runtime as the user asked for it: --runtime PATH, or the default search. */
int cli_open_runtime(ortkit_runtime **out, const char *path);
/* The same with more runtime options (opts->path included). */
int cli_open_runtime_with(ortkit_runtime **out, const ortkit_runtime_options *opts);
/* The same, and what choosing by measurement said when the options named a
 * model (ortkit_resolution_measured: "measured: ...", "not measured for this
 * model", or "") into measured. */
int cli_open_runtime_told(ortkit_runtime **out, const ortkit_runtime_options *opts,
                          char *measured, size_t measured_size);
/* --runtime PATH or --bundle NAME|DIR as the runtime options that name what
 * to load (o->path or o->bundle): a directory must be a bundle, a name or
 * version pins one of the bundles found, for this host, as ORTKIT_BUNDLE
 * does.  The library chooses and verifies it, once, when it opens the
 * runtime.  CLI_USAGE when both are given. */
int cli_runtime_choice(ortkit_runtime_options *o, const char *cmd, const char *runtime,
                       const char *bundle);
/* The same resolved to the runtime path to load (*out, free() it; NULL when
 * bundle is NULL), for a command that hands it to processes of its own. */
int cli_bundle_path(char **out, const char *cmd, const char *runtime, const char *bundle);
/* The --bundle row, its value stored in field f (a string) of struct T. */
#define CLI_BUNDLE_ROW(T, f)                                                                       \
    {0, "bundle", 0, "NAME|DIR", 0,                                                                \
     "load the runtime of this bundle (a name or ONNX Runtime version, as ORTKIT_BUNDLE, or a "   \
     "bundle's directory), verified first", CLI_OPT_STRING(T, f)}

#endif
