/*
 * test_cli_opt.c - the command-line option table (src/cli/opt.c): how it
 * reads a command line, how it names a bad option, and the --help it writes.
 */
#include "testutil.h"

#include "cli.h"
#include "opt.h"

enum { T_JSON = 1, T_JSONL, T_RUNTIME, T_INPUT, T_FORCE, T_PROGRESS, T_NO_PROGRESS, T_DEFINE };

static const cli_opt opts[] = {
    {T_JSON, "json", 'j', NULL, 0, "print JSON"},
    {T_JSONL, "jsonl", 0, NULL, 0, "print JSON lines"},
    {T_RUNTIME, "runtime", 0, "PATH", 0, "the runtime to load"},
    {T_INPUT, "input", 'i', "NAME=FILE", CLI_OPT_REPEATS, "an input"},
    {T_FORCE, "force", 'f', NULL, 0, "replace what is there"},
    {T_PROGRESS, "progress", 0, NULL, 0, "the progress bar"},
    {T_NO_PROGRESS, "no-progress", 0, NULL, CLI_OPT_SAME_LINE, NULL},
    {T_DEFINE, NULL, 'D', "KEY=VALUE", CLI_OPT_REPEATS, "a definition"},
    CLI_OPT_END};

static const cli_opt_spec spec = {"demo", "usage: ortkit demo [options] ARG...\n",
                                  "What demo does.\n", opts, NULL, "The end.\n"};

/* A parser over the words of line, its messages caught in memory. */
typedef struct fixture {
    char *argv[32];
    char words[512];
    cli_opt_parser p;
    char *out, *err;
    size_t out_size, err_size;
    FILE *out_f, *err_f;
} fixture;

static fixture *start(const cli_opt_spec *sp, const char *line)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    snprintf(f->words, sizeof f->words, "demo %s", line);
    int argc = 0;
    for (char *save = NULL, *w = strtok_r(f->words, " ", &save); w; w = strtok_r(NULL, " ", &save))
        f->argv[argc++] = w;
    f->out_f = open_memstream(&f->out, &f->out_size);
    f->err_f = open_memstream(&f->err, &f->err_size);
    assert_true(f->out_f && f->err_f);
    cli_opt_init(&f->p, sp, NULL, argc, f->argv);
    f->p.out = f->out_f;
    f->p.err = f->err_f;
    return f;
}

/* Read every option; returns how the reading ended, the ids seen joined in seen. */
static int read_all(fixture *f, char *seen, size_t size)
{
    int c;
    seen[0] = '\0';
    while ((c = cli_opt_next(&f->p)) > 0) {
        size_t used = strlen(seen);
        snprintf(seen + used, size - used, "%s%d%s%s", used ? " " : "", c, f->p.value ? "=" : "",
                 f->p.value ? f->p.value : "");
    }
    fflush(f->out_f);
    fflush(f->err_f);
    return c;
}

static void finish(fixture *f)
{
    fclose(f->out_f);
    fclose(f->err_f);
    free(f->out);
    free(f->err);
    free(f);
}

static void check_line(const char *line, int want_end, const char *want_seen, const char *want_args)
{
    fixture *f = start(&spec, line);
    char seen[256], args[256] = "";
    int end = read_all(f, seen, sizeof seen);
    if (end != want_end || strcmp(seen, want_seen))
        fail_msg("'%s': ended %d with '%s'; expected %d with '%s' (stderr: %s)", line, end, seen,
                 want_end, want_seen, f->err);
    for (int i = 0; i < f->p.n_args; i++) {
        size_t used = strlen(args);
        snprintf(args + used, sizeof args - used, "%s%s", i ? " " : "", f->p.args[i]);
    }
    if (end == CLI_OPT_DONE && strcmp(args, want_args))
        fail_msg("'%s': arguments '%s', expected '%s'", line, args, want_args);
    finish(f);
}

