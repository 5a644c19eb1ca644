# tests/acceptance/ort/python_check.sh - sourced by scripts/build_ort.sh (after
# common.sh): --python-check, what the wheels of a build with Python
# (ORT_PYTHON="3.11 3.13") do where they were not built, installed as a user
# would, from a signed index served by nginx on loopback:
#   1. the wheels published (deps/python-index, key deps/python-index.key);
#   2. Debian 12 (this host, Python 3.11, its numpy 1.24): a venv with the
#      system's packages, `ortkit wheel choose --install`, `import onnxruntime`,
#      Silero VAD and PP-OCRv4 det against Microsoft's 1.21.0 C library
#      through ortkit (`ortkit compare`, rtol 1e-4), and ONNX Runtime's own
#      onnxruntime_test_python.py from the source tree;
#   3. Debian 11 (the root, glibc 2.31, CPython 3.11 and 3.13 built there):
#      the choice, and each extension loaded by its CPython (no numpy can be
#      had there for a CPython >= 3.10: docs/PYTHON.md);
#   4. Debian 13 (a trixie root, Python 3.13, numpy 2.2, Debian's own
#      python3-onnxruntime 1.21.0): the same models against Debian's package
#      and Microsoft's library, then run and session-creation times against
#      Debian's package in alternating processes (deps/python-bench.jsonl).
# Everything it prints goes to stderr; the figures also to deps/python-check.txt.
# shellcheck shell=sh disable=SC2154 # the settings are common.sh's, which build_ort.sh sources first.

py_tri="$deps/trixie-py-root"
py_out="$deps/python-check"
py_index="$deps/python-index"

# A key pair for the index, once.
py_key() {
    [ -s "$deps/python-index.key" ] && return 0
    "$here/build/ortkit" bundle keygen --key "$deps/python-index.key" --pubkey "$deps/python-index.pub" >/dev/null
}

# nginx serving $py_index over http on a free loopback port: sets py_url.
py_serve() {
    port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    d="$py_out/nginx"
    mkdir -p "$d/logs" "$d/tmp"
    cat >"$d/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
error_log $d/logs/error.log;
pid $d/nginx.pid;
events { worker_connections 64; }
http {
    access_log $d/logs/access.log;
    client_body_temp_path $d/tmp;
    proxy_temp_path $d/tmp;
    fastcgi_temp_path $d/tmp;
    uwsgi_temp_path $d/tmp;
    scgi_temp_path $d/tmp;
    server { listen 127.0.0.1:$port; root $py_index; }
}
CONF
    /usr/sbin/nginx -p "$d" -c "$d/nginx.conf" -e "$d/logs/error.log" &
    py_nginx=$!
    py_url="http://127.0.0.1:$port"
    n=0
    until curl -sf -o /dev/null "$py_url/wheels.json"; do
        n=$((n + 1))
        [ $n -lt 100 ] || { say "nginx did not start"; exit 1; }
        sleep 0.1
    done
}

# The models' inputs as .npy files (the same bytes everywhere): Silero VAD on
# the spoken sentence, PP-OCRv4 det on seeded random data, 1x3x640x640.
py_inputs() {
    mkdir -p "$py_out/in"
    /usr/bin/python3 "$here/tests/models/make_vad_input.py" "$py_out/in" >/dev/null
    /usr/bin/python3 -c 'import numpy as np, sys
np.save(sys.argv[1], np.random.default_rng(1).random((1, 3, 640, 640), dtype=np.float32))' "$py_out/in/det.npy"
}
py_vad="silero_vad.onnx input=IN/speech.npy sr=IN/sr.npy h=IN/state.npy c=IN/state.npy"
py_det="ch_PP-OCRv4_det_infer.onnx x=IN/det.npy"

