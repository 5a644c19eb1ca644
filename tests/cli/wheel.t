# wheel.t - ONNX Runtime's Python package as wheels, without an ONNX Runtime
# build: the platform tag from measured needs (stub extensions compiled here
# with chosen symbol versions), the facts in dist-info, hostile wheels
# refused by name, a signed index published and served by nginx on
# loopback, chosen for other hosts and Pythons, and installed by pip from it.
set -eu
. "$SRC/tests/cli/repo_lib.sh"
PY=/usr/bin/python3

# Bundles to take the facts from: Microsoft's 1.17.3 as "cpu" and as "cpu-avx2".
"$ORTKIT" bundle import "$RT_OLD" --into bundles >/dev/null
"$ORTKIT" bundle import "$RT_OLD" --variant cpu-avx2 --name ort-1.17.3-cpu-avx2 --into bundles >/dev/null

# A stub extension needing exactly the symbol versions named: what a Debian
# 11 build of ONNX Runtime needs (GLIBC_2.29 for exp, GLIBCXX_3.4.26,
# CXXABI_1.3.11), or less, or more.
cat >stub.c <<'C'
#ifdef NEED_GLIBC_2_29
__asm__(".symver need_exp, exp@GLIBC_2.29");
extern double need_exp(double);
double use_exp(double x) { return need_exp(x); }
#endif
#ifdef NEED_GLIBCXX_3_4_26
__asm__(".symver need_depth, _ZNKSt10filesystem7__cxx1128recursive_directory_iterator5depthEv@GLIBCXX_3.4.26");
extern int need_depth(const void *);
int use_depth(const void *p) { return need_depth(p); }
#endif
#ifdef NEED_CXXABI_1_3_11
__asm__(".symver need_ipe, __cxa_init_primary_exception@CXXABI_1.3.11");
extern void *need_ipe(void *, void *, void *);
void *use_ipe(void *a) { return need_ipe(a, a, a); }
#endif
#ifdef NEED_GLIBCXX_3_4_30
__asm__(".symver need_tg, _ZNKSt8time_getIwSt19istreambuf_iteratorIwSt11char_traitsIwEEE21_M_extract_via_formatES3_S3_RSt8ios_baseRSt12_Ios_IostateP2tmPKwRSt16__time_get_state@GLIBCXX_3.4.30");
extern int need_tg(void);
int use_tg(void) { return need_tg(); }
#endif
int stub_marker(void) { return 42; }
C
# tree NAME CFLAGS...: a package tree NAME/onnxruntime with the stub as its extension.
tree() {
    name=$1; shift
    mkdir -p "$name/onnxruntime/capi/__pycache__"
    printf '# ONNX Runtime (a stub for the wheel tests)\n__version__ = "1.17.3"\n%s\n' \
        'def get_available_providers(): return ["CPUExecutionProvider"]' >"$name/onnxruntime/__init__.py"
    printf 'x\n' >"$name/onnxruntime/capi/__pycache__/skipped.pyc"
    cc -shared -fPIC -o "$name/onnxruntime/capi/onnxruntime_pybind11_state.so" stub.c "$@" -lm -lstdc++
}
tree d11 -DNEED_GLIBC_2_29 -DNEED_GLIBCXX_3_4_26 -DNEED_CXXABI_1_3_11
tree plain
tree new -DNEED_GLIBCXX_3_4_30

# The tag comes from what the extension needs, read from it.
expect_exit 0 "$ORTKIT" wheel pack d11/onnxruntime --bundle bundles/ort-1.17.3-cpu-avx2 --python 3.11 --into w
expect_in out "tag       cp311-cp311-manylinux_2_31_x86_64"
expect_in out "GLIBC_2.29, GLIBCXX_3.4.26, CXXABI_1.3.11: the oldest PEP 600 profile that admits them is manylinux_2_31"
expect_in out "the one below stops at glibc 2.28 and GLIBCXX 3.4.25"
D11=w/onnxruntime-1.17.3+cpu.avx2-cp311-cp311-manylinux_2_31_x86_64.whl
[ -f "$D11" ] || { echo "FAIL: no $D11" >&2; ls w >&2; exit 1; }
expect_exit 0 "$ORTKIT" wheel pack plain/onnxruntime --bundle bundles/ort-1.17.3-cpu --python 3.11 --into w
expect_in out "cp311-cp311-manylinux_2_17_x86_64"
expect_exit 0 "$ORTKIT" wheel pack new/onnxruntime --bundle bundles/ort-1.17.3-cpu --python 3.11 --into wnew --json
expect_in out '"platform_tag":	"manylinux_2_35_x86_64"'
# The same tree makes the same bytes.
expect_exit 0 "$ORTKIT" wheel pack d11/onnxruntime --bundle bundles/ort-1.17.3-cpu-avx2 --python 3.11 --into w2
cmp "$D11" w2/"$(basename "$D11")" || { echo "FAIL: packing twice made other bytes" >&2; exit 1; }

