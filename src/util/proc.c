/* proc.c - memory and CPUs, as Linux reports them under /proc. */
#include "util.h"

#include <signal.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The kB figure after "Key:" at the start of a line; 0 when absent. */
static int meminfo_field(const char *text, const char *key, uint64_t *out)
{
    size_t n = strlen(key);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (strncmp(p, key, n) != 0 || p[n] != ':')
            continue;
        char *end;
        unsigned long long kb = strtoull(p + n + 1, &end, 10);
        if (end == p + n + 1)
            return 0;
        *out = (uint64_t)kb * 1024;
        return 1;
    }
    return 0;
}

int ortkit__meminfo_parse(const char *text, uint64_t *available, uint64_t *total)
{
    uint64_t avail = 0, tot = 0;
    int found = meminfo_field(text, "MemAvailable", &avail) + meminfo_field(text, "MemTotal", &tot);
    if (available)
        *available = avail;
    if (total)
        *total = tot;
    if (found != 2)
        return ortkit__error_set(ORTKIT_E_FORMAT, "/proc/meminfo has no MemAvailable/MemTotal");
    return ORTKIT_OK;
}

int ortkit__proc_meminfo(uint64_t *available, uint64_t *total)
{
    char *text = NULL;
    int rc = ortkit__file_read(&text, NULL, "/proc/meminfo", 1 << 20);
    if (rc == ORTKIT_OK)
        rc = ortkit__meminfo_parse(text, available, total);
    free(text);
    return rc;
}

uint64_t ortkit__proc_rss(void)
{
    FILE *f = fopen("/proc/self/statm", "re");
    long size = 0, resident = 0;
    if (!f)
        return 0;
    int ok = fscanf(f, "%ld %ld", &size, &resident) == 2;
    fclose(f);
    long page = sysconf(_SC_PAGESIZE);
    return ok && resident > 0 && page > 0 ? (uint64_t)resident * (uint64_t)page : 0;
}

int ortkit__proc_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

const char *ortkit__signal_abbrev(int sig)
{
    static const struct {
        int sig;
        const char *name;
    } names[] = {{SIGHUP, "HUP"},   {SIGINT, "INT"},   {SIGQUIT, "QUIT"}, {SIGILL, "ILL"},
                 {SIGTRAP, "TRAP"}, {SIGABRT, "ABRT"}, {SIGBUS, "BUS"},   {SIGFPE, "FPE"},
                 {SIGKILL, "KILL"}, {SIGUSR1, "USR1"}, {SIGSEGV, "SEGV"}, {SIGUSR2, "USR2"},
                 {SIGPIPE, "PIPE"}, {SIGALRM, "ALRM"}, {SIGTERM, "TERM"}, {SIGCHLD, "CHLD"},
                 {SIGCONT, "CONT"}, {SIGSTOP, "STOP"}, {SIGTSTP, "TSTP"}, {SIGXCPU, "XCPU"},
                 {SIGXFSZ, "XFSZ"}, {SIGSYS, "SYS"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig)
            return names[i].name;
    return NULL;
}
