/*
 * bundle_verify.c - check a bundle on disk against its manifest, and list
 * every problem, so one run tells the whole story.
 */
#include "bundle.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WALK_MAX_DEPTH 16
#define WALK_MAX_ENTRIES 100000

static void problem(ortkit_bundle *b, const char *fmt, ...) ORTKIT_PRINTF(2, 3);
static void problem(ortkit_bundle *b, const char *fmt, ...)
{
    char *msg = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&msg, fmt, ap);
    va_end(ap);
    char **grown = n >= 0 ? realloc(b->problems, (b->problem_count + 1) * sizeof *grown) : NULL;
    if (!grown) {
        free(msg);
        return;
    }
    b->problems = grown;
    b->problems[b->problem_count++] = msg;
}

/* Every directory on the way to rel must be a real directory of the bundle:
 * a link there could lead the checks (and the loader) outside it. */
static int parents_ok(ortkit_bundle *b, const char *rel)
{
    char path[PATH_MAX];
    const char *dir = b->m.dir;
    for (const char *s = strchr(rel, '/'); s; s = strchr(s + 1, '/')) {
        struct stat st;
        if (ortkit__pathf(path, sizeof path, "%s/%.*s", dir, (int)(s - rel), rel)) {
            problem(b, "%s: %s", rel, ortkit__error_message());
            return 0;
        }
        if (lstat(path, &st) != 0) {
            problem(b, "%s: missing (no directory %.*s/)", rel, (int)(s - rel), rel);
            return 0;
        }
        if (!S_ISDIR(st.st_mode)) {
            problem(b, "%s: %.*s is %s, not a directory", rel, (int)(s - rel), rel,
                    S_ISLNK(st.st_mode) ? "a symbolic link" : "not a directory");
            return 0;
        }
    }
    return 1;
}

/* One verification: the bundle, and the fingerprint of what it found (the
 * state of every listed file) for the verified-state cache, or NULL. */
typedef struct verifying {
    ortkit_bundle *b;
    FILE *fingerprint;
} verifying;

