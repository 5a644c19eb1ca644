/*
 * resolve.c - which ONNX Runtime library a runtime open loads, and why.
 *
 * The search, in order: the options' path, ORTKIT_RUNTIME, the pinned or
 * best-fitting bundle, the build's default location, ONNXRUNTIME_DIR,
 * pkg-config, the system's library search.  Every place is recorded with
 * what was found there, so `ortkit doctor` prints the account the loader
 * acted on instead of deriving it again.  Nothing here loads a library.
 */
#include "abi.h"
#include "bundle.h"
#include "host_libs.h"
#include "measured.h"
#include "ort_library.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef ORTKIT_DEFAULT_RUNTIME
#define ORTKIT_DEFAULT_RUNTIME ""
#endif

#define MAX_STEPS 8
#define DETAIL_MAX 1024

/* The caller's options are read within their version (docs/CONVENTIONS.md). */
ORTKIT__ABI_STRUCT(options_abi, ortkit_runtime_options, "runtime options",
                   "ORTKIT_RUNTIME_OPTIONS_INIT", ORTKIT_RUNTIME_OPTIONS_VERSION,
                   offsetof(ortkit_runtime_options, global_thread_pools),
                   offsetof(ortkit_runtime_options, api_base),
                   offsetof(ortkit_runtime_options, model), sizeof(ortkit_runtime_options));

typedef struct step_slot {
    ortkit_resolve_step pub;
    char where[PATH_MAX];
    char detail[DETAIL_MAX];
} step_slot;

struct ortkit_resolution {
    step_slot steps[MAX_STEPS];
    size_t step_count;
    int decided;               /* a step took a library or failed */
    int status;                /* ORTKIT_OK, or why no library can be loaded */
    char error[DETAIL_MAX];
    char *path;                /* NULL: the system's search */
    char source[BUNDLE_NAME_MAX + 16];
    const char *pin;           /* the bundle pin in force, or NULL */
    const char *pin_from;
    char *pin_copy;
    /* The bundles, when the search reached them (or was told to look anyway). */
    ortkit_bundle_list *list;
    const ortkit_bundle **bundles;
    size_t count;
    ortkit_bundle_choice *choice; /* NULL: no bundle was judged */
    int chosen;                /* choice->index is set */
    size_t taken;              /* the bundle taken: choice->index, or the measured one */
    /* The model the caller will run, for a remembered measurement (options v4). */
    const char *model, *model_shapes;
    int model_threads;
    char measured[ORTKIT__MEASURED_ACCOUNT_MAX]; /* what the measurement said; "" */
    int select_rc;             /* why not, when it is not */
    const ortkit_host *host;   /* the caller's, or detected_ */
    ortkit_host *detected;
};

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The library inside dir, dir/lib or dir/lib64 (ortkit__ort_library_in_dir);
 * passed says what was passed over (see there). */
static char *find_in_dir(const char *dir, char *passed, size_t passed_size)
{
    static const char *const subdirs[] = {"", "/lib", "/lib64"};
    passed[0] = '\0';
    for (size_t s = 0; s < sizeof subdirs / sizeof subdirs[0]; s++) {
        char sub[PATH_MAX], name[256], path[PATH_MAX];
        if (ortkit__pathf(sub, sizeof sub, "%s%s", dir, subdirs[s]))
            return NULL;
        if (ortkit__ort_library_in_dir(name, sizeof name, sub, passed, passed_size))
            return ortkit__pathf(path, sizeof path, "%s/%s", sub, name) ? NULL : strdup(path);
    }
    return NULL;
}

