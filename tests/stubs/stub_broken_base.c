/*
 * A library whose OrtGetApiBase answers what no real ONNX Runtime does, as
 * STUB_BASE says: "null" (no table at all), "no-version" (a table without
 * GetVersionString) or "null-version" (GetVersionString returns NULL).
 * ortkit must say which, never print "(null)" or crash.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct stub_api_base {
    const void *(*GetApi)(uint32_t version);
    const char *(*GetVersionString)(void);
};

static const void *stub_get_api(uint32_t version)
{
    (void)version;
    return NULL;
}

static const char *stub_null_version(void) { return NULL; }

static const struct stub_api_base no_version = {stub_get_api, NULL};
static const struct stub_api_base null_version = {stub_get_api, stub_null_version};

const struct stub_api_base *OrtGetApiBase(void);
const struct stub_api_base *OrtGetApiBase(void)
{
    const char *mode = getenv("STUB_BASE");
    if (mode && !strcmp(mode, "no-version"))
        return &no_version;
    if (mode && !strcmp(mode, "null-version"))
        return &null_version;
    return NULL;
}
