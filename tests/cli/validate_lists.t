# The known-failures lists kept in tests/validate/: each parses, names a
# release the loader takes (1.x, x >= ORTKIT_MIN_ORT_API) and says so in its
# first line, sits beside the build's tool, and names no test the default
# suite lacks.  Then the choice of a list for a runtime whose release has
# none: the nearest (same major, closest minor, the older on a tie), said in
# one warning line and in the JSON report.
V="$ORTKIT validate --no-progress"
min=$(sed -n 's/^#define ORTKIT_MIN_ORT_API \([0-9]*\)$/\1/p' "$SRC/include/ortkit/runtime.h")
[ -n "$min" ] || { echo "FAIL: no ORTKIT_MIN_ORT_API in include/ortkit/runtime.h" >&2; exit 1; }
mkdir -p tiny/test_x
cp "$MODELS/add.onnx" tiny/test_x/model.onnx
suite=/usr/share/libonnx-testdata/data
lists=0
for f in "$SRC"/tests/validate/known_failures_*.txt; do
    name=$(basename "$f")
    release=${name#known_failures_}
    release=${release%.txt}
    major=${release%%.*} minor=${release#*.}
    case "$major.$minor" in
        1.[0-9]*) ;;
        *) echo "FAIL: $name does not name a 1.x release" >&2; exit 1 ;;
    esac
    [ "$minor" -ge "$min" ] || { echo "FAIL: $name: 1.$minor is older than the loader takes (1.$min)" >&2; exit 1; }
    head -n 1 "$f" | grep -q "^# Known failures of ONNX Runtime $release (" ||
        { echo "FAIL: $name's first line does not name ONNX Runtime $release" >&2; exit 1; }
    cmp -s "$f" "$(dirname "$ORTKIT")/share/ortkit/validate/$name" ||
        { echo "FAIL: $name is not beside the tool (reconfigure the build)" >&2; exit 1; }
    expect_exit 0 $V tiny --list --known-failures "$f" --runtime "$RT_NEW"
    expect_lines err 0
    if [ -d "$suite/node" ]; then
        # --list on the default suite warns of entries that match no test.
        expect_exit 0 $V --list --known-failures "$f" --runtime "$RT_NEW"
        expect_lines err 0
    fi
    lists=$((lists + 1))
done
[ "$lists" -ge 2 ] || { echo "FAIL: only $lists known-failures lists in tests/validate" >&2; exit 1; }

# A stale entry is named by --list too.
printf 'test_abs  listed on purpose\ntest_no_such_test  stale\n' >stale.txt
if [ -d "$suite/node" ]; then
    expect_exit 0 $V --list --known-failures stale.txt --runtime "$RT_NEW"
    expect_in err "stale.txt:2: 'test_no_such_test' matches no test"
    expect_lines err 1
fi

# --- the nearest list: a copy of the tool with lists of its own ----------------------
# The tool finds its lists beside where it lies (share/ortkit/validate), so
# a copy of it sees only the lists put there.  The lists' text does not
# matter here: --list shows which one was taken.
[ -d "$suite/node" ] || { echo "skipped: no libonnx-testdata for the default suite" >&2; exit 77; }
# (Not a script that runs the tool under an emulator: its copy would not be the tool.)
head -c 4 "$ORTKIT" | grep -q ELF || { echo "skipped: $ORTKIT is not the tool itself" >&2; exit 77; }
mkdir -p tool/bin tool/share/ortkit/validate
cp "$ORTKIT" tool/bin/ortkit
L=tool/share/ortkit/validate
T="tool/bin/ortkit validate --no-progress"
dir=$(cd $L && pwd -P)
known_as() { # known_as RELEASE: a list whose one entry says which it is
    printf '# Known failures of ONNX Runtime %s (a fixture)\ntest_abs  from the %s list\n' "$1" "$1" \
        >"$L/known_failures_$1.txt"
}
warning() { # the warning line for runtime $1 taking list $2
    echo "ortkit: warning: no known-failures list for ONNX Runtime $1; using known_failures_$2.txt," \
         "the nearest release's (same major, closest minor, the older on a tie)"
}
new=$("$ORTKIT" version --runtime "$RT_NEW" | sed -n 's/^runtime *ONNX Runtime //p')
old=$("$ORTKIT" version --runtime "$RT_OLD" | sed -n 's/^runtime *ONNX Runtime //p')
case "$new $old" in
    "1.30."*" 1.17."*) ;;
    *) echo "FAIL: the test runtimes are $new and $old, this test wants 1.30 and 1.17" >&2; exit 1 ;;
