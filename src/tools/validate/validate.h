/* validate.h - what validate's files share; not installed. */
#ifndef ORTKIT_VALIDATE_H
#define ORTKIT_VALIDATE_H

#include "core.h"
#include "ortkit/tools/compare.h"
#include "ortkit/tools/proto.h"

/* A value made of a decoded .pb value (a run input or a reference); takes
 * its tensors (p keeps the rest, for the caller to free). */
int ortkit__validate_value_from_proto(ortkit_value **out, ortkit_proto_value *p);
/* An output against its reference, with the tensor rules at every leaf:
 * out->equal, the worst difference and where ("(2){}[1]": element 2 of a
 * sequence, its map's values, index 1), and the first difference. */
void ortkit__validate_compare(ortkit_compare *out, const ortkit_value *expected,
                              const ortkit_value *actual, double rtol, double atol);
/* Two runs' outputs, bit for bit. */
void ortkit__validate_identical(ortkit_compare *out, const ortkit_value *first,
                                const ortkit_value *again);

#endif
