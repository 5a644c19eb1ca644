#!/bin/sh
# The test rust.find: ortkit-sys's build.rs finds libortkit through
# ORTKIT_DIR (a build directory, an installed prefix) and `pkg-config
# ortkit`, links and runs against what it found (the layout test, which also
# compiles against the headers found beside it), and fails saying where it
# looked when nothing is there.  Usage: bindings/rust/check_find.sh BUILD_DIR
# Skipped (77) without cargo (cargo_env.sh).
set -eu
[ $# -eq 1 ] || { echo "usage: check_find.sh BUILD_DIR" >&2; exit 2; }
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=cargo_env.sh
. "$here/cargo_env.sh"
# A target directory of its own: the found library changes how ortkit-sys links.
export CARGO_TARGET_DIR="$build/cargo-find"
prefix="$build/rust-prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
unset ORTKIT_DIR PKG_CONFIG_PATH
mkdir -p "$CARGO_TARGET_DIR"
out="$CARGO_TARGET_DIR/check_find.out"
cd "$here"

fail() { echo "FAIL: $*" >&2; exit 1; }

# found EXPECTED ENV...: the layout test builds, links and passes with ENV,
# and the build script says it found the library by EXPECTED.
found() {
    want=$1; shift
    env "$@" "$cargo" test --offline -q -p ortkit-sys --test layout >"$out" 2>&1 || { cat "$out" >&2; fail "with $*"; }
    got=$(sed -n 's/^cargo:found_by=//p' "$(ls -t "$CARGO_TARGET_DIR"/debug/build/ortkit-sys-*/output | head -n 1)")
    [ "$got" = "$want" ] || fail "with $*: found by '$got', expected '$want'"
    echo "ok: $* -> $got"
}

found "ORTKIT_DIR=$build (a build directory)" ORTKIT_DIR="$build"
found "ORTKIT_DIR=$prefix (an installed prefix)" ORTKIT_DIR="$prefix"
found "pkg-config ortkit" PKG_CONFIG_PATH="$prefix/lib/pkgconfig"

# A wrong ORTKIT_DIR is an error, never a fall-back to another copy.
if env ORTKIT_DIR=/nonexistent/ortkit PKG_CONFIG_PATH="$prefix/lib/pkgconfig" \
    "$cargo" build --offline -q -p ortkit-sys >"$out" 2>&1; then
    fail "ORTKIT_DIR=/nonexistent/ortkit was accepted"
fi
grep -q "ORTKIT_DIR=/nonexistent/ortkit is not a directory; with ORTKIT_DIR set, nothing else is looked at" "$out" ||
    { cat "$out" >&2; fail "no clear message for a wrong ORTKIT_DIR"; }
echo "ok: ORTKIT_DIR=/nonexistent/ortkit -> refused"
if env ORTKIT_DIR=build "$cargo" build --offline -q -p ortkit-sys >"$out" 2>&1; then
    fail "a relative ORTKIT_DIR was accepted"
fi
grep -q "ORTKIT_DIR=build is relative, and cargo runs build scripts in the package's directory" "$out" ||
    { cat "$out" >&2; fail "no clear message for a relative ORTKIT_DIR"; }
echo "ok: ORTKIT_DIR=build -> refused: relative"

# A path cargo's directives cannot carry is refused (issue 36: a newline in
# ORTKIT_DIR injected rustc-link-args, a comma would split -Wl,-rpath).
for evil in "$build/rust-nl
cargo:rustc-link-arg=-Wl,--version" "$build/rust-comma,--version"; do
    rm -rf "$evil"
    mkdir -p "$evil/lib"
    ln -s "$prefix/lib/libortkit.so" "$evil/lib/libortkit.so"
    if env ORTKIT_DIR="$evil" "$cargo" build --offline -q -p ortkit-sys >"$out" 2>&1; then
        rm -rf "$evil"
        fail "ORTKIT_DIR with a newline or comma was accepted"
    fi
    rm -rf "$evil"
    grep -q "ortkit-sys: the library's directory .* which cargo's directives cannot carry" "$out" ||
        { cat "$out" >&2; fail "no clear message for an ORTKIT_DIR cargo cannot carry"; }
done
echo "ok: ORTKIT_DIR with a newline or a comma -> refused"

# Nothing anywhere: every place looked at is named (unless this machine has
# ortkit installed in a system prefix, which is then found).
if ls /usr/local/lib/libortkit.so /usr/lib/*/libortkit.so /usr/lib/libortkit.so >/dev/null 2>&1; then
    echo "ok: not checking the failure without a library: ortkit is installed on this machine"
    exit 0
fi
if env PKG_CONFIG_PATH=/nonexistent PKG_CONFIG_LIBDIR=/nonexistent ORTKIT_SYS_NO_CLONE_BUILD=1 \
    "$cargo" build --offline -q -p ortkit-sys >"$out" 2>&1; then
    fail "a build without any libortkit succeeded"
fi
for line in "ortkit-sys: cannot find libortkit (libortkit.so). Looked at:" "pkg-config ortkit: 'pkg-config' knows no package 'ortkit'" \
    "/usr/local/lib: no libortkit.so" "Set ORTKIT_DIR to ortkit's install prefix"; do
    grep -qF "$line" "$out" || { cat "$out" >&2; fail "the message lacks '$line'"; }
done
echo "ok: no libortkit anywhere -> refused, naming every place"
sed -n '/--- stderr/,$p' "$out" | sed '1d; s/^/    /'
