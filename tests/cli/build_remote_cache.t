# build_remote_cache.t - `ortkit build --cache ccache --cache-remote URL`
# against a real redis-server on loopback (started here on a free port, in a
# scratch directory, with a password; stopped at the end).  Two build
# directories, each with a local cache of its own, stand for two builders
# sharing the server: the second build of the fixture compiles nothing
# (every compile a remote hit, by ccache's own counters and by the report),
# a changed source misses exactly that file, a rebuild in place prices its
# hits, an unreachable server is said and counted, and the password is never
# printed.  Skipped (77) without redis-server or a ccache with redis storage.
set -eu
. "$SRC/tests/cli/redis_lib.sh"
need_redis_ccache
PW=ortkit-test-S3cret
start_redis "$PW"

URL="redis://$PW@127.0.0.1:$port/3"
SHOWN="redis://***@127.0.0.1:$port/3"
# A remote build's local cache is its own (issue 36): where its report says.
local_dir() { /usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["cache"]["local_dir"])' "$1"; }
F="$PWD/fx"
sh "$SRC/tests/builder/fixture/make_fixture.sh" "$F" 120,160,140

# ---- the plan shows the cache and the remote, never the password ------------
expect_exit 0 "$ORTKIT" build --cmake-project "$F" --build-dir a --cache ccache --cache-remote "$URL" --dry-run
expect_in out "  cache         ccache, remote $SHOWN (redis at 127.0.0.1 port $port, database 3; CCACHE_REMOTE_STORAGE), and the local cache"
expect_not_in out "$PW"
expect_exit 0 "$ORTKIT" build --cmake-project "$F" --build-dir a --cache ccache --cache-remote "$URL" \
    --cache-remote-only --cache-basedir "$PWD" --dry-run --json
/usr/bin/python3 - out "$SHOWN" "$PWD" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
assert p["cache"] == {"tool": "ccache", "remote": sys.argv[2], "remote_only": True, "basedir": sys.argv[3]}, p["cache"]
assert "remote only (CCACHE_REMOTE_ONLY)" in {l["label"]: l["value"] for l in p["summary"]}["cache"], p["summary"]
PY
expect_not_in out "$PW"

# Usage: the remote is ccache's; bad URLs are refused without echoing them.
expect_exit 2 "$ORTKIT" build --cmake-project "$F" --cache-remote "$URL" --dry-run
expect_in err "--cache-remote, --cache-remote-only and --cache-basedir go with --cache ccache"
expect_exit 2 "$ORTKIT" build --cmake-project "$F" --cache ccache --cache-remote "redis://:$PW@127.0.0.1:$port" --dry-run
expect_in err "names an empty user, which ccache sends to Redis and Redis refuses"
expect_not_in err "$PW"
expect_exit 2 "$ORTKIT" build --cmake-project "$F" --cache ccache --cache-remote "memcache://$PW@h:1" --dry-run
expect_in err "the scheme 'memcache' is not one"
expect_not_in err "$PW"
expect_exit 2 "$ORTKIT" build --cmake-project "$F" --cache ccache --cache-remote "redis://$PW@127.0.0.1:99999" --dry-run
expect_in err "the port of 127.0.0.1 is not a number from 1 to 65535"
expect_exit 2 "$ORTKIT" build --cmake-project "$F" --cache ccache --cache-remote-only --dry-run
expect_in err "--cache-remote-only goes with --cache-remote URL"

# ---- builder A: its own cache directory, every compile a miss, stored remotely
expect_exit 0 env CCACHE_DIR="$PWD/ccA" "$ORTKIT" build --cmake-project "$F" --build-dir a --cache ccache \
    --cache-remote "$URL" --jobs 2 --json --progress
cp out a.json
cp err a.progress
expect_in a.progress "  cache 0 hit (0 remote) "

# ---- builder B: another cache directory and build directory: nothing compiled
expect_exit 0 env CCACHE_DIR="$PWD/ccB" "$ORTKIT" build --cmake-project "$F" --build-dir b --cache ccache \
    --cache-remote "$URL" --jobs 2 --json
cp out b.json
CCACHE_DIR="$(local_dir b.json)" ccache --print-stats >b.stats
b/stage/bin/fixture >/dev/null

# ---- builder C: one source changed; it alone misses
sh "$SRC/tests/builder/fixture/make_fixture.sh" "$F" 120,170,140
expect_exit 0 env CCACHE_DIR="$PWD/ccC" "$ORTKIT" build --cmake-project "$F" --build-dir c --cache ccache \
    --cache-remote "$URL" --jobs 2 --json
cp out c.json
CCACHE_DIR="$(local_dir c.json)" ccache --print-stats >c.stats

