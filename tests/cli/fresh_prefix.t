# fresh_prefix.t - a new user's installed ortkit with the source tree out of
# reach: the build installed into a prefix, the prefix copied elsewhere, a
# HOME and XDG directories of its own, and set-up's runtimes and bundles
# (the compiled-in defaults) hidden under empty directories in a mount
# namespace of its own.  With no runtime, the error names the two ways to
# get one; `ortkit bundle fetch` from a fixture npm registry on loopback
# (npm_lib.sh) then gives one, and a model runs.
set -eu
. "$SRC/tests/cli/repo_lib.sh"
. "$SRC/tests/cli/npm_lib.sh"
if ! have_nginx; then
    echo "skipped: nginx or openssl is not installed" >&2
    exit 77
fi
[ -n "$npm_arch" ] || { echo "skipped: npm's releases are for x86-64 and aarch64 only" >&2; exit 77; }
build=$(dirname "$ORTKIT")
[ -f "$build/cmake_install.cmake" ] || { echo "skipped: $ORTKIT is not a build's tool" >&2; exit 77; }
unshare -m true 2>/dev/null || { echo "skipped: no mount namespace (unshare -m) here" >&2; exit 77; }
trap 'stop_nginx; rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$PWD/first" >/dev/null
cp -a first moved && rm -rf first
export HOME="$PWD/home" XDG_DATA_HOME="$PWD/home/data" XDG_CACHE_HOME="$PWD/home/cache" \
    XDG_STATE_HOME="$PWD/home/state" XDG_DATA_DIRS="$PWD/none" ORTKIT_PATH='' ORTKIT_BUNDLE=''
mkdir -p "$HOME" empty
npm_package 1.17.3 "$RT_OLD"
NGINX_PROBE=onnxruntime-node/-/onnxruntime-node-1.17.3.tgz start_nginx "$PWD/reg"
npm_publish 1.17.3

# The compiled-in places (the clone's deps/) are hidden from here on.
deps=$(cd "$(dirname "$RT_OLD")/.." && pwd)
cat >hidden.sh <<SH
set -eu
for d in "$deps/bundles" "$deps/runtime"; do
    [ -d "\$d" ] && mount --bind "$PWD/empty" "\$d"
done
exec "\$@"
SH
hidden() { unshare -m sh hidden.sh "$@"; }

expect_exit 1 hidden moved/bin/ortkit run "$MODELS/add.onnx"
expect_in err "no ONNX Runtime found: get Microsoft's with 'ortkit bundle fetch 1.30.0', install one from a repository with 'ortkit bundle install URL --pubkey KEY'"
expect_not_in err "scripts/setup.sh"

expect_exit 0 hidden moved/bin/ortkit bundle fetch 1.17.3 --registry "$URL" --ca-file tls/ca.pem
expect_in out "into       $XDG_DATA_HOME/ortkit/bundles/ort-1.17.3-cpu"
expect_exit 0 hidden moved/bin/ortkit run "$MODELS/add.onnx" --zeros --dim N=1
expect_in out "ONNX Runtime 1.17.3"
expect_in out "$XDG_DATA_HOME/ortkit/bundles/ort-1.17.3-cpu"

# Validating the fetched release: its known-failures list is installed with
# the tool (share/ortkit/validate), and the builder's recipes and patch sets
# with it (share/ortkit/recipes, patches): a plan from the moved prefix.
[ -f moved/share/ortkit/validate/known_failures_1.17.txt ]
mkdir -p ort/cmake
echo 1.21.0 >ort/VERSION_NUMBER
printf 'cmake_minimum_required(VERSION 3.21)\nproject(onnxruntime C CXX ASM)\n' >ort/cmake/CMakeLists.txt
expect_exit 0 hidden moved/bin/ortkit build --recipe debian13 --source ort --variant cpu-avx2 \
    --build-dir "$PWD/b" --dry-run
expect_in out "-DCMAKE_PREFIX_PATH=$PWD/moved/share/ortkit/patches/onnxruntime-1.21.0/cmake-shims"
[ -f moved/share/ortkit/patches/onnxruntime-1.21.0/0001-safeint-debian-include-dir.patch ]
[ -f moved/share/ortkit/recipes/debian11.recipe ]
# The Debian 11 root's kit: its scripts, ortkit's own source and the ONNX
# protos, so a bundle that ships is built from the installed tool alone.
for f in build_root.sh fetch_dep_sources.sh lib/fetch.sh lib/layout.sh lib/missing_packages.sh \
    onnx-proto/onnx.proto onnx-proto/onnx-data.proto ort/pybind11.cmake ortkit-src.tar.gz; do
    [ -s "moved/share/ortkit/root/$f" ] || { echo "FAIL: share/ortkit/root/$f is not installed" >&2; exit 1; }
done
sh -n moved/share/ortkit/root/build_root.sh
tar -tzf moved/share/ortkit/root/ortkit-src.tar.gz >src.list
for f in CMakeLists.txt src/util/util.h scripts/build_root.sh recipes/debian11.recipe; do
    grep -qx "\(\./\)\?$f" src.list || { echo "FAIL: ortkit-src.tar.gz lacks $f" >&2; exit 1; }
done
if grep -q "^\(\./\)\?\(deps\|build\)/" src.list; then echo "FAIL: ortkit-src.tar.gz holds build outputs" >&2; exit 1; fi