# What the wheel says of itself.
expect_exit 0 "$ORTKIT" wheel show "$D11"
expect_in out "version      1.17.3+cpu.avx2"
expect_in out "variant      cpu-avx2"
expect_in out "needs        glibc 2.29, GLIBCXX 3.4.26, CXXABI 1.3.11 (read from its libraries)"
expect_in out "RECORD's sizes and SHA-256s match"
unzip -l "$D11" >list
expect_not_in list "__pycache__"
expect_in list "onnxruntime/capi/build_and_package_info.py"
unzip -p "$D11" 'onnxruntime-1.17.3+cpu.avx2.dist-info/WHEEL' >wheel
expect_in wheel "Tag: cp311-cp311-manylinux_2_31_x86_64"
expect_in wheel "Root-Is-Purelib: false"
unzip -p "$D11" 'onnxruntime-1.17.3+cpu.avx2.dist-info/METADATA' >meta
expect_in meta "Name: onnxruntime"
expect_in meta "Requires-Python: ==3.11.*"
expect_in meta "Requires-Dist: numpy>=1.21.6"
unzip -p "$D11" 'onnxruntime-1.17.3+cpu.avx2.dist-info/variant.json' >variant
expect_in variant '"level":	["v3"]'
unzip -p "$D11" 'onnxruntime-1.17.3+cpu.avx2.dist-info/ortkit.json' >facts
expect_in facts '"variant":	"cpu-avx2"'
expect_in facts '"cpu_features":	["avx", "avx2", "fma"]'
unzip -p "$D11" 'onnxruntime/capi/build_and_package_info.py' >info
expect_in info "package_name = 'onnxruntime'"

# Refusals, by name: what pack will not take.
mkdir -p bad/onnxruntime/capi
cp d11/onnxruntime/capi/onnxruntime_pybind11_state.so bad/onnxruntime/capi/
ln -s /etc/passwd bad/onnxruntime/leak
expect_exit 1 "$ORTKIT" wheel pack bad/onnxruntime --bundle bundles/ort-1.17.3-cpu --python 3.11 --into w
expect_in err "is a symbolic link: a wheel holds regular files only"
expect_exit 1 "$ORTKIT" wheel pack d11/onnxruntime --bundle bundles/ort-1.17.3-cpu --python 2.7 --into w
expect_in err "'2.7' is not a CPython 3 version such as 3.11"
expect_exit 1 "$ORTKIT" wheel pack bundles --bundle bundles/ort-1.17.3-cpu --python 3.11 --into w
expect_in err "is not a directory named onnxruntime"

# Hostile wheels: each refused, naming what is wrong.
for c in link dotdot absolute duplicate record-lies size-lies unlisted understated tag-lies; do
    bad=$("$PY" "$SRC/tests/cli/wheel_tamper.py" "$c" "$D11" hostile)
    expect_exit 1 "$ORTKIT" wheel show "$bad"
    case $c in
    link) expect_in err "'onnxruntime/evil' is a symbolic link: a wheel holds regular files only" ;;
    dotdot) expect_in err "not a relative path inside the wheel: onnxruntime/../../evil.py" ;;
    absolute) expect_in err "not a relative path inside the wheel: /tmp/evil.py" ;;
    duplicate) expect_in err "a member is there twice: onnxruntime/" ;;
    record-lies) expect_in err "its content is not what RECORD says (SHA-256): onnxruntime/__init__.py" ;;
    size-lies) expect_in err "its size is not what RECORD says" ;;
    unlisted) expect_in err "RECORD does not list onnxruntime/unlisted.py" ;;
    understated) expect_in err "ortkit.json understates what its libraries need: GLIBC_2.29, GLIBCXX_3.4.26, CXXABI_1.3.11 are needed; it says 2.17, 3.4.19, 1.3.7" ;;
    tag-lies) expect_in err "its platform tag is 'manylinux_2_17_x86_64', but its needs earn 'manylinux_2_31_x86_64'" ;;
    esac
done
# A file that is no zip at all.
printf 'not a zip\n' >onnxruntime-1.17.3+cpu-cp311-cp311-manylinux_2_17_x86_64.whl
expect_exit 1 "$ORTKIT" wheel show onnxruntime-1.17.3+cpu-cp311-cp311-manylinux_2_17_x86_64.whl
expect_in err "not a zip archive"