/* A user-named location: a file is taken as is, a directory is searched. */
static int resolve_explicit(char **out, const char *where, const char *what)
{
    *out = NULL;
    if (is_dir(where)) {
        char passed[PATH_MAX + 80];
        *out = find_in_dir(where, passed, sizeof passed);
        if (!*out)
            return ortkit__error_set(ORTKIT_E_RUNTIME_NOT_FOUND,
                                     "no libonnxruntime.so* in directory '%s' (from %s)%s%s", where,
                                     what, passed[0] ? ": " : "", passed);
        return ORTKIT_OK;
    }
    if (!exists(where))
        return ortkit__error_set(ORTKIT_E_RUNTIME_NOT_FOUND, "runtime '%s' (from %s): %s", where,
                                 what, strerror(errno));
    /* Absolute, so dlopen takes it as a file and not a name to search for. */
    *out = realpath(where, NULL);
    return *out ? ORTKIT_OK : ortkit__error_nomem();
}

/* pkg-config's libdir for libonnxruntime; NULL (and why) when it has none. */
static char *pkg_config_libdir(char *why, size_t why_size)
{
    static const char *const argv[] = {"pkg-config", "--variable=libdir", "libonnxruntime", NULL};
    char *out = NULL;
    int status;
    if (ortkit__spawn(argv, 0, &out, &status) != ORTKIT_OK) {
        snprintf(why, why_size, "%s", ortkit_error_last());
        return NULL;
    }
    if (status != 0 || !out) {
        snprintf(why, why_size, "pkg-config knows no libonnxruntime");
        free(out);
        return NULL;
    }
    out[strcspn(out, "\r\n")] = '\0';
    char passed[256] = "";
    char *found = out[0] ? find_in_dir(out, passed, sizeof passed) : NULL;
    if (!found)
        snprintf(why, why_size, "no libonnxruntime.so* in its libdir '%s'%s%s", out,
                 passed[0] ? ": " : "", passed);
    free(out);
    return found;
}

static step_slot *step_add(ortkit_resolution *r, const char *source, const char *where)
{
    step_slot *s = &r->steps[r->step_count++];
    snprintf(s->where, sizeof s->where, "%s", where ? where : "");
    s->pub.source = source;
    s->pub.where = s->where;
    s->pub.detail = s->detail;
    /* Once a step has decided, the rest are only looked at for the account. */
    s->pub.verdict = r->decided ? ORTKIT_RESOLVE_NOT_REACHED : ORTKIT_RESOLVE_SKIPPED;
    return s;
}

static void step_say(step_slot *s, const char *fmt, const char *arg)
{
    snprintf(s->detail, sizeof s->detail, fmt, arg);
}

/* The outcome of a step that found (path) or failed (rc, ortkit_error_last()). */
static int step_settle(ortkit_resolution *r, step_slot *s, int rc, char *path, const char *source)
{
    if (r->decided) {
        /* Past the decision: say what this place holds, take nothing. */
        if (rc == ORTKIT_OK)
            step_say(s, "would find %s", path ? path : ORTKIT__ORT_LIB_SONAME);
        else if (rc == ORTKIT_E_NOMEM)
            return rc;
        else
            step_say(s, "%s", ortkit_error_last());
        free(path);
        return ORTKIT_OK;
    }
    if (rc == ORTKIT_E_NOMEM) {
        free(path);
        return rc;
    }
    r->decided = 1;
    if (rc) {
        s->pub.verdict = ORTKIT_RESOLVE_FAILED;
        r->status = rc;
        snprintf(r->error, sizeof r->error, "%s", ortkit_error_last());
        step_say(s, "%s", r->error);
        free(path);
        return ORTKIT_OK;
    }
    s->pub.verdict = ORTKIT_RESOLVE_TAKEN;
    r->path = path;
    snprintf(r->source, sizeof r->source, "%s", source);
    step_say(s, "%s", path ? path : "dlopen looks for libonnxruntime.so.1, then libonnxruntime.so");
    return ORTKIT_OK;
}

/* The bundle whose files include those of directory dir (resolved): dir
 * itself or its parent (a bundle's lib/) holding a manifest.  0: none. */
