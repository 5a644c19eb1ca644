//! Find, verify, choose and load ONNX Runtime at run time, and run models on
//! it: a safe API over libortkit's stable C API (`<ortkit.h>`).
//!
//! No link-time dependency on ONNX Runtime: the program links libortkit
//! (found when building by `ortkit-sys`: `ORTKIT_DIR`, `pkg-config ortkit`,
//! or the installed prefix), and libortkit finds and loads
//! `libonnxruntime` when the program runs, any release from 1.17 on.
//!
//! ```no_run
//! use ortkit::{Runtime, Session, Tensor};
//!
//! # fn main() -> ortkit::Result<()> {
//! let rt = Runtime::open()?;                 // the best fit: ORTKIT_RUNTIME, bundles, ...
//! println!("ONNX Runtime {} from {} ({})", rt.version(), rt.path().display(), rt.source());
//! let session = rt.session().threads(1).provider("cuda").open("model.onnx")?;
//! let a = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
//! let x = Tensor::borrow(&[2, 3], &a)?;      // no copy
//! let out = session.run(&[("a", &x), ("b", &x)])?;
//! let sum: &[f32] = out["sum"].data()?;
//! println!("{:?} {:?}", out["sum"].shape(), sum);
//! # Ok(())
//! # }
//! ```
//!
//! # The pieces
//!
//! - [`Runtime`]: [`Runtime::open`] searches as ortkit does;
//!   [`Runtime::builder`] names a library ([`RuntimeBuilder::path`]) or a
//!   bundle ([`RuntimeBuilder::bundle`]), sets logging and global thread
//!   pools, and may ask for a minimum version.  [`Runtime::source`] says why
//!   that library; [`RuntimeBuilder::resolve`] / [`RuntimeBuilder::explain`]
//!   give the whole account ([`Resolution`]) before anything is loaded.
//! - [`Session`]: [`Session::builder`] (on the default runtime) or
//!   [`Runtime::session`]: threads, providers in order with the fallback
//!   policy ([`EpPolicy`]), the session cache, other options; then
//!   [`Session::run`] (by name), [`Session::infer`] (in model order) or
//!   [`Session::run_with`] (chosen outputs, a [`RunControl`]).
//!   [`infer`] is the one-shot case.
//! - [`Tensor`]: from a slice (copied), a `Vec` (moved in, no copy), or a
//!   borrowed slice ([`Tensor::borrow`] gives a [`TensorView`], no copy);
//!   read back with [`Tensor::data`] (a `&[T]`) and [`Tensor::shape`].
//!   Outputs ([`Outputs`]) own ONNX Runtime's buffers (no copy), outlive
//!   their session, and may be fed back in as inputs.
//! - [`Error`]: ortkit's [`Code`] and message.  Every fallible call returns
//!   `Result<_, Error>`; the crate never panics on a failure the library
//!   reports.
//!
//! # Threads: what is `Send` and `Sync`, and why
//!
//! | type | `Send` | `Sync` | the C API's rule |
//! |---|---|---|---|
//! | [`Session`] | yes | yes | run.h: "A session may be run from many threads at once." Runs take `&self`. |
//! | [`Runtime`] | yes | yes | runtime.h: "Sessions keep their runtime alive; freeing it early is safe" (an atomic reference count, ARCHITECTURE.md); its accessors read what the open fixed. |
//! | [`Tensor`], [`TensorView`], [`Outputs`] | yes | yes | tensor.h: "A tensor is plain memory plus a type and a shape; it does not depend on a runtime." The runtime value a tensor caches when first used as an input is installed by compare-and-swap (ARCHITECTURE.md: "concurrent first runs are safe"), so one input may feed runs on several threads; writing its data takes `&mut`. Outputs may be freed on any thread (HARDENING.md, "Threads and frees in any order"). |
//! | [`RunControl`] | yes | yes | run.h: `ortkit_run_control_cancel` is "Thread-safe"; reset is tested racing with runs and cancels (HARDENING.md). |
//! | [`Resolution`] | yes | no | resolve.h promises nothing about reading one from several threads; it is not needed. |
//! | [`Error`] | yes | yes | a Rust value: the message is copied out of ortkit's per-thread last error (common.h: "The message of the last failure on this thread") right after the failing call, on that thread. |
//!
//! So a session can be shared as `Arc<Session>` and run from many threads
//! without a lock; `Arc<Mutex<Session>>` (code written for a session that is
//! only `Send`) works too.  One gap: runtime.h does not say in words that
//! two threads may open sessions on one runtime at the same time; the
//! implementation allows it (what an open fills in lazily is under a mutex,
//! and ONNX Runtime's environment is thread-safe), and `Runtime` is `Sync`
//! on that basis.
//!
//! # Lifetimes
//!
//! Every handle is freed in `Drop` (`ortkit_*_free`).  Nothing borrows
//! anything else except a [`TensorView`], which borrows its data: the C API
//! keeps a runtime alive while its sessions and run controls live, and
//! outputs alive after their session is gone.  A loaded ONNX Runtime is
//! never unloaded (ortkit's rule), so outputs never dangle.
//!
//! # Running the tests
//!
//! `cargo test --offline` with `ORTKIT_DIR` pointing at ortkit's build
//! directory: the test `rust.crate` of ortkit's `make test` does that, with
//! `ORTKIT_RUNTIME` set to set-up's runtime and the test models of the
//! build tree.
#![warn(missing_debug_implementations)]

pub use ortkit_sys as sys;

mod error;
mod runtime;
mod session;
mod tensor;
mod util;

pub use error::{Code, Error, Result};
pub use runtime::{ArenaExtend, LogLevel, Resolution, ResolveStep, Runtime, RuntimeBuilder, Verdict};
pub use session::{
    infer, CacheState, Dim, EpPolicy, ExecMode, GraphOpt, IoInfo, Outputs, ProviderStatus, RunControl, Session,
    SessionBuilder, ValueKind,
};
pub use tensor::{Element, ElementType, Tensor, TensorView};

/// ortkit's own version (`ortkit_version`), `"0.1.0"`.
pub fn version() -> &'static str {
    // A string literal in the library, alive for the process.
    unsafe { util::cstr_str(sys::ortkit_version()) }.unwrap_or("?")
}
