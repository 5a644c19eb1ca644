//! Finding and loading ONNX Runtime: `Runtime`, its options, and the account
//! of why a library was chosen.
use crate::error::{check, Code, Error, Result};
use crate::session::{ProviderStatus, SessionBuilder};
use crate::sys;
use crate::util::{c_path, c_string, cstr_owned, cstr_path, cstr_str, Strings};
use std::ffi::CString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::ptr::{self, NonNull};

/// ONNX Runtime's own log level (`ortkit_log_level`); by default only fatal
/// messages get through, since ortkit reports every failure itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LogLevel {
    #[default]
    Default,
    Verbose,
    Info,
    Warning,
    Error,
    Fatal,
}

/// How the CPU memory arena grows (`ortkit_arena_extend`).  Any choice but
/// `Default` gives the runtime one CPU arena its sessions share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ArenaExtend {
    #[default]
    Default,
    PowerOfTwo,
    Requested,
}

pub(crate) fn switch(v: Option<bool>) -> sys::ortkit_switch {
    match v {
        None => sys::ORTKIT_SWITCH_DEFAULT,
        Some(true) => sys::ORTKIT_SWITCH_ON,
        Some(false) => sys::ORTKIT_SWITCH_OFF,
    }
}

/// A loaded ONNX Runtime (`ortkit_runtime`).
///
/// [`Runtime::open`] searches as ortkit does (`ORTKIT_RUNTIME`, the bundle
/// that fits this machine best, the set-up location, `ONNXRUNTIME_DIR`,
/// `pkg-config libonnxruntime`, the system); [`Runtime::builder`] names a
/// library or a bundle, or sets the logging and thread-pool options.
/// [`Runtime::source`] and [`RuntimeBuilder::resolve`] say why that library.
///
/// Sessions keep their runtime alive (runtime.h), so a `Runtime` may be
/// dropped before the sessions opened on it.  `Send` and `Sync`: see the
/// crate documentation.
pub struct Runtime {
    raw: NonNull<sys::ortkit_runtime>,
}

// runtime.h: "Sessions keep their runtime alive; freeing it early is safe":
// the handle is reference-counted atomically (ARCHITECTURE.md, "Runtimes
// are reference-counted"), its accessors read what the open fixed, and what
// a session open fills in later is guarded by the library (the library's
// digest under a mutex, GPU plugin registration under a lock).  See the
// crate documentation for what the header does and does not say.
unsafe impl Send for Runtime {}
unsafe impl Sync for Runtime {}

impl Runtime {
    /// Find and load a runtime the way ortkit does by default (no options).
    pub fn open() -> Result<Runtime> {
        Runtime::builder().open()
    }

    /// Options for opening a runtime: a path, a bundle, logging, thread pools.
    pub fn builder() -> RuntimeBuilder {
        RuntimeBuilder::default()
    }

    /// A session builder on this runtime.
    pub fn session(&self) -> SessionBuilder<'_> {
        SessionBuilder::new(Some(self))
    }

    /// Takes ownership of a runtime the library opened.
    ///
    /// # Safety
    /// `raw` must be a live runtime handle nobody else frees.
    pub unsafe fn from_raw(raw: *mut sys::ortkit_runtime) -> Option<Runtime> {
        NonNull::new(raw).map(|raw| Runtime { raw })
    }

    /// The C handle, for calls this crate does not wrap; it stays the
    /// runtime's.
    pub fn as_raw(&self) -> *mut sys::ortkit_runtime {
        self.raw.as_ptr()
    }

    /// The library file that was loaded (absolute).
    pub fn path(&self) -> &Path {
        unsafe { cstr_path(sys::ortkit_runtime_path(self.raw.as_ptr())) }
    }

    /// Where the path came from: `"options"`, `"ORTKIT_RUNTIME"`, `"bundle
    /// NAME"`, `"default"`, `"ONNXRUNTIME_DIR"`, `"pkg-config"`, `"system"`.
    pub fn source(&self) -> &str {
        unsafe { cstr_str(sys::ortkit_runtime_source(self.raw.as_ptr())) }.unwrap_or("?")
    }

    /// ONNX Runtime's version, `"1.30.0"`.
    pub fn version(&self) -> &str {
        unsafe { cstr_str(sys::ortkit_runtime_version(self.raw.as_ptr())) }.unwrap_or("?")
    }

    /// The ORT C API level in use: min(ortkit's header level, the runtime's).
    pub fn api_level(&self) -> i32 {
        unsafe { sys::ortkit_runtime_api_level(self.raw.as_ptr()) }
    }

    /// The execution providers the runtime was built with, in its order
    /// (whether one can be used here is decided when a session asks for it).
    pub fn providers(&self) -> Vec<&str> {
        let n = unsafe { sys::ortkit_runtime_provider_count(self.raw.as_ptr()) };
        (0..n)
            .map(|i| unsafe { cstr_str(sys::ortkit_runtime_provider(self.raw.as_ptr(), i)) }.unwrap_or("?"))
            .collect()
    }

    /// Whether `provider` (`"cuda"`, `"tensorrt"`, any name a session takes,
    /// options after a colon) can be used with this runtime, without opening
    /// a model (`ortkit_runtime_provider_check`: for CUDA and TensorRT the
    /// probe a session runs).  `Ok` holds the answer, usable or not.
    pub fn check_provider(&self, provider: &str) -> Result<ProviderStatus> {
        let p = c_string(provider, "provider")?;
        let mut out = ptr::null_mut();
        check(unsafe { sys::ortkit_runtime_provider_check(&mut out, self.raw.as_ptr(), p.as_ptr()) })?;
        let status = unsafe { ProviderStatus::from_raw(out) };
        unsafe { sys::ortkit_provider_status_free(out) };
        Ok(status)
    }
}

