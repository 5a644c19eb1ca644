/*
 * repo_fetch.c - a repository's files, from a directory or over http(s)
 * with libcurl.
 *
 * An archive is fetched into a part file: what an interrupted attempt kept
 * is hashed again and the transfer asks for the rest (a Range request; a
 * server that answers with the whole file starts it over).  The size and
 * the SHA-256 are checked while it streams: a byte past the size stops the
 * transfer, and a part whose hash is wrong is removed, never reused.
 */
#include "repo.h"

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BLOCK ((size_t)1 << 20)

int ortkit__source_init(ortkit__source *src, char **base, const char *source, const char *ca_file)
{
    *base = NULL;
    if (!source || !source[0])
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "no repository: give a URL or a directory");
    src->remote = !strncmp(source, "http://", 7) || !strncmp(source, "https://", 8);
    src->ca_file = ca_file;
    if (!src->remote && strstr(source, "://"))
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "'%s': only http://, https:// and "
                                 "directories are repositories", source);
    if (!(*base = ortkit__strdup(source)))
        return ortkit__error_nomem();
    size_t n = strlen(*base);
    while (n > 1 && (*base)[n - 1] == '/')
        (*base)[--n] = '\0';
    src->base = *base;
    return ORTKIT_OK;
}

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static int curl_ready;

static void curl_start(void) { curl_ready = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK; }

/* Where the bytes go: memory (small files) or a part file (archives). */
typedef struct stream {
    char *mem;
    size_t mem_size, max;
    int fd;
    int to_file;            /* a part file, hashed as it grows; else memory */
    ortkit__sha256_ctx sha;
    uint64_t have, want;
    int first_seen, too_big, write_errno;
    ortkit__fetch_job *job;
    CURL *curl;
} stream;

static int stream_restart(stream *s)
{
    if (ftruncate(s->fd, 0) != 0 || lseek(s->fd, 0, SEEK_SET) < 0 ||
        ortkit__sha256_init(&s->sha)) {
        s->write_errno = errno;
        return -1;
    }
    s->job->resumed_from = 0;
    s->have = 0;
    return 0;
}

static int stream_put(stream *s, const char *p, size_t n)
{
    if (!s->to_file) { /* memory */
        if (n > s->max - s->mem_size) {
            s->too_big = 1;
            return -1;
        }
        char *m = realloc(s->mem, s->mem_size + n + 1);
        if (!m)
            return -1;
        memcpy(m + s->mem_size, p, n);
        s->mem = m;
        s->mem_size += n;
        m[s->mem_size] = '\0';
        return 0;
    }
    if (n > s->want - s->have) {
        s->too_big = 1;
        return -1;
    }
    ortkit__sha256_update(&s->sha, p, n);
    if (ortkit__file_write_all(s->fd, p, n, "the download")) {
        s->write_errno = errno;
        return -1;
    }
    s->have += n;
    s->job->downloaded += n;
    if (s->job->progress && s->job->progress(s->job->progress_arg, s->have, s->want))
        return -1;
    return 0;
}

static size_t on_data(char *p, size_t size, size_t nmemb, void *arg)
{
    stream *s = arg;
    size_t n = size * nmemb;
    if (s->to_file && !s->first_seen) {
        /* Asked for the rest, a 200 is the whole file again. */
        long code = 0;
        s->first_seen = 1;
        curl_easy_getinfo(s->curl, CURLINFO_RESPONSE_CODE, &code);
        if (s->have > 0 && code == 200 && stream_restart(s))
            return 0;
    }
    return stream_put(s, p, n) ? 0 : n;
}

