/*
 * tensor_proto.c - ONNX TensorProto, SequenceProto and OptionalProto files
 * (the reference data of ONNX backend tests) decoded into ortkit tensors,
 * with protobuf-c code generated from Debian's onnx.proto and onnx-data.proto.
 */
#include "core.h"
#include "ortkit/tools/proto.h"

#include "onnx-data.pb-c.h"
#include "onnx.pb-c.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "raw_data is little-endian; decoding it on a big-endian host needs byte swapping"
#endif

/* protobuf's own limit for one message. */
#define PROTO_MAX_BYTES ((size_t)2 << 30)
/* Sequences of sequences nest; hostile input could nest them without end.
 * (The wire check below bounds protobuf-c's recursion; this bounds ours.) */
#define PROTO_MAX_DEPTH 32

/* Which repeated field holds the values of each element type when raw_data
 * is not used, and how many entries one element takes there. */
enum field { F_NONE, F_FLOAT, F_INT32, F_INT64, F_UINT64, F_DOUBLE, F_STRING };

static const char *const field_names[] = {"", "float_data", "int32_data", "int64_data",
                                          "uint64_data", "double_data", "string_data"};

static enum field typed_field(ortkit_type type)
{
    switch (type) {
    case ORTKIT_TYPE_FLOAT32:
    case ORTKIT_TYPE_COMPLEX64:
        return F_FLOAT;
    case ORTKIT_TYPE_INT64:
        return F_INT64;
    case ORTKIT_TYPE_UINT32:
    case ORTKIT_TYPE_UINT64:
        return F_UINT64;
    case ORTKIT_TYPE_FLOAT64:
    case ORTKIT_TYPE_COMPLEX128:
        return F_DOUBLE;
    case ORTKIT_TYPE_STRING:
        return F_STRING;
    case ORTKIT_TYPE_UNDEFINED:
        return F_NONE;
    default: /* 8- and 16-bit types, bool, int32, float8, 4-bit: their bits in int32_data */
        return F_INT32;
    }
}

static size_t field_count(const Onnx__TensorProto *tp, enum field f)
{
    switch (f) {
    case F_FLOAT:
        return tp->n_float_data;
    case F_INT32:
        return tp->n_int32_data;
    case F_INT64:
        return tp->n_int64_data;
    case F_UINT64:
        return tp->n_uint64_data;
    case F_DOUBLE:
        return tp->n_double_data;
    case F_STRING:
        return tp->n_string_data;
    default:
        return 0;
    }
}

/* Entries of the typed field for count elements: complex numbers take two,
 * 4-bit types pack two elements into one int32_data entry. */
static size_t field_entries(ortkit_type type, size_t count)
{
    if (type == ORTKIT_TYPE_COMPLEX64 || type == ORTKIT_TYPE_COMPLEX128)
        return count > SIZE_MAX / 2 ? SIZE_MAX : count * 2;
    if (ortkit_type_bits(type) == 4)
        return count / 2 + count % 2;
    return count;
}

/* The TensorProto's name for messages: "tensor 'x'", or just "tensor". */
static void label_of(char *buf, size_t size, const Onnx__TensorProto *tp)
{
    if (tp->name && tp->name[0])
        snprintf(buf, size, "tensor '%.100s'", tp->name);
    else
        snprintf(buf, size, "tensor");
}

static const char *external_location(const Onnx__TensorProto *tp)
{
    for (size_t i = 0; i < tp->n_external_data; i++)
        if (tp->external_data[i]->key && !strcmp(tp->external_data[i]->key, "location"))
            return tp->external_data[i]->value ? tp->external_data[i]->value : "";
    return "";
}

/* Copy the typed field into the tensor's memory, narrowing where the type is
 * smaller than the field: int32_data holds 8- and 16-bit values as their bit
 * patterns (float16 and bfloat16 included). */
