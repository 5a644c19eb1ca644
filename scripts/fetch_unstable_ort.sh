#!/bin/sh
# fetch_unstable_ort.sh - fetch Debian unstable's libonnxruntime1.23 (an ONNX
# Runtime built for a newer glibc than Debian 12's, with a dozen system
# libraries it does not carry) into the download cache, for the tests that
# import a library without loading it.  Downloaded, never installed;
# idempotent: a .deb already in the cache is kept.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/fetch.sh
. "$here/scripts/lib/fetch.sh"
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
apt_list "$cache/../apt-unstable-main" "deb unstable main"
say "fetching $PACKAGE=$VERSION from Debian unstable"
apt_get update -qq
tmp=$(mktemp -d "$cache/deb.XXXXXX")
if ! apt_download "$tmp" "$PACKAGE=$VERSION"; then
    rm -rf "$tmp"
    say "cannot download $PACKAGE=$VERSION (Debian unstable may have moved on: set ORT_UNSTABLE_VERSION)"
    exit 1
fi
mv "$tmp"/*.deb "$cache/$deb.part" && mv "$cache/$deb.part" "$cache/$deb"
rm -rf "$tmp"
say "ready: $cache/$deb"
