#!/bin/sh
# README's C recipe, word for word, against an installed prefix: install
# into a fresh prefix, set PKG_CONFIG_PATH as README says for a prefix
# pkg-config does not search, build prog.c (examples/hello.c) with the
# command README gives, and run the program with nothing else set: no
# LD_LIBRARY_PATH, no -Wl,-rpath of our own.
# Usage: readme_recipe.sh BUILD_DIR SOURCE_DIR (MODELS: the test models)
set -eu
build=$1
src=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/ortkit-recipe.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
# The command exactly as README writes it, and its note on PKG_CONFIG_PATH.
# shellcheck disable=SC2016 # the literal text README shows
recipe=$(grep -o 'cc prog\.c \$(pkg-config --cflags --libs ortkit)' "$src/README.md" | head -n 1)
[ -n "$recipe" ] || { echo "FAIL: README.md no longer gives 'cc prog.c \$(pkg-config --cflags --libs ortkit)'" >&2; exit 1; }
grep -q 'PKG_CONFIG_PATH=PREFIX/lib/pkgconfig' "$src/README.md" ||
    { echo "FAIL: README.md does not say how pkg-config finds a prefix (PKG_CONFIG_PATH=PREFIX/lib/pkgconfig)" >&2; exit 1; }
cp "$src/examples/hello.c" "$work/prog.c"
cd "$work"
unset LD_LIBRARY_PATH LIBRARY_PATH C_INCLUDE_PATH CPATH
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
echo "+ $recipe"
sh -c "$recipe"
echo "+ ./a.out add.onnx"
./a.out "$MODELS/add.onnx"
