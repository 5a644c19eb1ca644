#!/bin/sh
# Run one golden CLI test (a .t file: a POSIX sh script) in a scratch directory.
# The .t file sees ORTKIT, MODELS, STUBS, RT_NEW, RT_OLD, APP_MODEL, SRC and
# the helpers below; it fails by exiting non-zero.
set -eu
test_file=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/ortkit-cli.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

# expect_exit CODE CMD...: run CMD, keep stdout in ./out and stderr in ./err,
# and fail unless it exits with CODE.
expect_exit() {
    want=$1; shift
    set +e
    "$@" >out 2>err
    got=$?
    set -e
    if [ "$got" != "$want" ]; then
        echo "FAIL: '$*' exited $got, expected $want" >&2
        echo "--- stdout" >&2; cat out >&2
        echo "--- stderr" >&2; cat err >&2
        exit 1
    fi
}

# expect_in FILE TEXT: fail unless FILE contains TEXT (a fixed string).
expect_in() {
    if ! grep -qF -- "$2" "$1"; then
        echo "FAIL: '$1' lacks: $2" >&2
        echo "--- $1" >&2; cat "$1" >&2
        exit 1
    fi
}

# expect_not_in FILE TEXT: fail if FILE contains TEXT (a fixed string).
expect_not_in() {
    if grep -qF -- "$2" "$1"; then
        echo "FAIL: '$1' has what it should not: $2" >&2
        echo "--- $1" >&2; cat "$1" >&2
        exit 1
    fi
}

# expect_lines FILE N: fail unless FILE has exactly N lines.
expect_lines() {
    n=$(wc -l <"$1")
    if [ "$n" -ne "$2" ]; then
        echo "FAIL: '$1' has $n lines, expected $2" >&2; cat "$1" >&2
        exit 1
    fi
}

# expect_same FILE: fail unless stdin equals FILE byte for byte.
expect_same() {
    if ! cat | diff -u "$1" - >&2; then
        echo "FAIL: output differs from $1" >&2
        exit 1
    fi
}

. "$test_file"
echo "ok: $(basename "$test_file")"
