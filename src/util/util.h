/*
 * util.h - the helpers below everything else: both libraries, the builder,
 * the tool and the probe share them, so each job is done once.  Not
 * installed.  Compiled once, into libortkit, which exports them to ortkit's
 * own binaries only (version node ORTKIT_PRIVATE_<release>): one copy and
 * one last-error channel in a process.
 *
 * Functions that can fail return 0 or a negative ortkit_status, and record
 * a message for ortkit__error_message() on the calling thread.
 *
 *   error.c    the last-error message and code
 *   file.c     open and read regular files only, write one atomically, mkdir -p, rm -r
 *   path.c     paths built without truncation, absolute paths, PATH lookup
 *   spawn.c    child processes: a program or a function, pipes, a deadline, process
 *              groups, reaping, framed messages; a program run, its output captured
 *   probe.c    ortkit-probe: where it is, running it, its answer read
 *   cache.c    the per-user cache directories
 *   clock.c    the monotonic clock
 *   proc.c     memory (/proc/meminfo, resident set), CPUs
 *   human.c    sizes and durations for people (human_parse.c: sizes from people)
 *   json.c     strict reading of JSON objects (cJSON), and string members written
 *   version.c  dotted version numbers
 *   strv.c     string vectors, shell quoting
 *   stats.c    percentiles, mean, spread and histograms
 *   pbwire.c   protobuf wire format, and how deep a message nests
 *   digest.c   SHA-256 (and deps.txt's SHA-1), hex: the only user of OpenSSL
 *   env.c      every environment variable ortkit reads, and the user's directories
 */
#ifndef ORTKIT_UTIL_H
#define ORTKIT_UTIL_H

#include "ortkit.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct stat;

#if defined(__GNUC__)
#define ORTKIT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define ORTKIT_MUST_CHECK __attribute__((warn_unused_result))
#else
#define ORTKIT_PRINTF(f, a)
#define ORTKIT_MUST_CHECK
#endif

#define ORTKIT__KiB ((uint64_t)1024)
#define ORTKIT__MiB (ORTKIT__KiB * 1024)
#define ORTKIT__GiB (ORTKIT__MiB * 1024)

/* ---- the last error (error.c) --------------------------------------------- */

/* Record a failure for this thread; returns code. */
int ortkit__error_set(int code, const char *fmt, ...) ORTKIT_PRINTF(2, 3);
/* Same, prefixing the message already recorded: "cannot open 'm.onnx': <old>". */
int ortkit__error_wrap(int code, const char *fmt, ...) ORTKIT_PRINTF(2, 3);
/* Record ORTKIT_E_NOMEM. */
int ortkit__error_nomem(void);
/* The same for an allocation of a known (large) size, which the message
 * names: "out of memory: cannot allocate 4.0 GiB (4294967296 bytes)". */
int ortkit__error_nomem_size(size_t bytes);
/* The message and code of this thread's last failure ("" and 0 before any). */
const char *ortkit__error_message(void);
int ortkit__error_code(void);

/* strdup (NULL copies as "") that records ORTKIT_E_NOMEM on failure. */
char *ortkit__strdup(const char *s);

/* ---- files (file.c) -------------------------------------------------------- */

/*
 * Every file ortkit reads goes through these, so that none can hang it: a
 * FIFO would block open() until a writer comes, a device could block or
 * never end.  The path is opened without blocking, and refused unless it is
 * a regular file (after links): "cannot read 'x': it is a FIFO (named
 * pipe), not a regular file".
 */
/* "a directory", "a FIFO (named pipe)", "a device", "a socket"... for st_mode. */
const char *ortkit__file_kind(unsigned mode);
/* *fd: path opened for reading (O_RDONLY | O_CLOEXEC | flags, such as
 * O_NOFOLLOW), blocking as usual once open; *st (may be NULL) what fstat says. */
int ortkit__file_open(int *fd, const char *path, int flags, struct stat *st);
/* The same as a stdio stream. */
int ortkit__file_fopen(FILE **out, const char *path);
/* Only check, for a path another library opens itself (ONNX Runtime, the
 * dynamic loader): it exists, is a regular file (after links) and can be
 * read.  what names it in the message ("model" gives "cannot open model
 * 'x': ..."); may be NULL.  *st (may be NULL): what stat says of it. */
