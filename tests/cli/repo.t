# repo.t - signed bundle repositories from a directory: keygen, publish,
# minisign interoperability both ways, install, and every refusal: tampered
# index and archive, expiry, rollback, a serial that does not grow, bundles
# that do not fit.  (repo_https.t serves the same over TLS with nginx.)
set -eu
. "$SRC/tests/cli/repo_lib.sh"
make_repo
cp -r repo repo-serial1
printf 'untrusted comment: x\nnot base64!\n' >bad.pub
A=$(basename repo/archives/*.tar.zst)

# ortkit's signature verifies with minisign, and minisign's with ortkit.
if command -v minisign >/dev/null 2>&1; then
    expect_exit 0 minisign -Vm repo/index.json -p ortkit.pub
    expect_in out "Trusted comment: ortkit repository serial 1"
    expect_exit 0 minisign -G -W -p mini.pub -s mini.key
    cp -r repo repo-mini
    expect_exit 0 minisign -S -s mini.key -m repo-mini/index.json -t "signed by minisign"
    expect_exit 0 "$ORTKIT" bundle install repo-mini --pubkey mini.pub --list --json
    expect_in out '"trusted_comment":	"signed by minisign"'
    expect_exit 1 "$ORTKIT" bundle install repo-mini --pubkey ortkit.pub --list
    expect_in err "is signed with key"
    # A key pair minisign made signs ortkit's publications.
    expect_exit 0 "$ORTKIT" bundle publish bundles/ort-1.17.3-cpu --repo repo-mini --key mini.key
    expect_exit 0 minisign -Vm repo-mini/index.json -p mini.pub
    # And minisign signs with a key pair ortkit made.
    expect_exit 0 minisign -S -s ortkit.key -m bad.pub -x ortkit-made.minisig -t "x" </dev/null
    expect_exit 0 minisign -Vm bad.pub -x ortkit-made.minisig -p ortkit.pub
else
    echo "minisign is not installed: the interoperability checks were skipped" >&2
fi

# The public key as text works as well as its file.
KEY=$(sed -n 2p ortkit.pub)
expect_exit 0 "$ORTKIT" bundle install repo --pubkey "$KEY" --list
expect_in out "*  ort-1.17.3-cpu  1.17.3"
expect_in out "fits"

# A normal install, then the same again (nothing to do).
expect_exit 0 "$ORTKIT" bundle install repo --pubkey ortkit.pub --into inst
expect_in out "installed  ort-1.17.3-cpu"
expect_in err "ortkit: installing ort-1.17.3-cpu ("
expect_exit 0 "$ORTKIT" bundle verify inst/ort-1.17.3-cpu
expect_exit 0 "$ORTKIT" bundle install repo --pubkey ortkit.pub --into inst --json
expect_in out '"outcome":	"unchanged"'
# Unchanged: nothing is installed, and nothing says it is.
expect_exit 0 "$ORTKIT" bundle install repo --pubkey ortkit.pub --into inst
expect_in out "unchanged  ort-1.17.3-cpu"
expect_not_in err "installing"
# A damaged bundle of that name is replaced by one that verifies.
chmod u+w inst/ort-1.17.3-cpu/lib/libonnxruntime_providers_shared.so
printf x >>inst/ort-1.17.3-cpu/lib/libonnxruntime_providers_shared.so
expect_exit 0 "$ORTKIT" bundle install repo --pubkey ortkit.pub --into inst
expect_in out "replaced   ort-1.17.3-cpu"
expect_exit 0 "$ORTKIT" bundle verify inst/ort-1.17.3-cpu
[ "$(ls -A inst)" = ".ortkit-install.lock
ort-1.17.3-cpu" ] || { echo "FAIL: inst holds: $(ls -A inst)" >&2; exit 1; }
# A healthy bundle of that name that is another (the user's own, verifying,
# imported as another variant) is not replaced without --force.
"$ORTKIT" bundle import "$RT_OLD" --variant cpu-avx2 --name ort-1.17.3-cpu --into own >/dev/null
OWN=own/ort-1.17.3-cpu
expect_exit 0 "$ORTKIT" bundle verify "$OWN"
expect_exit 1 "$ORTKIT" bundle install repo --pubkey ortkit.pub --into own
expect_in err "holds another bundle named 'ort-1.17.3-cpu' that verifies: not replaced"
expect_in err "--force"
grep -q cpu-avx2 "$OWN/manifest.json" || { echo "FAIL: the user's bundle was replaced" >&2; exit 1; }
expect_exit 0 "$ORTKIT" bundle install repo --pubkey ortkit.pub --into own --force
expect_in out "replaced   ort-1.17.3-cpu"
! grep -q cpu-avx2 "$OWN/manifest.json" || { echo "FAIL: --force did not replace it" >&2; exit 1; }
expect_exit 0 "$ORTKIT" bundle verify "$OWN"

# What killed installs left is removed by the next install into that
# directory: unpack directories of dead processes (and of old, PID-less
# names), parts of archives the index no longer lists; a live process's
# directory and the part of a listed archive (resumed) stay.
DEAD=$(sh -c 'echo $$')
mkdir -p stale/".ortkit-unpack-ort-1.17.3-cpu-$DEAD-Ab12Cd" stale/.ortkit-unpack-ort-1.17.3-cpu-Xy34Zw \
    stale/".ortkit-unpack-ort-1.17.3-cpu-$$-Live01"
head -c 1000000 /dev/zero >stale/".ortkit-unpack-ort-1.17.3-cpu-$DEAD-Ab12Cd/lib.so"
head -c 1000 /dev/zero >stale/.ortkit-download-"$(printf '%064d' 7)".part
head -c 1000 "repo/archives/$A" >stale/.ortkit-download-"${A%.tar.zst}".part
expect_exit 0 "$ORTKIT" bundle install repo --pubkey ortkit.pub --into stale --json
expect_in out '"resumed_from":	1000'
[ "$(ls -A stale)" = ".ortkit-install.lock
.ortkit-unpack-ort-1.17.3-cpu-$$-Live01
ort-1.17.3-cpu" ] || { echo "FAIL: stale holds: $(ls -A stale)" >&2; exit 1; }

# A directory of that name that is no bundle is not removed either.
mkdir -p notb/ort-1.17.3-cpu && echo mine >notb/ort-1.17.3-cpu/notes.txt
expect_exit 1 "$ORTKIT" bundle install repo --pubkey ortkit.pub --into notb --force
expect_in err "is in the way: it is not a bundle"
[ -f notb/ort-1.17.3-cpu/notes.txt ] || { echo "FAIL: a directory that is no bundle went" >&2; exit 1; }

# A tampered index fails its signature; nothing is installed.
cp -r repo repo-index
sed -i 's/"serial":	1/"serial":	9/' repo-index/index.json
expect_exit 1 "$ORTKIT" bundle install repo-index --pubkey ortkit.pub --into t1
expect_in err "the signature does not verify"
[ ! -e t1/ort-1.17.3-cpu ]

# A tampered archive fails its hash while it streams; nothing is installed or kept.
cp -r repo repo-archive
chmod u+w "repo-archive/archives/$A"
/usr/bin/python3 -c 'import sys
f = open(sys.argv[1], "r+b"); f.seek(1000); b = f.read(1); f.seek(1000); f.write(bytes([b[0] ^ 1]))' \
    "repo-archive/archives/$A"
expect_exit 1 "$ORTKIT" bundle install repo-archive --pubkey ortkit.pub --into t2
expect_in err "the archive was changed or damaged; refused"
[ "$(ls -A t2)" = ".ortkit-install.lock" ] || { echo "FAIL: t2 holds: $(ls -A t2)" >&2; exit 1; }

# An expired index is refused.
expect_exit 0 "$ORTKIT" bundle publish bundles/ort-1.17.3-cpu --repo repo-old --key ortkit.key \
    --expires 2001-01-01T00:00:00Z
expect_in err "expires at once"
expect_exit 1 "$ORTKIT" bundle install repo-old --pubkey ortkit.pub --list
expect_in err "expired at 2001-01-01T00:00:00Z"

# Rollback: once serial 2 was seen, serial 1 is refused, as is serial 2 with other contents.
expect_exit 0 "$ORTKIT" bundle publish bundles/ort-1.17.3-cpu --repo repo --key ortkit.key
expect_exit 0 "$ORTKIT" bundle install repo --pubkey ortkit.pub --list --json
expect_in out '"serial":	2'
expect_exit 1 "$ORTKIT" bundle install repo-serial1 --pubkey ortkit.pub --list
expect_in err "a rollback to an old index is refused"
expect_exit 0 "$ORTKIT" bundle publish bundles/ort-1.17.3-cpu --repo repo-serial1 --key ortkit.key \
    --expires 100d
expect_exit 1 "$ORTKIT" bundle install repo-serial1 --pubkey ortkit.pub --list
expect_in err "as one seen before"
[ -d "$XDG_STATE_HOME/ortkit/repos" ] && [ "$(stat -c %a "$XDG_STATE_HOME/ortkit/repos")" = 700 ]

# Publish carries nothing it did not verify (the repository's directory may be
# writable by others): an index that its key did not sign, another key's index,
# a missing signature, or a carried archive that is not the one signed are
# refused, naming what failed, and nothing is signed or written.
"$ORTKIT" bundle import "$RT_OLD" --variant cpu-avx2 --into bundles-new >/dev/null
NEWB=$(ls bundles-new)
cp -r repo repo-swap
sed -i "s/\"sha256\":	\"[0-9a-f]*\"/\"sha256\":	\"$(printf '%064d' 0)\"/" repo-swap/index.json
cp repo-swap/index.json swap.before
expect_exit 1 "$ORTKIT" bundle publish "bundles-new/$NEWB" --repo repo-swap --key ortkit.key
expect_in err "cannot be trusted to publish into"
expect_in err "the signature does not verify"
cmp -s repo-swap/index.json swap.before || { echo "FAIL: publish rewrote a tampered index" >&2; exit 1; }
"$ORTKIT" bundle keygen --key other.key --pubkey other.pub >/dev/null
cp -r repo repo-other
expect_exit 1 "$ORTKIT" bundle publish "bundles-new/$NEWB" --repo repo-other --key other.key
expect_in err "is signed with key"
cp -r repo repo-nosig
rm repo-nosig/index.json.minisig
expect_exit 1 "$ORTKIT" bundle publish "bundles-new/$NEWB" --repo repo-nosig --key ortkit.key
expect_in err "index.json.minisig"
expect_in err "cannot be trusted to publish into"
# An archive swapped under a signed index is not carried into the next one.
cp -r repo repo-arch
chmod u+w repo-arch/archives/*.tar.zst
for f in repo-arch/archives/*.tar.zst; do printf x >>"$f"; done
cp repo-arch/index.json arch.before
expect_exit 1 "$ORTKIT" bundle publish "bundles-new/$NEWB" --repo repo-arch --key ortkit.key
expect_in err "is not the archive the signed index lists"
expect_in err "bundle ort-1.17.3-cpu"
cmp -s repo-arch/index.json arch.before || { echo "FAIL: publish rewrote the index" >&2; exit 1; }
# Replacing that entry with a bundle that verifies needs no old archive.
expect_exit 0 "$ORTKIT" bundle publish bundles/ort-1.17.3-cpu --repo repo-arch --key ortkit.key
# And a repository whose index and archives are what its key signed takes new bundles.
expect_exit 0 "$ORTKIT" bundle publish "bundles-new/$NEWB" --repo repo-arch --key ortkit.key

# A serial only grows.
expect_exit 1 "$ORTKIT" bundle publish bundles/ort-1.17.3-cpu --repo repo --key ortkit.key --serial 2
expect_in err "a serial only grows"

# Bundles that do not fit: another architecture, a CPU level the host lacks.
expect_exit 0 "$ORTKIT" bundle install repo --pubkey ortkit.pub --list --host "$SRC/tests/hosts/graviton3.json"
expect_in out "does not fit"
expect_in out "none fits:"
expect_exit 1 "$ORTKIT" bundle install repo --pubkey ortkit.pub --host "$SRC/tests/hosts/graviton3.json" --into t3
expect_in err "fits the described host"
[ ! -e t3 ]
"$ORTKIT" bundle import "$RT_OLD" --variant cpu-avx512 --into bundles512 >/dev/null
expect_exit 0 "$ORTKIT" bundle publish bundles512/ort-1.17.3-cpu-avx512 --repo repo512 --key ortkit.key
# (Another repository under the same key would be a rollback: a key is one repository.)
expect_exit 1 env XDG_STATE_HOME="$PWD/state512" "$ORTKIT" bundle install repo512 --pubkey ortkit.pub --host "$SRC/tests/hosts/laptop-avx2.json" --into t4
expect_in err "nothing in 'repo512' fits"
expect_in err "AVX-512"

# Usage and bad keys.
expect_exit 2 "$ORTKIT" bundle install repo
expect_in err "needs --pubkey"
expect_exit 2 "$ORTKIT" bundle publish bundles/ort-1.17.3-cpu --key ortkit.key
expect_in err "needs --repo"
expect_exit 1 "$ORTKIT" bundle install repo --pubkey bad.pub --list
expect_in err "not a minisign public key"
expect_exit 1 "$ORTKIT" bundle keygen
expect_in err "exists"
