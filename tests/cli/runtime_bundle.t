# runtime_bundle.t - a runtime named by path that lies in a bundle is verified
# exactly as a chosen bundle is, whichever way it is named (--runtime, the
# directory or the library inside it, ORTKIT_RUNTIME, --bundle NAME|DIR of
# run, bench, info and validate); an unlisted library in its lib/ (RUNPATH
# $ORIGIN) or a changed listed one is never loaded.
set -eu
export XDG_DATA_HOME="$PWD/data" XDG_CACHE_HOME="$PWD/cache" XDG_STATE_HOME="$PWD/state"
export ORTKIT_PATH=
"$ORTKIT" bundle import "$RT_OLD" >/dev/null
B="$XDG_DATA_HOME/ortkit/bundles/ort-1.17.3-cpu"
[ -f "$B/manifest.json" ] || { echo "FAIL: no bundle at $B" >&2; exit 1; }
/usr/bin/python3 "$SRC/tests/validate/make_cases.py" "$MODELS" cases
ADD="$MODELS/add.onnx -i a=$MODELS/add_a.npy -i b=$MODELS/add_b.npy"

# A bundle that verifies loads by any of its names, and the account says it was verified.
expect_exit 0 "$ORTKIT" version --runtime "$B"
expect_in out "ONNX Runtime 1.17.3"
expect_exit 0 env ORTKIT_RUNTIME="$B/lib/libonnxruntime.so" "$ORTKIT" doctor
expect_in out "(in bundle ort-1.17.3-cpu, verified)"
# shellcheck disable=SC2086
expect_exit 0 "$ORTKIT" run $ADD --bundle ort-1.17.3-cpu
expect_in out "runtime   ONNX Runtime 1.17.3"
# shellcheck disable=SC2086
expect_exit 0 "$ORTKIT" run $ADD --bundle 1.17.3
expect_in out "runtime   ONNX Runtime 1.17.3"
expect_exit 0 "$ORTKIT" info "$MODELS/add.onnx" --bundle "$B"
# shellcheck disable=SC2086
expect_exit 0 "$ORTKIT" bench $ADD --bundle ort-1.17.3-cpu -n 3 --warmup 0
expect_exit 0 "$ORTKIT" validate --no-progress cases/good --bundle "$B"

# An unlisted library in the bundle's lib/, named itself or through the bundle.
cp "$B/lib/libonnxruntime.so.1.17.3" "$B/lib/libplanted.so"
expect_exit 1 "$ORTKIT" version --runtime "$B/lib/libplanted.so"
expect_in err "lies in bundle"
expect_in err "which fails verification: lib/libplanted.so: not in the manifest"
expect_in err "not loaded"
for named in "$B" "$B/lib" "$B/lib/libonnxruntime.so"; do
    expect_exit 1 env ORTKIT_RUNTIME="$named" "$ORTKIT" version
    expect_in err "which fails verification"
done
# shellcheck disable=SC2086
expect_exit 1 "$ORTKIT" run $ADD --runtime "$B"
expect_in err "which fails verification"
# shellcheck disable=SC2086
expect_exit 1 "$ORTKIT" run $ADD --bundle "$B"
expect_in err "which fails verification"
expect_exit 1 "$ORTKIT" info "$MODELS/add.onnx" --bundle "$B"
expect_in err "which fails verification"
# shellcheck disable=SC2086
expect_exit 1 "$ORTKIT" bench $ADD --bundle "$B" -n 3
expect_in err "which fails verification"
expect_exit 1 "$ORTKIT" validate --no-progress cases/good --bundle "$B"
expect_in err "which fails verification"
# A bundle chosen by name fails the same way (selection verifies it, then passes it over).
# shellcheck disable=SC2086
expect_exit 1 "$ORTKIT" run $ADD --bundle ort-1.17.3-cpu
expect_in err "ort-1.17.3-cpu"
rm "$B/lib/libplanted.so"

# A listed file changed after the bundle verified (the verified-state cache sees it).
expect_exit 0 "$ORTKIT" version --runtime "$B"
chmod u+w "$B/lib/libonnxruntime_providers_shared.so"
printf x >>"$B/lib/libonnxruntime_providers_shared.so"
expect_exit 1 "$ORTKIT" version --runtime "$B/lib/libonnxruntime.so.1.17.3"
expect_in err "which fails verification"

# Usage: --bundle with --runtime, and a directory that is no bundle.
# shellcheck disable=SC2086
expect_exit 2 "$ORTKIT" run $ADD --bundle ort-1.17.3-cpu --runtime "$RT_OLD"
expect_in err "give one"
expect_exit 1 "$ORTKIT" info "$MODELS/add.onnx" --bundle "$RT_OLD"
expect_in err "is not a bundle"
# A runtime directory that is no bundle loads as before, unverified.
expect_exit 0 "$ORTKIT" version --runtime "$RT_OLD"
expect_in out "ONNX Runtime 1.17.3"

# Every directory on the way to a bundle (links followed, the directories
# holding them included) must be the user's or root's and writable by no
# one else (a sticky one holding the user's entry is fine): whoever can
# replace an entry on the path can swap the bundle between its check and
# its load (a renameat2 exchange did, 7 times in 100).
"$ORTKIT" bundle import "$RT_OLD" --into grp >/dev/null
chmod 0775 grp
expect_exit 1 "$ORTKIT" version --runtime grp/ort-1.17.3-cpu
expect_in err "a directory on the path to the bundle is writable by its group"
chmod 0755 grp
expect_exit 0 "$ORTKIT" version --runtime grp/ort-1.17.3-cpu
mkdir -m 1777 sticky
mv grp sticky/
expect_exit 0 "$ORTKIT" version --runtime sticky/grp/ort-1.17.3-cpu
# A bundle named through a link in a directory anyone can write: what loads
# is the path that was verified, not the link, which may change meanwhile.
mkdir -m 0777 open
ln -s "$PWD/sticky/grp/ort-1.17.3-cpu" open/link
expect_exit 0 env ORTKIT_RUNTIME="$PWD/open/link" "$ORTKIT" version
expect_in out "path       $PWD/sticky/grp/ort-1.17.3-cpu/lib/libonnxruntime.so.1.17.3"
# A directory anyone can write above the bundle itself is refused.
mkdir -m 0777 open/deeper
mv sticky/grp open/deeper/
expect_exit 1 "$ORTKIT" version --runtime open/deeper/grp/ort-1.17.3-cpu
expect_in err "open: a directory on the path to the bundle is writable by anyone"
mv open/deeper/grp sticky/
if [ "$(id -u)" = 0 ]; then
    # Another account's directory above the bundle, even one no one else can write.
    mkdir -m 0755 theirs
    mv sticky/grp theirs/
    chown 65534 theirs
    expect_exit 1 "$ORTKIT" version --runtime theirs/grp/ort-1.17.3-cpu
    expect_in err "theirs: a directory on the path to the bundle belongs to uid 65534"
    expect_exit 1 "$ORTKIT" bundle verify theirs/grp/ort-1.17.3-cpu
    expect_in out "belongs to uid 65534"
fi
