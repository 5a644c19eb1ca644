#!/bin/sh
# check_exports.sh LIBRARY INCLUDE_DIR WING: a shared library of ortkit
# exports exactly the functions its public headers declare with ORTKIT_API,
# each under its version node, and nothing else.
#   runtime: libortkit.so; include/ortkit/*.h (not tools/) under ORTKIT_0.1,
#            and internals (ortkit__*) only under ORTKIT_PRIVATE_<release>,
#            for ortkit's own binaries (src/runtime/libortkit.map.in);
#   tools:   libortkit-tools.so; include/ortkit/tools/*.h under ORTKIT_TOOLS_0.1.
# A function declared but not exported (defined without seeing its
# declaration, or not at all), or exported but not declared, fails the test.
set -eu
lib=$1
include=$2
wing=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/ortkit-exports.XXXXXX")
trap 'rm -rf "$work"' EXIT

case $wing in
runtime) headers=$(find "$include" -name '*.h' ! -path '*/ortkit/tools/*'); node=ORTKIT_0.1 ;;
tools) headers=$(find "$include/ortkit/tools" -name '*.h'); node=ORTKIT_TOOLS_0.1 ;;
*) echo "usage: check_exports.sh LIBRARY INCLUDE_DIR runtime|tools" >&2; exit 2 ;;
esac

# Every declaration starts a line with ORTKIT_API and names the function
# before its first "(" on that line.
# shellcheck disable=SC2086 # header paths hold no spaces
grep -h '^ORTKIT_API' $headers | sed 's/(.*//; s/.*[ *]//' | sort -u >"$work/declared"
[ -s "$work/declared" ] || { echo "FAIL: no ORTKIT_API declarations in the $wing headers" >&2; exit 1; }

# Defined dynamic symbols but the version nodes themselves (absolute symbols).
nm -D --defined-only "$lib" | awk '$2 != "A" { print $3 }' | sort -u >"$work/exported"
grep "@@$node\$" "$work/exported" | sed 's/@@.*//' >"$work/names" || true
grep -v "@@$node\$" "$work/exported" >"$work/other" || true
if [ "$wing" = runtime ]; then
    # The internals: only ortkit__ names, only under the private node.
    grep -v '^ortkit__[A-Za-z0-9_]*@@ORTKIT_PRIVATE_[0-9.]*$' "$work/other" >"$work/stray" || true
    private=$(grep -c . "$work/other" || true)
else
    cp "$work/other" "$work/stray"
    private=0
fi
if [ -s "$work/stray" ]; then
    echo "FAIL: exported outside $node$( [ "$wing" = runtime ] && echo ' and the private node'):" >&2
    cat "$work/stray" >&2
    exit 1
fi

if ! diff -u "$work/declared" "$work/names" >"$work/diff"; then
    echo "FAIL: exports differ from the headers ('-' declared only, '+' exported only):" >&2
    sed -n '/^[-+][^-+]/p' "$work/diff" >&2
    exit 1
fi
echo "ok: $(wc -l <"$work/names") functions exported under $node, as declared; $private internals under the private node"
