/* test_hooks.c - the test hooks as the tool has them: none (test_hooks.h). */
#include "test_hooks.h"

#include <stddef.h>

double cli_hook_save_pause(void) { return 0; }

const char *cli_hook_crash_test(void) { return NULL; }