static void copy_typed(ortkit_tensor *t, const Onnx__TensorProto *tp, enum field f)
{
    size_t n = field_entries(t->type, t->count);
    unsigned char *d = t->data;
    if (!n)
        return; /* an empty field may have no array at all */
    switch (f) {
    case F_FLOAT:
        memcpy(d, tp->float_data, n * sizeof(float));
        return;
    case F_INT64:
        memcpy(d, tp->int64_data, n * sizeof(int64_t));
        return;
    case F_DOUBLE:
        memcpy(d, tp->double_data, n * sizeof(double));
        return;
    case F_UINT64:
        if (t->type == ORTKIT_TYPE_UINT64) {
            memcpy(d, tp->uint64_data, n * sizeof(uint64_t));
        } else {
            for (size_t i = 0; i < n; i++) {
                uint32_t v = (uint32_t)tp->uint64_data[i];
                memcpy(d + 4 * i, &v, 4);
            }
        }
        return;
    case F_INT32: {
        size_t bits = ortkit_type_bits(t->type);
        for (size_t i = 0; i < n; i++) {
            uint32_t v = (uint32_t)tp->int32_data[i];
            if (t->type == ORTKIT_TYPE_BOOL)
                d[i] = v != 0;
            else if (bits == 16) {
                uint16_t h = (uint16_t)v;
                memcpy(d + 2 * i, &h, 2);
            } else if (bits == 32)
                memcpy(d + 4 * i, &v, 4);
            else /* 8 bits, or two 4-bit values already packed into a byte */
                d[i] = (unsigned char)v;
        }
        return;
    }
    default:
        return;
    }
}

static int decode_strings(ortkit_tensor *t, const Onnx__TensorProto *tp)
{
    for (size_t i = 0; i < t->count; i++) {
        const ProtobufCBinaryData *s = &tp->string_data[i];
        /* ortkit strings end at their first NUL, as ORT's C API reads them. */
        char *copy = malloc(s->len + 1);
        if (!copy)
            return ortkit__error_nomem();
        if (s->len)
            memcpy(copy, s->data, s->len);
        copy[s->len] = '\0';
        free(t->strings[i]);
        t->strings[i] = copy;
    }
    return ORTKIT_OK;
}

/* A tensor from a decoded TensorProto; messages name the tensor. */
static int tensor_from_proto(ortkit_tensor **out, const Onnx__TensorProto *tp)
{
    char label[128];
    label_of(label, sizeof label, tp);
    *out = NULL;
    if ((tp->has_data_location && tp->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL) ||
        tp->n_external_data)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED,
                                 "%s keeps its data in an external file ('%s'); "
                                 "ortkit reads only data held in the protobuf file",
                                 label, external_location(tp));
    /* A SequenceProto read as a TensorProto lands its values here too. */
    if (tp->segment)
        return ortkit__error_set(ORTKIT_E_FORMAT, "%s has a 'segment' field: not a TensorProto "
                                 "(a SequenceProto?), or one segment of a larger tensor, which "
                                 "ortkit does not read", label);
    if (!tp->has_data_type || tp->data_type == 0)
        return ortkit__error_set(ORTKIT_E_FORMAT, "%s has no element type (data_type): "
                                 "not a TensorProto?", label);
    ortkit_type type = (ortkit_type)tp->data_type;
    if (tp->data_type < 0 || tp->data_type > ORTKIT_TYPE_INT4)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "%s has element type %d, unknown to ortkit",
                                 label, (int)tp->data_type);
    if (tp->n_dims > ORTKIT_MAX_RANK)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "%s has rank %zu, above ortkit's limit of %d",
                                 label, tp->n_dims, ORTKIT_MAX_RANK);
    for (size_t i = 0; i < tp->n_dims; i++)
        if (tp->dims[i] < 0)
            return ortkit__error_set(ORTKIT_E_FORMAT, "%s has a negative dimension (%lld)", label,
                                     (long long)tp->dims[i]);
    size_t count = ortkit__shape_count(tp->dims, tp->n_dims);
    size_t nbytes = type == ORTKIT_TYPE_STRING ? 0 : ortkit__type_nbytes(type, count);
    if (count == SIZE_MAX || nbytes == SIZE_MAX)
        return ortkit__error_set(ORTKIT_E_FORMAT, "%s has a shape too large to address", label);

    char desc[256];
    {
        /* Describe the tensor before making it: the checks below come first,
         * so that lying dimensions never cause a large allocation. */
        ortkit_tensor probe = {.type = type, .rank = tp->n_dims};
        if (tp->n_dims)
            memcpy(probe.shape, tp->dims, tp->n_dims * sizeof tp->dims[0]);
        ortkit_tensor_describe(&probe, desc, sizeof desc);
    }
    enum field want = typed_field(type);
    size_t typed_total = tp->n_float_data + tp->n_int32_data + tp->n_int64_data +
                         tp->n_uint64_data + tp->n_double_data + tp->n_string_data;
    int raw = tp->has_raw_data && tp->raw_data.len > 0;
    if (raw && typed_total)
        return ortkit__error_set(ORTKIT_E_FORMAT, "%s (%s) has both raw_data and typed values",
                                 label, desc);
    if (raw || (tp->has_raw_data && !typed_total && type != ORTKIT_TYPE_STRING)) {
        if (type == ORTKIT_TYPE_STRING)
            return ortkit__error_set(ORTKIT_E_FORMAT, "%s is a string tensor: strings cannot be "
                                     "in raw_data", label);
        if (tp->raw_data.len != nbytes)
            return ortkit__error_set(ORTKIT_E_FORMAT, "%s (%s) has %zu bytes of raw_data, %zu expected",
                                     label, desc, tp->raw_data.len, nbytes);
    } else {
        size_t entries = field_entries(type, count);
        size_t have = field_count(tp, want);
        if (have != typed_total) {
            const char *other = "";
            for (enum field f = F_FLOAT; f <= F_STRING; f++)
                if (f != want && field_count(tp, f))
                    other = field_names[f];
            return ortkit__error_set(ORTKIT_E_FORMAT, "%s (%s) has values in %s; its type keeps "
                                     "them in %s", label, desc, other, field_names[want]);
        }
        if (have != entries)
            return ortkit__error_set(ORTKIT_E_FORMAT, "%s (%s) has %zu values in %s, %zu expected",
                                     label, desc, have, field_names[want], entries);
    }
    ortkit_tensor *t = NULL;
    int rc = ortkit_tensor_new(&t, type, tp->dims, tp->n_dims);
    if (rc)
        return ortkit__error_wrap(rc, "%s", label);
    if (type == ORTKIT_TYPE_STRING)
        rc = decode_strings(t, tp);
    else if (raw)
        memcpy(t->data, tp->raw_data.data, nbytes);
    else
        copy_typed(t, tp, want);
    if (rc) {
        ortkit_tensor_free(t);
        return rc;
    }
    *out = t;
    return ORTKIT_OK;
}

