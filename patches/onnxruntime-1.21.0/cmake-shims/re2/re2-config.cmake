# Debian's libre2-dev ships a pkg-config file but no CMake package; ONNX
# Runtime asks for one (find_package(re2 NAMES re2)).
find_package(PkgConfig REQUIRED)
pkg_check_modules(ORTKIT_RE2 REQUIRED IMPORTED_TARGET re2)
if(NOT TARGET re2::re2)
  add_library(re2::re2 INTERFACE IMPORTED)
  target_link_libraries(re2::re2 INTERFACE PkgConfig::ORTKIT_RE2)
endif()
set(re2_FOUND TRUE)
