#!/bin/sh
# build_ort.sh - build a real ONNX Runtime 1.21.0 with `ortkit build`.
#
# Two build roots (ORT_ROOT):
#   bullseye (the default): builds that ship.  A Debian 11 root (glibc 2.31,
#      GCC 10; scripts/build_root.sh) with every third-party dependency
#      compiled into the library from its source (`--deps`: Debian's source
#      packages, scripts/fetch_dep_sources.sh) and `--glibc-floor 2.31`: the
#      bundle loads on any x86-64 Linux with glibc >= 2.31 and needs no
#      library beyond glibc and libstdc++.  Checked outside any root
#      (--ship-check).
#   trixie: the earlier system-linked build, kept to compare against: it
#      links Debian trixie's shared protobuf, onnx, abseil, re2 and cpuinfo
#      and its glibc 2.41, so it loads only inside that root.  The rest of
#      this comment is about it.
#
# ONNX Runtime 1.21 needs CMake >= 3.28 and build dependencies that only
# Debian trixie has, so the trixie build runs in a trixie chroot:
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
# usage: scripts/build_ort.sh [--dry-run | --check | --patch-check | --compare | --cuda-check | --static
#                              | --ship-check]
#   --dry-run      stop after printing the plan (nothing compiled)
#   --check        stop after ortkit's pre-flight inside the chroot
#   --patch-check  stop after checking that the patch set applies
#   --compare      only step 5: the built bundle against the npm runtime
#   --cuda-check   only step 5b (a CUDA variant): what a machine without a GPU
#                  can check of its bundle (deps/cuda-ort-VARIANT.txt)
#   --ship-check   (bullseye) what a host that did not build them sees of the
#                  built bundles: docs/BUILD.md, "Builds that ship"
#   --static       step 6 (after a build of the same variant): its static
#                  bundle, and a C program linked statically against it
#                  running Silero VAD beside the same program on the shared
#                  bundle (deps/static-ort-VARIANT.txt)
# Environment: VARIANT (cpu-avx2; cpu-x86-64 for the generic build, any name of
# `ortkit variants`), ORTKIT_BUILD_FLAGS (extra `ortkit build` options).
#
# A CUDA variant (VARIANT=cuda13.0-sm90-avx2) is the reduced-operator attempt
# of docs/BUILD.md, "A CUDA build": the host's CUDA toolkit (CUDA_HOME,
# /usr/local/cuda) is bind-mounted read-only at /opt/cuda in the chroot, the
# two header-only libraries ORT's CUDA provider fetches from GitHub come from
# Debian's contrib packages (libcutlass-dev, libcudnn-frontend-dev; into the
# download cache), contrib operators are off and the operators are those of
# Silero VAD and PP-OCRv4 det.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
deps="${ORTKIT_DEPS:-$here/deps}"
mode=${1:-build}
variant=${VARIANT:-cpu-avx2}
ort_version=1.21.0
root_kind=${ORT_ROOT:-bullseye}
case $root_kind in bullseye | trixie) ;; *) echo "build-ort: ORT_ROOT is bullseye or trixie" >&2; exit 2 ;; esac
root="$deps/$root_kind-root"
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
cuda_mounted=""
cleanup() {
    [ -n "$cuda_mounted" ] && umount "$root/opt/cuda" 2>/dev/null
    [ -n "$mounted" ] && umount "$root/proc" 2>/dev/null || true
}
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
    # data, ortkit links libsodium, libcurl and libarchive (repositories), and
    # --ops-from's reduction script imports flatbuffers; chroots made before
    # they were listed lack them.
    chroot "$root" sh -c 'for p in patchelf libonnx-testdata libsodium23 libcurl4t64 libarchive13t64 python3-flatbuffers; do
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

