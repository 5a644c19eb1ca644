# messages.t - failures whose first explanation was wrong now name the real
# cause: the limit of a --dim, a size too large to hold, JSON nested past
# what can be read, a library for another machine or no library at all, a
# runtime whose hand-shake answers NULL, an option given twice or empty.
set -eu
export XDG_DATA_HOME="$PWD/xdg" XDG_DATA_DIRS="$PWD/sys" ORTKIT_PATH="$PWD/path"
unset ORTKIT_BUNDLE
ADD="$MODELS/add.onnx"

# usage_says CMD... TEXT: CMD is a usage error (exit 2) whose message holds TEXT.
usage_says() {
    text=$1
    shift
    expect_exit 2 "$@"
    expect_in err "$text"
    expect_lines out 0
}

# --- --dim: the limit is INT32_MAX, and one symbol gets one size ---
usage_says "--dim N=3000000000: a dimension is at most 2147483647 (INT32_MAX)" \
    "$ORTKIT" run "$ADD" --random --dim N=3000000000
usage_says "--dim wants SYMBOL=SIZE, SIZE a whole number from 0 to 2147483647, got 'N=-1'" \
    "$ORTKIT" run "$ADD" --random --dim N=-1
usage_says "--dim N is given twice (=1 and =2); give it once" \
    "$ORTKIT" run "$ADD" --random --dim N=1 --dim N=2
usage_says "--dim N is given twice" "$ORTKIT" bench "$ADD" --dim N=1 --dim N=1
expect_exit 0 "$ORTKIT" run "$ADD" --random --dim N=2 --dim NN=3

# --- --ep: no empty provider names ---
for list in ",,," "cpu," ",cpu" "cuda,,cpu" ""; do
    usage_says "--ep wants provider names separated by commas, without empty ones" \
        "$ORTKIT" run "$ADD" --random --dim N=1 --ep "$list"
done
usage_says "without empty ones" "$ORTKIT" bench "$ADD" --dim N=1 --ep ","
usage_says "without empty ones" "$ORTKIT" validate . --ep ",,"
expect_exit 0 "$ORTKIT" run "$ADD" --random --dim N=1 --ep cpu

# --- sizes: too large is not "too small" ---
mkdir -p ort/cmake
echo 1.21.0 >ort/VERSION_NUMBER
printf 'cmake_minimum_required(VERSION 3.21)\nproject(onnxruntime C CXX ASM)\n' >ort/cmake/CMakeLists.txt
usage_says "--mem-budget wants a size such as 6G: '99999999T' is too large: at most 16 EiB" \
    "$ORTKIT" build --source ort --variant cpu-avx2 --mem-budget 99999999T --dry-run
usage_says "--mem-budget wants a size of at least 64M" \
    "$ORTKIT" build --source ort --variant cpu-avx2 --mem-budget 1M --dry-run
usage_says "--min-disk wants a size: 'lots' is not a size" \
    "$ORTKIT" build --source ort --variant cpu-avx2 --min-disk lots --dry-run

# --- JSON nested past cJSON's limit: said so, not "syntax error" ---
/usr/bin/python3 -c 'print("[" * 100000 + "]" * 100000)' >deep.json
expect_exit 1 "$ORTKIT" host --load deep.json
expect_in err "host JSON: arrays and objects nest deeper than 1000 levels, the most ortkit reads (at line 1, column 1001)"
/usr/bin/python3 -c 'print("{\"cpu\": " + "[" * 1200 + "]" * 1200 + "}")' >deep2.json
expect_exit 1 "$ORTKIT" variants --host deep2.json
expect_in err "nest deeper than 1000 levels"
# A real syntax error is still one.
printf '{"cpu": [1,}\n' >broken.json
expect_exit 1 "$ORTKIT" host --load broken.json
expect_in err "host JSON: syntax error at line 1, column 12"
# A manifest nested too deep.
mkdir -p path/deep
/usr/bin/python3 -c 'print("{\"name\": " + "[" * 5000 + "]" * 5000 + "}")' >path/deep/manifest.json
expect_exit 0 "$ORTKIT" bundle list
expect_in out "not valid JSON: nested deeper than 1000 levels"
rm -rf path/deep

# --- libraries that cannot be loaded here, said before dlopen says otherwise ---
cp "$STUBS/libstub_too_old.so" arm64.so
printf '\267\000' | dd of=arm64.so bs=1 seek=18 conv=notrunc 2>/dev/null # e_machine = EM_AARCH64
expect_exit 1 env ORTKIT_RUNTIME="$PWD/arm64.so" "$ORTKIT" version
expect_in err "runtime '$PWD/arm64.so' (from ORTKIT_RUNTIME): it is built for aarch64, this machine is x86_64"
expect_exit 1 "$ORTKIT" run "$ADD" --random --dim N=1 --runtime "$PWD/arm64.so"
expect_in err "it is built for aarch64, this machine is x86_64"
mkdir armdir && cp arm64.so armdir/libonnxruntime.so
expect_exit 1 env ORTKIT_RUNTIME="$PWD/armdir" "$ORTKIT" doctor
expect_in out "it is built for aarch64, this machine is x86_64"
TRUE=$(readlink -f /bin/true)
expect_exit 1 env ORTKIT_RUNTIME="$TRUE" "$ORTKIT" version
expect_in err "runtime '$TRUE' (from ORTKIT_RUNTIME): it is an executable, not a shared library"
expect_exit 1 "$ORTKIT" bundle import "$TRUE" --into "$PWD/path"
expect_in err "cannot import '$TRUE': it is an executable (x86_64), not a shared library"
echo "not a library" >text.so
expect_exit 1 "$ORTKIT" version --runtime "$PWD/text.so"
expect_in err "'$PWD/text.so' is not an ELF file"

# --- a hand-shake that answers NULL: said which, never "(null)" ---
STUB="$STUBS/libstub_broken_base.so"
expect_exit 1 "$ORTKIT" version --runtime "$STUB"
expect_in err "'$STUB' is not a working ONNX Runtime library: OrtGetApiBase() returned NULL"
expect_exit 1 env STUB_BASE=no-version "$ORTKIT" version --runtime "$STUB"
expect_in err "the table OrtGetApiBase() returned has a NULL entry"
expect_exit 1 env STUB_BASE=null-version "$ORTKIT" version --runtime "$STUB"
expect_in err "GetVersionString() returned NULL"
if grep -q "(null)" err out; then echo "FAIL: (null) printed" >&2; exit 1; fi
