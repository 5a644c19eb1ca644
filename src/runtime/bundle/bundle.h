/*
 * bundle.h - the read side of bundles, shared by the bundle module and the
 * modules above it (and by the tools wing's bundle_make); not installed.
 *
 *   bundle.c          a bundle: open it, what it holds, cheap checks of its library
 *   bundle_manifest.c manifest.json: read it strictly, write it
 *   bundle_verify.c   check a bundle's files against its manifest
 *   bundle_find.c     the directories searched for bundles, and listing them
 *   bundle_needs.c    whether a host can load a bundle's files
 *
 * Making bundles is src/tools/bundle_make's (bundle_make.h).
 */
#ifndef ORTKIT_BUNDLE_H
#define ORTKIT_BUNDLE_H

#include "elf_reader.h"
#include "core.h"

#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#define BUNDLE_MANIFEST "manifest.json"
/* A manifest larger than this is refused before it is parsed. */
#define BUNDLE_MANIFEST_MAX ((size_t)8 << 20)
#define BUNDLE_MAX_FILES 10000
#define BUNDLE_NAME_MAX 64

struct ortkit_bundle {
    ortkit_manifest m;     /* the public view; its strings are owned here */
    char *library_path;    /* dir + "/" + m.library; "" when parsed from memory */
    char damage[512];      /* why it cannot be used, found when it was opened; "" */
    char **problems;       /* from ortkit_bundle_verify */
    size_t problem_count;
    char **strings;        /* every string the manifest view points at */
    size_t string_count, string_cap;
    char manifest_sha256[65]; /* of the manifest's bytes as they were read */
};

/* The manifest's "parts" (bundle_parts.c): what the core and each provider
 * library need, apart.  collect reads them from the ELF files in dir into
 * b->m (none when the bundle has no provider library but the bridge). */
struct cJSON;
int ortkit__parts_collect(ortkit_bundle *b, const char *dir);
int ortkit__manifest_parts_read(const ortkit__json_reader *r, ortkit_bundle *b, const struct cJSON *parts);
int ortkit__manifest_parts_write(struct cJSON *root, const ortkit_manifest *m);
/* A library file name a manifest may hold: printable, no '/', not "." or "..". */
int ortkit__bundle_library_name_ok(const char *s);

/* Parse and validate manifest JSON; what names the source in messages. */
int ortkit__bundle_parse(ortkit_bundle **out, const char *json, size_t size, const char *what);
/* The listed file at path (the files are sorted), or NULL. */
const ortkit_bundle_file *ortkit__bundle_file(const ortkit_manifest *m, const char *path);
/* Does the bundle carry a file named name (its last component, in any
 * directory)?  Its index + 1, or 0. */
size_t ortkit__bundle_carries(const ortkit_manifest *m, const char *name);
/* Manifest JSON for a bundle (pretty-printed, newline-terminated); free() it. */
int ortkit__bundle_to_json(char **out, const ortkit_manifest *m);
/* A copy of s kept with the bundle (freed with it); NULL when out of memory. */
const char *ortkit__bundle_keep(ortkit_bundle *b, const char *s);
/* A zeroed array of count elements kept with the bundle; NULL when out of memory. */
void *ortkit__bundle_keep_zeroed(ortkit_bundle *b, size_t count, size_t size);
/* Names allowed for bundles: [A-Za-z0-9][A-Za-z0-9._+-]*, at most 64 bytes. */
int ortkit__bundle_name_ok(const char *name);
/* A static bundle (lib/libonnxruntime.a): linked into programs, never loaded. */
static inline int ortkit__bundle_is_static(const ortkit_manifest *m)
{
    return m->linkage && !strcmp(m->linkage, "static");
}
/* The ISA a CPU level stands for: 0 for "cpu" (any CPU), else 1 + a rank. */
int ortkit__bundle_cpu_level(const ortkit_manifest *m, const char **label);

/* The user's bundle directory: $XDG_DATA_HOME/ortkit/bundles or
 * ~/.local/share/ortkit/bundles. */
int ortkit__bundle_user_dir(char *buf, size_t size);

/* Verify a bundle from its files alone (nothing is loaded): every listed
 * file present with its size, SHA-256 and links, owners and modes, nothing
 * extra, ELF files for the manifest's machine with RUNPATH $ORIGIN, the
 * version confirmed from the library's data.  use_cache: a bundle whose
 * files (device, inode, size, times, mode, owner) and manifest are as they
 * were when it last verified is not hashed again (*from_cache set). */
int ortkit__bundle_check(ortkit_bundle *bundle, int use_cache, int *from_cache);

/* The verified-state cache (bundle_verified.c), in a directory only the
 * user can write: $XDG_CACHE_HOME/ortkit/verified.  state is the text that
 * describes the files as they are now; *hit is set when it equals what was
 * stored for this bundle after its last successful verification. */
int ortkit__verified_lookup(const ortkit_bundle *bundle, const char *state, size_t size, int *hit);
int ortkit__verified_store(const ortkit_bundle *bundle, const char *state, size_t size);
/* The manifest's "build" key (bundle_build_manifest.c). */
struct cJSON;
int ortkit__manifest_build_read(const ortkit__json_reader *r, ortkit_bundle *b, const struct cJSON *build);
int ortkit__manifest_build_write(struct cJSON *root, const ortkit_manifest *m);

/* ---- what loading needs of a host (bundle_needs.c) ---------------------------- */

/* Overrides of the judgement, from ORTKIT_IGNORE_NEEDS (a comma-separated
 * list of glibc, glibcxx, libraries, all): bits of these. */
enum { ORTKIT__IGNORE_GLIBC = 1, ORTKIT__IGNORE_GLIBCXX = 2, ORTKIT__IGNORE_LIBRARIES = 4 };
unsigned ortkit__needs_ignored(void);

/*
 * Can the host load files that need these (the manifest's needs, or one
 * library's)?  1 yes (why: "" or what was not judged, and overrides used),
 * 0 no (why: "needs glibc 2.43, this host has 2.36"; "needs libX.so.0, not
 * in the bundle, not on this host"; "needs an executable stack, which glibc
 * 2.41 and newer ... refuse").  A host that does not say (no glibc, no
 * library list) is not refused for it.
 */
int ortkit__needs_met(const ortkit_host *host, const char *glibc, const char *glibcxx,
                      int exec_stack, const char *const *libraries, size_t library_count, char *why,
                      size_t size);

#endif
