/* util_pbwire.h - protobuf wire format (pbwire.c). */
#ifndef ORTKIT_UTIL_PBWIRE_H
#define ORTKIT_UTIL_PBWIRE_H

#include "util_base.h"

/*
 * The deepest nesting of messages ortkit decodes: protobuf's own default
 * recursion limit, which ONNX Runtime's parser keeps, so every file the
 * runtime loads is within it.
 */
#define ORTKIT__PB_MAX_DEPTH 100

/* Wire types. */
enum { ORTKIT__PB_VARINT = 0, ORTKIT__PB_FIXED64 = 1, ORTKIT__PB_BYTES = 2,
       ORTKIT__PB_FIXED32 = 5 };

/* One field as it is on the wire. */
typedef struct ortkit__pb_field {
    uint32_t number;
    unsigned wire;             /* ORTKIT__PB_VARINT, ... */
    uint64_t value;            /* varint and fixed-size fields */
    const unsigned char *data; /* ORTKIT__PB_BYTES: the bytes (a string, bytes or a message) */
    size_t len;
} ortkit__pb_field;

/* A varint at *pos (moved past it); -1 when it runs past end or over ten bytes. */
int ortkit__pb_varint(const unsigned char **pos, const unsigned char *end, uint64_t *out);
/* The field at *pos of a message ending at end, *pos moved past it: 1, or
 * 0 at the end, or -1 when the bytes are no protobuf (a length past the
 * end, a group, field number 0). */
int ortkit__pb_next(const unsigned char **pos, const unsigned char *end, ortkit__pb_field *f);

/* protobuf-c's type for a message's schema; its header is left to pbwire.c. */
struct ProtobufCMessageDescriptor;

enum { ORTKIT__PB_OK = 0, ORTKIT__PB_TOO_DEEP = 1, ORTKIT__PB_MALFORMED = 2 };

/*
 * Check data, a message of type root, before protobuf-c decodes it (and
 * recurses once per level): ORTKIT__PB_TOO_DEEP when a sub-message lies more
 * than max_depth (at most ORTKIT__PB_MAX_DEPTH) levels below the top,
 * ORTKIT__PB_MALFORMED when the bytes are no protobuf; why (may be NULL with
 * why_size 0) then says so and where: "messages nested deeper than 100 levels
 * (onnx.TypeProto at byte 4242)".  Which fields are messages comes from the
 * descriptors, so only what protobuf-c would decode counts; without
 * recursion, and reading only tags, so any size or depth of input is safe.
 * Records no error: the caller words it.
 */
int ortkit__pb_check(const void *data, size_t size, const struct ProtobufCMessageDescriptor *root,
                     unsigned max_depth, char *why, size_t why_size);

#endif
