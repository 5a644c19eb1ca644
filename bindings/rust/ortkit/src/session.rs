//! Sessions: a builder (threads, providers with their fallback policy, the
//! session cache), introspection, runs, outputs, cancellation.
use crate::error::{check, Code, Error, Result};
use crate::runtime::{switch, Runtime};
use crate::sys;
use crate::tensor::{ElementType, Tensor};
use crate::util::{c_path, c_string, cstr_owned, Strings};
use std::ffi::{CStr, CString};
use std::fmt;
use std::os::raw::c_char;
use std::path::{Path, PathBuf};
use std::ptr::{self, NonNull};
use std::sync::Arc;

/// Graph optimisation level (`ortkit_graph_opt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GraphOpt {
    /// Whatever the runtime does by default.
    #[default]
    Default,
    Disable,
    Basic,
    Extended,
    All,
}

/// Execution mode (`ortkit_exec_mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ExecMode {
    /// Sequential.
    #[default]
    Default,
    Sequential,
    Parallel,
}

/// What to do with a requested execution provider that cannot be added
/// (`ortkit_ep_policy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EpPolicy {
    /// Skip it and record why ([`Session::providers`]); the CPU provider
    /// is always there.
    #[default]
    Fallback,
    /// Fail the open ([`Code::Provider`]).
    Strict,
}

/// What the session cache did when the session opened (`ortkit_cache_state`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CacheState {
    /// No cache directory.
    Off,
    /// Loaded from the cache's optimised graph.
    Hit,
    /// Optimised from the model, then stored.
    Filled,
    /// Opened without the cache; the reason says why.
    Skipped,
    Other(i32),
}

/// The kind of a model's input or output (`ortkit_value_kind`).  Runs of
/// this crate take and give tensors; other kinds go through the C API's
/// `ortkit_session_run_values`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ValueKind {
    Unknown,
    Tensor,
    Sequence,
    Map,
    Optional,
    SparseTensor,
    Other(i32),
}

/// What happened to a requested execution provider (`ortkit_provider_status`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderStatus {
    /// As the caller wrote it (`"cuda"`).
    pub requested: String,
    /// ONNX Runtime's name (`"CUDAExecutionProvider"`).
    pub name: String,
    /// Added to the session.
    pub active: bool,
    /// Why it was skipped ("" when active).
    pub reason: String,
    /// ONNX Runtime's (or the loader's) own message, "" if none.
    pub detail: String,
    /// How a GPU provider is added: `"bridge"`, `"plugin"`, "" for others.
    pub method: String,
    /// `"ran"`, `"cached"`, `"off"`, "" for providers not probed.
    pub probe: String,
}

impl ProviderStatus {
    /// # Safety
    /// `p` is a live `ortkit_provider_status` (or NULL).
    pub(crate) unsafe fn from_raw(p: *const sys::ortkit_provider_status) -> ProviderStatus {
        let s = match p.as_ref() {
            Some(s) => s,
            None => {
                return ProviderStatus {
                    requested: String::new(),
                    name: String::new(),
                    active: false,
                    reason: String::new(),
                    detail: String::new(),
                    method: String::new(),
                    probe: String::new(),
                }
            }
        };
        ProviderStatus {
            requested: cstr_owned(s.requested),
            name: cstr_owned(s.name),
            active: s.active != 0,
            reason: cstr_owned(s.reason),
            detail: cstr_owned(s.detail),
            method: cstr_owned(s.method),
            probe: cstr_owned(s.probe),
        }
    }
}

/// One dimension of a declared shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dim {
    /// The size, `None` when not fixed.
    pub value: Option<i64>,
    /// The symbolic name (`"batch"`), or "".
    pub symbol: String,
}

/// A model's input or output as it declares it (`ortkit_io_info`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IoInfo {
    pub name: String,
    pub kind: ValueKind,
    /// The element type (of the tensor inside, for sequences and optionals).
    pub element_type: ElementType,
    /// The dimensions; `None` when the model gives no shape (unknown rank).
    pub dims: Option<Vec<Dim>>,
    /// `"float32[N,3,224,224]"`, `"sequence<float32>"` (`ortkit_io_describe`).
    pub description: String,
}

