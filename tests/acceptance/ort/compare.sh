# tests/acceptance/ort/compare.sh - sourced by scripts/build_ort.sh (after
# common.sh): step 5, --compare, the built bundle against Microsoft's generic
# npm runtime.  Both as bundles in /bundles: doctor must prefer an AVX2
# build on an AVX2 host (a generic cpu-x86-64 build ranks with the npm ones,
# below 1.30.0); bench runs both side by side on Silero VAD and real speech.
# shellcheck shell=sh disable=SC2154 # the settings are common.sh's, which build_ort.sh sources first.

compare() {
    vad_data
    npm_bundles
    say "doctor (ORTKIT_PATH=/bundles)"
    inside env ORTKIT_PATH=/bundles ortkit doctor || true
    built="ort-$ort_version-$variant"
    [ -d "$root/bundles/$built" ] || { say "no $built in $root/bundles"; return 1; }
    say "bench: npm $ort_version (generic) against the $variant build, Silero VAD"
    # shellcheck disable=SC2046 # vad_inputs: options, split at blanks
    inside ortkit bench /data/silero_vad.onnx $(vad_inputs /data/vad) --threads 1 -n 3000 \
        --runtime "/bundles/ort-$ort_version-cpu" --runtime "/bundles/$built" \
        --plot "/data/bench-$variant-vs-npm.svg" || true
}
