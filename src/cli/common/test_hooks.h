/*
 * test_hooks.h - what only a test makes the tool do: pause `run -o` half-way
 * through a save, crash the child of one `validate` test.  The tool links
 * test_hooks.c, whose hooks do nothing and read nothing; the test suite
 * builds a second tool, ortkit-test-hooks, from the same objects and
 * tests/cli/test_hooks_env.c, whose hooks the environment drives.  That one
 * is never installed.
 */
#ifndef ORTKIT_CLI_TEST_HOOKS_H
#define ORTKIT_CLI_TEST_HOOKS_H

/* Seconds `run -o` pauses after it stages each output (0: none). */
double cli_hook_save_pause(void);

/* The name of the `validate` test whose child raises SIGSEGV, or NULL. */
const char *cli_hook_crash_test(void);

#endif
