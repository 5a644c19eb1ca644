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
# usage: scripts/build_ort.sh [--dry-run | --check | --patch-check | --static
#                              | --compare | --cuda-check | --ship-check | --arm64-check | --python-check]
#   --dry-run      stop after printing the plan (nothing compiled)
#   --check        stop after ortkit's pre-flight inside the chroot
#   --patch-check  stop after checking that the patch set applies
#   --static       step 6 (after a build of the same variant): its static
#                  bundle, and a C program linked statically against it
#                  running Silero VAD beside the same program on the shared
#                  bundle (deps/static-ort-VARIANT.txt)
# The acceptance proofs of a built bundle are tests/acceptance/ort/*.sh,
# sourced here; each is also the CTest test acceptance.NAME
# (cmake -DORTKIT_ACCEPTANCE=ON, then ctest -L acceptance -R NAME;
# docs/BUILD.md, "Acceptance proofs"):
#   --compare      the built bundle against the npm runtime (compare.sh)
#   --cuda-check   a CUDA variant: what a machine without a GPU can check of
#                  its bundle (deps/cuda-ort-VARIANT.txt)
#   --ship-check   (bullseye) what a host that did not build them sees of the
#                  built bundles: docs/BUILD.md, "Builds that ship"
#   --arm64-check  (bullseye, VARIANT cpu-armv8.2 by default) an aarch64 build
#                  checked here under qemu-user with the aarch64 ortkit:
#                  docs/BUILD.md, "Proof under emulation"
#   --python-check (bullseye, ORT_PYTHON) the wheels of a build with Python,
#                  published, served and installed on this host (Debian 12),
#                  in the Debian 11 root and in a Debian 13 root beside
#                  Debian's python3-onnxruntime
# Environment: VARIANT (cpu-avx2; cpu-x86-64 for the generic build, any name of
# `ortkit variants`), ORTKIT_BUILD_FLAGS (extra `ortkit build` options),
# ORT_PYTHON (bullseye: "3.11 3.13", ONNX Runtime's Python package too, as a
# wheel per CPython; its builds apart from the C-only ones, see common.sh),
# ORT_COMPILER (bullseye: clang-16 instead of GCC 10; its builds, bundles and
# reports apart from GCC's, see scripts/ort/common.sh).
#
# A CUDA variant (VARIANT=cuda13.0-sm90-avx2) is the reduced-operator attempt
# of docs/BUILD.md, "A CUDA build": the host's CUDA toolkit (CUDA_HOME,
# /usr/local/cuda) is bind-mounted read-only at /opt/cuda in the chroot, the
# two header-only libraries ORT's CUDA provider fetches from GitHub come from
# Debian's contrib packages (libcutlass-dev, libcudnn-frontend-dev; into the
# download cache), contrib operators are off and the operators are those of
# Silero VAD and PP-OCRv4 det.
#
# The steps are in scripts/ort/, sourced here: common.sh (the settings, the
# source, the root and its mounts, what a CUDA variant needs, `ortkit build`
# with the plan's options, what the checks share), then a file a mode, each
# defining its function: build.sh, static.sh (--patch-check is ortkit's own:
# `ortkit build --patch-check`); the files
# they copy into a root (static_link.sh, cudnn_frontend.cmake) are beside
# them.  The checks' files are in tests/acceptance/ort/ (compare.sh,
# cuda_check.sh, ship_check.sh, arm64_check.sh, python_check.sh); a build
# runs compare's or cuda_check's itself.  This file runs the steps in order.
set -eu

ort_dir=$(cd "$(dirname "$0")/ort" && pwd)
acc_dir=$(cd "$(dirname "$0")/../tests/acceptance/ort" && pwd)
mode=${1:-build}
case $mode in
build | --dry-run | --check | --patch-check | --compare | --cuda-check | --ship-check | --static | --arm64-check | --python-check) ;;
*) printf 'build-ort: unknown option %s\n' "$mode" >&2; exit 2 ;;
esac

# shellcheck source=ort/common.sh
. "$ort_dir/common.sh"
# shellcheck source=ort/build.sh
. "$ort_dir/build.sh"
# shellcheck source=../tests/acceptance/ort/compare.sh
. "$acc_dir/compare.sh"
# shellcheck source=../tests/acceptance/ort/cuda_check.sh
. "$acc_dir/cuda_check.sh"
# shellcheck source=../tests/acceptance/ort/ship_check.sh
. "$acc_dir/ship_check.sh"
# shellcheck source=ort/static.sh
. "$ort_dir/static.sh"
# shellcheck source=../tests/acceptance/ort/arm64_check.sh
. "$acc_dir/arm64_check.sh"
# shellcheck source=../tests/acceptance/ort/python_check.sh
. "$acc_dir/python_check.sh"
# The aarch64 check's variant, unless one is named.
[ "$mode" != --arm64-check ] || [ -n "${VARIANT:-}" ] || variant="cpu-armv8.2"

# 1. the source tarball, unpacked in deps/ort-src
fetch_source
if [ "$mode" = --patch-check ]; then # ortkit's own check: on copies, as a build applies the set
    exec "$here/build/ortkit" build --patch-check --source "$src_dir/onnxruntime-$ort_version" \
        --patch "$patches"
fi
# 2-3. the root: made, /proc mounted, ortkit, the patch set and the source inside
prepare_root
# 3b. a CUDA variant: the toolkit mounted, cutlass and cudnn-frontend, the models
case $variant in cuda*) prepare_cuda ;; esac
# 4-7. the mode
case $mode in
build) build ;;
--dry-run | --check) ortkit_build "$mode" ;; # ortkit build's own: the plan, or its pre-flight
--compare) compare ;;
--cuda-check) cuda_check ;;
--ship-check) ship_check ;;
--static) static_check ;;
--arm64-check) arm64_check ;;
--python-check) python_check ;;
esac
