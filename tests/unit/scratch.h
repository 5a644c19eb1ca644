/* scratch.h - one temporary directory per test program: made by the group
 * set-up, removed by its tear-down; at() names a file in it. */
#ifndef ORTKIT_TEST_SCRATCH_H
#define ORTKIT_TEST_SCRATCH_H

#include <stdio.h>
#include <stdlib.h>

static char scratch[512];

static const char *at(const char *name)
{
    static _Thread_local char buf[8][700];
    static _Thread_local int next;
    char *p = buf[next++ % 8];
    snprintf(p, sizeof buf[0], "%s/%s", scratch, name);
    return p;
}

/* $TMPDIR/ortkit-LABEL.XXXXXX (or under /tmp); 0 or -1. */
static int scratch_make(const char *label)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(scratch, sizeof scratch, "%s/ortkit-%s.XXXXXX", tmp && tmp[0] ? tmp : "/tmp", label);
    return mkdtemp(scratch) ? 0 : -1;
}

static int scratch_remove(void)
{
    char cmd[sizeof scratch + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
    return system(cmd) == 0 ? 0 : -1;
}

#endif
