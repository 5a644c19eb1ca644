#!/bin/sh
# gpu_check.sh - the GPU chain end to end, on a machine with an NVIDIA GPU:
# the host through NVML, a self-contained CUDA 13 bundle made from an ONNX
# Runtime built with CUDA (Microsoft's 1.29.0, or a build of ortkit's own)
# and the machine's CUDA 13 libraries, `ortkit doctor` (the probe's verdict
# and a live run on CUDA), `validate --ep cuda --strict` on the ONNX node
# suite, and `bench` of real models on CUDA against the CPU.
#
#   tests/acceptance/gpu_check.sh pack OUTDIR
#       here (where the download cache is): the 1.29.0 core built with CUDA
#       (onnxruntime-node's) and the release's CUDA provider,
#       xz-compressed and split into 60 MiB parts with their SHA-256s, small
#       enough to send to a machine that has no npm or Debian mirror.
#   tests/acceptance/gpu_check.sh kit OUTDIR BUNDLE
#       here, for a CUDA bundle of ortkit's own build (BUNDLE, a directory
#       made by `ortkit build` in the Debian 11 root): OUTDIR/kit.tar.xz,
#       what `run` needs on a machine with no build tree: ortkit as built in
#       that root (glibc 2.31) with the libraries it needs beyond glibc, the
#       build's core and providers (no CUDA libraries: those come from the
#       GPU machine), its manifest as built, the ONNX node suite, the two
#       models, Silero VAD's speech input and Microsoft's 1.21.0 outputs on
#       the CPU for the same inputs.
#   tests/acceptance/gpu_check.sh run SRC [BUILD_DIR]
#       there: SRC is the parts directory from `pack`, the unpacked kit
#       from `kit`, or a directory holding libonnxruntime.so and
#       libonnxruntime_providers_cuda.so.  The CUDA 13
#       libraries are taken from LD_LIBRARY_PATH, CUDA_HOME, or pip's
#       site-packages/nvidia/*/lib of python3; `bundle complete` copies them
#       into the bundle, and the later steps run without LD_LIBRARY_PATH.
#       Figures go to BUILD_DIR/gpu-check/.  Where the machine has no build
#       tree: ORTKIT_BIN (the installed ortkit), ORTKIT_NODE_TESTS (ONNX's
#       node test directory) and ORTKIT_MODELS (silero_vad.onnx and
#       ch_PP-OCRv4_det_infer.onnx) say where things are; ORTKIT_GPU_NAME and
#       ORTKIT_GPU_VARIANT name the bundle and its variant (a kit sets all
#       of these itself).  With a kit, the last step runs the two models on
#       CUDA and compares their outputs with the reference's.
#
# Exit 77 when the machine has no NVIDIA GPU (NVML sees none).  What the
# steps judge is read from ortkit's own output (`host`'s gpu line, `doctor`'s
# USABLE column, `ortkit compare`): no JSON is parsed here.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source-path=SCRIPTDIR source=../../scripts/lib/model_inputs.sh
. "$here/scripts/lib/model_inputs.sh"
say() { printf 'gpu-check: %s\n' "$*" >&2; }

pack() {
    out=$1
    # The download cache (here only: `run` needs none of this).
    # shellcheck source-path=SCRIPTDIR source=../../scripts/lib/fetch.sh
    . "$here/scripts/lib/fetch.sh"
    mkdir -p "$out"
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    plugins=package/Plugins/Linux/x64
    # The core built with CUDA (onnxruntime-node's): the CPU package's core
    # crashes beside this bridge provider, and import refuses it.
    tar xzf "$cache/onnxruntime-node-1.29.0.tgz" -C "$tmp" --strip-components=5 \
        package/bin/napi-v6/linux/x64/libonnxruntime.so.1
    mv "$tmp/libonnxruntime.so.1" "$tmp/libonnxruntime.so"
    tar xzf "$cache/com.github.asus4.onnxruntime.linux-x64-gpu-0.4.9.tgz" -C "$tmp" --strip-components=4 \
        "$plugins/libonnxruntime_providers_cuda.so" "$plugins/libonnxruntime_providers_shared.so"
    (cd "$tmp" && sha256sum libonnxruntime*.so) >"$out/files.sha256"
    say "compressing (xz -9, a few minutes)"
    tar cf - -C "$tmp" libonnxruntime.so libonnxruntime_providers_cuda.so libonnxruntime_providers_shared.so |
        xz -9 -T0 | split -b 60M -d - "$out/ort-1.29.0-cuda13.tar.xz.part"
    (cd "$out" && sha256sum ort-1.29.0-cuda13.tar.xz.part*) >"$out/parts.sha256"
    say "$(find "$out" -type f | wc -l) files in $out"
}