static int bundle_root(char root[PATH_MAX], const char *dir)
{
    char real[PATH_MAX], manifest[PATH_MAX];
    if (!realpath(dir, real))
        return 0;
    for (int up = 0; up < 2; up++) {
        if (ortkit__pathf(manifest, sizeof manifest, "%s/" BUNDLE_MANIFEST, real))
            return 0;
        struct stat st;
        if (lstat(manifest, &st) == 0) {
            snprintf(root, PATH_MAX, "%s", real);
            return 1;
        }
        char *slash = strrchr(real, '/');
        if (!slash || slash == real)
            return 0;
        *slash = '\0';
    }
    return 0;
}

/* A bundle at root is verified as a chosen one is (through the verified-state
 * cache) before anything in it is loaded by path: its RUNPATH is $ORIGIN, so
 * an unlisted library in its lib/ would otherwise run. */
static int verify_root(const char *root, const char *lib, const char *what, char *note,
                       size_t note_size, char verified_dir[PATH_MAX])
{
    ortkit_bundle *b = NULL;
    int rc = ortkit_bundle_open(&b, root);
    if (rc == ORTKIT_E_NOMEM)
        return rc;
    if (rc) {
        rc = ortkit__error_wrap(ORTKIT_E_RUNTIME_INVALID, "runtime '%s' (from %s) lies in '%s', "
                                "which has a manifest but does not open as a bundle: not loaded",
                                lib, what, root);
        goto cleanup;
    }
    if (ortkit_bundle_damage(b)[0]) {
        rc = ortkit__error_set(ORTKIT_E_RUNTIME_INVALID, "runtime '%s' (from %s) lies in bundle "
                               "'%s', which is damaged: %s; not loaded", lib, what, root,
                               ortkit_bundle_damage(b));
        goto cleanup;
    }
    if ((rc = ortkit__bundle_check(b, 1, NULL))) {
        if (rc == ORTKIT_E_NOMEM || rc == ORTKIT_E_INVALID_ARG)
            goto cleanup;
        rc = ortkit__error_set(ORTKIT_E_RUNTIME_INVALID, "runtime '%s' (from %s) lies in bundle "
                               "'%s', which fails verification: %s; not loaded (see 'ortkit "
                               "bundle verify %s')", lib, what, root,
                               b->problem_count ? b->problems[0] : ortkit_error_last(), root);
        goto cleanup;
    }
    snprintf(note, note_size, " (in bundle %s, verified)", ortkit_bundle_manifest(b)->name);
    snprintf(verified_dir, PATH_MAX, "%s", ortkit_bundle_manifest(b)->dir); /* resolved at open */
cleanup:
    ortkit_bundle_free(b);
    return rc;
}

/* Is the library path named lib inside a bundle, by its own directory or by
 * the file a link leads to?  Each such bundle must verify; note says so for
 * the account.  *load (malloc'd, NULL when lib is in no bundle) is then the
 * path to load: lib resolved once, before verification, and lying in a
 * verified bundle's directory (resolved when it was opened, so every
 * directory on the way was checked), so that no link swapped after the
 * check is followed when the library loads. */
static int check_in_bundle(char **load, const char *lib, const char *what, char *note,
                           size_t note_size)
{
    *load = NULL;
    char dir[PATH_MAX], roots[2][PATH_MAX], verified[2][PATH_MAX];
    size_t n = 0;
    note[0] = '\0';
    int rc = ortkit__pathf(dir, sizeof dir, "%s", lib);
    if (rc)
        return rc;
    char *real = realpath(lib, NULL), real_dir[PATH_MAX] = "";
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    if (bundle_root(roots[n], slash ? (dir[0] ? dir : "/") : "."))
        n++;
    if (real && !ortkit__pathf(real_dir, sizeof real_dir, "%s", real) &&
        (slash = strrchr(real_dir, '/')) != NULL) {
        *slash = '\0';
        if (bundle_root(roots[n], real_dir[0] ? real_dir : "/") &&
            (n == 0 || strcmp(roots[0], roots[n])))
            n++;
    }
    for (size_t i = 0; !rc && i < n; i++)
        rc = verify_root(roots[i], lib, what, note, note_size, verified[i]);
    for (size_t i = 0; !rc && i < n && !*load; i++) {
        size_t len = strlen(verified[i]);
        if (real && !strncmp(real, verified[i], len) && real[len] == '/')
            *load = real;
    }
    if (!rc && n && !*load)
        rc = ortkit__error_set(ORTKIT_E_RUNTIME_INVALID, "runtime '%s' (from %s) lies in bundle "
                               "'%s' but resolves to '%s', outside it: not loaded", lib, what,
                               roots[0], real ? real : "nothing");
    if (!*load)
        free(real);
    return rc;
}

