/*
 * interrupt.h - Ctrl-C and SIGTERM, handled the same way by every long
 * command (run, bench, validate, bundle import; build has the builder's own,
 * with the same exit status).
 *
 * A command calls cli_interrupt_init() first.  From then on SIGINT or
 * SIGTERM ends the program at once: "ortkit: interrupted" on stderr, exit
 * status 130.  That is right while the command has made nothing that must be
 * undone.  Around work that makes temporary files, or a report that should
 * still be printed, the command holds interrupts: between
 * cli_interrupt_hold() and cli_interrupt_release() a signal is only
 * recorded; the command polls cli_interrupted() where it can stop, removes
 * what it made and returns CLI_INTERRUPTED.  A second signal while held ends
 * the program at once, after removing the paths registered with
 * cli_interrupt_track() (a killed run's leftovers are also removed by the
 * next run of the same kind).  The library installs no signal handler: it is
 * told through a cancel callback (cli_interrupt_poll).
 */
#ifndef ORTKIT_CLI_INTERRUPT_H
#define ORTKIT_CLI_INTERRUPT_H

#include <stddef.h>

enum { CLI_INTERRUPTED = 130 };

/* Install the handlers for SIGINT and SIGTERM (again: no effect). */
void cli_interrupt_init(void);
/* Record signals instead of exiting, until released. */
void cli_interrupt_hold(void);
void cli_interrupt_release(void);
/* The signal received (SIGINT or SIGTERM), or 0. */
int cli_interrupted(void);
/* cli_interrupted() as a cancel callback for the library (arg unused). */
int cli_interrupt_poll(void *arg);

/* What a hard exit removes, in the reverse order of registration. */
typedef enum cli_track_kind {
    CLI_TRACK_FLAT_DIR, /* a directory holding only files: the files, then it */
    CLI_TRACK_MADE_DIRS /* directories the command made (cli_interrupt_track_made), while empty */
} cli_track_kind;
/* Register path; a handle for cli_interrupt_untrack, or -1 when the table is full. */
int cli_interrupt_track(const char *path, cli_track_kind kind);
/* CLI_TRACK_MADE_DIRS: path, made by ortkit__mkdirs_made, whose first
 * `existed` characters were there before. */
int cli_interrupt_track_made(const char *path, size_t existed);
void cli_interrupt_untrack(int handle);

/* "ortkit: interrupted; <message>" on stderr; returns CLI_INTERRUPTED. */
int cli_interrupt_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* What a library call made while interrupts were held comes to: CLI_OK for
 * rc 0; for a cancel Ctrl-C asked for, the interruption with what was left
 * undone ("nothing was imported"); otherwise the library's error, said. */
int cli_interrupt_outcome(int rc, const char *undone);

/* Remove a directory that holds only files (entries that are directories
 * are left, and so is it then).  0, or -1 with errno set.  Safe in a signal
 * handler. */
int cli_remove_flat_dir(const char *path);
/* Remove, in dir, the directories named PREFIX<pid>-<anything> whose process
 * <pid> is gone: what a run that was killed left behind. */
void cli_remove_stale(const char *dir, const char *prefix);

#endif
