# build_recipe.t - `ortkit build --recipe NAME`: the options of a kind of
# build environment, from the recipes installed with ortkit (the build tree
# has a copy beside its tool) or a file; the command line wins; a recipe
# cannot name what to build.
set -eu
SOURCE="$SRC/deps/ort-src/onnxruntime-1.21.0"
DEPS="$SRC/deps/ort-deps-1.21.0"
SHARE=$(dirname "$(readlink -f "$ORTKIT")")/share/ortkit

# A stand-in ORT tree: what a plan reads.
mkdir -p ort/cmake
echo 1.21.0 >ort/VERSION_NUMBER
printf 'cmake_minimum_required(VERSION 3.21)\nproject(onnxruntime C CXX ASM)\n' >ort/cmake/CMakeLists.txt

# debian13: the system's libraries, Eigen and the CMake shims of the patch set.
expect_exit 0 "$ORTKIT" build --recipe debian13 --source ort --variant cpu-avx2 --build-dir /b --dry-run
expect_in out "-Deigen_SOURCE_PATH=/usr/include/eigen3"
expect_in out "-DCMAKE_PREFIX_PATH=$SHARE/patches/onnxruntime-1.21.0/cmake-shims"
expect_in out "ships         no: the library links this system's shared protobuf, ONNX, abseil and re2 libraries and needs the glibc of the environment it is built in; a bundle that ships: --recipe debian11 in a Debian 11 root"
# The command line wins over the recipe.
expect_exit 0 "$ORTKIT" build --recipe=debian13 --eigen /opt/eigen --source ort --variant cpu-avx2 --build-dir /b --dry-run
expect_in out "-Deigen_SOURCE_PATH=/opt/eigen"

# debian11: dependencies compiled in, the glibc floor, CMake 4's policy switch.
if [ -f "$SOURCE/cmake/deps.txt" ] && [ -d "$DEPS" ]; then
    expect_exit 0 "$ORTKIT" build --recipe debian11 --deps "$DEPS" --source "$SOURCE" --variant cpu-avx2 \
        --build-dir /b --dry-run
    expect_in out "ships         yes: dependencies compiled in, glibc 2.31 at most (checked on the built library)"
    expect_in out "-DCMAKE_POLICY_VERSION_MINIMUM=3.5"
    expect_in out "cache         ccache"
else
    echo "skip: debian11's plan needs ONNX Runtime's source and dependency sources (make build-ort)"
fi

# A recipe file by its path, and what a recipe may not say.
printf '# mine\nlto\nD FOO=bar   # a comment\n' >mine.recipe
expect_exit 0 "$ORTKIT" build --recipe ./mine.recipe --source ort --variant cpu-avx2 --build-dir /b --dry-run
expect_in out "-Donnxruntime_ENABLE_LTO=ON"
expect_in out "-DFOO=bar"
printf 'source /elsewhere\n' >bad.recipe
expect_exit 1 "$ORTKIT" build --recipe ./bad.recipe --source ort --variant cpu-avx2 --dry-run
expect_in err "ortkit: recipe ./bad.recipe, line 1: 'source' is not an option a recipe may set"
printf '\nlto yes\n' >bad.recipe
expect_exit 1 "$ORTKIT" build --recipe ./bad.recipe --source ort --variant cpu-avx2 --dry-run
expect_in err "ortkit: recipe ./bad.recipe, line 2: --lto takes no value"
printf 'deps\n' >bad.recipe
expect_exit 1 "$ORTKIT" build --recipe ./bad.recipe --source ort --variant cpu-avx2 --dry-run
expect_in err "ortkit: recipe ./bad.recipe, line 1: --deps wants a value"
printf 'bogus 1\n' >bad.recipe
expect_exit 1 "$ORTKIT" build --recipe ./bad.recipe --source ort --variant cpu-avx2 --dry-run
expect_in err "'bogus' is not an option a recipe may set"
expect_exit 1 "$ORTKIT" build --recipe nope --source ort --variant cpu-avx2 --dry-run
expect_in err "ortkit: no recipe 'nope' is installed with ortkit ($SHARE/recipes holds those that are"
# @VERSION@ needs the source.
expect_exit 1 "$ORTKIT" build --recipe debian13 --cmake-project ort --dry-run
expect_in err "names the source's version, which is not known here: give --source DIR"
expect_exit 1 "$ORTKIT" build --recipe ./missing.recipe --source ort --variant cpu-avx2 --dry-run
expect_in err "recipe './missing.recipe'"
