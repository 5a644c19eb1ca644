/* bundle_arg.c - a BUNDLE argument: a bundle's directory, else the name of a
 * bundle the search finds ('ortkit bundle list'). */
#include "bundle_arg.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int bundle_open_named(ortkit_bundle **out, const char *what)
{
    struct stat st;
    if (stat(what, &st) == 0 || strchr(what, '/'))
        return ortkit_bundle_open(out, what) ? cli_fail_lib() : CLI_OK;
    ortkit_bundle_list *l = NULL;
    if (ortkit_bundle_list_open(&l) != 0)
        return cli_fail_lib();
    int rc = -1;
    for (size_t i = 0; rc < 0 && i < ortkit_bundle_list_count(l); i++) {
        const ortkit_bundle_entry *e = ortkit_bundle_list_get(l, i);
        if (!strcmp(e->name, what))
            rc = ortkit_bundle_open(out, e->dir) ? cli_fail_lib() : CLI_OK;
    }
    ortkit_bundle_list_free(l);
    if (rc < 0)
        rc = cli_fail("no bundle '%s': not a directory, and 'ortkit bundle list' finds no bundle "
                      "of that name", what);
    return rc;
}

char *bundle_dir_named(const char *what)
{
    struct stat st;
    if (stat(what, &st) == 0 || strchr(what, '/'))
        return ortkit__strdup(what);
    ortkit_bundle_list *l = NULL;
    char *dir = NULL;
    if (ortkit_bundle_list_open(&l) == 0)
        for (size_t i = 0; !dir && i < ortkit_bundle_list_count(l); i++)
            if (!strcmp(ortkit_bundle_list_get(l, i)->name, what))
                dir = ortkit__strdup(ortkit_bundle_list_get(l, i)->dir);
    ortkit_bundle_list_free(l);
    return dir ? dir : ortkit__strdup(what);
}