static void test_values_and_clusters(void **state)
{
    (void)state;
    check_line("--runtime=/a --runtime /b", CLI_OPT_DONE, "3=/a 3=/b", "");
    check_line("-ix -i y", CLI_OPT_DONE, "4=x 4=y", "");
    check_line("-fj -fix", CLI_OPT_DONE, "5 1 5 4=x", "");
    /* A value is taken whole, even when it starts with a dash. */
    check_line("--runtime --json -i -f", CLI_OPT_DONE, "3=--json 4=-f", "");
    check_line("-DKEY=1 -D K=2", CLI_OPT_DONE, "8=KEY=1 8=K=2", "");
    check_line("--runtime=", CLI_OPT_DONE, "3=", "");
}

static void test_positional_arguments(void **state)
{
    (void)state;
    /* Options after arguments work; the arguments keep their order. */
    check_line("a --json b -f c", CLI_OPT_DONE, "1 5", "a b c");
    /* "--" ends the options, "-" alone is an argument. */
    check_line("a -- --json -f", CLI_OPT_DONE, "", "a --json -f");
    check_line("- --json", CLI_OPT_DONE, "1", "-");
    check_line("", CLI_OPT_DONE, "", "");
}

static void test_abbreviations(void **state)
{
    (void)state;
    check_line("--run /x --forc --prog", CLI_OPT_DONE, "3=/x 5 6", "");
    /* An exact name wins over a longer one it abbreviates. */
    check_line("--json --jsonl", CLI_OPT_DONE, "1 2", "");
    /* "--js" could be --json or --jsonl. */
    check_line("--js", CLI_OPT_BAD, "", "");
    check_line("--no", CLI_OPT_DONE, "7", "");
}

static void check_bad(const char *line, const char *seen_before, const char *message)
{
    fixture *f = start(&spec, line);
    char seen[256];
    assert_int_equal(read_all(f, seen, sizeof seen), CLI_OPT_BAD);
    assert_string_equal(seen, seen_before);
    char want[256];
    snprintf(want, sizeof want, "ortkit demo: %s\n(see 'ortkit demo --help')\n", message);
    assert_string_equal(f->err, want);
    assert_int_equal(f->out_size, 0);
    finish(f);
}

static void test_bad_options(void **state)
{
    (void)state;
    check_bad("--bogus", "", "option '--bogus' is unknown or needs a value");
    check_bad("--json --bogus=1 --help", "1", "option '--bogus' is unknown or needs a value");
    check_bad("--json=1", "", "option '--json' is unknown or needs a value");
    check_bad("--runtime", "", "option '--runtime' is unknown or needs a value");
    check_bad("--js", "", "option '--js' is unknown or needs a value");
    check_bad("-x", "", "option '-x' is unknown or needs a value");
    check_bad("-fq", "5", "option '-q' is unknown or needs a value");
    check_bad("a -i", "", "option '-i' is unknown or needs a value");
    check_bad("--=x", "", "option '--' is unknown or needs a value");
}

static void test_help(void **state)
{
    (void)state;
    static const char *const lines[] = {"--help", "-h", "--he", "a b --help", "-fh", "--help --bogus",
                                        "--json --help -i"};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        fixture *f = start(&spec, lines[i]);
        char seen[256];
        assert_int_equal(read_all(f, seen, sizeof seen), CLI_OPT_HELP);
        if (strncmp(f->out, "usage: ortkit demo", 18))
            fail_msg("'%s' printed: %s", lines[i], f->out);
        assert_int_equal(f->err_size, 0);
        finish(f);
    }
    /* A value that looks like --help is a value. */
    check_line("--runtime --help", CLI_OPT_DONE, "3=--help", "");
}

/* A table that gives -h a meaning of its own keeps --help. */
static void test_own_h(void **state)
{
    (void)state;
    static const cli_opt own[] = {{1, "host", 'h', "FILE", 0, "a host"}, CLI_OPT_END};
    static const cli_opt_spec own_spec = {"own", "usage: ortkit own\n", NULL, own, NULL, NULL};
    fixture *f = start(&own_spec, "-h x --h y");
    char seen[64];
    assert_int_equal(read_all(f, seen, sizeof seen), CLI_OPT_BAD); /* --h: --host or --help */
    assert_string_equal(seen, "1=x");
    finish(f);
    f = start(&own_spec, "-hx --help");
    assert_int_equal(read_all(f, seen, sizeof seen), CLI_OPT_HELP);
    assert_string_equal(seen, "1=x");
    finish(f);
}

