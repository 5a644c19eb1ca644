# bundle.t - `ortkit bundle import|verify|list`: real runtimes made into
# bundles, checked, tampered with, listed; imports that fail or are killed
# leave nothing behind; a CUDA build takes its CUDA libraries along.
set -eu
# Scratch data directories: nothing here touches the user's or the system's.
export XDG_DATA_HOME="$PWD/xdg" XDG_DATA_DIRS="$PWD/sys" ORTKIT_PATH="$PWD/path"
unset ORTKIT_BUNDLE

# --- help and usage ---
expect_exit 0 "$ORTKIT" bundle --help
expect_in out "usage: ortkit bundle import SRC [--name NAME] [--variant V] [--into DIR] [--force]"
expect_in out "ortkit bundle choose [--host FILE] [--json] [DIR...]"
expect_exit 0 "$ORTKIT" bundle import --help
expect_in out "usage: ortkit bundle import"
expect_exit 2 "$ORTKIT" bundle
expect_exit 2 "$ORTKIT" bundle frobnicate
expect_in err "unknown subcommand 'frobnicate'"
expect_exit 2 "$ORTKIT" bundle import
expect_exit 2 "$ORTKIT" bundle import a b
expect_in err "unexpected argument 'b'"
expect_exit 2 "$ORTKIT" bundle import --bogus "$RT_OLD"
expect_exit 2 "$ORTKIT" bundle verify
expect_exit 2 "$ORTKIT" bundle list extra

# --- import: a library file, into the user's directory by default ---
expect_exit 0 "$ORTKIT" bundle import "$RT_OLD/libonnxruntime.so.1.17.3"
expect_lines err 0
expect_in out "imported   ort-1.17.3-cpu"
expect_in out "into       $PWD/xdg/ortkit/bundles/ort-1.17.3-cpu"
expect_in out "runtime    ONNX Runtime 1.17.3 (C API 17), variant cpu, x86_64"
expect_in out "CPUExecutionProvider"
# A directory, named, into a directory of ORTKIT_PATH.
expect_exit 0 "$ORTKIT" bundle import "$RT_NEW" --name new --into "$PWD/path" --json
/usr/bin/python3 - "$PWD" <<'EOF'
import json, os, sys
b = json.load(open("out"))
assert b["name"] == "new" and b["dir"] == sys.argv[1] + "/path/new", b
assert b["ort_version"] == "1.30.0" and b["api_level"] == 30 and b["variant"] == "cpu", b
m = json.load(open(b["dir"] + "/manifest.json"))
assert m["schema"] == 1 and m["library"] == "lib/libonnxruntime.so.1.30.0", m
assert m["requires"] == {"arch": "x86_64", "cpu_features": [], "cuda": None,
                         "compute_capability": None, "exact_sm_only": False,
                         "jetson": False, "min_driver": None}, m["requires"]
paths = {f["path"]: f for f in m["files"]}
for p in ("lib/libonnxruntime.so.1.30.0", "lib/pkgconfig/libonnxruntime.pc",
          "lib/cmake/onnxruntime/onnxruntimeConfig.cmake", "include/onnxruntime_c_api.h"):
    assert len(paths[p]["sha256"]) == 64 and paths[p]["size"] > 0, p
assert paths["lib/libonnxruntime.so"]["link"] == "libonnxruntime.so.1", paths
assert paths["lib/libonnxruntime.so.1"]["link"] == "libonnxruntime.so.1.30.0", paths
assert os.path.getsize(b["dir"] + "/lib/libonnxruntime.so.1.30.0") == paths["lib/libonnxruntime.so.1.30.0"]["size"]
EOF
# Never over an existing bundle without --force; with it, replaced.
expect_exit 1 "$ORTKIT" bundle import "$RT_NEW" --name new --into "$PWD/path"
expect_lines err 1
expect_in err "ortkit: bundle 'new' already exists in '$PWD/path'; use --force to replace it"
expect_exit 0 "$ORTKIT" bundle import "$RT_NEW" --name new --into "$PWD/path" --force
[ "$(ls -A path)" = new ] || { echo "FAIL: path holds $(ls -A path)" >&2; exit 1; }

