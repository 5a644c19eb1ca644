# ortkit validate on small generated backend tests: passes, failures, the
# known-failures and tolerance files, every kind of bad input (missing and
# broken test data, a crash, a hang, Ctrl-C), and each output format.

/usr/bin/python3 "$SRC/tests/validate/make_cases.py" "$MODELS" cases
V="$ORTKIT validate --no-progress"

# --- usage -----------------------------------------------------------------
expect_exit 0 $V --help
expect_in out "usage: ortkit validate"
for bad in "-j 0" "--timeout 0" "--repeat 0" "--threads x" "--rtol -1" "--soak nan" "--bogus"; do
    # shellcheck disable=SC2086
    expect_exit 2 $V cases/good $bad
    expect_in err "ortkit validate: "
    expect_in err "ortkit validate --help"
    expect_lines out 0
done
expect_exit 2 $V cases/good --known-failures x --no-known-failures
expect_in err "exclude each other"

# --- test directories that are not there -----------------------------------
expect_exit 1 $V nosuch
expect_lines err 1
expect_in err "ortkit: cannot read test directory 'nosuch': No such file or directory"
expect_exit 1 $V "$MODELS/add.onnx"
expect_in err "is not a test directory (not a directory)"
mkdir -p empty/sub
expect_exit 1 $V empty
expect_in err "no tests under 'empty'"
if [ "$(id -u)" != 0 ]; then
    mkdir locked && chmod 000 locked
    expect_exit 1 $V locked
    expect_in err "cannot read test directory 'locked': Permission denied"
    chmod 755 locked
fi
expect_exit 1 $V cases/good --filter 'nothing*'
expect_in err "no test matches the filters (3 tests found)"

# --- passing tests, both runtimes: every element type, raw and typed ----------
for rt in "$RT_NEW" "$RT_OLD"; do
    expect_exit 0 $V cases/good --runtime "$rt" -j2
    expect_in out "result: OK: 3 passed, 0 failed"
    expect_in out "good       3     3     0"
    expect_lines err 0
done
expect_exit 0 $V cases/good --list
expect_lines out 3
expect_in out "$(printf 'good/test_add_ok\tAdd\topset 17')"
expect_exit 0 $V cases/good --filter 'test_types*' --exclude '*typed' -v
expect_in out "PASS        good/test_types_raw"
expect_in out "result: OK: 1 passed"

# --- a wrong output: where, how much, and why ---------------------------------
expect_exit 1 $V cases/wrong
expect_in out "failures (1):"
expect_in out "wrong/test_add_wrong: compare: test_data_set_0: output 'sum': 1 of 6 values differ; worst at [0,1]: expected 2.25999999, got 2.25 (|diff| 0.01 > 0.00227)"
expect_in out "result: FAIL: 0 passed, 1 failed"
# A tolerance for that test lets it pass; tolerance files are checked.
printf '# test rtol atol\ntest_add_wrong 0 0.02\n' >tol.txt
expect_exit 0 $V cases/wrong --tolerances tol.txt
printf 'test_add_wrong 0.1\n' >badtol.txt
expect_exit 1 $V cases/wrong --tolerances badtol.txt
expect_in err "badtol.txt:1: expected 'TEST RTOL ATOL' with two numbers >= 0"
# The same test twice: only one line could count, so neither is guessed at.
printf 'test_add_wrong 0 0.02\n# looser\ntest_add_wrong 0 0.5\n' >duptol.txt
expect_exit 1 $V cases/wrong --tolerances duptol.txt
expect_in err "duptol.txt:3: 'test_add_wrong' is listed again (first on line 1); keep one of the two"
expect_exit 0 $V cases/wrong --atol 0.02

# --- known failures ---------------------------------------------------------------
printf '# why it fails\nwrong/test_add_wrong   the reference is off by 0.01 on purpose\n' >known.txt
expect_exit 0 $V cases/wrong cases/good --known-failures known.txt
expect_in out "expected failures (1):"
expect_in out "wrong/test_add_wrong: the reference is off by 0.01 on purpose"
expect_in out "result: OK: 3 passed, 0 failed, 1 expected failures, 0 unexpected passes"
# A listed test that passes is reported, and fails the run unless allowed.
printf 'test_add_ok  was broken once\n' >stale.txt
expect_exit 1 $V cases/good --known-failures stale.txt
expect_in out "unexpected passes (listed as known failures) (1):"
expect_in out "good/test_add_ok: passed; the list says: was broken once"
expect_exit 0 $V cases/good --known-failures stale.txt --allow-unexpected-pass
expect_exit 1 $V cases/good --known-failures nosuch.txt
expect_in err "cannot open known-failures file 'nosuch.txt': No such file or directory"
printf 'test_add_ok\n' >noreason.txt
expect_exit 1 $V cases/good --known-failures noreason.txt
expect_in err "noreason.txt:1: no reason given after the test name"
printf 'test_add_ok  one reason\ntest_add_ok  another\n' >dupknown.txt
expect_exit 1 $V cases/good --known-failures dupknown.txt
expect_in err "dupknown.txt:2: 'test_add_ok' is listed again (first on line 1); keep one of the two"