int ortkit__file_check(const char *path, const char *what, struct stat *st);
/* Read a whole regular file (a file of /proc too, to its end); *out is
 * malloc'd and NUL-terminated, *size (may be NULL) its length.  A file larger
 * than max_size is refused, never cut short. */
int ortkit__file_read(char **out, size_t *size, const char *path, size_t max_size);
/* Write a whole file through a unique temporary name beside it, synced, then
 * renamed over path: readers see the old file or the new one, never a part,
 * and a failure leaves no temporary file behind. */
int ortkit__file_write_atomic(const char *path, const void *data, size_t size);
/* The same with the new file's mode (less the umask): 0600 for what only
 * the user may read. */
int ortkit__file_write_atomic_mode(const char *path, const void *data, size_t size, unsigned mode);
/* One read(2) of up to cap bytes from fd, retried when a signal cuts it
 * short: *got is 0 at the end; a failure is set naming path. */
int ortkit__file_read_block(int fd, void *buf, size_t cap, size_t *got, const char *path);
/* Read fd to its end, cap bytes at a time through buf, handing each block
 * to fn; the first failure, of a read (named by path) or fn's own nonzero
 * return, ends it and is returned. */
int ortkit__file_each_block(int fd, void *buf, size_t cap, const char *path,
                            int (*fn)(void *arg, const void *block, size_t n), void *arg);
/* Write all of data to fd, retried when a signal cuts it short; a failure
 * is set naming path. */
int ortkit__file_write_all(int fd, const void *data, size_t size, const char *path);
/* mkdir -p (mode 0777 less the umask). */
int ortkit__mkdirs(const char *path);
/* ortkit__mkdirs that also says, in *existed, how much of path was there
 * before: the length of the first made directory's parent (strlen(path)
 * when it made nothing).  A failure undoes what it made. */
int ortkit__mkdirs_made(const char *path, size_t *existed);
/* rm -r: remove a directory tree (or a file), never following symbolic
 * links; a path that does not exist is not an error. */
int ortkit__rmtree(const char *path);
/* Undo ortkit__mkdirs_made: remove path and its parents while they are
 * empty, deepest first, never the first `existed` characters.  0 when all
 * are gone; -1 (errno set) at the first that stays.  Async-signal-safe. */
int ortkit__rmdirs_made(const char *path, size_t existed);

/* ---- digests (digest.c) ------------------------------------------------------ */

#define ORTKIT__SHA256_SIZE 32
#define ORTKIT__SHA256_HEX 65 /* 64 hex digits and a NUL */

/* n bytes as 2n lower-case hex digits and a NUL. */
void ortkit__hex(char *out, const unsigned char *in, size_t n);

/* A SHA-256 computed piece by piece.  Start it zeroed ({0}); _final or
 * _discard frees what _init took. */
typedef struct ortkit__sha256_ctx {
    void *md;   /* OpenSSL's context, left to digest.c */
    int failed; /* an update failed: _final says so */
} ortkit__sha256_ctx;

/* Begin, or begin again (what was hashed so far is dropped); ORTKIT_E_NOMEM. */
int ortkit__sha256_init(ortkit__sha256_ctx *h);
/* Add n bytes; a failure is kept for _final to report. */
void ortkit__sha256_update(ortkit__sha256_ctx *h, const void *data, size_t n);
/* The digest, and the context freed; ORTKIT_E_IO when any step failed. */
int ortkit__sha256_final(ortkit__sha256_ctx *h, unsigned char md[ORTKIT__SHA256_SIZE]);
/* Free without a digest (a zeroed or finished context too). */
void ortkit__sha256_discard(ortkit__sha256_ctx *h);
/* The same context computing a SHA-512 (npm's integrity): _init, then
 * ortkit__sha256_update, then _final (or ortkit__sha256_discard). */
#define ORTKIT__SHA512_SIZE 64
int ortkit__sha512_init(ortkit__sha256_ctx *h);
int ortkit__sha512_final(ortkit__sha256_ctx *h, unsigned char md[ORTKIT__SHA512_SIZE]);

/* The SHA-256 of size bytes at data, as bytes or as hex. */
int ortkit__sha256(unsigned char md[ORTKIT__SHA256_SIZE], const void *data, size_t size);
int ortkit__sha256_hex(char hex[ORTKIT__SHA256_HEX], const void *data, size_t size);
/* Add one printf-formatted part to h, ended by a NUL so that no two lists of
 * parts hash alike (a cache key's parts); -1 when it exceeds 8 KiB. */