# ---- builder A again, from clean: its own hits, priced by its history --------
ninja -C a -t clean >/dev/null
expect_exit 0 env CCACHE_DIR="$PWD/ccA" "$ORTKIT" build --cmake-project "$F" --build-dir a --cache ccache \
    --cache-remote "$URL" --jobs 2 --json
cp out a2.json
expect_exit 0 env CCACHE_DIR="$PWD/ccA" "$ORTKIT" build --cmake-project "$F" --build-dir a2 --cache ccache \
    --cache-remote "$URL" --jobs 2 --no-progress
expect_in out "cache: ccache, remote $SHOWN: 5 hits (0 remote, 5 local), 0 misses, 1 not cacheable"

/usr/bin/python3 - a.json b.json b.stats c.json c.stats a2.json "$SHOWN" <<'PY'
import json, sys
a, b, c, a2 = (json.load(open(sys.argv[i])) for i in (1, 2, 4, 6))
shown = sys.argv[7]
def stats(path):
    return {k: int(v) for k, v in (l.split("\t") for l in open(path) if "\t" in l)}
bs, cs = stats(sys.argv[3]), stats(sys.argv[5])
def outcomes(r):
    return {x["path"].rsplit("/", 1)[-1]: x["cache"] for x in r["compiles"]}
sources = {"main.cc", "small.c", "mem_01.cc", "mem_02.cc", "mem_03.cc"}
# A: five compiles stored, the link not cacheable.
assert a["chain"] == "ccache" and a["cache"]["remote"] == shown, a["cache"]
assert (a["cache"]["misses"], a["cache"]["hits"], a["cache"]["uncacheable"]) == (5, 0, 1), a["cache"]
assert a["cache"]["remote_errors"] == 0, a["cache"]
# B compiled nothing: every source a remote hit, by the report and by ccache.
assert b["cache"]["hits"] == b["cache"]["remote_hits"] == 5, b["cache"]
assert b["cache"]["misses"] == 0 and b["cache"]["local_hits"] == 0, b["cache"]
assert b["cache"]["hits_unpriced"] == 5, b["cache"]  # B never compiled them itself
assert {k for k, v in outcomes(b).items() if v == "remote-hit"} == sources, outcomes(b)
assert outcomes(b)["fixture"] == "uncacheable"
assert bs["remote_storage_hit"] == 5 and bs["cache_miss"] == 0 and bs["local_storage_hit"] == 0, bs
# C: the changed file alone missed.
assert c["cache"]["misses"] == 1 and c["cache"]["remote_hits"] == 4, c["cache"]
assert [k for k, v in outcomes(c).items() if v == "miss"] == ["mem_02.cc"], outcomes(c)
assert cs["cache_miss"] == 1 and cs["remote_storage_hit"] == 4, cs
# A from clean: its own four from the local cache, the changed one from the server
# (C stored it); each hit priced by A's history of its real compile.
assert (a2["cache"]["local_hits"], a2["cache"]["remote_hits"], a2["cache"]["misses"]) == (4, 1, 0), a2["cache"]
assert a2["cache"]["hits_unpriced"] == 0 and a2["cache"]["saved_s"] >= 0, a2["cache"]
assert all("saved_s" in x for x in a2["compiles"] if x["cache"].endswith("hit")), a2["compiles"]
print("A", a["cache"]["misses"], "misses; B", b["cache"]["remote_hits"], "remote hits;",
      "C", c["cache"]["misses"], "miss; A again saved", round(a2["cache"]["saved_s"], 2), "s")
PY

# The password is in no report, log or state file the builds wrote.
if grep -rlF -- "$PW" a b c a2 a.json b.json c.json a2.json a.progress; then
    echo "FAIL: the password was written out" >&2
    exit 1
fi

# ---- issue 36: what the server sent stays out of builds without it -----------
# B's CCACHE_DIR got nothing from the server (its copies are in B's own
# remote cache), so a build without --cache-remote compiles all itself; and
# a remote named in ccache's own settings does not reach it either.
expect_exit 0 env CCACHE_DIR="$PWD/ccB" "$ORTKIT" build --cmake-project "$F" --build-dir e --cache ccache \
    --jobs 2 --json
cp out e.json
expect_exit 0 env CCACHE_DIR="$PWD/ccE" CCACHE_REMOTE_STORAGE="$URL" "$ORTKIT" build --cmake-project "$F" \
    --build-dir e2 --cache ccache --jobs 2 --json
cp out e2.json
/usr/bin/python3 - e.json e2.json "$PWD/ccB" <<'PY'
import json, os, sys
for path in sys.argv[1:3]:
    c = json.load(open(path))["cache"]
    assert c["remote"] is None and c["local"] == "no-server" and c["local_dir"] is None, c
    assert c["hits"] == 0 and c["misses"] == 5 and c["remote_hits"] == 0, (path, c)