impl Drop for Runtime {
    fn drop(&mut self) {
        unsafe { sys::ortkit_runtime_free(self.raw.as_ptr()) }
    }
}

impl fmt::Debug for Runtime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Runtime")
            .field("version", &self.version())
            .field("path", &self.path())
            .field("source", &self.source())
            .finish()
    }
}

/// How to open a runtime (`ortkit_runtime_options`).  Nothing set: the
/// default search, which takes the best bundle that fits this machine.
#[derive(Clone, Debug, Default)]
pub struct RuntimeBuilder {
    path: Option<PathBuf>,
    bundle: Option<String>,
    log_level: LogLevel,
    log_id: Option<String>,
    global_thread_pools: Option<bool>,
    global_intra_threads: i32,
    global_inter_threads: i32,
    global_spinning: Option<bool>,
    cpu_arena_extend: ArenaExtend,
    min_version: Option<String>,
    model: Option<PathBuf>,
    model_shapes: Option<String>,
    model_threads: i32,
}

/// The C options with the strings they point at.
struct RawOptions {
    opts: sys::ortkit_runtime_options,
    _strings: Strings,
}

impl RuntimeBuilder {
    /// A library file, or a directory holding `libonnxruntime.so*`: this one
    /// and no other (one that does not load is an error, never a fall-back).
    pub fn path(mut self, path: impl AsRef<Path>) -> Self {
        self.path = Some(path.as_ref().to_path_buf());
        self
    }

    /// The bundle to load, by name (`"ort-1.30.0-cpu"`) or ONNX Runtime
    /// version (`"1.30.0"`, `"1.17"`); an error if it is missing or does not
    /// fit.  Applies when no path is given and `ORTKIT_RUNTIME` is unset,
    /// as in the C API.
    pub fn bundle(mut self, name_or_version: impl Into<String>) -> Self {
        self.bundle = Some(name_or_version.into());
        self
    }

    /// ONNX Runtime's own log messages on stderr.
    pub fn log_level(mut self, level: LogLevel) -> Self {
        self.log_level = level;
        self
    }

    /// The log id (default `"ortkit"`).
    pub fn log_id(mut self, id: impl Into<String>) -> Self {
        self.log_id = Some(id.into());
        self
    }

    /// One intra-op and one inter-op thread pool for every session of the
    /// runtime (`on`), instead of a pair per session.
    pub fn global_thread_pools(mut self, on: bool) -> Self {
        self.global_thread_pools = Some(on);
        self
    }

    /// The global pools' threads (0: ONNX Runtime's default).
    pub fn global_threads(mut self, intra: i32, inter: i32) -> Self {
        self.global_intra_threads = intra;
        self.global_inter_threads = inter;
        self
    }

    /// Whether the global pools' idle threads spin-wait.
    pub fn global_spinning(mut self, on: bool) -> Self {
        self.global_spinning = Some(on);
        self
    }

    /// How the CPU arena grows.
    pub fn cpu_arena_extend(mut self, extend: ArenaExtend) -> Self {
        self.cpu_arena_extend = extend;
        self
    }

