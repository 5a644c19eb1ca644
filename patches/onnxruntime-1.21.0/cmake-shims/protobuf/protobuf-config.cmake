# Debian's libprotobuf-dev ships no CMake package; ONNX Runtime asks for one
# (find_package(... NAMES Protobuf protobuf)).  CMake's FindProtobuf module
# makes the same imported targets from the installed library.
find_package(Protobuf MODULE REQUIRED)
set(protobuf_FOUND TRUE)
