/*
 * value_files.c - values of every kind in files, for `run -o` and `run -i`:
 * a tensor is NAME.npy, a sequence a directory NAME/ of 0.npy, 1.npy...
 * (0.json, 1.json... for maps), a map NAME.json
 * ({"key_type": "int64", "value_type": "float32", "keys": [...], "values": [...]}),
 * an optional holding none NAME.json holding null.  What -o writes, -i reads.
 */
#include "value_files.h"
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_ITEMS 100000
#define MAX_JSON_BYTES ((size_t)256 << 20)

const char *value_file_ext(const ortkit_value *v)
{
    switch (ortkit_value_kind_of(v)) {
    case ORTKIT_KIND_TENSOR: return ".npy";
    case ORTKIT_KIND_SEQUENCE: return "";
    case ORTKIT_KIND_OPTIONAL:
        return ortkit_value_count(v) ? value_file_ext(ortkit_value_item(v, 0)) : ".json";
    default: return ".json";
    }
}

/* ---- maps as JSON ------------------------------------------------------- */

static cJSON *tensor_items(const ortkit_tensor *t)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < ortkit_tensor_count(t); i++)
        cJSON_AddItemToArray(a, ortkit_tensor_type(t) == ORTKIT_TYPE_STRING
                                    ? cJSON_CreateString(ortkit_tensor_string(t, i))
                                    : cJSON_CreateNumber(value_at(t, i)));
    return a;
}

cJSON *value_map_json(const ortkit_value *m)
{
    const ortkit_tensor *k = ortkit_value_map_keys(m), *v = ortkit_value_map_values(m);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "key_type", ortkit_type_name(ortkit_tensor_type(k)));
    cJSON_AddStringToObject(o, "value_type", ortkit_type_name(ortkit_tensor_type(v)));
    cJSON_AddItemToObject(o, "keys", tensor_items(k));
    cJSON_AddItemToObject(o, "values", tensor_items(v));
    return o;
}

static int write_json(const char *path, const char *what, cJSON *doc)
{
    char *text = doc ? cJSON_Print(doc) : NULL;
    cJSON_Delete(doc);
    if (!text)
        return cli_fail("%s: out of memory", what);
    size_t len = strlen(text);
    text[len] = '\n'; /* cJSON_Print's buffer ends with the NUL this replaces */
    int rc = ortkit__file_write_atomic(path, text, len + 1);
    free(text);
    return rc ? cli_fail("%s: %s", what, ortkit__error_message()) : 0;
}

int value_save(const char *base, const char *what, const ortkit_value *v)
{
    char path[PATH_MAX];
    const char *ext = value_file_ext(v);
    if (ortkit__pathf(path, sizeof path, "%s%s", base, ext))
        return cli_fail("%s: path too long", what);
    switch (ortkit_value_kind_of(v)) {
    case ORTKIT_KIND_TENSOR:
        return ortkit_npy_write(path, ortkit_value_tensor(v)) ? cli_fail("%s: %s", what,
                                                                        ortkit_error_last())
                                                              : 0;
    case ORTKIT_KIND_MAP:
        return write_json(path, what, value_map_json(v));
    case ORTKIT_KIND_OPTIONAL:
        if (ortkit_value_count(v))
            return value_save(base, what, ortkit_value_item(v, 0));
        return write_json(path, what, cJSON_CreateNull());
    case ORTKIT_KIND_SEQUENCE:
        break;
    default:
        return cli_fail("%s: values of this kind cannot be saved", what);
    }
    if (mkdir(path, 0777) != 0)
        return cli_fail("%s: cannot create '%s': %s", what, path, strerror(errno));
    for (size_t i = 0; i < ortkit_value_count(v); i++) {
        char item[PATH_MAX];
        if (ortkit__pathf(item, sizeof item, "%s/%zu", path, i))
            return cli_fail("%s: path too long", what);
        if (value_save(item, what, ortkit_value_item(v, i)))
            return CLI_FAIL;
    }
    return 0;
}

/* ---- reading ------------------------------------------------------------ */