impl IoInfo {
    unsafe fn from_raw(p: *const sys::ortkit_io_info) -> IoInfo {
        let io = &*p;
        let dims = if io.rank == usize::MAX || io.dims.is_null() && io.rank != 0 {
            None
        } else if io.rank == 0 {
            Some(Vec::new())
        } else {
            Some(
                std::slice::from_raw_parts(io.dims, io.rank)
                    .iter()
                    .map(|d| Dim { value: if d.value >= 0 { Some(d.value) } else { None }, symbol: cstr_owned(d.symbol) })
                    .collect(),
            )
        };
        let mut buf = [0 as c_char; 512];
        sys::ortkit_io_describe(p, buf.as_mut_ptr(), buf.len());
        IoInfo {
            name: cstr_owned(io.name),
            kind: match io.kind {
                sys::ORTKIT_KIND_UNKNOWN => ValueKind::Unknown,
                sys::ORTKIT_KIND_TENSOR => ValueKind::Tensor,
                sys::ORTKIT_KIND_SEQUENCE => ValueKind::Sequence,
                sys::ORTKIT_KIND_MAP => ValueKind::Map,
                sys::ORTKIT_KIND_OPTIONAL => ValueKind::Optional,
                sys::ORTKIT_KIND_SPARSE_TENSOR => ValueKind::SparseTensor,
                other => ValueKind::Other(other),
            },
            element_type: ElementType::from_raw(io.type_),
            dims,
            description: CStr::from_ptr(buf.as_ptr()).to_string_lossy().into_owned(),
        }
    }
}

/// How to open a session (`ortkit_session_options`): made by
/// [`Session::builder`] (on the default runtime, opened when the session
/// is) or [`Runtime::session`].
#[derive(Clone, Debug)]
pub struct SessionBuilder<'r> {
    runtime: Option<&'r Runtime>,
    intra_op_threads: i32,
    inter_op_threads: i32,
    graph_opt: GraphOpt,
    exec_mode: ExecMode,
    mem_pattern: Option<bool>,
    cpu_arena: Option<bool>,
    profile_prefix: Option<PathBuf>,
    optimized_model_path: Option<PathBuf>,
    config: Vec<(String, String)>,
    providers: Vec<String>,
    ep_policy: EpPolicy,
    cache_dir: Option<PathBuf>,
    cache_max_bytes: u64,
    intra_op_spinning: Option<bool>,
    inter_op_spinning: Option<bool>,
}

impl<'r> SessionBuilder<'r> {
    pub(crate) fn new(runtime: Option<&'r Runtime>) -> Self {
        SessionBuilder {
            runtime,
            intra_op_threads: 0,
            inter_op_threads: 0,
            graph_opt: GraphOpt::Default,
            exec_mode: ExecMode::Default,
            mem_pattern: None,
            cpu_arena: None,
            profile_prefix: None,
            optimized_model_path: None,
            config: Vec::new(),
            providers: Vec::new(),
            ep_policy: EpPolicy::Fallback,
            cache_dir: None,
            cache_max_bytes: 0,
            intra_op_spinning: None,
            inter_op_spinning: None,
        }
    }

