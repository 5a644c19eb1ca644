# scripts/ort/patch_check.sh - sourced by scripts/build_ort.sh (after
# common.sh): --patch-check, whether ortkit's patch set for 1.21.0 applies to
# the source tarball (patch --dry-run; no root is made or entered).
# shellcheck shell=sh disable=SC2154 # the settings are common.sh's, which build_ort.sh sources first.

patch_check() {
    for p in "$patches"/*.patch; do
        patch -p1 --dry-run --batch -s -d "$src_dir/onnxruntime-$ort_version" <"$p" ||
            { say "$(basename "$p") does not apply"; exit 1; }
        say "$(basename "$p") applies"
    done
}