# --- failed imports leave nothing: no bundle, no temporary directory ---
expect_exit 1 "$ORTKIT" bundle import "$STUBS/libstub_too_old.so" --version 1.16.3 --name bad --into "$PWD/path"
expect_lines err 1
expect_in err "1.16.3"
echo "not a library" >fake.so
expect_exit 1 "$ORTKIT" bundle import fake.so --name bad --into "$PWD/path"
expect_in err "not an ELF file"
expect_exit 1 "$ORTKIT" bundle import "$RT_OLD" --name "../bad" --into "$PWD/path"
expect_in err "not a bundle name"
expect_exit 1 "$ORTKIT" bundle import "$RT_OLD" --variant cuda12.9-sm90-avx512 --into "$PWD/path"
expect_in err "no libonnxruntime_providers_cuda.so"
[ "$(ls -A path)" = new ] || { echo "FAIL: a failed import left $(ls -A path)" >&2; exit 1; }
# Killed midway: the bundle is there whole or not at all, and the next import
# of that name removes what the dead one left.
"$ORTKIT" bundle import "$RT_NEW" --name killed --into "$PWD/k" >/dev/null 2>&1 &
pid=$!
sleep 0.05
kill -9 "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
if [ -e k/killed ]; then expect_exit 0 "$ORTKIT" bundle verify "$PWD/k/killed"; fi
expect_exit 0 env ORTKIT_PATH="$PWD/k" "$ORTKIT" bundle list --json
/usr/bin/python3 -c 'import json, os
names = [b["name"] for b in json.load(open("out"))["bundles"] if b["source"] == "ORTKIT_PATH"]
assert names == (["killed"] if os.path.exists("k/killed") else []), names'
expect_exit 0 "$ORTKIT" bundle import "$RT_OLD" --name killed --into "$PWD/k" --force
[ "$(ls -A k)" = killed ] || { echo "FAIL: k holds $(ls -A k)" >&2; exit 1; }

# --- list ---
expect_exit 0 "$ORTKIT" bundle list
expect_lines err 0
expect_in out "NAME            ORT     VARIANT  ARCH    FROM         DIR"
expect_in out "new             1.30.0  cpu      x86_64  ORTKIT_PATH  $PWD/path/new"
expect_in out "ort-1.17.3-cpu  1.17.3  cpu      x86_64  user         $PWD/xdg/ortkit/bundles/ort-1.17.3-cpu"
expect_exit 0 "$ORTKIT" bundle list --json
/usr/bin/python3 - "$PWD" <<'EOF'
import json, sys
doc = json.load(open("out"))
dirs = [(d["source"], d["path"], d["state"]) for d in doc["dirs"]]
assert dirs[:3] == [("ORTKIT_PATH", sys.argv[1] + "/path", "ok"),
                    ("user", sys.argv[1] + "/xdg/ortkit/bundles", "ok"),
                    ("system", sys.argv[1] + "/sys/ortkit/bundles", "missing")], dirs
mine = [b for b in doc["bundles"] if b["dir"].startswith(sys.argv[1])]
assert [(b["name"], b["source"], b["usable"]) for b in mine] == [
    ("new", "ORTKIT_PATH", True), ("ort-1.17.3-cpu", "user", True)], mine
EOF
# A regular file and a missing directory on ORTKIT_PATH: warnings, not failures.
echo "a file" >afile
expect_exit 0 env ORTKIT_PATH="$PWD/afile:$PWD/nosuch:$PWD/path" "$ORTKIT" bundle list
expect_in err "ortkit: warning: ORTKIT_PATH directory '$PWD/afile' cannot be read: not a directory"
expect_in err "ortkit: warning: ORTKIT_PATH directory '$PWD/nosuch' does not exist"
expect_in out "$PWD/path/new"
# chmod 000 only blocks reading for a user other than root (tests often run as root).
if [ "$(id -u)" != 0 ]; then
    mkdir locked && chmod 000 locked
    expect_exit 0 env ORTKIT_PATH="$PWD/locked:$PWD/path" "$ORTKIT" bundle list
    expect_in err "'$PWD/locked' cannot be read: Permission denied"
    chmod 755 locked