/* Numbers or strings of a JSON array into a new 1-D tensor of type. */
static int tensor_from_items(ortkit_tensor **out, const cJSON *a, ortkit_type type, const char *what,
                             const char *member)
{
    int64_t n = cJSON_GetArraySize(a);
    if (ortkit_tensor_new(out, type, &n, 1))
        return cli_fail("%s: %s", what, ortkit_error_last());
    size_t i = 0;
    for (const cJSON *e = a->child; e; e = e->next, i++) {
        int is_string = type == ORTKIT_TYPE_STRING;
        if (is_string ? !cJSON_IsString(e) : !cJSON_IsNumber(e))
            return cli_fail("%s: '%s' item %zu is %s; %s wants %s", what, member, i,
                            ortkit__json_type(e), ortkit_type_name(type),
                            is_string ? "strings" : "numbers");
        void *d = ortkit_tensor_data(*out);
        double x = is_string ? 0 : e->valuedouble;
        switch (type) {
        case ORTKIT_TYPE_STRING: ortkit_tensor_set_string(*out, i, e->valuestring); break;
        case ORTKIT_TYPE_FLOAT32: ((float *)d)[i] = (float)x; break;
        case ORTKIT_TYPE_FLOAT64: ((double *)d)[i] = x; break;
        case ORTKIT_TYPE_INT64:
            if (x != (double)(int64_t)x)
                return cli_fail("%s: '%s' item %zu (%g) is not a whole number", what, member, i, x);
            ((int64_t *)d)[i] = (int64_t)x;
            break;
        default:
            return cli_fail("%s: maps of %s are not supported (int64, float32, float64, string)",
                            what, ortkit_type_name(type));
        }
    }
    return 0;
}

/* The type a member names, else the model's, else what the JSON holds. */
static int pick_type(const cJSON *o, const char *member, ortkit_type declared, const cJSON *items,
                     ortkit_type *out, const char *what)
{
    const cJSON *named = cJSON_GetObjectItemCaseSensitive(o, member);
    if (named) {
        *out = cJSON_IsString(named) ? ortkit_type_from_name(named->valuestring)
                                     : ORTKIT_TYPE_UNDEFINED;
        if (!*out)
            return cli_fail("%s: '%s' must name an element type such as \"int64\"", what, member);
        return 0;
    }
    if (declared) {
        *out = declared;
        return 0;
    }
    const cJSON *first = items ? items->child : NULL;
    *out = first && cJSON_IsString(first) ? ORTKIT_TYPE_STRING
           : strcmp(member, "key_type") ? ORTKIT_TYPE_FLOAT32 : ORTKIT_TYPE_INT64;
    return 0;
}

static int map_from_json(ortkit_value **out, const cJSON *o, const ortkit_value_type *declared,
                         const char *what)
{
    const cJSON *keys = cJSON_GetObjectItemCaseSensitive(o, "keys");
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(o, "values");
    if (!cJSON_IsObject(o) || !cJSON_IsArray(keys) || !cJSON_IsArray(values))
        return cli_fail("%s: a map is a JSON object with arrays \"keys\" and \"values\"", what);
    for (const cJSON *m = o->child; m; m = m->next)
        if (strcmp(m->string, "keys") && strcmp(m->string, "values") &&
            strcmp(m->string, "key_type") && strcmp(m->string, "value_type"))
            return cli_fail("%s: unknown member '%s' (a map has key_type, value_type, keys, values)",
                            what, m->string);
    ortkit_type kt, vt;
    const ortkit_value_type *inner = declared ? declared->inner : NULL;
    /* Keys go by what the JSON holds (a wrong key type is then named against
     * the model's); values by the model, which says how wide numbers are. */
    if (pick_type(o, "key_type", ORTKIT_TYPE_UNDEFINED, keys, &kt, what) ||
        pick_type(o, "value_type", inner ? inner->elem : ORTKIT_TYPE_UNDEFINED, values, &vt, what))
        return CLI_FAIL;
    ortkit_tensor *k = NULL, *v = NULL;
    int rc = tensor_from_items(&k, keys, kt, what, "keys");
    if (!rc)
        rc = tensor_from_items(&v, values, vt, what, "values");
    if (!rc && ortkit_value_new_map(out, k, v))
        rc = cli_fail("%s: %s", what, ortkit_error_last());
    if (rc) {
        ortkit_tensor_free(k);
        ortkit_tensor_free(v);
    }
    return rc;
}