int ortkit__sha256_addf(ortkit__sha256_ctx *h, const char *fmt, ...) ORTKIT_PRINTF(2, 3);

typedef enum ortkit__digest_alg {
    ORTKIT__SHA256,
    ORTKIT__SHA1 /* only to check files against ONNX Runtime's cmake/deps.txt */
} ortkit__digest_alg;

/* The digest of a regular file (opened through ortkit__file_open with flags,
 * such as O_NOFOLLOW) as hex, in hex_size bytes (65 for SHA-256, 41 for
 * SHA-1), and its size (size may be NULL).  "cannot hash 'PATH'" when the
 * digest cannot be computed. */
int ortkit__digest_file(ortkit__digest_alg alg, char *hex, size_t hex_size, uint64_t *size,
                        const char *path, int flags);
/* The SHA-256 of a file that is not a link, as 64 hex digits, and its size. */
int ortkit__sha256_file(char hex[ORTKIT__SHA256_HEX], uint64_t *size, const char *path);

/* ---- paths (path.c) -------------------------------------------------------- */

/* snprintf for paths: ORTKIT_E_IO (recorded) when the result does not fit,
 * so a cut-off path is never used, least of all to remove something. */
int ortkit__pathf(char *buf, size_t size, const char *fmt, ...) ORTKIT_PRINTF(3, 4)
    ORTKIT_MUST_CHECK;
/* *out: an absolute, normalised path for path, which need not exist ("."
 * and ".." are resolved by name, links are not followed); malloc'd. */
int ortkit__path_absolute(char **out, const char *path);
/* A colon-separated list (PATH, LD_LIBRARY_PATH, a RUNPATH, ORTKIT_PATH),
 * entry by entry, empty entries passed over.  Start it at the list (NULL:
 * empty); each entry is it.len bytes at it.entry, not NUL-terminated:
 *     for (ortkit__path_list it = {.rest = dirs}; ortkit__path_list_next(&it);)
 *         printf("%.*s\n", (int)it.len, it.entry);
 */
typedef struct ortkit__path_list {
    const char *rest;  /* what is left of the list; NULL once at its end */
    const char *entry; /* the current entry */
    size_t len;
} ortkit__path_list;
/* 1 with the next entry, 0 at the end. */
int ortkit__path_list_next(ortkit__path_list *it);
/* The current entry into buf, NUL-terminated: ORTKIT_E_IO when it does not fit. */
int ortkit__path_list_entry(const ortkit__path_list *it, char *buf, size_t size) ORTKIT_MUST_CHECK;
/* *out: the executable program on PATH (or program itself when it holds a
 * '/'); malloc'd.  ORTKIT_E_IO when there is none. */
int ortkit__path_which(char **out, const char *program);
/* buf: the first of SELF/DIR/name that access(2) allows with mode, SELF
 * the directory of the file holding ortkit's code in this process
 * (libortkit.so, or the program linking libortkit.a) and DIR taken in order
 * from rel_dirs (relative directories separated by ':'), so an installed
 * tree finds its own parts wherever it was moved; -1 (nothing recorded)
 * when there is none. */
int ortkit__self_find(char *buf, size_t size, const char *rel_dirs, const char *name, int mode);

/* ---- signals (proc.c) ------------------------------------------------------ */

/* "SEGV" for SIGSEGV, NULL for a signal it does not know: a table rather
 * than sigabbrev_np(), which needs glibc 2.32 (ortkit runs on 2.31). */
const char *ortkit__signal_abbrev(int sig);

/* ---- the environment (env.c) ------------------------------------------------ */

/* A variable ortkit reads. */
typedef struct ortkit__env_var {
    const char *name; /* "ORTKIT_RUNTIME" */
    const char *what; /* what it does, for people */
    const char *part; /* which part of ortkit reads it: "runtime: resolve" */
} ortkit__env_var;

/* The table of every variable ortkit reads, in the order docs list them. */
size_t ortkit__env_count(void);
const ortkit__env_var *ortkit__env_at(size_t i);
/* The table's row for name; NULL when it has none. */
const ortkit__env_var *ortkit__env_find(const char *name);
/* The value of name, for a name in the table (NULL when unset): every read
 * of the environment in src/ goes through here.  Any other name reads as unset (and fails an
 * assertion in a debug build): add it to the table. */
