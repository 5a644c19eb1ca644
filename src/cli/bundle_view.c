/* bundle_view.c - the bundle search as `ortkit bundle list` and `ortkit doctor` show it. */
#include "bundle_view.h"

const char *bundle_dir_state_name(ortkit_bundle_dir_state s)
{
    return s == ORTKIT_BUNDLE_DIR_OK ? "ok" : s == ORTKIT_BUNDLE_DIR_MISSING ? "missing" : "unreadable";
}

cJSON *bundle_dirs_json(const ortkit_bundle_list *l)
{
    cJSON *dirs = cJSON_CreateArray();
    for (size_t i = 0; dirs && i < ortkit_bundle_list_dir_count(l); i++) {
        const ortkit_bundle_dir *d = ortkit_bundle_list_dir(l, i);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "path", d->path);
        cJSON_AddStringToObject(o, "source", d->source);
        cJSON_AddStringToObject(o, "state", bundle_dir_state_name(d->state));
        cJSON_AddStringToObject(o, "note", d->note);
        cJSON_AddNumberToObject(o, "bundles", (double)d->bundle_count);
        cJSON_AddItemToArray(dirs, o);
    }
    return dirs;
}