esac

# Its own list: no warning.
known_as 1.30 && known_as 1.17
expect_exit 0 $T --list --filter test_abs --runtime "$RT_NEW"
expect_in out "from the 1.30 list"
expect_lines err 0

# No list of its own: the older of two as near (1.29 and 1.31 for 1.30).
rm "$L/known_failures_1.30.txt"
known_as 1.29 && known_as 1.31
expect_exit 0 $T --list --filter test_abs --runtime "$RT_NEW"
expect_in out "from the 1.29 list"
warning "$new" 1.29 | expect_same err

# The closest, newer or older: 1.31 over 1.27, 1.18 over 1.20 for 1.17.
rm "$L/known_failures_1.29.txt" "$L/known_failures_1.17.txt"
known_as 1.27 && known_as 1.18 && known_as 1.20
expect_exit 0 $T --list --filter test_abs --runtime "$RT_NEW"
expect_in out "from the 1.31 list"
warning "$new" 1.31 | expect_same err
expect_exit 0 $T --list --filter test_abs --runtime "$RT_OLD"
expect_in out "from the 1.18 list"
warning "$old" 1.18 | expect_same err

# The run's report says which list and why, in text and in JSON.
# test_abs passes, so its entry is an unexpected pass: exit status 1.
expect_exit 1 $T --filter test_abs --runtime "$RT_NEW" --json
warning "$new" 1.31 | expect_same err
/usr/bin/python3 - "$dir" "$new" <<'EOF'
import json, sys
r = json.load(open("out"))
assert r["known_failures"] == sys.argv[1] + "/known_failures_1.31.txt", r["known_failures"]
assert r["known_failures_release"] == "1.31", r["known_failures_release"]
want = ("no known-failures list for ONNX Runtime %s; using known_failures_1.31.txt, the nearest "
        "release's (same major, closest minor, the older on a tie)" % sys.argv[2])
assert r["known_failures_fallback"] == want, r["known_failures_fallback"]
assert r["tests"][0]["status"] == "xpass", r["tests"][0]
EOF
expect_exit 1 $T --filter test_abs --runtime "$RT_NEW"
expect_in out "known     $dir/known_failures_1.31.txt"
expect_in out "          $(warning "$new" 1.31 | sed 's/^ortkit: warning: //')"

# Its own list in JSON: the release, and no fallback.
known_as 1.30
expect_exit 1 $T --filter test_abs --runtime "$RT_NEW" --json
expect_lines err 0
/usr/bin/python3 - <<'EOF'
import json
r = json.load(open("out"))
assert r["known_failures_release"] == "1.30" and r["known_failures_fallback"] is None, r
EOF

# Lists of another major only: none is used, and the line says so.
rm "$L"/known_failures_1.*.txt
known_as 2.0
expect_exit 0 $T --list --filter test_abs --runtime "$RT_NEW"
expect_not_in out "known failure"
echo "ortkit: warning: no known-failures list for ONNX Runtime $new nor for any other 1.x release:" \
     "every failure counts" | expect_same err
# Not the default suite: no list is looked for, and nothing is said.
expect_exit 0 $T tiny --list --runtime "$RT_NEW"
expect_lines err 0