    /// The oldest ONNX Runtime the program accepts (`"1.20"`, `"1.20.1"`):
    /// a runtime found but older fails to open with [`Code::RuntimeTooOld`],
    /// as one older than ortkit's own floor (1.17) does.  This check is the
    /// crate's: the C options have no such field.
    pub fn min_version(mut self, version: impl Into<String>) -> Self {
        self.min_version = Some(version.into());
        self
    }

    /// The model the program will run: when the best fitting bundles are
    /// chosen among (no path, `ORTKIT_RUNTIME` or pin decides), what `ortkit
    /// bundle choose --model MODEL --measure` remembered for this model on
    /// this host chooses the fastest, instead of the declared order
    /// ([`Resolution::measured`] says whether it did).  `shapes` are the
    /// sizes it runs it at (`"batch=1"`, `"input=[1,3,224,224]"`,
    /// comma-separated; `""`: none), `threads` its sessions' intra-op
    /// threads (0: ONNX Runtime's default), as they were measured.
    pub fn model(mut self, model: impl AsRef<Path>, shapes: impl Into<String>, threads: i32) -> Self {
        self.model = Some(model.as_ref().to_path_buf());
        let shapes = shapes.into();
        self.model_shapes = if shapes.is_empty() { None } else { Some(shapes) };
        self.model_threads = threads;
        self
    }

    #[allow(clippy::field_reassign_with_default)] // the defaults are the C _INIT macro's
    fn raw(&self) -> Result<RawOptions> {
        let mut strings = Strings::default();
        let mut keep = |s: CString| strings.keep(s);
        let mut o = sys::ortkit_runtime_options::default();
        if let Some(p) = &self.path {
            o.path = keep(c_path(p)?);
        }
        if let Some(b) = &self.bundle {
            o.bundle = keep(c_string(b, "bundle")?);
        }
        if let Some(id) = &self.log_id {
            o.log_id = keep(c_string(id, "log id")?);
        }
        if let Some(m) = &self.model {
            o.model = keep(c_path(m)?);
        }
        if let Some(s) = &self.model_shapes {
            o.model_shapes = keep(c_string(s, "model shapes")?);
        }
        o.model_threads = self.model_threads;
        o.log_level = match self.log_level {
            LogLevel::Default => sys::ORTKIT_LOG_DEFAULT,
            LogLevel::Verbose => sys::ORTKIT_LOG_VERBOSE,
            LogLevel::Info => sys::ORTKIT_LOG_INFO,
            LogLevel::Warning => sys::ORTKIT_LOG_WARNING,
            LogLevel::Error => sys::ORTKIT_LOG_ERROR,
            LogLevel::Fatal => sys::ORTKIT_LOG_FATAL,
        };
        o.global_thread_pools = switch(self.global_thread_pools);
        o.global_intra_threads = self.global_intra_threads;
        o.global_inter_threads = self.global_inter_threads;
        o.global_spinning = switch(self.global_spinning);
        o.cpu_arena_extend = match self.cpu_arena_extend {
            ArenaExtend::Default => sys::ORTKIT_ARENA_EXTEND_DEFAULT,
            ArenaExtend::PowerOfTwo => sys::ORTKIT_ARENA_EXTEND_POWER_OF_TWO,
            ArenaExtend::Requested => sys::ORTKIT_ARENA_EXTEND_REQUESTED,
        };
        Ok(RawOptions { opts: o, _strings: strings })
    }

    /// Find and load the runtime.
    pub fn open(&self) -> Result<Runtime> {
        let raw = self.raw()?;
        let mut out = ptr::null_mut();
        check(unsafe { sys::ortkit_runtime_open(&mut out, &raw.opts) })?;
        let rt = unsafe { Runtime::from_raw(out) }.expect("ortkit returned success without a runtime");
        self.check_version(rt)
    }

    fn check_version(&self, rt: Runtime) -> Result<Runtime> {
        let min = match &self.min_version {
            None => return Ok(rt),
            Some(m) => m,
        };
        let want = parse_version(min).ok_or_else(|| {
            Error::new(Code::InvalidArg, format!("min_version '{}' is not a version (1.20 or 1.20.1)", min))
        })?;
        match parse_version(rt.version()) {
            Some(have) if have >= want => Ok(rt),
            _ => Err(Error::new(
                Code::RuntimeTooOld,
                format!(
                    "ONNX Runtime {} at '{}' (found by {}) is older than {}, the oldest this program accepts",
                    rt.version(),
                    rt.path().display(),
                    rt.source(),
                    min
                ),
            )),
        }
    }

