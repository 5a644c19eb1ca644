//! Errors: ortkit's status code and message, read on the failing thread.
use crate::sys;
use crate::util::{cstr_owned, cstr_str};
use std::fmt;
use std::os::raw::c_int;

/// ortkit's status codes (`enum ortkit_status` in `ortkit/common.h`).  The C
/// list only grows at the end; a code this crate does not know yet comes as
/// `Other`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Code {
    /// `ORTKIT_E_INVALID_ARG`: a bad option value (or, from this crate, a
    /// string with a NUL byte in it).
    InvalidArg,
    /// `ORTKIT_E_NOMEM`.
    NoMem,
    /// `ORTKIT_E_IO`: a file is missing, unreadable or unwritable.
    Io,
    /// `ORTKIT_E_RUNTIME_NOT_FOUND`: no ONNX Runtime library was found.
    RuntimeNotFound,
    /// `ORTKIT_E_RUNTIME_INVALID`: not a library, or not ONNX Runtime.
    RuntimeInvalid,
    /// `ORTKIT_E_RUNTIME_TOO_OLD`: older than ortkit accepts (1.17), or than
    /// [`RuntimeBuilder::min_version`](crate::RuntimeBuilder::min_version) asks.
    RuntimeTooOld,
    /// `ORTKIT_E_MODEL`: not valid ONNX, or ONNX Runtime refuses it.
    Model,
    /// `ORTKIT_E_PROVIDER`: an execution provider could not be added.
    Provider,
    /// `ORTKIT_E_SHAPE`: a tensor's type or shape does not fit.
    Shape,
    /// `ORTKIT_E_NAME`: an unknown, missing or repeated input/output name.
    Name,
    /// `ORTKIT_E_RUN`: ONNX Runtime failed while running the model.
    Run,
    /// `ORTKIT_E_CANCELLED`: the run was cancelled.
    Cancelled,
    /// `ORTKIT_E_FORMAT`: a malformed file (.npy, JSON, ...).
    Format,
    /// `ORTKIT_E_UNSUPPORTED`: valid, but not supported by ortkit or this runtime.
    Unsupported,
    /// `ORTKIT_E_ORT`: any other error reported by ONNX Runtime.
    Ort,
    /// A code newer than this crate.
    Other(i32),
}

impl Code {
    /// The code for a C status value.
    pub fn from_raw(code: i32) -> Code {
        match code as c_int {
            sys::ORTKIT_E_INVALID_ARG => Code::InvalidArg,
            sys::ORTKIT_E_NOMEM => Code::NoMem,
            sys::ORTKIT_E_IO => Code::Io,
            sys::ORTKIT_E_RUNTIME_NOT_FOUND => Code::RuntimeNotFound,
            sys::ORTKIT_E_RUNTIME_INVALID => Code::RuntimeInvalid,
            sys::ORTKIT_E_RUNTIME_TOO_OLD => Code::RuntimeTooOld,
            sys::ORTKIT_E_MODEL => Code::Model,
            sys::ORTKIT_E_PROVIDER => Code::Provider,
            sys::ORTKIT_E_SHAPE => Code::Shape,
            sys::ORTKIT_E_NAME => Code::Name,
            sys::ORTKIT_E_RUN => Code::Run,
            sys::ORTKIT_E_CANCELLED => Code::Cancelled,
            sys::ORTKIT_E_FORMAT => Code::Format,
            sys::ORTKIT_E_UNSUPPORTED => Code::Unsupported,
            sys::ORTKIT_E_ORT => Code::Ort,
            other => Code::Other(other),
        }
    }

    /// The C status value.
    pub fn raw(self) -> i32 {
        match self {
            Code::InvalidArg => sys::ORTKIT_E_INVALID_ARG,
            Code::NoMem => sys::ORTKIT_E_NOMEM,
            Code::Io => sys::ORTKIT_E_IO,
            Code::RuntimeNotFound => sys::ORTKIT_E_RUNTIME_NOT_FOUND,
            Code::RuntimeInvalid => sys::ORTKIT_E_RUNTIME_INVALID,
            Code::RuntimeTooOld => sys::ORTKIT_E_RUNTIME_TOO_OLD,
            Code::Model => sys::ORTKIT_E_MODEL,
            Code::Provider => sys::ORTKIT_E_PROVIDER,
            Code::Shape => sys::ORTKIT_E_SHAPE,
            Code::Name => sys::ORTKIT_E_NAME,
            Code::Run => sys::ORTKIT_E_RUN,
            Code::Cancelled => sys::ORTKIT_E_CANCELLED,
            Code::Format => sys::ORTKIT_E_FORMAT,
            Code::Unsupported => sys::ORTKIT_E_UNSUPPORTED,
            Code::Ort => sys::ORTKIT_E_ORT,
            Code::Other(c) => c,
        }
    }

    /// ortkit's constant name for the code: `"ORTKIT_E_IO"` (`ortkit_status_name`).
    pub fn name(self) -> &'static str {
        // The names are string literals in the library, alive for the process.
        unsafe { cstr_str(sys::ortkit_status_name(self.raw())) }.unwrap_or("?")
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A failure: ortkit's code and its message, which names the path, symbol,
/// tensor, provider or option involved (`cannot open model 'm.onnx': ...`).
///
/// Displayed as the message alone, as the `ortkit` tool prints it; `{:?}`
/// shows the code too.
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    code: Code,
    message: String,
}

/// `std::result::Result` with this crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// An error made by this crate (a check ortkit cannot make, such as a NUL
    /// byte in a Rust string), in ortkit's terms.
    pub(crate) fn new(code: Code, message: impl Into<String>) -> Error {
        Error { code, message: message.into() }
    }

    /// The failure ortkit just recorded on this thread for a call that
    /// returned `rc`.  Must be called right after that call, on the same
    /// thread, before any other ortkit call (`ortkit_error_last()` is per
    /// thread and the next failure replaces it).
    pub(crate) fn last(rc: c_int) -> Error {
        let message = unsafe { cstr_owned(sys::ortkit_error_last()) };
        let code = if rc != 0 { rc } else { unsafe { sys::ortkit_error_code() } };
        Error { code: Code::from_raw(code), message }
    }

    /// ortkit's status code.
    pub fn code(&self) -> Code {
        self.code
    }

    /// ortkit's message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.name(), self.message)
    }
}

impl std::error::Error for Error {}

/// `Ok(())` for 0; otherwise the failure ortkit recorded for it.
#[inline]
pub(crate) fn check(rc: c_int) -> Result<()> {
    if rc == 0 {
        Ok(())
    } else {
        Err(Error::last(rc))
    }
}
