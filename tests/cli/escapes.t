# escapes.t - text from models, host files, manifests, directory names, the
# environment and the runtime reaches people escaped: no byte of it can set
# the window title, clear the screen, break a line or a table.  JSON output
# keeps the text as it is (cJSON escapes it for JSON).
set -eu
export XDG_DATA_HOME="$PWD/xdg" XDG_DATA_DIRS="$PWD/sys" ORTKIT_PATH="$PWD/path"
unset ORTKIT_BUNDLE

ESC=$(printf '\033')
TITLE="$(printf '\033]0;pwned\007')"
SHOWN='\x1b]0;pwned\x07'

# clean FILE [tabs]: fail when FILE holds what a terminal acts on: a control
# character other than the newline ending a line (a tab only with "tabs"),
# DEL, a C1 control in UTF-8, or bytes that are not UTF-8.
clean() {
    if ! /usr/bin/python3 - "$@" <<'EOF'; then
import sys
text = open(sys.argv[1], "rb").read().decode("utf-8")  # fails on bytes that are not UTF-8
tabs = len(sys.argv) > 2
bad = [(i, hex(ord(c))) for i, c in enumerate(text)
       if c != "\n" and not (c == "\t" and tabs)
       and (ord(c) < 0x20 or ord(c) == 0x7f or 0x80 <= ord(c) <= 0x9f)]
sys.exit(f"{sys.argv[1]}: raw control characters at {bad[:5]}" if bad else 0)
EOF
        echo "FAIL: '$1' holds raw control characters" >&2
        cat -A "$1" >&2
        exit 1
    fi
}

# --- a model whose names, dimension and metadata are full of them ---
M="$MODELS/escapes.onnx"
expect_exit 0 "$ORTKIT" info "$M"
clean out
clean err
expect_in out "  in${SHOWN}put  float32[N${SHOWN},2]"
expect_in out 'out\nput\r\x1b[2J'
expect_in out 'description          line one\nline two\x1b]0;pwned\x07\u009b2J'
expect_in out 'key\x1b]0;pwned\x07  value\n\x1b[2J\r\t\x7f'
expect_in out 'producer             ortkit-tests\x1b[2J'
# Every row is one line: the metadata table has as many as it has keys.
[ "$(sed -n '/^metadata/,$p' out | wc -l)" -eq 9 ] || { cat out >&2; exit 1; }
# JSON carries the text itself.
expect_exit 0 "$ORTKIT" info "$M" --json
/usr/bin/python3 -c 'import json
doc = json.load(open("out"))
assert doc["inputs"][0]["name"] == "in\x1b]0;pwned\x07put", doc["inputs"]
assert doc["metadata"]["custom"] == {"key\x1b]0;pwned\x07": "value\n\x1b[2J\r\t\x7f"}, doc["metadata"]'

# run and bench: the output table, the input line, and a failure naming the dimension.
expect_exit 1 "$ORTKIT" run "$M" --random
clean err
expect_lines err 1
expect_in err "symbolic dimensions without a size: N${SHOWN} (set each with --dim SYMBOL=SIZE)"
expect_exit 0 "$ORTKIT" run "$M" --random --dim "N${TITLE}=2"
clean out
expect_in out 'out\nput\r\x1b[2J  float32  [2,2]'
expect_exit 0 "$ORTKIT" bench "$M" --dim "N${TITLE}=2" -n 3 --warmup 1
clean out
clean err
expect_in out "inputs     in${SHOWN}put float32[2,2] (random)"

# --- a described host ---
/usr/bin/python3 - <<'EOF'
import json
bad = "\x1b]0;pwned\x07\n\r\x1b[2J\u009b"
h = {"schema": 1, "arch": "x86_64",
     "cpu": {"vendor": "Vendor" + bad, "model": "Model" + bad, "logical_cpus": 4, "physical_cores": 2,
             "features": ["avx2"]},
     "memory": {"total": 8 << 30, "available": 4 << 30},
     "os": {"name": "Linux" + bad, "release": "6" + bad, "distro": "Distro" + bad, "glibc": "2\x1b[2J"},
     "nvidia": {"driver": "575.51.03", "cuda": "12.9", "note": "note" + bad,
                "gpus": [{"name": "GPU" + bad, "compute_capability": "9.0", "memory": 1 << 30}]}}