    /// Open on `runtime` instead of the default one.
    pub fn runtime<'b>(self, runtime: &'b Runtime) -> SessionBuilder<'b> {
        SessionBuilder { runtime: Some(runtime), ..self }
    }

    /// Intra-op threads (0: ONNX Runtime's default, one per core).
    pub fn threads(mut self, n: i32) -> Self {
        self.intra_op_threads = n;
        self
    }

    /// Inter-op threads (0: ONNX Runtime's default).
    pub fn inter_threads(mut self, n: i32) -> Self {
        self.inter_op_threads = n;
        self
    }

    /// Graph optimisation level.
    pub fn graph_optimization(mut self, level: GraphOpt) -> Self {
        self.graph_opt = level;
        self
    }

    /// Execution mode.
    pub fn execution_mode(mut self, mode: ExecMode) -> Self {
        self.exec_mode = mode;
        self
    }

    /// Memory planned from the first run's allocation pattern.
    pub fn memory_pattern(mut self, on: bool) -> Self {
        self.mem_pattern = Some(on);
        self
    }

    /// The CPU memory arena.
    pub fn cpu_arena(mut self, on: bool) -> Self {
        self.cpu_arena = Some(on);
        self
    }

    /// Whether idle intra-op and inter-op threads spin-wait for work.
    pub fn spinning(mut self, on: bool) -> Self {
        self.intra_op_spinning = Some(on);
        self.inter_op_spinning = Some(on);
        self
    }

    /// Write an ONNX Runtime profile, its file name starting with `prefix`.
    pub fn profile(mut self, prefix: impl AsRef<Path>) -> Self {
        self.profile_prefix = Some(prefix.as_ref().to_path_buf());
        self
    }

    /// Save the optimised graph to `path`.
    pub fn save_optimized(mut self, path: impl AsRef<Path>) -> Self {
        self.optimized_model_path = Some(path.as_ref().to_path_buf());
        self
    }

    /// A free-form session config entry.
    pub fn config(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.config.push((key.into(), value.into()));
        self
    }

    /// Add an execution provider to the list, in order of preference:
    /// `"cuda"`, `"tensorrt"`, `"CUDAExecutionProvider"`, options after a
    /// colon (`"cuda:device_id=1"`).  The CPU provider is always last.
    pub fn provider(mut self, provider: impl Into<String>) -> Self {
        self.providers.push(provider.into());
        self
    }

    /// Add several providers, in order.
    pub fn providers<I, S>(mut self, providers: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.providers.extend(providers.into_iter().map(Into::into));
        self
    }

    /// What to do with a provider that cannot be added (default: fall back).
    pub fn ep_policy(mut self, policy: EpPolicy) -> Self {
        self.ep_policy = policy;
        self
    }

    /// Keep the optimised graph in `dir` and load it from there next time
    /// (CPU sessions only; [`Session::cache`] says what happened).
    pub fn cache(mut self, dir: impl AsRef<Path>) -> Self {
        self.cache_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// The cache directory's limit (0: 1 GiB).
    pub fn cache_max_bytes(mut self, bytes: u64) -> Self {
        self.cache_max_bytes = bytes;
        self
    }

    /// Open a model file.
    pub fn open(&self, model: impl AsRef<Path>) -> Result<Session> {
        let path = c_path(model.as_ref())?;
        self.open_with(|rt, opts, out| unsafe { sys::ortkit_session_open(out, rt, path.as_ptr(), opts) })
    }

    /// Open a model held in memory (ONNX Runtime copies what it needs).
    pub fn open_memory(&self, model: &[u8]) -> Result<Session> {
        self.open_with(|rt, opts, out| unsafe {
            sys::ortkit_session_open_memory(out, rt, model.as_ptr() as *const _, model.len(), opts)
        })
    }

    #[allow(clippy::field_reassign_with_default)] // the defaults are the C _INIT macro's
    fn open_with(
        &self,
        open: impl FnOnce(*mut sys::ortkit_runtime, *const sys::ortkit_session_options, *mut *mut sys::ortkit_session) -> i32,
    ) -> Result<Session> {
        let mut strings = Strings::default();
        let mut keep = |s: CString| strings.keep(s);
        let mut o = sys::ortkit_session_options::default();
        o.intra_op_threads = self.intra_op_threads;
        o.inter_op_threads = self.inter_op_threads;
        o.graph_opt = match self.graph_opt {
            GraphOpt::Default => sys::ORTKIT_GRAPH_OPT_DEFAULT,
            GraphOpt::Disable => sys::ORTKIT_GRAPH_OPT_DISABLE,
            GraphOpt::Basic => sys::ORTKIT_GRAPH_OPT_BASIC,
            GraphOpt::Extended => sys::ORTKIT_GRAPH_OPT_EXTENDED,
            GraphOpt::All => sys::ORTKIT_GRAPH_OPT_ALL,
        };
        o.exec_mode = match self.exec_mode {
            ExecMode::Default => sys::ORTKIT_EXEC_DEFAULT,
            ExecMode::Sequential => sys::ORTKIT_EXEC_SEQUENTIAL,
            ExecMode::Parallel => sys::ORTKIT_EXEC_PARALLEL,
        };
        o.mem_pattern = switch(self.mem_pattern);
        o.cpu_arena = switch(self.cpu_arena);
        if let Some(p) = &self.profile_prefix {
            o.profile_prefix = keep(c_path(p)?);
        }
        if let Some(p) = &self.optimized_model_path {
            o.optimized_model_path = keep(c_path(p)?);
        }
        let mut keys = Vec::with_capacity(self.config.len());
        let mut values = Vec::with_capacity(self.config.len());
        for (k, v) in &self.config {
            keys.push(keep(c_string(k, "config key")?));
            values.push(keep(c_string(v, "config value")?));
        }
        if !keys.is_empty() {
            o.config_keys = keys.as_ptr();
            o.config_values = values.as_ptr();
            o.config_count = keys.len();
        }
        let mut providers = Vec::with_capacity(self.providers.len());
        for p in &self.providers {
            providers.push(keep(c_string(p, "provider")?));
        }
        if !providers.is_empty() {
            o.providers = providers.as_ptr();
            o.provider_count = providers.len();
        }
        o.ep_policy = match self.ep_policy {
            EpPolicy::Fallback => sys::ORTKIT_EP_FALLBACK,
            EpPolicy::Strict => sys::ORTKIT_EP_STRICT,
        };
        if let Some(d) = &self.cache_dir {
            o.cache_dir = keep(c_path(d)?);
        }
        o.cache_max_bytes = self.cache_max_bytes;
        o.intra_op_spinning = switch(self.intra_op_spinning);
        o.inter_op_spinning = switch(self.inter_op_spinning);

        let default_rt;
        let rt = match self.runtime {
            Some(rt) => rt,
            None => {
                // The session keeps the runtime alive once it is open.
                default_rt = Runtime::open()?;
                &default_rt
            }
        };
        let mut out = ptr::null_mut();
        check(open(rt.as_raw(), &o, &mut out))?;
        let raw = NonNull::new(out).expect("ortkit returned success without a session");
        Ok(unsafe { Session::from_raw_nonnull(raw) })
    }
}

