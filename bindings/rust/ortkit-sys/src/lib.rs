//! Raw declarations of the part of libortkit's stable C API (`<ortkit.h>`,
//! `include/ortkit/*.h`) that the safe `ortkit` crate uses.
//!
//! Everything here is `unsafe` to call and follows the C API's rules
//! (`docs/CONVENTIONS.md`): functions return 0 or a negative
//! `ortkit_status`, and `ortkit_error_last()` says why, per thread; handles
//! go back through their `*_free`; options structs start with `version`.
//!
//! Types mirror the headers field for field (`#[repr(C)]`), checked by the
//! test `tests/layout.rs` against a C program compiled from the headers.
//! C enums are `c_int`s here with the enumerators as constants, since a C
//! library may hand back a value a Rust `enum` does not list.
//!
//! Structs of three kinds (the header says which each one is):
//! - **options the caller allocates** ([`ortkit_runtime_options`],
//!   [`ortkit_session_options`]): declared as the version given by
//!   [`ORTKIT_RUNTIME_OPTIONS_VERSION`] / [`ORTKIT_SESSION_OPTIONS_VERSION`],
//!   every field of it; `Default` is the `_INIT` macro.  A library with a
//!   later version reads only the bytes of this one and gives the rest their
//!   defaults; an older library refuses a newer version with
//!   `ORTKIT_E_INVALID_ARG`.
//! - **structs the library allocates** ([`ortkit_io_info`],
//!   [`ortkit_provider_status`], [`ortkit_resolve_step`],
//!   [`ortkit_bundle_choice`], [`ortkit_value_type`]): only read through the
//!   pointer the library hands out; later releases add fields at their end,
//!   so these declare a prefix and must never be built, copied by value or
//!   sized by a program.
//! - **array elements** ([`ortkit_dim`]): frozen, declared exactly.
//!
//! The library is found by `build.rs`: `ORTKIT_DIR`, then `pkg-config
//! ortkit`, then the installed prefixes (see the crate's README section).
#![allow(non_camel_case_types)]

use std::os::raw::{c_char, c_int, c_long, c_uint, c_void};

// ---- common.h ---------------------------------------------------------------

pub const ORTKIT_VERSION_MAJOR: c_int = 0;
pub const ORTKIT_VERSION_MINOR: c_int = 1;
pub const ORTKIT_VERSION_PATCH: c_int = 0;

/// `enum ortkit_status`: 0 or a negative code; the list only grows at the end.
pub type ortkit_status = c_int;
pub const ORTKIT_OK: ortkit_status = 0;
pub const ORTKIT_E_INVALID_ARG: ortkit_status = -1;
pub const ORTKIT_E_NOMEM: ortkit_status = -2;
pub const ORTKIT_E_IO: ortkit_status = -3;
pub const ORTKIT_E_RUNTIME_NOT_FOUND: ortkit_status = -4;
pub const ORTKIT_E_RUNTIME_INVALID: ortkit_status = -5;
pub const ORTKIT_E_RUNTIME_TOO_OLD: ortkit_status = -6;
pub const ORTKIT_E_MODEL: ortkit_status = -7;
pub const ORTKIT_E_PROVIDER: ortkit_status = -8;
pub const ORTKIT_E_SHAPE: ortkit_status = -9;
pub const ORTKIT_E_NAME: ortkit_status = -10;
pub const ORTKIT_E_RUN: ortkit_status = -11;
pub const ORTKIT_E_CANCELLED: ortkit_status = -12;
pub const ORTKIT_E_FORMAT: ortkit_status = -13;
pub const ORTKIT_E_UNSUPPORTED: ortkit_status = -14;
pub const ORTKIT_E_ORT: ortkit_status = -15;

