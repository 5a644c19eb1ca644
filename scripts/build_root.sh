#!/bin/sh
# build_root.sh - the oldest environment that builds ONNX Runtime 1.21: a
# Debian 11 (bullseye) root, glibc 2.31 and GCC 10.2 (libstdc++ GLIBCXX_3.4.28).
#
# A library built here needs at most the glibc and libstdc++ of Debian 11 and
# Ubuntu 20.04, so it loads on them and everything newer (RHEL 9, Ubuntu
# 22.04/24.04, Amazon Linux 2023, Debian 12/13).  Why this root and not a
# newer one with -static-libstdc++: docs/BUILD.md, "Builds that ship".
#
#   1. debootstrap --variant=buildd bullseye, then the packages below;
#   2. CMake >= 3.28 (ONNX Runtime 1.21's minimum; bullseye has 3.18): built
#      in the root from Debian unstable's CMake 4.3.4 source (the one CMake
#      source the archive serves), once, and kept as a tarball in the download
#      cache for the next root.  CMake 4 no longer configures projects that
#      ask for CMake < 3.5 (some of ONNX Runtime's dependencies do): builds
#      pass CMAKE_POLICY_VERSION_MINIMUM=3.5, CMake's own switch for that;
#   3. ccache >= 4.7 with its Redis and HTTP back ends (bullseye's 4.2 has no
#      remote storage, which `ortkit build --cache-remote` needs): Debian
#      12's binary with its own libraries, below;
#   4. ortkit itself, built in the root against bullseye's libraries (so it
#      runs there: the host's needs glibc 2.34);
#   5. with ROOT_PYTHONS="3.11 3.13" (build_ort.sh's ORT_PYTHON): each CPython
#      built in the root from Debian's source (3.11 from Debian 12, 3.13 from
#      Debian 13; bullseye's own 3.9 is older than ONNX Runtime 1.21's 3.10),
#      once, into /opt/python3.X, kept as a tarball in the download cache.
#      ONNX Runtime's Python extension is compiled against its headers, and
#      the wheels are tried with it in this glibc 2.31 root.
# Debian's aarch64 cross compilers (GCC 10.2, arm64 glibc 2.31) are in the
# package list for aarch64 variants (docs/BUILD.md, "Another architecture").
#
# usage: scripts/build_root.sh [ROOT]     (default deps/bullseye-root; installed with
# ortkit as share/ortkit/root/build_root.sh, default $XDG_CACHE_HOME/ortkit/root/bullseye-root)
# Environment: ROOT_EXTRA_PACKAGES, more of bullseye's packages to install
# (build_ort.sh's ORT_COMPILER names its clang here); ROOT_PYTHONS, the
# CPythons to build (step 5).
# Prints the root's path on stdout when it is ready.  Idempotent.
set -eu

scripts=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/layout.sh
. "$scripts/lib/layout.sh"
root="${1:-$deps/bullseye-root}"
# shellcheck source=lib/fetch.sh
. "$scripts/lib/fetch.sh"
CMAKE_VERSION=4.3.4
PACKAGES="build-essential python3 python3-flatbuffers patch ninja-build ccache xz-utils ca-certificates file pkg-config
 patchelf libcjson-dev libprotobuf-c-dev protobuf-c-compiler libsodium-dev libcurl4-openssl-dev
 libarchive-dev libssl-dev gcc-aarch64-linux-gnu g++-aarch64-linux-gnu ${ROOT_EXTRA_PACKAGES:-}"
# What a CPython needs to build its modules (zlib for pip's wheels, ctypes, bz2, lzma).
[ -z "${ROOT_PYTHONS:-}" ] || PACKAGES="$PACKAGES zlib1g-dev libffi-dev libbz2-dev liblzma-dev"
say() { printf 'build-root: %s\n' "$*" >&2; }

[ "$(id -u)" = 0 ] || { say "needs root (debootstrap, chroot)"; exit 1; }
mkdir -p "$cache"

mounted=""
cleanup() { [ -z "$mounted" ] || umount "$root/proc" 2>/dev/null || true; }
trap cleanup EXIT INT TERM

if [ ! -x "$root/usr/bin/apt-get" ] || [ ! -e "$root/.debootstrap-done" ]; then
    say "debootstrap --variant=buildd bullseye $root (a few minutes)"
    rm -rf "$root" && mkdir -p "$root"
    debootstrap --variant=buildd bullseye "$root" "$debian_mirror" >"$deps/debootstrap-bullseye.log" 2>&1 ||
        { say "debootstrap failed; see $deps/debootstrap-bullseye.log"; exit 1; }
    touch "$root/.debootstrap-done"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
mountpoint -q "$root/proc" || { mount -t proc proc "$root/proc" && mounted=1; }

in_root() { chroot "$root" env -i PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }

# shellcheck disable=SC2086 # a list of names
missing=$(in_root sh -s -- $PACKAGES <"$scripts/lib/missing_packages.sh")
if [ -n "$missing" ]; then
    say "installing in the root:$missing"
    in_root sh -c "export DEBIAN_FRONTEND=noninteractive; apt-get update -qq &&
        apt-get install -y -qq --no-install-recommends $missing >/dev/null" ||
        { say "apt-get install failed in the root"; exit 1; }