fi

# --- verify, by name and by directory ---
expect_exit 0 "$ORTKIT" bundle verify new
expect_lines err 0
expect_in out "bundle     new"
expect_in out "result     ok"
expect_exit 0 "$ORTKIT" bundle verify "$PWD/xdg/ortkit/bundles/ort-1.17.3-cpu" --json
/usr/bin/python3 -c 'import json
d = json.load(open("out")); assert d["ok"] is True and d["problems"] == [] and d["name"] == "ort-1.17.3-cpu", d'
expect_exit 1 "$ORTKIT" bundle verify nosuch
expect_in err "no bundle 'nosuch'"
# Tampered: every problem is listed, each naming its file; nothing is loaded.
cp -a path/new tampered
printf X | dd of=tampered/include/onnxruntime_c_api.h bs=1 seek=10 conv=notrunc 2>/dev/null
truncate -s 100 tampered/lib/libonnxruntime.so.1.30.0
echo x >tampered/lib/extra.so
rm tampered/include/provider_options.h
expect_exit 1 "$ORTKIT" bundle verify "$PWD/tampered"
expect_lines err 1
expect_in err "ortkit: bundle 'tampered' failed verification: 4 problems"
expect_in out "result     4 problems"
expect_in out "  include/onnxruntime_c_api.h: SHA-256 "
expect_in out "differs from the manifest's"
expect_in out "  include/provider_options.h: missing"
expect_in out "  lib/extra.so: not in the manifest (an extra file)"
expect_in out "  lib/libonnxruntime.so.1.30.0: 100 bytes, the manifest says 45828512 (truncated)"
# A hostile manifest: a path out of the bundle is refused; list says it is unusable.
cp -a path/new path/evil
sed -i 's|"include/onnxruntime_c_api.h"|"../../../etc/passwd"|' path/evil/manifest.json
expect_exit 1 "$ORTKIT" bundle verify "$PWD/path/evil"
expect_lines err 1
expect_in err "'../../../etc/passwd' leaves the bundle"
expect_exit 0 "$ORTKIT" bundle list
expect_in out "unusable: '$PWD/path/evil/manifest.json': files["
rm -rf path/evil

# --- a CUDA provider beside the library: a GPU release, judged by its binaries ---
# (gpu_bundle.t imports the real releases.)  A provider that states no ONNX
# Runtime version cannot be vouched for as the core's release: refused by
# name, with or without a variant, and nothing is left.
echo 'int cuda_stub(void) { return 0; }' >stub.c
mkdir -p rel/lib
cp -a "$RT_OLD"/* rel/lib/
cc -shared -fPIC -o rel/lib/libonnxruntime_providers_cuda.so stub.c
for v in "" "--variant cuda12.4-sm75-avx2" "--variant cuda12"; do
    # shellcheck disable=SC2086
    expect_exit 1 "$ORTKIT" bundle import rel $v --into "$PWD/gpu"
    expect_in err "'libonnxruntime_providers_cuda.so' is ONNX Runtime of no version it states, the core is 1.17.3"
done
expect_exit 1 "$ORTKIT" bundle import rel --variant cpu-avx2 --into "$PWD/gpu"
expect_in err "it is a CUDA build (libonnxruntime_providers_cuda.so beside the library), and variant cpu-avx2 is for the CPU only"
expect_exit 1 "$ORTKIT" bundle import "$RT_OLD" --variant cuda12 --into "$PWD/gpu"
expect_in err "as cuda12: there is no libonnxruntime_providers_cuda.so beside the library"
[ ! -e gpu ] || [ -z "$(ls -A gpu)" ] || { echo "FAIL: gpu holds $(ls -A gpu)" >&2; exit 1; }
