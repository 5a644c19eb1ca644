/*
 * ortkit/value.h - every kind of ONNX value: tensors, sequences, maps and
 * optionals, and the types that describe them.
 *
 * A value is a tree whose leaves are tensors: a sequence holds values of
 * one type (tensors, or maps), a map holds a 1-D key tensor (int64 or
 * string) and a 1-D value tensor of the same length, an optional holds one
 * value or none.  Values are built by the caller for inputs and handed back
 * by ortkit_session_run_values for outputs; they do not depend on a runtime.
 *
 * Part of the stable API; programs include <ortkit.h>.
 */
#ifndef ORTKIT_INCLUDE_VALUE_H
#define ORTKIT_INCLUDE_VALUE_H

#include "ortkit/common.h"
#include "ortkit/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ortkit_value_kind {
    ORTKIT_KIND_UNKNOWN = 0,
    ORTKIT_KIND_TENSOR = 1,
    ORTKIT_KIND_SEQUENCE = 2,
    ORTKIT_KIND_MAP = 3,
    ORTKIT_KIND_OPTIONAL = 4,
    ORTKIT_KIND_SPARSE_TENSOR = 5
} ortkit_value_kind;

/*
 * A value's type.  Library-allocated and read by pointer (later versions may
 * add fields at the end); it lives as long as the value or session it came
 * from.
 */
typedef struct ortkit_value_type ortkit_value_type;
struct ortkit_value_type {
    ortkit_value_kind kind;
    ortkit_type elem;               /* TENSOR: the element type (UNDEFINED: not known) */
    ortkit_type key;                /* MAP: the key type, INT64 or STRING */
    const ortkit_value_type *inner; /* SEQUENCE: the elements' type; MAP: the values' type;
                                     * OPTIONAL: the contained type; NULL: not known */
};

/* Write "sequence<map<int64,float32>>", "optional<float32>", "float32"
 * into buf (always NUL-terminated).  Unknown parts are "?". */
ORTKIT_API void ortkit_value_type_describe(const ortkit_value_type *type, char *buf, size_t size);

typedef struct ortkit_value ortkit_value;

/*
 * Building values.  Each constructor takes ownership of what it is given
 * (tensors, items) only when it succeeds; on failure the caller still owns
 * them.  A value, once built, does not change.
 */
/* A tensor value. */
ORTKIT_API int ortkit_value_new_tensor(ortkit_value **out, ortkit_tensor *tensor);
/* A sequence of n values of one type (all tensors of one element type, or
 * all maps of one key and value type); n may be 0. */
ORTKIT_API int ortkit_value_new_sequence(ortkit_value **out, ortkit_value *const *items, size_t n);
/* A map: keys a 1-D INT64 or STRING tensor without repeats, values a 1-D
 * tensor of the same length. */
ORTKIT_API int ortkit_value_new_map(ortkit_value **out, ortkit_tensor *keys, ortkit_tensor *values);
/* An optional holding item, or none when item is NULL. */
ORTKIT_API int ortkit_value_new_optional(ortkit_value **out, ortkit_value *item);
/* Frees the value and everything in it; NULL does nothing. */
ORTKIT_API void ortkit_value_free(ortkit_value *value);

/* Reading values. */
ORTKIT_API ortkit_value_kind ortkit_value_kind_of(const ortkit_value *value);
ORTKIT_API const ortkit_value_type *ortkit_value_type_of(const ortkit_value *value);
/* TENSOR: its tensor; NULL for other kinds. */
ORTKIT_API const ortkit_tensor *ortkit_value_tensor(const ortkit_value *value);
/* SEQUENCE: its length; MAP: its entries; OPTIONAL: 1 when it holds a
 * value, 0 when none; TENSOR: 0. */
ORTKIT_API size_t ortkit_value_count(const ortkit_value *value);
/* SEQUENCE: element i; OPTIONAL: the value it holds (i 0); else NULL. */
ORTKIT_API const ortkit_value *ortkit_value_item(const ortkit_value *value, size_t i);
/* MAP: the 1-D key and value tensors, entry i at index i; else NULL. */
ORTKIT_API const ortkit_tensor *ortkit_value_map_keys(const ortkit_value *value);
ORTKIT_API const ortkit_tensor *ortkit_value_map_values(const ortkit_value *value);
/* Write "float32[2,3]", "sequence<float32>(4)", "map<int64,float32>{3}",
 * "optional<float32[2]>" or "optional<none>" into buf (always
 * NUL-terminated): a tensor's shape in brackets, a sequence's length in
 * parentheses, a map's entries in braces. */
ORTKIT_API void ortkit_value_describe(const ortkit_value *value, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* ORTKIT_INCLUDE_VALUE_H */
