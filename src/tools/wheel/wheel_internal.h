/*
 * wheel_internal.h - what the wheel module's files share; not installed.
 *
 *   wheel_tag.c     the platform tag measured needs earn; local version labels
 *   wheel_facts.c   what a wheel says of itself: file names, RECORD hashes,
 *                   ortkit.json and variant.json
 *   wheel_pack.c    a package tree into a wheel
 *   wheel_read.c    a wheel opened and every claim in it checked
 *   wheel_list.c    wheels.json read strictly
 *   wheel_index.c   wheels.json and the PEP 503 pages written; publishing
 *   wheel_choose.c  an index opened and verified, judged, fetched from
 */
#ifndef ORTKIT_WHEEL_INTERNAL_H
#define ORTKIT_WHEEL_INTERNAL_H

#include "core.h"
#include "ortkit/tools/wheel.h"

#include <stdint.h>

#define WHEEL_PACKAGE "onnxruntime"
#define WHEEL_FACTS "ortkit.json"
#define WHEEL_VARIANTS "variant.json"
#define WHEEL_INDEX "wheels.json"
#define WHEEL_INDEX_SIG "wheels.json.minisig"
#define WHEEL_FACTS_SCHEMA 1
/* A wheel of more files or bytes than these is refused before it is unpacked. */
#define WHEEL_MAX_FILES 100000
#define WHEEL_MAX_BYTES ((uint64_t)32 << 30)
#define WHEEL_MAX_META ((size_t)16 << 20)
#define WHEEL_PATH_MAX 1024

/* A wheel's file name, split (PEP 427): the parts point into buf. */
typedef struct ortkit__wheel_name {
    char buf[512];
    const char *dist, *version, *build, *python_tag, *abi_tag, *platform_tag;
} ortkit__wheel_name;
int ortkit__wheel_name_parse(ortkit__wheel_name *out, const char *file);

/* RECORD's hash of a file: "sha256=" and the urlsafe base64 of the digest, unpadded. */
#define WHEEL_RECORD_HASH 52
void ortkit__wheel_record_hash(char out[WHEEL_RECORD_HASH], const unsigned char md[32]);

/* "3.11" -> "cp311"; 3, 11 into major, minor. */
int ortkit__wheel_python_tag(char *buf, size_t size, const char *python, int *major, int *minor);

/* What the ELF files of a wheel need together. */
typedef struct ortkit__wheel_needs {
    char glibc[24], glibcxx[24], cxxabi[24];
    ortkit__strv libraries;   /* DT_NEEDED names the wheel does not carry, sorted, once */
    int exec_stack;
    struct cJSON *elf;        /* [{path, glibc, glibcxx, cxxabi, needed}] */
} ortkit__wheel_needs;
/* Add the ELF file at path (member name rel) to needs: refused when it is
 * for another machine than arch. */
int ortkit__wheel_needs_add(ortkit__wheel_needs *needs, const char *path, const char *rel,
                            ortkit_arch arch);
/* Drop from libraries the names of files the wheel carries (its own basenames). */
void ortkit__wheel_needs_own(ortkit__wheel_needs *needs, const ortkit__strv *basenames);
void ortkit__wheel_needs_free(ortkit__wheel_needs *needs);

/* The manifest of bundle_json with needs replaced by the wheel's and its
 * parts dropped (they describe the bundle's own library files): what
 * selection reads of a wheel. */
struct cJSON *ortkit__wheel_bundle_facts(const char *bundle_json, size_t size,
                                         const ortkit__wheel_needs *needs);
/* variant.json (PEP 825's draft form) for a manifest, as text (malloc'd). */
char *ortkit__wheel_variant_json(const ortkit_manifest *m, const char *label);

/* ortkit_wheel_open of a file at path whose name is to be file (a
 * temporary name while it is made or fetched). */
int ortkit__wheel_open_as(ortkit_wheel **out, const char *path, const char *file);

/* wheels.json, read (wheel_list.c). */
#define WHEEL_INDEX_MAX ((size_t)64 << 20)
#define WHEEL_INDEX_MAX_ENTRIES 4096
typedef struct ortkit__wheel_list {
    uint64_t serial;
    int64_t created, expires;
    size_t count;
    ortkit_wheel_entry *entries; /* strings and bundles owned here */
    struct cJSON *facts;         /* the "wheels" array as published */
} ortkit__wheel_list;
int ortkit__wheel_index_parse(ortkit__wheel_list *out, const char *text, size_t size, const char *what);
void ortkit__wheel_index_clear(ortkit__wheel_list *l);

struct ortkit_wheel {
    ortkit_wheel_info info;
    ortkit__strv strings;      /* what info's strings point into */
    ortkit_bundle *bundle;
    char *facts;
};

#endif
