/*
 * test_cli_opt.c - the command-line option table (src/cli/common/opt.c): how
 * it reads a command line, how it names a bad option, how bound rows store
 * and check their values, how many arguments it takes, and the --help it
 * writes.
 */
#include "testutil.h"

#include "cli.h"
#include "opt.h"

enum { T_JSON = 1, T_JSONL, T_RUNTIME, T_INPUT, T_FORCE, T_PROGRESS, T_NO_PROGRESS, T_DEFINE };

static const cli_opt opts[] = {
    CLI_OPT_ID(T_JSON, "json", 'j', NULL, 0, "print JSON"),
    CLI_OPT_ID(T_JSONL, "jsonl", 0, NULL, 0, "print JSON lines"),
    CLI_OPT_ID(T_RUNTIME, "runtime", 0, "PATH", 0, "the runtime to load"),
    CLI_OPT_ID(T_INPUT, "input", 'i', "NAME=FILE", CLI_OPT_REPEATS, "an input"),
    CLI_OPT_ID(T_FORCE, "force", 'f', NULL, 0, "replace what is there"),
    CLI_OPT_ID(T_PROGRESS, "progress", 0, NULL, 0, "the progress bar"),
    CLI_OPT_ID(T_NO_PROGRESS, "no-progress", 0, NULL, CLI_OPT_SAME_LINE, NULL),
    CLI_OPT_ID(T_DEFINE, NULL, 'D', "KEY=VALUE", CLI_OPT_REPEATS, "a definition"),
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
    static const cli_opt own[] = {CLI_OPT_ID(1, "host", 'h', "FILE", 0, "a host"), CLI_OPT_END};
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
        CLI_OPT_ID(1, "long", 0, NULL, 0,
                   "one two three four five six seven eight nine ten eleven twelve thirteen "
                   "fourteen fifteen"),
        CLI_OPT_ID(2, "break", 0, "X", 0, "before\nafter  two spaces"),
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
static const cli_opt_spec *sub_spec_seen;
static int sub_run(const cli_opt_spec *sp, int argc, char **argv)
{
    sub_seen = argc * 10 + (int)strlen(argv[0]);
    sub_spec_seen = sp;
    return 7;
}

static void test_subcommands(void **state)
{
    (void)state;
    static const cli_opt sub_opts[] = {CLI_OPT_ID(1, "json", 0, NULL, 0, "print JSON"), CLI_OPT_END};
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
    assert_ptr_equal(sub_spec_seen, &sub_spec); /* its messages and --help are the command's */
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


/* ---- bound rows: each value stored where its row says, checked on the way ---- */

typedef struct bound {
    int flag, level, color;
    const char *name;
    char *ep;
    long count;
    double seconds;
    uint64_t size;
    ortkit__strv defs;
    int calls;
    char last[32];
} bound;

static int count_call(cli_opt_parser *p, void *field, char *value)
{
    bound *b = field;
    if (!strcmp(value, "bad"))
        return cli_opt_bad_value(p, "anything but bad");
    b->calls++;
    snprintf(b->last, sizeof b->last, "%s", value);
    return 0;
}

static const int colors[] = {10, 20, 30};

static const cli_opt bound_opts[] = {
    {0, "flag", 'f', NULL, 0, "a flag", CLI_OPT_FLAG(bound, flag)},
    {0, "quiet", 'q', NULL, 0, "level 0", CLI_OPT_SET(bound, level, 0)},
    {0, "loud", 0, NULL, CLI_OPT_SAME_LINE, NULL, CLI_OPT_SET(bound, level, 2)},
    {0, "name", 'n', "NAME", 0, "a name", CLI_OPT_STRING(bound, name)},
    {0, "ep", 0, "LIST", 0, "providers", CLI_OPT_STRING(bound, ep)},
    {0, "count", 'c', "N", 0, "a count", CLI_OPT_LONG(bound, count, 1, 10)},
    {0, "runs", 0, "N", 0, "runs", CLI_OPT_LONG(bound, count, 1, 10), .want = "a number of runs"},
    {0, "seconds", 't', "S", 0, "seconds", CLI_OPT_DOUBLE(bound, seconds, 0.001, 60)},
    {0, "size", 0, "SIZE", 0, "a size", CLI_OPT_SIZE(bound, size, 64 * 1024 * 1024)},
    {0, "color", 0, "red|green|blue", 0, "a colour", CLI_OPT_CHOICE(bound, color, colors)},
    {0, NULL, 'D', "KEY=VALUE", CLI_OPT_REPEATS, "definitions", CLI_OPT_STRV(bound, defs)},
    {0, "call", 0, "X", CLI_OPT_REPEATS, "called", CLI_OPT_CALL_ARGS(count_call)},
    CLI_OPT_ARGS(1, 2, "demo needs FILE"),
    CLI_OPT_END};

static const cli_opt_spec bound_spec = {"demo", "usage: ortkit demo FILE [FILE]\n", NULL, bound_opts,
                                        NULL, NULL};

/* cli_opt_parse over the words of line; returns what it returned, messages caught. */
static int parse_line(fixture *f, const char *line, bound *b)
{
    snprintf(f->words, sizeof f->words, "demo %s", line);
    int argc = 0;
    for (char *save = NULL, *w = strtok_r(f->words, " ", &save); w; w = strtok_r(NULL, " ", &save))
        f->argv[argc++] = w;
    memset(b, 0, sizeof *b);
    b->level = 1;
    /* The messages go to the parser's streams: set them before it reads. */
    cli_opt_init(&f->p, &bound_spec, NULL, argc, f->argv);
    f->p.out = f->out_f;
    f->p.err = f->err_f;
    int stop = cli_opt_read(&f->p, b);
    fflush(f->out_f);
    fflush(f->err_f);
    return stop;
}

static void test_bound_values(void **state)
{
    (void)state;
    fixture *f = start(&bound_spec, "");
    bound b;
    assert_int_equal(parse_line(f, "a -f --name=x --ep cuda,cpu -c 3 -t 0.5 --size 1G --color blue "
                                   "-DA=1 -D B=2 --call one --call two --loud b", &b), 0);
    assert_int_equal(f->p.status, 0);
    assert_int_equal(b.flag, 1);
    assert_int_equal(b.level, 2);
    assert_string_equal(b.name, "x");
    assert_string_equal(b.ep, "cuda,cpu");
    assert_int_equal(b.count, 3);
    assert_true(b.seconds == 0.5);
    assert_true(b.size == 1024ULL * 1024 * 1024);
    assert_int_equal(b.color, 30);
    assert_int_equal(b.defs.n, 2);
    assert_string_equal(b.defs.v[0], "A=1");
    assert_string_equal(b.defs.v[1], "B=2");
    assert_int_equal(b.calls, 2);
    assert_string_equal(b.last, "two");
    assert_int_equal(f->p.n_args, 2);
    assert_string_equal(f->p.args[0], "a");
    assert_string_equal(f->p.args[1], "b");
    ortkit__strv_free(&b.defs);
    /* The last of a switch pair wins. */
    assert_int_equal(parse_line(f, "a --loud -q", &b), 0);
    assert_int_equal(b.level, 0);
    finish(f);
}

/* One line: ended with status, the message (without its --help hint) and nothing on stdout. */
static void check_stop(const char *line, int status, const char *message)
{
    fixture *f = start(&bound_spec, "");
    bound b;
    if (parse_line(f, line, &b) != 1 || f->p.status != status)
        fail_msg("'%s': status %d, expected a stop with %d (stderr: %s)", line, f->p.status, status,
                 f->err);
    if (message) {
        char want[300];
        snprintf(want, sizeof want, "ortkit demo: %s\n(see 'ortkit demo --help')\n", message);
        if (strcmp(f->err, want))
            fail_msg("'%s' said:\n%sexpected:\n%s", line, f->err, want);
    }
    ortkit__strv_free(&b.defs);
    finish(f);
}

static void test_bound_errors(void **state)
{
    (void)state;
    /* The option is named as the command line named it. */
    check_stop("a -c 0", CLI_USAGE, "-c wants a number from 1 to 10, got '0'");
    check_stop("a --count=11", CLI_USAGE, "--count wants a number from 1 to 10, got '11'");
    check_stop("a --cou x", CLI_USAGE, "--count wants a number from 1 to 10, got 'x'");
    check_stop("a -c 3x", CLI_USAGE, "-c wants a number from 1 to 10, got '3x'");
    check_stop("a --runs 0", CLI_USAGE, "--runs wants a number of runs, got '0'");
    check_stop("a -t 0", CLI_USAGE, "-t wants a number from 0.001 to 60, got '0'");
    check_stop("a -t nan", CLI_USAGE, "-t wants a number from 0.001 to 60, got 'nan'");
    check_stop("a -t 1e999", CLI_USAGE, "-t wants a number from 0.001 to 60, got '1e999'");
    check_stop("a --size 1M", CLI_USAGE, "--size wants a size of at least 64M, got '1M'");
    check_stop("a --color pink", CLI_USAGE, "--color wants red, green or blue, got 'pink'");
    check_stop("a --color=", CLI_USAGE, "--color wants red, green or blue, got ''");
    check_stop("a --call bad", CLI_USAGE, "--call wants anything but bad, got 'bad'");
    /* The count of arguments. */
    check_stop("", CLI_USAGE, "demo needs FILE");
    check_stop("-f", CLI_USAGE, "demo needs FILE");
    check_stop("a b c", CLI_USAGE, "unexpected argument 'c'");
    /* --help stops with 0 before counting; a bad option with 2. */
    check_stop("--help", CLI_OK, NULL);
    check_stop("a --bogus", CLI_USAGE, "option '--bogus' is unknown or needs a value");
    check_stop("a --size lots", CLI_USAGE, NULL);
}

/* A bound table prints its --help as an unbound one: the count row shows nothing. */
static void test_bound_help(void **state)
{
    (void)state;
    char *text = help_of(&bound_spec);
    if (!strstr(text, "  -q, --quiet, --loud     level 0\n") ||
        !strstr(text, "  --color red|green|blue  a colour\n") || strstr(text, "demo needs FILE"))
        fail_msg("help:\n%s", text);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_and_clusters), cmocka_unit_test(test_positional_arguments),
        cmocka_unit_test(test_abbreviations),       cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_help),                cmocka_unit_test(test_own_h),
        cmocka_unit_test(test_help_layout),         cmocka_unit_test(test_subcommands),
        cmocka_unit_test(test_bound_values),        cmocka_unit_test(test_bound_errors),
        cmocka_unit_test(test_bound_help),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
