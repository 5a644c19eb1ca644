//! Finds libortkit (the shared library) and tells cargo to link it.
//!
//! In order, the first that holds `libortkit.so` wins:
//! 1. `ORTKIT_DIR`: an installed prefix (`DIR/lib/libortkit.so`, as `make
//!    install PREFIX=DIR` leaves it) or a build directory (`DIR/libortkit.so`,
//!    as `cmake --build DIR` leaves it).  Set, it is the only place looked at:
//!    a wrong ORTKIT_DIR is an error, never a silent fall-back to another copy.
//! 2. `pkg-config ortkit` (the program named by `PKG_CONFIG`, else
//!    `pkg-config`; `PKG_CONFIG_PATH` as usual): its `libdir`.
//! 3. The installed prefixes: `/usr/local/lib` (`make install`'s default),
//!    the multiarch `/usr/lib/<triple>`, `/usr/lib`.
//! 4. The build directory of the clone these crates lie in (`build/`, where
//!    `make build` and `make test` build), so a plain `cargo test` in
//!    bindings/rust works in a built clone; `ORTKIT_SYS_NO_CLONE_BUILD=1`
//!    leaves it out.
//!
//! When none does, the build fails with every place looked at and what was
//! found there.  The directory is passed on to dependents as
//! `DEP_ORTKIT_LIBDIR` (the safe crate gives its tests and examples an
//! RPATH to it) and the headers' directory, where one is found, as
//! `DEP_ORTKIT_INCLUDE` (the layout test compiles a C program against them).
use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

const LIB: &str = "libortkit.so";

struct Found {
    libdir: PathBuf,
    include: Option<PathBuf>,
    how: String,
}

fn main() {
    for var in ["ORTKIT_DIR", "PKG_CONFIG", "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR", "PKG_CONFIG_SYSROOT_DIR",
                "ORTKIT_SYS_NO_CLONE_BUILD"] {
        println!("cargo:rerun-if-env-changed={}", var);
    }
    println!("cargo:rerun-if-changed=build.rs");
    let mut looked: Vec<String> = Vec::new();
    let found = match env::var_os("ORTKIT_DIR").filter(|v| !v.is_empty()) {
        Some(dir) => from_ortkit_dir(Path::new(&dir), &mut looked),
        None => from_pkg_config(&mut looked)
            .or_else(|| from_prefixes(&mut looked))
            .or_else(|| from_clone_build(&mut looked)),
    };
    let found = match found {
        Some(f) => f,
        None => fail(&looked),
    };
    let libdir = carried("the library's directory", &found.libdir);
    let include = found.include.as_deref().map(|p| carried("the headers' directory", p)).unwrap_or_default();
    println!("cargo:rustc-link-search=native={}", libdir);
    println!("cargo:rustc-link-lib=dylib=ortkit");
    println!("cargo:rerun-if-changed={}", found.libdir.join(LIB).display());
    // This package's own tests find the library where it was linked.
    if !is_system_dir(&found.libdir) {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", libdir);
    }
    println!("cargo:libdir={}", libdir);
    println!("cargo:include={}", include);
    println!("cargo:found_by={}", found.how);
    println!("cargo:rustc-env=ORTKIT_SYS_LIBDIR={}", libdir);
    println!("cargo:rustc-env=ORTKIT_SYS_INCLUDE={}", include);
    println!("cargo:rustc-env=ORTKIT_SYS_FOUND_BY={}", found.how);
}

/// A path as cargo's directives carry it: one a line (a newline would start
/// a directive of its own), and in `-Wl,-rpath,PATH`, where a comma starts
/// another linker argument.  One that cannot be carried whole is refused.
fn carried(what: &str, path: &Path) -> String {
    let bad = match path.to_str() {
        None => Some("is not UTF-8".to_string()),
        Some(s) => s.chars().find(|c| c.is_control() || *c == ',').map(|c| {
            format!("holds {}, which cargo's directives cannot carry", c.escape_default())
        }),
    };
    match bad {
        None => path.to_str().unwrap_or_default().to_string(),
        Some(why) => {
            eprintln!(
                "ortkit-sys: {} {:?} {}: give ortkit's prefix or build directory by a path \
                 without control characters or commas (a link to it will do)",
                what, path, why
            );
            std::process::exit(1);
        }
    }
}

fn has_lib(dir: &Path) -> bool {
    dir.join(LIB).exists()
}

fn has_header(dir: &Path) -> bool {
    dir.join("ortkit.h").is_file() && dir.join("ortkit").is_dir()
}

fn from_ortkit_dir(dir: &Path, looked: &mut Vec<String>) -> Option<Found> {
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let lib = dir.join("lib");
    if has_lib(&lib) {
        let inc = dir.join("include");
        return Some(Found {
            libdir: lib,
            include: if has_header(&inc) { Some(inc) } else { None },
            how: format!("ORTKIT_DIR={} (an installed prefix)", dir.display()),
        });
    }
    if has_lib(&dir) {
        return Some(Found {
            libdir: dir.clone(),
            include: build_tree_headers(&dir),
            how: format!("ORTKIT_DIR={} (a build directory)", dir.display()),
        });
    }
    let what = if dir.is_relative() {
        format!(
            "is relative, and cargo runs build scripts in the package's directory ({}): give it as an absolute path",
            env::var("CARGO_MANIFEST_DIR").unwrap_or_default()
        )
    } else if dir.is_dir() {
        format!("holds neither lib/{} (an installed prefix) nor {} (a build directory)", LIB, LIB)
    } else {
        "is not a directory".to_string()
    };
    looked.push(format!(
        "ORTKIT_DIR={} {}; with ORTKIT_DIR set, nothing else is looked at",
        dir.display(),
        what
    ));
    None
}

