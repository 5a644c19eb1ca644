/*
 * test_cli_util.c - the command-line tool's tables, wrapped lines and
 * escaped text (src/cli/cli_util.c): columns that line up, a table that lost
 * a row to a failed allocation refusing to print, and nothing a terminal
 * would act on getting through.
 */
#include "testutil.h"

#include "cli.h"

#include <stdarg.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* What fn writes on a stream, as a string (the caller frees it). */
static char *captured(void (*fn)(FILE *out, void *arg), void *arg)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    fn(out, arg);
    fclose(out);
    return text;
}

static void print_table(FILE *out, void *arg) { assert_int_equal(cli_table_print(arg, out, "  "), 0); }

static void test_table_columns(void **state)
{
    (void)state;
    static const char *const headers[] = {"NAME", "SIZE", "NOTE"};
    cli_table *t = cli_table_new(3, headers);
    assert_non_null(t);
    cli_table_align_right(t, 1);
    assert_int_equal(cli_table_add(t, (const char *const[]){"α-β", "1", "first"}), 0);
    assert_int_equal(cli_table_add(t, (const char *const[]){"longer name", "12345", ""}), 0);
    assert_int_equal(cli_table_add(t, (const char *const[]){NULL, "7", NULL}), 0);
    char *text = captured(print_table, t);
    /* Widths count characters, not bytes; empty trailing cells leave no blanks. */
    assert_string_equal(text, "  NAME          SIZE  NOTE\n"
                              "  α-β              1  first\n"
                              "  longer name  12345\n"
                              "                   7\n");
    free(text);
    cli_table_free(t);
}

static void test_table_null(void **state)
{
    (void)state;
    assert_int_equal(cli_table_add(NULL, (const char *const[]){"x"}), -1);
    assert_int_equal(cli_table_print(NULL, stdout, NULL), -1);
    cli_table_free(NULL);
}

/*
 * A row that cannot be copied is refused, and so is printing the table it
 * is missing from.  Run in a child whose address space is capped, so that a
 * large cell cannot be allocated.
 */
static void test_table_lost_row(void **state)
{
    (void)state;
#if defined(__SANITIZE_ADDRESS__)
    skip(); /* the sanitizer's allocator reserves far more than the cap */
#else
    if (test_emulated())
        skip(); /* qemu-user does not apply RLIMIT_AS to the emulated program */
    static const char *const headers[] = {"A"};
    size_t big = 256u << 20;
    char *cell = malloc(big);
    assert_non_null(cell);
    memset(cell, 'x', big - 1);
    cell[big - 1] = '\0';
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        cli_table *t = cli_table_new(1, headers);
        int ok = t && cli_table_add(t, (const char *const[]){"fits"}) == 0;
        long pages = 0, page = sysconf(_SC_PAGESIZE);
        FILE *statm = fopen("/proc/self/statm", "r");
        ok = ok && statm && fscanf(statm, "%ld", &pages) == 1;
        if (statm)
            fclose(statm);
        struct rlimit cap = {(rlim_t)(pages * page) + (64u << 20), (rlim_t)(pages * page) + (64u << 20)};
        ok = ok && setrlimit(RLIMIT_AS, &cap) == 0;
        ok = ok && cli_table_add(t, (const char *const[]){cell}) == -1;
        FILE *sink = fopen("/dev/null", "w");
        ok = ok && sink && cli_table_print(t, sink, NULL) == -1;
        _exit(ok ? 0 : 1);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    free(cell);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
#endif
}

typedef struct words_case {
    const char *lead;
    const char *const *words;
    size_t n;
} words_case;

static void print_words(FILE *out, void *arg)
{
    const words_case *c = arg;
    cli_print_wrapped(out, c->lead, c->words, c->n);
}

static void test_wrapped(void **state)
{
    (void)state;
    static const char *const features[] = {"sse3",  "ssse3", "sse4.1", "sse4.2", "popcnt",
                                           "cx16",  "lahf",  "movbe",  "lzcnt",  "bmi1",
                                           "bmi2",  "avx",   "avx2",   "fma",    "f16c",
                                           "avx512f"};
    words_case c = {"features    ", features, 16};
    char *text = captured(print_words, &c);
    assert_string_equal(text, "features    sse3 ssse3 sse4.1 sse4.2 popcnt cx16 lahf movbe lzcnt bmi1 bmi2 avx\n"
                              "            avx2 fma f16c avx512f\n");
    free(text);

    /* A word longer than the line stays whole, after the lead. */
    static const char *const long_word[] = {
        "a-word-that-is-far-too-long-for-any-line-of-eighty-columns-whatever-its-indent-is",
        "next"};
    words_case l = {"  x ", long_word, 2};
    text = captured(print_words, &l);
    assert_string_equal(text, "  x a-word-that-is-far-too-long-for-any-line-of-eighty-columns-whatever-its-indent-is\n"
                              "    next\n");
    free(text);

    words_case none = {"lead ", NULL, 0};
    text = captured(print_words, &none);
    assert_string_equal(text, "lead \n");
    free(text);
}