/* A place named by the options or a variable: unset is skipped, set decides. */
static int step_explicit(ortkit_resolution *r, const char *source, const char *value,
                         const char *what)
{
    step_slot *s = step_add(r, source, value);
    if (!value) {
        step_say(s, "%s", "not set");
        return ORTKIT_OK;
    }
    char *path = NULL, note[BUNDLE_NAME_MAX + 32] = "";
    int rc = resolve_explicit(&path, value, what);
    if (!rc) /* before dlopen, which blocks on a FIFO and misreports a foreign library */
        rc = ortkit__elf_check_runtime(path, what);
    /* Only a place that decides is verified: the account of the rest stays cheap. */
    char *load = NULL;
    if (!rc && !r->decided && !(rc = check_in_bundle(&load, path, what, note, sizeof note)) &&
        load) {
        free(path);
        path = load;
    }
    rc = step_settle(r, s, rc, path, source);
    if (!rc && note[0] && s->pub.verdict == ORTKIT_RESOLVE_TAKEN)
        snprintf(s->detail + strlen(s->detail), sizeof s->detail - strlen(s->detail), "%s", note);
    return rc;
}

/* The system: the file the dynamic loader would load for the SONAME, else
 * for the development name, found here as ld.so finds it, so that the
 * loader takes a path like every other step's (it never searches). */
static int step_system(ortkit_resolution *r)
{
    static const char *const names[] = ORTKIT__ORT_LIB_NAMES; /* the SONAME last */
    char *path = NULL;
    for (size_t i = sizeof names / sizeof *names; !path && i-- > 0;)
        if (ortkit__host_library_path(&path, names[i]) == ORTKIT_E_NOMEM)
            return ORTKIT_E_NOMEM;
    if (path) { /* then checked as a path named explicitly is: ELF, a bundle's files verified */
        int rc = step_explicit(r, "system", path, "the system's library search");
        free(path);
        return rc;
    }
    step_slot *s = step_add(r, "system", "libonnxruntime.so.1, libonnxruntime.so");
    return step_settle(r, s,
                       ortkit__error_set(ORTKIT_E_RUNTIME_NOT_FOUND, "no %s or %s where the dynamic "
                                         "loader looks (LD_LIBRARY_PATH, /etc/ld.so.cache, /usr/lib)",
                                         names[1], names[0]),
                       NULL, "system");
}

