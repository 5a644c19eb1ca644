#!/bin/sh
# Regenerate the expected outputs that tests/cli/expected.t compares byte for
# byte (tests/cli/expected/: every --help, `ortkit host --load` of described
# hosts, `ortkit variants`).  Run it after a deliberate change to one of them,
# then review `git diff tests/cli/expected`:
#     tests/cli/regen_expected.sh [BUILD_DIR]     (default: build)
# BUILD_DIR must be a build of this source tree; it is brought up to date first.
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
if [ ! -f "$build/CMakeCache.txt" ]; then
    echo "regen_expected.sh: '$build' is not a build directory (configure and build first)" >&2
    exit 2
fi
home=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
if [ "$(cd "$home" && pwd)" != "$src" ]; then
    echo "regen_expected.sh: '$build' builds $home, not $src" >&2
    exit 2
fi
cmake --build "$build" --target ortkit_cli
# Files of cases that no longer exist go too.
rm -rf "$src/tests/cli/expected"
ORTKIT_REGEN_EXPECTED=1 ctest --test-dir "$build" -R '^cli\.expected$' --output-on-failure
echo "regen_expected.sh: wrote $src/tests/cli/expected; review it with 'git diff'"
