/*
 * sharing.c - what the variant's CPU flags reach in a configured build:
 * every compile `ninja -t commands` lists, by part (ONNX Runtime's own code
 * or a dependency's) and language, with or without the flags.  Compiles
 * without them are the same in every variant of the architecture (and, for
 * CUDA, of the toolkit and SM), so a shared cache serves them once; a CUDA
 * or dependency compile that carries them is said (the plan keeps them out).
 */
#include "builder_sharing.h"
#include "builder_gate.h"
#include "builder_launcher.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Split a shell command line into words (quotes and backslashes as sh reads
 * them; enough for the commands CMake writes). */
static int split_words(ortkit__strv *out, const char *line)
{
    size_t n = strlen(line);
    char *word = malloc(n + 1);
    if (!word)
        return ortkit__error_nomem();
    int rc = 0;
    const char *p = line;
    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        size_t k = 0;
        while (*p && *p != ' ' && *p != '\t') {
            if (*p == '\'') {
                for (p++; *p && *p != '\''; p++)
                    word[k++] = *p;
                if (*p)
                    p++;
            } else if (*p == '"') {
                for (p++; *p && *p != '"'; p++) {
                    if (*p == '\\' && p[1] && strchr("\"\\$`", p[1]))
                        p++;
                    word[k++] = *p;
                }
                if (*p)
                    p++;
            } else if (*p == '\\' && p[1]) {
                word[k++] = p[1];
                p += 2;
            } else {
                word[k++] = *p++;
            }
        }
        word[k] = '\0';
        if ((rc = ortkit__strv_push(out, word)))
            break;
    }
    free(word);
    return rc;
}

/* Is f one of the items of list (separated by ',' or ' ')? */
static int item_is(const char *list, const char *f)
{
    size_t fl = strlen(f);
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ", ");
        if (len == fl && !strncmp(p, f, fl))
            return 1;
        p += len;
        if (*p)
            p++;
    }
    return 0;
}

/* Does word carry one of the flags: itself, or an item of "A,B" or of
 * "-Xcompiler=A,B" (nvcc's host flags)? */
static int carries(const char *word, const ortkit__strv *flags)
{
    const char *eq = strchr(word, '=');
    for (size_t i = 0; i < flags->n; i++)
        if (item_is(word, flags->v[i]) || (eq && item_is(eq + 1, flags->v[i])))
            return 1;
    return 0;
}

static int under(const char *path, const char *dir)
{
    size_t n = dir ? strlen(dir) : 0;
    return n && !strncmp(path, dir, n) && path[n] == '/';
}

int ortkit__builder_sharing_add(ortkit__builder_sharing *s, const char *line, const char *source,
                                const char *build_dir)
{
    ortkit__strv w = {0}, flags = {0};
    int rc = split_words(&w, line);
    if (rc || (rc = split_words(&flags, s->flags)))
        goto cleanup;
    /* "[: && ]LAUNCHER build --launch=STATE COMPILER ARGS...": find the launcher. */
    size_t first = 0;
    while (first + 2 < w.n && !(!strcmp(w.v[first + 1], "build") && !strncmp(w.v[first + 2], "--launch", 8)))
        first++;
    if (first + 3 >= w.n)
        goto cleanup;
    first += strcmp(w.v[first + 2], "--launch") ? 3 : 4;
    if (first >= w.n)
        goto cleanup;
    ortkit__builder_lang lang;
    int src = ortkit__builder_classify(w.v + first, (int)(w.n - first), &lang);
    if (lang == ORTKIT__LANG_LINK || src < 0)
        goto cleanup;
    const char *path = w.v[first + (size_t)src];
    char deps[PATH_MAX];
    snprintf(deps, sizeof deps, "%s/_deps", build_dir ? build_dir : "");
    int part = path[0] != '/' ? (strncmp(path, "_deps/", 6) ? ORTKIT__PART_ORT : ORTKIT__PART_DEPS)
               : under(path, deps)                                   ? ORTKIT__PART_DEPS
               : under(path, source) || under(path, build_dir)       ? ORTKIT__PART_ORT
                                                                     : ORTKIT__PART_DEPS;
    int specific = 0;
    for (size_t i = first + 1; i < w.n && !specific; i++)
        specific = carries(w.v[i], &flags);
    s->n[part][lang][specific]++;
    if (specific && (lang == ORTKIT__LANG_CUDA || part == ORTKIT__PART_DEPS)) {
        s->stray++;
        if (s->stray_files.n < 10)
            rc = ortkit__strv_push(&s->stray_files, path);
    }
cleanup:
    ortkit__strv_free(&w);
    ortkit__strv_free(&flags);
    return rc;
}

int ortkit__builder_sharing_read(ortkit__builder_sharing *s, const char *build_dir,
                                 const char *state_dir, const char *source, const char *flags)
{
    ortkit__builder_sharing_free(s);
    snprintf(s->flags, sizeof s->flags, "%s", flags ? flags : "");
    char path[PATH_MAX];
    int rc = ortkit__pathf(path, sizeof path, "%s/commands.txt", state_dir);
    if (rc)
        return rc;
    /* Written to a file: ORT's commands run to megabytes. */
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot write '%s'", path);
    const char *const argv[] = {"ninja", "-C", build_dir, "-t", "commands", NULL};
    ortkit__child_options co = {.argv = argv, .in = ORTKIT__CHILD_NULL, .out = ORTKIT__CHILD_FD,
                                .out_fd = fd, .err = ORTKIT__CHILD_NULL};
    ortkit__child ch;
    int started = ortkit__child_start(&ch, &co) == 0;
    close(fd);
    if (started)
        (void)ortkit__child_wait(&ch, NULL);
    int st = started ? ch.status : -1;
    ortkit__child_free(&ch);
    FILE *f = NULL;
    if (st != 0)
        rc = ortkit__error_set(ORTKIT_E_IO, "ninja -t commands failed in %s", build_dir);
    else if ((rc = ortkit__file_fopen(&f, path)) == 0) {
        char *line = NULL;
        size_t cap = 0;
        ssize_t len;
        while (!rc && (len = getline(&line, &cap, f)) > 0) {
            if (line[len - 1] == '\n')
                line[len - 1] = '\0';
            rc = ortkit__builder_sharing_add(s, line, source, build_dir);
        }
        free(line);
        fclose(f);
    }
    unlink(path);
    s->known = rc == 0;
    return rc;
}

void ortkit__builder_sharing_free(ortkit__builder_sharing *s)
{
    ortkit__strv_free(&s->stray_files);
    memset(s, 0, sizeof *s);
}
