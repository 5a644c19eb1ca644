# repo_diskfull.t - the disk fills while a bundle unpacks (a small tmpfs):
# the install fails naming the cause, and leaves neither a half bundle nor
# its temporary files.  Mounting needs root; elsewhere this is skipped.
set -eu
. "$SRC/tests/cli/repo_lib.sh"
mkdir full
if [ "$(id -u)" != 0 ] || ! mount -t tmpfs -o size=10m ortkit-test full 2>/dev/null; then
    echo "skipped: cannot mount a small tmpfs (needs root)" >&2
    exit 77
fi
trap 'umount full 2>/dev/null || true; rm -rf "$work"' EXIT
make_repo
# The 6.5 MiB archive fits; the 19 MiB it unpacks to does not.
expect_exit 1 "$ORTKIT" bundle install repo --pubkey ortkit.pub --into full
expect_in err "No space left on device"
[ "$(ls -A full)" = ".ortkit-install.lock" ] || { echo "FAIL: full holds: $(ls -A full)" >&2; exit 1; }
