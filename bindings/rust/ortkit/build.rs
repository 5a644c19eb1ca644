//! Gives this crate's tests and examples an RPATH to the libortkit that
//! ortkit-sys found (DEP_ORTKIT_LIBDIR), so they run without
//! LD_LIBRARY_PATH.  `cargo:rustc-link-arg` reaches only this package's own
//! binaries: a program using the crate sets its own RPATH, or installs
//! libortkit where the dynamic loader looks.
fn main() {
    println!("cargo:rerun-if-env-changed=DEP_ORTKIT_LIBDIR");
    if let Ok(dir) = std::env::var("DEP_ORTKIT_LIBDIR") {
        // The tests look for their material beside a build directory's library.
        println!("cargo:rustc-env=ORTKIT_LINKED_LIBDIR={}", dir);
        let system = dir == "/usr/lib" || dir == "/lib" || (dir.starts_with("/usr/lib/") && dir.matches('/').count() == 3);
        if !dir.is_empty() && !system {
            println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
        }
    }
}
