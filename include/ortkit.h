/*
 * ortkit.h - the header a program includes: ortkit's stable API.
 *
 * ortkit finds and loads ONNX Runtime (ORT) when the program runs, opens
 * models in sessions, and runs them on tensors.  Nothing here needs ORT's
 * headers or a link-time dependency on libonnxruntime.
 *
 * Conventions:
 *   - Functions return int: 0 (ORTKIT_OK) or a negative ortkit_status.
 *     ortkit_error_last() then describes the failure, naming the path,
 *     symbol, tensor or provider involved.
 *   - Handles are opaque, come from *_open / *_new and go back through
 *     *_free; *_free(NULL) does nothing.  The output parameter comes first.
 *   - Options structs start with a version field; initialise them with
 *     their _INIT macro.  A zero field means "the default".
 *   - What the library allocates, the library frees (*_free, ortkit_free).
 *   - The library never prints, never aborts and never exits.
 *
 * Stability.  Everything included below is the stable API: a program built
 * against one release keeps working with every later libortkit of the same
 * SONAME (libortkit.so.0).  Names are never removed or changed; status codes
 * and enums grow only at the end; options and result structs the caller
 * allocates grow through their version field; structs the library
 * allocates grow only at their end.  All of it is libortkit (pkg-config
 * ortkit), which needs no network, signature or archive library.
 *
 * The tools under ortkit/tools/ (making bundles, signed repositories,
 * conformance tests, ONNX protobuf values, tensor comparison, the
 * self-test) are libortkit-tools (pkg-config ortkit-tools), less stable:
 * they may change in any minor release, and a program includes them by
 * name, e.g. #include <ortkit/tools/compare.h>.  See docs/CONVENTIONS.md.
 */
#ifndef ORTKIT_H
#define ORTKIT_H

#include "ortkit/common.h"
#include "ortkit/tensor.h"
#include "ortkit/value.h"
#include "ortkit/runtime.h"
#include "ortkit/session.h"
#include "ortkit/run.h"
#include "ortkit/host.h"
#include "ortkit/variant.h"
#include "ortkit/model_file.h"
#include "ortkit/bundle.h"
#include "ortkit/select.h"
#include "ortkit/resolve.h"

#endif /* ORTKIT_H */