const char *ortkit__env(const char *name);
/* The same, NULL when set but empty. */
const char *ortkit__env_nonempty(const char *name);
/* $HOME when it is an absolute path, else NULL. */
const char *ortkit__home_dir(void);
/* An XDG base directory with sub below it, into buf: $var/sub when var
 * (XDG_CACHE_HOME, XDG_DATA_HOME, XDG_STATE_HOME) is an absolute path (a
 * relative one is invalid and ignored, as the XDG spec says), else
 * $HOME/fallback/sub (fallback: ".cache", ".local/share", ".local/state").
 * ORTKIT_E_IO when neither is absolute ("neither XDG_DATA_HOME nor HOME is
 * an absolute path") or the path does not fit.  Nothing is made. */
int ortkit__xdg_dir(char *buf, size_t size, const char *var, const char *fallback,
                    const char *sub);

/* ---- the per-user cache (cache.c) ----------------------------------------- */

/* $XDG_CACHE_HOME/ortkit/NAME (else ~/.cache/ortkit/NAME) into buf, made
 * 0700; -1 when there is no home or the directory is not the user's alone
 * (then nothing is cached). */
int ortkit__cache_dir(char *buf, size_t size, const char *name);
/* dir as a place only this user can write: made 0700 when missing (its
 * parents as ortkit__mkdirs makes them), else it must be a directory, not a
 * link, owned by the user, with no access for group or others.
 * ORTKIT_E_IO naming the rule it breaks and what to do (what: "the session
 * cache"). */
int ortkit__private_dir(const char *dir, const char *what);
/* Whether only this user (or root) could replace what path names
 * (path_trust.c): every directory from "/" on the way (links followed one
 * component at a time, so the directories holding them count too) belongs
 * to the user or root and is writable by no one else, or is sticky and the
 * entry in it the user's or root's; and path itself is the user's or root's,
 * writable by no one else.  0, or -1 with the first thing that fails in why. */
int ortkit__path_trusted(const char *path, char *why, size_t size);
/* Walk path from the root as the kernel resolves it, links followed one
 * component at a time (40 at most): visit(arg, DIR, ENTRY) for each entry
 * met, with the directory holding it (non-zero stops the walk: -1).  end
 * receives where the path led.  -1 with why when it cannot be walked. */
struct stat;
int ortkit__path_walk(const char *path, char *end, size_t end_size,
                      int (*visit)(void *arg, const char *dir, const struct stat *entry),
                      void *arg, char *why, size_t size);
/* st (of path) belongs to the user or root and, unless a link, is writable
 * by its owner only: 0, or -1 with why. */
int ortkit__path_owned(const char *path, const struct stat *st, char *why, size_t size);
/* Create path for a writer that will open it again by name (ONNX Runtime):
 * O_CREAT | O_EXCL | O_NOFOLLOW with mode (less the umask), so nothing
 * planted there (a link to another file) is written through.  ORTKIT_E_IO
 * with errno kept (EEXIST: try another name). */
int ortkit__file_create_new(const char *path, unsigned mode);

/* ---- child processes (spawn.c) ---------------------------------------------- */

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

/* ---- time, memory, CPUs (clock.c, proc.c) ---------------------------------- */

/* Seconds on the monotonic clock. */
double ortkit__clock_now(void);

/* MemAvailable and MemTotal (bytes) from /proc/meminfo text; each is 0 when
 * missing, and ORTKIT_E_FORMAT is returned unless both were there. */
int ortkit__meminfo_parse(const char *text, uint64_t *available, uint64_t *total);
/* The same from this machine's /proc/meminfo (either pointer may be NULL). */
int ortkit__proc_meminfo(uint64_t *available, uint64_t *total);
/* This process's resident memory in bytes; 0 when unknown. */
uint64_t ortkit__proc_rss(void);
/* Online CPUs (at least 1). */
int ortkit__proc_cpus(void);

/* ---- figures for people (human.c) ------------------------------------------ */

/* "12.3 us", "1.23 ms", "1.23 s": two decimals, one below a millisecond. */
void ortkit__human_duration(char *buf, size_t size, double seconds);
/* "1.23 ms", "12.3 ms", "123 ms": three significant digits, so that two
 * close latencies still differ in print. */
