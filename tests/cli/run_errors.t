# ortkit run on bad input: each case exits 1 (2 for usage), explains itself
# in one line on stderr naming the file, input or symbol, and prints nothing
# on stdout.

# fails CMD...: CMD must exit 1 with nothing on stdout and exactly one line
# "ortkit: ..." on stderr.
fails() {
    expect_exit 1 "$@"
    expect_lines out 0
    expect_lines err 1
    expect_in err "ortkit: "
}

# usage CMD...: CMD must exit 2 with nothing on stdout and a hint to --help.
usage() {
    expect_exit 2 "$@"
    expect_lines out 0
    expect_in err "ortkit run: "
    expect_in err "ortkit run --help"
}

ADD="$MODELS/add.onnx"
A="$MODELS/add_a.npy"
B="$MODELS/add_b.npy"

# --- model files that are not models, on both runtimes ---
for rt in "$RT_NEW" "$RT_OLD"; do
    fails "$ORTKIT" run nosuch.onnx --random --runtime "$rt"
    expect_in err "'nosuch.onnx'"
    expect_in err "No such file"
    fails "$ORTKIT" run "$MODELS/empty.onnx" --random --runtime "$rt"
    expect_in err "empty.onnx'"
    expect_in err "empty"
    for bad in truncated random not_onnx bad_op; do
        fails "$ORTKIT" run "$MODELS/$bad.onnx" --random --runtime "$rt"
        expect_in err "cannot open model '$MODELS/$bad.onnx'"
    done
    expect_in err "NoSuchOp"
done
# Messages nested past 100 levels (5,000 sequence types in 34 KB, 20,000
# graphs): refused with the reason, where they once crashed the decoder.
for rt in "$RT_NEW" "$RT_OLD"; do
    for deep in deep_type deep_graph deep_type_102; do
        fails "$ORTKIT" run "$MODELS/$deep.onnx" --random --runtime "$rt"
        expect_in err "cannot open model '$MODELS/$deep.onnx': messages nested deeper than 100 levels"
    done
done
# A directory is not a model either.
fails "$ORTKIT" run "$MODELS" --random
expect_in err "'$MODELS'"

# --- inputs that do not fit the model: checked before ORT sees them ---
fails "$ORTKIT" run "$ADD" -i a="$MODELS/i64_1x3.npy" -i b="$B"
expect_in err "input 'a' expects float32[N,3], got int64[1,3]"
# wrong rank
fails "$ORTKIT" run "$ADD" -i a="$MODELS/dynamic_images.npy" -i b="$B"
expect_in err "input 'a' expects float32[N,3], got float32[2,3,4,5]"
fails "$ORTKIT" run "$MODELS/int_scalar.onnx" -i n="$MODELS/i64_1x3.npy"
expect_in err "input 'n' expects int64[], got int64[1,3]"
# wrong fixed dimension
fails "$ORTKIT" run "$ADD" -i a="$MODELS/npy_v2.npy" -i b="$B"
expect_in err "input 'a' expects float32[N,3], got float32[2,2]"
fails "$ORTKIT" run "$MODELS/many_io.onnx" -i x3="$A" --random
expect_in err "input 'x3' expects float32[2,2], got float32[2,3]"
# The same symbol N bound to two sizes.
fails "$ORTKIT" run "$ADD" -i a="$A" -i b="$MODELS/npy_v2.npy"
expect_in err "input 'b'"
# Checked the same way on the old runtime.
fails "$ORTKIT" run "$ADD" -i a="$MODELS/i64_1x3.npy" -i b="$B" --runtime "$RT_OLD"
expect_in err "input 'a' expects float32[N,3], got int64[1,3]"

# --- input names ---
fails "$ORTKIT" run "$ADD" -i nosuch="$A" -i b="$B"
expect_in err "no input named 'nosuch'"
expect_in err "a, b"
fails "$ORTKIT" run "$ADD" -i a="$A" -i a="$A" -i b="$B"
expect_in err "'a' is given twice"
fails "$ORTKIT" run "$ADD" -i a="$A"
expect_in err "inputs not given: b"
fails "$ORTKIT" run "$ADD"
expect_in err "inputs not given: a, b"
# A file without a name is ambiguous when the model has several inputs.
fails "$ORTKIT" run "$ADD" -i "$A"
expect_in err "2 inputs"

# --- symbolic dimensions left unset are listed ---
fails "$ORTKIT" run "$MODELS/dynamic.onnx" --random
expect_in err "batch, height, width"
expect_in err "--dim"
fails "$ORTKIT" run "$MODELS/dynamic.onnx" --zeros --dim batch=1
expect_in err "height, width"
fails "$ORTKIT" run "$ADD" --random
expect_in err "symbolic dimensions without a size: N"

# An input whose type has no shape could be of any rank: not generated.
for fill in --random --zeros; do
    fails "$ORTKIT" run "$MODELS/shapeless.onnx" $fill
    expect_in err "input 'x' has no shape in the model (float32, any rank): ortkit cannot generate it; give it with -i x=FILE.npy"
