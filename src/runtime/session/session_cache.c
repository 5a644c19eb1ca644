/*
 * session_cache.c - the cache of optimised sessions (see session_cache.h):
 * the key, finding and checking an entry, storing one.  Eviction and the
 * file digests are in session_cache_files.c.
 */
#include "session_cache.h"
#include "session_cache_files.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char magic[8] = {'O', 'R', 'T', 'K', 'S', 'C', '\r', '\n'};
#define FORMAT 1u

/* The header, at the start of every entry (host byte order: a cache
 * belongs to one machine, and a foreign one fails the magic or the key). */
typedef struct entry_header {
    char magic[8];
    uint32_t format;
    uint32_t reserved;
    char key[64];
    uint64_t payload_size;
    unsigned char payload_sha256[32];
    unsigned char pad[ORTKIT__CACHE_HEADER_SIZE - 120];
} entry_header;
_Static_assert(sizeof(entry_header) == ORTKIT__CACHE_HEADER_SIZE, "the header is 128 bytes");

/* Requested providers that are the CPU one: only those sessions are cached,
 * because the graph other providers optimise holds their own nodes and
 * depends on the device (and compiled ones cannot be saved at all). */
static const char *non_cpu_provider(const ortkit_session_options *o)
{
    for (size_t i = 0; i < o->provider_count; i++) {
        const char *p = o->providers[i] ? o->providers[i] : "";
        size_t len = strcspn(p, ":");
        if (!((len == 3 && !strncasecmp(p, "cpu", 3)) ||
              (len == 20 && !strncasecmp(p, "CPUExecutionProvider", 20))))
            return p;
    }
    return NULL;
}

/* What ONNX Runtime's optimiser chose kernels and layouts by (NCHWc block
 * size, fused kernels): the CPU's vendor and feature flags, hashed once. */
static char cpu_id[65];
static void read_cpu_id(void)
{
    char *text = NULL;
    ortkit__sha256_ctx ctx = {0};
    if (!ortkit__sha256_init(&ctx) &&
        !ortkit__file_read(&text, NULL, "/proc/cpuinfo", (size_t)64 << 20)) {
        static const char *const fields[] = {"vendor_id", "flags", "Features", "CPU part"};
        for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
            size_t flen = strlen(fields[f]);
            for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
                if (!strncmp(line, fields[f], flen) && (line[flen] == ' ' || line[flen] == '\t' || line[flen] == ':')) {
                    ortkit__sha256_update(&ctx, line, strcspn(line, "\n"));
                    break; /* the first processor's line stands for all */
                }
            }
        }
        unsigned char md[ORTKIT__SHA256_SIZE];
        if (!ortkit__sha256_final(&ctx, md))
            ortkit__hex(cpu_id, md, sizeof md);
    }
    free(text);
    ortkit__sha256_discard(&ctx);
    if (!cpu_id[0])
        snprintf(cpu_id, sizeof cpu_id, "unknown");
}

static const char *cpu_identity(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, read_cpu_id);
    return cpu_id;
}

/* The SHA-256 of the runtime's library, once per loaded runtime. */
static int runtime_digest(ortkit_runtime *rt, const char *dir, char hex[65])
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    int rc = ORTKIT_OK;
    if (!rt->library_sha256[0])
        rc = ortkit__cache_file_digest(rt->library_sha256, dir, rt->path);
    if (!rc)
        memcpy(hex, rt->library_sha256, 65);
    pthread_mutex_unlock(&lock);
    return rc;
}

/* The key: what the optimised graph is a function of.  Options that only
 * change how it runs (threads, arena, memory pattern, profiling, spinning)
 * are left out, so they share one entry. */
static int make_key(ortkit__cache_plan *p, ortkit_runtime *rt, const char *model_sha256,
                    const char *lib_sha256, const ortkit_session_options *o)
{
    ortkit__sha256_ctx h = {0}, *ctx = &h;
    int bad = ortkit__sha256_init(ctx) != 0;
    bad = bad || ortkit__sha256_addf(ctx, "ortkit session cache %u", FORMAT);
    bad = bad || ortkit__sha256_addf(ctx, "model %s", model_sha256);
    bad = bad || ortkit__sha256_addf(ctx, "runtime %s %s api %d", rt->version, lib_sha256, rt->api_level);
    bad = bad || ortkit__sha256_addf(ctx, "cpu %s", cpu_identity());
    bad = bad || ortkit__sha256_addf(ctx, "graph_opt %d", (int)o->graph_opt);
    for (size_t i = 0; !bad && i < o->provider_count; i++)
        bad = ortkit__sha256_addf(ctx, "provider %s", o->providers[i] ? o->providers[i] : "");
    for (size_t i = 0; !bad && i < o->config_count; i++)
        bad = ortkit__sha256_addf(ctx, "config %s=%s", o->config_keys[i], o->config_values[i]);
    unsigned char md[ORTKIT__SHA256_SIZE];
    bad = bad || ortkit__sha256_final(ctx, md) != 0;
    ortkit__sha256_discard(ctx);
    if (bad)
        return -1;
    ortkit__hex(p->key, md, sizeof md);
    return 0;
}