/*
 * protobuf-c recurses once per nested message, without a limit: the bytes'
 * nesting is checked before they are decoded.  what is "a TensorProto".
 */
static int check_wire(const void *data, size_t size, const ProtobufCMessageDescriptor *desc,
                      const char *what)
{
    char why[160];
    switch (ortkit__pb_check(data, size, desc, ORTKIT__PB_MAX_DEPTH, why, sizeof why)) {
    case ORTKIT__PB_OK:
        return ORTKIT_OK;
    case ORTKIT__PB_TOO_DEEP:
        return ortkit__error_set(ORTKIT_E_FORMAT, "not %s ortkit can read: %s, the most it decodes",
                                 what, why);
    default:
        return ortkit__error_set(ORTKIT_E_FORMAT, "not %s (protobuf decoding failed: truncated or "
                                 "not protobuf)", what);
    }
}

/* The message of desc in data, its nesting checked before protobuf-c
 * decodes it; *msg NULL and an error recorded when it is not one. */
static int decode(ProtobufCMessage **msg, const ProtobufCMessageDescriptor *desc, const char *what,
                  const void *data, size_t size)
{
    *msg = NULL;
    int rc = check_wire(data, size, desc, what);
    if (rc)
        return rc;
    if (!(*msg = protobuf_c_message_unpack(desc, NULL, size, data)))
        return ortkit__error_set(ORTKIT_E_FORMAT, "not %s (protobuf decoding failed: truncated or "
                                 "not protobuf)", what);
    return ORTKIT_OK;
}

int ortkit_tensor_proto_parse(ortkit_tensor **out, const void *data, size_t size)
{
    if (!out || (!data && size))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_tensor_proto_parse: NULL argument");
    *out = NULL;
    ProtobufCMessage *msg;
    int rc = decode(&msg, &onnx__tensor_proto__descriptor, "a TensorProto", data, size);
    if (rc)
        return rc;
    rc = tensor_from_proto(out, (const Onnx__TensorProto *)msg);
    protobuf_c_message_free_unpacked(msg, NULL);
    return rc;
}