# ---- 3b. what a CUDA variant needs inside ------------------------------------------
cache="${ORTKIT_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/ortkit}/downloads"
CUDA_DEBS="libcutlass-dev libcudnn-frontend-dev"
prepare_cuda() {
    toolkit=$(readlink -f "${CUDA_HOME:-/usr/local/cuda}")
    [ -x "$toolkit/bin/nvcc" ] || { say "no nvcc in $toolkit: set CUDA_HOME"; exit 1; }
    mkdir -p "$root/opt/cuda"
    mount --bind "$toolkit" "$root/opt/cuda" && cuda_mounted=1 &&
        mount -o remount,ro,bind "$root/opt/cuda" || { say "cannot mount $toolkit in the chroot"; exit 1; }
    need=""
    for p in $CUDA_DEBS; do ls "$cache/${p}_"*.deb >/dev/null 2>&1 || need="$need $p"; done
    if [ -n "$need" ]; then
        apt_dir="$deps/apt-unstable-contrib"
        mkdir -p "$apt_dir/lists/partial" "$cache"
        echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian unstable contrib" \
            >"$apt_dir/sources.list"
        opts="-o Dir::Etc::SourceList=$apt_dir/sources.list -o Dir::Etc::SourceParts=/dev/null
              -o Dir::State::Lists=$apt_dir/lists -o APT::Sandbox::User=root -o APT::Architecture=amd64"
        say "fetching$need from Debian unstable (contrib)"
        # shellcheck disable=SC2086
        apt-get $opts update -qq && (cd "$cache" && apt-get $opts download $need >/dev/null) ||
            { say "cannot fetch$need"; exit 1; }
    fi
    # FetchContent source directories: cutlass is only populated (its
    # include/ is used); cudnn_frontend is added as a project, so it gets a
    # CMakeLists.txt that makes the target ORT links (ORT's own
    # cmake/external/cuDNN.cmake has already made CUDNN::cudnn_all).
    # cudnn-frontend 1.8.0 predates CUDA 13: patches/cudnn-frontend-1.8.0.
    d="$root/opt/cuda-deps"
    rm -rf "$d" && mkdir -p "$d/cutlass" "$d/cudnn_frontend"
    for p in $CUDA_DEBS; do
        rm -rf "$d/unpack" && dpkg-deb -x "$(ls "$cache/${p}_"*.deb | tail -n 1)" "$d/unpack"
        case $p in
        libcutlass-dev) cp -a "$d/unpack/usr/include" "$d/cutlass/include" ;;
        libcudnn-frontend-dev) cp -a "$d/unpack/usr/include" "$d/cudnn_frontend/include" ;;
        esac
    done
    rm -rf "$d/unpack"
    for p in "$here"/patches/cudnn-frontend-1.8.0/*.patch; do
        patch -p1 --batch -s -d "$d/cudnn_frontend" <"$p" || { say "$(basename "$p") does not apply"; exit 1; }
    done
    cat >"$d/cudnn_frontend/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.18)
project(cudnn_frontend LANGUAGES CXX)
add_library(cudnn_frontend INTERFACE)
target_include_directories(cudnn_frontend INTERFACE "${CMAKE_CURRENT_LIST_DIR}/include")
target_link_libraries(cudnn_frontend INTERFACE CUDNN::cudnn_all)
# Debian's cudnn-frontend leaves out the nlohmann/json it bundles: the one
# ONNX Runtime builds (its deps.txt's json) where there is one, else the system's.
if(TARGET nlohmann_json::nlohmann_json)
  target_link_libraries(cudnn_frontend INTERFACE nlohmann_json::nlohmann_json)
endif()
CMAKE
    mkdir -p "$root/data"
    cp "$deps/models/silero_vad.onnx" "$deps/models/ch_PP-OCRv4_det_infer.onnx" "$root/data/"
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
p="/opt/ortkit/patches/onnxruntime-$ort_version"
if [ "$root_kind" = bullseye ]; then
    # The portable root: ortkit is built in it (build_root.sh), the
    # dependency sources are copied in, and the compiler cache and the
    # extracted dependencies live under /build, so that every variant's
    # build reuses the dependencies' compiles (CCACHE_BASEDIR=/build).
    sh "$here/scripts/build_root.sh" "$root" >/dev/null
    mountpoint -q "$root/proc" || { mount -t proc proc "$root/proc" && mounted=1; }
    dep_src=$(sh "$here/scripts/fetch_dep_sources.sh" "$deps/ort-deps-$ort_version")
    rm -rf "$root/deps-src" && cp -a "$dep_src" "$root/deps-src"
    rm -rf "$root/opt/ortkit/patches" && mkdir -p "$root/opt/ortkit/patches" && cp -a "$patches" "$root/opt/ortkit/patches/"
    if [ ! -d "$root/src/onnxruntime-$ort_version" ]; then
        mkdir -p "$root/src" && cp -a "$src_dir/onnxruntime-$ort_version" "$root/src/"
    fi
    mkdir -p "$root/build/.cache"
    inside() { chroot "$root" env -i PATH=/opt/ortkit/bin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root XDG_CACHE_HOME=/build/.cache XDG_DATA_HOME=/root/.local/share \
        CCACHE_DIR=/build/.cache/ccache CCACHE_BASEDIR=/build CCACHE_MAXSIZE=8G "$@"; }
    # Debian's versions that are not deps.txt's (docs/BUILD.md lists them).
    set -- --source "/src/onnxruntime-$ort_version" --variant "$variant" --build-dir "/build/$variant" \
        --patch "$p" --deps /deps-src --accept-dep-version date --accept-dep-version eigen \
        --accept-dep-version pytorch_cpuinfo --accept-dep-version safeint --accept-dep-version mp11 \
        --accept-dep-version utf8_range --glibc-floor 2.31 --cache ccache \
        -D CMAKE_POLICY_VERSION_MINIMUM=3.5
else
    make_chroot
    install_ortkit
    inside() { chroot "$root" env -i PATH=/opt/ortkit/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
        XDG_DATA_HOME=/root/.local/share "$@"; }
    set -- --source "/src/onnxruntime-$ort_version" --variant "$variant" --build-dir "/build/$variant" \
        --patch "$p" --eigen /usr/include/eigen3 -D "CMAKE_PREFIX_PATH=$p/cmake-shims"
fi
case $variant in
cuda*)
    prepare_cuda
    set -- "$@" --cuda-home /opt/cuda --cudnn-home /opt/cuda \
        --dep cutlass=/opt/cuda-deps/cutlass --dep cudnn_frontend=/opt/cuda-deps/cudnn_frontend \
        -D onnxruntime_DISABLE_CONTRIB_OPS=ON -D onnxruntime_USE_FLASH_ATTENTION=OFF \
        -D onnxruntime_USE_MEMORY_EFFICIENT_ATTENTION=OFF \
        --ops-from /data/silero_vad.onnx --ops-from /data/ch_PP-OCRv4_det_infer.onnx
    ;;
esac
case $mode in
--dry-run) inside ortkit build "$@" --dry-run; exit 0 ;;
--check) inside ortkit build "$@" --check; exit 0 ;;
build | --compare | --cuda-check | --static | --ship-check) ;;
*) say "unknown option $mode"; exit 2 ;;
esac

# ---- 5. the built bundle against the generic npm runtime ------------------------
# Both as bundles in /bundles: doctor must prefer an AVX2 build on an AVX2
# host (a generic cpu-x86-64 build ranks with the npm ones, below 1.30.0);
# bench runs both side by side on the real model.
# Silero VAD and its input (real speech) in /data.
vad_data() {
    mkdir -p "$root/data"
    cp "$deps/models/silero_vad.onnx" "$root/data/"
    /usr/bin/python3 "$here/scripts/make_vad_input.py" "$root/data/vad" >/dev/null
}
# Microsoft's generic builds from npm as bundles in /bundles: the same
# version as the source (the fair comparison: same ORT, generic flags vs the
# variant's), and 1.30.0.
npm_bundles() {
    ORT_VERSIONS="$ort_version" sh "$here/scripts/setup.sh" --no-apt
    for v in "$ort_version" 1.30.0; do
        [ -d "$root/bundles/ort-$v-cpu" ] && continue
        rm -rf "$root/opt/npm-ort-$v" && mkdir -p "$root/opt/npm-ort-$v/include"
        cp -a "$deps/runtime/$v/." "$root/opt/npm-ort-$v/"
        # The npm package has no C headers; a bundle carries the ones set-up fetched.
        cp -a "$deps/ort-headers/include/." "$root/opt/npm-ort-$v/include/"
        inside ortkit bundle import "/opt/npm-ort-$v" --name "ort-$v-cpu" --into /bundles
    done
}
compare() {
    vad_data
    npm_bundles
    say "doctor (ORTKIT_PATH=/bundles)"
    inside env ORTKIT_PATH=/bundles ortkit doctor || true
    built="ort-$ort_version-$variant"
    [ -d "$root/bundles/$built" ] || { say "no $built in $root/bundles"; return 1; }
    say "bench: npm $ort_version (generic) against the $variant build, Silero VAD"
    inside ortkit bench /data/silero_vad.onnx -i input=/data/vad/speech.npy -i sr=/data/vad/sr.npy \
        -i h=/data/vad/state.npy -i c=/data/vad/state.npy --threads 1 -n 3000 \
        --runtime "/bundles/ort-$ort_version-cpu" --runtime "/bundles/$built" \
        --plot "/data/bench-$variant-vs-npm.svg" || true
}

# Two runs' saved outputs (DIR/MODEL/OUTPUT.npy), A against B: the largest
# difference per output; fails when one is not close (rtol 1e-4, atol 1e-5).
compare_outputs() {
    /usr/bin/python3 - "$1" "$2" <<'PY'
import numpy as np, os, sys
a, b = sys.argv[1], sys.argv[2]
bad = 0
for model in sorted(os.listdir(b)):
    for f in sorted(os.listdir(os.path.join(b, model))):
        x = np.load(os.path.join(a, model, f)).astype(np.float64)
        y = np.load(os.path.join(b, model, f)).astype(np.float64)
        d = float(np.max(np.abs(x - y))) if x.size else 0.0
        ok = x.shape == y.shape and np.allclose(x, y, rtol=1e-4, atol=1e-5)
        bad += not ok
        print("%-24s %-12s %-16s max |diff| %.3g  %s" % (model, f[:-4], x.shape, d, "ok" if ok else "DIFFERS"))
sys.exit(1 if bad else 0)
PY
}

# ---- 5b. a CUDA build, on a machine without a GPU --------------------------------
# What can be checked without a GPU, into deps/cuda-ort-VARIANT.txt: the
# bundle verified, the GPU code and CUDA libraries its binaries show, the
# choice (no GPU: refused), a session asking for the CUDA provider (refused
# with its cause), and the build's operator-reduced core on the CPU giving
# the outputs Microsoft's 1.21.0 gives on the two models it was reduced to.
cuda_check() {
    built="/bundles/ort-$ort_version-$variant"
    npm="/bundles/ort-$ort_version-cpu"
    out="$deps/cuda-ort-$variant.txt"
    vad_data
    npm_bundles
    vad="-i input=/data/vad/speech.npy -i sr=/data/vad/sr.npy -i h=/data/vad/state.npy -i c=/data/vad/state.npy"
    det="--random --dim p2o.DynamicDimension.0=1 --dim p2o.DynamicDimension.1=640 --dim p2o.DynamicDimension.2=640"
    rm -rf "$root/data/outputs" && mkdir -p "$root/data/outputs"
    {
        echo "== ortkit bundle verify $built"
        inside ortkit bundle verify "$built" || true
        echo "== its GPU code and CUDA libraries (ortkit bundle complete: nothing left to add)"
        inside ortkit bundle complete "$built" || true
        echo "== ortkit bundle choose (this machine has no NVIDIA GPU)"
        inside env ORTKIT_PATH=/bundles ortkit bundle choose || true
        echo "== Silero VAD, asking for the CUDA provider (--ep cuda --strict)"
        # shellcheck disable=SC2086
        inside ortkit run /data/silero_vad.onnx $vad --runtime "$built" --ep cuda --strict &&
            echo "exit 0" || echo "exit $?"
        for m in silero_vad ch_PP-OCRv4_det_infer; do
            case $m in silero_vad) in=$vad ;; *) in=$det ;; esac
            for r in "$built" "$npm"; do
                echo "== $m on the CPU, $r"
                mkdir -p "$root/data/outputs/$(basename "$r")"
                # shellcheck disable=SC2086
                inside ortkit run "/data/$m.onnx" $in --runtime "$r" --threads 1 \
                    -o "/data/outputs/$(basename "$r")/$m" || echo "exit $?"
            done
        done
    } >"$out" 2>&1
    echo "== the CUDA build's core against Microsoft's 1.21.0: largest difference per output" >>"$out"
    compare_outputs "$root/data/outputs/$(basename "$built")" "$root/data/outputs/$(basename "$npm")" \
        >>"$out" 2>&1 || { cat "$out" >&2; say "the CUDA build's outputs differ ($out)"; return 1; }
    cat "$out"
    say "CUDA check: $out"
}
if [ "$mode" = --compare ]; then
    compare
    exit $?
fi
if [ "$mode" = --cuda-check ]; then
    cuda_check
    exit $?
fi

# ---- 7. builds that ship: checked where they were not built -------------------------
# The bullseye root's bundles (cpu-x86-64 and cpu-avx2), on this host and in
# a second, minimal Debian 11 root standing for an older fleet host, into
# deps/ship-check/ (report.txt and the JSON behind it):
#   a. on this host, outside any root: bundle verify (needs: glibc, GLIBCXX,
#      no library beyond glibc's and libstdc++'s), the conformance suite
#      against Microsoft's 1.21.0, and both variants benchmarked in one
#      process beside Microsoft's;
#   b. a repository made by `bundle publish`, served by a loopback server;
#      in the fleet root, ortkit (built in the build root, glibc 2.31)
#      installs the best fit with `bundle install` and runs Silero VAD and
#      PP-OCRv4 det; the outputs are compared with Microsoft's 1.21.0 here.
ship_check() {
    out="$deps/ship-check"
    host_ortkit="$here/build/ortkit"
    # Microsoft's build of the same version, as a bundle kept apart from
    # deps/bundles (the tests' bundle directory).
    npm="$deps/compare-bundles/ort-$ort_version-cpu"
    rm -rf "$out" && mkdir -p "$out/outputs"
    ORT_VERSIONS="$ort_version" sh "$here/scripts/setup.sh" --no-apt >/dev/null
    [ -d "$npm" ] || "$host_ortkit" bundle import "$deps/runtime/$ort_version" --name "ort-$ort_version-cpu" \
        --into "$deps/compare-bundles" >/dev/null
    built=""
    for v in cpu-x86-64 cpu-avx2; do
        b="$root/bundles/ort-$ort_version-$v"
        [ -e "$b/manifest.json" ] && built="$built $b"
    done
    [ -n "$built" ] || { say "no bundle built in $root/bundles: build cpu-x86-64 and cpu-avx2 first"; return 1; }
    vad_in="$out/vad"
    /usr/bin/python3 "$here/scripts/make_vad_input.py" "$vad_in" >/dev/null
    vad="-i input=$vad_in/speech.npy -i sr=$vad_in/sr.npy -i h=$vad_in/state.npy -i c=$vad_in/state.npy"
    det="--random --dim p2o.DynamicDimension.0=1 --dim p2o.DynamicDimension.1=640 --dim p2o.DynamicDimension.2=640"
    models="$deps/models"
    {
        echo "== this host: $(. /etc/os-release && echo "$PRETTY_NAME"), glibc $(ldd --version | head -n 1 | awk '{print $NF}')"
        for b in $built; do
            echo "== ortkit bundle verify $b"
            "$host_ortkit" bundle verify "$b" || echo "exit $?"
            "$host_ortkit" bundle verify "$b" --json >"$out/verify-$(basename "$b").json" || true
        done
        # Two builds that link nothing but glibc and libstdc++ share a process.
        set -- $built
        for pair in "$1 ${2:-}" "$npm ${2:-$1}"; do
            set -- $pair
            [ $# = 2 ] || continue
            echo "== Silero VAD, one process: --runtime $1 --runtime $2"
            # shellcheck disable=SC2086
            "$host_ortkit" bench "$models/silero_vad.onnx" $vad --threads 1 -n 2000 --runtime "$1" --runtime "$2" ||
                echo "exit $?"
            echo "== PP-OCRv4 det 640x640, one process: --runtime $1 --runtime $2"
            # shellcheck disable=SC2086
            "$host_ortkit" bench "$models/ch_PP-OCRv4_det_infer.onnx" $det --threads 2 -n 30 --runtime "$1" \
                --runtime "$2" || echo "exit $?"
        done
        for b in $npm $built; do
            n=$(basename "$b")
            echo "== ortkit validate --runtime $n (the ONNX backend conformance suite)"
            "$host_ortkit" validate --runtime "$b" --json >"$out/validate-$n.json" 2>"$out/validate-$n.err" || true
        done
        echo "== conformance: each build against Microsoft's $ort_version, test by test"
        # shellcheck disable=SC2046
        /usr/bin/python3 - "$out/validate-$(basename "$npm").json" $(for b in $built; do
            echo "$out/validate-$(basename "$b").json"; done) <<'PY'
import json, sys
def load(f):
    d = json.load(open(f))
    return d["totals"], {t["suite"] + "/" + t["name"]: t["status"] for t in d["tests"]}
ref_tot, ref = load(sys.argv[1])
print("%-28s %5s pass %4s fail" % ("Microsoft's (npm)", ref_tot["pass"], ref_tot["fail"]))
for f in sys.argv[2:]:
    tot, got = load(f)
    worse = sorted(k for k in ref if ref[k] == "pass" and got.get(k) != "pass")
    better = sorted(k for k in ref if ref[k] != "pass" and got.get(k) == "pass")
    name = f.rsplit("validate-", 1)[1][:-5]
    print("%-28s %5s pass %4s fail; worse than Microsoft's: %d %s; better: %d %s" % (
        name, tot["pass"], tot["fail"], len(worse), " ".join(worse[:8]), len(better), " ".join(better[:8])))
PY
    } >"$out/report.txt" 2>&1
    fleet_check >>"$out/report.txt" 2>&1 || { cat "$out/report.txt"; say "the fleet check failed"; return 1; }
    cat "$out/report.txt"
    say "ship check: $out/report.txt"
}

# b. A minimal Debian 11 root (debootstrap --variant=minbase) with only
# ortkit's own run-time libraries; the bundles reach it through a signed
# repository on a loopback server.
fleet_check() {
    fleet="$deps/fleet-bullseye-root"
    if [ ! -e "$fleet/.fleet-ready" ]; then
        say "debootstrap --variant=minbase bullseye $fleet"
        rm -rf "$fleet" && mkdir -p "$fleet"
        debootstrap --variant=minbase bullseye "$fleet" http://deb.debian.org/debian >"$deps/debootstrap-fleet.log" 2>&1 ||
            { say "debootstrap failed: $deps/debootstrap-fleet.log"; return 1; }
        cp /etc/resolv.conf "$fleet/etc/resolv.conf"
        chroot "$fleet" sh -c 'DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            libcjson1 libprotobuf-c1 libsodium23 libcurl4 libarchive13 libssl1.1 >/dev/null' ||
            { say "cannot install ortkit's run-time libraries in $fleet"; return 1; }
        touch "$fleet/.fleet-ready"
    fi
    rm -rf "$fleet/opt/ortkit" "$fleet/data" && mkdir -p "$fleet/data/out"
    cp -a "$root/opt/ortkit" "$fleet/opt/ortkit"
    cp "$deps/models/silero_vad.onnx" "$deps/models/ch_PP-OCRv4_det_infer.onnx" "$fleet/data/"
    cp -a "$out/vad" "$fleet/data/vad"
    repo="$out/repo"
    "$host_ortkit" bundle keygen --key "$out/ship.key" --pubkey "$fleet/data/ship.pub" >/dev/null
    # shellcheck disable=SC2086
    "$host_ortkit" bundle publish $built --repo "$repo" --key "$out/ship.key"
    port=$((20000 + $$ % 20000))
    (cd "$repo" && exec /usr/bin/python3 -m http.server --bind 127.0.0.1 "$port" >"$out/http.log" 2>&1) &
    server=$!
    sleep 1
    echo "== in $fleet: $(. "$fleet/etc/os-release" && echo "$PRETTY_NAME"), glibc $(chroot "$fleet" ldd --version | head -n 1 | awk '{print $NF}')"
    # A host has /proc: the loader finds $ORIGIN (RUNPATH) through /proc/self/exe.
    mountpoint -q "$fleet/proc" || mount -t proc proc "$fleet/proc"
    in_fleet() { chroot "$fleet" env -i PATH=/opt/ortkit/bin:/usr/bin:/bin HOME=/root "$@"; }
    rc=0
    echo "== ortkit bundle install http://127.0.0.1:$port --pubkey ship.pub"
    in_fleet ortkit bundle install "http://127.0.0.1:$port" --pubkey /data/ship.pub || rc=1
    echo "== ortkit bundle list; ortkit doctor"
    in_fleet ortkit bundle list || rc=1
    in_fleet ortkit doctor || true
    echo "== Silero VAD and PP-OCRv4 det with the installed best fit"
    # shellcheck disable=SC2086
    in_fleet ortkit run /data/silero_vad.onnx $(echo "$vad" | sed "s|$vad_in|/data/vad|g") --threads 1 -o /data/out/silero_vad || rc=1
    # shellcheck disable=SC2086
    in_fleet ortkit run /data/ch_PP-OCRv4_det_infer.onnx $det --threads 1 -o /data/out/ch_PP-OCRv4_det_infer || rc=1
    kill "$server" 2>/dev/null || true
    umount "$fleet/proc" 2>/dev/null || true
    echo "== the same with Microsoft's $ort_version on this host"
    # shellcheck disable=SC2086
    "$host_ortkit" run "$models/silero_vad.onnx" $vad --threads 1 --runtime "$npm" -o "$out/outputs/silero_vad" >/dev/null || rc=1
    # shellcheck disable=SC2086
    "$host_ortkit" run "$models/ch_PP-OCRv4_det_infer.onnx" $det --threads 1 --runtime "$npm" \
        -o "$out/outputs/ch_PP-OCRv4_det_infer" >/dev/null || rc=1
    echo "== the fleet host's outputs against Microsoft's: largest difference per output"
    compare_outputs "$fleet/data/out" "$out/outputs" || rc=1
    return $rc
}
if [ "$mode" = --ship-check ]; then
    ship_check
    exit $?
fi

# ---- 6. the static bundle, linked into a program --------------------------------
# The same build directory as the shared variant: nothing is compiled again
# (CMake is run once more if it was configured without the file API query).
# examples/static_link.c is linked twice, against the static archive
# (pkg-config --static) and against the shared bundle; both run Silero VAD
# and must print the same probability, and the static one must load no
# libonnxruntime: none is on the chroot's library path either.
static_check() {
    shared="/bundles/ort-$ort_version-$variant"
    static="/bundles/ort-$ort_version-$variant-static"
    [ -e "$root$shared/manifest.json" ] || { say "build $variant first (make build-ort)"; return 1; }
    say "ortkit build $variant --static"
    # shellcheck disable=SC2086
    inside ortkit build "$@" --static --bundle-into /bundles ${ORTKIT_BUILD_FLAGS:-} --json \
        >"$deps/build-ort-$variant-static.json"
    mkdir -p "$root/data"
    cp "$here/examples/static_link.c" "$deps/models/silero_vad.onnx" "$root/data/"
    out="$deps/static-ort-$variant.txt"
    cat >"$root/data/static_check.sh" <<'CHECK'
set -eu
shared=$1 static=$2
cd /data
# ortkit itself from its install (its .pc asks for -dev packages the chroot lacks).
ortkit_flags="-I/opt/ortkit/include -L/opt/ortkit/lib -lortkit -Wl,-rpath,/opt/ortkit/lib"
echo "== ortkit bundle verify $static"
ortkit bundle verify "$static"
echo "== pkg-config --static --libs libonnxruntime"
PKG_CONFIG_PATH="$static/lib/pkgconfig" pkg-config --static --libs libonnxruntime
# shellcheck disable=SC2046
cc -O2 -o vad-static static_link.c $ortkit_flags \
    $(PKG_CONFIG_PATH="$static/lib/pkgconfig" pkg-config --static --cflags --libs libonnxruntime)
# shellcheck disable=SC2046
cc -O2 -o vad-shared static_link.c $ortkit_flags \
    $(PKG_CONFIG_PATH="$shared/lib/pkgconfig" pkg-config --cflags --libs libonnxruntime)
echo "== what each needs"
if ldd vad-static | grep onnxruntime; then echo "vad-static loads a libonnxruntime"; exit 1; fi
if ldconfig -p | grep libonnxruntime; then echo "a libonnxruntime is on the library path"; exit 1; fi
ldd vad-shared | grep onnxruntime
ls -l vad-static vad-shared
echo "== static"
./vad-static silero_vad.onnx | tee static.txt
echo "== shared"
./vad-shared silero_vad.onnx | tee shared.txt
p() { sed -n 's/.*speech probability //p' "$1"; }
[ -n "$(p static.txt)" ] && [ "$(p static.txt)" = "$(p shared.txt)" ] || {
    echo "the two builds disagree"
    exit 1
}
echo "== the same probability from the static and the shared core"
CHECK
    inside sh /data/static_check.sh "$shared" "$static" >"$out" 2>&1 ||
        { cat "$out" >&2; say "the static check failed ($out)"; return 1; }
    cat "$out"
    say "static check: $out"
}
if [ "$mode" = --static ]; then
    static_check "$@"
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
case $root_kind-$variant in
bullseye-*)
    # A build that ships is checked where it did not build: on this host.
    say "next: sh scripts/build_ort.sh --ship-check (on this host, outside the root)"
    ;;
*-cuda*)
    # Its core keeps only two models' operators: the conformance suite and
    # the CPU benchmark say nothing of it; what a machine without a GPU can
    # check is cuda_check's.
    cuda_check || say "the CUDA check did not complete"
    ;;
*)
    inside ortkit validate --runtime "$built" --json >"$deps/validate-ort-$variant.json" ||
        say "validate reported failures ($deps/validate-ort-$variant.json)"
    compare || say "the comparison did not complete"
    ;;
esac
say "done: the bundle is in $root/bundles"