static void skip(ortkit__cache_plan *p, const char *fmt, ...) ORTKIT_PRINTF(2, 3);
static void skip(ortkit__cache_plan *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->reason, sizeof p->reason, fmt, ap);
    va_end(ap);
    p->state = ORTKIT_CACHE_SKIPPED;
}

/* The record of a good check of the entry p->entry, as it is now (st) with
 * the header h: its path in memo, its text in line. */
static int verified_record(const ortkit__cache_plan *p, const struct stat *st, const entry_header *h,
                           char memo[PATH_MAX], char line[ORTKIT__CACHE_IDENTITY_MAX + 80])
{
    char identity[ORTKIT__CACHE_IDENTITY_MAX], sum[65];
    ortkit__cache_file_identity(identity, st);
    ortkit__hex(sum, h->payload_sha256, sizeof h->payload_sha256);
    snprintf(line, ORTKIT__CACHE_IDENTITY_MAX + 80, "%s sha256 %s\n", identity, sum);
    return ortkit__pathf(memo, PATH_MAX, "%s/%s%s", p->dir, p->key, ORTKIT__CACHE_VERIFIED_SUFFIX);
}

/* Whether the entry as it is now was checked whole before. */
static int was_verified(const char *memo, const char *line)
{
    char *text = NULL;
    size_t len = 0;
    int same = !ortkit__file_read(&text, &len, memo, 4096) && len == strlen(line) && !memcmp(text, line, len);
    free(text);
    return same;
}

/* Map the entry and check it against its name and contents.  0: a good
 * entry (p->graph set); 1: none there; -1: a bad one, why in p->reason. */
static int open_entry(ortkit__cache_plan *p)
{
    int fd;
    struct stat st;
    if (ortkit__file_open(&fd, p->entry, O_NOFOLLOW, &st))
        return errno == ENOENT || access(p->entry, F_OK) ? 1 : -1;
    /* The session maps the entry for its life: only a file no one else can
     * write (or truncate, which would kill it with SIGBUS) is used. */
    if (st.st_uid != geteuid() || (st.st_mode & 022)) {
        close(fd);
        snprintf(p->reason, sizeof p->reason, "cache entry '%s' %s: refused", p->entry,
                 st.st_uid != geteuid() ? "belongs to another user" : "can be written by others");
        return -1;
    }
    /* The last use, for eviction, before the identity is read: moving it
     * changes the identity. */
    struct timespec now;
    if (!clock_gettime(CLOCK_REALTIME, &now) && now.tv_sec - st.st_mtim.tv_sec >= ORTKIT__CACHE_TOUCH_SECONDS) {
        ortkit__cache_touch(p->entry);
        fstat(fd, &st);
    }
    if ((uint64_t)st.st_size < sizeof(entry_header) || (uint64_t)st.st_size > SIZE_MAX) {
        close(fd);
        snprintf(p->reason, sizeof p->reason, "cache entry '%s' is cut short", p->entry);
        return -1;
    }
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED) {
        snprintf(p->reason, sizeof p->reason, "cannot map cache entry '%s': %s", p->entry, strerror(errno));
        return -1;
    }
    p->map = m;
    p->map_size = (size_t)st.st_size;
    entry_header h;
    memcpy(&h, m, sizeof h);
    const unsigned char *payload = (const unsigned char *)m + sizeof h;
    size_t payload_size = p->map_size - sizeof h;
    unsigned char md[32];
    char memo[PATH_MAX], line[ORTKIT__CACHE_IDENTITY_MAX + 80];
    int memo_ok = !verified_record(p, &st, &h, memo, line);
    int known = memo_ok && was_verified(memo, line);
    if (memcmp(h.magic, magic, sizeof magic) || h.format != FORMAT)
        snprintf(p->reason, sizeof p->reason, "'%s' is not an ortkit cache entry of format %u", p->entry, FORMAT);
    else if (memcmp(h.key, p->key, 64))
        snprintf(p->reason, sizeof p->reason, "cache entry '%s' holds the key %.12s..., not its own", p->entry, h.key);
    else if (h.payload_size != payload_size)
        snprintf(p->reason, sizeof p->reason, "cache entry '%s' has %zu bytes, its header says %llu",
                 p->entry, payload_size, (unsigned long long)h.payload_size);
    else if (!known &&
             (ortkit__sha256(md, payload, payload_size) ||
              memcmp(md, h.payload_sha256, sizeof md)))
        snprintf(p->reason, sizeof p->reason, "cache entry '%s' does not match its checksum", p->entry);
    else {
        /* Remembering is an optimisation: without it, the next load checks
         * the whole entry again. */
        if (memo_ok && !known)
            ortkit__file_write_atomic(memo, line, strlen(line));
        p->graph = payload;
        p->graph_size = payload_size;
        return 0;
    }
    return -1;
}

static void unmap(ortkit__cache_plan *p)
{
    if (p->map)
        munmap(p->map, p->map_size);
    p->map = NULL;
    p->graph = NULL;
    p->map_size = p->graph_size = 0;
}