fi

# ---- CMake ------------------------------------------------------------------
cmake_tgz="$cache/cmake-$CMAKE_VERSION-bullseye-x86_64.tar.gz"
if ! in_root sh -c "cmake --version 2>/dev/null | grep -q 'version $CMAKE_VERSION'"; then
    if [ ! -s "$cmake_tgz" ]; then
        src="cmake_$CMAKE_VERSION.orig.tar.gz"
        if [ ! -s "$cache/$src" ]; then
            say "fetching $src (Debian unstable)"
            apt_list "$deps/apt-unstable-cmake-src" "deb-src unstable main"
            apt_get update -qq
            apt_source "$cache" cmake
            [ -s "$cache/$src" ] || { say "could not fetch $src (Debian unstable may have moved on: set CMAKE_VERSION in $0)"; exit 1; }
        fi
        say "building CMake $CMAKE_VERSION in the root (once; about 10 minutes on 2 cores)"
        rm -rf "$root/tmp/cmake-src" && mkdir -p "$root/tmp/cmake-src"
        tar -xzf "$cache/$src" -C "$root/tmp/cmake-src" --strip-components=1
        in_root sh -c "cd /tmp/cmake-src && ./bootstrap --parallel=2 --prefix=/opt/cmake -- \
            -DCMAKE_USE_OPENSSL=OFF -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release >/tmp/cmake-bootstrap.log 2>&1 &&
            make -j2 >>/tmp/cmake-bootstrap.log 2>&1 && rm -rf /opt/cmake && make install >>/tmp/cmake-bootstrap.log 2>&1" ||
            { say "CMake's build failed; see $root/tmp/cmake-bootstrap.log"; exit 1; }
        tar -czf "$cmake_tgz.part" -C "$root/opt" cmake && mv "$cmake_tgz.part" "$cmake_tgz"
        rm -rf "$root/tmp/cmake-src"
    else
        rm -rf "$root/opt/cmake" && tar -xzf "$cmake_tgz" -C "$root/opt"
    fi
    for t in cmake ctest cpack; do ln -sf "/opt/cmake/bin/$t" "$root/usr/local/bin/$t"; done
fi

# ---- ccache -----------------------------------------------------------------
# Debian 12's ccache 4.7.5 (the archive serves no ccache source to build it
# here), with the Debian 12 glibc, libstdc++, hiredis and zstd it was linked
# against, under /opt/ccache: patchelf points the binary at that loader and
# those libraries (DT_RPATH, so it reaches their own dependencies too).  Only
# ccache's own process uses them; the compilers it runs are the root's.
# /usr/local/bin comes before bullseye's /usr/bin/ccache (4.2) in every PATH
# the builds use.
CCACHE_DEBS="ccache libc6 libstdc++6 libgcc-s1 libhiredis0.14 libzstd1"
if ! in_root sh -c "/usr/local/bin/ccache --version 2>/dev/null | grep -q 'redis-storage'"; then
    # shellcheck disable=SC2086 # a list of names
    missing=$(debs_missing $CCACHE_DEBS)
    if [ -n "$missing" ]; then
        say "fetching Debian 12's$missing"
        apt_list "$deps/apt-bookworm" "deb bookworm main"
        apt_get update -qq
        # shellcheck disable=SC2086 # a list of names
        apt_download "$cache" $missing || { say "could not fetch$missing from Debian 12"; exit 1; }
    fi
    x=$(mktemp -d)
    for p in $CCACHE_DEBS; do dpkg-deb -x "$(cached_deb "$p")" "$x"; done
    rm -rf "$root/opt/ccache" && mkdir -p "$root/opt/ccache/bin" "$root/opt/ccache/lib"
    cp "$x/usr/bin/ccache" "$root/opt/ccache/bin/"
    for l in ld-linux-x86-64.so.2 libc.so.6 libm.so.6 libstdc++.so.6 libgcc_s.so.1 libhiredis.so.0.14 libzstd.so.1; do
        f=$(find "$x" -name "$l" | head -n 1)
        [ -n "$f" ] || { say "Debian 12's packages have no $l"; exit 1; }
        cp -L "$f" "$root/opt/ccache/lib/$l"
    done
    rm -rf "$x"
    patchelf --set-interpreter /opt/ccache/lib/ld-linux-x86-64.so.2 --force-rpath --set-rpath /opt/ccache/lib \
        "$root/opt/ccache/bin/ccache"
    ln -sf /opt/ccache/bin/ccache "$root/usr/local/bin/ccache"
    in_root sh -c "/usr/local/bin/ccache --version | grep -q 'redis-storage'" ||
        { say "Debian 12's ccache does not run in the root"; exit 1; }
fi

# ---- ortkit, built in the root --------------------------------------------------
# Its own sources only (no build outputs, no deps/): a copy, so the root never
# writes into the checkout.
rm -rf "$root/opt/ortkit-src" && mkdir -p "$root/opt/ortkit-src"
if [ -n "$here" ]; then
    # What git tracks, and new files it does not ignore, as they are now.
    (cd "$here" && git ls-files -z --cached --others --exclude-standard | tar --null --ignore-failed-read -T - -cf -) |
        tar -xf - -C "$root/opt/ortkit-src"