# py_spec SPEC AT: model (SPEC's first word) and feeds (NAME=AT/in/FILE ...).
py_spec() {
    at=$2
    # shellcheck disable=SC2086 # a model and its feeds, split at blanks
    set -- $1
    model=$1
    shift
    feeds=""
    for a; do feeds="$feeds ${a%%=*}=$at/in/${a#*=IN/}"; done
}

# The reference: Microsoft's 1.21.0 C library, through ortkit on this host.
py_reference() {
    ORT_VERSIONS="$ort_version" sh "$here/scripts/setup.sh" --no-apt
    lib=$(ls "$deps/runtime/$ort_version"/libonnxruntime.so.1* | head -n 1)
    for m in "$py_vad" "$py_det"; do
        py_spec "$m" "$py_out"
        args=""
        for f in $feeds; do args="$args -i $f"; done
        # shellcheck disable=SC2086 # options, split at blanks
        "$here/build/ortkit" run "$deps/models/$model" --runtime "$lib" --threads 1 $args \
            -o "$py_out/ref/$model" >/dev/null
    done
}

# py_models PYTHON DIR OUT: the two models through the package PYTHON
# imports, outputs in OUT; $py_prefix runs PYTHON (a chroot, or nothing),
# DIR is where the inputs and models are as PYTHON sees them.
py_models() {
    python=$1 where=$2 out=$3
    for m in "$py_vad" "$py_det"; do
        py_spec "$m" "$where"
        # Debian's python3-onnxruntime reports each ONNX schema twice on stderr: kept apart.
        # shellcheck disable=SC2086
        $py_prefix "$python" "$where/python_check.py" run "$out" "$where/models/$model" $feeds \
            2>>"$py_out/stderr.log" >&2
    done
}

