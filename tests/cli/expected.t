# expected.t - the stable outputs, compared byte for byte with the files in
# tests/cli/expected/: every command's --help, `ortkit host --load` of
# described hosts (text and JSON) and `ortkit variants` (the table, the Flox
# names, the fits on a described host, JSON).  Nothing here depends on this
# machine; where a build's own paths show (validate --help), they read
# @SUITE@ (ORTKIT_VALIDATE_SUITE), and @SRC@ would be the source tree.
#
# After a deliberate change to one of these outputs, regenerate them all with
#     tests/cli/regen_expected.sh BUILD_DIR
# and review the difference with git.
set -eu
EXPECTED="$SRC/tests/cli/expected"
H="$SRC/tests/hosts"

# same FILE CMD...: CMD exits 0, prints nothing on stderr, and prints FILE
# exactly on stdout.  With ORTKIT_REGEN_EXPECTED=1, FILE is written instead.
same() {
    file=$1
    shift
    expect_exit 0 "$@"
    expect_lines err 0
    sed -e "s|$SRC|@SRC@|g" -e "s|$VALIDATE_SUITE|@SUITE@|g" out >normalised
    if [ "${ORTKIT_REGEN_EXPECTED:-}" = 1 ]; then
        mkdir -p "$(dirname "$EXPECTED/$file")"
        cp normalised "$EXPECTED/$file"
    else
        expect_same "$EXPECTED/$file" <normalised
    fi
}

same help/ortkit.txt "$ORTKIT" --help
for cmd in run info compare version host variants bundle wheel doctor validate bench build; do
    same "help/$cmd.txt" "$ORTKIT" "$cmd" --help
done
# A subcommand's own --help (its usage lines, its row and its options).
for sub in import fetch verify list show complete keygen publish install choose probe; do
    same "help/bundle-$sub.txt" "$ORTKIT" bundle "$sub" --help
done
for sub in pack show publish choose; do
    same "help/wheel-$sub.txt" "$ORTKIT" wheel "$sub" --help
done

for h in h100-server jetson-orin graviton3 t4; do
    same "host/$h.txt" "$ORTKIT" host --load "$H/$h.json"
    same "host/$h.json" "$ORTKIT" host --load "$H/$h.json" --json
done

same variants/all.txt "$ORTKIT" variants
same variants/all.json "$ORTKIT" variants --json
same variants/flox.txt "$ORTKIT" variants --flox
same variants/fits-t4.txt "$ORTKIT" variants --host "$H/t4.json" --all
same variants/fits-only-t4.txt "$ORTKIT" variants --host "$H/t4.json"
same variants/fits-h100-server.json "$ORTKIT" variants --host "$H/h100-server.json" --json
