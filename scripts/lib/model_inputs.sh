# scripts/lib/model_inputs.sh - sourced: the `ortkit run`/`bench` options
# that feed the checks' two real models the inputs their reference outputs
# came from, one line each, split at blanks where they are used.
# shellcheck shell=sh

# vad_inputs DIR: Silero VAD, the speech in DIR (make_vad_input.py's files).
vad_inputs() {
    printf '%s\n' "-i input=$1/speech.npy -i sr=$1/sr.npy -i h=$1/state.npy -i c=$1/state.npy"
}

# det_inputs: PP-OCRv4 det on one 640x640 image of seeded random data
# (`--random`, seed 1: the same values on every machine).
det_inputs() {
    printf '%s\n' "--random --dim p2o.DynamicDimension.0=1 --dim p2o.DynamicDimension.1=640 --dim p2o.DynamicDimension.2=640"
}
