/*
 * json.c - strict reading of JSON objects on cJSON: unknown and repeated
 * keys, wrong types, fractions and out-of-range numbers are refused with a
 * message that names the member by its path.
 */
#include "util.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MESSAGE_MAX 768

const char *ortkit__json_str(const cJSON *obj, const char *key)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(it) ? it->valuestring : NULL;
}

const char *ortkit__json_type(const cJSON *it)
{
    if (cJSON_IsString(it)) return "a string";
    if (cJSON_IsNumber(it)) return "a number";
    if (cJSON_IsBool(it)) return "a boolean";
    if (cJSON_IsNull(it)) return "null";
    if (cJSON_IsArray(it)) return "an array";
    if (cJSON_IsObject(it)) return "an object";
    return "invalid";
}

int ortkit__json_depth_limit(void) { return CJSON_NESTING_LIMIT; }

int ortkit__json_too_deep(const char *text, const char *at)
{
    if (!text || !at || at < text)
        return 0;
    int depth = 0, in_string = 0;
    for (const char *p = text; p < at && *p; p++) {
        if (in_string) {
            if (*p == '\\' && p + 1 < at)
                p++;
            else if (*p == '"')
                in_string = 0;
        } else if (*p == '"') {
            in_string = 1;
        } else if (*p == '[' || *p == '{') {
            depth++;
        } else if ((*p == ']' || *p == '}') && depth > 0) {
            depth--;
        }
    }
    return depth >= CJSON_NESTING_LIMIT;
}