json.dump(h, open("hostile.json", "w"))
EOF
expect_exit 0 "$ORTKIT" host --load hostile.json
clean out
expect_in out "cpu         Model${SHOWN}"'\n\r\x1b[2J\u009b (Vendor'
expect_in out 'gpu 0       GPU\x1b]0;pwned\x07'
# doctor judges bundles for it: one of its own, whatever the build holds.
mkdir -p path
"$ORTKIT" bundle import "$RT_NEW" --name host-ok --into "$PWD/path" >/dev/null
for cmd in "doctor --host hostile.json" "variants --host hostile.json"; do
    # shellcheck disable=SC2086
    expect_exit 0 "$ORTKIT" $cmd
    clean out
    clean err
done
expect_in out "variants fit the described host"
rm -rf path/host-ok

# --- bundles: a directory named with an escape, a variant with a C1 control
# (refused like any control character, and the refusal printed escaped), a
# search directory that is missing ---
mkdir -p path "path/b${TITLE}x"
echo '{' >"path/b${TITLE}x/manifest.json"
expect_exit 0 "$ORTKIT" bundle import "$RT_NEW" --name c1 --into "$PWD/path"
/usr/bin/python3 - <<'EOF'
import json
m = json.load(open("path/c1/manifest.json"))
m["variant"] = "cpu\u009b2J"
json.dump(m, open("path/c1/manifest.json", "w"))
EOF
expect_exit 0 env ORTKIT_PATH="$PWD/path:$PWD/gone${TITLE}" "$ORTKIT" bundle list
clean out
clean err
expect_in out "b${SHOWN}x"
expect_in out "'variant' holds a control character"
expect_in err "warning: ORTKIT_PATH directory '$PWD/gone${SHOWN}' does not exist"
expect_exit 0 "$ORTKIT" doctor
clean out
clean err
expect_in out "b${SHOWN}x"
rm -rf "path/b${TITLE}x" path/c1

# --- validate: a test directory named with an escape ---
mkdir -p "suite/test_a${TITLE}b/test_data_set_0"
cp "$MODELS/add.onnx" "suite/test_a${TITLE}b/model.onnx"
expect_exit 0 "$ORTKIT" validate suite --list
clean out tabs
expect_in out "suite/test_a${SHOWN}b	Add	opset 17"
expect_exit 1 "$ORTKIT" validate suite --no-progress
clean out
expect_in out "suite/test_a${SHOWN}b: data: "
printf 'test_a*  known\033[2J\n' >known.txt
expect_exit 0 "$ORTKIT" validate suite --no-progress --known-failures known.txt
clean out
expect_in out 'known\x1b[2J'

# --- error messages quote what they were given ---
expect_exit 1 "$ORTKIT" info "no${TITLE}such.onnx"
clean err
expect_in err "ortkit: cannot open 'no${SHOWN}such.onnx': No such file or directory"
expect_exit 2 "$ORTKIT" "cmd${TITLE}"
clean err
expect_in err "ortkit: unknown command 'cmd${SHOWN}'"
expect_exit 2 "$ORTKIT" info "--opt${TITLE}"
clean err
expect_in err "${SHOWN}"
expect_exit 1 env ORTKIT_RUNTIME="$PWD/rt${TITLE}" "$ORTKIT" version
clean out
clean err
expect_in err "rt${SHOWN}"
# Bytes that are not UTF-8 show as \xNN.
expect_exit 1 "$ORTKIT" info "$(printf 'bad\377\300\257.onnx')"
clean err
expect_in err 'bad\xff\xc0\xaf.onnx'
# Nothing raw reached the terminal title anywhere above.
! grep -q "$ESC" out err
