# ortkit run under valgrind's memcheck: no invalid access and no definite
# leak in ortkit's code, on a run that succeeds and on runs that fail.
# ONNX Runtime's own reports (the same without ortkit) are suppressed in
# tests/valgrind.supp, each with the reason.  Not for sanitizer builds.

if ! command -v valgrind >/dev/null 2>&1; then
    echo "skipped: valgrind is not installed (scripts/setup.sh installs it)"
    exit 0
fi

# memcheck NAME CMD...: run CMD under memcheck in the background, its
# stdout/stderr in NAME.out/NAME.err and valgrind's report in NAME.vg.
memcheck() {
    name=$1; shift
    valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
        --num-callers=50 --suppressions="$SRC/tests/valgrind.supp" --log-file="$name.vg" \
        "$@" >"$name.out" 2>"$name.err" &
}

# expect_clean NAME PID CODE: wait for the run; it must exit CODE (99 is
# valgrind reporting an error) and its report must be clean.
expect_clean() {
    set +e
    wait "$2"
    got=$?
    set -e
    if [ "$got" != "$3" ] || ! grep -q "ERROR SUMMARY: 0 errors" "$1.vg" ||
       ! grep -q "definitely lost: 0 bytes" "$1.vg"; then
        echo "FAIL: valgrind run '$1' exited $got (expected $3)" >&2
        echo "--- stderr" >&2; cat "$1.err" >&2
        echo "--- valgrind" >&2; cat "$1.vg" >&2
        exit 1
    fi
}

# Three runs at once: each spends most of its time loading the runtime.
memcheck ok "$ORTKIT" run "$MODELS/add.onnx" -i a="$MODELS/add_a.npy" -i b="$MODELS/add_b.npy" -o saved
ok=$!
# Fails in ortkit: the input does not fit, after the session and inputs exist.
memcheck badinput "$ORTKIT" run "$MODELS/add.onnx" -i a="$MODELS/i64_1x3.npy" -i b="$MODELS/add_b.npy"
badinput=$!
# Fails in ONNX Runtime: the model is refused while the session is created.
memcheck badmodel "$ORTKIT" run "$MODELS/bad_op.onnx" --random
badmodel=$!

expect_clean ok "$ok" 0
expect_clean badinput "$badinput" 1
expect_clean badmodel "$badmodel" 1

# The runs did their job, not just stayed clean.
expect_in ok.out "sum     float32  [2,3]"
[ -f saved/sum.npy ] || { echo "FAIL: no saved/sum.npy" >&2; exit 1; }
expect_in badinput.err "input 'a' expects float32[N,3], got int64[1,3]"
expect_in badmodel.err "NoSuchOp"
