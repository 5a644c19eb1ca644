# scripts/ort/patch_check.sh - sourced by scripts/build_ort.sh (after
# common.sh): --patch-check, whether ortkit's patch set for 1.21.0 applies to
# the source tarball as `ortkit build --patch` applies it: in name order,
# each on top of the ones before, without fuzz; on copies of the files the
# set names (no root is made or entered, the tree is not touched).
# shellcheck shell=sh disable=SC2154 # the settings are common.sh's, which build_ort.sh sources first.

patch_check() {
    tree="$src_dir/onnxruntime-$ort_version"
    copy=$(mktemp -d)
    # shellcheck disable=SC2064 # the directory is known now
    trap "rm -rf '$copy'; cleanup" EXIT INT TERM
    sed -n 's|^+++ b/||p' "$patches"/*.patch | sort -u | while read -r f; do
        [ -e "$tree/$f" ] || continue
        mkdir -p "$copy/$(dirname "$f")" && cp -a "$tree/$f" "$copy/$f"
    done
    for p in "$patches"/*.patch; do
        patch -p1 --forward --fuzz=0 --batch -s -d "$copy" <"$p" ||
            { say "$(basename "$p") does not apply"; exit 1; }
        say "$(basename "$p") applies"
    done
}
