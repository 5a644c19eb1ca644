#!/bin/sh
# fetch_unstable_ort.sh - fetch Debian unstable's libonnxruntime1.23 (an ONNX
# Runtime built for a newer glibc than Debian 12's, with a dozen system
# libraries it does not carry) into the download cache, for the tests that
# import a library without loading it.  Downloaded, never installed;
# idempotent: a .deb already in the cache is kept.
set -eu

cache="${ORTKIT_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/ortkit}/downloads"
PACKAGE="libonnxruntime1.23"
VERSION="${ORT_UNSTABLE_VERSION:-1.23.2+dfsg-6.1}"
say() { printf 'fetch-unstable-ort: %s\n' "$*" >&2; }

deb="${PACKAGE}_$(printf %s "$VERSION" | sed 's/:/%3a/')_amd64.deb"
mkdir -p "$cache"
if [ -s "$cache/$deb" ]; then
    say "ready: $cache/$deb"
    exit 0
fi
# A private sources list and lists directory under the cache: the system's
# apt state is not touched.
apt_dir="$cache/../apt-unstable-main"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian unstable main" \
    >"$apt_dir/sources.list"
opts="-o Dir::Etc::SourceList=$apt_dir/sources.list -o Dir::Etc::SourceParts=/dev/null
      -o Dir::State::Lists=$apt_dir/lists -o Dir::Cache::archives=$apt_dir/archives
      -o APT::Sandbox::User=root -o APT::Architecture=amd64"
say "fetching $PACKAGE=$VERSION from Debian unstable"
# shellcheck disable=SC2086
apt-get $opts update -qq
tmp=$(mktemp -d "$cache/deb.XXXXXX")
# shellcheck disable=SC2086
if ! (cd "$tmp" && apt-get $opts download "$PACKAGE=$VERSION" >/dev/null); then
    rm -rf "$tmp"
    say "cannot download $PACKAGE=$VERSION (Debian unstable may have moved on: set ORT_UNSTABLE_VERSION)"
    exit 1
fi
mv "$tmp"/*.deb "$cache/$deb.part" && mv "$cache/$deb.part" "$cache/$deb"
rm -rf "$tmp"
say "ready: $cache/$deb"