void ortkit__human_duration3(char *buf, size_t size, double seconds);
/* "512 B", "4.5 MiB", "1.2 TiB": one decimal from KiB up. */
void ortkit__human_bytes(char *buf, size_t size, double bytes);
/* "100 B", "12 KiB", "600 MiB", "1.50 GiB": memory budgets and peaks, whole
 * numbers below a GiB. */
void ortkit__human_memory(char *buf, size_t size, uint64_t bytes);
/* "1.5G", "600M", "2GiB", "512k", "1000000": bytes, in binary units (memory
 * is counted in pages); ORTKIT_E_INVALID_ARG when s is no size. */
int ortkit__human_parse_size(const char *s, uint64_t *out);

/* ---- strict JSON reading (json.c) ------------------------------------------ */

/* cJSON's own type; the header is left to the files that read JSON. */
struct cJSON;

/*
 * Reading is strict: a file often written by hand must not silently mean
 * something else because of a typo ("cpu.feature") or a wrong type.  Each
 * message starts with the reader's what and names the member by its path:
 * "host JSON: 'cpu.cache.l2' must be a number, not a string".  where is the
 * path of the object the member is in ("" at the top, "cpu", "files[2]").
 */
typedef struct ortkit__json_reader {
    const char *what; /* "host JSON", "'/x/manifest.json'" */
} ortkit__json_reader;

enum {
    ORTKIT__JSON_REQUIRED = 1, /* a missing member is an error */
    ORTKIT__JSON_NULLABLE = 2, /* null reads as missing */
    ORTKIT__JSON_PLAIN = 4     /* strings: no control characters */
};

/* How deep arrays and objects may nest: cJSON's limit (1000), past which
 * it stops as at a syntax error. */
int ortkit__json_depth_limit(void);
/* Whether a parse of text that failed at at (cJSON's error position) was
 * stopped by that limit rather than by bad syntax. */
int ortkit__json_too_deep(const char *text, const char *at);
/* "a string", "a number", "null", ... */
const char *ortkit__json_type(const struct cJSON *item);
/* obj's member key when it is a string, else NULL. */
const char *ortkit__json_str(const struct cJSON *obj, const char *key);
/* Does JSON text hold a string with an escaped NUL (\u0000)?  cJSON decodes
 * it into a C string that silently ends there: "cpu\u0000x" reads as "cpu".
 * *at is the byte offset of the escape. */
int ortkit__json_nul_escape(const char *text, size_t size, size_t *at);
/* Writing: each "key", value pair of strings added to obj in order, up to a
 * NULL key (a NULL value adds nothing, as cJSON_AddStringToObject does). */
void ortkit__json_add_strings(struct cJSON *obj, ...) __attribute__((sentinel));
/* Record ORTKIT_E_FORMAT: "<what>: <message>". */
int ortkit__json_fail(const ortkit__json_reader *r, const char *fmt, ...) ORTKIT_PRINTF(2, 3);
/* Every member of obj is one of allowed (NULL-terminated), and none is named twice. */
int ortkit__json_check_keys(const ortkit__json_reader *r, const struct cJSON *obj,
                            const char *where, const char *const *allowed);
/* A member that must be an object; *out is NULL when it is missing (or null, if nullable). */
int ortkit__json_get_object(const ortkit__json_reader *r, const struct cJSON *obj, const char *key,
                            const char *where, int flags, const struct cJSON **out);
/* A string of at most max_len bytes; *out points into obj, NULL when missing. */
int ortkit__json_get_string(const ortkit__json_reader *r, const struct cJSON *obj, const char *key,
                            const char *where, size_t max_len, int flags, const char **out);
/* A whole number in [min, max] (within +-2^53, where JSON numbers are exact);
 * *out is left alone when the member is missing. */
int ortkit__json_get_whole(const ortkit__json_reader *r, const struct cJSON *obj, const char *key,
                           const char *where, double min, double max, int flags, int64_t *out);
/* true or false; *out is left alone when the member is missing. */
int ortkit__json_get_bool(const ortkit__json_reader *r, const struct cJSON *obj, const char *key,
                          const char *where, int flags, int *out);

/* ---- version numbers (version.c) ------------------------------------------- */

#define ORTKIT__VERSION_MAX_PARTS 8