/* The file at path (at most PROTO_MAX_BYTES) parsed as a tensor (tensor
 * set) or a value of kind; a failure names the file. */
static int read_proto(const char *path, ortkit_tensor **tensor, ortkit_proto_value **value,
                      ortkit_value_kind kind)
{
    char *data = NULL;
    size_t size = 0;
    int rc = ortkit__file_read(&data, &size, path, PROTO_MAX_BYTES);
    if (rc)
        return rc;
    rc = tensor ? ortkit_tensor_proto_parse(tensor, data, size)
                : ortkit_proto_value_parse(value, kind, data, size);
    free(data);
    return rc ? ortkit__error_wrap(rc, "'%s'", path) : ORTKIT_OK;
}

int ortkit_tensor_proto_read(ortkit_tensor **out, const char *path)
{
    if (!out || !path)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_tensor_proto_read: NULL argument");
    *out = NULL;
    return read_proto(path, out, NULL, ORTKIT_KIND_TENSOR);
}

/* ---- sequences and optionals ---------------------------------------------- */

void ortkit_proto_value_free(ortkit_proto_value *v)
{
    if (!v)
        return;
    ortkit_tensor_free(v->tensor);
    ortkit_tensor_free(v->keys);
    ortkit_tensor_free(v->values);
    for (size_t i = 0; i < v->count && v->items && v->kind != ORTKIT_KIND_MAP; i++)
        ortkit_proto_value_free(v->items[i]);
    free((void *)v->items);
    free((char *)v->name);
    free(v);
}

static ortkit_proto_value *value_new(ortkit_value_kind kind, const char *name, size_t count)
{
    ortkit_proto_value *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    v->kind = kind;
    v->name = strdup(name ? name : "");
    v->items = calloc(count ? count : 1, sizeof *v->items);
    if (!v->name || !v->items) {
        ortkit_proto_value_free(v);
        return NULL;
    }
    return v;
}

static int from_tensor(ortkit_proto_value **out, const Onnx__TensorProto *tp)
{
    ortkit_proto_value *v = value_new(ORTKIT_KIND_TENSOR, tp->name, 0);
    if (!v)
        return ortkit__error_nomem();
    int rc = tensor_from_proto(&v->tensor, tp);
    if (rc) {
        ortkit_proto_value_free(v);
        return rc;
    }
    *out = v;
    return ORTKIT_OK;
}

static int from_optional(ortkit_proto_value **out, const Onnx__OptionalProto *op, int depth);
static int from_map(ortkit_proto_value **out, const Onnx__MapProto *mp);

/* SequenceProto.DataType and OptionalProto.DataType share their numbers. */
enum { ELEM_UNDEFINED = 0, ELEM_TENSOR = 1, ELEM_SPARSE = 2, ELEM_SEQUENCE = 3, ELEM_MAP = 4,
       ELEM_OPTIONAL = 5 };

static int from_sequence(ortkit_proto_value **out, const Onnx__SequenceProto *sp, int depth)
{
    const char *name = sp->name ? sp->name : "";
    if (depth > PROTO_MAX_DEPTH)
        return ortkit__error_set(ORTKIT_E_FORMAT, "sequences nest more than %d deep", PROTO_MAX_DEPTH);
    if (sp->n_sparse_tensor_values)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "sequence '%s' holds sparse tensors, not "
                                 "supported", name);
    int elem = sp->has_elem_type ? sp->elem_type : ELEM_UNDEFINED;
    if (elem == ELEM_UNDEFINED) /* writers may leave it out: go by what is there */
        elem = sp->n_sequence_values ? ELEM_SEQUENCE
               : sp->n_optional_values ? ELEM_OPTIONAL
               : sp->n_map_values ? ELEM_MAP : ELEM_TENSOR;
    size_t n = elem == ELEM_TENSOR ? sp->n_tensor_values
               : elem == ELEM_SEQUENCE ? sp->n_sequence_values
               : elem == ELEM_OPTIONAL ? sp->n_optional_values
               : elem == ELEM_MAP ? sp->n_map_values : 0;
    if (elem != ELEM_TENSOR && elem != ELEM_SEQUENCE && elem != ELEM_OPTIONAL && elem != ELEM_MAP)
        return ortkit__error_set(elem == ELEM_SPARSE ? ORTKIT_E_UNSUPPORTED : ORTKIT_E_FORMAT,
                                 "sequence '%s' has element type %d, not supported", name, elem);
    if (sp->n_tensor_values + sp->n_sequence_values + sp->n_optional_values + sp->n_map_values != n)
        return ortkit__error_set(ORTKIT_E_FORMAT, "sequence '%s' holds values of another type "
                                 "than its element type %d", name, elem);
    ortkit_proto_value *v = value_new(ORTKIT_KIND_SEQUENCE, name, n);
    if (!v)
        return ortkit__error_nomem();
    int rc = ORTKIT_OK;
    ortkit_proto_value **items = (ortkit_proto_value **)v->items;
    for (; v->count < n; v->count++) {
        size_t i = v->count;
        if (elem == ELEM_TENSOR)
            rc = from_tensor(&items[i], sp->tensor_values[i]);
        else if (elem == ELEM_SEQUENCE)
            rc = from_sequence(&items[i], sp->sequence_values[i], depth + 1);
        else if (elem == ELEM_MAP)
            rc = from_map(&items[i], sp->map_values[i]);
        else
            rc = from_optional(&items[i], sp->optional_values[i], depth + 1);
        if (rc) {
            ortkit_proto_value_free(v);
            return ortkit__error_wrap(rc, "sequence '%s' element %zu", name, i);
        }
    }
    *out = v;
    return ORTKIT_OK;
}