/// `enum ortkit_type`, numbered as ONNX's TensorProto.DataType.
pub type ortkit_type = c_int;
pub const ORTKIT_TYPE_UNDEFINED: ortkit_type = 0;
pub const ORTKIT_TYPE_FLOAT32: ortkit_type = 1;
pub const ORTKIT_TYPE_UINT8: ortkit_type = 2;
pub const ORTKIT_TYPE_INT8: ortkit_type = 3;
pub const ORTKIT_TYPE_UINT16: ortkit_type = 4;
pub const ORTKIT_TYPE_INT16: ortkit_type = 5;
pub const ORTKIT_TYPE_INT32: ortkit_type = 6;
pub const ORTKIT_TYPE_INT64: ortkit_type = 7;
pub const ORTKIT_TYPE_STRING: ortkit_type = 8;
pub const ORTKIT_TYPE_BOOL: ortkit_type = 9;
pub const ORTKIT_TYPE_FLOAT16: ortkit_type = 10;
pub const ORTKIT_TYPE_FLOAT64: ortkit_type = 11;
pub const ORTKIT_TYPE_UINT32: ortkit_type = 12;
pub const ORTKIT_TYPE_UINT64: ortkit_type = 13;
pub const ORTKIT_TYPE_COMPLEX64: ortkit_type = 14;
pub const ORTKIT_TYPE_COMPLEX128: ortkit_type = 15;
pub const ORTKIT_TYPE_BFLOAT16: ortkit_type = 16;
pub const ORTKIT_TYPE_FLOAT8E4M3FN: ortkit_type = 17;
pub const ORTKIT_TYPE_FLOAT8E4M3FNUZ: ortkit_type = 18;
pub const ORTKIT_TYPE_FLOAT8E5M2: ortkit_type = 19;
pub const ORTKIT_TYPE_FLOAT8E5M2FNUZ: ortkit_type = 20;
pub const ORTKIT_TYPE_UINT4: ortkit_type = 21;
pub const ORTKIT_TYPE_INT4: ortkit_type = 22;

// ---- tensor.h ---------------------------------------------------------------

pub const ORTKIT_MAX_RANK: usize = 32;

/// Opaque: a tensor (`ortkit/tensor.h`).
#[repr(C)]
pub struct ortkit_tensor {
    _private: [u8; 0],
}

// ---- value.h ----------------------------------------------------------------

/// `enum ortkit_value_kind`.
pub type ortkit_value_kind = c_int;
pub const ORTKIT_KIND_UNKNOWN: ortkit_value_kind = 0;
pub const ORTKIT_KIND_TENSOR: ortkit_value_kind = 1;
pub const ORTKIT_KIND_SEQUENCE: ortkit_value_kind = 2;
pub const ORTKIT_KIND_MAP: ortkit_value_kind = 3;
pub const ORTKIT_KIND_OPTIONAL: ortkit_value_kind = 4;
pub const ORTKIT_KIND_SPARSE_TENSOR: ortkit_value_kind = 5;

/// A value's type.  Library-allocated, read by pointer (a prefix: later
/// versions may add fields at the end).
#[repr(C)]
pub struct ortkit_value_type {
    pub kind: ortkit_value_kind,
    pub elem: ortkit_type,
    pub key: ortkit_type,
    pub inner: *const ortkit_value_type,
}

// ---- runtime.h --------------------------------------------------------------

pub const ORTKIT_MIN_ORT_API: c_int = 17;

/// Opaque: a loaded runtime (`ortkit/runtime.h`).
#[repr(C)]
pub struct ortkit_runtime {
    _private: [u8; 0],
}

/// ONNX Runtime's own table of entry points; only named.
#[repr(C)]
pub struct OrtApiBase {
    _private: [u8; 0],
}

pub type ortkit_log_level = c_int;
pub const ORTKIT_LOG_DEFAULT: ortkit_log_level = 0;
pub const ORTKIT_LOG_VERBOSE: ortkit_log_level = 1;
pub const ORTKIT_LOG_INFO: ortkit_log_level = 2;
pub const ORTKIT_LOG_WARNING: ortkit_log_level = 3;
pub const ORTKIT_LOG_ERROR: ortkit_log_level = 4;
pub const ORTKIT_LOG_FATAL: ortkit_log_level = 5;

pub type ortkit_switch = c_int;
pub const ORTKIT_SWITCH_DEFAULT: ortkit_switch = 0;
pub const ORTKIT_SWITCH_ON: ortkit_switch = 1;
pub const ORTKIT_SWITCH_OFF: ortkit_switch = 2;

pub type ortkit_arena_extend = c_int;
pub const ORTKIT_ARENA_EXTEND_DEFAULT: ortkit_arena_extend = 0;
pub const ORTKIT_ARENA_EXTEND_POWER_OF_TWO: ortkit_arena_extend = 1;
pub const ORTKIT_ARENA_EXTEND_REQUESTED: ortkit_arena_extend = 2;

