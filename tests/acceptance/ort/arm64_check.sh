# tests/acceptance/ort/arm64_check.sh - sourced by scripts/build_ort.sh (after
# common.sh): --arm64-check, an aarch64 build from the Debian 11 root (VARIANT
# cpu-armv8.2 by default) checked on this x86-64 host under qemu-user, with
# the aarch64 ortkit (make build-arm64), into deps/arm64-check/report.txt:
#   a. bundle verify, without loading (its child process cannot start under
#      qemu-user; b. loads each in the emulated process): needs (glibc,
#      GLIBCXX; no library beyond glibc's and libstdc++'s), which a current
#      arm64 Debian must meet;
#   b. Silero VAD (real speech) and the PP-OCR mobile v2.0 classifier (the
#      one PP-OCRv4 uses) through the built bundle and through Microsoft's
#      arm64 1.21.0, on an emulated Neoverse N1 (ARMv8.2, fp16, dotprod);
#      the outputs compared;
#   c. bundle choose on each emulated CPU with both bundles present: the
#      ARMv8.2 build on neoverse-n1 and max, refused by its missing features
#      on cortex-a72 (ARMv8.0), where Microsoft's generic build is taken;
#   d. the ONNX node conformance tests of the operators below through both,
#      test by test: those of the models these builds run and of MLAS's
#      kernels (convolution, GEMM, quantized), 164 tests.  Under qemu each
#      test's process takes seconds to load ONNX Runtime, so the whole node
#      suite (1,200 tests) would take hours.
# Emulated speed is not a device's: nothing here is timed.
# shellcheck shell=sh disable=SC2154 # the settings are common.sh's, which build_ort.sh sources first.

arm64_check() {
    out="$deps/arm64-check"
    arm_ortkit="$here/build-arm64/ortkit"
    qemu="$deps/qemu/qemu-aarch64"
    built="$root$bundles/ort-$ort_version-$variant"
    [ -x "$arm_ortkit" ] || { say "no aarch64 ortkit: make build-arm64"; return 1; }
    [ -x "$qemu" ] || { say "no $qemu: sh scripts/setup.sh test fetches it"; return 1; }
    [ -e "$built/manifest.json" ] || { say "no bundle $built: VARIANT=$variant sh scripts/build_ort.sh"; return 1; }
    ORT_VERSIONS="$ort_version" sh "$here/scripts/setup.sh" --no-apt >/dev/null
    ms_rt="$deps/runtime-arm64/$ort_version"
    [ -d "$ms_rt" ] || { say "no Microsoft arm64 $ort_version in $ms_rt"; return 1; }
    rm -rf "$out" && mkdir -p "$out/bundles" "$out/outputs"
    cp -a "$built" "$out/bundles/"
    # arm CPU COMMAND...: the aarch64 ortkit on an emulated CPU, with the
    # check's own bundle directory.
    arm() {
        cpu=$1
        shift
        env QEMU_CPU="$cpu" ORTKIT_PATH="$out/bundles" "$qemu" "$arm_ortkit" "$@"
    }
    vad_in="$out/vad"
    /usr/bin/python3 "$here/tests/models/make_vad_input.py" "$vad_in" >/dev/null
    vad=$(vad_inputs "$vad_in")
    cls="--random --dim p2o.DynamicDimension.0=1 --dim p2o.DynamicDimension.1=48 --dim p2o.DynamicDimension.2=192"
    models="$deps/models"
    rc=0
    {
        echo "== the aarch64 ortkit under $("$qemu" --version | head -n 1)"
        echo "== ortkit bundle import $ms_rt (Microsoft's linux/arm64 $ort_version; loaded under emulation)"
        arm neoverse-n1 bundle import "$ms_rt" --name "ort-$ort_version-cpu" --into "$out/bundles" || rc=1
        ms="$out/bundles/ort-$ort_version-cpu"
        # --no-load: verify loads in a child process, which qemu-user cannot
        # start without a binfmt handler (ARCHITECTURE.md, "Tests"); the runs
        # below load each bundle in the emulated process itself.
        for b in "$out/bundles/$(basename "$built")" "$ms"; do
            echo "== ortkit bundle verify $(basename "$b") --no-load"
            arm neoverse-n1 bundle verify "$b" --no-load || rc=1
            arm neoverse-n1 bundle verify "$b" --no-load --json >"$out/verify-$(basename "$b").json" || true
        done
        for cpu in neoverse-n1 max cortex-a72; do
            echo "== QEMU_CPU=$cpu ortkit bundle choose"
            arm "$cpu" bundle choose || rc=1
        done
        for b in "$(basename "$built")" "ort-$ort_version-cpu"; do
            echo "== Silero VAD and the PP-OCR classifier through $b (neoverse-n1)"
            # shellcheck disable=SC2086 # $vad, $cls: options
            arm neoverse-n1 run "$models/silero_vad.onnx" $vad --threads 1 --bundle "$b" \
                -o "$out/outputs/$b/silero_vad" >/dev/null || rc=1
            # shellcheck disable=SC2086
            arm neoverse-n1 run "$models/ch_ppocr_mobile_v2.0_cls_infer.onnx" $cls --threads 1 --bundle "$b" \
                -o "$out/outputs/$b/ch_ppocr_mobile_v2.0_cls_infer" >/dev/null || rc=1
        done
        echo "== the build's outputs against Microsoft's: largest difference per output"
        compare_outputs "$out/outputs/$(basename "$built")" "$out/outputs/ort-$ort_version-cpu" || rc=1
        filters=""
        for op in conv gemm matmul relu add softmax lstm gru averagepool maxpool batchnorm sigmoid \
            concat reshape transpose qlinear dequantizelinear quantizelinear resize hardsigmoid clip; do
            filters="$filters --filter test_$op*"
        done
        for b in "ort-$ort_version-cpu" "$(basename "$built")"; do
            echo "== ortkit validate /usr/share/libonnx-testdata/data/node --bundle $b (neoverse-n1)$filters"
            # shellcheck disable=SC2086 # $filters: options, split but not globbed (set -f)
            (set -f && arm neoverse-n1 validate /usr/share/libonnx-testdata/data/node --bundle "$b" $filters \
                -j 2 --json) >"$out/validate-$b.json" 2>"$out/validate-$b.err" || true
        done
        echo "== conformance: the build against Microsoft's $ort_version, test by test"
        "$here/build/ortkit" compare "$out/validate-$(basename "$built").json" \
            "$out/validate-ort-$ort_version-cpu.json" || rc=1
    } >"$out/report.txt" 2>&1
    cat "$out/report.txt"
    say "arm64 check: $out/report.txt"
    return $rc
}
