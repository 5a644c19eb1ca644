/*
 * replay_main.c - feeds every file of a corpus directory to a fuzz target, so
 * that the corpora run as ordinary tests without libFuzzer.  Built with
 * -fsanitize=fuzzer (-DORTKIT_LIBFUZZER), libFuzzer's own main is used instead.
 */
#ifndef ORTKIT_LIBFUZZER
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* scandir, alphasort */
#endif
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Defined by the targets that check verdicts (fuzz_verdict.h). */
extern int ortkit_fuzz_expect __attribute__((weak));

/* The input being replayed, named when a target aborts on it. */
static char input_path[4096];

static void name_input(int sig)
{
    static const char what[] = "replay: the input was ";
    if (write(2, what, sizeof what - 1) < 0 || write(2, input_path, strlen(input_path)) < 0 ||
        write(2, "\n", 1) < 0)
        _exit(128 + sig);
    signal(sig, SIG_DFL);
    raise(sig);
}

static int read_all(const char *path, uint8_t **out, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    int rc = -1;
    for (;;) {
        if (len == cap) {
            uint8_t *bigger = realloc(buf, cap ? cap * 2 : 4096);
            if (!bigger)
                goto cleanup;
            buf = bigger;
            cap = cap ? cap * 2 : 4096;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0)
            break;
    }
    if (ferror(f))
        goto cleanup;
    /* An exact-size copy, so that reading past the input trips ASan. */
    *out = malloc(len ? len : 1);
    if (!*out)
        goto cleanup;
    if (len)
        memcpy(*out, buf, len);
    *size = len;
    rc = 0;
cleanup:
    free(buf);
    fclose(f);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
        return 2;
    }
    struct dirent **names = NULL;
    int n = scandir(argv[1], &names, NULL, alphasort);
    if (n < 0) {
        fprintf(stderr, "%s: cannot open '%s'\n", argv[0], argv[1]);
        return 1;
    }
    signal(SIGABRT, name_input);
    int replayed = 0, failed = 0;
    for (int i = 0; i < n; i++) {
        const char *name = names[i]->d_name, *path = input_path;
        struct stat st;
        snprintf(input_path, sizeof input_path, "%s/%s", argv[1], name);
        if (&ortkit_fuzz_expect)
            ortkit_fuzz_expect = !strncmp(name, "valid_", 6) ? 1 : !strncmp(name, "bad_", 4) ? -1 : 0;
        if (name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            uint8_t *data;
            size_t size;
            if (read_all(path, &data, &size) != 0) {
                fprintf(stderr, "%s: cannot read '%s'\n", argv[0], path);
                failed = 1;
            } else {
                LLVMFuzzerTestOneInput(data, size);
                free(data);
                replayed++;
            }
        }
        free(names[i]);
    }
    free(names);
    printf("replayed %d inputs from %s\n", replayed, argv[1]);
    if (replayed == 0) {
        fprintf(stderr, "%s: no inputs in '%s'\n", argv[0], argv[1]);
        return 1;
    }
    return failed;
}
#endif