/// The version of [`ortkit_runtime_options`] declared here: every field up
/// to and including version 4's `model`, `model_shapes` and `model_threads`.
pub const ORTKIT_RUNTIME_OPTIONS_VERSION: c_uint = 4;

/// `ortkit_runtime_options`, version 4.  `Default` is
/// `ORTKIT_RUNTIME_OPTIONS_INIT`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ortkit_runtime_options {
    pub version: c_uint,
    pub path: *const c_char,
    pub log_level: ortkit_log_level,
    pub log_id: *const c_char,
    pub bundle: *const c_char,
    // Version 2.
    pub global_thread_pools: ortkit_switch,
    pub global_intra_threads: c_int,
    pub global_inter_threads: c_int,
    pub global_spinning: ortkit_switch,
    pub cpu_arena_extend: ortkit_arena_extend,
    // Version 3.
    pub api_base: Option<unsafe extern "C" fn() -> *const OrtApiBase>,
    // Version 4: the model the program will run, the sizes ("SYMBOL=SIZE" or
    // "INPUT=[D0,D1]", comma-separated) and intra-op threads it runs it at:
    // what `ortkit bundle choose --measure` remembered for them chooses the
    // bundle.
    pub model: *const c_char,
    pub model_shapes: *const c_char,
    pub model_threads: c_int,
}

impl Default for ortkit_runtime_options {
    fn default() -> Self {
        ortkit_runtime_options {
            version: ORTKIT_RUNTIME_OPTIONS_VERSION,
            path: std::ptr::null(),
            log_level: ORTKIT_LOG_DEFAULT,
            log_id: std::ptr::null(),
            bundle: std::ptr::null(),
            global_thread_pools: ORTKIT_SWITCH_DEFAULT,
            global_intra_threads: 0,
            global_inter_threads: 0,
            global_spinning: ORTKIT_SWITCH_DEFAULT,
            cpu_arena_extend: ORTKIT_ARENA_EXTEND_DEFAULT,
            api_base: None,
            model: std::ptr::null(),
            model_shapes: std::ptr::null(),
            model_threads: 0,
        }
    }
}

// ---- resolve.h --------------------------------------------------------------

pub type ortkit_resolve_verdict = c_int;
pub const ORTKIT_RESOLVE_SKIPPED: ortkit_resolve_verdict = 0;
pub const ORTKIT_RESOLVE_PASSED: ortkit_resolve_verdict = 1;
pub const ORTKIT_RESOLVE_TAKEN: ortkit_resolve_verdict = 2;
pub const ORTKIT_RESOLVE_FAILED: ortkit_resolve_verdict = 3;
pub const ORTKIT_RESOLVE_NOT_REACHED: ortkit_resolve_verdict = 4;

/// Flag of `ortkit_runtime_resolve`: look at every place, even past the one
/// that decides.
pub const ORTKIT_RESOLVE_EXPLAIN: c_uint = 1;

/// One place of the search (library-allocated, read by pointer).
#[repr(C)]
pub struct ortkit_resolve_step {
    pub source: *const c_char,
    pub where_: *const c_char,
    pub verdict: ortkit_resolve_verdict,
    pub detail: *const c_char,
}

/// Opaque: which library `ortkit_runtime_open` loads, and why.
#[repr(C)]
pub struct ortkit_resolution {
    _private: [u8; 0],
}

/// Opaque: the machine bundles are judged for (`ortkit/host.h`); only passed
/// as NULL here.
#[repr(C)]
pub struct ortkit_host {
    _private: [u8; 0],
}

pub const ORTKIT_BUNDLE_NONE: usize = usize::MAX;

/// `ortkit_bundle_choice` (`ortkit/select.h`): library-allocated, read by
/// pointer (a prefix).
#[repr(C)]
pub struct ortkit_bundle_choice {
    pub index: usize,
    pub reason: *const c_char,
    pub count: usize,
}

// ---- session.h --------------------------------------------------------------

/// Opaque: a model opened on a runtime.
#[repr(C)]
pub struct ortkit_session {
    _private: [u8; 0],
}