# An index: wheels for two variants and two Pythons, signed.
expect_exit 0 "$ORTKIT" wheel pack d11/onnxruntime --bundle bundles/ort-1.17.3-cpu-avx2 --python 3.13 --into w
expect_exit 0 "$ORTKIT" wheel pack d11/onnxruntime --bundle bundles/ort-1.17.3-cpu --python 3.11 --into w
"$ORTKIT" bundle keygen >/dev/null
expect_exit 0 "$ORTKIT" wheel publish "$D11" w/onnxruntime-1.17.3+cpu.avx2-cp313-cp313-manylinux_2_31_x86_64.whl \
    --index idx --key ortkit.key
expect_in out "published $D11"
expect_exit 0 "$ORTKIT" wheel publish w/onnxruntime-1.17.3+cpu-cp311-cp311-manylinux_2_31_x86_64.whl --index idx --key ortkit.key
expect_in idx/index.html '<a href="cpu-avx2/">cpu-avx2</a>'
expect_in idx/index.html '<a href="cpu/">cpu</a>'
expect_in idx/cpu-avx2/index.html '<a href="onnxruntime/">onnxruntime</a>'
SHA=$(sha256sum "$D11" | cut -d' ' -f1)
expect_in idx/cpu-avx2/onnxruntime/index.html "onnxruntime-1.17.3%2Bcpu.avx2-cp311-cp311-manylinux_2_31_x86_64.whl#sha256=$SHA"
expect_in idx/cpu-avx2/onnxruntime/index.html 'data-requires-python="==3.11.*"'
expect_in idx/wheels.json '"serial":	2'
if command -v minisign >/dev/null 2>&1; then
    expect_exit 0 minisign -Vm idx/wheels.json -p ortkit.pub
    expect_in out "Trusted comment: ortkit wheel index serial 2"
fi
# A bad wheel is refused and nothing is signed.
cp idx/wheels.json before.json
expect_exit 1 "$ORTKIT" wheel publish hostile/record-lies/"$(basename "$D11")" --index idx --key ortkit.key
expect_in err "nothing was signed"
cmp idx/wheels.json before.json
# An index whose files changed under it is not published over.
cp -r idx idx-tampered
printf 'x' >>idx-tampered/cpu/onnxruntime/onnxruntime-1.17.3+cpu-cp311-cp311-manylinux_2_31_x86_64.whl
expect_exit 1 "$ORTKIT" wheel publish "$D11" --index idx-tampered --key ortkit.key
expect_in err "is missing or not the file the index signed"
expect_in err "cannot be trusted to publish into"
# Nor one signed by another key.
"$ORTKIT" bundle keygen --key other.key --pubkey other.pub >/dev/null
expect_exit 1 "$ORTKIT" wheel publish "$D11" --index idx --key other.key
expect_in err "cannot be trusted to publish into"

# A directory is an index too: the wheel named by a file:// URL pip takes.
expect_exit 0 "$ORTKIT" wheel choose idx --pubkey ortkit.pub --python 3.11 \
    --host "$SRC/tests/hosts/sapphire-rapids.json"
expect_in out "install: python3.11 -m pip install 'onnxruntime @ file://$PWD/idx/cpu-avx2/onnxruntime/onnxruntime-1.17.3%2Bcpu.avx2-cp311-cp311-manylinux_2_31_x86_64.whl#sha256=$SHA'"
expect_in out "best: the highest CPU level this host supports: avx2"

# Served by nginx on loopback (TLS, a test CA), and chosen.
have_nginx || { echo "nginx is not installed: the served index was not tried" >&2; exit 0; }
NGINX_PROBE=wheels.json start_nginx "$PWD/idx"
trap 'stop_nginx' EXIT
sed 's/"glibc": "2.39"/"glibc": "2.28"/' "$SRC/tests/hosts/sapphire-rapids.json" >old-glibc.json
expect_exit 0 "$ORTKIT" wheel choose "$URL" --pubkey ortkit.pub --cacert tls/ca.pem --python 3.11 \
    --host "$SRC/tests/hosts/sapphire-rapids.json"
expect_in out "python  3.11"
expect_in out "*  1.17.3+cpu.avx2  3.11    manylinux_2_31_x86_64  fits"
expect_in out "does not fit: for CPython 3.13, not 3.11"
expect_in out "install: python3.11 -m pip install 'onnxruntime @ $URL/cpu-avx2/onnxruntime/onnxruntime-1.17.3%2Bcpu.avx2-cp311-cp311-manylinux_2_31_x86_64.whl#sha256=$SHA'"
expect_exit 0 "$ORTKIT" wheel choose "$URL" --pubkey ortkit.pub --cacert tls/ca.pem --python 3.13 \
    --host "$SRC/tests/hosts/sapphire-rapids.json" --json