kit() {
    out=$1 bundle=$2
    root="$here/deps/bullseye-root"
    ref="$root/data/outputs/ort-1.21.0-cpu"
    for f in "$bundle/manifest.json" "$bundle/lib/libonnxruntime_providers_cuda.so" \
        "$root/opt/ortkit/bin/ortkit" "$ref/silero_vad" "$root/data/vad/speech.npy"; do
        [ -e "$f" ] || { say "$f is missing: build the bundle and run its --cuda-check first (docs/BUILD.md)"; exit 1; }
    done
    mkdir -p "$out"
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    k="$tmp/kit"
    mkdir -p "$k/ortkit/lib" "$k/ortkit/deplibs" "$k/ort" "$k/models" "$k/vad"
    cp -a "$root/opt/ortkit/bin" "$root/opt/ortkit/libexec" "$root/opt/ortkit/share" "$k/ortkit/"
    cp -a "$root/opt/ortkit/lib/"*.so* "$k/ortkit/lib/"
    # The libraries ortkit needs beyond glibc and libstdc++, from the root
    # (the GPU machine's own glibc is newer; its other libraries may lack a
    # soname Debian 11 has, such as libcrypto.so.1.1).
    chroot "$root" sh -c 'ldd /opt/ortkit/bin/ortkit /opt/ortkit/lib/*.so.0.1.0 /opt/ortkit/libexec/ortkit/ortkit-probe' |
        awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u | while read -r lib; do
        case ${lib##*/} in
        ld-linux* | libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | libresolv.so.* | \
            libutil.so.* | libnsl.so.* | libanl.so.* | libstdc++.so.* | libgcc_s.so.* | libortkit*) continue ;;
        esac
        cp -L "$root$lib" "$k/ortkit/deplibs/"
    done
    # DT_RPATH on every file: RUNPATH serves only a file's own needs, and
    # the machine's newer libcurl (say) must not mix with the root's.
    # shellcheck disable=SC2016 # $ORIGIN is the loader's, not the shell's
    {
        patchelf --force-rpath --set-rpath '$ORIGIN/../lib:$ORIGIN/../deplibs' "$k/ortkit/bin/ortkit"
        patchelf --force-rpath --set-rpath '$ORIGIN/../../lib:$ORIGIN/../../deplibs' "$k/ortkit/libexec/ortkit/ortkit-probe"
        for f in "$k/ortkit/lib/"*.so.*.*.*; do
            patchelf --force-rpath --set-rpath '$ORIGIN:$ORIGIN/../deplibs' "$f"
        done
        for f in "$k/ortkit/deplibs/"*; do patchelf --force-rpath --set-rpath '$ORIGIN' "$f"; done
    }
    # `bundle complete` sets the CUDA libraries' RUNPATH with patchelf.
    cp "$(command -v patchelf)" "$k/ortkit/bin/"
    cp -a "$bundle/lib/libonnxruntime.so."*.*.* "$bundle/lib/libonnxruntime_providers_cuda.so" \
        "$bundle/lib/libonnxruntime_providers_shared.so" "$k/ort/"
    (cd "$k/ort" && ln -s libonnxruntime.so.*.*.* libonnxruntime.so)
    cp "$bundle/manifest.json" "$k/ort/manifest-as-built.json"
    # Its name and variant, from `bundle show`'s "bundle" and "runtime" lines.
    "$here/build/ortkit" bundle show "$bundle" |
        sed -n -e 's/^bundle  *//p' -e 's/^runtime .*, variant \([^,]*\), .*/\1/p' >"$k/ort/bundle"
    [ "$(wc -l <"$k/ort/bundle")" = 2 ] || { say "cannot read the name and variant of $bundle"; exit 1; }
    cp -a /usr/share/libonnx-testdata/data/node "$k/node"
    cp "$here/deps/models/silero_vad.onnx" "$here/deps/models/ch_PP-OCRv4_det_infer.onnx" "$k/models/"
    cp "$root/data/vad/"*.npy "$k/vad/"
    cp -a "$ref" "$k/reference"
    say "compressing (xz -9)"
    tar cf - -C "$tmp" kit | xz -9 -T2 >"$out/kit.tar.xz"
    say "$out/kit.tar.xz: $(du -h "$out/kit.tar.xz" | cut -f1)"
}

