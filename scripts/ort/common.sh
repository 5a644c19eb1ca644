# scripts/ort/common.sh - sourced by scripts/build_ort.sh (which sets
# ort_dir): what its modes share, in the order they use it.
#   settings      the environment (VARIANT, ORT_ROOT, ORTKIT_DEPS,
#                 ORTKIT_CACHE, CUDA_HOME) and the paths in deps/
#   mounts        /proc in the root and the CUDA toolkit, undone on exit
#   1. source     ONNX Runtime 1.21.0's orig tarball, unpacked in deps/ort-src
#   2-3. root     the root made, /proc mounted, ortkit, the patch set and the
#                 source inside; inside ROOT-COMMAND runs a command in it
#   3b. CUDA      a CUDA variant's toolkit mount and header-only libraries
#   4. build      ortkit_build: `ortkit build` with the plan's options
#   checks        the npm runtime as bundles, Silero VAD's input, outputs compared
# shellcheck shell=sh disable=SC2154 # ort_dir is set by build_ort.sh, which sources this file.

# ---- settings ------------------------------------------------------------------
here=$(cd "$ort_dir/../.." && pwd)
deps="${ORTKIT_DEPS:-$here/deps}"
variant=${VARIANT:-cpu-avx2}
ort_version=1.21.0
root_kind=${ORT_ROOT:-bullseye}
say() { printf 'build-ort: %s\n' "$*" >&2; }
case $root_kind in bullseye | trixie) ;; *) say "ORT_ROOT is bullseye or trixie"; exit 2 ;; esac
# ORT_COMPILER (bullseye only): clang-N from the root's archive instead of
# GCC 10, e.g. clang-16 (bullseye's newest).  It compiles against GCC 10's
# libstdc++, so the bundle needs what the GCC build needs.  Its build
# directories, bundles and reports are kept apart from GCC's:
# /build/COMPILER/VARIANT, /bundles/COMPILER, build-ort-bullseye-COMPILER-*.
compiler=${ORT_COMPILER:-}
case $root_kind-$compiler in
*-) ;;
bullseye-clang-[0-9]*) ;;
*) say "ORT_COMPILER is clang-N, for the bullseye root only"; exit 2 ;;
esac
compiler_env=${compiler:+"CC=$compiler CXX=clang++-${compiler#clang-}"}
# ORT_PYTHON (bullseye only): the CPythons to build ONNX Runtime's Python
# package for, e.g. "3.11 3.13": each built in the root from Debian's source
# (build_root.sh), the extension compiled against Debian 13's numpy 2.2
# headers, one wheel each in /build/VARIANT/wheels (docs/PYTHON.md).
pythons=${ORT_PYTHON:-}
case $root_kind-$pythons in
*-) ;;
bullseye-*) ;;
*) say "ORT_PYTHON is for the bullseye root"; exit 2 ;;
esac
NUMPY_DEV_VERSION="1:2.2.4+ds-1"   # Debian 13's python3-numpy-dev: numpy 2.2's C headers
# A build with Python (ORT_PYTHON) has RTTI on: its build directory, bundle
# and report are kept apart from the C-only build's (/build/python/VARIANT,
# /bundles/python, build-ort-bullseye-python-*).
pyside=${ORT_PYTHON:+python}
# shellcheck disable=SC2034 # build.sh's
bundles=/bundles${compiler:+/$compiler}${pyside:+/$pyside}
# shellcheck disable=SC2034 # build.sh's
build_tag=$root_kind${compiler:+-$compiler}${pyside:+-$pyside}
root="$deps/$root_kind-root"
src_dir="$deps/ort-src"
tarball="onnxruntime_${ort_version}+dfsg.orig.tar.xz"
patches="$here/patches/onnxruntime-$ort_version"
# shellcheck source=../lib/fetch.sh
. "$here/scripts/lib/fetch.sh"
# shellcheck source=../lib/model_inputs.sh
. "$here/scripts/lib/model_inputs.sh"

