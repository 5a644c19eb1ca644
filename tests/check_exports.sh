#!/bin/sh
# check_exports.sh LIBORTKIT INCLUDE_DIR: libortkit.so exports exactly the
# functions its public headers declare with ORTKIT_API, each under the
# version node of src/lib/libortkit.map.  A function declared but not
# exported (defined without seeing its declaration, or not at all), or
# exported but not declared, fails the test.
set -eu
lib=$1
include=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/ortkit-exports.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Every declaration starts a line with ORTKIT_API and names the function
# before its first "(" on that line.
find "$include" -name '*.h' -exec grep -h '^ORTKIT_API' {} + |
    sed 's/(.*//; s/.*[ *]//' | sort -u >"$work/declared"
[ -s "$work/declared" ] || { echo "FAIL: no ORTKIT_API declarations under $include" >&2; exit 1; }

# Defined dynamic symbols but the version node itself (an absolute symbol).
nm -D --defined-only "$lib" | awk '$2 != "A" { print $3 }' | sort -u >"$work/exported"
if grep -v '@@ORTKIT_0\.1$' "$work/exported" >"$work/unversioned"; then
    echo "FAIL: exported without the version ORTKIT_0.1:" >&2
    cat "$work/unversioned" >&2
    exit 1
fi
sed 's/@@.*//' "$work/exported" >"$work/names"

if ! diff -u "$work/declared" "$work/names" >"$work/diff"; then
    echo "FAIL: exports differ from the headers ('-' declared only, '+' exported only):" >&2
    sed -n '/^[-+][^-+]/p' "$work/diff" >&2
    exit 1
fi
echo "ok: $(wc -l <"$work/names") functions exported, as declared"