/// A model opened on a runtime (`ortkit_session`).
///
/// `Send` and `Sync`: run.h, "A session may be run from many threads at
/// once", so [`run`](Session::run) takes `&self` and a session may be
/// shared as `Arc<Session>` (or `Arc<Mutex<Session>>`, for code written
/// for a session that is only `Send`).  See the crate documentation.
pub struct Session {
    raw: NonNull<sys::ortkit_session>,
    /// The session's own input and output names (C strings that live as
    /// long as it does), for runs by name without allocating.
    input_ptrs: Box<[*const c_char]>,
    output_ptrs: Box<[*const c_char]>,
    input_names: Box<[String]>,
    output_names: Arc<[String]>,
}

// run.h: "A session may be run from many threads at once."  Everything else
// a `&Session` reaches reads what the open fixed (introspection, provider
// statuses, the cache state); the handle is freed only in Drop, when no
// borrow is left.
unsafe impl Send for Session {}
unsafe impl Sync for Session {}

impl Session {
    /// A session builder on the default runtime ([`Runtime::open`], opened
    /// by [`SessionBuilder::open`]).
    pub fn builder() -> SessionBuilder<'static> {
        SessionBuilder::new(None)
    }

    /// Takes ownership of a session the library opened.
    ///
    /// # Safety
    /// `raw` must be a live session handle nobody else frees.
    pub unsafe fn from_raw(raw: *mut sys::ortkit_session) -> Option<Session> {
        NonNull::new(raw).map(|r| Session::from_raw_nonnull(r))
    }

    unsafe fn from_raw_nonnull(raw: NonNull<sys::ortkit_session>) -> Session {
        let s = raw.as_ptr();
        let ni = sys::ortkit_session_input_count(s);
        let no = sys::ortkit_session_output_count(s);
        let input_ptrs: Box<[*const c_char]> = (0..ni).map(|i| (*sys::ortkit_session_input(s, i)).name).collect();
        let output_ptrs: Box<[*const c_char]> = (0..no).map(|i| (*sys::ortkit_session_output(s, i)).name).collect();
        let input_names = input_ptrs.iter().map(|&p| cstr_owned(p)).collect();
        let output_names = output_ptrs.iter().map(|&p| cstr_owned(p)).collect();
        Session { raw, input_ptrs, output_ptrs, input_names, output_names }
    }

    /// The C handle, for calls this crate does not wrap; it stays the
    /// session's.
    pub fn as_raw(&self) -> *mut sys::ortkit_session {
        self.raw.as_ptr()
    }

    /// The inputs' names, in model order.
    pub fn input_names(&self) -> &[String] {
        &self.input_names
    }

    /// The outputs' names, in model order.
    pub fn output_names(&self) -> &[String] {
        &self.output_names
    }

    /// The inputs as the model declares them.
    pub fn inputs(&self) -> Vec<IoInfo> {
        (0..self.input_ptrs.len()).map(|i| unsafe { IoInfo::from_raw(sys::ortkit_session_input(self.raw.as_ptr(), i)) }).collect()
    }

    /// The outputs as the model declares them.
    pub fn outputs(&self) -> Vec<IoInfo> {
        (0..self.output_ptrs.len()).map(|i| unsafe { IoInfo::from_raw(sys::ortkit_session_output(self.raw.as_ptr(), i)) }).collect()
    }

    /// What happened to each requested provider, in order, then the CPU
    /// provider.
    pub fn providers(&self) -> Vec<ProviderStatus> {
        let n = unsafe { sys::ortkit_session_provider_count(self.raw.as_ptr()) };
        (0..n).map(|i| unsafe { ProviderStatus::from_raw(sys::ortkit_session_provider(self.raw.as_ptr(), i)) }).collect()
    }

    /// What the session cache did, and why when it was skipped or an entry
    /// rebuilt ("" otherwise).
    pub fn cache(&self) -> (CacheState, String) {
        let mut reason = ptr::null();
        let state = unsafe { sys::ortkit_session_cache(self.raw.as_ptr(), &mut reason) };
        let state = match state {
            sys::ORTKIT_CACHE_OFF => CacheState::Off,
            sys::ORTKIT_CACHE_HIT => CacheState::Hit,
            sys::ORTKIT_CACHE_FILLED => CacheState::Filled,
            sys::ORTKIT_CACHE_SKIPPED => CacheState::Skipped,
            other => CacheState::Other(other),
        };
        (state, unsafe { cstr_owned(reason) })
    }

    /// Run on inputs in model order; every output comes back, in model
    /// order (`ortkit_session_infer`).
    pub fn infer(&self, inputs: &[&Tensor]) -> Result<Outputs> {
        let mut ins = Buf::new(inputs.len(), ptr::null());
        for (slot, t) in ins.iter_mut().zip(inputs) {
            *slot = t.as_raw() as *const sys::ortkit_tensor;
        }
        let no = self.output_ptrs.len();
        let mut outs = Buf::new(no, ptr::null_mut());
        check(unsafe { sys::ortkit_session_infer(self.raw.as_ptr(), ins.as_ptr(), ins.len(), outs.as_mut_ptr(), no) })?;
        Ok(Outputs { names: Arc::clone(&self.output_names), tensors: Slots::new(&outs) })
    }

    /// Run on inputs by name; every output comes back, in model order
    /// (`ortkit_session_run`).  Inputs are checked against the model before
    /// ONNX Runtime sees them, and used in place.
    pub fn run(&self, inputs: &[(&str, &Tensor)]) -> Result<Outputs> {
        self.run_with(inputs, &[], None)
    }

    /// Run on inputs by name, for the outputs named (all of them, in model
    /// order, when `outputs` is empty), under `control` if given (another
    /// thread may cancel the run through it).
    pub fn run_with(&self, inputs: &[(&str, &Tensor)], outputs: &[&str], control: Option<&RunControl>) -> Result<Outputs> {
        let control = control.map_or(ptr::null_mut(), |c| c.raw.as_ptr());
        // Names the model lacks go to ortkit as given, so that it says so.
        let mut unknown: Vec<CString> = Vec::new();
        let mut in_names = Buf::new(inputs.len(), ptr::null());
        let mut ins = Buf::new(inputs.len(), ptr::null());
        for (i, (name, t)) in inputs.iter().enumerate() {
            in_names[i] = lookup(name, &self.input_names, &self.input_ptrs, &mut unknown)?;
            ins[i] = t.as_raw() as *const sys::ortkit_tensor;
        }
        if outputs.is_empty() {
            // Every output, in model order.
            let mut outs = Buf::new(self.output_ptrs.len(), ptr::null_mut());
            check(unsafe {
                sys::ortkit_session_run(
                    self.raw.as_ptr(), control, in_names.as_ptr(), ins.as_ptr(), ins.len(),
                    ptr::null(), 0, outs.as_mut_ptr(),
                )
            })?;
            return Ok(Outputs { names: Arc::clone(&self.output_names), tensors: Slots::new(&outs) });
        }
        let mut out_names = Buf::new(outputs.len(), ptr::null());
        for (i, name) in outputs.iter().enumerate() {
            out_names[i] = lookup(name, &self.output_names, &self.output_ptrs, &mut unknown)?;
        }
        let mut outs = Buf::new(outputs.len(), ptr::null_mut());
        check(unsafe {
            sys::ortkit_session_run(
                self.raw.as_ptr(), control, in_names.as_ptr(), ins.as_ptr(), ins.len(),
                out_names.as_ptr(), outputs.len(), outs.as_mut_ptr(),
            )
        })?;
        let names = outputs.iter().map(|s| s.to_string()).collect();
        Ok(Outputs { names, tensors: Slots::new(&outs) })
    }
}

