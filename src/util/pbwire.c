/*
 * pbwire.c - protobuf wire format: reading one field at a time, and a
 * check of how deep a message's sub-messages nest, made before protobuf-c
 * decodes it.
 *
 * protobuf-c's decoder recurses once per nested message and has no limit of
 * its own: a file of a few tens of kilobytes that nests a message within
 * itself thousands of times (onnx.TypeProto's sequence_type, a graph
 * attribute holding a graph) overflows the stack.  The check walks the
 * bytes with an explicit stack instead, and knows which fields are
 * messages from the same descriptors protobuf-c decodes with (generated
 * from onnx.proto): only those fields count as nesting, so bytes and
 * strings (a tensor's raw_data) are skipped unread, whatever they hold, and
 * a file is walked once, at the cost of reading its tags.
 *
 * Only the descriptor's fields are read (no protobuf-c function is called),
 * so the helpers need the header but not the library.
 */
#include "util.h"

#include <protobuf-c/protobuf-c.h>

#include <stdio.h>

int ortkit__pb_varint(const unsigned char **pos, const unsigned char *end, uint64_t *out)
{
    uint64_t v = 0;
    const unsigned char *p = *pos;
    for (unsigned shift = 0; shift < 64 && p < end; shift += 7) {
        unsigned char b = *p++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *pos = p;
            *out = v;
            return 0;
        }
    }
    return -1; /* runs past the end, or longer than ten bytes */
}

int ortkit__pb_next(const unsigned char **pos, const unsigned char *end, ortkit__pb_field *f)
{
    if (*pos >= end)
        return 0;
    const unsigned char *p = *pos;
    uint64_t tag;
    if (ortkit__pb_varint(&p, end, &tag) || tag >> 32 || (tag >> 3) == 0)
        return -1;
    f->number = (uint32_t)(tag >> 3);
    f->wire = (unsigned)(tag & 7);
    f->value = 0;
    f->data = NULL;
    f->len = 0;
    switch (f->wire) {
    case ORTKIT__PB_VARINT:
        if (ortkit__pb_varint(&p, end, &f->value))
            return -1;
        break;
    case ORTKIT__PB_FIXED64:
    case ORTKIT__PB_FIXED32: {
        size_t n = f->wire == ORTKIT__PB_FIXED64 ? 8 : 4;
        if ((size_t)(end - p) < n)
            return -1;
        for (size_t i = 0; i < n; i++)
            f->value |= (uint64_t)p[i] << (8 * i);
        p += n;
        break;
    }
    case ORTKIT__PB_BYTES: {
        uint64_t len;
        if (ortkit__pb_varint(&p, end, &len) || len > (uint64_t)(end - p))
            return -1;
        f->data = p;
        f->len = (size_t)len;
        p += len;
        break;
    }
    default: /* groups (3, 4) are not in onnx.proto, and protobuf-c refuses them too */
        return -1;
    }
    *pos = p;
    return 1;
}

/* The message type of field number in desc, or NULL when it is no message field. */
static const ProtobufCMessageDescriptor *sub_message(const ProtobufCMessageDescriptor *desc,
                                                     uint32_t number)
{
    for (unsigned i = 0; i < desc->n_fields; i++)
        if (desc->fields[i].id == number)
            return desc->fields[i].type == PROTOBUF_C_TYPE_MESSAGE
                       ? (const ProtobufCMessageDescriptor *)desc->fields[i].descriptor
                       : NULL;
    return NULL; /* unknown fields are kept as bytes, never decoded */
}

int ortkit__pb_check(const void *data, size_t size, const struct ProtobufCMessageDescriptor *root,
                     unsigned max_depth, char *why, size_t why_size)
{
    struct level {
        const unsigned char *end;
        const ProtobufCMessageDescriptor *desc;
    } stack[ORTKIT__PB_MAX_DEPTH + 1];
    if (max_depth > ORTKIT__PB_MAX_DEPTH)
        max_depth = ORTKIT__PB_MAX_DEPTH;
    const unsigned char *start = data, *p = start;
    unsigned depth = 0;
    stack[0].end = start + size;
    stack[0].desc = root;
    if (why_size)
        why[0] = '\0';
    if (!size)
        return ORTKIT__PB_OK;
    for (;;) {
        while (p == stack[depth].end) {
            if (depth == 0)
                return ORTKIT__PB_OK;
            depth--;
        }
        ortkit__pb_field f;
        const unsigned char *at = p;
        if (ortkit__pb_next(&p, stack[depth].end, &f) != 1) {
            if (why_size)
                snprintf(why, why_size, "malformed protobuf in %s at byte %zu",
                         stack[depth].desc->name, (size_t)(at - start));
            return ORTKIT__PB_MALFORMED;
        }
        const ProtobufCMessageDescriptor *sub =
            f.wire == ORTKIT__PB_BYTES ? sub_message(stack[depth].desc, f.number) : NULL;
        if (!sub)
            continue; /* p is past the field */
        if (depth == max_depth) {
            if (why_size)
                snprintf(why, why_size, "messages nested deeper than %u levels (%s at byte %zu)",
                         max_depth, sub->name, (size_t)(at - start));
            return ORTKIT__PB_TOO_DEEP;
        }
        /* Step into the sub-message: its fields come next. */
        depth++;
        stack[depth].end = f.data + f.len;
        stack[depth].desc = sub;
        p = f.data;
    }
}
