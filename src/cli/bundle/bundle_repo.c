/* bundle_repo.c - what the repository subcommands (keygen, publish, install) share. */
#include "bundle_repo.h"
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

char *bundle_read_password(const char *path)
{
    char *text = NULL;
    size_t size = 0;
    if (ortkit__file_read(&text, &size, path, 4096) != 0) {
        cli_fail("cannot read the password: %s", ortkit__error_message());
        return NULL;
    }
    text[strcspn(text, "\r\n")] = '\0';
    if (!text[0]) {
        free(text);
        cli_fail("'%s' holds no password on its first line", path);
        return NULL;
    }
    return text;
}

void bundle_format_time(char out[32], int64_t t)
{
    time_t tt = (time_t)t;
    struct tm tm;
    if (!gmtime_r(&tt, &tm) || !strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm))
        snprintf(out, 32, "?");
}
