# Sourced by run_tests.sh and check_find.sh: finds cargo (CARGO, else the
# PATH's) and the rustc and rustdoc beside it (Debian's /usr/bin, or a
# rustup toolchain's) unless RUSTC / RUSTDOC say otherwise; without cargo
# the test reports itself skipped (77).
cargo=${CARGO:-$(command -v cargo || true)}
if [ -z "$cargo" ]; then
    echo "skipped: cargo is not installed (scripts/setup.sh installs Debian's rustc and cargo)"
    exit 77
fi
bin=$(dirname "$cargo")
if [ -z "${RUSTC:-}" ] && [ -x "$bin/rustc" ]; then export RUSTC="$bin/rustc"; fi
if [ -z "${RUSTDOC:-}" ] && [ -x "$bin/rustdoc" ]; then export RUSTDOC="$bin/rustdoc"; fi