/* Read the bundle directories and judge every bundle for the host. */
static int judge_bundles(ortkit_resolution *r, const ortkit_host *host)
{
    int rc = ortkit_bundle_list_open(&r->list);
    if (rc)
        return rc;
    r->count = ortkit_bundle_list_count(r->list);
    if (r->count == 0)
        return ORTKIT_OK;
    if (!host && (rc = ortkit_host_detect(&r->detected)))
        return rc;
    r->host = host ? host : r->detected;
    if (!(r->bundles = calloc(r->count, sizeof *r->bundles)))
        return ortkit__error_nomem();
    for (size_t i = 0; i < r->count; i++)
        r->bundles[i] = ortkit_bundle_list_get(r->list, i)->bundle;
    /* Nothing is loaded from a bundle that does not verify: the choice is
     * verified, and one that fails is marked damaged (so it no longer fits)
     * and the choice made again among the rest. */
    for (size_t round = 0; round <= r->count; round++) {
        ortkit_bundle_choice_free(r->choice);
        r->choice = NULL;
        rc = ortkit_bundle_select(&r->choice, r->host, r->bundles, r->count, r->pin);
        if (!r->choice)
            return rc; /* no answer at all */
        r->chosen = rc == ORTKIT_OK;
        r->select_rc = rc;
        r->measured[0] = '\0';
        if (!r->chosen)
            break;
        r->taken = r->choice->index;
        /* A model named: what measuring it here remembered may choose
         * among the fitting bundles instead of the declared order. */
        if (r->model && r->pin)
            snprintf(r->measured, sizeof r->measured, "not consulted: the bundle is pinned (%s)",
                     r->pin_from);
        else if (r->model) {
            size_t m = ORTKIT_BUNDLE_NONE;
            ortkit__measured_lookup(&m, r->measured, sizeof r->measured, r->host, r->bundles,
                                    r->count, r->choice, r->model, r->model_shapes,
                                    r->model_threads);
            if (m != ORTKIT_BUNDLE_NONE)
                r->taken = m;
        }
        /* The list, and so each bundle in it, belongs to this resolution. */
        ortkit_bundle *b = (ortkit_bundle *)r->bundles[r->taken];
        rc = ortkit__bundle_check(b, 1, NULL);
        if (rc == ORTKIT_OK)
            break;
        if (rc == ORTKIT_E_NOMEM || rc == ORTKIT_E_INVALID_ARG)
            return rc;
        snprintf(b->damage, sizeof b->damage, "failed verification: %s",
                 b->problem_count ? b->problems[0] : ortkit_error_last());
    }
    return ORTKIT_OK;
}

static int step_bundles(ortkit_resolution *r, const ortkit_host *host, unsigned flags)
{
    step_slot *s = step_add(r, "bundles", r->pin ? r->pin : "");
    if (r->decided && !(flags & ORTKIT_RESOLVE_EXPLAIN))
        return ORTKIT_OK;
    int rc = judge_bundles(r, host);
    if (rc)
        return rc;
    const char *pin = r->pin, *from = r->pin_from;
    if (r->count == 0) {
        if (pin && !r->decided)
            return step_settle(r, s, ortkit__error_set(ORTKIT_E_RUNTIME_NOT_FOUND,
                               "no bundle '%s' (from %s): no bundles were found; see "
                               "'ortkit bundle list'", pin, from), NULL, NULL);
        step_say(s, "%s", "no bundles were found");
        return ORTKIT_OK;
    }
    for (size_t i = 0; pin && i < r->count; i++) {
        const ortkit_bundle_entry *e = ortkit_bundle_list_get(r->list, i);
        if (!e->bundle && !strcmp(e->name, pin))
            return step_settle(r, s, ortkit__error_set(ORTKIT_E_RUNTIME_INVALID,
                               "bundle '%s' (from %s) cannot be used: %s", pin, from, e->error),
                               NULL, NULL);
    }
    if (!r->chosen) {
        /* Nothing fits and nothing was asked for: the search goes on elsewhere. */
        if (pin)
            return step_settle(r, s, ortkit__error_set(r->select_rc, "cannot use "
                               "bundle '%s' (from %s): %s", pin, from, r->choice->reason), NULL, NULL);
        if (!r->decided)
            s->pub.verdict = ORTKIT_RESOLVE_PASSED;
        step_say(s, "%s", r->choice->reason);
        return ORTKIT_OK;
    }
    const ortkit_bundle *b = r->bundles[r->taken];
    char *lib = ortkit__strdup(b->library_path);
    if (!lib)
        return ORTKIT_E_NOMEM;
    char source[BUNDLE_NAME_MAX + 16];
    snprintf(source, sizeof source, "bundle %s", ortkit_bundle_manifest(b)->name);
    /* Why this one: the measurement when it chose, else the declared order
     * (and, when a model was named, that nothing measured it). */
    char why[DETAIL_MAX - BUNDLE_NAME_MAX - 16];
    if (r->measured[0] && !strncmp(r->measured, "measured: ", 10))
        snprintf(why, sizeof why, "%.*s", (int)sizeof why - 1, r->measured);
    else
        snprintf(why, sizeof why, "%.500s%s%.400s", r->choice->reason, r->measured[0] ? "; " : "",
                 r->measured);
    if (r->decided) {
        snprintf(s->detail, sizeof s->detail, "would choose %.64s: %s",
                 ortkit_bundle_manifest(b)->name, why);
        free(lib);
        return ORTKIT_OK;
    }
    rc = step_settle(r, s, ORTKIT_OK, lib, source);
    snprintf(s->detail, sizeof s->detail, "%.64s: %s", ortkit_bundle_manifest(b)->name, why);
    return rc;
}