int ortkit__json_fail(const ortkit__json_reader *r, const char *fmt, ...)
{
    char msg[MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ortkit__error_set(ORTKIT_E_FORMAT, "%s: %s", r->what, msg);
}

/* "cpu" + "model" -> "cpu.model"; "" + "arch" -> "arch".  Long keys are cut:
 * the path only names the member in a message. */
static const char *member_path(char *buf, size_t size, const char *where, const char *key)
{
    snprintf(buf, size, "%s%s%.64s", where, *where ? "." : "", key);
    return buf;
}

int ortkit__json_check_keys(const ortkit__json_reader *r, const cJSON *obj, const char *where,
                            const char *const *allowed)
{
    char path[160];
    for (const cJSON *it = obj->child; it; it = it->next) {
        int known = 0;
        for (size_t i = 0; allowed[i] && !known; i++)
            known = !strcmp(it->string, allowed[i]);
        if (!known)
            return ortkit__json_fail(r, "unknown key '%s'",
                                     member_path(path, sizeof path, where, it->string));
        for (const cJSON *o = obj->child; o != it; o = o->next)
            if (!strcmp(o->string, it->string))
                return ortkit__json_fail(r, "key '%s' appears twice",
                                         member_path(path, sizeof path, where, it->string));
    }
    return ORTKIT_OK;
}

/* The member, or NULL when it is missing (or null and nullable); a missing
 * member that is required is an error (*rc). */
static const cJSON *member(const ortkit__json_reader *r, const cJSON *obj, const char *key,
                           const char *where, int flags, int *rc)
{
    char path[160];
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    *rc = ORTKIT_OK;
    if (it && (flags & ORTKIT__JSON_NULLABLE) && cJSON_IsNull(it))
        it = NULL;
    if (!it && (flags & ORTKIT__JSON_REQUIRED))
        *rc = ortkit__json_fail(r, "missing '%s'", member_path(path, sizeof path, where, key));
    return it;
}

/* The member key of obj when it is of the type is_type checks (want says it
 * in words); NULL with *rc 0 when absent and allowed to be, or with *rc the
 * failure recorded. */
static const cJSON *typed(const ortkit__json_reader *r, const cJSON *obj, const char *key,
                          const char *where, int flags, cJSON_bool (*is_type)(const cJSON *),
                          const char *want, int *rc)
{
    char path[160];
    const cJSON *it = member(r, obj, key, where, flags, rc);
    if (it && !is_type(it)) {
        *rc = ortkit__json_fail(r, "'%s' must be %s, not %s",
                                member_path(path, sizeof path, where, key), want,
                                ortkit__json_type(it));
        return NULL;
    }
    return it;
}

int ortkit__json_get_object(const ortkit__json_reader *r, const cJSON *obj, const char *key,
                            const char *where, int flags, const cJSON **out)
{
    int rc;
    *out = typed(r, obj, key, where, flags, cJSON_IsObject, "an object", &rc);
    return rc;
}

int ortkit__json_get_string(const ortkit__json_reader *r, const cJSON *obj, const char *key,
                            const char *where, size_t max_len, int flags, const char **out)
{
    char path[160];
    int rc;
    const cJSON *it = typed(r, obj, key, where, flags, cJSON_IsString, "a string", &rc);
    *out = NULL;
    if (!it)
        return rc;
    if (!it->valuestring) /* a string item built without one, not parsed */
        return ortkit__json_fail(r, "'%s' must be a string", member_path(path, sizeof path, where, key));
    size_t n = strlen(it->valuestring);
    if (n > max_len)
        return ortkit__json_fail(r, "'%s' is longer than %zu bytes",
                                 member_path(path, sizeof path, where, key), max_len);
    if (flags & ORTKIT__JSON_PLAIN)
        for (const unsigned char *c = (const unsigned char *)it->valuestring; *c; c++)
            /* C0, DEL, and C1 (U+0080..U+009F, 0xC2 0x80..0x9F in UTF-8):
             * terminals act on all of them. */
            if (*c < 0x20 || *c == 0x7f || (c[0] == 0xc2 && c[1] >= 0x80 && c[1] <= 0x9f))
                return ortkit__json_fail(r, "'%s' holds a control character",
                                         member_path(path, sizeof path, where, key));
    *out = it->valuestring;
    return ORTKIT_OK;
}

int ortkit__json_get_whole(const ortkit__json_reader *r, const cJSON *obj, const char *key,
                           const char *where, double min, double max, int flags, int64_t *out)
{
    char path[160];
    int rc;
    const cJSON *it = typed(r, obj, key, where, flags, cJSON_IsNumber, "a number", &rc);
    if (!it)
        return rc;
    double v = it->valuedouble;
    /* Written so that NaN and infinities fail too. */
    if (!(v >= min && v <= max) || v != floor(v))
        return ortkit__json_fail(r, "'%s' must be a whole number from %.0f to %.0f, not %g",
                                 member_path(path, sizeof path, where, key), min, max, v);
    *out = (int64_t)v;
    return ORTKIT_OK;
}

int ortkit__json_get_bool(const ortkit__json_reader *r, const cJSON *obj, const char *key,
                          const char *where, int flags, int *out)
{
    int rc;
    const cJSON *it = typed(r, obj, key, where, flags, cJSON_IsBool, "true or false", &rc);
    if (!it)
        return rc;
    *out = cJSON_IsTrue(it);
    return ORTKIT_OK;
}

int ortkit__json_nul_escape(const char *text, size_t size, size_t *at)
{
    int in_string = 0;
    for (size_t i = 0; i < size; i++) {
        char c = text[i];
        if (!in_string) {
            in_string = c == '"';
            continue;
        }
        if (c == '"') {
            in_string = 0;
        } else if (c == '\\' && i + 1 < size) {
            /* An escaped character: \uXXXX may spell NUL, anything else is skipped. */
            if (text[i + 1] == 'u' && i + 5 < size && !strncmp(text + i + 2, "0000", 4)) {
                *at = i;
                return 1;
            }
            i++;
        }
    }
    return 0;
}

void ortkit__json_add_strings(cJSON *obj, ...)
{
    va_list ap;
    va_start(ap, obj);
    for (const char *key; (key = va_arg(ap, const char *));) {
        const char *value = va_arg(ap, const char *);
        if (obj && value)
            cJSON_AddStringToObject(obj, key, value);
    }
    va_end(ap);
}
