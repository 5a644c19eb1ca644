/* util_json.h - strict JSON reading (json.c). */
#ifndef ORTKIT_UTIL_JSON_H
#define ORTKIT_UTIL_JSON_H

#include "util_base.h"

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

#endif
