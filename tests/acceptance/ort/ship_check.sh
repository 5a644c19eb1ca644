# tests/acceptance/ort/ship_check.sh - sourced by scripts/build_ort.sh (after
# common.sh): step 7, --ship-check, builds that ship checked where they were
# not built.  The bullseye root's bundles (cpu-x86-64 and cpu-avx2), on this
# host and in a second, minimal Debian 11 root standing for an older fleet
# host, into deps/ship-check/ (report.txt and the JSON behind it):
#   a. on this host, outside any root: bundle verify (needs: glibc, GLIBCXX,
#      no library beyond glibc's and libstdc++'s), the conformance suite
#      against Microsoft's 1.21.0, and both variants benchmarked in one
#      process beside Microsoft's;
#   b. a repository made by `bundle publish`, served by a loopback server;
#      in the fleet root, ortkit (built in the build root, glibc 2.31)
#      installs the best fit with `bundle install` and runs Silero VAD and
#      PP-OCRv4 det; the outputs are compared with Microsoft's 1.21.0 here.
# shellcheck shell=sh disable=SC2154 # the settings are common.sh's, which build_ort.sh sources first.

# ---- a. on this host ------------------------------------------------------------------
ship_check() {
    out="$deps/ship-check"
    host_ortkit="$here/build/ortkit"
    # Microsoft's build of the same version, as a bundle kept apart from
    # deps/bundles (the tests' bundle directory).
    npm="$deps/compare-bundles/ort-$ort_version-cpu"
    rm -rf "$out" && mkdir -p "$out/outputs"
    ORT_VERSIONS="$ort_version" sh "$here/scripts/setup.sh" --no-apt >/dev/null
    [ -d "$npm" ] || "$host_ortkit" bundle import "$deps/runtime/$ort_version" --name "ort-$ort_version-cpu" \
        --into "$deps/compare-bundles" >/dev/null
    built=""
    for v in cpu-x86-64 cpu-avx2; do
        b="$root$bundles/ort-$ort_version-$v"
        [ -e "$b/manifest.json" ] && built="$built $b"
    done
    [ -n "$built" ] || { say "no bundle built in $root$bundles: build cpu-x86-64 and cpu-avx2 first"; return 1; }
    vad_in="$out/vad"
    /usr/bin/python3 "$here/tests/models/make_vad_input.py" "$vad_in" >/dev/null
    # Options, split at blanks where they are used.
    vad=$(vad_inputs "$vad_in")
    det=$(det_inputs)
    models="$deps/models"
    {
        # shellcheck disable=SC1091 # the host's, read at run time
        echo "== this host: $(. /etc/os-release && echo "$PRETTY_NAME"), glibc $(ldd --version | head -n 1 | awk '{print $NF}')"
        for b in $built; do
            echo "== ortkit bundle verify $b"
            "$host_ortkit" bundle verify "$b" || echo "exit $?"
            "$host_ortkit" bundle verify "$b" --json >"$out/verify-$(basename "$b").json" || true
        done
        # Two builds that link nothing but glibc and libstdc++ share a process.
        # shellcheck disable=SC2086 # $built: a list of directories
        set -- $built
        for pair in "$1 ${2:-}" "$npm ${2:-$1}"; do
            # shellcheck disable=SC2086 # $pair: two directories, or one
            set -- $pair
            [ $# = 2 ] || continue
            echo "== Silero VAD, one process: --runtime $1 --runtime $2"
            # shellcheck disable=SC2086 # $vad: options
            "$host_ortkit" bench "$models/silero_vad.onnx" $vad --threads 1 -n 2000 --runtime "$1" --runtime "$2" ||
                echo "exit $?"
            echo "== PP-OCRv4 det 640x640, one process: --runtime $1 --runtime $2"
            # shellcheck disable=SC2086 # $det: options
            "$host_ortkit" bench "$models/ch_PP-OCRv4_det_infer.onnx" $det --threads 2 -n 30 --runtime "$1" \
                --runtime "$2" || echo "exit $?"
        done
        for b in $npm $built; do
            n=$(basename "$b")
            echo "== ortkit validate --runtime $n (the ONNX backend conformance suite)"
            "$host_ortkit" validate --runtime "$b" --json >"$out/validate-$n.json" 2>"$out/validate-$n.err" || true
        done
        for b in $built; do
            echo "== conformance: $(basename "$b") against Microsoft's $ort_version, test by test"
            "$host_ortkit" compare "$out/validate-$(basename "$b").json" "$out/validate-$(basename "$npm").json" ||
                echo "exit $?"
        done
    } >"$out/report.txt" 2>&1
    fleet_check >>"$out/report.txt" 2>&1 || { cat "$out/report.txt"; say "the fleet check failed"; return 1; }
    cat "$out/report.txt"
    say "ship check: $out/report.txt"
}

# ---- b. a Debian 11 fleet host -----------------------------------------------------------
# A minimal Debian 11 root (debootstrap --variant=minbase) with only
# ortkit's own run-time libraries; the bundles reach it through a signed
# repository on a loopback server.
fleet_check() {
    fleet="$deps/fleet-bullseye-root"
    if [ ! -e "$fleet/.fleet-ready" ]; then
        say "debootstrap --variant=minbase bullseye $fleet"
        rm -rf "$fleet" && mkdir -p "$fleet"
        debootstrap --variant=minbase bullseye "$fleet" "$debian_mirror" >"$deps/debootstrap-fleet.log" 2>&1 ||
            { say "debootstrap failed: $deps/debootstrap-fleet.log"; return 1; }
        cp /etc/resolv.conf "$fleet/etc/resolv.conf"
        chroot "$fleet" sh -c 'DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            libcjson1 libprotobuf-c1 libsodium23 libcurl4 libarchive13 libssl1.1 >/dev/null' ||
            { say "cannot install ortkit's run-time libraries in $fleet"; return 1; }
        touch "$fleet/.fleet-ready"
    fi
    rm -rf "$fleet/opt/ortkit" "$fleet/data" && mkdir -p "$fleet/data/out"
    cp -a "$root/opt/ortkit" "$fleet/opt/ortkit"
    cp "$deps/models/silero_vad.onnx" "$deps/models/ch_PP-OCRv4_det_infer.onnx" "$fleet/data/"
    cp -a "$out/vad" "$fleet/data/vad"
    repo="$out/repo"
    "$host_ortkit" bundle keygen --key "$out/ship.key" --pubkey "$fleet/data/ship.pub" >/dev/null
    # shellcheck disable=SC2086 # $built: a list of directories
    "$host_ortkit" bundle publish $built --repo "$repo" --key "$out/ship.key"
    port=$((20000 + $$ % 20000))
    (cd "$repo" && exec /usr/bin/python3 -m http.server --bind 127.0.0.1 "$port" >"$out/http.log" 2>&1) &
    server=$!
    sleep 1
    # shellcheck disable=SC1091,SC2031 # the fleet root's os-release, read in a subshell
    echo "== in $fleet: $(. "$fleet/etc/os-release" && echo "$PRETTY_NAME"), glibc $(chroot "$fleet" ldd --version | head -n 1 | awk '{print $NF}')"
    # A host has /proc: the loader finds $ORIGIN (RUNPATH) through /proc/self/exe.
    mountpoint -q "$fleet/proc" || mount -t proc proc "$fleet/proc"
    in_fleet() { chroot "$fleet" env -i PATH=/opt/ortkit/bin:/usr/bin:/bin HOME=/root "$@"; }
    rc=0
    # A fresh host each time: what an earlier check installed would be kept
    # (install replaces a bundle that verifies only with --force).
    rm -rf "$fleet/root/.local/share/ortkit" "$fleet/data/out"
    echo "== ortkit bundle install http://127.0.0.1:$port --pubkey ship.pub"
    in_fleet ortkit bundle install "http://127.0.0.1:$port" --pubkey /data/ship.pub || rc=1
    echo "== ortkit bundle list; ortkit doctor"
    in_fleet ortkit bundle list || rc=1
    in_fleet ortkit doctor || true
    echo "== Silero VAD and PP-OCRv4 det with the installed best fit"
    # The same input files, where the fleet root has them.
    fleet_vad=$(echo "$vad" | sed "s|$vad_in|/data/vad|g")
    # shellcheck disable=SC2086 # $fleet_vad: options
    in_fleet ortkit run /data/silero_vad.onnx $fleet_vad --threads 1 -o /data/out/silero_vad || rc=1
    # shellcheck disable=SC2086 # $det: options
    in_fleet ortkit run /data/ch_PP-OCRv4_det_infer.onnx $det --threads 1 -o /data/out/ch_PP-OCRv4_det_infer || rc=1
    kill "$server" 2>/dev/null || true
    umount "$fleet/proc" 2>/dev/null || true
    echo "== the same with Microsoft's $ort_version on this host"
    # shellcheck disable=SC2086 # $vad: options
    "$host_ortkit" run "$models/silero_vad.onnx" $vad --threads 1 --runtime "$npm" -o "$out/outputs/silero_vad" >/dev/null || rc=1
    # shellcheck disable=SC2086 # $det: options
    "$host_ortkit" run "$models/ch_PP-OCRv4_det_infer.onnx" $det --threads 1 --runtime "$npm" \
        -o "$out/outputs/ch_PP-OCRv4_det_infer" >/dev/null || rc=1
    echo "== the fleet host's outputs against Microsoft's: largest difference per output"
    compare_outputs "$fleet/data/out" "$out/outputs" || rc=1
    return $rc
}
