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
# said.
#
# usage: scripts/fetch_dep_sources.sh [DIR]   (default deps/ort-deps-1.21.0)
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
deps="${ORTKIT_DEPS:-$here/deps}"
out="${1:-$deps/ort-deps-1.21.0}"
cache="${ORTKIT_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/ortkit}/downloads"
mirror=http://deb.debian.org/debian
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
safeint trixie libsafeint-dev.deb 3.0.28a+dfsg-4 3.0.28a"

apt_opts() { # suite -> apt-get options for a private sources list of that suite (updated once)
    d="$deps/apt-$1-src"
    if [ ! -e "$d/.updated" ]; then
        mkdir -p "$d/lists/partial"
        { echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $1 main"
          echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $1 main"; } >"$d/sources.list"
        apt-get -o Dir::Etc::SourceList="$d/sources.list" -o Dir::Etc::SourceParts=/dev/null \
            -o Dir::State::Lists="$d/lists" -o APT::Sandbox::User=root update -qq >&2 && touch "$d/.updated"
    fi
    echo "-o Dir::Etc::SourceList=$d/sources.list -o Dir::Etc::SourceParts=/dev/null
          -o Dir::State::Lists=$d/lists -o APT::Sandbox::User=root -o APT::Architecture=amd64"
}

fetch() { # suite package debian-version -> the orig tarball's (or .deb's) path in the cache
    up=${3%-*}
    case $2 in
    *.deb) pat="${2%.deb}_${3}_"'*.deb' ;;
    *) pat="${2}_${up}.orig.tar."'*' ;;
    esac
    # shellcheck disable=SC2086
    f=$(ls "$cache"/$pat 2>/dev/null | head -n 1 || true)
    if [ -z "$f" ]; then
        opts=$(apt_opts "$1")
        say "fetching $2 $3 (Debian $1)"
        tmp=$(mktemp -d "$cache/src.XXXXXX")
        # shellcheck disable=SC2086
        case $2 in
        *.deb) (cd "$tmp" && apt-get $opts download "${2%.deb}=$3" >/dev/null 2>&1) || true ;;
        *) (cd "$tmp" && apt-get $opts source --download-only "$2=$3" >/dev/null 2>&1) || true ;;
        esac
        # shellcheck disable=SC2086
        g=$(ls "$tmp"/$pat 2>/dev/null | head -n 1 || true)
        [ -n "$g" ] || { rm -rf "$tmp"; say "could not fetch $2 $3 from Debian $1"; exit 1; }
        mv "$g" "$cache/" && rm -rf "$tmp"
        f="$cache/$(basename "$g")"
    fi
    echo "$f"
}

# A sub-tree of a tarball (or of a .deb's files), repacked: NAME-VERSION.tar.gz
# with NAME-VERSION/ inside.
repack() { # archive member dest-base
    tmp=$(mktemp -d "$out/.repack.XXXXXX")
    case $1 in
    *.deb) dpkg-deb -x "$1" "$tmp/x" ;;
    *) tar -xf "$1" -C "$tmp" --wildcards "*/$2/*" ;;
    esac
    src=$(ls -d "$tmp"/*/"$2" | head -n 1)
    mv "$src" "$tmp/$3"
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
