/*
 * validate_cli.h - what the parts of `ortkit validate` share: cmd_validate.c
 * (options, set-up, exit code), validate_lists.c (known failures and
 * tolerances), validate_runner.c (one child process per test) and
 * validate_report.c (summary, JSON, JUnit).
 */
#ifndef ORTKIT_CLI_VALIDATE_H
#define ORTKIT_CLI_VALIDATE_H

#include "cli.h"
#include "ortkit/tools/conformance.h"

#include <stddef.h>

/* A test's verdict once the known-failures list is applied. */
typedef enum v_verdict {
    V_NOT_RUN = 0,   /* the run was interrupted first */
    V_PASS,
    V_FAIL,          /* failed, not listed: fails the run */
    V_XFAIL,         /* failed, listed as a known failure */
    V_XPASS,         /* passed, although listed: the list is out of date */
    V_UNSUPPORTED,   /* needs what ortkit cannot pass or return */
    V_VERDICT_COUNT
} v_verdict;

/* "pass", "fail", "xfail", "xpass", "unsupported", "not-run". */
const char *v_verdict_name(v_verdict v);

/* One line of a list file: a test-name pattern and the rest of the line. */
typedef struct v_entry {
    char *pattern;   /* fnmatch pattern, on "name" or "suite/name" */
    char *text;      /* known failures: the reason */
    double rtol, atol; /* tolerances */
    int line;
    int matched;     /* some discovered test matches it */
} v_entry;

typedef struct v_list {
    char *path;
    v_entry *entries;
    size_t count;
} v_list;

typedef enum v_list_kind { V_LIST_KNOWN_FAILURES, V_LIST_TOLERANCES } v_list_kind;

/* Read a list file; CLI_OK, or CLI_FAIL after printing why (file and line). */
int v_list_load(v_list *list, const char *path, v_list_kind kind);
/* The last entry matching the test (later lines override earlier ones), or NULL. */
v_entry *v_list_match(v_list *list, const ortkit_conformance_test *t);
void v_list_free(v_list *list);

/* The known-failures list kept with the tool for a runtime version. */
typedef struct v_known_choice {
    char path[4096];   /* "" when there is none */
    char release[32];  /* "1.27": the release the list was measured on */
    char note[512];    /* "" when the list is the runtime's own; else why another (or none) */
} v_known_choice;

/* Among known_failures_MAJOR.MINOR.txt in the first of rel_dirs (colon-
 * separated, relative to the tool's directory) that holds any list: the
 * runtime's own MAJOR.MINOR, else the nearest, same major, closest minor,
 * the older on a tie. */
void v_known_pick(v_known_choice *out, const char *rel_dirs, const char *version);

typedef struct v_test {
    const ortkit_conformance_test *t;
    const v_entry *known;       /* its known-failures entry, or NULL */
    double rtol, atol;          /* 0: the run's defaults */
    ortkit_conformance_result res;
    v_verdict verdict;
    int signal;                 /* the child died of this signal (0: it did not) */
    int timed_out;
} v_test;

typedef struct v_config {
    ortkit_runtime *rt;
    ortkit_session_options session;
    ortkit_conformance_options conf; /* session points at the field above */
    const char *runtime_path;   /* the library every child loads (resolved once) */
    const char *runtime_version;
    long jobs;
    double timeout;             /* seconds per test */
    int progress;               /* draw the progress bar on stderr */
    int verbose;                /* one line per test on stdout as it ends */
    int json;
    int allow_xpass;
    const char *junit;
    const char *known_path;     /* "" when no list is used */
    const char *known_release;  /* the release the default list describes, or "" */
    const char *known_note;     /* why the default list is not the runtime's own, or "" */
    const char *crash_hook;     /* the test whose child raises SIGSEGV (test_hooks.h), or NULL */
} v_config;

/*
 * Run every test, each in a child process, cfg->jobs at a time.  Fills each
 * test's result and verdict.  The caller holds interrupts (interrupt.h).
 * Returns 0, or CLI_INTERRUPTED after SIGINT or SIGTERM (tests not run keep
 * V_NOT_RUN) or CLI_FAIL when no child could be started.
 */
int v_run_all(v_test *tests, size_t n, const v_config *cfg, double *seconds);

/* The runtime as a child process finds it, so that the parent never loads
 * it.  CLI_OK with version and path (resolved) filled; CLI_FAIL after
 * printing why. */
int v_probe_runtime(const char *path, char *version, size_t version_size, char *resolved,
                    size_t resolved_size);

/* The verdict from a result and the known-failures entry. */
v_verdict v_judge(const ortkit_conformance_result *res, const v_entry *known);

/* The text report on stdout (or JSON with cfg->json), then the JUnit file;
 * interrupted is the signal that stopped the run (0: it ran to the end).
 * Returns CLI_OK, or CLI_FAIL when the JUnit file cannot be written. */
int v_report(const v_test *tests, size_t n, const v_config *cfg, double seconds, int interrupted);

/* One line about a finished test, for --verbose. */
void v_print_line(FILE *out, const v_test *t);

#endif
