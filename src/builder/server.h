/* server.h - the gate's socket side (server.c), driven by driver.c's poll loop. */
#ifndef ORTKIT_BUILD_SERVER_H
#define ORTKIT_BUILD_SERVER_H

#include "build.h"

#include <poll.h>

typedef struct ortkit_build_client {
    int fd;
    int bad;
    ortkit_build_job *job; /* NULL until REQ, and again after END */
    size_t len;
    char buf[8192];
} ortkit_build_client;

typedef struct ortkit_build_server {
    int listen_fd;
    ortkit_build_client *clients;
    size_t n_clients, cap_clients;
    ortkit_build_gate gate;
    ortkit_build_history *history; /* learnt peaks are written here */
    ortkit_build_report *report;   /* each finished compile is recorded here */
    const char *chain;             /* what launchers run the compiler through */
    int learn;                     /* 0 under distcc: the compile's memory is elsewhere */
    int stopping;                  /* admit nothing more */
    uint64_t dropped;              /* launchers that went away holding a reservation */
} ortkit_build_server;

int ortkit_build_server_open(ortkit_build_server *s, const char *state_dir, uint64_t budget,
                             int slots, ortkit_build_history *history, ortkit_build_report *report);
void ortkit_build_server_close(ortkit_build_server *s);
/* The descriptors to poll (the listening socket and each launcher). */
size_t ortkit_build_server_pollfds(const ortkit_build_server *s, struct pollfd *pfd, size_t max);
/* Serve what poll reported, then admit what fits. */
void ortkit_build_server_handle(ortkit_build_server *s, const struct pollfd *pfd, size_t n,
                                double now);
/* Sample the memory of running compiles and of the system; admit what fits. */
void ortkit_build_server_tick(ortkit_build_server *s, double now);

#endif