# --- broken test data: each test fails (or is unsupported) and says why ----------
expect_exit 1 $V cases/bad -j2
expect_in out "bad/test_truncated: data: 'cases/bad/test_truncated/test_data_set_0/input_0.pb': not a TensorProto (protobuf decoding failed: truncated or not protobuf)"
expect_in out "bad/test_wrong_kind: data: 'cases/bad/test_wrong_kind/test_data_set_0/input_0.pb': tensor has a 'segment' field: not a TensorProto (a SequenceProto?)"
expect_in out "bad/test_extra_output: data: test_data_set_0 has 2 output files; the model has 1 output"
expect_in out "bad/test_no_model: data: cannot read 'cases/bad/test_no_model/model.onnx': No such file or directory"
expect_in out "unsupported by ortkit (1):"
expect_in out "bad/test_external: data: 'cases/bad/test_external/test_data_set_0/input_0.pb': tensor 'a' keeps its data in an external file ('a.bin')"
expect_in out "result: FAIL: 0 passed, 4 failed, 0 expected failures, 0 unexpected passes, 1 unsupported"

# --- values that are not tensors: a sequence, the classifier's sequence of maps ----
expect_exit 0 $V cases/seq
expect_in out "result: OK: 2 passed, 0 failed, 0 expected failures, 0 unexpected passes, 0 unsupported"
expect_exit 1 $V cases/seq_wrong
expect_in out "seq_wrong/test_classifier_wrong: compare: test_data_set_0: output 'probabilities': (3){}: 1 of 3 values differ; worst at [1]: expected 0.522291183, got 0.512291193 (|diff| 0.01 > 0.000532)"

# --- a crash in the runtime (the test hook) costs that test only -------------------
# The hook is ortkit-test-hooks': the tool itself has none.
export ORTKIT_VALIDATE_CRASH_TEST=test_add_ok
expect_exit 0 $V cases/good -j2
expect_exit 1 "$ORTKIT_HOOKS" validate --no-progress cases/good -j2
unset ORTKIT_VALIDATE_CRASH_TEST
expect_in out "good/test_add_ok: crash: crashed: killed by SIGSEGV (Segmentation fault)"
expect_in out "result: FAIL: 2 passed, 1 failed"

# --- a hang is killed at the timeout, and the others still run ---------------------
# 5 s, not 1: a good test under ASan on a busy machine can take over a second.
start=$(date +%s)
expect_exit 1 $V cases/hang cases/good --timeout 5 -j2
expect_in out "hang/test_slow: timeout: timed out after 5 s; killed"
expect_in out "result: FAIL: 3 passed, 1 failed"
[ $(($(date +%s) - start)) -lt 20 ] || { echo "FAIL: the hang was not cut short" >&2; exit 1; }

# --- Ctrl-C: stop, kill the children, print what is known, exit 130 -----------------
# An earlier report that passed is replaced by a partial one that fails (an
# <error> for the interruption), with the mode any new file gets (umask).
for sig in INT TERM; do
    printf '<testsuites tests="3" failures="0"/>\n' >partial.xml
    chmod 600 partial.xml
    rm -f err # the last round's progress must not be read as this one's
    (umask 022; exec $V cases/good cases/hang --progress -j1 --junit partial.xml >out 2>err) &
    pid=$!
    n=0
    # Interrupt once the three good tests are done and the hang has begun
    # (the progress line says so), however slow the machine is.
    until grep -q "3/4  pass 3 .*test_slow" err || [ $n -ge 600 ]; do sleep 0.1; n=$((n + 1)); done
    kill -$sig $pid
    set +e
    wait $pid
    rc=$?
    set -e
    [ "$rc" = 130 ] || { echo "FAIL: interrupted run (SIG$sig) exited $rc, expected 130" >&2; cat out err >&2; exit 1; }
    expect_in out "result: INTERRUPTED: 3 passed, 0 failed"
    expect_in out ", 1 not run"
    expect_in out "not run"
    [ "$(stat -c %a partial.xml)" = 644 ] || { echo "FAIL: JUnit file mode $(stat -c %a partial.xml)" >&2; exit 1; }
    /usr/bin/python3 - "$sig" <<'EOF'
