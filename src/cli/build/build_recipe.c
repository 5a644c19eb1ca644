/* build_recipe.c - `ortkit build --recipe NAME`: the options a kind of build
 * environment needs (the Debian 11 root's, for a bundle that ships), kept in
 * a file installed with ortkit instead of in the scripts that make the root. */
#include "build_recipe.h"
#include "cli.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Options a recipe may not set: what to build and what to print are the
 * caller's. */
static const char *const not_in_recipe[] = {"recipe", "source", "variant", "cmake-project", "matrix",
                                            "dry-run", "check", "patch-check", "json", "build-dir"};

static int known_option(const cli_opt *opts, const char *name, int *takes_value)
{
    for (size_t i = 0; i < sizeof not_in_recipe / sizeof *not_in_recipe; i++)
        if (!strcmp(name, not_in_recipe[i]))
            return 0;
    for (const cli_opt *o = opts; o->help || o->name || o->letter; o++) {
        if ((o->name && !strcmp(o->name, name)) || (!o->name && o->letter && !name[1] &&
                                                    o->letter == name[0])) {
            *takes_value = o->arg != NULL;
            return 1;
        }
    }
    return 0;
}

/* The value of --NAME in argv (the last one), or NULL. */
static const char *arg_value(int argc, char **argv, const char *name)
{
    const char *v = NULL;
    size_t n = strlen(name);
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--", 2) || strncmp(argv[i] + 2, name, n))
            continue;
        if (argv[i][2 + n] == '=')
            v = argv[i] + 3 + n;
        else if (!argv[i][2 + n] && i + 1 < argc)
            v = argv[++i];
    }
    return v;
}

/* @DATADIR@ and @VERSION@ replaced in value. */
static int substitute(ortkit__strv *out, const char *value, const char *datadir, const char *version)
{
    char buf[PATH_MAX * 2];
    size_t len = 0;
    for (const char *p = value; *p;) {
        const char *with = NULL;
        if (!strncmp(p, "@DATADIR@", 9))
            with = datadir, p += 9;
        else if (!strncmp(p, "@VERSION@", 9))
            with = version, p += 9;
        if (with) {
            if (!*with)
                return -1;
            len += (size_t)snprintf(buf + len, len < sizeof buf ? sizeof buf - len : 0, "%s", with);
        } else if (len + 1 < sizeof buf) {
            buf[len++] = *p++;
        } else {
            len = sizeof buf, p++;
        }
        if (len >= sizeof buf)
            return -1;
    }
    buf[len] = '\0';
    return ortkit__strv_push(out, buf) ? -2 : 0;
}

/* The ONNX Runtime version of the --source tree ("" when unknown). */
static void source_version(char *buf, size_t size, int argc, char **argv)
{
    const char *source = arg_value(argc, argv, "source");
    char path[PATH_MAX], *text = NULL;
    buf[0] = '\0';
    if (source && !ortkit__pathf(path, sizeof path, "%s/VERSION_NUMBER", source) &&
        !ortkit__file_read(&text, NULL, path, 64)) {
        snprintf(buf, size, "%.*s", (int)strcspn(text, " \t\r\n"), text);
        free(text);
    }
}

/* One line of the recipe into out; 0, or the exit status. */
static int recipe_line(ortkit__strv *out, const cli_opt *opts, const char *file, int line_no,
                       char *line, const char *datadir, const char *version)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    char *name = line + strspn(line, " \t");
    if (!*name || *name == '\n')
        return 0;
    size_t n = strcspn(name, " \t\n");
    char *value = name + n + strspn(name + n, " \t");
    name[n] = '\0';
    value[strcspn(value, "\n")] = '\0';
    for (size_t end = strlen(value); end && (value[end - 1] == ' ' || value[end - 1] == '\t');)
        value[--end] = '\0';
    int takes_value = 0;
    if (!known_option(opts, name, &takes_value))
        return cli_fail("recipe %s, line %d: '%s' is not an option a recipe may set (see 'ortkit "
                        "build --help'; a recipe does not name the source, variant or build "
                        "directory)", file, line_no, name);
    if (takes_value != (*value != '\0'))
        return cli_fail("recipe %s, line %d: --%s %s", file, line_no, name,
                        takes_value ? "wants a value" : "takes no value");
    if (ortkit__strv_pushf(out, "%s%s", name[1] ? "--" : "-", name))
        return cli_fail("out of memory");
    int rc = takes_value ? substitute(out, value, datadir, version) : 0;
    if (rc == -1)
        return cli_fail("recipe %s, line %d: '%s' names %s, which is not known here%s", file,
                        line_no, value, strstr(value, "@VERSION@") ? "the source's version" : "ortkit's data directory",
                        strstr(value, "@VERSION@") ? ": give --source DIR" : "");
    return rc ? cli_fail("out of memory") : 0;
}

static int find_recipe(char *path, size_t size, char *datadir, size_t dsize, const char *name)
{
    char file[256];
    /* The data directory, for @DATADIR@: where the tool's share/ortkit is. */
    if (cli_self_find(datadir, dsize, ORTKIT_DATA_DIRS, "recipes"))
        datadir[0] = '\0';
    else
        datadir[strlen(datadir) - strlen("/recipes")] = '\0';
    if (strchr(name, '/'))
        return snprintf(path, size, "%s", name) < (int)size ? 0 : -1;
    if (snprintf(file, sizeof file, "%s.recipe", name) >= (int)sizeof file || !datadir[0] ||
        ortkit__pathf(path, size, "%s/recipes/%s", datadir, file))
        return -1;
    return 0;
}

int build_recipe_expand(ortkit__strv *out, const cli_opt *opts, int argc, char **argv)
{
    const char *name = arg_value(argc, argv, "recipe");
    if (!name)
        return 0;
    char path[PATH_MAX], datadir[PATH_MAX], version[64], *text = NULL;
    if (find_recipe(path, sizeof path, datadir, sizeof datadir, name))
        return cli_fail("no recipe '%s' is installed with ortkit (%s%s): name one of those, "
                        "or a recipe file by its path (./NAME.recipe)", name,
                        datadir[0] ? datadir : "no share/ortkit/recipes beside the tool",
                        datadir[0] ? "/recipes" : "");
    if (!strchr(name, '/') && access(path, F_OK) != 0)
        return cli_fail("no recipe '%s' is installed with ortkit (%s/recipes holds those that "
                        "are: debian11, debian13, ...): name one of those, or a recipe file by "
                        "its path (./NAME.recipe)", name, datadir);
    if (ortkit__file_read(&text, NULL, path, 1 << 16))
        return cli_fail("recipe '%s': %s", name, ortkit__error_message());
    source_version(version, sizeof version, argc, argv);
    int rc = ortkit__strv_push(out, argv[0]) ? cli_fail("out of memory") : 0;
    int line_no = 0;
    for (char *line = text; !rc && line && *line; line_no++) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        rc = recipe_line(out, opts, path, line_no + 1, line, datadir, version);
        line = next;
    }
    free(text);
    /* The command line after the recipe, without --recipe. */
    for (int i = 1; !rc && i < argc; i++) {
        if (!strcmp(argv[i], "--recipe")) {
            i++;
            continue;
        }
        if (!strncmp(argv[i], "--recipe=", 9))
            continue;
        if (ortkit__strv_push(out, argv[i]))
            rc = cli_fail("out of memory");
    }
    if (rc)
        ortkit__strv_free(out);
    return rc;
}