done

# --- malformed .npy files, each named with what is wrong ---
fails "$ORTKIT" run "$ADD" -i a="$MODELS/bad_magic.npy" -i b="$B"
expect_in err "input 'a': '$MODELS/bad_magic.npy'"
expect_in err "magic"
fails "$ORTKIT" run "$ADD" -i a="$MODELS/lying_size.npy" -i b="$B"
expect_in err "'$MODELS/lying_size.npy'"
expect_in err "40000"
fails "$ORTKIT" run "$ADD" -i a="$MODELS/fortran.npy" -i b="$B"
expect_in err "'$MODELS/fortran.npy'"
expect_in err "Fortran"
fails "$ORTKIT" run "$ADD" -i a="$MODELS/bad_dtype.npy" -i b="$B"
expect_in err "'$MODELS/bad_dtype.npy'"
expect_in err "dtype"
fails "$ORTKIT" run "$ADD" -i a="$MODELS/big_endian.npy" -i b="$B"
expect_in err "'$MODELS/big_endian.npy'"
expect_in err "big-endian"
fails "$ORTKIT" run "$ADD" -i a=nosuch.npy -i b="$B"
expect_in err "input 'a'"
expect_in err "'nosuch.npy'"
# An .onnx file is not an .npy file.
fails "$ORTKIT" run "$ADD" -i a="$ADD" -i b="$B"
expect_in err "'$ADD'"
# Empty, and cut inside the header.
: >empty.npy
fails "$ORTKIT" run "$ADD" -i a=empty.npy -i b="$B"
expect_in err "'empty.npy'"
head -c 20 "$A" >short.npy
fails "$ORTKIT" run "$ADD" -i a=short.npy -i b="$B"
expect_in err "'short.npy'"

# --- -o: a regular file is not a directory; failures leave no .npy ---
: >afile
fails "$ORTKIT" run "$ADD" -i a="$A" -i b="$B" -o afile
expect_in err "'afile'"
expect_in err "not a directory"
[ ! -s afile ] || { echo "FAIL: afile was written to" >&2; exit 1; }
fails "$ORTKIT" run "$ADD" -i a="$A" -i b="$B" -o afile/sub
expect_in err "'afile/sub'"
# A missing parent is made (run_save.t: and removed again on a failure).
expect_exit 0 "$ORTKIT" run "$ADD" -i a="$A" -i b="$B" -o nosuch/sub
[ -f nosuch/sub/sum.npy ] || { echo "FAIL: nosuch/sub/sum.npy not written" >&2; exit 1; }

# A run that fails writes nothing into the output directory.
mkdir outdir
fails "$ORTKIT" run "$ADD" -i a="$MODELS/i64_1x3.npy" -i b="$B" -o outdir
fails "$ORTKIT" run "$MODELS/empty.onnx" --random -o outdir
[ -z "$(ls -A outdir)" ] || { echo "FAIL: a failed run left in outdir: $(ls -A outdir)" >&2; exit 1; }
# ... nor creates it.
fails "$ORTKIT" run "$ADD" -i a="$MODELS/i64_1x3.npy" -i b="$B" -o newdir
[ ! -e newdir ] || { echo "FAIL: a failed run created newdir" >&2; exit 1; }

# When one output cannot be saved (m.npy is taken by a directory), the run
# fails and leaves none of the others: no partial set of outputs.
mkdir -p partial/m.npy
fails "$ORTKIT" run "$MODELS/many_io.onnx" --random -o partial
expect_in err "'m'"
for f in partial/* partial/.[!.]*; do
    case $f in partial/m.npy | 'partial/*' | 'partial/.[!.]*') ;;
    *) echo "FAIL: a failed save left $f" >&2; exit 1 ;;
    esac
done

# --- usage errors exit 2 ---
usage "$ORTKIT" run
expect_in err "no model given"
usage "$ORTKIT" run "$ADD" "$ADD"
usage "$ORTKIT" run --nosuch-option "$ADD"
expect_in err "nosuch-option"
usage "$ORTKIT" run "$ADD" --repeat 0
expect_in err "--repeat"
usage "$ORTKIT" run "$ADD" --repeat x
usage "$ORTKIT" run "$ADD" --threads abc
expect_in err "--threads"
expect_in err "'abc'"
usage "$ORTKIT" run "$ADD" --threads 0
usage "$ORTKIT" run "$ADD" --dim N
expect_in err "--dim"
expect_in err "'N'"
usage "$ORTKIT" run "$ADD" --dim =3
usage "$ORTKIT" run "$ADD" --dim N=-1
usage "$ORTKIT" run "$ADD" --random --zeros
usage "$ORTKIT" run "$ADD" -i =x.npy
usage "$ORTKIT" run "$ADD" -i a=
usage "$ORTKIT" run "$ADD" --seed -5
usage "$ORTKIT" run "$ADD" -i
