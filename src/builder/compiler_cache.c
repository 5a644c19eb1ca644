/*
 * compiler_cache.c - the compiler cache a build shares: ccache's remote storage URL
 * (--cache-remote), checked strictly and shown without its password; what
 * the installed ccache can reach; and what ccache did with each compile,
 * read from its stats log of that compile alone (the launcher hands ccache a
 * log of its own per compile, so the build's own hits are counted exactly,
 * whatever else shares the cache directory or the server).
 */
#include "builder_compiler_cache.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const scheme_names[] = {"redis", "http", "https"};
static const unsigned default_ports[] = {6379, 80, 443};

const char *ortkit__builder_cache_scheme_name(ortkit__builder_cache_scheme s)
{
    return (unsigned)s < 3 ? scheme_names[s] : "?";
}

static int bad(const char *fmt, const char *a)
{
    return ortkit__error_set(ORTKIT_E_INVALID_ARG, fmt, a ? a : "");
}

/* RFC 3986 characters of a user part (unreserved, sub-delims, ':'); '%'
 * must start an escape. */
static int userinfo_ok(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '%') {
            if (i + 2 >= n || !isxdigit((unsigned char)s[i + 1]) || !isxdigit((unsigned char)s[i + 2]))
                return 0;
            i += 2;
        } else if (!isalnum(c) && !strchr("-._~!$&'()*+,;=:", c)) {
            return 0;
        }
    }
    return 1;
}

/* A DNS name or an IPv4 address. */
static int host_ok(const char *h)
{
    size_t n = strlen(h);
    if (!n || n > 253)
        return 0;
    int labels = 0, numeric = 1;
    const char *p = h;
    while (*p) {
        const char *dot = strchr(p, '.');
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        if (!len || len > 63 || p[0] == '-' || p[len - 1] == '-')
            return 0;
        for (size_t i = 0; i < len; i++) {
            if (!isalnum((unsigned char)p[i]) && p[i] != '-')
                return 0;
            if (!isdigit((unsigned char)p[i]))
                numeric = 0;
        }
        labels++;
        if (!dot)
            break;
        p = dot + 1;
        if (!*p)
            return 0; /* a trailing dot */
    }
    if (numeric) { /* all digits: an IPv4 address, dotted quad */
        if (labels != 4)
            return 0;
        for (p = h; *p;) {
            char *end;
            long v = strtol(p, &end, 10);
            if (v > 255 || end - p > 3)
                return 0;
            p = *end ? end + 1 : end;
        }
    }
    return 1;
}

static int digits(const char *s, size_t n, size_t max_len)
{
    if (!n || n > max_len)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)s[i]))
            return 0;
    return 1;
}

/* ccache's attributes after '|': only those ortkit knows, with checked values. */
static int attributes_ok(const char *a, ortkit__builder_cache_scheme scheme)
{
    for (;;) {
        const char *end = strchr(a, '|');
        size_t len = end ? (size_t)(end - a) : strlen(a);
        const char *eq = memchr(a, '=', len);
        size_t klen = eq ? (size_t)(eq - a) : len;
        const char *val = eq ? eq + 1 : NULL;
        size_t vlen = eq ? len - klen - 1 : 0;
        char key[32];
        if (!klen || klen >= sizeof key)
            return bad("--cache-remote: an empty or overlong attribute after '|'", NULL);
        for (size_t i = 0; i < klen; i++)
            if (!islower((unsigned char)a[i]) && a[i] != '-')
                return bad("--cache-remote: an attribute name is lower-case letters and '-'", NULL);
        memcpy(key, a, klen);
        key[klen] = '\0';
        int http = scheme != ORTKIT__CACHE_REDIS, ok;
        if (!strcmp(key, "read-only") || (http && !strcmp(key, "keep-alive")))
            ok = !val || (vlen == 4 && !strncmp(val, "true", 4)) || (vlen == 5 && !strncmp(val, "false", 5));
        else if (!strcmp(key, "connect-timeout") || !strcmp(key, "operation-timeout"))
            ok = val && digits(val, vlen, 9);
        else if (http && !strcmp(key, "layout"))
            ok = val && ((vlen == 7 && !strncmp(val, "subdirs", 7)) || (vlen == 4 && !strncmp(val, "flat", 4)) ||
                         (vlen == 5 && !strncmp(val, "bazel", 5)));
        else
            return bad("--cache-remote: the attribute '%s' is not one ortkit passes to ccache "
                       "(read-only, connect-timeout, operation-timeout; layout and keep-alive for "
                       "http)", key);
        if (!ok)
            return bad("--cache-remote: the attribute '%s' has a value it does not take (read-only "
                       "and keep-alive: true or false; timeouts: milliseconds; layout: subdirs, "
                       "flat or bazel)", key);
        if (!end)
            return 0;
        a = end + 1;
    }
}

