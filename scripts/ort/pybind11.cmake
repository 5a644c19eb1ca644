# pybind11.cmake - the CMakeLists.txt of the pybind11 source ortkit lays out
# for `ortkit build --deps` (scripts/fetch_dep_sources.sh): Debian's archive
# serves pybind11's headers (pybind11-dev) but not its source, and pybind11 is
# header-only.  This makes the targets ONNX Runtime 1.21 links its Python
# extension against (cmake/external/onnxruntime_external_deps.cmake:
# pybind11::module, else pybind11::pybind11), as pybind11's own CMake does
# for a module: its headers, C++11, and Python's headers (Python::Module,
# which ONNX Runtime's CMake has already found).
cmake_minimum_required(VERSION 3.15)
project(pybind11 VERSION 2.13.6 LANGUAGES CXX)
add_library(pybind11_headers INTERFACE)
target_include_directories(pybind11_headers INTERFACE "${CMAKE_CURRENT_SOURCE_DIR}/include")
target_compile_features(pybind11_headers INTERFACE cxx_std_11)
add_library(pybind11::headers ALIAS pybind11_headers)
add_library(pybind11::pybind11 ALIAS pybind11_headers)
add_library(pybind11_module INTERFACE)
target_link_libraries(pybind11_module INTERFACE pybind11_headers)
if(TARGET Python::Module)
  target_link_libraries(pybind11_module INTERFACE Python::Module)
endif()
add_library(pybind11::module ALIAS pybind11_module)