static int step_pkg_config(ortkit_resolution *r)
{
    step_slot *s = step_add(r, "pkg-config", "libonnxruntime");
    char why[512] = "";
    char *path = pkg_config_libdir(why, sizeof why);
    if (!path) {
        if (!r->decided)
            s->pub.verdict = ORTKIT_RESOLVE_PASSED;
        step_say(s, "%s", why);
        return ORTKIT_OK;
    }
    return step_settle(r, s, ORTKIT_OK, path, "pkg-config");
}

static int search(ortkit_resolution *r, const ortkit_runtime_options *opts,
                  const ortkit_host *host, unsigned flags)
{
    int explain = (flags & ORTKIT_RESOLVE_EXPLAIN) != 0;
    int rc = step_explicit(r, "options", opts && opts->path && opts->path[0] ? opts->path : NULL,
                           "options");
    if (!rc)
        rc = step_explicit(r, "ORTKIT_RUNTIME", ortkit__env_nonempty("ORTKIT_RUNTIME"), "ORTKIT_RUNTIME");
    if (!rc)
        rc = step_bundles(r, host, flags);
    if (rc || (r->decided && !explain))
        return rc;
    if (ORTKIT_DEFAULT_RUNTIME[0] && exists(ORTKIT_DEFAULT_RUNTIME)) {
        rc = step_explicit(r, "default", ORTKIT_DEFAULT_RUNTIME, "ortkit's default location");
    } else {
        step_slot *s = step_add(r, "default", ORTKIT_DEFAULT_RUNTIME);
        step_say(s, "%s", ORTKIT_DEFAULT_RUNTIME[0] ? "missing" : "none was set when ortkit was built");
    }
    if (!rc)
        rc = step_explicit(r, "ONNXRUNTIME_DIR", ortkit__env_nonempty("ONNXRUNTIME_DIR"), "ONNXRUNTIME_DIR");
    if (!rc && (!r->decided || explain))
        rc = step_pkg_config(r);
    if (!rc && (!r->decided || explain)) {
        rc = step_system(r);
    }
    return rc;
}

int ortkit_runtime_resolve(ortkit_resolution **out, const ortkit_runtime_options *opts,
                           const ortkit_host *host, unsigned flags)
{
    if (!out)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_runtime_resolve: out is NULL");
    *out = NULL;
    ortkit_runtime_options copy = ORTKIT_RUNTIME_OPTIONS_INIT;
    if (opts) {
        if (ortkit__abi_read(&options_abi, &copy, opts))
            return ORTKIT_E_INVALID_ARG;
        opts = &copy;
    }
    ortkit_resolution *r = calloc(1, sizeof *r);
    if (!r)
        return ortkit__error_nomem();
    r->taken = ORTKIT_BUNDLE_NONE;
    /* The resolution outlives the caller's options: its own copies. */
    if (opts && opts->model && opts->model[0] &&
        (!(r->model = ortkit__strdup(opts->model)) ||
         (opts->model_shapes && !(r->model_shapes = ortkit__strdup(opts->model_shapes))))) {
        ortkit_resolution_free(r);
        return ORTKIT_E_NOMEM;
    }
    r->model_threads = opts ? opts->model_threads : 0;
    int pinned = opts && opts->bundle && opts->bundle[0];
    const char *pin = pinned ? opts->bundle : ortkit__env_nonempty("ORTKIT_BUNDLE");
    if (pin && !(r->pin = r->pin_copy = ortkit__strdup(pin))) {
        ortkit_resolution_free(r);
        return ORTKIT_E_NOMEM;
    }
    r->pin_from = pinned ? "the options" : "ORTKIT_BUNDLE";
    int rc = search(r, opts, host, flags);
    if (rc) {
        ortkit_resolution_free(r);
        return rc;
    }
    *out = r;
    return ORTKIT_OK;
}