/* "1.30.0" -> {1, 30, 0}, n = 3. */
typedef struct ortkit__version {
    long part[ORTKIT__VERSION_MAX_PARTS];
    size_t n;
} ortkit__version;

/*
 * The dotted decimal version at the start of s: "1.30.0", "12.9",
 * "570.124.06".  With rest, *rest is what follows the numbers ("-dev" in
 * "1.22.0-dev"); without, nothing may follow.  ORTKIT_E_FORMAT when s does
 * not start with a digit, a part exceeds 999999999, a dot is not followed by
 * a digit, or (without rest) anything follows.
 */
int ortkit__version_parse(ortkit__version *out, const char *s, const char **rest);
/* Compare the leading dotted numbers of a and b part by part, a missing
 * part (or text that is no version) counting as 0: < 0, 0 or > 0. */
int ortkit__version_compare(const char *a, const char *b);

/* ---- growing arrays (array.c) ---------------------------------------------- */

/* Room for need elements of size bytes in *items (a T ** passed as void *:
 * &list->v), *cap counting what is allocated: doubled from first until it
 * fits.  ORTKIT_E_NOMEM leaves the array as it was. */
int ortkit__array_reserve(void *items, size_t *cap, size_t need, size_t size, size_t first)
    ORTKIT_MUST_CHECK;

/* ---- strings (strv.c) ------------------------------------------------------ */

/* A growable argv-style list of strings: v[n] is NULL. */
typedef struct ortkit__strv {
    char **v;
    size_t n, cap;
} ortkit__strv;

int ortkit__strv_push(ortkit__strv *sv, const char *s);
int ortkit__strv_pushf(ortkit__strv *sv, const char *fmt, ...) ORTKIT_PRINTF(2, 3);
void ortkit__strv_free(ortkit__strv *sv);
/* s quoted for a POSIX shell (single quotes only when needed); malloc'd. */
char *ortkit__shell_quote(const char *s);

/* ---- the probe program (probe.c) --------------------------------------------- */

/*
 * ortkit-probe (src/probe) loads a runtime in a process of its own, and
 * tries a GPU provider in it when asked: every "load it in a child to see"
 * of ortkit's goes through it, so a library that crashes or hangs takes the
 * probe down, not the caller.  Its command line:
 *   ortkit-probe [RUNTIME]          load only (no RUNTIME: the runtime search's)
 *   ortkit-probe RUNTIME PROVIDER[:OPTIONS] [--origin DIR] [--cudnn] [-- SONAME...]
 * It answers in lines on stdout, fields separated by tabs, each flushed as
 * it happens, so the parent knows how far a crashed probe got:
 *   stage NAME                      it begins: libraries, runtime, provider
 *   need SONAME ok PATH | need SONAME missing ERROR
 *   cudnn PATH CUDART CUDNN | cudnn - missing ERROR
 *   runtime VERSION PATH            the runtime loaded
 *   provider NAME                   each provider it was built with
 *   ok WHAT | fail STAGE MESSAGE    the end
 */
typedef struct ortkit__probe_answer {
    char *output;        /* what it wrote, as written (its stderr too when merged) */
    int status;          /* its exit status, or 128 + the signal */
    int timed_out;
    int ok;              /* it said ok */
    char stage[32];      /* the last stage it began */
    char fail_stage[32]; /* it said fail: where, and why */
    char message[2048];
    char version[64];    /* the runtime line */
    char path[4096];
    ortkit__strv providers; /* the provider lines */
    char last[512];      /* the last line that is none of these (stderr) */
} ortkit__probe_answer;

/* The probe program: ORTKIT_PROBE_EXE, else libexec/ortkit/ortkit-probe
 * beside the file holding ortkit's code.  0, or -1 when there is none. */
int ortkit__probe_find(char *buf, size_t size);
/* Read the probe's lines into *a (a->output is left as it is). */
int ortkit__probe_parse(ortkit__probe_answer *a, const char *output);
/* Run the probe with args after its name (NULL-terminated), envp (NULL:
 * this process's), a time limit (0: none), and its stderr merged into its
 * output or dropped; *a parsed.  Fails only when it cannot be run. */
int ortkit__probe_run(ortkit__probe_answer *a, const char *const *args, char *const *envp,
                      double timeout_s, int merge_stderr);