[ "$(id -u)" = 0 ] || { say "needs root (debootstrap, chroot, mount)"; exit 1; }
[ -x "$here/build/ortkit" ] || { say "build ortkit first (make build)"; exit 1; }

# ---- mounts, undone on exit ------------------------------------------------------
mounted=""
cuda_mounted=""
cleanup() {
    if [ -n "$cuda_mounted" ]; then umount "$root/opt/cuda" 2>/dev/null || true; fi
    if [ -n "$mounted" ]; then umount "$root/proc" 2>/dev/null || true; fi
}
trap cleanup EXIT INT TERM

# ---- 1. the source tarball --------------------------------------------------------
fetch_source() {
    [ -d "$src_dir/onnxruntime-$ort_version/cmake" ] && return 0
    mkdir -p "$src_dir"
    if [ ! -s "$src_dir/$tarball" ]; then
        say "fetching $tarball"
        # The state fetch_dep_sources.sh keeps for trixie (sources and packages).
        apt_list "$deps/apt-trixie-src" "deb-src trixie main" "deb trixie main"
        apt_get update -qq
        apt_source "$src_dir" onnxruntime
        [ -s "$src_dir/$tarball" ] || { say "could not fetch $tarball"; exit 1; }
    fi
    say "unpacking $tarball"
    tar -xJf "$src_dir/$tarball" -C "$src_dir"
}

# ---- 2-3. the root, with ortkit, the patch set and the source inside -------------
prepare_root() {
    case $root_kind in
    bullseye) bullseye_root ;;
    trixie)
        make_chroot
        install_ortkit
        ;;
    esac
}

# A command in the root, with a cleared environment.
inside() {
    case $root_kind in
    bullseye)
        # shellcheck disable=SC2086 # $compiler_env: CC and CXX, or nothing
        chroot "$root" env -i PATH=/opt/ortkit/bin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
            HOME=/root XDG_CACHE_HOME=/build/.cache XDG_DATA_HOME=/root/.local/share \
            CCACHE_DIR="${ccache_dir:-/build/.cache/ccache}" CCACHE_BASEDIR=/build CCACHE_MAXSIZE=8G \
            $compiler_env "$@"
        ;;
    trixie)
        chroot "$root" env -i PATH=/opt/ortkit/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
            XDG_DATA_HOME=/root/.local/share "$@"
        ;;
    esac
}

# The portable root: ortkit is built in it (build_root.sh), the dependency
# sources are copied in, and the compiler cache and the extracted
# dependencies live under /build, so that every variant's build reuses the
# dependencies' compiles (CCACHE_BASEDIR=/build).
bullseye_root() {
    ROOT_EXTRA_PACKAGES="$compiler" ROOT_PYTHONS="$pythons" sh "$here/scripts/build_root.sh" "$root" >/dev/null
    [ -z "$pythons" ] || numpy_headers
    mountpoint -q "$root/proc" || { mount -t proc proc "$root/proc" && mounted=1; }
    dep_src=$(sh "$here/scripts/fetch_dep_sources.sh" "$deps/ort-deps-$ort_version")
    rm -rf "$root/deps-src" && cp -a "$dep_src" "$root/deps-src"
    copy_patches_and_source
    mkdir -p "$root/build/.cache"
}

# numpy 2.2's C headers in the root, /opt/numpy-headers/include: Debian 13's
# python3-numpy-dev, unpacked (architecture-specific only in _numpyconfig.h,
# which is x86-64's).
numpy_headers() {
    [ -e "$root/opt/numpy-headers/include/numpy/_numpyconfig.h" ] && return 0
    if [ -z "$(cached_deb python3-numpy-dev)" ]; then
        say "fetching python3-numpy-dev $NUMPY_DEV_VERSION (Debian 13)"
        apt_list "$deps/apt-trixie-numpy" "deb trixie main"
        apt_get update -qq && apt_download "$cache" "python3-numpy-dev=$NUMPY_DEV_VERSION" ||
            { say "cannot fetch python3-numpy-dev"; exit 1; }
    fi
    x=$(mktemp -d)
    dpkg-deb -x "$(cached_deb python3-numpy-dev)" "$x"
    rm -rf "$root/opt/numpy-headers" && mkdir -p "$root/opt/numpy-headers"
    cp -a "$x/usr/lib/x86_64-linux-gnu/python3-numpy/numpy/_core/include" "$root/opt/numpy-headers/include"
    rm -rf "$x"
}