static int from_optional(ortkit_proto_value **out, const Onnx__OptionalProto *op, int depth)
{
    const char *name = op->name ? op->name : "";
    if (depth > PROTO_MAX_DEPTH)
        return ortkit__error_set(ORTKIT_E_FORMAT, "optionals nest more than %d deep", PROTO_MAX_DEPTH);
    if (op->sparse_tensor_value)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "optional '%s' holds a sparse tensor, not "
                                 "supported", name);
    int present = (op->tensor_value != NULL) + (op->sequence_value != NULL) +
                  (op->optional_value != NULL) + (op->map_value != NULL);
    if (present > 1)
        return ortkit__error_set(ORTKIT_E_FORMAT, "optional '%s' holds more than one value", name);
    ortkit_proto_value *v = value_new(ORTKIT_KIND_OPTIONAL, name, 1);
    if (!v)
        return ortkit__error_nomem();
    int rc = ORTKIT_OK;
    ortkit_proto_value **item = (ortkit_proto_value **)v->items;
    if (op->tensor_value)
        rc = from_tensor(item, op->tensor_value);
    else if (op->sequence_value)
        rc = from_sequence(item, op->sequence_value, depth + 1);
    else if (op->optional_value)
        rc = from_optional(item, op->optional_value, depth + 1);
    else if (op->map_value)
        rc = from_map(item, op->map_value);
    if (rc) {
        ortkit_proto_value_free(v);
        return ortkit__error_wrap(rc, "optional '%s'", name);
    }
    v->count = present;
    *out = v;
    return ORTKIT_OK;
}

/* Map values come as a sequence of scalar tensors of one type; they are
 * gathered into one 1-D tensor beside the keys. */
static int map_values(ortkit_tensor **out, const Onnx__SequenceProto *sp, size_t n, const char *name)
{
    if (!sp || sp->n_tensor_values != n || sp->n_sequence_values || sp->n_map_values ||
        sp->n_optional_values || sp->n_sparse_tensor_values)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "map '%s': values other than one tensor "
                                 "per key are not supported", name);
    ortkit_tensor *v = NULL;
    int64_t shape[1] = {(int64_t)n};
    int rc = ORTKIT_OK;
    for (size_t i = 0; i < n && !rc; i++) {
        ortkit_tensor *t = NULL;
        if ((rc = tensor_from_proto(&t, sp->tensor_values[i])))
            break;
        if (!v)
            rc = ortkit_tensor_new(&v, t->type, shape, 1);
        if (!rc && (t->count != 1 || t->type != v->type || ortkit_type_bits(t->type) % 8))
            rc = ortkit__error_set(ORTKIT_E_UNSUPPORTED, "map '%s': value %zu is not a scalar of "
                                   "the first value's type", name, i);
        if (!rc && t->type == ORTKIT_TYPE_STRING)
            rc = ortkit_tensor_set_string(v, i, t->strings[0]);
        else if (!rc)
            memcpy((char *)v->data + i * v->nbytes / n, t->data, v->nbytes / n);
        ortkit_tensor_free(t);
    }
    if (!rc && !v) /* an empty map: its value type is unknown, float is as good as any */
        rc = ortkit_tensor_new(&v, ORTKIT_TYPE_FLOAT32, shape, 1);
    if (rc) {
        ortkit_tensor_free(v);
        return rc;
    }
    *out = v;
    return ORTKIT_OK;
}