static void fingerprint_add(verifying *v, const char *path, const struct stat *st, const char *link)
{
    if (v->fingerprint)
        fprintf(v->fingerprint, "%s\t%llu\t%llu\t%llu\t%lld.%09ld\t%lld.%09ld\t%o\t%u\t%s\n", path,
                (unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
                (unsigned long long)st->st_size, (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
                (long long)st->st_ctim.tv_sec, st->st_ctim.tv_nsec, (unsigned)st->st_mode,
                (unsigned)st->st_uid, link);
}

/* Presence, type, size or link target of one listed file; 1 when they are
 * as listed.  Its content is check_hash's. */
static int check_file(verifying *v, const ortkit_bundle_file *f)
{
    ortkit_bundle *b = v->b;
    char path[PATH_MAX], target[PATH_MAX];
    struct stat st;
    if (ortkit__pathf(path, sizeof path, "%s/%s", b->m.dir, f->path)) {
        problem(b, "%s: %s", f->path, ortkit__error_message());
        return 0;
    }
    if (!parents_ok(b, f->path))
        return 0;
    if (lstat(path, &st) != 0) {
        problem(b, "%s: missing", f->path);
        return 0;
    }
    if (f->link[0]) {
        ssize_t n = S_ISLNK(st.st_mode) ? readlink(path, target, sizeof target - 1) : -1;
        if (n < 0) {
            problem(b, "%s: should be a link to %s, is not a link", f->path, f->link);
            return 0;
        }
        target[n] = '\0';
        if (strcmp(target, f->link)) {
            problem(b, "%s: links to '%s', the manifest says '%s'", f->path, target, f->link);
            return 0;
        }
        fingerprint_add(v, f->path, &st, target);
        return 1;
    }
    if (!S_ISREG(st.st_mode)) {
        problem(b, "%s: is %s, the manifest lists a file", f->path,
                S_ISLNK(st.st_mode) ? "a symbolic link" : "not a regular file");
        return 0;
    }
    if ((uint64_t)st.st_size != f->size) {
        problem(b, "%s: %llu bytes, the manifest says %llu (%s)", f->path,
                (unsigned long long)st.st_size, (unsigned long long)f->size,
                (uint64_t)st.st_size < f->size ? "truncated" : "grown");
        return 0;
    }
    fingerprint_add(v, f->path, &st, "");
    return 1;
}

/* The content of one listed regular file against its SHA-256. */
static int check_hash(ortkit_bundle *b, const ortkit_bundle_file *f)
{
    char path[PATH_MAX], hex[65];
    uint64_t size;
    if (ortkit__pathf(path, sizeof path, "%s/%s", b->m.dir, f->path)) {
        problem(b, "%s: %s", f->path, ortkit__error_message());
        return 0;
    }
    if (ortkit__sha256_file(hex, &size, path) != 0) {
        problem(b, "%s: %s", f->path, ortkit_error_last());
        return 0;
    }
    if (strcmp(hex, f->sha256)) {
        problem(b, "%s: SHA-256 %.12s... differs from the manifest's %.12s... (modified or damaged)",
                f->path, hex, f->sha256);
        return 0;
    }
    return 1;
}

/* Code that others can change is code others can run: everything in a
 * bundle belongs to the user or root and is writable by its owner only. */
static void check_owner(ortkit_bundle *b, const char *rel, const struct stat *st)
{
    if (S_ISLNK(st->st_mode))
        return; /* a link's own mode means nothing; its target is checked */
    if (st->st_uid != geteuid() && st->st_uid != 0)
        problem(b, "%s: belongs to uid %u; a bundle's files must belong to you or root", rel,
                (unsigned)st->st_uid);
    else if (st->st_mode & (S_IWGRP | S_IWOTH))
        problem(b, "%s: writable by %s; a bundle must be writable by its owner only (chmod go-w)",
                rel, st->st_mode & S_IWOTH ? "anyone" : "its group");
}

/* One directory the path to the bundle passes through, holding the entry
 * child (lstat'ed as cst): whoever can replace that entry can swap the
 * bundle between its check and its load. */
static void check_passage(ortkit_bundle *b, const char *dir, const struct stat *cst)
{
    struct stat st;
    if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return; /* the walk that follows fails on it anyway */
    if (st.st_uid != geteuid() && st.st_uid != 0)
        problem(b, "%s: a directory on the path to the bundle belongs to uid %u; whoever owns "
                "it can swap the bundle between its check and its load (move the bundle, or "
                "own the directory)", dir, (unsigned)st.st_uid);
    else if ((st.st_mode & (S_IWGRP | S_IWOTH)) &&
             /* A sticky directory lets no one else rename or remove what is not theirs. */
             !((st.st_mode & S_ISVTX) && (cst->st_uid == geteuid() || cst->st_uid == 0)))
        problem(b, "%s: a directory on the path to the bundle is writable by %s; others could "
                "put another bundle in its place (chmod go-w, or move the bundle)", dir,
                st.st_mode & S_IWOTH ? "anyone" : "its group");
}

/* Every directory the path to the bundle passes through, from the root,
 * links followed one component at a time (so the directories holding each
 * link count too); 40 links at most, as the kernel allows. */
static int visit_passage(void *arg, const char *dir, const struct stat *entry)
{
    check_passage(arg, dir, entry);
    return 0;
}

static void check_path_chain(ortkit_bundle *b)
{
    char end[PATH_MAX], why[256];
    /* A path that cannot be walked is left to the checks that open its files. */
    (void)ortkit__path_walk(b->m.dir, end, sizeof end, visit_passage, b, why, sizeof why);
}

/* The bundle directory itself, and every directory on the way to it. */
static void check_directories(ortkit_bundle *b)
{
    struct stat st;
    if (lstat(b->m.dir, &st) == 0)
        check_owner(b, ".", &st);
    check_path_chain(b);
}

/* Anything in the bundle that the manifest does not list. */
static void find_extras(ortkit_bundle *b, const char *rel, int depth, size_t *seen)
{
    char path[PATH_MAX];
    if (ortkit__pathf(path, sizeof path, "%s%s%s", b->m.dir, rel[0] ? "/" : "", rel)) {
        problem(b, "%s/: %s", rel[0] ? rel : ".", ortkit__error_message());
        return;
    }
    DIR *d = opendir(path);
    if (!d) {
        problem(b, "%s/: cannot be read: %s", rel[0] ? rel : ".", strerror(errno));
        return;
    }
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (++*seen > WALK_MAX_ENTRIES) {
            problem(b, "more than %d entries in the bundle; stopped looking", WALK_MAX_ENTRIES);
            break;
        }
        char child[PATH_MAX];
        if (ortkit__pathf(child, sizeof child, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name) ||
            ortkit__pathf(path, sizeof path, "%s/%s", b->m.dir, child)) {
            problem(b, "%s/%s: %s", rel[0] ? rel : ".", e->d_name, ortkit__error_message());
            continue;
        }
        if (!rel[0] && !strcmp(e->d_name, BUNDLE_MANIFEST))
            continue;
        struct stat st;
        if (lstat(path, &st) != 0)
            continue;
        check_owner(b, child, &st);
        if (S_ISDIR(st.st_mode)) {
            if (depth >= WALK_MAX_DEPTH)
                problem(b, "%s/: nested too deep", child);
            else
                find_extras(b, child, depth + 1, seen);
        } else if (!ortkit__bundle_file(&b->m, child)) {
            problem(b, "%s: not in the manifest (an extra file)", child);
        }
    }
    closedir(d);
}

/* The ELF files in lib/: built for the manifest's machine, RUNPATH $ORIGIN. */
static int check_elf(ortkit_bundle *b, const ortkit_bundle_file *f)
{
    char path[PATH_MAX], mach[32];
    if (ortkit__pathf(path, sizeof path, "%s/%s", b->m.dir, f->path)) {
        problem(b, "%s: %s", f->path, ortkit__error_message());
        return 0;
    }
    if (ortkit__elf_is(path) != 1)
        return 1;
    ortkit__elf e;
    if (ortkit__elf_read(&e, path) != 0) {
        problem(b, "%s: %s", f->path, ortkit_error_last());
        return 0;
    }
    int ok = 1;
    if (e.elf_class != 2 || ortkit__elf_arch(e.machine) != b->m.arch) {
        problem(b, "%s: built for %s%s; the manifest says %s", f->path,
                ortkit__elf_machine_name(e.machine, mach, sizeof mach),
                e.elf_class != 2 ? " (32-bit)" : "", ortkit_arch_name(b->m.arch));
        ok = 0;
    } else if (!ortkit__elf_origin(e.runpath)) {
        if (ortkit__elf_origin(e.rpath))
            problem(b, "%s: has RPATH $ORIGIN, not RUNPATH", f->path);
        else
            problem(b, "%s: RUNPATH is %s%s%s, not $ORIGIN: libraries beside it would not be found",
                    f->path, e.runpath ? "'" : "", e.runpath ? e.runpath : "unset",
                    e.runpath ? "'" : "");
        ok = 0;
    }
    ortkit__elf_free(&e);
    return ok;
}

/* ---- what selection relies on, read again from the files ---------------- */

/* The listed ELF files, each read once (links and others: e.elf_class 0). */
typedef struct elf_facts {
    ortkit__elf *e;
    size_t n;
} elf_facts;

static int named(const char *const *list, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(list[i], name))
            return 1;
    return 0;
}

