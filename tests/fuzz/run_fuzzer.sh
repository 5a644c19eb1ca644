#!/bin/sh
# Build a fuzz target with clang's libFuzzer + ASan + UBSan and run it.
#
#   tests/fuzz/run_fuzzer.sh npy [SECONDS] [extra libFuzzer flags...]
#
# Inputs that crash are written to build-fuzz/<target>/ as crash-*; new
# interesting inputs go to a scratch corpus there, never to the committed one.
set -eu

target=${1:?usage: run_fuzzer.sh TARGET [SECONDS] [libFuzzer flags...]}
seconds=${2:-60}
[ $# -ge 2 ] && shift 2 || shift $#

root=$(cd "$(dirname "$0")/../.." && pwd)
src="$root/tests/fuzz/fuzz_$target.c"
seeds="$root/tests/fuzz/corpus/fuzz_$target"
out="${FUZZ_OUT:-$root/build-fuzz}/$target"
CC=${CC:-clang}

[ -f "$src" ] || { echo "run_fuzzer.sh: no target '$src'" >&2; exit 2; }
command -v "$CC" >/dev/null || { echo "run_fuzzer.sh: $CC not found (apt-get install clang)" >&2; exit 2; }

# The library sources a target needs.  Most targets need only the file of
# their module plus the shared helpers; FUZZ_SOURCES overrides (file names,
# found in the library's module folders src/lib/*/).
lib_sources=${FUZZ_SOURCES:-"error.c tensor.c $target.c"}
srcs=""
for f in $lib_sources; do srcs="$srcs $(ls "$root"/src/lib/*/"$f")"; done
incs=""
for d in "$root"/src/lib/*/; do incs="$incs -I$d"; done

mkdir -p "$out/corpus"
# shellcheck disable=SC2086
"$CC" -g -O1 -std=gnu11 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -DORTKIT_LIBFUZZER -DORTKIT_BUILDING -I"$root/include" $incs \
    $srcs "$src" -o "$out/fuzz_$target"

echo "run_fuzzer.sh: fuzzing $target for ${seconds}s (scratch corpus $out/corpus)" >&2
cd "$out"
exec "./fuzz_$target" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
    -artifact_prefix="$out/" "$@" "$out/corpus" "$seeds"