# The trixie chroot: `debootstrap --variant=buildd trixie`, then `apt-get
# build-dep onnxruntime` inside it.
make_chroot() {
    if [ ! -e "$root/.ortkit-ready" ]; then
        if [ ! -x "$root/usr/bin/apt-get" ]; then
            say "debootstrap --variant=buildd trixie (about a minute)"
            mkdir -p "$root"
            debootstrap --variant=buildd trixie "$root" "$debian_mirror" >"$deps/debootstrap.log" 2>&1 ||
                { say "debootstrap failed; see $deps/debootstrap.log"; exit 1; }
        fi
        grep -q '^deb-src' "$root/etc/apt/sources.list" ||
            echo "deb-src $debian_mirror trixie main" >>"$root/etc/apt/sources.list"
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
    missing=$(chroot "$root" sh -s -- patchelf libonnx-testdata libsodium23 libcurl4t64 libarchive13t64 \
        python3-flatbuffers <"$here/scripts/lib/missing_packages.sh") ||
        { say "cannot install ortkit's run-time libraries in the chroot"; exit 1; }
    [ -z "$missing" ] || chroot "$root" sh -c "DEBIAN_FRONTEND=noninteractive
        apt-get install -y -qq --no-install-recommends$missing >/dev/null" ||
        { say "cannot install ortkit's run-time libraries in the chroot"; exit 1; }
}

# ortkit, installed from this host's build (it needs only glibc, libcjson
# and libprotobuf-c there).
install_ortkit() {
    cmake --install "$here/build" --prefix "$root/opt/ortkit" >/dev/null
    copy_patches_and_source
}

copy_patches_and_source() {
    rm -rf "$root/opt/ortkit/patches" && mkdir -p "$root/opt/ortkit/patches"
    cp -a "$patches" "$root/opt/ortkit/patches/"
    if [ ! -d "$root/src/onnxruntime-$ort_version" ]; then
        mkdir -p "$root/src"
        cp -a "$src_dir/onnxruntime-$ort_version" "$root/src/"
    fi
}

