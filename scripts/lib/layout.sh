# shellcheck shell=sh disable=SC2154,SC2034 # $scripts is the sourcing script's; what is set here, it reads
# layout.sh - where a root script's parts are, sourced with $scripts set to
# the script's own directory.  In the clone that is scripts/, below the
# source tree; installed with ortkit it is share/ortkit/root, which carries
# ortkit's own source as a tarball (the root builds ortkit from it), the
# ONNX .proto files it was built with and, beside it, ONNX Runtime's headers.
if [ -f "$scripts/ortkit-src.tar.gz" ]; then
    here=""
    deps="${ORTKIT_DEPS:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/ortkit/root}"
    ort_headers="$scripts/../ort-headers"
    onnx_protos="$scripts/onnx-proto"
else
    here=$(cd "$scripts/.." && pwd)
    deps="${ORTKIT_DEPS:-$here/deps}"
    ort_headers="$deps/ort-headers/include"
    onnx_protos=/usr/lib/python3/dist-packages/onnx
fi