import sys, xml.etree.ElementTree as ET
r = ET.parse("partial.xml").getroot()
assert r.get("errors") == "1" and r.get("tests") == "5", r.attrib
cases = {c.get("name"): c for c in r.iter("testcase")}
e = cases["interrupted"].find("error")
assert e is not None and e.get("type") == "interrupted", cases.keys()
assert "SIG" + sys.argv[1] in e.get("message") and "after 3 of 4 tests" in e.get("message"), e.get("message")
assert cases["test_slow"].find("skipped").get("type") == "not-run"
EOF
    [ -z "$(ls | grep 'partial.xml.tmp' || true)" ] || { echo "FAIL: JUnit temp file left" >&2; exit 1; }
done

# --- determinism and memory --------------------------------------------------------
expect_exit 0 $V cases/good --repeat 3
expect_in out "determinism: 0 of 3 tests gave outputs that differ between 3 runs"
expect_exit 0 $V cases/good --filter test_add_ok --soak 0.5
expect_in out "resident memory over a 0.5 s soak per test"
expect_in out "good/test_add_ok: "

# --- providers: reported per test; strict fails a test that would fall back ---------
expect_exit 0 $V cases/good --ep nosuch
expect_in out "providers the sessions got:"
expect_in out "CPUExecutionProvider         3 tests"
expect_exit 1 $V cases/good --ep nosuch --strict
expect_in out "good/test_add_ok: provider: execution provider 'nosuch' cannot be used: unknown execution provider 'nosuch'"

# --- JSON on stdout (progress stays on stderr), JUnit written whole ------------------
expect_exit 1 $V cases/good cases/wrong cases/seq --json --progress --junit results.xml
/usr/bin/python3 - <<'EOF'
import json, xml.etree.ElementTree as ET
d = json.load(open("out"))
assert d["totals"] == {"tests": 6, "not-run": 0, "pass": 5, "fail": 1, "xfail": 0, "xpass": 0,
                       "unsupported": 0}, d["totals"]
t = {x["name"]: x for x in d["tests"]}
assert t["test_add_wrong"]["stage"] == "compare" and abs(t["test_add_wrong"]["max_diff"] - 0.01) < 1e-6
assert t["test_add_ok"]["provider"] == "CPUExecutionProvider" and t["test_add_ok"]["data_sets"] == 2
assert d["suites"]["good"]["pass"] == 3 and d["operators"]["Add"]["fail"] == 1
r = ET.parse("results.xml").getroot()
assert r.tag == "testsuites" and r.get("tests") == "6" and r.get("failures") == "1", r.attrib
cases = {c.get("name"): c for c in r.iter("testcase")}
assert cases["test_add_wrong"].find("failure").get("type") == "compare"
assert cases["test_seq_out"].find("skipped") is None and cases["test_classifier"].find("failure") is None
assert cases["test_add_ok"].find("failure") is None
EOF
grep -q "$(printf '\r')\[" err || { echo "FAIL: no progress bar on stderr" >&2; exit 1; }
[ -z "$(ls | grep 'results.xml.tmp' || true)" ] || { echo "FAIL: JUnit temp file left" >&2; exit 1; }
/usr/bin/python3 -c 'import xml.etree.ElementTree as ET; r = ET.parse("results.xml").getroot(); assert r.get("errors") == "0", r.attrib'
[ "$(stat -c %a results.xml)" = "$(printf '%o' $((0666 & ~$(umask))))" ] || { echo "FAIL: JUnit file mode $(stat -c %a results.xml), umask $(umask)" >&2; exit 1; }
expect_exit 1 $V cases/good --junit nosuchdir/results.xml
expect_in err "cannot write JUnit file 'nosuchdir/results.xml'"

# --- the default suite (Debian's libonnx-testdata) with the known-failures list -------
# The lists of tests/validate/ are installed in share/ortkit/validate/; the
# build tree has a copy beside its tool (install.t checks an installed tree).
if [ -d /usr/share/libonnx-testdata/data/node ]; then
    expect_exit 0 $V -j2 --filter 'test_add*' --filter 'test_relu*' --filter 'test_cast_*' --filter 'test_bernoulli*'
    expect_in out "known     $(cd "$(dirname "$ORTKIT")" && pwd -P)/share/ortkit/validate/known_failures_1.30.txt"
    expect_in out "expected failures ("
    expect_in out "result: OK: "
fi