int ortkit__builder_cache_remote_parse(ortkit__builder_cache_remote *out, const char *url)
{
    memset(out, 0, sizeof *out);
    out->db = -1;
    if (!url || !*url)
        return bad("--cache-remote wants a URL: redis://HOST[:PORT][/DB] or http://HOST[:PORT][/PATH]",
                   NULL);
    size_t n = strlen(url);
    if (n >= sizeof out->url)
        return bad("--cache-remote: the URL is longer than 1023 bytes", NULL);
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)url[i] <= ' ' || (unsigned char)url[i] >= 0x7f)
            return bad("--cache-remote: the URL has white space or a character outside printable "
                       "ASCII (ccache separates URLs with spaces; percent-encode it)", NULL);
    const char *sep = strstr(url, "://");
    if (!sep)
        return bad("--cache-remote wants redis://HOST[:PORT][/DB] or http://HOST[:PORT][/PATH] "
                   "(https:// with ccache 4.13 and later)", NULL);
    int scheme = -1;
    for (int i = 0; i < 3; i++)
        if ((size_t)(sep - url) == strlen(scheme_names[i]) && !strncmp(url, scheme_names[i], (size_t)(sep - url)))
            scheme = i;
    if (scheme < 0) {
        char name[16] = "";
        size_t len = (size_t)(sep - url);
        for (size_t i = 0; i < len && i + 1 < sizeof name; i++)
            name[i] = isalnum((unsigned char)url[i]) || url[i] == '+' ? url[i] : '?';
        name[len < sizeof name ? len : sizeof name - 1] = '\0';
        return bad("--cache-remote: the scheme '%s' is not one ccache's remote storage speaks here: "
                   "redis://HOST[:PORT][/DB], http://HOST[:PORT][/PATH] or https:// (ccache 4.13 "
                   "and later)", name);
    }
    out->scheme = (ortkit__builder_cache_scheme)scheme;
    const char *auth = sep + 3, *bar = strchr(auth, '|');
    const char *end = bar ? bar : url + n;
    const char *slash = memchr(auth, '/', (size_t)(end - auth));
    const char *auth_end = slash ? slash : end;
    if (memchr(auth, '?', (size_t)(end - auth)) || memchr(auth, '#', (size_t)(end - auth)))
        return bad("--cache-remote: the URL takes no query ('?') or fragment ('#')", NULL);
    /* The user part: up to the last '@' of the authority. */
    const char *at = NULL;
    for (const char *p = auth; p < auth_end; p++)
        if (*p == '@')
            at = p;
    const char *hostport = auth, *pw = NULL;
    size_t pw_len = 0;
    if (at) {
        size_t ulen = (size_t)(at - auth);
        if (!ulen || !userinfo_ok(auth, ulen))
            return bad("--cache-remote: the user part before '@' is empty or has characters a URL "
                       "must percent-encode", NULL);
        const char *colon = memchr(auth, ':', ulen);
        if (colon == auth && out->scheme == ORTKIT__CACHE_REDIS)
            return bad("--cache-remote: redis://:PASSWORD@ names an empty user, which ccache "
                       "sends to Redis and Redis refuses: write redis://PASSWORD@HOST or "
                       "redis://default:PASSWORD@HOST", NULL);
        if (colon) {
            pw = colon + 1;
            pw_len = (size_t)(at - pw);
        } else if (out->scheme == ORTKIT__CACHE_REDIS) {
            pw = auth; /* redis://PASSWORD@HOST */
            pw_len = ulen;
        }
        if (pw && !pw_len)
            return bad("--cache-remote: an empty password after ':'", NULL);
        out->has_password = pw != NULL;
        hostport = at + 1;
    }
    if (hostport == auth_end)
        return bad("--cache-remote: the URL names no host", NULL);
    if (*hostport == '[')
        return bad("--cache-remote: an IPv6 address in brackets: give a host name or an IPv4 "
                   "address", NULL);
    const char *colon = memchr(hostport, ':', (size_t)(auth_end - hostport));
    size_t hlen = (size_t)((colon ? colon : auth_end) - hostport);
    if (hlen >= sizeof out->host)
        return bad("--cache-remote: the host name is longer than 253 characters", NULL);
    memcpy(out->host, hostport, hlen);
    out->host[hlen] = '\0';
    if (!host_ok(out->host))
        return bad("--cache-remote: '%s' is not a host name or an IPv4 address", out->host);
    out->port = default_ports[scheme];
    if (colon) {
        size_t plen = (size_t)(auth_end - colon - 1);
        long port = digits(colon + 1, plen, 5) ? strtol(colon + 1, NULL, 10) : 0;
        if (port < 1 || port > 65535)
            return bad("--cache-remote: the port of %s is not a number from 1 to 65535", out->host);
        out->port = (unsigned)port;
        out->port_given = 1;
    }
    if (slash) {
        size_t plen = (size_t)(end - slash);
        if (out->scheme == ORTKIT__CACHE_REDIS) {
            if (!digits(slash + 1, plen - 1, 9))
                return bad("--cache-remote: after the redis host, '/' takes a database number "
                           "(redis://HOST:PORT/DB)", NULL);
            out->db = strtol(slash + 1, NULL, 10);
        } else {
            for (size_t i = 1; i < plen; i++) {
                unsigned char c = (unsigned char)slash[i];
                if (!isalnum(c) && !strchr("-._~!$&'()*+,;=:@%/", c))
                    return bad("--cache-remote: the URL's path has characters a URL must "
                               "percent-encode", NULL);
            }
        }
    }
    if (bar && attributes_ok(bar + 1, out->scheme))
        return ORTKIT_E_INVALID_ARG;
    memcpy(out->url, url, n + 1);
    /* Shown: the password, and only it, replaced. */
    if (pw)
        snprintf(out->shown, sizeof out->shown, "%.*s***%s", (int)(pw - url), url, pw + pw_len);
    else
        memcpy(out->shown, url, n + 1);
    return 0;
}

