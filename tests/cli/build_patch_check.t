# build_patch_check.t - `ortkit build --patch-check`: whether a patch set
# applies as a build applies it (name order, each on top of the ones before,
# no fuzz), on copies; the tree is never touched.
set -eu

expect_exit 2 "$ORTKIT" build --patch-check --source tree
expect_in err "--patch-check takes --source DIR and --patch DIR"
expect_exit 2 "$ORTKIT" build --patch-check --source tree --patch p --variant cpu-avx2
expect_in err "--patch-check takes --source DIR and --patch DIR, and no variant"

# A tree, and a set whose second patch needs the first's lines.
mkdir -p tree/src p
printf 'one\ntwo\nthree\n' >tree/src/a.txt
cp -a tree pristine
mkdir -p work/src && cp tree/src/a.txt work/src/a.txt && cp -a work orig
sed -i 's/^two$/TWO/' work/src/a.txt
(cd orig && diff -u src/a.txt ../work/src/a.txt | sed '1s|.*|--- a/src/a.txt|; 2s|.*|+++ b/src/a.txt|') >p/0001-two.patch || true
cp work/src/a.txt orig/src/a.txt
sed -i 's/^TWO$/TWO 2/' work/src/a.txt
(cd orig && diff -u src/a.txt ../work/src/a.txt | sed '1s|.*|--- a/src/a.txt|; 2s|.*|+++ b/src/a.txt|') >p/0002-two-again.patch || true
# A new file, made by a patch.
printf -- '--- /dev/null\n+++ b/src/new.txt\n@@ -0,0 +1 @@\n+new\n' >p/0003-new-file.patch

expect_exit 0 "$ORTKIT" build --patch-check --source tree --patch p
expect_same out <<'OUT'
0001-two.patch                                   applies
0002-two-again.patch                             applies
0003-new-file.patch                              applies
the patch set applies
OUT
diff -r pristine tree # untouched
[ ! -e tree/src/new.txt ]

# The tree has the first patch already: it is said, the rest still apply.
patch -s -p1 -d tree <p/0001-two.patch
expect_exit 0 "$ORTKIT" build --patch-check --source tree --patch p --json
python3 -c 'import json,sys; r=json.load(open("out")); assert r["applies"] is True, r; assert [p["verdict"] for p in r["patches"]] == ["already in", "applies", "applies"], r'

# A patch whose context is gone: exit 1, named.
cp -a pristine other && printf 'uno\ndos\n' >other/src/a.txt
expect_exit 1 "$ORTKIT" build --patch-check --source other --patch p
expect_in out "0001-two.patch                                   does not apply"
expect_in out "the patch set does not apply"

# Nothing to check, or no such directory.
mkdir empty
expect_exit 1 "$ORTKIT" build --patch-check --source tree --patch empty
expect_in err "'empty' holds no .patch files"
expect_exit 1 "$ORTKIT" build --patch-check --source tree --patch nowhere
expect_in err "cannot open patch directory 'nowhere'"
