/*
 * A library that answers the ORT hand-shake as ONNX Runtime 1.16.3 would.
 * GetApi must never be called on it: ortkit refuses the version first.
 */
#include <stddef.h>
#include <stdint.h>

struct stub_api_base {
    const void *(*GetApi)(uint32_t version);
    const char *(*GetVersionString)(void);
};

static const void *stub_get_api(uint32_t version)
{
    (void)version;
    return NULL;
}

static const char *stub_version(void) { return "1.16.3"; }

static const struct stub_api_base base = {stub_get_api, stub_version};

const struct stub_api_base *OrtGetApiBase(void);
const struct stub_api_base *OrtGetApiBase(void) { return &base; }