#define NEEDS_REIMPORT "; the manifest understates what loading the bundle needs, so a host that " \
                       "cannot load it could be given it (import the bundle again to record it)"

/* One version the file needs, against the manifest's. */
static void version_held(ortkit_bundle *b, const char *file, const char *key, const char *prefix,
                         const char *need, const char *said)
{
    if (need[0] && (!said || !said[0] || ortkit__version_compare(need, said) > 0))
        problem(b, "%s: needs %s%s, the manifest's needs.%s says %s%s" NEEDS_REIMPORT, file,
                prefix, need, key, said && said[0] ? prefix : "", said && said[0] ? said : "none");
}

/* A part's libraries, followed through the files the bundle carries. */
static void part_held(ortkit_bundle *b, const ortkit_bundle_part *p, const elf_facts *ef)
{
    const ortkit_manifest *m = &b->m;
    unsigned char *seen = calloc(m->file_count + 1, 1);
    size_t *queue = malloc((m->file_count + 1) * sizeof *queue), head = 0, tail = 0;
    if (!seen || !queue)
        goto cleanup;
    for (size_t i = 0; i < p->file_count; i++) {
        size_t k = ortkit__bundle_carries(m, ortkit__path_last(p->files[i]));
        if (k && !seen[k - 1]) {
            seen[k - 1] = 1;
            queue[tail++] = k - 1;
        }
    }
    while (head < tail) {
        const ortkit__elf *e = &ef->e[queue[head++]];
        for (size_t j = 0; j < e->needed_count; j++) {
            size_t k = ortkit__bundle_carries(m, e->needed[j]);
            if (!k && !named(p->libraries, p->library_count, e->needed[j])) {
                problem(b, "%s: part %s needs %s, which its libraries in the manifest do not "
                        "list" NEEDS_REIMPORT, m->files[queue[head - 1]].path, p->name, e->needed[j]);
                goto cleanup;
            }
            if (k && !seen[k - 1]) {
                seen[k - 1] = 1;
                queue[tail++] = k - 1;
            }
        }
    }
cleanup:
    free(seen);
    free(queue);
}

