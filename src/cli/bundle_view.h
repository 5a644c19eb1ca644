/* bundle_view.h - how `ortkit bundle` and `ortkit doctor` show the bundle search. */
#ifndef ORTKIT_CLI_BUNDLE_VIEW_H
#define ORTKIT_CLI_BUNDLE_VIEW_H

#include "cli.h"

/* "ok", "missing" or "unreadable". */
const char *bundle_dir_state_name(ortkit_bundle_dir_state state);
/* Every directory searched, as a JSON array of {path, source, state, note, bundles}. */
cJSON *bundle_dirs_json(const ortkit_bundle_list *list);

#endif
