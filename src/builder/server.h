/* server.h - the gate's socket side (server.c), driven by driver.c's poll loop. */
#ifndef ORTKIT_BUILDER_SERVER_H
#define ORTKIT_BUILDER_SERVER_H

#include "builder_history.h"
#include "builder_gate.h"
#include "builder_launcher.h"
#include "builder_report.h"

#include <poll.h>
#include <sys/types.h>

typedef struct ortkit__builder_client {
    int fd;
    pid_t pid; /* the launcher, as the kernel says (SO_PEERCRED) */
    int bad;
    ortkit__builder_job *job; /* NULL until REQ, and again after END */
    size_t len;
    char buf[8192];
} ortkit__builder_client;

typedef struct ortkit__builder_server {
    int listen_fd;
    int state_fd;                     /* the state directory, where the socket is */
    dev_t sock_dev;                   /* the socket file this server made, removed on close */
    ino_t sock_ino;
    ortkit__builder_client *clients;
    size_t n_clients, cap_clients;
    ortkit__builder_gate gate;
    ortkit__builder_history *history; /* learnt peaks are written here */
    ortkit__builder_report *report;   /* each finished compile is recorded here */
    const char *chain;                /* what launchers run the compiler through */
    int learn;                        /* 0 under distcc: the compile's memory is elsewhere */
    int stopping;                     /* admit nothing more */
    uint64_t dropped;                 /* launchers that went away holding a reservation */
    uint64_t refused;                 /* connections of another user, closed unheard */
} ortkit__builder_server;

/*
 * Serve the gate on STATE/gate.sock.  The state directory must be this
 * user's alone (ortkit__builder_state_dir_open) and this process must hold
 * its lock: launchers trust no other.  A socket left by a build that was
 * killed, or one another user put there, is replaced; one that this user's
 * live process serves is refused ("another gate ... is already serving").
 */
int ortkit__builder_server_open(ortkit__builder_server *s, const char *state_dir, uint64_t budget,
                                int slots, ortkit__builder_history *history,
                                ortkit__builder_report *report);
void ortkit__builder_server_close(ortkit__builder_server *s);
/* The descriptors to poll (the listening socket and each launcher). */
size_t ortkit__builder_server_pollfds(const ortkit__builder_server *s, struct pollfd *pfd, size_t max);
/* Serve what poll reported, then admit what fits. */
void ortkit__builder_server_handle(ortkit__builder_server *s, const struct pollfd *pfd, size_t n,
                                   double now);
/* Sample the memory of running compiles and of the system; admit what fits. */
void ortkit__builder_server_tick(ortkit__builder_server *s, double now);

#endif