/* The secret for a URL given without one, from a file only the user can read. */
static int read_secret_file(char **out, const char *path)
{
    struct stat st;
    *out = NULL;
    if (lstat(path, &st) != 0)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "--cache-password-file '%s': %s", path,
                                 strerror(errno));
    if (!S_ISREG(st.st_mode))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "--cache-password-file '%s' is %s, not a "
                                 "file of yours (a link is not followed)", path,
                                 ortkit__file_kind(st.st_mode));
    if (st.st_uid != geteuid() || (st.st_mode & 077))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "--cache-password-file '%s' is %s: a "
                                 "password file must be yours and readable by you alone (chmod 600 "
                                 "it)", path, st.st_uid != geteuid() ? "another user's" : "open to others");
    int rc = ortkit__file_read(out, NULL, path, 4096);
    if (rc)
        return ortkit__error_wrap(rc, "--cache-password-file");
    (*out)[strcspn(*out, "\r\n")] = '\0';
    return 0;
}

int ortkit__builder_cache_remote_secret(ortkit__builder_cache_remote *r, const char *password_file)
{
    char *file_secret = NULL, url[sizeof r->url];
    const char *secret = NULL;
    int rc = 0;
    if (password_file) {
        if ((rc = read_secret_file(&file_secret, password_file)))
            return rc;
        secret = file_secret;
    } else {
        secret = ortkit__env_nonempty("ORTKIT_CACHE_PASSWORD");
    }
    if (!secret)
        return 0;
    const char *what = password_file ? "--cache-password-file" : "ORTKIT_CACHE_PASSWORD";
    size_t n = strlen(secret);
    if (r->has_password) {
        rc = ortkit__error_set(ORTKIT_E_INVALID_ARG, "--cache-remote's URL holds a password and %s "
                               "gives one: give it one way (%s, which no other user can read)",
                               what, what);
        goto cleanup;
    }
    /* The secret goes where the URL has it: ccache reads it unescaped. */
    if (!n || !userinfo_ok(secret, n) || strchr(secret, '%') ||
        (r->scheme != ORTKIT__CACHE_REDIS && strchr(secret, ':'))) {
        rc = ortkit__error_set(ORTKIT_E_INVALID_ARG, "%s: the password is empty or has characters a "
                               "URL cannot carry unescaped (letters, digits and -._~!$&'()*+,;= "
                               "%sonly)", what, r->scheme == ORTKIT__CACHE_REDIS ? "and ':' " : "");
        goto cleanup;
    }
    const char *auth = strstr(r->url, "://") + 3;
    const char *end = auth + strcspn(auth, "/|"), *at = NULL;
    for (const char *p = auth; p < end; p++)
        if (*p == '@')
            at = p;
    if (r->scheme == ORTKIT__CACHE_REDIS && !at)
        rc = ortkit__pathf(url, sizeof url, "%.*s%s@%s", (int)(auth - r->url), r->url, secret, auth);
    else if (at)
        rc = ortkit__pathf(url, sizeof url, "%.*s:%s%s", (int)(at - r->url), r->url, secret, at);
    else
        rc = ortkit__error_set(ORTKIT_E_INVALID_ARG, "%s: an http:// URL takes a password for a "
                               "user: give --cache-remote http://USER@HOST...", what);
    if (rc)
        goto cleanup;
    rc = ortkit__builder_cache_remote_parse(r, url);
cleanup:
    explicit_bzero(url, sizeof url);
    if (file_secret) {
        explicit_bzero(file_secret, strlen(file_secret));
        free(file_secret);
    }
    return rc;
}