pub type ortkit_graph_opt = c_int;
pub const ORTKIT_GRAPH_OPT_DEFAULT: ortkit_graph_opt = 0;
pub const ORTKIT_GRAPH_OPT_DISABLE: ortkit_graph_opt = 1;
pub const ORTKIT_GRAPH_OPT_BASIC: ortkit_graph_opt = 2;
pub const ORTKIT_GRAPH_OPT_EXTENDED: ortkit_graph_opt = 3;
pub const ORTKIT_GRAPH_OPT_ALL: ortkit_graph_opt = 4;

pub type ortkit_exec_mode = c_int;
pub const ORTKIT_EXEC_DEFAULT: ortkit_exec_mode = 0;
pub const ORTKIT_EXEC_SEQUENTIAL: ortkit_exec_mode = 1;
pub const ORTKIT_EXEC_PARALLEL: ortkit_exec_mode = 2;

pub type ortkit_ep_policy = c_int;
pub const ORTKIT_EP_FALLBACK: ortkit_ep_policy = 0;
pub const ORTKIT_EP_STRICT: ortkit_ep_policy = 1;

/// The version of [`ortkit_session_options`] declared here: every field up
/// to and including version 2's `inter_op_spinning`.
pub const ORTKIT_SESSION_OPTIONS_VERSION: c_uint = 2;

/// `ortkit_session_options`, version 2.  `Default` is
/// `ORTKIT_SESSION_OPTIONS_INIT`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ortkit_session_options {
    pub version: c_uint,
    pub intra_op_threads: c_int,
    pub inter_op_threads: c_int,
    pub graph_opt: ortkit_graph_opt,
    pub exec_mode: ortkit_exec_mode,
    pub mem_pattern: ortkit_switch,
    pub cpu_arena: ortkit_switch,
    pub profile_prefix: *const c_char,
    pub optimized_model_path: *const c_char,
    pub config_keys: *const *const c_char,
    pub config_values: *const *const c_char,
    pub config_count: usize,
    pub providers: *const *const c_char,
    pub provider_count: usize,
    pub ep_policy: ortkit_ep_policy,
    // Version 2.
    pub cache_dir: *const c_char,
    pub cache_max_bytes: u64,
    pub intra_op_spinning: ortkit_switch,
    pub inter_op_spinning: ortkit_switch,
}

impl Default for ortkit_session_options {
    fn default() -> Self {
        ortkit_session_options {
            version: ORTKIT_SESSION_OPTIONS_VERSION,
            intra_op_threads: 0,
            inter_op_threads: 0,
            graph_opt: ORTKIT_GRAPH_OPT_DEFAULT,
            exec_mode: ORTKIT_EXEC_DEFAULT,
            mem_pattern: ORTKIT_SWITCH_DEFAULT,
            cpu_arena: ORTKIT_SWITCH_DEFAULT,
            profile_prefix: std::ptr::null(),
            optimized_model_path: std::ptr::null(),
            config_keys: std::ptr::null(),
            config_values: std::ptr::null(),
            config_count: 0,
            providers: std::ptr::null(),
            provider_count: 0,
            ep_policy: ORTKIT_EP_FALLBACK,
            cache_dir: std::ptr::null(),
            cache_max_bytes: 0,
            intra_op_spinning: ORTKIT_SWITCH_DEFAULT,
            inter_op_spinning: ORTKIT_SWITCH_DEFAULT,
        }
    }
}

/// What happened to a requested execution provider (library-allocated, read
/// by pointer: a prefix).
#[repr(C)]
pub struct ortkit_provider_status {
    pub requested: *const c_char,
    pub name: *const c_char,
    pub active: c_int,
    pub reason: *const c_char,
    pub detail: *const c_char,
    pub method: *const c_char,
    pub probe: *const c_char,
}

pub type ortkit_cache_state = c_int;
pub const ORTKIT_CACHE_OFF: ortkit_cache_state = 0;
pub const ORTKIT_CACHE_HIT: ortkit_cache_state = 1;
pub const ORTKIT_CACHE_FILLED: ortkit_cache_state = 2;
pub const ORTKIT_CACHE_SKIPPED: ortkit_cache_state = 3;

/// One dimension: an array element the caller indexes, so frozen.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ortkit_dim {
    pub value: i64,
    pub symbol: *const c_char,
}

