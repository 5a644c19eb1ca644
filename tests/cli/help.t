# Help: `ortkit --help` and every command's --help print usage on stdout and
# exit 0; `ortkit` alone and an unknown command are usage errors (exit 2).

# --- the command list ---
expect_exit 2 "$ORTKIT"
expect_lines out 0
expect_in err "usage: ortkit <command> [options]"
for args in --help -h help; do
    # shellcheck disable=SC2086
    expect_exit 0 "$ORTKIT" $args
    expect_lines err 0
    expect_in out "usage: ortkit <command> [options]"
    expect_in out "  run        run a model"
    expect_in out "  info       show a model's inputs"
    expect_in out "  version    show ortkit's version"
    expect_in out "'ortkit <command> --help'"
done

# --- each command's own help, long and short ---
for cmd in run info version; do
    for flag in --help -h; do
        expect_exit 0 "$ORTKIT" $cmd $flag
        expect_lines err 0
        expect_in out "usage: ortkit $cmd"
        expect_in out "--json"
        expect_in out "--runtime PATH"
    done
done

# run documents every option it takes.
expect_exit 0 "$ORTKIT" run --help
for opt in "-i, --input NAME=FILE" --random --zeros "--dim SYMBOL=VALUE" "-o, --output DIR" \
           "--threads N" "--ep LIST" --strict "--repeat N" "--seed N"; do
    expect_in out "$opt"
done
# --help wins over the rest of the line, even a missing model.
expect_exit 0 "$ORTKIT" run --random --help
expect_in out "usage: ortkit run"
expect_exit 0 "$ORTKIT" info --help "$MODELS/add.onnx"
expect_in out "usage: ortkit info"
expect_lines err 0

# --- unknown commands ---
expect_exit 2 "$ORTKIT" nosuch
expect_lines out 0
expect_in err "ortkit: unknown command 'nosuch'"
expect_in err "usage: ortkit <command>"
expect_exit 2 "$ORTKIT" --nosuch
expect_in err "unknown command '--nosuch'"
expect_exit 2 "$ORTKIT" RUN "$MODELS/add.onnx"
expect_in err "unknown command 'RUN'"

# --- options: every command reads them the same way ---
H="$SRC/tests/hosts"
# A bad option is named in one line, plus the hint; nothing on stdout.
for args in "run --bogus" "info --threads=2" "bench m -c" "bundle import -q x" "build --launchx"; do
    # shellcheck disable=SC2086
    expect_exit 2 "$ORTKIT" $args
    expect_lines out 0
    expect_lines err 2
done
expect_exit 2 "$ORTKIT" run m --bogus=1
expect_same err <<'OUT'
ortkit run: option '--bogus' is unknown or needs a value
(see 'ortkit run --help')
OUT
expect_exit 2 "$ORTKIT" bench m -c
expect_same err <<'OUT'
ortkit bench: option '-c' is unknown or needs a value
(see 'ortkit bench --help')
OUT
# --opt=value and --opt value, -lFILE and -l FILE, options after arguments,
# unambiguous abbreviations, "--" before arguments that look like options.
for args in "--load=$H/t4.json" "--load $H/t4.json" "-l$H/t4.json" "-l $H/t4.json" "--lo $H/t4.json"; do
    # shellcheck disable=SC2086
    expect_exit 0 "$ORTKIT" host $args
    expect_in out "gpu 0       Tesla T4, SM 7.5, 15.0 GiB"
done
expect_exit 0 "$ORTKIT" variants cpu-avx2 --js
expect_in out '"name":	"cpu-avx2"'
expect_exit 1 "$ORTKIT" variants -- --json
expect_in err "unknown variant '--json'"
expect_exit 2 "$ORTKIT" run --r m
expect_in err "option '--r' is unknown" # --random, --repeat or --runtime
# Bundle's subcommands come from its table.
expect_exit 2 "$ORTKIT" bundle
expect_in err "a subcommand is needed: import, fetch, verify, list, show, complete, keygen, publish, install, choose or probe"
# build --help shows every option it takes, the tuning ones too.
expect_exit 0 "$ORTKIT" build --help
for opt in "tuning and tests:" "--lang-mem LANG=SIZE" "--ninja-jobs N" "--min-disk SIZE" \
           "--target NAME" "-j, --jobs N" "-D KEY=VALUE"; do
    expect_in out "$opt"
done

# A subcommand's --help is that subcommand's: its usage lines, its row and
# its options, not the whole command's.
expect_exit 0 "$ORTKIT" bundle fetch --help
expect_in out "usage: ortkit bundle fetch VERSION [--registry URL]"
expect_in out "  -r, --registry URL"
expect_in out "'ortkit bundle --help' describes every bundle subcommand."
expect_not_in out "bundle import"
expect_not_in out "--pubkey"
[ "$(wc -l <out)" -lt 30 ] || { echo "FAIL: bundle fetch --help printed $(wc -l <out) lines" >&2; exit 1; }
expect_exit 0 "$ORTKIT" bundle choose --help
expect_in out "usage: ortkit bundle choose [--host FILE] [--json] [DIR...]"
expect_in out "       ortkit bundle choose --model MODEL [--measure]"
expect_not_in out "ortkit bundle install"
expect_exit 0 "$ORTKIT" bundle -h
expect_in out "ortkit bundle install SOURCE"

# A near miss of a command, a subcommand or an option gets a suggestion.
expect_exit 2 "$ORTKIT" rnu
expect_in err "ortkit: unknown command 'rnu'; did you mean 'run'?"
expect_exit 2 "$ORTKIT" bundle imprt
expect_in err "unknown subcommand 'imprt'; did you mean 'import'?"
expect_exit 2 "$ORTKIT" run --thraeds 2 m.onnx
expect_in err "option '--thraeds' is unknown or needs a value; did you mean --threads?"
expect_exit 2 "$ORTKIT" run --zzzzzz m.onnx
expect_not_in err "did you mean"
