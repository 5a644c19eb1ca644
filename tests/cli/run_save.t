# ortkit run -o DIR: all or nothing.  Outputs that would share a file are
# refused before anything is written; a failure or an interrupt (SIGTERM,
# SIGINT) leaves DIR exactly as it was and removes a DIR the run created
# (with the parents it made for it: -o a/b/c makes a/ and a/b/ as needed);
# what a killed run left behind is removed by the next run into DIR.

PY=/usr/bin/python3
"$PY" - <<'EOF'
import onnx
from onnx import helper, TensorProto as T
def model(path, outs):
    nodes = [helper.make_node("Identity", ["x"], [o]) for o in outs]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", T.FLOAT, [2])],
                          [helper.make_tensor_value_info(o, T.FLOAT, [2]) for o in outs])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    onnx.save(m, path)
model("slash.onnx", ["y/0", "y_0"])
model("dots.onnx", [".", ".."])
model("named_output.onnx", ["output", "."])
model("two.onnx", ["a", "b"])
model("long.onnx", ["a", "b" * 300])
EOF

# snap DIR: every name in DIR (dot names too), and each file's mode and content.
snap() {
    (cd "$1" && find . | sort && find . -type f -exec stat -c '%n %a %s' {} + | sort &&
        find . -type f -exec sha256sum {} + | sort)
}
absent() { [ ! -e "$1" ] || { echo "FAIL: '$1' exists: $(ls -A "$1")" >&2; exit 1; }; }

# --- outputs that would share a file: refused before the model runs ---------
mkdir keep
echo old >keep/y_0.npy
snap keep >before
expect_exit 1 "$ORTKIT" run slash.onnx --zeros -o keep
expect_lines err 1
expect_in err "ortkit: outputs 'y/0' and 'y_0' would both be saved as 'keep/y_0.npy'"
expect_in err "nothing was written"
expect_lines out 0
snap keep | expect_same before
expect_exit 1 "$ORTKIT" run dots.onnx --zeros -o fresh
expect_in err "outputs '.' and '..' would both be saved as 'fresh/output.npy'"
absent fresh
expect_exit 1 "$ORTKIT" run named_output.onnx --zeros -o fresh
expect_in err "would both be saved as 'fresh/output.npy'"
absent fresh

# --- a failure half-way (the second output's name is too long for a file) ---
echo old >keep/a.npy
snap keep >before
expect_exit 1 "$ORTKIT" run long.onnx --zeros -o keep
expect_in err "ortkit: output 'bbbbbbbb"
snap keep | expect_same before
expect_exit 1 "$ORTKIT" run long.onnx --zeros -o fresh
absent fresh
# Parents are made as needed, and removed with it: all or nothing.
expect_exit 1 "$ORTKIT" run long.onnx --zeros -o deep/er/fresh
absent deep
expect_exit 1 "$ORTKIT" run long.onnx --zeros -o keep/deep/er
snap keep | expect_same before

# --- success: files replaced in place, nothing else left -----------------------
expect_exit 0 "$ORTKIT" run two.onnx --zeros -o keep
[ "$(ls -A keep | tr '\n' ' ')" = "a.npy b.npy y_0.npy " ] || { echo "FAIL: keep holds: $(ls -A keep)" >&2; exit 1; }
"$PY" -c 'import numpy as np; assert (np.load("keep/a.npy") == 0).all()'
# -o a/b as the help says: the parents a directory lacks are made.
expect_exit 0 "$ORTKIT" run two.onnx --zeros -o new/sub/dir
[ "$(ls -A new/sub/dir | tr '\n' ' ')" = "a.npy b.npy " ] || { echo "FAIL: new/sub/dir holds: $(ls -A new/sub/dir)" >&2; exit 1; }
rm -r new
# A parent that is a file: refused, nothing made.
echo x >afile
expect_exit 1 "$ORTKIT" run two.onnx --zeros -o afile/sub
expect_in err "ortkit: cannot create output directory 'afile/sub': Not a directory"
mkdir ro && chmod 0555 ro
if ! touch ro/probe 2>/dev/null; then
    expect_exit 1 "$ORTKIT" run two.onnx --zeros -o ro/a/b
    expect_in err "ortkit: cannot create output directory 'ro/a/b': cannot create 'ro/a': Permission denied"
    absent ro/a
fi
rm -f ro/probe && chmod 0755 ro

# --- interrupted while saving: DIR as it was, 130 ----------------------------------
# The test hook pauses after each output is staged, so that the signal lands
# half-way through the save, with a.npy staged and b.npy not yet (the hook is
# ortkit-test-hooks': the tool itself has none).
for sig in TERM INT; do
    for dir in keep fresh deep/er/fresh; do
        snap keep >before
        rm -f err
        ORTKIT_RUN_SAVE_PAUSE_TEST=60 "$ORTKIT_HOOKS" run two.onnx --random -o "$dir" >out 2>err &
        pid=$!
        n=0
        until ls "$dir"/.ortkit-run-"$pid"-*/a.npy >/dev/null 2>&1; do
            n=$((n + 1))
            [ "$n" -lt 600 ] || { kill "$pid"; echo "FAIL: the save never started" >&2; cat err >&2; exit 1; }
            sleep 0.05
        done
        kill -$sig "$pid"
        set +e
        wait "$pid"
        got=$?
        set -e
        [ "$got" = 130 ] || { echo "FAIL: run -o $dir interrupted by SIG$sig exited $got" >&2; cat err >&2; exit 1; }
        expect_lines err 1
        expect_in err "ortkit: interrupted; nothing was written to '$dir'"
        expect_lines out 0
        snap keep | expect_same before
        absent fresh
        absent deep
    done
done

# --- interrupted while the model runs: nothing to undo, 130 at once ---------------
rm -f err
"$ORTKIT" run "$MODELS/tiny.onnx" --random --repeat 10000000 -o fresh >out 2>err &
pid=$!
n=0
until grep -q libonnxruntime "/proc/$pid/maps" 2>/dev/null; do
    n=$((n + 1))
    [ "$n" -lt 600 ] || { kill "$pid"; echo "FAIL: the runtime never loaded" >&2; exit 1; }
    sleep 0.05
done
kill -TERM "$pid"
set +e
wait "$pid"
got=$?
set -e
[ "$got" = 130 ] || { echo "FAIL: run interrupted while running exited $got" >&2; cat err >&2; exit 1; }
expect_in err "ortkit: interrupted"
absent fresh

# --- what a killed run left is removed by the next run into DIR ------------------
mkdir keep/.ortkit-run-999999999-abcdef
echo x >keep/.ortkit-run-999999999-abcdef/a.npy
echo x >keep/.ortkit-run-999999999-abcdef/b.npy.tmp.999999999.0
sleep 600 &
live=$!
mkdir "keep/.ortkit-run-$live-abcdef" keep/.ortkit-run-notapid keep/.other-999999999-x
expect_exit 0 "$ORTKIT" run two.onnx --zeros -o keep
absent keep/.ortkit-run-999999999-abcdef
# A run still alive, and names that are not a run's, are left alone.
[ -d "keep/.ortkit-run-$live-abcdef" ] && [ -d keep/.ortkit-run-notapid ] && [ -d keep/.other-999999999-x ] ||
    { echo "FAIL: keep holds: $(ls -A keep)" >&2; exit 1; }
kill "$live"