/// An input or output of a session (library-allocated, read by pointer: a
/// prefix).
#[repr(C)]
pub struct ortkit_io_info {
    pub name: *const c_char,
    pub kind: ortkit_value_kind,
    pub type_: ortkit_type,
    pub rank: usize,
    pub dims: *const ortkit_dim,
    pub value_type: *const ortkit_value_type,
}

// ---- run.h ------------------------------------------------------------------

/// Opaque: lets another thread cancel a run in progress.
#[repr(C)]
pub struct ortkit_run_control {
    _private: [u8; 0],
}

extern "C" {
    // common.h
    pub fn ortkit_error_last() -> *const c_char;
    pub fn ortkit_error_code() -> c_int;
    pub fn ortkit_status_name(code: c_int) -> *const c_char;
    pub fn ortkit_version() -> *const c_char;
    pub fn ortkit_free(ptr: *mut c_void);
    pub fn ortkit_type_name(type_: ortkit_type) -> *const c_char;
    pub fn ortkit_type_bits(type_: ortkit_type) -> usize;

    // tensor.h
    pub fn ortkit_tensor_new(
        out: *mut *mut ortkit_tensor,
        type_: ortkit_type,
        shape: *const i64,
        rank: usize,
    ) -> c_int;
    pub fn ortkit_tensor_borrow(
        out: *mut *mut ortkit_tensor,
        type_: ortkit_type,
        shape: *const i64,
        rank: usize,
        data: *mut c_void,
        nbytes: usize,
    ) -> c_int;
    pub fn ortkit_tensor_new_strings(
        out: *mut *mut ortkit_tensor,
        shape: *const i64,
        rank: usize,
        strings: *const *const c_char,
    ) -> c_int;
    pub fn ortkit_tensor_free(tensor: *mut ortkit_tensor);
    pub fn ortkit_tensor_type(tensor: *const ortkit_tensor) -> ortkit_type;
    pub fn ortkit_tensor_rank(tensor: *const ortkit_tensor) -> usize;
    pub fn ortkit_tensor_shape(tensor: *const ortkit_tensor) -> *const i64;
    pub fn ortkit_tensor_count(tensor: *const ortkit_tensor) -> usize;
    pub fn ortkit_tensor_nbytes(tensor: *const ortkit_tensor) -> usize;
    pub fn ortkit_tensor_data(tensor: *const ortkit_tensor) -> *mut c_void;
    pub fn ortkit_tensor_string(tensor: *const ortkit_tensor, i: usize) -> *const c_char;
    pub fn ortkit_tensor_set_string(tensor: *mut ortkit_tensor, i: usize, value: *const c_char)
        -> c_int;
    pub fn ortkit_tensor_describe(tensor: *const ortkit_tensor, buf: *mut c_char, size: usize);
    pub fn ortkit_npy_read(out: *mut *mut ortkit_tensor, path: *const c_char) -> c_int;
    pub fn ortkit_npy_write(path: *const c_char, tensor: *const ortkit_tensor) -> c_int;

    // runtime.h
    pub fn ortkit_runtime_open(
        out: *mut *mut ortkit_runtime,
        opts: *const ortkit_runtime_options,
    ) -> c_int;
    pub fn ortkit_runtime_free(rt: *mut ortkit_runtime);
    pub fn ortkit_runtime_path(rt: *const ortkit_runtime) -> *const c_char;
    pub fn ortkit_runtime_source(rt: *const ortkit_runtime) -> *const c_char;
    pub fn ortkit_runtime_version(rt: *const ortkit_runtime) -> *const c_char;
    pub fn ortkit_runtime_api_level(rt: *const ortkit_runtime) -> c_int;
    pub fn ortkit_runtime_provider_count(rt: *const ortkit_runtime) -> usize;
    pub fn ortkit_runtime_provider(rt: *const ortkit_runtime, i: usize) -> *const c_char;

    // resolve.h
    pub fn ortkit_resolve_verdict_name(verdict: ortkit_resolve_verdict) -> *const c_char;
    pub fn ortkit_runtime_resolve(
        out: *mut *mut ortkit_resolution,
        opts: *const ortkit_runtime_options,
        host: *const ortkit_host,
        flags: c_uint,
    ) -> c_int;
    pub fn ortkit_resolution_free(res: *mut ortkit_resolution);
    pub fn ortkit_resolution_status(res: *const ortkit_resolution) -> c_int;
    pub fn ortkit_resolution_error(res: *const ortkit_resolution) -> *const c_char;
    pub fn ortkit_resolution_path(res: *const ortkit_resolution) -> *const c_char;
    pub fn ortkit_resolution_source(res: *const ortkit_resolution) -> *const c_char;
    pub fn ortkit_resolution_measured(res: *const ortkit_resolution) -> *const c_char;
    pub fn ortkit_resolution_step_count(res: *const ortkit_resolution) -> usize;
    pub fn ortkit_resolution_step(
        res: *const ortkit_resolution,
        i: usize,
    ) -> *const ortkit_resolve_step;
    pub fn ortkit_resolution_pin(
        res: *const ortkit_resolution,
        from: *mut *const c_char,
    ) -> *const c_char;
    pub fn ortkit_resolution_choice(res: *const ortkit_resolution) -> *const ortkit_bundle_choice;
    pub fn ortkit_runtime_open_resolved(
        out: *mut *mut ortkit_runtime,
        res: *const ortkit_resolution,
        opts: *const ortkit_runtime_options,
    ) -> c_int;

    // session.h
    pub fn ortkit_session_open(
        out: *mut *mut ortkit_session,
        rt: *mut ortkit_runtime,
        path: *const c_char,
        opts: *const ortkit_session_options,
    ) -> c_int;
    pub fn ortkit_session_open_memory(
        out: *mut *mut ortkit_session,
        rt: *mut ortkit_runtime,
        data: *const c_void,
        size: usize,
        opts: *const ortkit_session_options,
    ) -> c_int;
    pub fn ortkit_session_free(session: *mut ortkit_session);
    pub fn ortkit_session_provider_count(session: *const ortkit_session) -> usize;
    pub fn ortkit_session_provider(
        session: *const ortkit_session,
        i: usize,
    ) -> *const ortkit_provider_status;
    pub fn ortkit_session_cache(
        session: *const ortkit_session,
        reason: *mut *const c_char,
    ) -> ortkit_cache_state;
    pub fn ortkit_runtime_provider_check(
        out: *mut *mut ortkit_provider_status,
        rt: *mut ortkit_runtime,
        provider: *const c_char,
    ) -> c_int;
    pub fn ortkit_provider_status_free(status: *mut ortkit_provider_status);
    pub fn ortkit_session_input_count(session: *const ortkit_session) -> usize;
    pub fn ortkit_session_input(session: *const ortkit_session, i: usize) -> *const ortkit_io_info;
    pub fn ortkit_session_output_count(session: *const ortkit_session) -> usize;
    pub fn ortkit_session_output(session: *const ortkit_session, i: usize)
        -> *const ortkit_io_info;
    pub fn ortkit_session_input_index(session: *const ortkit_session, name: *const c_char)
        -> c_long;
    pub fn ortkit_session_output_index(
        session: *const ortkit_session,
        name: *const c_char,
    ) -> c_long;
    pub fn ortkit_io_describe(info: *const ortkit_io_info, buf: *mut c_char, size: usize);

    // run.h
    pub fn ortkit_run_control_new(
        out: *mut *mut ortkit_run_control,
        session: *mut ortkit_session,
    ) -> c_int;
    pub fn ortkit_run_control_cancel(control: *mut ortkit_run_control);
    pub fn ortkit_run_control_reset(control: *mut ortkit_run_control);
    pub fn ortkit_run_control_free(control: *mut ortkit_run_control);
    pub fn ortkit_session_run(
        session: *mut ortkit_session,
        control: *mut ortkit_run_control,
        input_names: *const *const c_char,
        inputs: *const *const ortkit_tensor,
        n_inputs: usize,
        output_names: *const *const c_char,
        n_outputs: usize,
        outputs: *mut *mut ortkit_tensor,
    ) -> c_int;
    pub fn ortkit_session_infer(
        session: *mut ortkit_session,
        inputs: *const *const ortkit_tensor,
        n_inputs: usize,
        outputs: *mut *mut ortkit_tensor,
        n_outputs: usize,
    ) -> c_int;
}
