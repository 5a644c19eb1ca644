/*
 * output_dir.h - `ortkit run -o DIR`: every output saved into a directory,
 * all or nothing (a failure or an interrupt leaves DIR as it was).  The
 * files themselves are value_files.c's.
 */
#ifndef ORTKIT_CLI_OUTPUT_DIR_H
#define ORTKIT_CLI_OUTPUT_DIR_H

#include "cli.h"

#include <sys/types.h>

/* The file each output is saved in (without ".npy"). */
typedef struct out_file {
    char name[512];
    char ext[8];      /* ".npy", ".json", or "" for a sequence's directory */
    int track;        /* a sequence's staged directory, for an interrupt; -1 */
    size_t output;    /* its index among the session's outputs */
    int had_old;      /* DIR held a file of that name: kept as STAGING/old-N */
    int placed;       /* renamed into DIR */
    dev_t dev;        /* the staged file */
    ino_t ino;
} out_file;

/*
 * The file name of each of the n outputs of session s (*out, malloc'd),
 * refused when two outputs would share one (names that differ only in
 * characters the mapping replaces, or "." and ".."): a file must say which
 * output it holds, whatever the order.  Checked before the model runs, so
 * nothing is written.  CLI_OK, or CLI_FAIL after saying why.
 */
int output_dir_plan(out_file **out, const ortkit_session *s, size_t n, const char *dir);

/*
 * Save every output as DIR/NAME.npy (a sequence DIR/NAME/, a map
 * DIR/NAME.json), all or nothing.  A failure or an interrupt leaves DIR as
 * it was, and removes DIR (and the parents it lacked) when this call
 * created it.  CLI_OK, CLI_FAIL or CLI_INTERRUPTED, after saying why.
 */
int output_dir_save(const char *dir, out_file *f, const ortkit_session *s, ortkit_value **outs,
                    size_t n);

#endif