static char *help_of(const cli_opt_spec *sp)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    cli_opt_help(sp, out);
    fclose(out);
    return text;
}

static void test_help_layout(void **state)
{
    (void)state;
    char *text = help_of(&spec);
    assert_string_equal(text, "usage: ortkit demo [options] ARG...\n"
                              "\n"
                              "What demo does.\n"
                              "\n"
                              "  -j, --json                 print JSON\n"
                              "  --jsonl                    print JSON lines\n"
                              "  --runtime PATH             the runtime to load\n"
                              "  -i, --input NAME=FILE...   an input\n"
                              "  -f, --force                replace what is there\n"
                              "  --progress, --no-progress  the progress bar\n"
                              "  -D KEY=VALUE...            a definition\n"
                              "\n"
                              "The end.\n");
    free(text);

    /* Long help wraps at 80 columns under its column; '\n' breaks a line;
     * two spaces stay two; terms and headings. */
    static const cli_opt wrapped[] = {
        {1, "long", 0, NULL, 0,
         "one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
         "fifteen"},
        {2, "break", 0, "X", 0, "before\nafter  two spaces"},
        CLI_OPT_HEADING("more:"),
        CLI_OPT_TERM("NAME...", "names"),
        CLI_OPT_END};
    static const cli_opt_spec wrapped_spec = {"w", "usage: ortkit w\n", NULL, wrapped, NULL, NULL};
    text = help_of(&wrapped_spec);
    assert_string_equal(text, "usage: ortkit w\n"
                              "\n"
                              "  --long     one two three four five six seven eight nine ten eleven twelve\n"
                              "             thirteen fourteen fifteen\n"
                              "  --break X  before\n"
                              "             after  two spaces\n"
                              "\n"
                              "more:\n"
                              "  NAME...    names\n");
    for (char *line = text; *line; line = strchr(line, '\n') + 1)
        assert_true(strcspn(line, "\n") <= 80);
    free(text);
}

static int sub_seen;
static int sub_run(int argc, char **argv)
{
    sub_seen = argc * 10 + (int)strlen(argv[0]);
    return 7;
}

static void test_subcommands(void **state)
{
    (void)state;
    static const cli_opt sub_opts[] = {{1, "json", 0, NULL, 0, "print JSON"}, CLI_OPT_END};
    static const cli_subcommand subs[] = {{"one", "SRC", "the first", sub_opts, sub_run},
                                          {"three", NULL, "the second", sub_opts, sub_run},
                                          {NULL, NULL, NULL, NULL, NULL}};
    static const cli_opt_spec sub_spec = {"tool", "usage: ortkit tool one|three\n", "Intro.\n",
                                          NULL, subs, NULL};
    char tool[] = "tool", three[] = "three", x[] = "x", on[] = "on";
    char *words[] = {tool, three, x, NULL};
    sub_seen = 0;
    assert_int_equal(cli_opt_run_subcommand(&sub_spec, 3, words), 7);
    assert_int_equal(sub_seen, 25); /* argc 2, argv[0] "three" */
    assert_int_equal(cli_opt_run_subcommand(&sub_spec, 1, words), CLI_USAGE);
    char *unknown[] = {tool, on, NULL}; /* no abbreviations here */
    assert_int_equal(cli_opt_run_subcommand(&sub_spec, 2, unknown), CLI_USAGE);

    char *text = help_of(&sub_spec);
    assert_string_equal(text, "usage: ortkit tool one|three\n"
                              "\n"
                              "Intro.\n"
                              "\n"
                              "one SRC   the first\n"
                              "  --json  print JSON\n"
                              "three     the second\n"
                              "  --json  print JSON\n");
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_and_clusters), cmocka_unit_test(test_positional_arguments),
        cmocka_unit_test(test_abbreviations),       cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_help),                cmocka_unit_test(test_own_h),
        cmocka_unit_test(test_help_layout),         cmocka_unit_test(test_subcommands),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