int ortkit__builder_cache_local_dir(char *buf, size_t size, const ortkit__builder_cache_remote *r)
{
    char base[PATH_MAX], key_text[2048], hex[65];
    unsigned char md[ORTKIT__SHA256_SIZE];
    buf[0] = '\0';
    if (!r)
        return 0;
    if (ortkit__cache_dir(base, sizeof base, "ccache-remote") != 0)
        return ortkit__error_set(ORTKIT_E_IO, "--cache-remote: no cache directory of yours alone "
                                 "for the server's local copies: set XDG_CACHE_HOME or HOME to a "
                                 "directory you own");
    /* One per server, and per local cache the user keeps apart (CCACHE_DIR). */
    const char *ccache_dir = ortkit__env("CCACHE_DIR");
    snprintf(key_text, sizeof key_text, "%s\n%s", r->shown, ccache_dir ? ccache_dir : "");
    int rc = ortkit__sha256(md, key_text, strlen(key_text));
    if (rc)
        return rc;
    ortkit__hex(hex, md, 8);
    if ((rc = ortkit__pathf(buf, size, "%s/%s", base, hex)))
        return rc;
    return ortkit__private_dir(buf, "the local cache of --cache-remote");
}

int ortkit__builder_ccache_check(const char *text, const ortkit__builder_cache_remote *remote,
                                 char *version, size_t size)
{
    const char *v = text ? strstr(text, "ccache version ") : NULL;
    if (size)
        version[0] = '\0';
    if (!v)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "cannot tell ccache's version from 'ccache "
                                 "--version'");
    v += strlen("ccache version ");
    size_t n = 0;
    while ((isdigit((unsigned char)v[n]) || v[n] == '.') && n + 1 < size)
        n++;
    memcpy(version, v, n);
    version[n] = '\0';
    if (!n)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "cannot tell ccache's version from 'ccache "
                                 "--version'");
    if (!remote)
        return 0;
    if (ortkit__version_compare(version, "4.7") < 0)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED,
                                 "--cache-remote: ccache %s is too old: remote storage with its own "
                                 "hit counters needs ccache 4.7 or newer (Debian 12 has 4.7.5)", version);
    if (remote->scheme == ORTKIT__CACHE_HTTPS) {
        if (ortkit__version_compare(version, "4.13") < 0)
            return ortkit__error_set(ORTKIT_E_UNSUPPORTED,
                                     "--cache-remote: ccache %s cannot reach https:// storage (its "
                                     "HTTP back end speaks plain HTTP; ccache 4.13 and later reach "
                                     "HTTPS through a storage helper, ccache-storage-https): give an "
                                     "http:// URL, e.g. of a TLS proxy on loopback", version);
        return 0;
    }
    const char *want = remote->scheme == ORTKIT__CACHE_REDIS ? "redis-storage" : "http-storage";
    const char *f = strstr(text, "Features:");
    int has = 0;
    if (f) {
        const char *eol = strchr(f, '\n');
        size_t len = eol ? (size_t)(eol - f) : strlen(f), wl = strlen(want);
        for (const char *p = f + 9; p + wl <= f + len; p++)
            if (!strncmp(p, want, wl) && (p[-1] == ' ') && (p + wl == f + len || p[wl] == ' ' || p[wl] == '\r'))
                has = 1;
    }
    if (!has)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED,
                                 "--cache-remote: this ccache (%s) was built without %s ('ccache "
                                 "--version' lists its features)", version, want);
    return 0;
}