void ortkit_resolution_free(ortkit_resolution *r)
{
    if (!r)
        return;
    free(r->path);
    free(r->pin_copy);
    free((char *)r->model);
    free((char *)r->model_shapes);
    free(r->bundles);
    ortkit_bundle_choice_free(r->choice);
    ortkit_host_free(r->detected);
    ortkit_bundle_list_free(r->list);
    free(r);
}

int ortkit_resolution_status(const ortkit_resolution *r)
{
    return r ? r->status : ORTKIT_E_INVALID_ARG;
}

const char *ortkit_resolution_error(const ortkit_resolution *r) { return r ? r->error : ""; }
const char *ortkit_resolution_path(const ortkit_resolution *r)
{
    return r && r->path ? r->path : "";
}
const char *ortkit_resolution_source(const ortkit_resolution *r) { return r ? r->source : ""; }
size_t ortkit_resolution_step_count(const ortkit_resolution *r) { return r ? r->step_count : 0; }

const ortkit_resolve_step *ortkit_resolution_step(const ortkit_resolution *r, size_t i)
{
    return r && i < r->step_count ? &r->steps[i].pub : NULL;
}

const char *ortkit_resolution_pin(const ortkit_resolution *r, const char **from)
{
    if (from)
        *from = r && r->pin ? r->pin_from : "";
    return r ? r->pin : NULL;
}

const ortkit_bundle_list *ortkit_resolution_bundles(const ortkit_resolution *r)
{
    return r ? r->list : NULL;
}

const ortkit_host *ortkit_resolution_host(const ortkit_resolution *r)
{
    return r ? r->host : NULL;
}

const ortkit_bundle *ortkit_resolution_bundle(const ortkit_resolution *r)
{
    if (!r || !r->chosen || !r->path || strncmp(r->source, "bundle ", 7))
        return NULL;
    return r->bundles[r->taken];
}

const char *ortkit_resolution_measured(const ortkit_resolution *r)
{
    return r ? r->measured : "";
}

const ortkit_bundle_choice *ortkit_resolution_choice(const ortkit_resolution *r)
{
    return r ? r->choice : NULL;
}

const char *ortkit_resolve_verdict_name(ortkit_resolve_verdict v)
{
    switch (v) {
    case ORTKIT_RESOLVE_SKIPPED: return "skipped";
    case ORTKIT_RESOLVE_PASSED: return "passed";
    case ORTKIT_RESOLVE_TAKEN: return "taken";
    case ORTKIT_RESOLVE_FAILED: return "failed";
    case ORTKIT_RESOLVE_NOT_REACHED: return "not reached";
    }
    return "unknown";
}

int ortkit_runtime_search_paths(char *buf, size_t size)
{
    if (!buf || !size)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_runtime_search_paths: no buffer");
    const char *rt = ortkit__env_nonempty("ORTKIT_RUNTIME"), *od = ortkit__env_nonempty("ONNXRUNTIME_DIR");
    snprintf(buf, size,
             "ORTKIT_RUNTIME=%s\n"
             "bundles: ORTKIT_BUNDLE, else the best fit in ORTKIT_PATH, the user's, the system's "
             "and the default bundle directories (ortkit bundle list)\n"
             "default: %s\n"
             "ONNXRUNTIME_DIR=%s\n"
             "pkg-config libonnxruntime\n"
             "system library paths (libonnxruntime.so.1, libonnxruntime.so)\n",
             rt ? rt : "(unset)", ORTKIT_DEFAULT_RUNTIME[0] ? ORTKIT_DEFAULT_RUNTIME : "(none)",
             od ? od : "(unset)");
    return ORTKIT_OK;
}