/* ---- escaping ------------------------------------------------------------------ */

static void escapes_to(const char *in, const char *want)
{
    char *got = cli_escape(in);
    assert_non_null(got);
    if (strcmp(got, want))
        fail_msg("cli_escape gave '%s', expected '%s'", got, want);
    free(got);
    assert_string_equal(cli_esc(in), want);
}

static void test_escape(void **state)
{
    (void)state;
    /* C0 controls and DEL; the common ones by their C names. */
    escapes_to("\x1b]0;pwned\x07", "\\x1b]0;pwned\\x07");
    escapes_to("a\nb\rc\td", "a\\nb\\rc\\td");
    escapes_to("\x01\x1f\x7f", "\\x01\\x1f\\x7f");
    /* C1 controls in UTF-8 (U+0080 to U+009F), by code point. */
    escapes_to("\xc2\x9b" "2J \xc2\x80", "\\u009b2J \\u0080");
    /* Bytes that are not UTF-8: stray, overlong, surrogate, too large, cut short. */
    escapes_to("\xff\xfe", "\\xff\\xfe");
    escapes_to("\x80x", "\\x80x");
    escapes_to("\xc0\xaf", "\\xc0\\xaf");
    escapes_to("\xe0\x80\xaf", "\\xe0\\x80\\xaf");
    escapes_to("\xed\xa0\x80", "\\xed\\xa0\\x80");
    escapes_to("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80");
    escapes_to("\xe2\x82", "\\xe2\\x82");
    escapes_to("\xf0\x9f\x98", "\\xf0\\x9f\\x98");
    /* Text that prints as it is: ASCII, UTF-8 of every length, the first
     * character past C1 (U+00A0), and a backslash. */
    escapes_to("α-β € 😀 \xc2\xa0 C:\\dir", "α-β € 😀 \xc2\xa0 C:\\dir");
    escapes_to("", "");
    assert_string_equal(cli_esc(NULL), "");

    /* Clean text comes back as it is, not copied. */
    const char *plain = "plain text";
    assert_ptr_equal(cli_esc(plain), plain);
    /* Escaped copies stay valid across the arguments of one printf. */
    const char *k[8];
    char in[8][8];
    for (int i = 0; i < 8; i++) {
        snprintf(in[i], sizeof in[i], "%d\n", i);
        k[i] = cli_esc(in[i]);
    }
    for (int i = 0; i < 8; i++) {
        char want[8];
        snprintf(want, sizeof want, "%d\\n", i);
        assert_string_equal(k[i], want);
    }
}

/* Table cells are escaped before their widths are taken, so columns still line up. */
static void test_table_escapes(void **state)
{
    (void)state;
    static const char *const headers[] = {"NAME", "VALUE"};
    cli_table *t = cli_table_new(2, headers);
    assert_non_null(t);
    assert_int_equal(cli_table_add(t, (const char *const[]){"a\x1b[2J", "line\nbreak"}), 0);
    assert_int_equal(cli_table_add(t, (const char *const[]){"\xff", "x"}), 0);
    char *text = captured(print_table, t);
    assert_string_equal(text, "  NAME      VALUE\n"
                              "  a\\x1b[2J  line\\nbreak\n"
                              "  \\xff      x\n");
    free(text);
    cli_table_free(t);
}

static void usage_to(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void usage_to(FILE *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vusage(out, "run", fmt, ap);
    va_end(ap);
}

static void usage_line(FILE *out, void *arg) { usage_to(out, "unknown '%s'", (const char *)arg); }

static void print_lines(FILE *out, void *arg) { cli_print_lines(out, arg); }

static void test_messages_escaped(void **state)
{
    (void)state;
    char *text = captured(usage_line, "name\x1b]0;x\x07\nmore");
    assert_string_equal(text, "ortkit run: unknown 'name\\x1b]0;x\\x07\\nmore'\n"
                              "(see 'ortkit run --help')\n");
    free(text);

    static const char *const words[] = {"ok", "bad\x1b[2J"};
    words_case c = {"w ", words, 2};
    text = captured(print_words, &c);
    assert_string_equal(text, "w ok bad\\x1b[2J\n");
    free(text);

    /* Line by line: the line ends stay, what is inside a line is escaped. */
    text = captured(print_lines, "ai.onnx;17;Add\nx\x1b[2J;1;Op\r\nlast");
    assert_string_equal(text, "ai.onnx;17;Add\nx\\x1b[2J;1;Op\\r\nlast\n");
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_columns),
        cmocka_unit_test(test_table_null),
        cmocka_unit_test(test_table_lost_row),
        cmocka_unit_test(test_wrapped),
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_table_escapes),
        cmocka_unit_test(test_messages_escaped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