expect_in out '"chosen":	"onnxruntime-1.17.3+cpu.avx2-cp313-cp313-manylinux_2_31_x86_64.whl"'
# A host whose glibc is older than the wheels need: none fits, and why.
expect_exit 1 "$ORTKIT" wheel choose "$URL" --pubkey ortkit.pub --cacert tls/ca.pem --python 3.11 --host old-glibc.json
expect_in out "none fits:"
expect_in out "glibc"
# Another architecture.
expect_exit 1 "$ORTKIT" wheel choose "$URL" --pubkey ortkit.pub --cacert tls/ca.pem --python 3.11 \
    --host "$SRC/tests/hosts/graviton3.json"
expect_in out "aarch64"
# The wrong key, and an index rolled back to serial 1.
expect_exit 1 "$ORTKIT" wheel choose "$URL" --pubkey other.pub --cacert tls/ca.pem --python 3.11
expect_in err "is signed with key"

# pip installs from the served index, checking the #sha256 of the link.
# (requests lets REQUESTS_CA_BUNDLE override pip's --cert, and a machine's
# pip configuration may add find-links: pip runs here without either.)
pip_run() {
    env -u REQUESTS_CA_BUNDLE -u PIP_CERT -u PIP_FIND_LINKS -u CURL_CA_BUNDLE -u PIP_INDEX_URL \
        PIP_CONFIG_FILE=/dev/null "$@"
}
if "$PY" -m pip --version >/dev/null 2>&1; then
    expect_exit 0 pip_run "$PY" -m pip install --no-deps --no-input --disable-pip-version-check --target site \
        --cert tls/ca.pem --index-url "$URL/cpu-avx2/" onnxruntime
    [ -f site/onnxruntime/capi/onnxruntime_pybind11_state.so ] || { echo "FAIL: pip did not install the wheel" >&2; exit 1; }
    ls -d site/onnxruntime-1.17.3+cpu.avx2.dist-info >/dev/null
    # A wheel swapped on the server after publishing: pip refuses it.
    cp "$D11" saved.whl
    printf 'x' >>"idx/cpu-avx2/onnxruntime/$(basename "$D11")"
    expect_exit 1 pip_run "$PY" -m pip install --no-deps --no-input --disable-pip-version-check --target site2 \
        --cert tls/ca.pem --no-cache-dir --index-url "$URL/cpu-avx2/" onnxruntime
    expect_in err "HASH"
    # ortkit --install checks the download itself before pip sees it.
    expect_exit 1 "$ORTKIT" wheel choose "$URL" --pubkey ortkit.pub --cacert tls/ca.pem --python 3.11 \
        --host "$SRC/tests/hosts/sapphire-rapids.json" --install --into dl
    expect_in err "bytes the signed index says: refused"
    cp saved.whl "idx/cpu-avx2/onnxruntime/$(basename "$D11")"
    # Nor into a directory another could swap the wheel in before pip reads it.
    mkdir -m 777 shared-dl
    expect_exit 1 "$ORTKIT" wheel choose "$URL" --pubkey ortkit.pub --cacert tls/ca.pem --python 3.11 \
        --host "$SRC/tests/hosts/sapphire-rapids.json" --install --into shared-dl
    expect_in err "cannot download the wheel into shared-dl: "
    expect_in err "writable by anyone"
    if "$PY" -m venv --system-site-packages venv >/dev/null 2>&1; then
        expect_exit 0 pip_run "$ORTKIT" wheel choose "$URL" --pubkey ortkit.pub --cacert tls/ca.pem \
            --python venv/bin/python --host "$SRC/tests/hosts/sapphire-rapids.json" --install --into dl
        expect_in err "downloaded and checked"
        expect_exit 0 venv/bin/python -m pip show onnxruntime
        expect_in out "Version: 1.17.3+cpu.avx2"
        # doctor says what the environment imports, and what would fit better.
        expect_exit 0 "$ORTKIT" doctor --python venv/bin/python --host "$SRC/tests/hosts/sapphire-rapids.json"
        expect_in out "package    1.17.3+cpu.avx2: an ortkit wheel of the variant cpu-avx2"
        expect_in out "fits here  yes"
        expect_in out "is the highest CPU level this host runs: a wheel of it would fit better"
        expect_exit 0 "$ORTKIT" doctor --python venv/bin/python --host "$SRC/tests/hosts/graviton3.json" --json
        expect_in out '"fits":	false'
        expect_exit 1 "$ORTKIT" doctor --python "$PY"
        expect_in out "imports    no onnxruntime: ModuleNotFoundError"
    fi
else
    echo "pip is not installed for $PY: the pip installs were skipped" >&2
fi
