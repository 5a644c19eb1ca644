#!/bin/sh
# Measure what each runtime fails of the default suite, to write or check
# the known-failures lists (docs/CONFORMANCE.md, "Measuring the lists").
#
# Usage: sweep.sh ORTKIT OUTDIR BUNDLE_DIR...
#        sweep.sh --check ORTKIT BUNDLE_DIR...
#
# Runs `ORTKIT validate --no-known-failures --json` once per bundle (one
# after another; set LOCK=FILE to take flock on FILE around each run) into
# OUTDIR/NAME.json (NAME: the bundle directory's), and writes OUTDIR/NAME.fail:
# one line per test that did not pass, "suite/name<TAB>stage<TAB>message",
# sorted.  `diff` two .fail
# files to see what changed between releases.
#
# --check runs each bundle against the list the tool picks for it and
# prints its result line: "0 failed" and "0 unexpected passes" for each
# when the lists are exact.
set -eu
if [ "${1:-}" = --check ]; then
    [ $# -ge 3 ] || { echo "usage: sweep.sh --check ORTKIT BUNDLE_DIR..." >&2; exit 2; }
    ortkit=$2
    shift 2
    status=0
    for bundle in "$@"; do
        start=$(date +%s)
        ${LOCK:+flock "$LOCK"} "$ortkit" validate --bundle "$bundle" --no-progress >check.out || status=1
        echo "$(basename "$bundle"): $(grep '^known ' check.out | sed 's/.*known_failures_//')," \
             "$(grep '^result: ' check.out), $(($(date +%s) - start)) s"
    done
    rm -f check.out
    exit $status
fi
[ $# -ge 3 ] || { echo "usage: sweep.sh ORTKIT OUTDIR BUNDLE_DIR..." >&2; exit 2; }
ortkit=$1 out=$2
shift 2
mkdir -p "$out"
for bundle in "$@"; do
    name=$(basename "$bundle")
    start=$(date +%s)
    # Exit status 1 only says that tests failed: that is what is measured.
    ${LOCK:+flock "$LOCK"} "$ortkit" validate --bundle "$bundle" --no-known-failures --json \
        --no-progress >"$out/$name.json" || [ $? -eq 1 ]
    jq -r '.tests[] | select(.status != "pass") | "\(.suite)/\(.name)\t\(.stage)\t\(.message)"' \
        "$out/$name.json" | sort >"$out/$name.fail"
    echo "$name: ONNX Runtime $(jq -r .runtime.version "$out/$name.json"):" \
         "$(wc -l <"$out/$name.fail") of $(jq .totals.tests "$out/$name.json") tests did not pass," \
         "$(($(date +%s) - start)) s"
done