static int fetch_url(stream *s, const ortkit__source *src, const char *rel)
{
    pthread_once(&curl_once, curl_start);
    if (!curl_ready)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "libcurl cannot start");
    char url[4096], errbuf[CURL_ERROR_SIZE] = "";
    int rc = ortkit__pathf(url, sizeof url, "%s/%s", src->base, rel);
    if (rc)
        return rc;
    CURL *c = s->curl = curl_easy_init();
    if (!c)
        return ortkit__error_nomem();
    curl_easy_setopt(c, CURLOPT_URL, url);
    /* HTTP(S) only, redirects too.  The string options are libcurl 7.85's;
     * older libcurl (Debian 11 has 7.74) has only the bit masks. */
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#else
    curl_easy_setopt(c, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(c, CURLOPT_FAILONERROR, 1L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, s);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "ortkit/" ORTKIT_VERSION_STRING);
    /* A stalled server, or one that drips, fails the transfer instead of
     * keeping it alive for ever: a total deadline and a minimum rate. */
    double timeout_s = src->timeout_s > 0 ? src->timeout_s : REPO_DEFAULT_TIMEOUT_S;
    double window_s = src->min_rate_window_s > 0 ? src->min_rate_window_s
                                                 : REPO_DEFAULT_MIN_RATE_WINDOW_S;
    uint64_t min_rate = src->min_rate ? src->min_rate : REPO_DEFAULT_MIN_RATE;
    long window = window_s < 1 ? 1 : (long)(window_s + 0.5);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 30L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)(timeout_s * 1000));
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, (long)(min_rate > LONG_MAX ? LONG_MAX : min_rate));
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, window);
    if (src->ca_file)
        curl_easy_setopt(c, CURLOPT_CAINFO, src->ca_file);
    /* A Range header of its own rather than curl's resume, which fails a
     * server that answers 200 ("Cannot resume"); on_data starts that whole
     * answer over from byte 0. */
    char range[32];
    if (s->to_file && s->have) {
        snprintf(range, sizeof range, "%llu-", (unsigned long long)s->have);
        curl_easy_setopt(c, CURLOPT_RANGE, range);
    }
    double started = ortkit__clock_now();
    CURLcode r = curl_easy_perform(c);
    double took = ortkit__clock_now() - started;
    long code = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
    curl_easy_cleanup(c);
    s->curl = NULL;
    if (r == CURLE_OK)
        return ORTKIT_OK;
    /* Asked for the rest of a part that already holds the whole file. */
    if (r == CURLE_HTTP_RETURNED_ERROR && code == 416 && s->to_file && s->have)
        return ORTKIT_OK;
    if (s->too_big)
        return ORTKIT_E_FORMAT; /* the caller says what */
    if (s->write_errno)
        return ortkit__error_set(ORTKIT_E_IO, "cannot write '%s': %s", s->job->part,
                                 strerror(s->write_errno));
    if (r == CURLE_WRITE_ERROR && s->job && s->job->progress)
        return ortkit__error_set(ORTKIT_E_CANCELLED, "the download of '%s' was stopped", url);
    if (r == CURLE_HTTP_RETURNED_ERROR)
        return ortkit__error_set(ORTKIT_E_IO, "cannot fetch '%s': "
                                 "the server answers %ld", url, code);
    if (r == CURLE_OPERATION_TIMEDOUT && took >= timeout_s - 0.05)
        return ortkit__error_set(ORTKIT_E_IO, "cannot fetch '%s': not done after %g s, the "
                                 "limit of one download (--timeout; timeout_s in the repository "
                                 "options)", url, timeout_s);
    if (r == CURLE_OPERATION_TIMEDOUT && strstr(errbuf, "too slow"))
        return ortkit__error_set(ORTKIT_E_IO, "cannot fetch '%s': slower than %llu bytes a "
                                 "second for %ld s, the least a download may go at (--min-rate; "
                                 "min_rate in the repository options)", url,
                                 (unsigned long long)min_rate, window);
    return ortkit__error_set(ORTKIT_E_IO, "cannot fetch '%s': %s", url,
                             errbuf[0] ? errbuf : curl_easy_strerror(r));
}

typedef struct copying {
    stream *s;
    const char *path;
} copying;

static int copy_block(void *arg, const void *block, size_t n)
{
    copying *c = arg;
    stream *s = c->s;
    if (!stream_put(s, block, n))
        return 0;
    if (s->too_big)
        return ORTKIT_E_FORMAT;
    if (s->write_errno)
        return ortkit__error_set(ORTKIT_E_IO, "cannot write '%s': %s",
                                 s->job ? s->job->part : "memory", strerror(s->write_errno));
    if (s->to_file)
        return ortkit__error_set(ORTKIT_E_CANCELLED, "the copy of '%s' was stopped", c->path);
    return ortkit__error_nomem();
}

/* A local repository's file, read like a download (from s->have on). */
static int fetch_path(stream *s, const ortkit__source *src, const char *rel)
{
    char path[PATH_MAX];
    int fd = -1, rc = ortkit__pathf(path, sizeof path, "%s/%s", src->base, rel);
    char *buf = malloc(BLOCK);
    if (!buf)
        return ortkit__error_nomem();
    if (rc || (rc = ortkit__file_open(&fd, path, 0, NULL)))
        goto cleanup;
    if (s->have && lseek(fd, (off_t)s->have, SEEK_SET) < 0) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': %s", path, strerror(errno));
        goto cleanup;
    }
    copying c = {s, path};
    rc = ortkit__file_each_block(fd, buf, BLOCK, path, copy_block, &c);
cleanup:
    if (fd >= 0)
        close(fd);
    free(buf);
    return rc;
}

int ortkit__fetch_small(char **out, size_t *size, const ortkit__source *src, const char *rel,
                        size_t max)
{
    *out = NULL;
    *size = 0;
    stream s = {.max = max, .fd = -1};
    int rc = src->remote ? fetch_url(&s, src, rel) : fetch_path(&s, src, rel);
    if (rc == ORTKIT_E_FORMAT && s.too_big)
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "%s/%s is larger than %zu bytes", src->base, rel,
                               max);
    if (!rc && !s.mem && !(s.mem = calloc(1, 1)))
        rc = ortkit__error_nomem();
    if (rc) {
        free(s.mem);
        return rc;
    }
    *out = s.mem;
    *size = s.mem_size;
    return ORTKIT_OK;
}

static int hash_block(void *arg, const void *block, size_t n)
{
    stream *s = arg;
    ortkit__sha256_update(&s->sha, block, n);
    s->have += (uint64_t)n;
    return 0;
}

