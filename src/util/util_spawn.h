/* util_spawn.h - child processes (spawn.c). */
#ifndef ORTKIT_UTIL_SPAWN_H
#define ORTKIT_UTIL_SPAWN_H

#include "util_base.h"
#include "util_proc.h"

/*
 * The one place ortkit starts a process (the layers test fails on fork or
 * vfork anywhere else).  A child runs a program (argv[0] searched on PATH,
 * never through a shell) or a function in a forked copy of this process,
 * with its standard streams set as asked, optionally a message channel
 * each way, a process group of its own (killed as one), a signal for when
 * this process dies, and a deadline.  A program without a function or a
 * death signal is started with posix_spawnp (safe in a threaded caller);
 * anything else is forked, which only a caller without threads may ask
 * for (ORT starts threads: a process that loaded it never forks).
 */
typedef enum ortkit__child_io {
    ORTKIT__CHILD_INHERIT = 0, /* this process's own stream */
    ORTKIT__CHILD_NULL,        /* /dev/null */
    ORTKIT__CHILD_PIPE,        /* a pipe to this process: ch->in, ch->out, ch->err */
    ORTKIT__CHILD_FD,          /* the descriptor in the options (in_fd, out_fd, err_fd) */
    ORTKIT__CHILD_TO_OUT,      /* stderr only: wherever its stdout goes */
} ortkit__child_io;

/* Run in the child.  to_parent and from_parent are the message channel's
 * ends (-1 without one).  With argv, it runs before the program starts and
 * a nonzero return is the child's exit status instead; without, its return
 * is the exit status (the child leaves with _exit: no atexit handlers). */
typedef int (*ortkit__child_fn)(void *arg, int to_parent, int from_parent);

typedef struct ortkit__child_options {
    const char *const *argv; /* the program and its arguments; NULL: fn only */
    char *const *envp;       /* its environment (posix_spawnp only); NULL: this process's */
    ortkit__child_fn fn;     /* run in a forked child (before argv, when both) */
    void *arg;
    ortkit__child_io in, out, err; /* 0: inherited */
    int in_fd, out_fd, err_fd;     /* for ORTKIT__CHILD_FD */
    int channel;      /* a pipe each way besides stdio: ch->to, ch->from (fn children) */
    int own_group;    /* it leads a process group of its own, signalled as one */
    int death_signal; /* sent to it when this process ends (PR_SET_PDEATHSIG); 0: none */
    double timeout_s; /* its deadline, from the start (ch->deadline); 0: none */
    const char *what; /* its name in messages; NULL: argv[0], or "a child process" */
} ortkit__child_options;

typedef struct ortkit__child {
    int live;          /* started and not yet freed */
    int pid;           /* 0 once reaped */
    int in, out, err;  /* this process's ends of its PIPE streams; -1: none or closed */
    int to, from;      /* the message channel's ends here; -1: none or closed */
    int group;         /* it leads a process group */
    double deadline;   /* on ortkit__clock_now(); 0: none */
    int status;        /* once reaped: its exit status, or 128 + the signal; -1 before */
    int signal;        /* the signal that ended it, 0 */
    int timed_out;     /* killed at its deadline */
    char tail[1024];   /* the last bytes read from out by ortkit__child_read_tail */
    size_t tail_len;
    char what[256];
} ortkit__child;

/* Start a child; on failure nothing is left to free or reap (errno says
 * why a program could not be run). */
int ortkit__child_start(ortkit__child *ch, const ortkit__child_options *o);
/* Send sig to it: to its group when it leads one.  Nothing once reaped. */
void ortkit__child_kill(ortkit__child *ch, int sig);
/* Wait until it ends and reap it.  At its deadline it is killed (SIGKILL,
 * timed_out set); a child with a group and a deadline has its group killed
 * after it ends too, so nothing it started outlives it.  forward, when not
 * NULL, is a signal number a handler of the caller's records: while
 * waiting, it is passed on to the child once (the handler must not restart
 * system calls).  ORTKIT_OK, or ORTKIT_E_IO when waiting fails. */
int ortkit__child_wait(ortkit__child *ch, volatile sig_atomic_t *forward);
/* The same without blocking: 1 when it has ended (reaped now, or before),
 * 0 while it runs (killed when past its deadline), negative on an error. */
int ortkit__child_poll(ortkit__child *ch);
/* Ask it to leave (its stdin and channel closed: it sees their end), give
 * it grace_s seconds, then kill it; reaped.  What ortkit__child_wait returns. */
int ortkit__child_stop(ortkit__child *ch, double grace_s);
/* Kill it if it still runs, reap it, close every descriptor.  A child that
 * was never started (live 0: a zeroed struct) is left alone. */
void ortkit__child_free(ortkit__child *ch);
/* One read from ch->out, its last bytes kept in ch->tail: 1 while it is
 * open (nothing to read yet counts), 0 at its end (ch->out closed). */
int ortkit__child_read_tail(ortkit__child *ch);
/* The last non-empty line of ch->tail. */
void ortkit__child_last_line(const ortkit__child *ch, char *out, size_t size);
/* Read ch->out to its end, or to the deadline (then the child is killed,
 * timed_out set, what came before kept), into *output (NUL-terminated; up
 * to ORTKIT__SPAWN_OUTPUT_MAX, the rest read and dropped). */
int ortkit__child_read_all(ortkit__child *ch, char **output);

/*
 * Framed messages over a pipe: {uint32 type, uint32 size} in this
 * machine's byte order, then size bytes.  Between a parent and the child it
 * forked, never across machines.
 */
#define ORTKIT__MSG_END 1  /* the pipe ended before a message began */
#define ORTKIT__MSG_LATE 2 /* the deadline came first */
int ortkit__msg_send(int fd, uint32_t type, const void *data, size_t size);
/* One message before deadline (ortkit__clock_now(); 0: none), of at most
 * max bytes: ORTKIT_OK with *data (malloc'd, size + 1 bytes, the last 0),
 * ORTKIT__MSG_END or ORTKIT__MSG_LATE (nothing recorded, *data NULL), or
 * ORTKIT_E_IO for a frame cut short, one over max, or a failed read. */
int ortkit__msg_recv(int fd, double deadline, size_t max, uint32_t *type, void **data,
                     size_t *size);

/* Output beyond this is read and dropped, so the child never blocks on a full pipe. */
#define ORTKIT__SPAWN_OUTPUT_MAX ((size_t)4 << 20)

/*
 * Run argv (argv[0] searched on PATH) without a shell, stdin from /dev/null,
 * and wait for it.  Its stdout, and its stderr when merge_stderr (otherwise
 * stderr is dropped), go to *output (NUL-terminated; output may be NULL).
 * *status is its exit status, or 128 + the signal that killed it.  Fails
 * only when the program could not be run at all (not found, not executable).
 */
int ortkit__spawn(const char *const *argv, int merge_stderr, char **output, int *status);
/* The same with an environment (envp; NULL: this process's) and a time limit
 * (timeout_s > 0) that holds to the child's end, not only to the end of its
 * output: the child then leads a process group of its own, which is killed
 * (SIGKILL) when the time is up (*timed_out set; what it wrote before is
 * kept), and after the child ends, so nothing it started outlives it. */
int ortkit__spawn_timed(const char *const *argv, char *const *envp, double timeout_s,
                        int merge_stderr, char **output, int *status, int *timed_out);

#endif
