#!/bin/sh
# build_ort.sh - build a real ONNX Runtime 1.21.0 with `ortkit build`.
#
# ONNX Runtime 1.21 needs CMake >= 3.28 and build dependencies that only
# Debian trixie has, so the build runs in a trixie chroot:
#   1. the source: trixie's orig tarball, fetched with `apt-get source
#      --download-only` through a private sources list (the .dsc and Debian's
#      own patches are not served, only the tarball);
#   2. the chroot: `debootstrap --variant=buildd trixie`, then
#      `apt-get build-dep onnxruntime` inside it;
#   3. ortkit itself, installed into the chroot (it runs there unchanged: it
#      needs only glibc, libcjson and libprotobuf-c);
#   4. `ortkit build` inside the chroot, with ortkit's patch set for 1.21.0
#      and CMake package shims for Debian's protobuf and re2 (which ship no
#      CMake packages), then the bundle, `ortkit validate` and `ortkit bench`
#      inside the chroot (the library needs trixie's glibc and libraries).
#
# usage: scripts/build_ort.sh [--dry-run | --check | --patch-check | --compare]
#   --dry-run      stop after printing the plan (nothing compiled)
#   --check        stop after ortkit's pre-flight inside the chroot
#   --patch-check  stop after checking that the patch set applies
#   --compare      only step 5: the built bundle against the npm runtime
# Environment: VARIANT (cpu-avx2; cpu-x86-64 for the generic build, any name of
# `ortkit variants`), ORTKIT_BUILD_FLAGS (extra `ortkit build` options).
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
deps="${ORTKIT_DEPS:-$here/deps}"
mode=${1:-build}
variant=${VARIANT:-cpu-avx2}
ort_version=1.21.0
root="$deps/trixie-root"
src_dir="$deps/ort-src"
tarball="onnxruntime_${ort_version}+dfsg.orig.tar.xz"
patches="$here/patches/onnxruntime-$ort_version"
say() { printf 'build-ort: %s\n' "$*" >&2; }

[ "$(id -u)" = 0 ] || { say "needs root (debootstrap, chroot, mount)"; exit 1; }
[ -x "$here/build/ortkit" ] || { say "build ortkit first (make build)"; exit 1; }

# ---- 1. the source tarball --------------------------------------------------
fetch_source() {
    [ -d "$src_dir/onnxruntime-$ort_version/cmake" ] && return 0
    apt_dir="$deps/apt-trixie-src"
    mkdir -p "$apt_dir/lists/partial" "$src_dir"
    echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" \
        >"$apt_dir/sources.list"
    opts="-o Dir::Etc::SourceList=$apt_dir/sources.list -o Dir::Etc::SourceParts=/dev/null
          -o Dir::State::Lists=$apt_dir/lists -o APT::Sandbox::User=root"
    if [ ! -s "$src_dir/$tarball" ]; then
        say "fetching $tarball"
        # shellcheck disable=SC2086
        apt-get $opts update -qq
        # The .dsc and the Debian patches are not served; the tarball is what we need.
        # shellcheck disable=SC2086
        (cd "$src_dir" && apt-get $opts source --download-only onnxruntime >/dev/null 2>&1 || true)
        [ -s "$src_dir/$tarball" ] || { say "could not fetch $tarball"; exit 1; }
    fi
    say "unpacking $tarball"
    tar -xJf "$src_dir/$tarball" -C "$src_dir"
}

# ---- 2. the trixie chroot ---------------------------------------------------
mounted=""
cleanup() { [ -n "$mounted" ] && umount "$root/proc" 2>/dev/null || true; }
trap cleanup EXIT INT TERM

make_chroot() {
    if [ ! -e "$root/.ortkit-ready" ]; then
        if [ ! -x "$root/usr/bin/apt-get" ]; then
            say "debootstrap --variant=buildd trixie (about a minute)"
            mkdir -p "$root"
            debootstrap --variant=buildd trixie "$root" http://deb.debian.org/debian >"$deps/debootstrap.log" 2>&1 ||
                { say "debootstrap failed; see $deps/debootstrap.log"; exit 1; }
        fi
        grep -q '^deb-src' "$root/etc/apt/sources.list" ||
            echo 'deb-src http://deb.debian.org/debian trixie main' >>"$root/etc/apt/sources.list"
        cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
    fi
    mount -t proc proc "$root/proc" && mounted=1
    if [ ! -e "$root/.ortkit-ready" ]; then
        say "apt-get build-dep onnxruntime in the chroot"
        chroot "$root" sh -c 'export DEBIAN_FRONTEND=noninteractive
            apt-get update -qq && apt-get build-dep -y -qq onnxruntime >/dev/null &&
            apt-get install -y -qq --no-install-recommends libcjson1 libprotobuf-c1 patch patchelf >/dev/null' ||
            { say "apt-get build-dep failed in the chroot"; exit 1; }
        touch "$root/.ortkit-ready"
    fi
    # Bundling sets RUNPATH with patchelf, validate runs Debian's ONNX test
    # data, and ortkit links libsodium, libcurl and libarchive (repositories);
    # chroots made before they were listed lack them.
    chroot "$root" sh -c 'for p in patchelf libonnx-testdata libsodium23 libcurl4t64 libarchive13t64; do
            dpkg-query -W -f="\${Status}" "$p" 2>/dev/null | grep -q "install ok installed" || m="$m $p"
        done
        [ -z "$m" ] || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $m >/dev/null' ||
        { say "cannot install ortkit's run-time libraries in the chroot"; exit 1; }
}

