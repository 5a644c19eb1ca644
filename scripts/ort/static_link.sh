#!/bin/sh
# static_link.sh SHARED STATIC - run inside the build root (build_ort.sh
# --static copies it to /data/static_check.sh, beside examples/static_link.c
# and silero_vad.onnx): the program linked against the static bundle STATIC
# and against the shared bundle SHARED; the static one must load no
# libonnxruntime, and both must print the same speech probability.
set -eu
shared=$1 static=$2
cd /data
# ortkit itself from its install (its .pc asks for -dev packages the chroot lacks).
ortkit_flags="-I/opt/ortkit/include -L/opt/ortkit/lib -lortkit -Wl,-rpath,/opt/ortkit/lib"
echo "== ortkit bundle verify $static"
ortkit bundle verify "$static"
echo "== pkg-config --static --libs libonnxruntime"
PKG_CONFIG_PATH="$static/lib/pkgconfig" pkg-config --static --libs libonnxruntime
# shellcheck disable=SC2046,SC2086 # compiler options, split at blanks
cc -O2 -o vad-static static_link.c $ortkit_flags \
    $(PKG_CONFIG_PATH="$static/lib/pkgconfig" pkg-config --static --cflags --libs libonnxruntime)
# shellcheck disable=SC2046,SC2086 # compiler options, split at blanks
cc -O2 -o vad-shared static_link.c $ortkit_flags \
    $(PKG_CONFIG_PATH="$shared/lib/pkgconfig" pkg-config --cflags --libs libonnxruntime)
echo "== what each needs"
if ldd vad-static | grep onnxruntime; then echo "vad-static loads a libonnxruntime"; exit 1; fi
if ldconfig -p | grep libonnxruntime; then echo "a libonnxruntime is on the library path"; exit 1; fi
ldd vad-shared | grep onnxruntime
ls -l vad-static vad-shared
echo "== static"
./vad-static silero_vad.onnx | tee static.txt
echo "== shared"
./vad-shared silero_vad.onnx | tee shared.txt
p() { sed -n 's/.*speech probability //p' "$1"; }
if [ -z "$(p static.txt)" ] || [ "$(p static.txt)" != "$(p shared.txt)" ]; then
    echo "the two builds disagree"
    exit 1
fi
echo "== the same probability from the static and the shared core"
