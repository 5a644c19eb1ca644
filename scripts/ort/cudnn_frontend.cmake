cmake_minimum_required(VERSION 3.18)
project(cudnn_frontend LANGUAGES CXX)
add_library(cudnn_frontend INTERFACE)
target_include_directories(cudnn_frontend INTERFACE "${CMAKE_CURRENT_LIST_DIR}/include")
target_link_libraries(cudnn_frontend INTERFACE CUDNN::cudnn_all)
# Debian's cudnn-frontend leaves out the nlohmann/json it bundles: the one
# ONNX Runtime builds (its deps.txt's json) where there is one, else the system's.
if(TARGET nlohmann_json::nlohmann_json)
  target_link_libraries(cudnn_frontend INTERFACE nlohmann_json::nlohmann_json)
endif()
