//! Where the tests find their material: the variables the ctest `rust.crate`
//! sets (bindings/rust/run_tests.sh), else places inside the build
//! directory ORTKIT_DIR names.
#![allow(dead_code)]
use std::path::PathBuf;

/// `var`, else `rel` inside ORTKIT_DIR (a build directory) or the build
/// directory libortkit was linked from; `None` when none holds it.
pub fn material_opt(var: &str, rel: &str) -> Option<PathBuf> {
    if let Some(v) = std::env::var_os(var).filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(v));
    }
    let dirs = [std::env::var_os("ORTKIT_DIR").filter(|v| !v.is_empty()).map(PathBuf::from),
                option_env!("ORTKIT_LINKED_LIBDIR").filter(|v| !v.is_empty()).map(PathBuf::from)];
    dirs.iter().flatten().map(|d| d.join(rel)).find(|p| p.exists())
}

/// `var`, else `rel` inside ORTKIT_DIR (a build directory); fails naming both.
pub fn material(var: &str, rel: &str) -> PathBuf {
    if let Some(v) = std::env::var_os(var).filter(|v| !v.is_empty()) {
        return PathBuf::from(v);
    }
    if let Some(dir) = std::env::var_os("ORTKIT_DIR").filter(|v| !v.is_empty()) {
        let p = PathBuf::from(dir).join(rel);
        if p.exists() {
            return p;
        }
    }
    // A plain `cargo test`: beside the build directory libortkit was found
    // in (ortkit-sys's build.rs: the clone's build/ when nothing else is).
    if let Some(dir) = option_env!("ORTKIT_LINKED_LIBDIR").filter(|v| !v.is_empty()) {
        let p = PathBuf::from(dir).join(rel);
        if p.exists() {
            return p;
        }
    }
    panic!("set {} (or ORTKIT_DIR to a build directory holding {}): bindings/rust/run_tests.sh sets both; \
            `make test` (or `make build SETUP=test`) makes them in the clone's build/, where a plain `cargo test` finds them", var, rel);
}

pub fn models() -> PathBuf {
    material("ORTKIT_TEST_MODELS", "test-models")
}

pub fn model(name: &str) -> PathBuf {
    models().join(name)
}

/// Set-up's default runtime (1.30.0), which the tests also get through ORTKIT_RUNTIME.
pub fn runtime_new() -> PathBuf {
    material("ORTKIT_TEST_RUNTIME_NEW", "../deps/runtime/1.30.0")
}

/// The older runtime set-up fetches (1.17.3).
pub fn runtime_old() -> PathBuf {
    material("ORTKIT_TEST_RUNTIME_OLD", "../deps/runtime/1.17.3")
}

pub fn stubs() -> PathBuf {
    material("ORTKIT_TEST_STUBS", "stubs")
}

/// A built example of this crate: target/<profile>/examples/NAME, beside
/// the test binary's deps/ directory.  `cargo test` builds the examples
/// only without a target filter (`cargo test --test examples` does not):
/// one older than its source or the crate's is refused, not run.
pub fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let p = exe.parent().unwrap().parent().unwrap().join("examples").join(name);
    let built = std::fs::metadata(&p)
        .and_then(|m| m.modified())
        .unwrap_or_else(|_| panic!("example {} is not built at {}: run `cargo test` without a target filter", name, p.display()));
    let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut sources = vec![crate_dir.join("examples").join(format!("{}.rs", name))];
    sources.extend(std::fs::read_dir(crate_dir.join("src")).unwrap().map(|e| e.unwrap().path()));
    for src in sources {
        let changed = std::fs::metadata(&src).and_then(|m| m.modified()).unwrap();
        assert!(
            changed <= built,
            "example {} is older than {}: run `cargo test` without a target filter, or `cargo build --examples`",
            name,
            src.display()
        );
    }
    p
}