# ---- 3. ortkit and the patch set inside ---------------------------------------
install_ortkit() {
    cmake --install "$here/build" --prefix "$root/opt/ortkit" >/dev/null
    rm -rf "$root/opt/ortkit/patches" && mkdir -p "$root/opt/ortkit/patches"
    cp -a "$patches" "$root/opt/ortkit/patches/"
    if [ ! -d "$root/src/onnxruntime-$ort_version" ]; then
        mkdir -p "$root/src"
        cp -a "$src_dir/onnxruntime-$ort_version" "$root/src/"
    fi
}

fetch_source
if [ "$mode" = --patch-check ]; then
    for p in "$patches"/*.patch; do
        patch -p1 --dry-run --batch -s -d "$src_dir/onnxruntime-$ort_version" <"$p" ||
            { say "$(basename "$p") does not apply"; exit 1; }
        say "$(basename "$p") applies"
    done
    exit 0
fi
make_chroot
install_ortkit

inside() { chroot "$root" env -i PATH=/opt/ortkit/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    XDG_DATA_HOME=/root/.local/share "$@"; }
p="/opt/ortkit/patches/onnxruntime-$ort_version"
set -- --source "/src/onnxruntime-$ort_version" --variant "$variant" --build-dir "/build/$variant" \
    --patch "$p" --eigen /usr/include/eigen3 -D "CMAKE_PREFIX_PATH=$p/cmake-shims"
case $mode in
--dry-run) inside ortkit build "$@" --dry-run; exit 0 ;;
--check) inside ortkit build "$@" --check; exit 0 ;;
build | --compare) ;;
*) say "unknown option $mode"; exit 2 ;;
esac

# ---- 5. the built bundle against the generic npm runtime ------------------------
# Both as bundles in /bundles: doctor must prefer an AVX2 build on an AVX2
# host (a generic cpu-x86-64 build ranks with the npm ones, below 1.30.0);
# bench runs both side by side on the real model.
compare() {
    mkdir -p "$root/data"
    cp "$deps/models/silero_vad.onnx" "$root/data/"
    /usr/bin/python3 "$here/scripts/make_vad_input.py" "$root/data/vad" >/dev/null
    # Microsoft's generic builds from npm: the same version as the source (the
    # fair comparison: same ORT, generic flags vs the variant's), and 1.30.0.
    ORT_VERSIONS="$ort_version" sh "$here/scripts/setup.sh" --no-apt
    for v in "$ort_version" 1.30.0; do
        [ -d "$root/bundles/ort-$v-cpu" ] && continue
        rm -rf "$root/opt/npm-ort-$v" && mkdir -p "$root/opt/npm-ort-$v/include"
        cp -a "$deps/runtime/$v/." "$root/opt/npm-ort-$v/"
        # The npm package has no C headers; a bundle carries the ones set-up fetched.
        cp -a "$deps/ort-headers/include/." "$root/opt/npm-ort-$v/include/"
        inside ortkit bundle import "/opt/npm-ort-$v" --name "ort-$v-cpu" --into /bundles
    done
    say "doctor (ORTKIT_PATH=/bundles)"
    inside env ORTKIT_PATH=/bundles ortkit doctor || true
    built=$(ls -d "$root"/bundles/*"$variant"* 2>/dev/null | head -n 1)
    [ -n "$built" ] || { say "no $variant bundle in $root/bundles"; return 1; }
    say "bench: npm $ort_version (generic) against the $variant build, Silero VAD"
    inside ortkit bench /data/silero_vad.onnx -i input=/data/vad/speech.npy -i sr=/data/vad/sr.npy \
        -i h=/data/vad/state.npy -i c=/data/vad/state.npy --threads 1 -n 3000 \
        --runtime "/bundles/ort-$ort_version-cpu" --runtime "/bundles/$(basename "$built")" \
        --plot "/data/bench-$variant-vs-npm.svg" || true
}
if [ "$mode" = --compare ]; then
    compare
    exit $?
fi

# ---- 4. build, bundle, validate, bench ----------------------------------------
say "ortkit build $variant (about 23 minutes on 2 cores)"
# shellcheck disable=SC2086
inside ortkit build "$@" --bundle-into /bundles ${ORTKIT_BUILD_FLAGS:-} --json >"$deps/build-ort-$variant.json"
say "report: $deps/build-ort-$variant.json"
# The build just made, by name: selection would take the best fit in
# /bundles, which need not be this variant.
built="/bundles/ort-$ort_version-$variant"
inside ortkit version --runtime "$built" || true
inside ortkit validate --runtime "$built" --json >"$deps/validate-ort-$variant.json" ||
    say "validate reported failures ($deps/validate-ort-$variant.json)"
compare || say "the comparison did not complete"
say "done: the bundle is in $root/bundles"