b = json.load(open("b.json"))["cache"]
assert b["local"] == "server" and not b["local_dir"].startswith(sys.argv[3]), b
assert (os.stat(b["local_dir"]).st_mode & 0o777) == 0o700, b
PY

# ---- issue 36: the password in no command line ---------------------------------
# A copy of the fixture that writes the command line of every process above
# it, while CMake configures and while ninja builds.
cp -r "$F" P
cat >P/dump.sh <<'SH'
pid=$$
while [ "$pid" -gt 1 ]; do
    tr '\0' ' ' </proc/$pid/cmdline; echo
    pid=$(awk '{print $4}' /proc/$pid/stat)
done >>"$1"
SH
cat >>P/CMakeLists.txt <<CM
execute_process(COMMAND sh \${CMAKE_SOURCE_DIR}/dump.sh $PWD/cmdlines)
add_custom_target(dump ALL COMMAND sh \${CMAKE_SOURCE_DIR}/dump.sh $PWD/cmdlines)
CM
stars=$(printf '%s' "$PW" | sed 's/./*/g')
# In the URL: said, and blanked in ortkit's own command line at once.
expect_exit 0 env CCACHE_DIR="$PWD/ccP" "$ORTKIT" build --cmake-project P --build-dir p1 --cache ccache \
    --cache-remote "$URL" --jobs 2 --json
expect_in err "ortkit: warning: --cache-remote: the password on the command line can be read by every user"
grep -qF -- "--cache-remote redis://$stars@127.0.0.1" cmdlines || { echo "FAIL: no blanked URL" >&2; cat cmdlines >&2; exit 1; }
! grep -qF -- "$PW" cmdlines || { echo "FAIL: the password in a command line" >&2; cat cmdlines >&2; exit 1; }
# From ORTKIT_CACHE_PASSWORD or a file of the user's alone: in no command line,
# and it reaches the server (what p1 stored comes back).
rm -f cmdlines
URL_NOPW="redis://127.0.0.1:$port/3"
expect_exit 0 env CCACHE_DIR="$PWD/ccQ" ORTKIT_CACHE_PASSWORD="$PW" "$ORTKIT" build --cmake-project P \
    --build-dir p2 --cache ccache --cache-remote "$URL_NOPW" --jobs 2 --json
cp out p2.json
expect_not_in err "the password on the command line"
! grep -qF -- "$PW" cmdlines || { echo "FAIL: the password in a command line" >&2; cat cmdlines >&2; exit 1; }
grep -qF -- "--cache-remote $URL_NOPW" cmdlines || { echo "FAIL: no ortkit command line" >&2; exit 1; }
printf '%s\n' "$PW" >pwfile
chmod 644 pwfile
expect_exit 2 "$ORTKIT" build --cmake-project P --build-dir p3 --cache ccache --cache-remote "$URL_NOPW" \
    --cache-password-file pwfile --dry-run
expect_in err "readable by you alone (chmod 600 it)"
chmod 600 pwfile
expect_exit 2 env ORTKIT_CACHE_PASSWORD="$PW" "$ORTKIT" build --cmake-project P --build-dir p3 --cache ccache \
    --cache-remote "$URL" --dry-run
expect_in err "give it one way"
expect_not_in err "$PW"
expect_exit 0 env CCACHE_DIR="$PWD/ccR" "$ORTKIT" build --cmake-project P --build-dir p3 --cache ccache \
    --cache-remote "$URL_NOPW" --cache-password-file pwfile --jobs 2 --json
cp out p3.json
/usr/bin/python3 - p2.json p3.json "$SHOWN" <<'PY'
import json, sys
p2, p3 = (json.load(open(p))["cache"] for p in sys.argv[1:3])
assert p2["remote"] == sys.argv[3] and p2["remote_errors"] == 0 and p2["remote_hits"] == 5, p2
assert p3["remote_errors"] == 0 and p3["remote_hits"] == 5, p3
PY
if grep -rlF -- "$PW" p1 p2 p3 p2.json p3.json; then
    echo "FAIL: the password was written out" >&2
    exit 1
fi

# ---- the server gone: said before compiling, counted, and the build still works
stop_redis
expect_exit 0 env CCACHE_DIR="$PWD/ccD" "$ORTKIT" build --cmake-project "$F" --build-dir d --cache ccache \
    --cache-remote "$URL" --jobs 2 --json
expect_in err "ortkit: warning: --cache-remote $SHOWN: cannot connect to 127.0.0.1 port $port"
expect_not_in err "$PW"
/usr/bin/python3 - out <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["cache"]
assert d["misses"] == 5 and d["hits"] == 0 and d["remote_errors"] >= 5, d
PY
