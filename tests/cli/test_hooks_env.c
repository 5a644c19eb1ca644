/*
 * test_hooks_env.c - the test hooks of ortkit-test-hooks, the tool the tests
 * build from the same objects as ortkit (src/cli/common/test_hooks.h):
 *   ORTKIT_RUN_SAVE_PAUSE_TEST=SECONDS  `run -o` pauses this long after it
 *                                       stages each output (run_save.t);
 *   ORTKIT_VALIDATE_CRASH_TEST=NAME     the child running `validate` test
 *                                       NAME raises SIGSEGV (validate.t).
 */
#include "test_hooks.h"

#include <stdlib.h>

double cli_hook_save_pause(void)
{
    const char *v = getenv("ORTKIT_RUN_SAVE_PAUSE_TEST");
    return v ? atof(v) : 0;
}

const char *cli_hook_crash_test(void)
{
    const char *v = getenv("ORTKIT_VALIDATE_CRASH_TEST");
    return v && v[0] ? v : NULL;
}