/// A CMake build directory's headers are its source tree's `include/`.
fn build_tree_headers(dir: &Path) -> Option<PathBuf> {
    let cache = std::fs::read_to_string(dir.join("CMakeCache.txt")).ok()?;
    let src = cache.lines().find_map(|l| l.strip_prefix("CMAKE_HOME_DIRECTORY:INTERNAL="))?;
    let inc = Path::new(src).join("include");
    if has_header(&inc) {
        Some(inc)
    } else {
        None
    }
}

fn from_pkg_config(looked: &mut Vec<String>) -> Option<Found> {
    let program = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".to_string());
    let var = |name: &str| -> Result<String, String> {
        match Command::new(&program).args(["--variable", name, "ortkit"]).output() {
            Err(e) => Err(format!("cannot run '{}': {}", program, e)),
            Ok(out) if !out.status.success() => {
                let err = String::from_utf8_lossy(&out.stderr).trim().replace('\n', " ");
                Err(if err.is_empty() {
                    let path = env::var("PKG_CONFIG_PATH").unwrap_or_else(|_| "unset".to_string());
                    format!("'{}' knows no package 'ortkit' (PKG_CONFIG_PATH={})", program, path)
                } else {
                    err
                })
            }
            Ok(out) => Ok(String::from_utf8_lossy(&out.stdout).trim().to_string()),
        }
    };
    let libdir = match var("libdir") {
        Err(e) => {
            looked.push(format!("pkg-config ortkit: {}", e));
            return None;
        }
        Ok(d) if d.is_empty() => {
            looked.push("pkg-config ortkit: the package names no libdir".to_string());
            return None;
        }
        Ok(d) => PathBuf::from(d),
    };
    let libdir = libdir.canonicalize().unwrap_or(libdir);
    if !has_lib(&libdir) {
        looked.push(format!("pkg-config ortkit: its libdir {} holds no {}", libdir.display(), LIB));
        return None;
    }
    let include = var("includedir")
        .ok()
        .map(PathBuf::from)
        .map(|p| p.canonicalize().unwrap_or(p))
        .filter(|p| has_header(p));
    Some(Found { libdir, include, how: "pkg-config ortkit".to_string() })
}

fn multiarch() -> Option<String> {
    let arch = env::var("CARGO_CFG_TARGET_ARCH").ok()?;
    let os = env::var("CARGO_CFG_TARGET_OS").ok()?;
    let abi = env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os != "linux" {
        return None;
    }
    let abi = if abi.is_empty() { "gnu".to_string() } else { abi };
    Some(format!("{}-linux-{}", arch, abi))
}

fn from_prefixes(looked: &mut Vec<String>) -> Option<Found> {
    let mut dirs = vec![("/usr/local/lib".to_string(), "/usr/local/include")];
    if let Some(t) = multiarch() {
        dirs.push((format!("/usr/lib/{}", t), "/usr/include"));
    }
    dirs.push(("/usr/lib".to_string(), "/usr/include"));
    for (lib, inc) in dirs {
        let libdir = PathBuf::from(&lib);
        if has_lib(&libdir) {
            let inc = PathBuf::from(inc);
            return Some(Found {
                libdir,
                include: if has_header(&inc) { Some(inc) } else { None },
                how: format!("the installed prefix ({})", lib),
            });
        }
        looked.push(format!("{}: no {}", lib, LIB));
    }
    None
}

/// The clone's own build directory: bindings/rust/ortkit-sys/../../../build.
fn from_clone_build(looked: &mut Vec<String>) -> Option<Found> {
    if env::var_os("ORTKIT_SYS_NO_CLONE_BUILD").map_or(false, |v| v == "1") {
        return None;
    }
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR")?);
    let dir = manifest.join("../../../build");
    let dir = dir.canonicalize().unwrap_or(dir);
    println!("cargo:rerun-if-changed={}", dir.join(LIB).display());
    if has_lib(&dir) {
        return Some(Found {
            libdir: dir.clone(),
            include: build_tree_headers(&dir),
            how: format!("the clone's build directory ({})", dir.display()),
        });
    }
    looked.push(format!("{}: no {} (the clone's build directory; `make build` makes it)", dir.display(), LIB));
    None
}

fn is_system_dir(dir: &Path) -> bool {
    let s = dir.to_string_lossy();
    s == "/usr/lib" || s == "/lib" || s.starts_with("/usr/lib/") && s.matches('/').count() == 3
}

fn fail(looked: &[String]) -> ! {
    eprintln!("ortkit-sys: cannot find libortkit ({}). Looked at:", LIB);
    for l in looked {
        eprintln!("  - {}", l);
    }
    eprintln!(
        "Set ORTKIT_DIR to ortkit's install prefix (make install PREFIX=DIR) or its build \
         directory (cmake --build DIR), or make `pkg-config ortkit` find it (PKG_CONFIG_PATH)."
    );
    std::process::exit(1);
}