int ortkit__builder_cache_remote_reach(const ortkit__builder_cache_remote *remote, int timeout_ms)
{
    char port[8];
    snprintf(port, sizeof port, "%u", remote->port);
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res = NULL;
    int e = getaddrinfo(remote->host, port, &hints, &res);
    if (e)
        return ortkit__error_set(ORTKIT_E_IO, "cannot resolve %s: %s", remote->host, gai_strerror(e));
    int rc = ORTKIT_E_IO, err = 0;
    for (struct addrinfo *a = res; a && rc; a = a->ai_next) {
        int fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) {
            err = errno;
            continue;
        }
        if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
            rc = 0;
        } else if (errno == EINPROGRESS) {
            struct pollfd p = {fd, POLLOUT, 0};
            socklen_t len = sizeof err;
            if (poll(&p, 1, timeout_ms) == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0)
                rc = err ? ORTKIT_E_IO : 0;
            else
                err = ETIMEDOUT;
        } else {
            err = errno;
        }
        close(fd);
    }
    freeaddrinfo(res);
    if (rc)
        return ortkit__error_set(ORTKIT_E_IO, "cannot connect to %s port %u: %s", remote->host,
                                 remote->port, strerror(err ? err : ECONNREFUSED));
    return 0;
}

/* ---- what ccache did with one compile ------------------------------------------ */

static const char *const outcome_names[] = {"-", "local-hit", "remote-hit", "miss", "uncacheable"};

const char *ortkit__builder_cache_outcome_name(ortkit__builder_cache_outcome o)
{
    return (unsigned)o < ORTKIT__CACHE_OUTCOMES ? outcome_names[o] : "-";
}

int ortkit__builder_cache_outcome_parse(const char *name)
{
    for (int i = 0; i < ORTKIT__CACHE_OUTCOMES; i++)
        if (name && !strcmp(name, outcome_names[i]))
            return i;
    return -1;
}

/*
 * ccache's stats log (stats_log, CCACHE_STATSLOG) gets, per run, "# FILE"
 * and then the name of every counter the run incremented: a hit has
 * direct_cache_hit or preprocessed_cache_hit, and remote_storage_hit when
 * the result came from the remote storage (local_storage_hit otherwise); a
 * miss has cache_miss; anything else (called_for_link,
 * unsupported_compiler_option, ...) ran the compiler uncached.
 */
ortkit__builder_cache_outcome ortkit__builder_ccache_outcome(const char *log, int *remote_errors)
{
    int hit = 0, remote = 0, miss = 0, other = 0, errors = 0;
    for (const char *p = log; p && *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        while (len && (p[len - 1] == '\r' || p[len - 1] == ' '))
            len--;
#define IS(word) (len == strlen(word) && !strncmp(p, word, len))
        if (!len || p[0] == '#')
            ;
        else if (IS("direct_cache_hit") || IS("preprocessed_cache_hit"))
            hit = 1;
        else if (IS("remote_storage_hit"))
            remote = 1;
        else if (IS("cache_miss"))
            miss = 1;
        else if (IS("remote_storage_error") || IS("remote_storage_timeout"))
            errors++;
        else if (strncmp(p, "local_storage_", 14) && strncmp(p, "remote_storage_", 15) &&
                 strncmp(p, "direct_cache_", 13) && strncmp(p, "preprocessed_cache_", 19))
            other = 1;
#undef IS
        p = eol ? eol + 1 : p + len;
    }
    if (remote_errors)
        *remote_errors = errors;
    if (hit)
        return remote ? ORTKIT__CACHE_REMOTE_HIT : ORTKIT__CACHE_LOCAL_HIT;
    if (miss)
        return ORTKIT__CACHE_MISS;
    return other ? ORTKIT__CACHE_UNCACHEABLE : ORTKIT__CACHE_NONE;
}
