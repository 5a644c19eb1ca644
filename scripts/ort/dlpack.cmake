# dlpack.cmake - the CMakeLists.txt of the dlpack source ortkit lays out for
# `ortkit build --deps` (scripts/fetch_dep_sources.sh): Debian's archive
# serves dlpack's header (libdlpack-dev 0.6, deps.txt's version) but not its
# source, and dlpack is one header.  This makes the target ONNX Runtime 1.21's
# Python extension links (dlpack::dlpack), as dlpack's own CMake does.
cmake_minimum_required(VERSION 3.15)
project(dlpack VERSION 0.6 LANGUAGES C)
add_library(dlpack INTERFACE)
target_include_directories(dlpack INTERFACE "${CMAKE_CURRENT_SOURCE_DIR}/include")
add_library(dlpack::dlpack ALIAS dlpack)
