#!/bin/sh
# fetch_dep_sources.sh - the sources of ONNX Runtime 1.21.0's third-party
# dependencies, for `ortkit build --deps DIR`, from Debian's packages
# (ONNX Runtime's own build downloads them from its deps.txt URLs; a machine
# that reaches only Debian's archive takes Debian's sources of them).
#
# Each orig tarball is fetched once into the download cache with a private
# sources list (`apt-get source --download-only`), then laid out in DIR under
# the names `ortkit build --deps` maps to cmake/deps.txt: NAME-VERSION.EXT, with
# NAME deps.txt's and VERSION upstream's, and beside each a NAME-VERSION.EXT.origin
# line saying where it came from.  Three are cut out of something larger:
# Boost.Mp11 (libs/mp11 of boost1.83), SafeInt (libsafeint-dev's headers) and
# utf8_range (protobuf's third_party/utf8_range), repacked with their origin
# said.  pybind11 and dlpack, used only by builds with the Python package
# (--python), are header-only and their sources are not served: the headers
# of pybind11-dev and libdlpack-dev, each with a CMakeLists.txt of ortkit's
# that makes the targets ONNX Runtime links (scripts/ort/NAME.cmake).
#
# usage: scripts/fetch_dep_sources.sh [DIR]   (default deps/ort-deps-1.21.0)
set -eu

scripts=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/layout.sh
. "$scripts/lib/layout.sh"
out="${1:-$deps/ort-deps-1.21.0}"
# shellcheck source=lib/fetch.sh
. "$scripts/lib/fetch.sh"
say() { printf 'dep-sources: %s\n' "$*" >&2; }

# deps.txt name | suite | Debian package (source, or a binary .deb where the
# archive serves no source for it) | its Debian version | upstream version.
# cpuinfo's trixie source is not served; unstable's is.  SafeInt's source is
# served by no suite: it is header-only, and libsafeint-dev's headers are it.
SOURCES="abseil_cpp trixie abseil 20240722.0-4 20240722.0
protobuf trixie protobuf 3.21.12-11+deb13u1 3.21.12
onnx trixie onnx 1.17.0-3 1.17.0
re2 trixie re2 20240702-3 2024-07-02
flatbuffers trixie flatbuffers 23.5.26+dfsg-4 23.5.26
json trixie nlohmann-json3 3.11.3-2.1 3.11.3
eigen trixie eigen3 3.4.0-5 3.4.0
date trixie howardhinnant-date 3.0.3+ds-2 3.0.3
pytorch_cpuinfo unstable cpuinfo 0.0~git20250905.877328f-1 877328f
microsoft_gsl trixie ms-gsl 4.0.0-3.1 4.0.0
mp11 trixie boost1.83 1.83.0-4.2 1.83.0
safeint trixie libsafeint-dev.deb 3.0.28a+dfsg-4 3.0.28a
pybind11 trixie pybind11-dev.deb 2.13.6-2 2.13.6
dlpack bookworm libdlpack-dev.deb 0.6-1+b1 0.6"

use_suite() { # suite: apt_get on a private state for its sources and packages, updated once
    apt_dir="$deps/apt-$1-src"
    [ -e "$apt_dir/.updated" ] && return 0
    apt_list "$apt_dir" "deb-src $1 main" "deb $1 main"
    if apt_get update -qq >&2; then touch "$apt_dir/.updated"; fi
}

fetch() { # suite package debian-version -> the orig tarball's (or .deb's) path in the cache
    up=${3%-*}
    case $2 in
    *.deb) prefix="${2%.deb}_${3}_" suffix=.deb ;;
    *) prefix="${2}_${up}.orig.tar." suffix="" ;;
    esac
    f=$(last_file "$cache" "$prefix" "$suffix")
    if [ -z "$f" ]; then
        use_suite "$1"
        say "fetching $2 $3 (Debian $1)"
        tmp=$(mktemp -d "$cache/src.XXXXXX")
        case $2 in
        *.deb) apt_download "$tmp" "${2%.deb}=$3" 2>/dev/null || true ;;
        *) apt_source "$tmp" "$2=$3" ;;
        esac
        g=$(last_file "$tmp" "$prefix" "$suffix")
        [ -n "$g" ] || { rm -rf "$tmp"; say "could not fetch $2 $3 from Debian $1"; exit 1; }
        mv "$g" "$cache/" && rm -rf "$tmp"
        f="$cache/$(basename "$g")"
    fi
    echo "$f"
}

# A sub-tree of a tarball (or of a .deb's files), repacked: NAME-VERSION.tar.gz
# with NAME-VERSION/ inside (with CMAKELISTS as its CMakeLists.txt, and the
# sub-tree as include/, when one is given).
repack() { # archive member dest-base [cmakelists]
    tmp=$(mktemp -d "$out/.repack.XXXXXX")
    case $1 in
    *.deb) dpkg-deb -x "$1" "$tmp/x" ;;
    *) tar -xf "$1" -C "$tmp" --wildcards "*/$2/*" ;;
    esac
    for src in "$tmp"/*/"$2"; do break; done
    if [ -n "${4:-}" ]; then
        mkdir -p "$tmp/$3" && mv "$src" "$tmp/$3/include" && cp "$4" "$tmp/$3/CMakeLists.txt"
    else
        mv "$src" "$tmp/$3"
    fi
    tar -czf "$out/$3.tar.gz.part" -C "$tmp" "$3" && mv "$out/$3.tar.gz.part" "$out/$3.tar.gz"
    rm -rf "$tmp"
}

mkdir -p "$out" "$cache"
echo "$SOURCES" | while read -r name suite pkg dver up; do
    orig=$(fetch "$suite" "$pkg" "$dver")
    sha=$(sha256sum "$orig" | cut -d' ' -f1)
    what="source package ${pkg%.deb}"
    case $pkg in *.deb) what="binary package ${pkg%.deb}" ;; esac
    origin="Debian $suite $what $dver: $(basename "$orig") (sha256 $sha)"
    case $name in
    mp11 | safeint)
        dest="$name-$up.tar.gz"
        member=libs/mp11
        [ "$name" = safeint ] && member=usr/include/safeint
        [ -s "$out/$dest" ] || repack "$orig" "$member" "$name-$up"
        origin="$member of $origin"
        ;;
    pybind11 | dlpack)
        dest="$name-$up.tar.gz"
        [ -s "$out/$dest" ] || repack "$orig" usr/include "$name-$up" "$scripts/ort/$name.cmake"
        origin="usr/include of $origin, with scripts/ort/$name.cmake as its CMakeLists.txt"
        ;;
    *)
        ext=${orig##*.orig.}
        dest="$name-$up.$ext"
        [ -s "$out/$dest" ] || { cp "$orig" "$out/$dest.part" && mv "$out/$dest.part" "$out/$dest"; }
        ;;
    esac
    echo "$origin" >"$out/$dest.origin"
    # protobuf 3.21.12 carries the utf8_range sources that ONNX Runtime also
    # declares (it uses their headers; without a CMakeLists.txt, FetchContent
    # adds nothing to build).
    if [ "$name" = protobuf ]; then
        u="utf8_range-protobuf-$up"
        [ -s "$out/$u.tar.gz" ] || repack "$orig" third_party/utf8_range "$u"
        echo "third_party/utf8_range of $origin" >"$out/$u.tar.gz.origin"
    fi
done
say "ready: $out"
echo "$out"
