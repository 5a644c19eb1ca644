/* value_files.h - values of every kind in files and as JSON, for `run` and `bench`. */
#ifndef ORTKIT_CLI_VALUE_FILES_H
#define ORTKIT_CLI_VALUE_FILES_H

#include "ortkit.h"
#include "values.h"

#include <cjson/cJSON.h>

/* What a value is saved as, after its base name: ".npy" (a tensor), ".json"
 * (a map, or an optional holding none), "" (a sequence: a directory). */
const char *value_file_ext(const ortkit_value *v);
/* Save v as base + value_file_ext(v).  0, or CLI_FAIL after saying why
 * (what names the value: "output 'probabilities'"). */
int value_save(const char *base, const char *what, const ortkit_value *v);
/* Read a value from path (.npy, .json, or a sequence's directory) for a
 * model input of type declared (which decides what JSON numbers are).  0,
 * or CLI_FAIL after saying why. */
int value_load(ortkit_value **out, const char *path, const ortkit_value_type *declared,
               const char *what);
/* A map as JSON: {"key_type", "value_type", "keys", "values"}. */
cJSON *value_map_json(const ortkit_value *m);

#endif