/* ONNX Runtime opens the fill's name itself, following links: ortkit makes
 * the file first, new and not through a link, in the checked directory. */
static void plan_fill(ortkit__cache_plan *p)
{
    static atomic_uint counter;
    for (int tries = 0; tries < 16; tries++) {
        if (ortkit__pathf(p->fill_tmp, sizeof p->fill_tmp, "%s/%s.ort.tmp.%ld.%u", p->dir, p->key,
                          (long)getpid(), atomic_fetch_add(&counter, 1))) {
            p->fill_tmp[0] = '\0';
            skip(p, "the cache directory's path is too long");
            return;
        }
        if (!ortkit__file_create_new(p->fill_tmp, 0600)) {
            p->state = ORTKIT_CACHE_FILLED;
            return;
        }
        if (errno != EEXIST)
            break;
    }
    p->fill_tmp[0] = '\0';
    skip(p, "%s", ortkit_error_last());
}

void ortkit__session_cache_begin(ortkit__cache_plan *p, ortkit_runtime *rt, const char *path,
                                 const void *data, size_t size, const ortkit_session_options *o)
{
    memset(p, 0, sizeof *p);
    if (!o || !o->cache_dir)
        return; /* ORTKIT_CACHE_OFF */
    const char *other = non_cpu_provider(o);
    if (other)
        return skip(p, "only CPU sessions are cached; '%s' was requested", other);
    if (o->optimized_model_path)
        return skip(p, "optimized_model_path is set: the optimised graph goes there instead");
    for (size_t i = 0; i < o->config_count; i++)
        if (!strncmp(o->config_keys[i], "session.load_model_format", 25) ||
            !strncmp(o->config_keys[i], "session.save_model_format", 25))
            return skip(p, "the config entry '%s' sets the model format itself", o->config_keys[i]);
    p->max_bytes = o->cache_max_bytes ? o->cache_max_bytes : ORTKIT__CACHE_DEFAULT_MAX;
    char model_sha[65], lib_sha[65];
    if (ortkit__pathf(p->dir, sizeof p->dir, "%s", o->cache_dir) ||
        ortkit__private_dir(p->dir, "the session cache") ||
        (path ? ortkit__cache_file_digest(model_sha, p->dir, path)
              : ortkit__sha256_hex(model_sha, data, size)) ||
        runtime_digest(rt, p->dir, lib_sha))
        return skip(p, "%s", ortkit_error_last());
    if (make_key(p, rt, model_sha, lib_sha, o))
        return skip(p, "cannot compute the cache key");
    if (ortkit__pathf(p->entry, sizeof p->entry, "%s/%s%s", p->dir, p->key, ORTKIT__CACHE_SUFFIX))
        return skip(p, "the cache directory's path is too long");
    int found = open_entry(p);
    if (found == 0) {
        p->state = ORTKIT_CACHE_HIT;
        return;
    }
    if (found < 0) {
        unmap(p);
        unlink(p->entry);
        size_t n = strlen(p->reason);
        snprintf(p->reason + n, sizeof p->reason - n, "; removed and made again");
    }
    plan_fill(p);
}

void ortkit__session_cache_reject(ortkit__cache_plan *p, const char *why)
{
    unmap(p);
    unlink(p->entry);
    snprintf(p->reason, sizeof p->reason, "ONNX Runtime refused cache entry '%s' (%s); removed and "
             "made again", p->entry, why);
    plan_fill(p);
}

void ortkit__session_cache_store(ortkit__cache_plan *p)
{
    if (p->state != ORTKIT_CACHE_FILLED)
        return;
    char *graph = NULL, *entry = NULL;
    size_t size = 0;
    if (ortkit__file_read(&graph, &size, p->fill_tmp, SIZE_MAX / 2)) {
        skip(p, "ONNX Runtime saved no optimised graph: %s", ortkit_error_last());
        goto cleanup;
    }
    if (size == 0) { /* the file ortkit made, never written */
        skip(p, "ONNX Runtime saved no optimised graph in '%s'", p->fill_tmp);
        goto cleanup;
    }
    entry_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, magic, sizeof magic);
    h.format = FORMAT;
    memcpy(h.key, p->key, 64);
    h.payload_size = size;
    if (ortkit__sha256(h.payload_sha256, graph, size) ||
        !(entry = malloc(sizeof h + size))) {
        skip(p, "cannot make the cache entry: out of memory");
        goto cleanup;
    }
    memcpy(entry, &h, sizeof h);
    memcpy(entry + sizeof h, graph, size);
    if (ortkit__file_write_atomic(p->entry, entry, sizeof h + size)) {
        skip(p, "%s", ortkit_error_last());
        goto cleanup;
    }
    ortkit__session_cache_evict(p->dir, p->max_bytes, p->entry);
cleanup:
    unlink(p->fill_tmp);
    p->fill_tmp[0] = '\0';
    free(graph);
    free(entry);
}

void ortkit__session_cache_end(ortkit__cache_plan *p)
{
    unmap(p);
    if (p->fill_tmp[0])
        unlink(p->fill_tmp);
    p->fill_tmp[0] = '\0';
}