    /// Decide which library [`open`](Self::open) would load, loading
    /// nothing, and say why (`ortkit_runtime_resolve`).  `Ok` whether or not
    /// a library was found: see [`Resolution::status`].
    pub fn resolve(&self) -> Result<Resolution> {
        self.resolve_flags(0)
    }

    /// As [`resolve`](Self::resolve), and every place of the search is
    /// described, even those past the one that decided
    /// (`ORTKIT_RESOLVE_EXPLAIN`: what `ortkit doctor` prints).
    pub fn explain(&self) -> Result<Resolution> {
        self.resolve_flags(sys::ORTKIT_RESOLVE_EXPLAIN)
    }

    fn resolve_flags(&self, flags: u32) -> Result<Resolution> {
        let raw = self.raw()?;
        let mut out = ptr::null_mut();
        check(unsafe { sys::ortkit_runtime_resolve(&mut out, &raw.opts, ptr::null(), flags) })?;
        let raw_res = NonNull::new(out).expect("ortkit returned success without a resolution");
        Ok(Resolution { raw: raw_res, builder: self.clone() })
    }
}

/// "1.20" or "1.20.1" as (major, minor, patch); a suffix after a '-' or '+'
/// is ignored.
fn parse_version(v: &str) -> Option<(u32, u32, u32)> {
    let core = v.split(['-', '+']).next()?;
    let mut parts = core.split('.').map(|p| p.parse::<u32>());
    let major = parts.next()?.ok()?;
    let minor = parts.next().unwrap_or(Ok(0)).ok()?;
    let patch = parts.next().unwrap_or(Ok(0)).ok()?;
    Some((major, minor, patch))
}

/// What happened at one place of the search (`ortkit_resolve_verdict`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Verdict {
    /// Nothing to look at here (a variable unset).
    Skipped,
    /// Looked at, nothing usable: the search went on.
    Passed,
    /// The library to load.
    Taken,
    /// An explicit choice that cannot be met: no library.
    Failed,
    /// After the place that decided (looked at only to explain).
    NotReached,
    Other(i32),
}

impl Verdict {
    fn from_raw(v: sys::ortkit_resolve_verdict) -> Verdict {
        match v {
            sys::ORTKIT_RESOLVE_SKIPPED => Verdict::Skipped,
            sys::ORTKIT_RESOLVE_PASSED => Verdict::Passed,
            sys::ORTKIT_RESOLVE_TAKEN => Verdict::Taken,
            sys::ORTKIT_RESOLVE_FAILED => Verdict::Failed,
            sys::ORTKIT_RESOLVE_NOT_REACHED => Verdict::NotReached,
            other => Verdict::Other(other),
        }
    }
}

/// One place of the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolveStep {
    /// `"options"`, `"ORTKIT_RUNTIME"`, `"bundles"`, `"default"`,
    /// `"ONNXRUNTIME_DIR"`, `"pkg-config"`, `"system"`.
    pub source: String,
    /// The value looked at (a path, a pin, a package), or "".
    pub where_: String,
    pub verdict: Verdict,
    /// ortkit's name for the verdict: `"taken"`, `"not reached"`.
    pub verdict_name: String,
    /// What was found there, or why it was passed over.
    pub detail: String,
}

/// Which library opening a runtime would load, and why
/// (`ortkit_resolution`): made by [`RuntimeBuilder::resolve`], loaded by
/// [`Resolution::open`], which loads exactly that file.
///
/// `Send` (it is only read once made, and freed by whichever thread drops
/// it), not `Sync`: resolve.h says nothing of reading one from several
/// threads at once.
pub struct Resolution {
    raw: NonNull<sys::ortkit_resolution>,
    builder: RuntimeBuilder,
}

unsafe impl Send for Resolution {}

impl Resolution {
    /// `Ok` when a library was found; otherwise the error opening would
    /// fail with (`ortkit_resolution_status` and `_error`).
    pub fn status(&self) -> Result<()> {
        let code = unsafe { sys::ortkit_resolution_status(self.raw.as_ptr()) };
        if code == 0 {
            return Ok(());
        }
        let message = unsafe { cstr_owned(sys::ortkit_resolution_error(self.raw.as_ptr())) };
        Err(Error::new(Code::from_raw(code), message))
    }

