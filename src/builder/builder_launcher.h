/* builder_launcher.h - the builder: the launcher (launcher.c). */
#ifndef ORTKIT_BUILDER_LAUNCHER_H
#define ORTKIT_BUILDER_LAUNCHER_H

#include "ortkit.h"
#include "util.h"
#include "builder_gate.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* The gate's socket, in the state directory. */
#define ORTKIT__BUILDER_GATE_SOCKET "gate.sock"
/*
 * Open the build's state directory (O_RDONLY | O_DIRECTORY, not through a
 * link) into *dirfd after checking that only this user can reach it: the
 * directory owned by this user and writable by nobody else, its parent (the
 * build directory) owned by this user or root and writable by nobody else
 * unless sticky.  create: make both when missing (the state directory
 * 0700) and close a state directory others can only read to 0700.  Without
 * create, a missing one is no error: *dirfd is -1.  A refusal names the
 * directory and what to do.
 */
int ortkit__builder_state_dir_open(const char *state_dir, int create, int *dirfd);
struct sockaddr_un;
/* The gate's socket address (STATE/gate.sock, for bind() and connect()) in
 * the state directory open as dirfd; a path too long for sun_path is reached
 * through /proc/self/fd/DIRFD.  Returns the address's length. */
size_t ortkit__builder_gate_sockaddr(struct sockaddr_un *sa, const char *state_dir, int dirfd);
/* The peer's process and user, as the kernel recorded them (SO_PEERCRED);
 * -1 with errno set when it cannot say. */
int ortkit__builder_peer_cred(int fd, pid_t *pid, uid_t *uid);
/* The PID in the state directory's lock file (open as dirfd), when it is a
 * regular file of this user's; 0 when none. */
pid_t ortkit__builder_lock_holder(int dirfd);
/* `ortkit build --launch STATE_DIR COMPILER ARGS...`: returns the exit status. */
int ortkit__builder_launch(int argc, char **argv);
/* The source file and language of a compiler command line (index into argv or -1). */
int ortkit__builder_classify(char *const *argv, int argc, ortkit__builder_lang *lang);

#endif
