#!/bin/sh
# Build and run one example the way a user would: against an installed ortkit,
# found with pkg-config.  Usage: run_example.sh BUILD_DIR EXAMPLE.c
set -eu
build=$1
src=$2
name=$(basename "$src" .c)
prefix="$build/example-prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
work=$(mktemp -d "${TMPDIR:-/tmp}/ortkit-example.XXXXXX")
trap 'rm -rf "$work"' EXIT
# An example that links more than ortkit says what in a line "/* link: FLAGS */",
# with $ORT_INCLUDE and $ORT_LIB (set-up's ONNX Runtime headers and library).
flags=$(sed -n 's|^/\* link: \(.*\) \*/$|\1|p' "$src" | head -n 1)
eval "set -- $flags"
# shellcheck disable=SC2046
# shellcheck disable=SC2086
cc -std=c11 -Wall -Wextra -Werror ${EXAMPLE_CFLAGS:-} -o "$work/$name" "$src" "$@" \
    $(pkg-config --cflags --libs ortkit) -Wl,-rpath,"$prefix/lib"
# A program that only runs models links libortkit, never the tools wing's
# network, signature and archive libraries: checked on what the loader
# would map for it.
if linked=$(ldd "$work/$name" 2>&1); then
    if printf '%s\n' "$linked" | grep -E 'lib(curl|sodium|archive|ortkit-tools)\.so'; then
        echo "FAIL: $name, a program that only runs models, links the libraries above" >&2
        exit 1
    fi
    echo "$name links: $(printf '%s\n' "$linked" | sed -n 's/^[[:space:]]*\([^ ]*\.so[^ ]*\) .*/\1/p' | tr '\n' ' ')"
fi
# The first line of an example says how to run it: "/* run: ARGS */", with
# $MODELS (the test models) or $APP_MODEL (Silero VAD).
args=$(sed -n 's|^/\* run: \(.*\) \*/$|\1|p' "$src" | head -n 1)
eval "set -- $args"
cd "$work"
"./$name" "$@"