static int from_map(ortkit_proto_value **out, const Onnx__MapProto *mp)
{
    const char *name = mp->name ? mp->name : "";
    int strings = mp->has_key_type && mp->key_type == ORTKIT_TYPE_STRING;
    size_t n = strings ? mp->n_string_keys : mp->n_keys;
    if (mp->n_keys && mp->n_string_keys)
        return ortkit__error_set(ORTKIT_E_FORMAT, "map '%s' has both integer and string keys", name);
    ortkit_proto_value *v = value_new(ORTKIT_KIND_MAP, name, 0);
    if (!v)
        return ortkit__error_nomem();
    int64_t shape[1] = {(int64_t)n};
    int rc = ortkit_tensor_new(&v->keys, strings ? ORTKIT_TYPE_STRING : ORTKIT_TYPE_INT64, shape, 1);
    for (size_t i = 0; i < n && !rc; i++) {
        if (!strings) {
            ((int64_t *)v->keys->data)[i] = mp->keys[i];
            continue;
        }
        char *key = malloc(mp->string_keys[i].len + 1);
        if (!key) {
            rc = ortkit__error_nomem();
            break;
        }
        memcpy(key, mp->string_keys[i].data, mp->string_keys[i].len);
        key[mp->string_keys[i].len] = '\0';
        rc = ortkit_tensor_set_string(v->keys, i, key);
        free(key);
    }
    if (!rc)
        rc = map_values(&v->values, mp->values, n, name);
    if (rc) {
        ortkit_proto_value_free(v);
        return ortkit__error_wrap(rc, "map '%s'", name);
    }
    v->count = n;
    *out = v;
    return ORTKIT_OK;
}

int ortkit_proto_value_parse(ortkit_proto_value **out, ortkit_value_kind kind, const void *data,
                             size_t size)
{
    if (!out || (!data && size))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_proto_value_parse: NULL argument");
    *out = NULL;
    static const struct {
        const ProtobufCMessageDescriptor *desc;
        const char *what;
    } kinds[] = {[ORTKIT_KIND_TENSOR] = {&onnx__tensor_proto__descriptor, "a TensorProto"},
                 [ORTKIT_KIND_SEQUENCE] = {&onnx__sequence_proto__descriptor, "a SequenceProto"},
                 [ORTKIT_KIND_OPTIONAL] = {&onnx__optional_proto__descriptor, "an OptionalProto"},
                 [ORTKIT_KIND_MAP] = {&onnx__map_proto__descriptor, "a MapProto"}};
    if (kind == ORTKIT_KIND_SPARSE_TENSOR)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "sparse tensor values are not supported");
    if ((unsigned)kind >= sizeof kinds / sizeof *kinds || !kinds[kind].desc)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_proto_value_parse: unknown kind %d",
                                 (int)kind);
    ProtobufCMessage *msg;
    int rc = decode(&msg, kinds[kind].desc, kinds[kind].what, data, size);
    if (rc)
        return rc;
    switch (kind) {
    case ORTKIT_KIND_TENSOR:
        rc = from_tensor(out, (Onnx__TensorProto *)msg);
        break;
    case ORTKIT_KIND_SEQUENCE:
        rc = from_sequence(out, (Onnx__SequenceProto *)msg, 0);
        break;
    case ORTKIT_KIND_OPTIONAL:
        rc = from_optional(out, (Onnx__OptionalProto *)msg, 0);
        break;
    default:
        rc = from_map(out, (Onnx__MapProto *)msg);
        break;
    }
    protobuf_c_message_free_unpacked(msg, NULL);
    return rc;
}

int ortkit_proto_value_read(ortkit_proto_value **out, ortkit_value_kind kind, const char *path)
{
    if (!out || !path)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_proto_value_read: NULL argument");
    *out = NULL;
    return read_proto(path, NULL, out, kind);
}
