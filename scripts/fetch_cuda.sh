#!/bin/sh
# fetch_cuda.sh - fetch the real NVIDIA material the GPU tests use, into the
# download cache (outside the clone, reused by every clone on this machine):
#   - ONNX Runtime 1.29.0 for CUDA 13: the providers from Microsoft's release
#     as redistributed on npm by com.github.asus4.onnxruntime.linux-x64-gpu@0.4.9,
#     the core built with CUDA from onnxruntime-node@1.29.0 (the CPU build's
#     core, com.github.asus4.onnxruntime@0.4.9, is kept for the test that it
#     is refused beside them);
#   - ONNX Runtime 1.19.2 for CUDA 12: the providers from
#     com.github.asus4.onnxruntime.linux-x64-gpu@0.2.1 and the core of the
#     same release from onnxruntime-node@1.19.2;
#   - CUDA 12.4 user-space libraries and the driver's user-space library
#     (libcuda1) from Debian unstable's non-free section, downloaded, never
#     installed.
# About 1.1 GB in all, and the libraries the tests use unpacked beside it
# (unpacked/, about 1.5 GB: once per machine, not per build tree).
# Idempotent: what is in the cache is kept.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
deps="${ORTKIT_DEPS:-$here/deps}"
# shellcheck source=lib/fetch.sh
. "$here/scripts/lib/fetch.sh"
say() { printf 'fetch-cuda: %s\n' "$*" >&2; }

mkdir -p "$cache"
for spec in $gpu_npm_specs; do
    npm_fetch "$spec" "$(npm_file "$spec")"
done

# Debian unstable non-free, through a private sources list: nothing installed.
# shellcheck disable=SC2086 # a list of names
need=$(debs_missing $gpu_debs)
if [ -n "$need" ]; then
    apt_list "$deps/apt-unstable" "deb unstable main contrib non-free"
    say "fetching$need from Debian unstable (non-free)"
    apt_get update -qq
    # shellcheck disable=SC2086 # a list of names
    apt_download "$cache" $need
fi
# The libraries the GPU tests import, unpacked once (tar and dpkg-deb -x
# into a temporary directory, renamed into place when whole).
unpacked="$cache/unpacked"
x64=package/Plugins/Linux/x64
unpack() { # name tgz member...
    name=$1 tgz=$2
    shift 2
    [ -d "$unpacked/$name" ] && return 0
    say "unpacking $name"
    tmp=$(mktemp -d "$unpacked/.$name.XXXXXX")
    tar xzf "$cache/$tgz" -C "$tmp" --wildcards "$@"
    # A run beside this one may have finished first: keep its copy.
    mv -T "$tmp" "$unpacked/$name" 2>/dev/null || rm -rf "$tmp"
}
mkdir -p "$unpacked"
unpack core-1.29.0 com.github.asus4.onnxruntime-0.4.9.tgz "$x64/libonnxruntime.so" \
    "$x64/libonnxruntime_providers_shared.so"
unpack gpu-1.29.0 com.github.asus4.onnxruntime.linux-x64-gpu-0.4.9.tgz "$x64/*.so"
unpack gpu-1.19.2 com.github.asus4.onnxruntime.linux-x64-gpu-0.2.1.tgz "$x64/*.so"
unpack core-1.19.2 onnxruntime-node-1.19.2.tgz 'package/bin/napi-v3/linux/x64/*.so*'
unpack core-node-1.29.0 onnxruntime-node-1.29.0.tgz 'package/bin/napi-v6/linux/x64/libonnxruntime.so.1'
if [ ! -d "$unpacked/cuda-12.4" ]; then
    say "unpacking CUDA 12.4 and libcuda1 (dpkg-deb -x)"
    tmp=$(mktemp -d "$unpacked/.cuda-12.4.XXXXXX")
    for p in $gpu_debs; do
        dpkg-deb -x "$(cached_deb "$p")" "$tmp"
    done
    mv -T "$tmp" "$unpacked/cuda-12.4" 2>/dev/null || rm -rf "$tmp"
fi
say "ready: $cache"
