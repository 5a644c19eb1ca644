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
 *   array.c    room in a growing array
 *
 * Each part's declarations are in util_<part>.h (util_base.h: what they
 * share); this header includes them all, and a file may include only the
 * parts it uses.
 */
#ifndef ORTKIT_UTIL_H
#define ORTKIT_UTIL_H

#include "util_base.h"
#include "util_error.h"
#include "util_file.h"
#include "util_digest.h"
#include "util_path.h"
#include "util_proc.h"
#include "util_env.h"
#include "util_cache.h"
#include "util_spawn.h"
#include "util_human.h"
#include "util_json.h"
#include "util_version.h"
#include "util_array.h"
#include "util_strv.h"
#include "util_probe.h"
#include "util_stats.h"
#include "util_pbwire.h"

#endif
