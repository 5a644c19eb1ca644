# relocate.t - a bundle works from wherever it lies: import it, move it (and
# rename it), then build a program against it with pkg-config and with CMake's
# find_package(onnxruntime), and run both.  The program uses ORT's C API itself.
set -eu
export XDG_DATA_HOME="$PWD/xdg" XDG_DATA_DIRS="$PWD/sys" ORTKIT_PATH="$PWD/nothing"
unset LD_LIBRARY_PATH 2>/dev/null || true

"$ORTKIT" bundle import "$RT_NEW" --name reloc --into "$PWD/first" >/dev/null
mkdir elsewhere
mv first/reloc elsewhere/moved
rmdir first
b="$PWD/elsewhere/moved"
expect_exit 0 "$ORTKIT" bundle verify "$b"
expect_in out "result     ok"

cat >p.c <<'EOF'
#include <onnxruntime_c_api.h>
#include <stdio.h>

int main(void)
{
    const OrtApiBase *base = OrtGetApiBase();
    printf("ONNX Runtime %s\n", base->GetVersionString());
    return 0;
}
EOF

# --- pkg-config: paths come from where the .pc file lies now ---
export PKG_CONFIG_PATH="$b/lib/pkgconfig"
pkg-config --modversion libonnxruntime >version
expect_in version "1.30.0"
pkg-config --cflags --libs libonnxruntime >flags
expect_in flags "-I$b/lib/pkgconfig/../../include"
expect_in flags "-L$b/lib/pkgconfig/../../lib"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Werror -o p-pc p.c $(pkg-config --cflags --libs libonnxruntime)
expect_exit 0 ./p-pc
expect_in out "ONNX Runtime 1.30.0"
# It runs the moved bundle's library, not set-up's.
ldd ./p-pc >deps
expect_in deps "$b/lib/pkgconfig/../../lib/libonnxruntime.so.1"
unset PKG_CONFIG_PATH

# --- CMake: find_package(onnxruntime CONFIG) and the imported target ---
mkdir proj
cat >proj/CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(p C)
find_package(onnxruntime 1.30 CONFIG REQUIRED)
add_executable(p ../p.c)
target_link_libraries(p PRIVATE onnxruntime::onnxruntime)
EOF
cmake -S proj -B proj/build -DCMAKE_PREFIX_PATH="$b" >cmake.log 2>&1 || { cat cmake.log >&2; exit 1; }
cmake --build proj/build >>cmake.log 2>&1 || { cat cmake.log >&2; exit 1; }
expect_exit 0 proj/build/p
expect_in out "ONNX Runtime 1.30.0"
ldd proj/build/p >deps
expect_in deps "$b/lib/libonnxruntime.so.1"
# The package's version check: a newer major is refused.
sed -i 's/find_package(onnxruntime 1.30 CONFIG REQUIRED)/find_package(onnxruntime 2.0 CONFIG REQUIRED)/' proj/CMakeLists.txt
if cmake -S proj -B proj/build2 -DCMAKE_PREFIX_PATH="$b" >cmake2.log 2>&1; then
    echo "FAIL: find_package(onnxruntime 2.0) accepted a 1.30.0 bundle" >&2
    exit 1
fi
expect_in cmake2.log "1.30.0"