/// The session's own C string for `name`, or a copy of `name` kept in
/// `unknown` when the model has no such input or output (ortkit then says so).
fn lookup(name: &str, names: &[String], ptrs: &[*const c_char], unknown: &mut Vec<CString>) -> Result<*const c_char> {
    if let Some(i) = names.iter().position(|n| n == name) {
        return Ok(ptrs[i]);
    }
    let c = c_string(name, "name")?;
    let p = c.as_ptr();
    unknown.push(c); // the CString's buffer does not move with it
    Ok(p)
}

/// The tensors of a run's outputs: inline for up to four (a run allocates
/// nothing here), else in a `Vec`.
enum Slots {
    Few([Option<Tensor>; 4], usize),
    Many(Vec<Tensor>),
}

impl Slots {
    /// Takes the outputs of a successful run, each a new tensor the caller owns.
    fn new(outs: &[*mut sys::ortkit_tensor]) -> Slots {
        let own = |p| unsafe { Tensor::from_raw(p) }.expect("ortkit returned success without an output");
        if outs.len() <= 4 {
            let mut few = [None, None, None, None];
            for (slot, &p) in few.iter_mut().zip(outs) {
                *slot = Some(own(p));
            }
            Slots::Few(few, outs.len())
        } else {
            Slots::Many(outs.iter().map(|&p| own(p)).collect())
        }
    }

