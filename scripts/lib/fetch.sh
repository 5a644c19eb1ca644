# scripts/lib/fetch.sh - sourced by the scripts that fetch material: the
# download cache and the two ways material reaches it, Debian's archive
# (through a private apt state: the system's sources, lists and cache are
# not touched) and npm's registry (`npm pack`).
#
# The cache is outside the clone, so every clone on this machine reuses it:
#   ${ORTKIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ortkit}/downloads
# A file lands there under a temporary name and is renamed when whole.
# The caller defines say (its messages) and sets -eu.
# shellcheck shell=sh

cache="${ORTKIT_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/ortkit}/downloads"
debian_mirror=http://deb.debian.org/debian

# What the GPU tests use: fetched by fetch_cuda.sh, unpacked by
# tests/gpu_material.sh.  The npm packages are cached as NAME-VERSION.tgz
# (npm_file); the .debs are CUDA 12.4's user-space libraries and the
# driver's (libcuda1).
# shellcheck disable=SC2034 # used by the scripts that source this file
{
    gpu_npm_specs="com.github.asus4.onnxruntime@0.4.9 com.github.asus4.onnxruntime.linux-x64-gpu@0.4.9
 com.github.asus4.onnxruntime.linux-x64-gpu@0.2.1 onnxruntime-node@1.19.2 onnxruntime-node@1.29.0"
    gpu_cuda_libs="libcudart12 libcublas12 libcublaslt12 libcurand10 libcufft11"
    gpu_debs="$gpu_cuda_libs libcuda1"
}

# ---- Debian ------------------------------------------------------------------

# apt_list DIR LINE...: DIR becomes the private apt state apt_get uses; its
# sources list holds each LINE ("deb SUITE COMPONENT..." or "deb-src ...")
# on Debian's mirror, signed by Debian's archive key.
apt_list() {
    apt_dir=$1
    shift
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial"
    for line; do
        printf '%s [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s\n' \
            "${line%% *}" "$debian_mirror" "${line#* }"
    done >"$apt_dir/sources.list"
}

# apt_get ARG...: apt-get on the private state apt_list made last.
apt_get() {
    apt-get -o Dir::Etc::SourceList="$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null \
        -o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache::archives="$apt_dir/archives" \
        -o APT::Sandbox::User=root -o APT::Architecture=amd64 "$@"
}

# apt_download DIR PACKAGE...: the .debs of PACKAGE (NAME or NAME=VERSION)
# into DIR; fails as apt-get does.
apt_download() {
    (dir=$1 && shift && cd "$dir" && apt_get download "$@" >/dev/null)
}

# apt_source DIR PACKAGE: a source package's files into DIR.  The archive
# does not always serve the .dsc and Debian's patches, so apt-get's status
# says nothing: the caller looks for the orig tarball it wants.
apt_source() {
    (cd "$1" && apt_get source --download-only "$2" >/dev/null 2>&1) || true
}

# last_file DIR PREFIX [SUFFIX]: the last file in DIR named PREFIX*SUFFIX,
# in the order ls lists them (the newest version); nothing when none is.
last_file() {
    lf_last=""
    for lf in "$1/$2"*"${3:-}"; do
        [ -e "$lf" ] && lf_last=$lf
    done
    [ -z "$lf_last" ] || printf '%s\n' "$lf_last"
}

# cached_deb PACKAGE: its .deb in the cache (the newest), or nothing.
cached_deb() { last_file "$cache" "${1}_" .deb; }

# debs_missing PACKAGE...: " NAME" for each PACKAGE without a .deb in the cache.
debs_missing() {
    for dm; do
        [ -n "$(cached_deb "$dm")" ] || printf ' %s' "$dm"
    done
}

# ---- npm ---------------------------------------------------------------------

# npm_fetch SPEC FILE: `npm pack SPEC` into the cache as FILE, unless it is there.
npm_fetch() {
    [ -s "$cache/$2" ] && return 0
    say "fetching $1 from npm"
    nf_tmp=$(mktemp -d "$cache/npm.XXXXXX")
    (cd "$nf_tmp" && npm pack --silent "$1" >/dev/null 2>&1) || { rm -rf "$nf_tmp"; say "npm pack $1 failed"; exit 1; }
    mv "$nf_tmp"/*.tgz "$cache/$2.part" && mv "$cache/$2.part" "$cache/$2"
    rm -rf "$nf_tmp"
}

# npm_file SPEC: the file npm_fetch keeps SPEC (NAME@VERSION) as, NAME-VERSION.tgz.
npm_file() { printf '%s-%s.tgz\n' "${1%@*}" "${1##*@}"; }