static int read_json(ortkit_value **out, const char *path, const ortkit_value_type *declared,
                     const char *what)
{
    char *text = NULL;
    size_t size = 0;
    if (ortkit__file_read(&text, &size, path, MAX_JSON_BYTES))
        return cli_fail("%s: %s", what, ortkit__error_message());
    cJSON *doc = cJSON_ParseWithLength(text, size);
    free(text);
    if (!doc)
        return cli_fail("%s: '%s' is not valid JSON", what, path);
    while (declared && declared->kind == ORTKIT_KIND_OPTIONAL)
        declared = declared->inner;
    int rc;
    if (cJSON_IsNull(doc))
        rc = ortkit_value_new_optional(out, NULL) ? cli_fail_lib() : 0;
    else
        rc = map_from_json(out, doc, declared && declared->kind == ORTKIT_KIND_MAP ? declared : NULL,
                           what);
    cJSON_Delete(doc);
    return rc;
}

static int item_number(const char *name, const char *ext, size_t *n)
{
    const char *dot = strrchr(name, '.');
    if (!dot || strcmp(dot, ext) || dot == name)
        return -1;
    size_t v = 0;
    for (const char *p = name; p < dot; p++) {
        if (*p < '0' || *p > '9' || (p == name && *p == '0' && dot - name > 1) || v > MAX_ITEMS)
            return -1;
        v = v * 10 + (size_t)(*p - '0');
    }
    *n = v;
    return 0;
}

/* DIR/0.EXT, 1.EXT, ...: every number from 0 on, no gap, nothing else. */
static int read_sequence(ortkit_value **out, const char *dir, const ortkit_value_type *declared,
                         const char *what)
{
    DIR *d = opendir(dir);
    if (!d)
        return cli_fail("%s: cannot read '%s': %s", what, dir, strerror(errno));
    const ortkit_value_type *inner = declared ? declared->inner : NULL;
    const char *ext = inner && inner->kind == ORTKIT_KIND_MAP ? ".json" : ".npy";
    size_t count = 0, highest = 0;
    int rc = 0;
    for (struct dirent *e; !rc && (e = readdir(d));) {
        size_t k = 0;
        if (e->d_name[0] == '.')
            continue;
        if (item_number(e->d_name, ext, &k))
            rc = cli_fail("%s: '%s/%s' is not a sequence element (files 0%s, 1%s, 2%s...)", what,
                          dir, e->d_name, ext, ext, ext);
        count++;
        if (k > highest)
            highest = k;
    }
    closedir(d);
    if (rc)
        return rc;
    if (count && highest + 1 != count)
        return cli_fail("%s: '%s' holds %zu element files numbered up to %zu: a sequence's files "
                        "are numbered 0, 1, 2... without a gap", what, dir, count, highest);
    ortkit_value **items = calloc(count + 1, sizeof *items);
    if (!items)
        return cli_fail("out of memory");
    size_t made = 0;
    for (; made < count && !rc; made++) {
        char path[PATH_MAX];
        if (ortkit__pathf(path, sizeof path, "%s/%zu%s", dir, made, ext))
            rc = cli_fail("%s: path too long", what);
        else
            rc = value_load(&items[made], path, inner, what);
    }
    if (!rc && ortkit_value_new_sequence(out, items, count))
        rc = cli_fail("%s: '%s': %s", what, dir, ortkit_error_last());
    if (rc)
        for (size_t i = 0; i < made; i++)
            ortkit_value_free(items[i]);
    free(items);
    return rc;
}

int value_load(ortkit_value **out, const char *path, const ortkit_value_type *declared,
               const char *what)
{
    *out = NULL;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        while (declared && declared->kind == ORTKIT_KIND_OPTIONAL)
            declared = declared->inner;
        return read_sequence(out, path, declared, what);
    }
    size_t len = strlen(path);
    if (len > 5 && !strcmp(path + len - 5, ".json"))
        return read_json(out, path, declared, what);
    ortkit_tensor *t = NULL;
    if (ortkit_npy_read(&t, path))
        return cli_fail("%s: %s", what, ortkit_error_last());
    if (ortkit_value_new_tensor(out, t)) {
        ortkit_tensor_free(t);
        return cli_fail_lib();
    }
    return 0;
}