/* Every listed ELF file's needs (symbol versions, an executable stack, the
 * libraries the bundle does not carry) must be in the manifest's: selection
 * trusts them and opens no file. */
static void check_needs(ortkit_bundle *b, const unsigned char *intact)
{
    const ortkit_manifest *m = &b->m;
    elf_facts ef = {calloc(m->file_count + 1, sizeof *ef.e), m->file_count};
    if (!ef.e)
        return;
    if (!m->needs_known)
        problem(b, "manifest.json: has no 'needs', which selection relies on (a manifest older "
                "than ortkit's reading of them): import the bundle again to record them");
    for (size_t i = 0; i < m->file_count && m->needs_known; i++) {
        const ortkit_bundle_file *f = &m->files[i];
        char path[PATH_MAX];
        if (f->link[0] || !intact[i] || ortkit__pathf(path, sizeof path, "%s/%s", m->dir, f->path) ||
            ortkit__elf_is(path) != 1 || ortkit__elf_read(&ef.e[i], path) != 0)
            continue; /* not ELF, or reported already */
        const ortkit__elf *e = &ef.e[i];
        version_held(b, f->path, "glibc", "GLIBC_", e->need_glibc, m->needs_glibc);
        version_held(b, f->path, "glibcxx", "GLIBCXX_", e->need_glibcxx, m->needs_glibcxx);
        version_held(b, f->path, "cxxabi", "CXXABI_", e->need_cxxabi, m->needs_cxxabi);
        if (e->exec_stack && !m->needs_exec_stack)
            problem(b, "%s: asks for an executable stack, which the manifest's needs do not say "
                    "(no needs.exec_stack: a manifest from before ortkit recorded it, or a wrong "
                    "one); glibc 2.41 and newer refuse such a library" NEEDS_REIMPORT, f->path);
        for (size_t j = 0; j < e->needed_count; j++)
            if (!ortkit__bundle_carries(m, e->needed[j]) &&
                !named(m->needs_libraries, m->needs_library_count, e->needed[j])) {
                problem(b, "%s: needs %s, which the manifest's needs.libraries do not list"
                        NEEDS_REIMPORT, f->path, e->needed[j]);
                break;
            }
    }
    for (size_t i = 0; i < m->part_count && m->needs_known; i++)
        part_held(b, m->parts[i], &ef);
    for (size_t i = 0; i < ef.n; i++)
        ortkit__elf_free(&ef.e[i]); /* zeroed when unread: a no-op */
    free(ef.e);
}