/* Hash what an earlier attempt kept in the part file. */
static int hash_part(stream *s, const char *part)
{
    char *buf = malloc(BLOCK);
    if (!buf)
        return ortkit__error_nomem();
    int rc = ortkit__file_each_block(s->fd, buf, BLOCK, part, hash_block, s);
    free(buf);
    return rc;
}

int ortkit__fetch_file(const ortkit__source *src, ortkit__fetch_job *job)
{
    stream s = {.fd = -1, .want = job->size, .job = job, .to_file = 1};
    const char *vouch = job->vouch ? job->vouch : "the signed index";
    job->resumed_from = job->downloaded = 0;
    int rc = ORTKIT_OK, discard = 0;
    struct stat st;
    if ((rc = ortkit__sha256_init(&s.sha)))
        goto cleanup;
    s.fd = open(job->part, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (s.fd < 0 || fstat(s.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot open '%s': %s", job->part,
                               s.fd < 0 ? strerror(errno) : "not a regular file");
        goto cleanup;
    }
    if ((uint64_t)st.st_size > job->size) {
        if (ftruncate(s.fd, 0) != 0) {
            rc = ortkit__error_set(ORTKIT_E_IO, "cannot truncate '%s': %s", job->part, strerror(errno));
            goto cleanup;
        }
    } else if ((rc = hash_part(&s, job->part))) {
        goto cleanup;
    }
    job->resumed_from = s.have;
    if (s.have < job->size) {
        if (job->progress && job->progress(job->progress_arg, s.have, job->size)) {
            rc = ortkit__error_set(ORTKIT_E_CANCELLED, "the download was stopped");
            goto cleanup;
        }
        rc = src->remote ? fetch_url(&s, src, job->rel) : fetch_path(&s, src, job->rel);
        if (rc == ORTKIT_E_FORMAT && s.too_big) {
            discard = 1;
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "%s/%s is larger than the %llu bytes %s "
                                   "%s: refused", src->base, job->rel,
                                   (unsigned long long)job->size, vouch,
                                   job->size_is_max ? "allows" : "says");
        }
        if (rc)
            goto cleanup;
    }
    if (s.have != job->size && !job->size_is_max) {
        /* The server's file ended early: what there is may be right so far. */
        rc = ortkit__error_set(ORTKIT_E_IO, "%s/%s ended after %llu of the %llu bytes %s says",
                               src->base, job->rel, (unsigned long long)s.have,
                               (unsigned long long)job->size, vouch);
        goto cleanup;
    }
    unsigned char md[ORTKIT__SHA256_SIZE];
    char hex[ORTKIT__SHA256_HEX];
    if ((rc = ortkit__sha256_final(&s.sha, md)))
        goto cleanup;
    ortkit__hex(hex, md, sizeof md);
    if (strcmp(hex, job->sha256)) {
        discard = 1;
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "%s/%s has SHA-256 %.16s..., %s says "
                               "%.16s...: the archive was changed or damaged; refused",
                               src->base, job->rel, hex, vouch, job->sha256);
    }
cleanup:
    if (s.fd >= 0)
        close(s.fd);
    ortkit__sha256_discard(&s.sha);
    if (discard)
        unlink(job->part);
    return rc;
}

int ortkit__fetch_whole(const ortkit__source *src, const char *rel, const char *path, uint64_t max,
                        uint64_t *got, ortkit_repo_progress_fn progress, void *progress_arg)
{
    ortkit__fetch_job job = {.rel = rel, .part = path, .size = max, .progress = progress,
                             .progress_arg = progress_arg};
    stream s = {.fd = -1, .want = max, .job = &job, .to_file = 1};
    *got = 0;
    int rc = ortkit__sha256_init(&s.sha);
    if (rc)
        return rc;
    s.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (s.fd < 0) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot create '%s': %s", path, strerror(errno));
        goto cleanup;
    }
    rc = src->remote ? fetch_url(&s, src, rel) : fetch_path(&s, src, rel);
    if (rc == ORTKIT_E_FORMAT && s.too_big)
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "%s/%s is larger than %llu bytes: refused",
                               src->base, rel, (unsigned long long)max);
    *got = s.have;
cleanup:
    if (s.fd >= 0)
        close(s.fd);
    ortkit__sha256_discard(&s.sha);
    if (rc)
        unlink(path);
    return rc;
}

int ortkit__import_cancel_progress(void *arg, uint64_t done, uint64_t total)
{
    const ortkit_bundle_import_options *import = arg;
    (void)done;
    (void)total;
    /* cancel came with version 2 of the options. */
    return import && import->version >= 2 && import->cancel && import->cancel(import->cancel_arg);
}

int ortkit__fetch_tmpdir(char *out, size_t size)
{
    const char *tmpdir = ortkit__env("TMPDIR");
    int rc = ortkit__pathf(out, size, "%s/ortkit-fetch-XXXXXX",
                           tmpdir && tmpdir[0] ? tmpdir : "/tmp");
    if (!rc && !mkdtemp(out))
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot create a directory like '%s': %s", out,
                               strerror(errno));
    if (rc)
        out[0] = '\0';
    return rc;
}
