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