/* The version the manifest claims, confirmed from the library's own data. */
static void check_version(ortkit_bundle *b)
{
    int found = 0;
    if (ortkit__elf_has_string(b->library_path, b->m.ort_version, &found) != 0)
        problem(b, "%s: %s", b->m.library, ortkit_error_last());
    else if (!found)
        problem(b, "%s: holds no version string \"%s\": it is not the ONNX Runtime %s the "
                "manifest claims", b->m.library, b->m.ort_version, b->m.ort_version);
}

static void clear_problems(ortkit_bundle *b)
{
    for (size_t i = 0; i < b->problem_count; i++)
        free(b->problems[i]);
    b->problem_count = 0;
}

int ortkit__bundle_check(ortkit_bundle *b, int use_cache, int *from_cache)
{
    if (from_cache)
        *from_cache = 0;
    if (!b)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_bundle_verify: NULL bundle");
    if (!b->m.dir[0])
        return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                 "ortkit_bundle_verify: bundle '%s' has no directory", b->m.name);
    clear_problems(b);
    verifying v = {b, NULL};
    char *text = NULL;
    size_t text_size = 0;
    if (use_cache && !(v.fingerprint = open_memstream(&text, &text_size)))
        use_cache = 0;
    /* What a full verification checks: an entry from one that checked less is no hit. */
    if (v.fingerprint)
        fputs("checks: needs read from the files\n", v.fingerprint);

    /* What a look at the directories tells: presence, types, sizes, links,
     * owners and modes, nothing extra. */
    int library_ok = 1;
    unsigned char *intact = calloc(b->m.file_count + 1, 1);
    if (!intact) {
        if (v.fingerprint)
            fclose(v.fingerprint);
        free(text);
        return ortkit__error_nomem();
    }
    for (size_t i = 0; i < b->m.file_count; i++) {
        intact[i] = (unsigned char)check_file(&v, &b->m.files[i]);
        if (!intact[i] && !strcmp(b->m.files[i].path, b->m.library))
            library_ok = 0;
    }
    check_directories(b);
    size_t seen = 0;
    find_extras(b, "", 0, &seen);
    if (v.fingerprint)
        fclose(v.fingerprint);

    /* Unchanged since a verification that passed: the content is as it was. */
    int hit = 0;
    if (use_cache && b->problem_count == 0 && ortkit__verified_lookup(b, text, text_size, &hit) == 0 &&
        hit) {
        free(text);
        free(intact);
        if (from_cache)
            *from_cache = 1;
        return ORTKIT_OK;
    }
    /* A quick look that already failed is enough for a bundle about to be loaded. */
    if (!(use_cache && b->problem_count)) {
        for (size_t i = 0; i < b->m.file_count; i++) {
            const ortkit_bundle_file *f = &b->m.files[i];
            if (f->link[0] || !intact[i])
                continue; /* a link has no content; a broken file is reported already */
            int ok = check_hash(b, f);
            if (ok && !strncmp(f->path, "lib/", 4) && !strchr(f->path + 4, '/'))
                ok = check_elf(b, f);
            if (!ok && !strcmp(f->path, b->m.library))
                library_ok = 0;
        }
        if (library_ok)
            check_version(b);
        check_needs(b, intact);
    }
    if (use_cache && b->problem_count == 0)
        ortkit__verified_store(b, text, text_size); /* best effort: a cache, not the truth */
    free(text);
    free(intact);
    if (b->problem_count == 0)
        return ORTKIT_OK;
    return ortkit__error_set(ORTKIT_E_FORMAT, "bundle '%s' has %zu problem%s; the first: %s",
                             b->m.name, b->problem_count, b->problem_count == 1 ? "" : "s",
                             b->problems[0]);
}

int ortkit_bundle_verify(ortkit_bundle *bundle)
{
    return ortkit__bundle_check(bundle, 0, NULL);
}