# The runtime directory from SRC: parts reassembled and checked, or SRC itself.
runtime_dir() {
    src=$1 work=$2
    if [ -f "$src/libonnxruntime_providers_cuda.so" ]; then
        echo "$src"
        return
    fi
    (cd "$src" && sha256sum -c --quiet parts.sha256) >&2
    mkdir -p "$work/ort"
    cat "$src"/ort-1.29.0-cuda13.tar.xz.part* | xz -d | tar xf - -C "$work/ort"
    (cd "$work/ort" && sha256sum -c --quiet "$src/files.sha256") >&2
    echo "$work/ort"
}

# pip's CUDA libraries (nvidia-cublas-cu13, nvidia-cudnn-cu13, ...), if any.
pip_cuda_dirs() {
    python3 - <<'PY' 2>/dev/null || true
import glob, os, site
roots = site.getsitepackages() + [site.getusersitepackages()]
print(":".join(sorted({d for r in roots for d in glob.glob(os.path.join(r, "nvidia", "*", "lib"))})))
PY
}

# Run a command, its output also appended to the report; its status kept.
show() {
    if out=$("$@" 2>&1); then rc=0; else rc=$?; fi
    printf '%s\n' "$out" | tee -a "$report"
    return "$rc"
}

run() {
    src=$1 build=${2:-$here/build}
    kitdir=
    if [ -d "$src/ortkit" ] && [ -d "$src/ort" ]; then
        # An unpacked kit: everything travels in it.
        kitdir=$(cd "$src" && pwd)
        ORTKIT_BIN=${ORTKIT_BIN:-$kitdir/ortkit/bin/ortkit}
        ORTKIT_NODE_TESTS=${ORTKIT_NODE_TESTS:-$kitdir/node}
        ORTKIT_MODELS=${ORTKIT_MODELS:-$kitdir/models}
        ORTKIT_GPU_NAME=${ORTKIT_GPU_NAME:-$(sed -n 1p "$kitdir/ort/bundle")}
        ORTKIT_GPU_VARIANT=${ORTKIT_GPU_VARIANT:-$(sed -n 2p "$kitdir/ort/bundle")}
        src=$kitdir/ort
        PATH=$kitdir/ortkit/bin:$PATH
    fi
    ortkit="${ORTKIT_BIN:-$build/ortkit}"
    nodes="${ORTKIT_NODE_TESTS:-/usr/share/libonnx-testdata/data/node}"
    models="${ORTKIT_MODELS:-$here/deps/models}"
    work="$build/gpu-check"
    mkdir -p "$work"
    report="$work/report.txt"
    : >"$report"

    say "1/8 the host through NVML"
    "$ortkit" host --json >"$work/host.json"
    # "gpu 0       NVIDIA H100 80GB HBM3, SM 9.0, 79.2 GiB": sm 90.
    sm=$("$ortkit" host | sed -n 's/^gpu 0  *.*, SM \([0-9]*\)\.\([0-9]*\), .*/\1\2/p')
    if [ -z "$sm" ]; then
        say "NVML sees no NVIDIA GPU here: nothing to check"
        exit 77
    fi
    show "$ortkit" host

    say "2/8 the ONNX Runtime core and CUDA provider, and the CUDA 13 libraries"
    rt=$(runtime_dir "$src" "$work")
    host_ldpath=${LD_LIBRARY_PATH-}
    extra=$(pip_cuda_dirs)
    LD_LIBRARY_PATH="${extra:+$extra:}${CUDA_HOME:+$CUDA_HOME/lib64:}${LD_LIBRARY_PATH:-}"
    export LD_LIBRARY_PATH

    say "3/8 a self-contained CUDA 13 bundle for sm_$sm"
    rm -rf "$work/bundles"
    name="${ORTKIT_GPU_NAME:-ort-1.29.0-cuda13-sm$sm}"
    show "$ortkit" bundle import "$rt/libonnxruntime.so" --providers "$rt" --name "$name" \
        ${ORTKIT_GPU_VARIANT:+--variant "$ORTKIT_GPU_VARIANT"} --into "$work/bundles"
    show "$ortkit" bundle complete "$work/bundles/$name"
    show "$ortkit" bundle verify "$work/bundles/$name"
    # From here on the bundle must stand alone: the CUDA libraries found
    # above are no longer on the search path (the machine's own setting is).
    if [ -n "$host_ldpath" ]; then LD_LIBRARY_PATH=$host_ldpath; else unset LD_LIBRARY_PATH; fi
    say "LD_LIBRARY_PATH is now '${LD_LIBRARY_PATH-}'"
    export ORTKIT_PATH="$work/bundles"

    say "4/8 selection on this host"
    show "$ortkit" bundle choose "$work/bundles"
    "$ortkit" bundle choose --json "$work/bundles" >"$work/choose.json"
    export ORTKIT_BUNDLE="$name"

    say "5/8 doctor: the probe's verdict and a live run on CUDA"
    show "$ortkit" doctor || true
    "$ortkit" doctor --json >"$work/doctor.json" || true
    # The GPU providers' table: PROVIDER, then USABLE.
    printf '%s\n' "$out" | grep -Eq '^ *CUDAExecutionProvider +yes( |$)' ||
        { say "doctor: the CUDA provider is not usable in $name"; exit 1; }

    # The runtime's own CPU kernels are the measure: a build reduced to some
    # models' operators passes only the tests made of them, and CUDA is asked
    # to pass those (`compare`'s "worse": the CPU passes them, CUDA does not).
    say "6/8 validate on the node suite: the CPU, then --ep cuda --strict; CUDA against the CPU"
    "$ortkit" validate --ep cpu --json "$nodes" >"$work/validate-cpu.json" || true
    "$ortkit" validate --ep cuda --strict --json "$nodes" >"$work/validate.json" || true
    show "$ortkit" compare "$work/validate.json" "$work/validate-cpu.json" || true

    say "7/8 bench: CUDA against the CPU on real models"
    for m in silero_vad ch_PP-OCRv4_det_infer; do
        model="$models/$m.onnx"
        [ -f "$model" ] || continue
        case $m in
        silero*) inputs="--random --dim batch=1 --dim sequence=512" ;;
        *) inputs=$(det_inputs) ;;
        esac
        # --strict: a CUDA side that fell back to the CPU would measure nothing.
        # shellcheck disable=SC2086 # $inputs: options
        "$ortkit" bench "$model" $inputs -t 5 --strict --ep cpu --compare ep=cuda --json \
            >"$work/bench-$m.json" || { say "$m: no bench on CUDA"; continue; }
        # shellcheck disable=SC2086 # $inputs: options
        show "$ortkit" bench "$model" $inputs -t 5 --strict --ep cpu --compare ep=cuda || true
    done

    say "8/8 outputs on CUDA against the reference's on the CPU"
    if [ -n "$kitdir" ] && [ -d "$kitdir/reference" ]; then
        rm -rf "$work/outputs"
        for m in silero_vad ch_PP-OCRv4_det_infer; do
            case $m in silero_vad) inputs=$(vad_inputs "$kitdir/vad") ;; *) inputs=$(det_inputs) ;; esac
            # shellcheck disable=SC2086 # $inputs: options
            show "$ortkit" run "$models/$m.onnx" $inputs --ep cuda --strict \
                -o "$work/outputs/$m" || true
        done
        printf '%s\n' "largest difference per output, CUDA against Microsoft's 1.21.0 on the CPU:" | tee -a "$report"
        show "$ortkit" compare --rtol 1e-4 "$work/outputs" "$kitdir/reference" || true
    else
        say "no reference outputs (a kit from \`kit\` carries them): skipped"
    fi
    say "done: $report"
}

case "${1:-}" in
pack) shift; pack "$@" ;;
kit) shift; kit "$@" ;;
run) shift; run "$@" ;;
*) sed -n '2,40p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
