# cmake/aarch64-linux-gnu.cmake - cross-build ortkit for aarch64 (arm64) on a
# Debian x86-64 machine: Debian's gcc-aarch64-linux-gnu, and ortkit's
# dependencies from Debian's arm64 packages installed beside the native ones
# (multiarch: libcjson-dev:arm64, libssl-dev:arm64, ...; scripts/setup.sh
# installs them).  The build's own tools (protoc-c, the Python model
# generator) run natively; the programs it makes run under qemu-user
# (CMAKE_CROSSCOMPILING_EMULATOR), which the tests use.
#
#     cmake -S . -B build-arm64 -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
#
# or `make build-arm64` (docs/BUILD.md, "ortkit for aarch64").
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(ORTKIT_CROSS_TRIPLE aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${ORTKIT_CROSS_TRIPLE}-gcc)
# A C++ compiler only for the header tests' C++11 check, where one is installed.
find_program(ORTKIT_CROSS_CXX ${ORTKIT_CROSS_TRIPLE}-g++)
if(ORTKIT_CROSS_CXX)
  set(CMAKE_CXX_COMPILER ${ORTKIT_CROSS_CXX})
endif()

# Libraries and headers: the arm64 multiarch directories (and the cross
# compiler's own); programs: this machine's.
set(CMAKE_FIND_ROOT_PATH /usr/${ORTKIT_CROSS_TRIPLE})
set(CMAKE_LIBRARY_ARCHITECTURE ${ORTKIT_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
# pkg-config reads the arm64 packages' .pc files, never the native ones.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/${ORTKIT_CROSS_TRIPLE}/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")

# Programs the build makes run under qemu-user, invoked explicitly (no binfmt
# handler is needed): set-up's deps/qemu/qemu-aarch64 (Debian trixie's, 10.0:
# it shows an emulated program its CPU's own /proc/cpuinfo, which ONNX
# Runtime's CPU detection needs; Debian 12's 7.2 shows the host's, and ORT
# crashes on it), else one on the PATH.  QEMU_CPU in the environment picks
# the CPU model (cortex-a72, neoverse-n1, max; qemu's default otherwise).
get_filename_component(ORTKIT_CROSS_SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
find_program(ORTKIT_QEMU NAMES qemu-aarch64 PATHS "${ORTKIT_CROSS_SOURCE_DIR}/deps/qemu" NO_DEFAULT_PATH)
find_program(ORTKIT_QEMU NAMES qemu-aarch64 qemu-aarch64-static)
if(ORTKIT_QEMU)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${ORTKIT_QEMU})
endif()