    fn len(&self) -> usize {
        match self {
            Slots::Few(_, n) => *n,
            Slots::Many(v) => v.len(),
        }
    }

    fn get(&self, i: usize) -> Option<&Tensor> {
        match self {
            Slots::Few(a, n) => a[..*n].get(i).and_then(|t| t.as_ref()),
            Slots::Many(v) => v.get(i),
        }
    }

    fn remove(&mut self, i: usize) -> Tensor {
        match self {
            Slots::Few(a, n) => {
                let t = a[i].take().expect("an output in range");
                a[i..*n].rotate_left(1);
                *n -= 1;
                t
            }
            Slots::Many(v) => v.remove(i),
        }
    }

    fn into_vec(self) -> Vec<Tensor> {
        match self {
            Slots::Few(a, _) => a.into_iter().flatten().collect(),
            Slots::Many(v) => v,
        }
    }
}

/// `n` slots of `T`: on the stack for up to 8, so that a run of a model with
/// few inputs and outputs allocates nothing here.
enum Buf<T: Copy> {
    Stack([T; 8], usize),
    Heap(Vec<T>),
}

impl<T: Copy> Buf<T> {
    fn new(n: usize, fill: T) -> Self {
        if n <= 8 {
            Buf::Stack([fill; 8], n)
        } else {
            Buf::Heap(vec![fill; n])
        }
    }
}

impl<T: Copy> std::ops::Deref for Buf<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            Buf::Stack(a, n) => &a[..*n],
            Buf::Heap(v) => v,
        }
    }
}

impl<T: Copy> std::ops::DerefMut for Buf<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            Buf::Stack(a, n) => &mut a[..*n],
            Buf::Heap(v) => v,
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        unsafe { sys::ortkit_session_free(self.raw.as_ptr()) }
    }
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session")
            .field("inputs", &self.input_names)
            .field("outputs", &self.output_names)
            .finish()
    }
}

