# The session settings of run, bench and validate (--cache, --arena,
# --arena-extend, --mem-pattern, --spin) and bench's other measurements
# (--cold, --sessions, a --dim sweep), each briefly so that none can rot.
# Timings are never compared with a clock.

PY=/usr/bin/python3
ADD="$MODELS/add.onnx"

json_check() {
    "$PY" - "$@" <<'EOF'
import json, sys
d = json.load(open("out"))
for expr in sys.argv[1:]:
    if not eval(expr):
        sys.exit("FAIL: " + expr + " does not hold for " + json.dumps(d))
EOF
}

usage() {
    expect_exit 2 "$@"
    expect_lines out 0
    expect_in err "ortkit $2: "
}

# The cache: filled, then a hit with the same outputs; the default directory.
expect_exit 0 "$ORTKIT" run "$ADD" --random --dim N=2 --cache=cache --json -o plain
json_check 'd["session_cache"] == "filled"'
expect_exit 0 "$ORTKIT" run "$ADD" --random --dim N=2 --cache=cache --json -o cached
json_check 'd["session_cache"] == "hit"'
cmp plain/sum.npy cached/sum.npy
expect_exit 0 "$ORTKIT" run "$ADD" --random --dim N=2 --cache=cache
expect_in out "cache: hit"
XDG_CACHE_HOME="$PWD/xdg" expect_exit 0 "$ORTKIT" run "$ADD" --random --dim N=2 --cache --json
json_check 'd["session_cache"] == "filled"'
ls xdg/ortkit/sessions/*.ortkit-session >/dev/null
# Only CPU sessions are cached: another provider is said, and runs uncached.
expect_exit 0 "$ORTKIT" run "$ADD" --random --dim N=2 --cache=cache --ep cuda --json
json_check 'd["session_cache"] == "skipped"'
expect_in err "the session cache was not used: only CPU sessions are cached"
# A damaged entry is never used: made again.
for f in cache/*.ortkit-session; do printf 'garbage' | dd of="$f" bs=1 seek=200 conv=notrunc 2>/dev/null; done
expect_exit 0 "$ORTKIT" run "$ADD" --random --dim N=2 --cache=cache --json -o again
json_check 'd["session_cache"] == "filled"'
expect_in err "does not match its checksum; removed and made again"
cmp plain/sum.npy again/sum.npy

# Memory and threading switches.
expect_exit 0 "$ORTKIT" run "$ADD" --random --dim N=2 --arena off --mem-pattern off --spin off
expect_exit 0 "$ORTKIT" run "$ADD" --random --dim N=2 --arena on --arena-extend requested
expect_exit 0 "$ORTKIT" run "$ADD" --random --dim N=2 --arena-extend power2 --runtime "$RT_OLD"
usage "$ORTKIT" run "$ADD" --arena maybe
expect_in err "--arena wants on or off, got 'maybe'"
usage "$ORTKIT" run "$ADD" --arena-extend fast
expect_in err "--arena-extend wants power2 or requested"
usage "$ORTKIT" run "$ADD" --arena off --arena-extend requested
expect_in err "it needs --arena on"
usage "$ORTKIT" run "$ADD" --cache=
expect_in err "--cache= wants a directory"
HOME=relative XDG_CACHE_HOME= usage "$ORTKIT" run "$ADD" --cache
expect_in err "give --cache=DIR"

# bench --cold: creation from the model and from the cache, in one run.
expect_exit 0 "$ORTKIT" bench "$ADD" --cold 2 --json
json_check 'd["creations"] == 2' 'd["uncached_s"]["min"] > 0' 'd["cached_s"]["min"] > 0' \
    'd["ratio_min"] > 0' 'd["cache_dir"] == "(temporary)"'
expect_exit 0 "$ORTKIT" bench "$ADD" --cold 1 --cache=benchcache
expect_in out "from the model"
expect_in out "from the cache"
expect_in out "cached / uncached: "
ls benchcache/*.ortkit-session >/dev/null

# bench --sessions: one combination in-process, several in child processes.
expect_exit 0 "$ORTKIT" bench "$ADD" "$MODELS/add.onnx" --dim N=2 --sessions 2 --pools global -c 2 -n 20 --json
json_check 'd["sessions"] == 2' 'd["models"] == 2' 'd["pools"] == "global"' 'd["runs"] == 20' \
    'd["p50_s"] <= d["p99_s"]' 'd["cpu_cores"] >= 0' 'd["throughput"] > 0'
expect_exit 0 "$ORTKIT" bench "$ADD" --dim N=2 --sessions 1,2 --pools session,global --spin on,off -c 2 -n 10
expect_lines out 10
expect_in out "sessions  pools    spin"
expect_in out "global   off"
usage "$ORTKIT" bench "$ADD" --sessions 0
usage "$ORTKIT" bench "$ADD" --pools global
expect_in err "go with --sessions"
usage "$ORTKIT" bench "$ADD" --sessions 1,2 --json --dim N=2
usage "$ORTKIT" bench "$ADD" "$ADD" --dim N=2
expect_in err "several only with --sessions"

# The memory sweep: sizes up, then back down.
expect_exit 0 "$ORTKIT" bench "$ADD" --dim N=1..9:4 -n 1 --json
json_check 'len(d["shapes"]) == 5' '[s["dims"] for s in d["shapes"]] == ["1", "5", "9", "5", "1"]' \
    'd["rss_peak_bytes"] >= d["rss_before_bytes"]'
expect_exit 0 "$ORTKIT" bench "$ADD" --dim N=1..3 --arena off
expect_in out "resident memory after each shape"
usage "$ORTKIT" bench "$ADD" --dim N=5..2
expect_in err "1 <= LO < HI"
usage "$ORTKIT" bench "$ADD" --dim N=1..3 --cold 2
expect_in err "separate measurements"

# validate --cache: the same verdicts as without.
SUITE=/usr/share/libonnx-testdata/data/node
if [ -d "$SUITE" ]; then
    expect_exit 0 "$ORTKIT" validate "$SUITE" --filter 'test_conv*' --filter 'test_add*' --json --no-progress
    mv out plain.json
    for pass in fill hit; do
        expect_exit 0 "$ORTKIT" validate "$SUITE" --filter 'test_conv*' --filter 'test_add*' --json \
            --no-progress --cache=vcache
        mv out $pass.json
    done
    "$PY" - <<'EOF'
import json
def verdicts(p):
    return {t["name"]: (t["status"], t.get("max_diff"), t.get("message")) for t in json.load(open(p))["tests"]}
plain = verdicts("plain.json")
assert len(plain) > 10, plain
for p in ("fill.json", "hit.json"):
    assert verdicts(p) == plain, p
EOF
fi
