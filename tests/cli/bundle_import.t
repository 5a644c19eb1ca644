# ortkit bundle import: nothing is taken from outside the source (a link out
# of it, a loop, a FIFO: refused at once, by name, nothing left behind), and
# an import interrupted half-way (SIGTERM, SIGINT) exits 130 and leaves its
# destination as it was.

absent_all() { [ -z "$(ls -A "$1" 2>/dev/null)" ] || { echo "FAIL: $1 holds: $(ls -A "$1")" >&2; exit 1; }; }
ms() { date +%s%3N; }

# --- a release tree with one hostile entry at a time --------------------------------
mkdir -p rel/lib rel/include outside
cp -P "$RT_OLD"/* rel/lib/
echo '#define ORT_API_VERSION 17' >rel/include/onnxruntime_c_api.h
echo licence >rel/LICENSE
echo secret >outside/secret

rm rel/LICENSE && ln -s /etc/passwd rel/LICENSE
expect_exit 1 "$ORTKIT" bundle import rel --into "$PWD/into"
expect_lines err 1
expect_in err "ortkit: cannot import 'rel': 'LICENSE' is a symbolic link to '/etc/passwd', which leads out of the source '$PWD/rel'"
absent_all into
rm rel/LICENSE && echo licence >rel/LICENSE

ln -s "$PWD/outside" rel/include/x
expect_exit 1 "$ORTKIT" bundle import rel --into "$PWD/into"
expect_in err "'include/x' is a symbolic link to '$PWD/outside', which leads out of the source"
absent_all into
rm rel/include/x

mv rel/lib/libonnxruntime_providers_shared.so outside/
ln -s ../../outside/libonnxruntime_providers_shared.so rel/lib/
expect_exit 1 "$ORTKIT" bundle import rel --into "$PWD/into"
expect_in err "'lib/libonnxruntime_providers_shared.so' is a symbolic link to '../../outside/libonnxruntime_providers_shared.so'"
absent_all into
rm rel/lib/libonnxruntime_providers_shared.so && mv outside/libonnxruntime_providers_shared.so rel/lib/

# A loop fails at once (it used to copy the tree into itself, level after level).
ln -s . rel/include/a
start=$(ms)
expect_exit 1 "$ORTKIT" bundle import rel --into "$PWD/into"
took=$(($(ms) - start))
expect_in err "'include/a' is a symbolic link to '.', which makes a loop"
absent_all into
[ "$took" -lt 1000 ] || { echo "FAIL: the loop took $took ms to refuse" >&2; exit 1; }
rm rel/include/a

# A FIFO is refused by name, never opened (a blocking read would hang).
mkfifo rel/include/pipe
expect_exit 1 timeout 20 "$ORTKIT" bundle import rel --into "$PWD/into"
expect_in err "'include/pipe' is a FIFO"
absent_all into
rm rel/include/pipe

# The clean tree imports, and its licence comes along.
expect_exit 0 "$ORTKIT" bundle import rel --name clean --into "$PWD/into"
[ "$(cat into/clean/LICENSE)" = licence ] || { echo "FAIL: no licence in the bundle" >&2; exit 1; }
rm -rf into

# --- interrupted half-way: 130, nothing left ----------------------------------------
# The signal is sent as soon as the temporary directory appears, while the
# 45 MB library is copied; an import that finished first is tried again.
for sig in TERM INT; do
    caught=0
    tries=0
    while [ "$caught" = 0 ] && [ "$tries" -lt 40 ]; do
        tries=$((tries + 1))
        rm -rf into err
        mkdir into
        "$ORTKIT" bundle import "$RT_NEW" --name big --into "$PWD/into" >out 2>err &
        pid=$!
        while kill -0 "$pid" 2>/dev/null; do
            for d in into/.big.tmp-"$pid"-*; do [ -d "$d" ] && break 2; done
        done
        kill -$sig "$pid" 2>/dev/null || true
        set +e
        wait "$pid"
        got=$?
        set -e
        [ "$got" = 0 ] && continue
        [ "$got" = 130 ] || { echo "FAIL: import interrupted by SIG$sig exited $got" >&2; cat err >&2; exit 1; }
        expect_lines err 1
        expect_in err "ortkit: interrupted; nothing was imported"
        absent_all into
        caught=1
    done
    [ "$caught" = 1 ] || { echo "FAIL: SIG$sig never reached an import half-way in $tries tries" >&2; exit 1; }
done
