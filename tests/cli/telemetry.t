# telemetry.t - the tool keeps ONNX Runtime 1.30's usage telemetry off: no
# /tmp/mat-debug-PID.log, no database under ~/.cache/Microsoft, unless the
# user sets ORT_DISABLE_TELEMETRY=0 (then ORT's own default applies).
# ORT itself stays quiet when CI is set, so the runs here unset it: they
# would prove nothing otherwise.
set -eu
export HOME="$PWD/home"
mkdir -p "$HOME"
# A log left by an earlier process of the same PID must not count: only one
# newer than the run's start does.
made_log() { [ -n "$(find /tmp -maxdepth 1 -name "mat-debug-$1.log" -newer start 2>/dev/null)" ]; }
run_once() { # pid file
    env -u ORT_DISABLE_TELEMETRY -u CI "$@" sh -c 'echo $$ >pid; exec "$0" run "$1" --zeros --dim N=2 >/dev/null' \
        "$ORTKIT" "$MODELS/add.onnx"
}
touch start
sleep 1
run_once
pid=$(cat pid)
! made_log "$pid" || { echo "FAIL: /tmp/mat-debug-$pid.log was created" >&2; exit 1; }
[ ! -e "$HOME/.cache/Microsoft" ] || { echo "FAIL: $HOME/.cache/Microsoft was created" >&2; exit 1; }
# Asked for, it is ORT's to do: the same run then leaves its traces (1.30 only).
case "$(ORT_DISABLE_TELEMETRY=1 "$ORTKIT" version 2>/dev/null)" in
*"ONNX Runtime 1.30"*)
    run_once ORT_DISABLE_TELEMETRY=0
    pid=$(cat pid)
    made_log "$pid" || { echo "FAIL: ORT_DISABLE_TELEMETRY=0 was not honoured" >&2; exit 1; }
    rm -f "/tmp/mat-debug-$pid.log"
    ;;
esac