/* Load a runtime in the probe: ORTKIT_OK with a->ok, a->version, a->path
 * and a->providers; otherwise ORTKIT_E_RUNTIME_INVALID (it could not load:
 * a->message) or ORTKIT_E_IO (the probe crashed, hung or could not run),
 * with a message that says which. */
int ortkit__probe_load(ortkit__probe_answer *a, const char *runtime, double timeout_s);
void ortkit__probe_answer_free(ortkit__probe_answer *a);

/* ---- statistics (stats.c) -------------------------------------------------- */

typedef struct ortkit__stats {
    size_t n;
    double min, mean, stddev, max;
    double p50, p90, p95, p99;
} ortkit__stats;

/* Sort ascending, in place. */
void ortkit__stats_sort(double *v, size_t n);
/*
 * The p-th quantile (p in [0, 1]) of sorted data, interpolated linearly
 * between the two nearest ranks (numpy's default), so p50 of an even count is
 * the mean of the middle two.  NAN when n is 0.
 */
double ortkit__stats_percentile(const double *sorted, size_t n, double p);
/* Every figure of *out from samples, which are sorted in place.  Zeros when n is 0.
 * stddev is the sample standard deviation (n - 1); 0 for one sample. */
void ortkit__stats_compute(ortkit__stats *out, double *samples, size_t n);
/*
 * Count samples into `bins` equal-width bins over [lo, hi).  Samples below lo
 * go to the first bin; samples at or above hi are counted in *above, or in
 * the last bin when above is NULL.  When hi <= lo everything lands in the
 * first bin.  Returns the largest bin count.
 */
size_t ortkit__stats_histogram(const double *sorted, size_t n, double lo, double hi,
                               size_t *counts, size_t bins, size_t *above);

/* ---- protobuf wire format (pbwire.c) ---------------------------------------- */

/*
 * The deepest nesting of messages ortkit decodes: protobuf's own default
 * recursion limit, which ONNX Runtime's parser keeps, so every file the
 * runtime loads is within it.
 */
#define ORTKIT__PB_MAX_DEPTH 100

/* Wire types. */
enum { ORTKIT__PB_VARINT = 0, ORTKIT__PB_FIXED64 = 1, ORTKIT__PB_BYTES = 2,
       ORTKIT__PB_FIXED32 = 5 };

/* One field as it is on the wire. */
typedef struct ortkit__pb_field {
    uint32_t number;
    unsigned wire;             /* ORTKIT__PB_VARINT, ... */
    uint64_t value;            /* varint and fixed-size fields */
    const unsigned char *data; /* ORTKIT__PB_BYTES: the bytes (a string, bytes or a message) */
    size_t len;
} ortkit__pb_field;

/* A varint at *pos (moved past it); -1 when it runs past end or over ten bytes. */
int ortkit__pb_varint(const unsigned char **pos, const unsigned char *end, uint64_t *out);
/* The field at *pos of a message ending at end, *pos moved past it: 1, or
 * 0 at the end, or -1 when the bytes are no protobuf (a length past the
 * end, a group, field number 0). */
int ortkit__pb_next(const unsigned char **pos, const unsigned char *end, ortkit__pb_field *f);

/* protobuf-c's type for a message's schema; its header is left to pbwire.c. */
struct ProtobufCMessageDescriptor;

enum { ORTKIT__PB_OK = 0, ORTKIT__PB_TOO_DEEP = 1, ORTKIT__PB_MALFORMED = 2 };

/*
 * Check data, a message of type root, before protobuf-c decodes it (and
 * recurses once per level): ORTKIT__PB_TOO_DEEP when a sub-message lies more
 * than max_depth (at most ORTKIT__PB_MAX_DEPTH) levels below the top,
 * ORTKIT__PB_MALFORMED when the bytes are no protobuf; why (may be NULL with
 * why_size 0) then says so and where: "messages nested deeper than 100 levels
 * (onnx.TypeProto at byte 4242)".  Which fields are messages comes from the
 * descriptors, so only what protobuf-c would decode counts; without
 * recursion, and reading only tags, so any size or depth of input is safe.
 * Records no error: the caller words it.
 */
int ortkit__pb_check(const void *data, size_t size, const struct ProtobufCMessageDescriptor *root,
                     unsigned max_depth, char *why, size_t why_size);

#endif
