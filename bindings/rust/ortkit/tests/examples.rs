//! The examples, built by `cargo test`, run as programs: the seeds' usage
//! patterns (S0: a builder and one-shot inference; S3: a session in
//! `Arc<Mutex<_>>` used from several threads), bundle choice in a process
//! of its own (it must not see ORTKIT_RUNTIME), and the leak check under
//! valgrind.
mod common;

use common::{example, material, model, runtime_old};
use std::path::PathBuf;
use std::process::{Command, Output};

fn app_model() -> PathBuf {
    material("ORTKIT_TEST_APP_MODEL", "../deps/models/silero_vad.onnx")
}

fn run(cmd: &mut Command) -> (Output, String, String) {
    let out = cmd.env("ORT_DISABLE_TELEMETRY", "1").output().expect("run the example");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out, stdout, stderr)
}

fn ok(cmd: &mut Command) -> String {
    let (out, stdout, stderr) = run(cmd);
    assert!(out.status.success(), "{:?} failed ({}):\n{}{}", cmd, out.status, stdout, stderr);
    stdout
}

#[test]
fn s0_builder_and_one_shot_inference() {
    let out = ok(Command::new(example("oneshot")).arg(app_model()));
    assert!(out.contains("runtime   ONNX Runtime 1.30.0"), "{}", out);
    assert!(out.contains("provider  CPUExecutionProvider"), "{}", out);
    assert!(out.contains("speech probability of a tone"), "{}", out);
    assert!(out.contains("speech probability of silence"), "{}", out);
    // A model that is not there: ortkit's message, exit 1.
    let (o, _, err) = run(Command::new(example("oneshot")).arg("/nonexistent/vad.onnx"));
    assert_eq!(o.status.code(), Some(1));
    assert!(err.starts_with("oneshot: ") && err.contains("/nonexistent/vad.onnx"), "{}", err);
}

#[test]
fn s3_shared_session_from_several_threads() {
    let out = ok(Command::new(example("shared_session")).arg(app_model()).arg("4"));
    assert!(out.contains("4 threads x 8 chunks: the same probabilities as one thread"), "{}", out);
}

/// The bundle tests' own bundle directory, with set-up's older runtime
/// imported by the ortkit tool as `rust-test-1.17.3`.
fn bundle_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bundles");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    ok(Command::new(material("ORTKIT_TEST_CLI", "ortkit"))
        .args(["bundle", "import"])
        .arg(runtime_old())
        .args(["--name", "rust-test-1.17.3", "--into"])
        .arg(&dir));
    dir
}

#[test]
fn bundles_best_fit_pinned_and_refused() {
    let dir = bundle_dir();
    let empty = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("no-bundles");
    std::fs::create_dir_all(&empty).unwrap();
    let explain = |args: &[&str]| {
        let mut c = Command::new(example("explain"));
        c.args(args)
            .env_remove("ORTKIT_RUNTIME")
            .env_remove("ORTKIT_BUNDLE")
            .env_remove("ONNXRUNTIME_DIR")
            .env("ORTKIT_PATH", &dir)
            .env("XDG_DATA_HOME", &empty)
            .env("XDG_DATA_DIRS", &empty);
        run(&mut c)
    };
    // Best fit: a bundle is taken (ours, or a newer one in the build's deps/bundles).
    let (o, out, err) = explain(&[]);
    assert!(o.status.success(), "{}{}", out, err);
    assert!(out.contains("(found by bundle "), "{}", out);
    assert!(out.lines().any(|l| l.starts_with("bundles") && l.contains("taken")), "{}", out);
    // Pinned by name.
    let (o, out, err) = explain(&["--bundle", "rust-test-1.17.3"]);
    assert!(o.status.success(), "{}{}", out, err);
    assert!(out.contains("loaded   ONNX Runtime 1.17.3 from "), "{}", out);
    assert!(out.contains("(found by bundle rust-test-1.17.3)"), "{}", out);
    assert!(out.contains("pin      rust-test-1.17.3 (from the options)"), "{}", out);
    // A pin nothing matches: ortkit's error, not a fall-back.
    let (o, out, err) = explain(&["--bundle", "9.99"]);
    assert_eq!(o.status.code(), Some(1), "{}{}", out, err);
    assert!(err.contains("9.99") && err.contains("ORTKIT_E_RUNTIME_NOT_FOUND"), "{}", err);
    // Older than the program asks for.
    let (o, out, err) = explain(&["--bundle", "rust-test-1.17.3", "--min-version", "1.20"]);
    assert_eq!(o.status.code(), Some(1), "{}{}", out, err);
    assert!(err.contains("is older than 1.20") && err.contains("ORTKIT_E_RUNTIME_TOO_OLD"), "{}", err);
}

#[test]
fn valgrind_finds_no_leak() {
    let runs = std::env::var("ORTKIT_TEST_LEAK_RUNS").unwrap_or_else(|_| "10000".to_string());
    if Command::new("valgrind").arg("--version").output().is_err() {
        eprintln!("skipped: valgrind is not installed (scripts/setup.sh installs it)");
        return;
    }
    let supp = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../tests/valgrind.supp");
    let log = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("leakcheck.vg");
    let out = ok(Command::new("valgrind")
        .args(["--error-exitcode=99", "--leak-check=full", "--errors-for-leak-kinds=definite", "--num-callers=50"])
        .arg(format!("--suppressions={}", supp.display()))
        .arg(format!("--log-file={}", log.display()))
        .arg(example("leakcheck"))
        .arg(model("add.onnx"))
        .arg(&runs));
    let report = std::fs::read_to_string(&log).unwrap();
    assert!(out.starts_with(&format!("{} runs", runs)), "{}", out);
    assert!(report.contains("ERROR SUMMARY: 0 errors"), "{}", report);
    assert!(report.contains("definitely lost: 0 bytes"), "{}", report);
    assert!(report.contains("indirectly lost: 0 bytes"), "{}", report);
}
