# scripts/ort/static.sh - sourced by scripts/build_ort.sh (after common.sh):
# step 6, --static (after a build of the same variant), its static bundle
# and a program linked statically against it.  The same build directory as
# the shared variant: nothing is compiled again (CMake is run once more if
# it was configured without the file API query).  static_link.sh, run in
# the root, links examples/static_link.c twice, against the static archive
# (pkg-config --static) and against the shared bundle; both run Silero VAD
# and must print the same probability, and the static one must load no
# libonnxruntime: none is on the root's library path either
# (deps/static-ort-VARIANT.txt).
# shellcheck shell=sh disable=SC2154 # the settings are common.sh's, which build_ort.sh sources first.

static_check() {
    shared="$bundles/ort-$ort_version-$variant"
    static="$bundles/ort-$ort_version-$variant-static"
    [ -e "$root$shared/manifest.json" ] || { say "build $variant first (make build-ort)"; return 1; }
    say "ortkit build $variant --static"
    # shellcheck disable=SC2086 # ORTKIT_BUILD_FLAGS: options, split at blanks
    ortkit_build --static --bundle-into "$bundles" ${ORTKIT_BUILD_FLAGS:-} --json \
        >"$deps/build-ort-$build_tag-$variant-static.json"
    mkdir -p "$root/data"
    cp "$here/examples/static_link.c" "$deps/models/silero_vad.onnx" "$root/data/"
    cp "$ort_dir/static_link.sh" "$root/data/static_check.sh"
    out="$deps/static-ort-$variant.txt"
    inside sh /data/static_check.sh "$shared" "$static" >"$out" 2>&1 ||
        { cat "$out" >&2; say "the static check failed ($out)"; return 1; }
    cat "$out"
    say "static check: $out"
}