py_host() {
    say "Debian 12: a venv of /usr/bin/python3 with the system's numpy, the wheel chosen and installed"
    rm -rf "$py_out/venv-host"
    /usr/bin/python3 -m venv --system-site-packages "$py_out/venv-host"
    env -u PIP_FIND_LINKS PIP_CONFIG_FILE=/dev/null "$here/build/ortkit" wheel choose "$py_url" \
        --pubkey "$deps/python-index.pub" --python "$py_out/venv-host/bin/python" --install \
        --into "$py_out/dl" | tee -a "$py_out/report.txt" >&2
    mkdir -p "$py_out/host/models" && cp "$deps/models"/*.onnx "$py_out/host/models/"
    cp "$acc_dir/python_check.py" "$py_out/host/" && rm -rf "$py_out/host/in" && cp -r "$py_out/in" "$py_out/host/in"
    py_prefix=""
    "$py_out/venv-host/bin/python" "$acc_dir/python_check.py" which | tee -a "$py_out/report.txt" >&2
    rm -rf "$py_out/out-host"
    py_models "$py_out/venv-host/bin/python" "$py_out/host" "$py_out/out-host"
    say "Debian 12: the wheel against Microsoft's $ort_version C library"
    compare_outputs "$py_out/out-host" "$py_out/ref" | tee -a "$py_out/report.txt" >&2
    # ONNX Runtime's own tests of its Python API, from the source tree, offline.
    t="$py_out/ort-tests"
    rm -rf "$t" && mkdir -p "$t"
    cp "$src_dir/onnxruntime-$ort_version/onnxruntime/test/python/onnxruntime_test_python.py" \
        "$src_dir/onnxruntime-$ort_version/onnxruntime/test/python/helper.py" "$t/"
    cp -r "$src_dir/onnxruntime-$ort_version/onnxruntime/test/testdata" "$t/testdata"
    say "Debian 12: ONNX Runtime's onnxruntime_test_python.py"
    (cd "$t" && "$py_out/venv-host/bin/python" -m unittest onnxruntime_test_python 2>&1) |
        tail -n 5 | tee -a "$py_out/report.txt" >&2 || true
}

py_bullseye() {
    say "Debian 11 (glibc 2.31): the choice for each CPython, and each extension loaded by it"
    for py in $pythons; do
        inside env -u PIP_FIND_LINKS ortkit wheel choose "$py_url" --pubkey "$(sed -n 2p "$deps/python-index.pub")" \
            --python "/opt/python$py/bin/python$py" | tee -a "$py_out/report.txt" >&2
        w=$(ls "$root/build/python/$variant/wheels/"*"cp$(echo "$py" | tr -d .)"*.whl)
        rm -rf "$root/tmp/wheel-$py" && mkdir -p "$root/tmp/wheel-$py"
        (cd "$root/tmp/wheel-$py" && unzip -q "$w")
        # RTLD_NOW (ctypes always asks for it): every symbol and version resolved here.
        inside "/opt/python$py/bin/python$py" -c "import ctypes, platform
ctypes.CDLL('/tmp/wheel-$py/onnxruntime/capi/onnxruntime_pybind11_state.so')
print('CPython $py on glibc', platform.libc_ver()[1] + ': the extension loads, every symbol resolved')" |
            tee -a "$py_out/report.txt" >&2
    done
}

# A Debian 13 root with Python 3.13, numpy 2.2 and Debian's python3-onnxruntime 1.21.0.
py_trixie_root() {
    if [ ! -e "$py_tri/.ready" ]; then
        say "Debian 13 root with python3-onnxruntime (once; a few minutes)"
        if [ ! -e "$py_tri/.debootstrap-done" ]; then
            rm -rf "$py_tri" && mkdir -p "$py_tri"
            debootstrap --variant=minbase trixie "$py_tri" "$debian_mirror" >"$deps/debootstrap-trixie-py.log" 2>&1 ||
                { say "debootstrap failed; see $deps/debootstrap-trixie-py.log"; exit 1; }
            touch "$py_tri/.debootstrap-done"
        fi
        cp /etc/resolv.conf "$py_tri/etc/resolv.conf" 2>/dev/null || true
        # apt, not debootstrap, resolves the packages' virtual dependencies.
        chroot "$py_tri" sh -c 'export DEBIAN_FRONTEND=noninteractive; apt-get update -qq &&
            apt-get install -y -qq --no-install-recommends python3-onnxruntime python3-numpy \
                python3-venv python3-pip >/dev/null' ||
            { say "cannot install python3-onnxruntime in $py_tri"; exit 1; }
        touch "$py_tri/.ready"
    fi
    mountpoint -q "$py_tri/proc" || mount -t proc proc "$py_tri/proc"
    cp /etc/resolv.conf "$py_tri/etc/resolv.conf" 2>/dev/null || true
}

py_trixie() {
    py_trixie_root
    rm -rf "$py_tri/check" && mkdir -p "$py_tri/check/models"
    cp "$deps/models"/*.onnx "$py_tri/check/models/"
    cp -r "$py_out/in" "$py_tri/check/in" && cp "$acc_dir/python_check.py" "$py_tri/check/"
    cp "$here/build/ortkit" "$py_tri/check/" 2>/dev/null || true
    say "Debian 13: Debian's python3-onnxruntime and the wheel, side by side"
    py_prefix="chroot $py_tri env -i PATH=/usr/bin:/bin HOME=/root"
    $py_prefix /usr/bin/python3 /check/python_check.py which 2>>"$py_out/stderr.log" |
        tee -a "$py_out/report.txt" >&2
    rm -rf "$py_tri/check/venv" "$py_tri/check/dl"
    $py_prefix /usr/bin/python3 -m venv --system-site-packages /check/venv
    # The wheel the index offers for this CPython, downloaded and checked by
    # ortkit on this host, installed by the root's pip.
    w=$(ls "$root/build/python/$variant/wheels/"*cp313*.whl)
    mkdir -p "$py_tri/check/dl" && cp "$w" "$py_tri/check/dl/"
    $py_prefix /check/venv/bin/python -m pip install --no-input --no-index "/check/dl/$(basename "$w")" >&2
    $py_prefix /check/venv/bin/python /check/python_check.py which | tee -a "$py_out/report.txt" >&2
    rm -rf "$py_tri/check/out-debian" "$py_tri/check/out-wheel"
    py_models /usr/bin/python3 /check /check/out-debian
    py_models /check/venv/bin/python /check /check/out-wheel
    say "Debian 13: the wheel against Microsoft's $ort_version C library, and against Debian's package"
    compare_outputs "$py_tri/check/out-wheel" "$py_out/ref" | tee -a "$py_out/report.txt" >&2
    compare_outputs "$py_tri/check/out-wheel" "$py_tri/check/out-debian" | tee -a "$py_out/report.txt" >&2
    py_bench
}

# Run and session-creation times, the wheel against Debian's package, in
# alternating processes: ROUNDS processes each, one after the other.
py_bench() {
    out="$deps/python-bench.jsonl"
    : >"$out"
    for threads in 1 2; do
        for r in 1 2 3 4 5 6; do
            for who in debian wheel; do
                python=/usr/bin/python3
                [ $who = debian ] || python=/check/venv/bin/python
                for m in "$py_vad" "$py_det"; do
                    py_spec "$m" /check
                    rounds=200
                    [ "$model" = silero_vad.onnx ] || rounds=10
                    # shellcheck disable=SC2086
                    line=$($py_prefix "$python" /check/python_check.py time "/check/models/$model" \
                        "$threads" "$rounds" $feeds 2>>"$py_out/stderr.log")
                    printf '{"who": "%s", "model": "%s", "threads": %s, "round": %s, "t": %s}\n' \
                        "$who" "$model" "$threads" "$r" "$line" >>"$out"
                done
            done
        done
    done
    say "times: $out"
    # Per model and threads: each process's p50 of its runs, then the median
    # over the processes of each package, and the wheel's over Debian's.
    /usr/bin/python3 - "$out" <<'PY' | tee -a "$py_out/report.txt" >&2
import json, sys
import numpy as np
rows = [json.loads(l) for l in open(sys.argv[1])]
print("%-28s %7s %12s %12s %7s %14s %14s" % ("model", "threads", "debian p50", "wheel p50", "ratio",
                                            "debian create", "wheel create"))
for model in sorted({r["model"] for r in rows}):
    for threads in sorted({r["threads"] for r in rows}):
        got = {}
        for who in ("debian", "wheel"):
            sel = [r["t"] for r in rows if r["model"] == model and r["threads"] == threads and r["who"] == who]
            got[who] = (float(np.median([np.median(t["run_s"]) for t in sel])),
                        float(np.median([t["create_s"] for t in sel])), len(sel))
        d, w = got["debian"], got["wheel"]
        print("%-28s %7d %10.3f ms %10.3f ms %7.3f %11.1f ms %11.1f ms  (%d processes each)" % (
            model, threads, d[0] * 1e3, w[0] * 1e3, w[0] / d[0], d[1] * 1e3, w[1] * 1e3, d[2]))
PY
}

python_check() {
    [ -n "$pythons" ] || { say "--python-check checks a build with Python: set ORT_PYTHON (\"3.11 3.13\")"; exit 2; }
    mkdir -p "$py_out"
    : >"$py_out/report.txt"
    py_key
    set -- "$root/build/python/$variant/wheels/"*.whl
    [ -e "$1" ] || { say "no wheels in $root/build/python/$variant/wheels: build first"; exit 1; }
    rm -rf "$py_index"
    "$here/build/ortkit" wheel publish "$@" --index "$py_index" --key "$deps/python-index.key" >&2
    py_serve
    trap 'kill $py_nginx 2>/dev/null; cleanup' EXIT INT TERM
    py_inputs
    py_reference
    py_host
    py_bullseye
    py_trixie
    say "report: $py_out/report.txt"
}