    /// The library's absolute path; `None` when none was found or it is left
    /// to the system's library search.
    pub fn path(&self) -> Option<&Path> {
        let p = unsafe { cstr_path(sys::ortkit_resolution_path(self.raw.as_ptr())) };
        if p.as_os_str().is_empty() {
            None
        } else {
            Some(p)
        }
    }

    /// Where it came from, as [`Runtime::source`] will say.
    pub fn source(&self) -> &str {
        unsafe { cstr_str(sys::ortkit_resolution_source(self.raw.as_ptr())) }.unwrap_or("?")
    }

    /// What choosing by measurement said when [`RuntimeBuilder::model`]
    /// named a model and the bundles were chosen among: `"measured: ..."`
    /// when a measurement chose the bundle, otherwise why the declared order
    /// stands; `""` when no model was named (`ortkit_resolution_measured`).
    pub fn measured(&self) -> &str {
        unsafe { cstr_str(sys::ortkit_resolution_measured(self.raw.as_ptr())) }.unwrap_or("")
    }

    /// Every place looked at, in search order.
    pub fn steps(&self) -> Vec<ResolveStep> {
        let n = unsafe { sys::ortkit_resolution_step_count(self.raw.as_ptr()) };
        (0..n)
            .filter_map(|i| {
                let s = unsafe { sys::ortkit_resolution_step(self.raw.as_ptr(), i).as_ref() }?;
                Some(unsafe {
                    ResolveStep {
                        source: cstr_owned(s.source),
                        where_: cstr_owned(s.where_),
                        verdict: Verdict::from_raw(s.verdict),
                        verdict_name: cstr_owned(sys::ortkit_resolve_verdict_name(s.verdict)),
                        detail: cstr_owned(s.detail),
                    }
                })
            })
            .collect()
    }

    /// The bundle pin in force and where it came from (`"the options"`,
    /// `"ORTKIT_BUNDLE"`), if any.
    pub fn pin(&self) -> Option<(String, String)> {
        let mut from = ptr::null();
        let pin = unsafe { sys::ortkit_resolution_pin(self.raw.as_ptr(), &mut from) };
        if pin.is_null() {
            return None;
        }
        Some(unsafe { (cstr_owned(pin), cstr_owned(from)) })
    }

    /// When bundles were judged: why the chosen one, or why none
    /// (`ortkit_resolution_choice`'s reason).
    pub fn bundle_choice(&self) -> Option<String> {
        let c = unsafe { sys::ortkit_resolution_choice(self.raw.as_ptr()).as_ref() }?;
        Some(unsafe { cstr_owned(c.reason) })
    }

    /// Load the library this resolution found (`ortkit_runtime_open_resolved`,
    /// with the builder's logging options); fails as opening would when it
    /// found none.
    pub fn open(&self) -> Result<Runtime> {
        let raw = self.builder.raw()?;
        let mut out = ptr::null_mut();
        check(unsafe { sys::ortkit_runtime_open_resolved(&mut out, self.raw.as_ptr(), &raw.opts) })?;
        let rt = unsafe { Runtime::from_raw(out) }.expect("ortkit returned success without a runtime");
        self.builder.check_version(rt)
    }
}

impl Drop for Resolution {
    fn drop(&mut self) {
        unsafe { sys::ortkit_resolution_free(self.raw.as_ptr()) }
    }
}

impl fmt::Debug for Resolution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Resolution")
            .field("path", &self.path())
            .field("source", &self.source())
            .field("steps", &self.steps())
            .finish()
    }
}

impl fmt::Display for Resolution {
    /// One line per place: `bundles          taken       1.17.3: ort-1.17.3-cpu: pinned ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in self.steps() {
            write!(f, "{:<16} {:<12}{}", s.source, s.verdict_name, s.where_)?;
            if !s.detail.is_empty() {
                write!(f, "{}{}", if s.where_.is_empty() { "" } else { ": " }, s.detail)?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::parse_version;

    #[test]
    fn versions() {
        assert_eq!(parse_version("1.30.0"), Some((1, 30, 0)));
        assert_eq!(parse_version("1.20"), Some((1, 20, 0)));
        assert_eq!(parse_version("1.17.3-dev"), Some((1, 17, 3)));
        assert_eq!(parse_version("x"), None);
        assert!(parse_version("1.17.3") < parse_version("1.20"));
    }
}