/// The outputs of a run, in the order asked for (model order by default),
/// each a tensor the program owns: it outlives the session and may be fed
/// back as an input.  Indexed by position or by name.
pub struct Outputs {
    names: Arc<[String]>,
    tensors: Slots,
}

impl Outputs {
    /// How many outputs.
    pub fn len(&self) -> usize {
        self.tensors.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.tensors.len() == 0
    }

    /// The output called `name`.
    pub fn get(&self, name: &str) -> Option<&Tensor> {
        self.names.iter().position(|n| n == name).and_then(|i| self.tensors.get(i))
    }

    /// The outputs' names, in order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// `(name, tensor)` pairs, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Tensor)> {
        self.names.iter().enumerate().filter_map(move |(i, s)| Some((s.as_str(), self.tensors.get(i)?)))
    }

    /// Take the output called `name` out.
    pub fn remove(&mut self, name: &str) -> Option<Tensor> {
        let i = self.names.iter().position(|n| n == name)?;
        let mut names: Vec<String> = self.names.to_vec();
        names.remove(i);
        self.names = names.into();
        Some(self.tensors.remove(i))
    }

    /// The tensors, in order.
    pub fn into_vec(self) -> Vec<Tensor> {
        self.tensors.into_vec()
    }
}

impl std::ops::Index<usize> for Outputs {
    type Output = Tensor;
    fn index(&self, i: usize) -> &Tensor {
        self.tensors.get(i).unwrap_or_else(|| panic!("output {} of {}", i, self.len()))
    }
}

impl std::ops::Index<&str> for Outputs {
    type Output = Tensor;
    /// Panics when there is no output of that name ([`Outputs::get`] does not).
    fn index(&self, name: &str) -> &Tensor {
        self.get(name).unwrap_or_else(|| panic!("no output '{}' (outputs: {})", name, self.names.join(", ")))
    }
}

impl fmt::Debug for Outputs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter().map(|(n, t)| (n, t.describe()))).finish()
    }
}

/// Lets another thread cancel a run in progress (`ortkit_run_control`):
/// runs given it through [`Session::run_with`] fail with
/// [`Code::Cancelled`] from [`cancel`](Self::cancel) until
/// [`reset`](Self::reset).
///
/// `Send` and `Sync`: run.h says `ortkit_run_control_cancel` is
/// thread-safe; reset is the same atomic store, and HARDENING.md
/// ("Cancellation and reset from other threads") tests the two racing with
/// runs.
pub struct RunControl {
    raw: NonNull<sys::ortkit_run_control>,
}

unsafe impl Send for RunControl {}
unsafe impl Sync for RunControl {}

impl RunControl {
    /// A control for runs of `session`.
    pub fn new(session: &Session) -> Result<RunControl> {
        let mut out = ptr::null_mut();
        check(unsafe { sys::ortkit_run_control_new(&mut out, session.as_raw()) })?;
        Ok(RunControl { raw: NonNull::new(out).expect("ortkit returned success without a control") })
    }

    /// Runs using this control fail with [`Code::Cancelled`] until reset.
    pub fn cancel(&self) {
        unsafe { sys::ortkit_run_control_cancel(self.raw.as_ptr()) }
    }

    /// Let runs through again.
    pub fn reset(&self) {
        unsafe { sys::ortkit_run_control_reset(self.raw.as_ptr()) }
    }
}

impl Drop for RunControl {
    fn drop(&mut self) {
        unsafe { sys::ortkit_run_control_free(self.raw.as_ptr()) }
    }
}

impl fmt::Debug for RunControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("RunControl")
    }
}

/// Open `model` on the default runtime with default options and run it
/// once on `inputs`, in model order: the one-shot case.
pub fn infer(model: impl AsRef<Path>, inputs: &[&Tensor]) -> Result<Outputs> {
    Session::builder().open(model)?.infer(inputs)
}

#[allow(dead_code)]
fn _assert_traits() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Session>();
    send_sync::<RunControl>();
    send_sync::<Outputs>();
    let _ = Error::new(Code::Run, "");
}
