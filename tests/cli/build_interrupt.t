# build_interrupt.t - a second build of the same directory is refused with
# the holder's PID; Ctrl-C stops cleanly (no compiler left, lock released,
# the gate's socket removed) and the same command resumes; a broken file
# surfaces its error line.
set -eu
F="$PWD/fx"
sh "$SRC/tests/builder/fixture/make_fixture.sh" "$F" 500,500,500,500,500,500,500,500

"$ORTKIT" build --cmake-project "$F" --build-dir b --jobs 1 --no-progress >out1 2>err1 &
pid=$!
# Wait (bounded) until it has finished a step, so it is compiling.
i=0
until grep -q '^\[ortkit [1-9]' b/ortkit-build.log 2>/dev/null; do
    i=$((i + 1))
    [ "$i" -lt 1200 ] || { echo "FAIL: the build never started" >&2; cat err1 >&2; exit 1; }
    sleep 0.1
done

expect_exit 1 "$ORTKIT" build --cmake-project "$F" --build-dir b --jobs 1
expect_in err "is in use by another ortkit build (pid $pid)"
# The gate's socket: in the state directory, the user's alone.
[ -S b/.ortkit/gate.sock ]
[ "$(stat -c %a b/.ortkit/gate.sock)" = 600 ] && [ "$(stat -c %a b/.ortkit)" = 700 ]

kill -INT "$pid"
set +e
wait "$pid"
got=$?
set -e
[ "$got" = 130 ] || { echo "FAIL: interrupted build exited $got, expected 130" >&2; cat err1 >&2; exit 1; }
expect_in err1 "interrupted;"
expect_in err1 "run the same command again to resume"
# No compiler of this build is left, and the lock is free.
if pgrep -f "$F/mem_" >/dev/null; then
    echo "FAIL: stray compilers:" >&2; pgrep -af "$F/mem_" >&2; exit 1
fi
flock -n b/.ortkit/lock true
[ ! -e b/.ortkit/gate.sock ]

expect_exit 0 "$ORTKIT" build --cmake-project "$F" --build-dir b --jobs 1 --json
/usr/bin/python3 - out <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
# 8 C++ files, main.cc, small.c and the link: the rerun only does what was left.
assert 0 < r["steps_to_do"] < 11, r["steps_to_do"]
assert r["steps_run"] == r["steps_to_do"]
PY
expect_in b/ortkit-build.log "configuration unchanged; not configuring again"
b/stage/bin/fixture >/dev/null

# A file that does not compile: its error line, and where the log is.
sh "$SRC/tests/builder/fixture/make_fixture.sh" "$PWD/bad" 60 --broken
expect_exit 1 "$ORTKIT" build --cmake-project "$PWD/bad" --build-dir bb --no-progress
expect_in err "ortkit: build failed: $PWD/bad/broken.cc:4:19: error: expected primary-expression before"
expect_in err "(full log: $PWD/bb/ortkit-build.log)"
flock -n bb/.ortkit/lock true
