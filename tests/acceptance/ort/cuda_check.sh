# tests/acceptance/ort/cuda_check.sh - sourced by scripts/build_ort.sh (after
# common.sh): step 5b, --cuda-check, what a machine without a GPU can check
# of a CUDA variant's bundle, into deps/cuda-ort-VARIANT.txt: the bundle
# verified, the GPU code and CUDA libraries its binaries show, the choice (no
# GPU: refused), a session asking for the CUDA provider (refused with its
# cause), and the build's operator-reduced core on the CPU giving the
# outputs Microsoft's 1.21.0 gives on the two models it was reduced to.
# shellcheck shell=sh disable=SC2154 # the settings are common.sh's, which build_ort.sh sources first.

cuda_check() {
    built="/bundles/ort-$ort_version-$variant"
    npm="/bundles/ort-$ort_version-cpu"
    out="$deps/cuda-ort-$variant.txt"
    vad_data
    npm_bundles
    # Options, split at blanks where they are used.
    vad=$(vad_inputs /data/vad)
    det=$(det_inputs)
    rm -rf "$root/data/outputs" && mkdir -p "$root/data/outputs"
    {
        echo "== ortkit bundle verify $built"
        inside ortkit bundle verify "$built" || true
        echo "== its GPU code and CUDA libraries (ortkit bundle complete: nothing left to add)"
        inside ortkit bundle complete "$built" || true
        echo "== ortkit bundle choose (this machine has no NVIDIA GPU)"
        inside env ORTKIT_PATH=/bundles ortkit bundle choose || true
        echo "== Silero VAD, asking for the CUDA provider (--ep cuda --strict)"
        # shellcheck disable=SC2086 # $vad: options
        if inside ortkit run /data/silero_vad.onnx $vad --runtime "$built" --ep cuda --strict; then
            echo "exit 0"
        else
            echo "exit $?"
        fi
        for m in silero_vad ch_PP-OCRv4_det_infer; do
            case $m in silero_vad) inputs=$vad ;; *) inputs=$det ;; esac
            for r in "$built" "$npm"; do
                echo "== $m on the CPU, $r"
                mkdir -p "$root/data/outputs/$(basename "$r")"
                # shellcheck disable=SC2086 # $inputs: options
                inside ortkit run "/data/$m.onnx" $inputs --runtime "$r" --threads 1 \
                    -o "/data/outputs/$(basename "$r")/$m" || echo "exit $?"
            done
        done
    } >"$out" 2>&1
    echo "== the CUDA build's core against Microsoft's 1.21.0: largest difference per output" >>"$out"
    compare_outputs "$root/data/outputs/$(basename "$built")" "$root/data/outputs/$(basename "$npm")" \
        >>"$out" 2>&1 || { cat "$out" >&2; say "the CUDA build's outputs differ ($out)"; return 1; }
    cat "$out"
    say "CUDA check: $out"
}