# ---- 3b. what a CUDA variant needs inside ------------------------------------------
# The host's toolkit (CUDA_HOME, /usr/local/cuda) bind-mounted read-only at
# /opt/cuda; the two header-only libraries ORT's CUDA provider fetches from
# GitHub, from Debian's contrib packages (into the download cache); the two
# models whose operators the build keeps, in /data.
prepare_cuda() {
    toolkit=$(readlink -f "${CUDA_HOME:-/usr/local/cuda}")
    [ -x "$toolkit/bin/nvcc" ] || { say "no nvcc in $toolkit: set CUDA_HOME"; exit 1; }
    mkdir -p "$root/opt/cuda"
    mount --bind "$toolkit" "$root/opt/cuda" || { say "cannot mount $toolkit in the chroot"; exit 1; }
    cuda_mounted=1
    mount -o remount,ro,bind "$root/opt/cuda" || { say "cannot mount $toolkit in the chroot"; exit 1; }
    cuda_debs="libcutlass-dev libcudnn-frontend-dev"
    # shellcheck disable=SC2086 # a list of names
    need=$(debs_missing $cuda_debs)
    if [ -n "$need" ]; then
        say "fetching$need from Debian unstable (contrib)"
        mkdir -p "$cache"
        apt_list "$deps/apt-unstable-contrib" "deb unstable contrib"
        # shellcheck disable=SC2086 # a list of names
        { apt_get update -qq && apt_download "$cache" $need; } || { say "cannot fetch$need"; exit 1; }
    fi
    # FetchContent source directories: cutlass is only populated (its
    # include/ is used); cudnn_frontend is added as a project, so it gets a
    # CMakeLists.txt that makes the target ORT links (ORT's own
    # cmake/external/cuDNN.cmake has already made CUDNN::cudnn_all).
    # cudnn-frontend 1.8.0 predates CUDA 13: patches/cudnn-frontend-1.8.0.
    d="$root/opt/cuda-deps"
    rm -rf "$d" && mkdir -p "$d/cutlass" "$d/cudnn_frontend"
    for p in $cuda_debs; do
        rm -rf "$d/unpack" && dpkg-deb -x "$(cached_deb "$p")" "$d/unpack"
        case $p in
        libcutlass-dev) cp -a "$d/unpack/usr/include" "$d/cutlass/include" ;;
        libcudnn-frontend-dev) cp -a "$d/unpack/usr/include" "$d/cudnn_frontend/include" ;;
        esac
    done
    rm -rf "$d/unpack"
    for p in "$here"/patches/cudnn-frontend-1.8.0/*.patch; do
        patch -p1 --batch -s -d "$d/cudnn_frontend" <"$p" || { say "$(basename "$p") does not apply"; exit 1; }
    done
    cp "$ort_dir/cudnn_frontend.cmake" "$d/cudnn_frontend/CMakeLists.txt"
    mkdir -p "$root/data"
    cp "$deps/models/silero_vad.onnx" "$deps/models/ch_PP-OCRv4_det_infer.onnx" "$root/data/"
}

# ---- 4. ortkit build in the root ----------------------------------------------------
# ortkit_build OPTION...: `ortkit build` with the plan's options for this
# root and variant, then OPTIONs, in build_dir (default /build/VARIANT, or
# /build/COMPILER/VARIANT; a
# bullseye build's local compiler cache is ccache_dir, default
# /build/.cache/ccache: bench/shared_cache.sh gives each builder its own).  (Each case puts its options in front of
# the ones after it: they read in the order ortkit is given them.)
ortkit_build() {
    case $variant in
    cuda*)
        set -- --cuda-home /opt/cuda --cudnn-home /opt/cuda \
            --dep cutlass=/opt/cuda-deps/cutlass --dep cudnn_frontend=/opt/cuda-deps/cudnn_frontend \
            -D onnxruntime_DISABLE_CONTRIB_OPS=ON -D onnxruntime_USE_FLASH_ATTENTION=OFF \
            -D onnxruntime_USE_MEMORY_EFFICIENT_ATTENTION=OFF \
            --ops-from /data/silero_vad.onnx --ops-from /data/ch_PP-OCRv4_det_infer.onnx "$@"
        ;;
    esac
    patch_set="/opt/ortkit/patches/onnxruntime-$ort_version"
    rev=""
    for py in $pythons; do rev="$py $rev"; done
    for py in $rev; do
        set -- --python "/opt/python$py/bin/python$py" "$@"
    done
    [ -z "$pythons" ] || set -- --numpy-include /opt/numpy-headers/include "$@"
    # The root's options are ortkit's recipes (recipes/*.recipe, installed with it).
    case $root_kind in
    bullseye) set -- --recipe debian11 "$@" ;;
    trixie) set -- --recipe debian13 "$@" ;;
    esac
    inside ortkit build --source "/src/onnxruntime-$ort_version" --variant "$variant" \
        --build-dir "${build_dir:-/build${compiler:+/$compiler}${pyside:+/$pyside}/$variant}" --patch "$patch_set" "$@"
}

# ---- what the checks share -----------------------------------------------------------
# Silero VAD and its input (real speech) in /data.
vad_data() {
    mkdir -p "$root/data"
    cp "$deps/models/silero_vad.onnx" "$root/data/"
    /usr/bin/python3 "$here/tests/models/make_vad_input.py" "$root/data/vad" >/dev/null
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

# compare_outputs A B: two runs' saved outputs (DIR/MODEL/OUTPUT.npy), A
# against B: the largest difference per output; fails when one is not close
# (rtol 1e-4, tighter than validate's 1e-3).
compare_outputs() {
    "$here/build/ortkit" compare --rtol 1e-4 "$1" "$2"
}
