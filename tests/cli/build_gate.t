# build_gate.t - the fixture (real compiles of known, different sizes) built
# through the gate under a 1.5 GiB budget: the gate's own accounting and an
# independent sampler of the compilers' memory stay under it, both cores are
# used once the peaks are known, and there is a log, a report and progress.
set -eu
F="$PWD/fx"
sh "$SRC/tests/builder/fixture/make_fixture.sh" "$F" 300,900,600,400,800,500,350,700
BUDGET=1610612736 # 1.5 GiB

/usr/bin/python3 "$SRC/tests/builder/sample_rss.py" "$F/" sampled stop &
sampler=$!

# First build: nothing is known, so the per-language default (1.5 GiB for
# C++) lets one compile run at a time.
expect_exit 0 "$ORTKIT" build --cmake-project "$F" --build-dir b --mem-budget 1.5G --jobs 2 --json
cp out r1.json
# Second build of the same tree from clean: the learnt peaks let pairs that
# fit run together.  --progress draws the status line on stderr.
ninja -C b -t clean >/dev/null
expect_exit 0 "$ORTKIT" build --cmake-project "$F" --build-dir b --mem-budget 1.5G --jobs 2 --json --progress
cp out r2.json
cp err progress.txt
touch stop
wait "$sampler"

/usr/bin/python3 - r1.json r2.json sampled "$BUDGET" <<'PY'
import json, sys
r1, r2 = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
sampled, procs = map(int, open(sys.argv[3]).read().split())
budget = int(sys.argv[4])
for r in (r1, r2):
    g = r["gate"]
    assert r["budget_bytes"] == budget
    assert g["max_reserved_bytes"] <= budget, g
    assert g["max_in_use_bytes"] <= budget, g
    assert g["max_sampled_bytes"] <= budget, g
    assert g["compiles"] == 11, g   # 8 C++ files, main.cc, small.c, the link
    assert r["steps_run"] == 11 and r["steps_to_do"] == 11, r
assert sampled <= budget, ("sampled compilers over budget", sampled)
assert r1["gate"]["max_running"] == 1, r1["gate"]
assert r2["gate"]["max_running"] == 2, r2["gate"]
assert procs == 2, ("the sampler never saw two compilers at once", procs)
# The files really need what they were made to need, in order.
peak = {c["path"].rsplit("/", 1)[-1]: c["peak_bytes"] for c in r2["compiles"]}
mib = 1 << 20
assert 250 * mib < peak["mem_01.cc"] < 450 * mib, peak
assert 800 * mib < peak["mem_02.cc"] < 1100 * mib, peak
assert peak["mem_02.cc"] > peak["mem_05.cc"] > peak["mem_03.cc"] > peak["mem_04.cc"] > peak["mem_01.cc"]
# The report names the heaviest first.
assert r2["heaviest_by_memory"][0]["path"].endswith("mem_02.cc")
assert len(r2["heaviest_by_memory"]) == 10 and len(r2["heaviest_by_time"]) == 10
print("budget", budget, "sampled", sampled, "gate", r2["gate"]["max_in_use_bytes"])
PY
expect_in progress.txt "steps"
expect_in progress.txt "ETA"
expect_in progress.txt "of 1.50 GiB"

# The log has every step; the report is kept in the build directory.
expect_in b/ortkit-build.log "[ortkit 11/11"
[ -s b/ortkit-report.json ]
[ -x b/stage/bin/fixture ]
b/stage/bin/fixture >/dev/null

# Running it again: not configured again, nothing to build, the history kept.
expect_exit 0 "$ORTKIT" build --cmake-project "$F" --build-dir b --mem-budget 1.5G --jobs 2
expect_in out "steps: 0 run"
expect_in b/ortkit-build.log "configuration unchanged; not configuring again"
grep -q "mem_02.cc" b/.ortkit/history.tsv

# The state directory is this user's alone; the gate's socket is in it while
# a build runs, and gone after.
[ "$(stat -c %a b/.ortkit)" = 700 ]
[ ! -e b/.ortkit/gate.sock ]
# A socket left by a build that was killed (bound, nobody listening) is
# replaced; one that a live process of this user serves is refused by PID.
/usr/bin/python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' b/.ortkit/gate.sock
expect_exit 0 "$ORTKIT" build --cmake-project "$F" --build-dir b --mem-budget 1.5G --jobs 2
[ ! -e b/.ortkit/gate.sock ]
/usr/bin/python3 - b/.ortkit/gate.sock squat.ready squat.stop <<'PY' &
import os, socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(4)
open(sys.argv[2], "w").close()
for _ in range(600):
    if os.path.exists(sys.argv[3]):
        break
    time.sleep(0.1)
PY
squatter=$!
i=0
until [ -e squat.ready ]; do
    i=$((i + 1))
    [ "$i" -lt 300 ] || { echo "FAIL: the squatter never listened" >&2; exit 1; }
    sleep 0.1
done
expect_exit 1 "$ORTKIT" build --cmake-project "$F" --build-dir b --mem-budget 1.5G --jobs 2
expect_in err "another gate (pid $squatter) is already serving $PWD/b/.ortkit"
touch squat.stop
wait "$squatter"
rm b/.ortkit/gate.sock
# A state directory others can write is refused, by name.
chmod 777 b/.ortkit
expect_exit 1 "$ORTKIT" build --cmake-project "$F" --build-dir b --mem-budget 1.5G --jobs 2
expect_in err "the build's state directory $PWD/b/.ortkit is writable by its group and others (mode 0777); it must be 0700"
chmod 700 b/.ortkit

# The text report.
ninja -C b -t clean >/dev/null
expect_exit 0 "$ORTKIT" build --cmake-project "$F" --build-dir b --mem-budget 1.5G --jobs 2 --no-progress
expect_in out "built $F in $PWD/b"
expect_in out "heaviest by memory:"
expect_in out "held back"
expect_in out "log: $PWD/b/ortkit-build.log"