else
    tar -xzf "$scripts/ortkit-src.tar.gz" -C "$root/opt/ortkit-src"
fi
# ONNX Runtime's C headers (ortkit compiles against them): set-up's, or those
# installed with ortkit.
[ -e "$ort_headers/onnxruntime_c_api.h" ] || { say "no ONNX Runtime headers in $ort_headers: run scripts/setup.sh"; exit 1; }
rm -rf "$root/opt/ort-headers" && mkdir -p "$root/opt/ort-headers" && cp -a "$ort_headers" "$root/opt/ort-headers/include"
# ONNX's .proto files (the decoders are generated from them): this host's
# python3-onnx, or those installed with ortkit.
mkdir -p "$root/opt/onnx-proto"
cp "$onnx_protos/onnx.proto" "$onnx_protos/onnx-data.proto" "$root/opt/onnx-proto/"
in_root sh -c 'cmake -S /opt/ortkit-src -B /opt/ortkit-build -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DORTKIT_TESTS=OFF -DORTKIT_ORT_INCLUDE_DIR=/opt/ort-headers/include \
        -DORTKIT_ONNX_PROTO=/opt/onnx-proto/onnx.proto -DORTKIT_ONNX_DATA_PROTO=/opt/onnx-proto/onnx-data.proto \
        -DCMAKE_INSTALL_PREFIX=/opt/ortkit >/tmp/ortkit-build.log 2>&1 &&
    cmake --build /opt/ortkit-build -j 2 >>/tmp/ortkit-build.log 2>&1 &&
    cmake --install /opt/ortkit-build >>/tmp/ortkit-build.log 2>&1' ||
    { say "ortkit does not build in the root; see $root/tmp/ortkit-build.log"; exit 1; }
# ---- CPythons (ROOT_PYTHONS) ------------------------------------------------
# Debian's source package of each (suite, version): the orig tarball is
# CPython's own release.  Built without optimisation passes (PGO would
# triple the time): they compile one extension and run tests, nothing more.
python_source() { # 3.X -> "suite debian-version"
    case $1 in
    3.11) echo "bookworm 3.11.2-6+deb12u8" ;;
    3.13) echo "trixie 3.13.5-2+deb13u5" ;;
    *) return 1 ;;
    esac
}
for py in ${ROOT_PYTHONS:-}; do
    where=$(python_source "$py") || { say "no Debian source known for CPython $py (3.11 and 3.13 are)"; exit 1; }
    suite=${where%% *} dver=${where#* }
    up=${dver%-*}
    if in_root sh -c "/opt/python$py/bin/python$py -c 'import zlib, ctypes' 2>/dev/null"; then continue; fi
    tgz="$cache/cpython-$up-bullseye-x86_64.tar.gz"
    if [ ! -s "$tgz" ]; then
        # The orig tarball, .xz or .gz (not its .asc signature).
        orig() {
            o=$(last_file "$1" "python${py}_$up.orig.tar.x" z)
            [ -n "$o" ] || o=$(last_file "$1" "python${py}_$up.orig.tar.g" z)
            [ -z "$o" ] || echo "$o"
        }
        src=$(orig "$cache")
        if [ -z "$src" ]; then
            say "fetching CPython $up's source (Debian $suite)"
            apt_list "$deps/apt-$suite-python-src" "deb-src $suite main"
            apt_get update -qq
            tmp=$(mktemp -d "$cache/src.XXXXXX")
            apt_source "$tmp" "python$py=$dver"
            src=$(orig "$tmp")
            [ -n "$src" ] || { rm -rf "$tmp"; say "could not fetch python$py $dver's source from Debian $suite"; exit 1; }
            mv "$src" "$cache/" && rm -rf "$tmp"
            src="$cache/$(basename "$src")"
        fi
        say "building CPython $up in the root (once; a few minutes on 2 cores)"
        rm -rf "$root/tmp/cpython-src" && mkdir -p "$root/tmp/cpython-src"
        tar -xf "$src" -C "$root/tmp/cpython-src" --strip-components=1
        in_root sh -c "cd /tmp/cpython-src && ./configure --prefix=/opt/python$py --with-ensurepip=install \
                >/tmp/cpython-build.log 2>&1 && make -j2 >>/tmp/cpython-build.log 2>&1 &&
            rm -rf /opt/python$py && make install >>/tmp/cpython-build.log 2>&1" ||
            { say "CPython $up's build failed; see $root/tmp/cpython-build.log"; exit 1; }
        tar -czf "$tgz.part" -C "$root/opt" "python$py" && mv "$tgz.part" "$tgz"
        rm -rf "$root/tmp/cpython-src"
    else
        rm -rf "$root/opt/python$py" && tar -xzf "$tgz" -C "$root/opt"
    fi
    in_root sh -c "/opt/python$py/bin/python$py -c 'import zlib, ctypes'" ||
        { say "CPython $py does not run in the root"; exit 1; }
done

touch "$root/.ortkit-root-ready"
echo "$root"
