//! C strings both ways.
use crate::error::{Code, Error, Result};
use std::ffi::{CStr, CString, OsStr};
use std::os::raw::c_char;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// A path as the C API takes it.
pub(crate) fn c_path(path: &Path) -> Result<CString> {
    CString::new(path.as_os_str().as_bytes())
        .map_err(|_| Error::new(Code::InvalidArg, format!("path {:?} holds a NUL byte", path)))
}

/// A string as the C API takes it; `what` names it in the error.
pub(crate) fn c_string(s: &str, what: &str) -> Result<CString> {
    CString::new(s).map_err(|_| Error::new(Code::InvalidArg, format!("{} {:?} holds a NUL byte", what, s)))
}

/// A C string the library keeps alive for `'a`, as `&str`: `Some("")` for
/// NULL, `None` when it is not UTF-8.
///
/// # Safety
/// `p` is NULL or a NUL-terminated string that outlives `'a`.
pub(crate) unsafe fn cstr_str<'a>(p: *const c_char) -> Option<&'a str> {
    if p.is_null() {
        return Some("");
    }
    CStr::from_ptr(p).to_str().ok()
}

/// A C string copied into a `String` (lossily); "" for NULL.
///
/// # Safety
/// `p` is NULL or a NUL-terminated string.
pub(crate) unsafe fn cstr_owned(p: *const c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    CStr::from_ptr(p).to_string_lossy().into_owned()
}

/// A C string the library keeps alive for `'a`, as a `&Path`; "" for NULL.
///
/// # Safety
/// As for [`cstr_str`].
pub(crate) unsafe fn cstr_path<'a>(p: *const c_char) -> &'a Path {
    if p.is_null() {
        return Path::new("");
    }
    Path::new(OsStr::from_bytes(CStr::from_ptr(p).to_bytes()))
}

/// C strings kept alive for an options struct that points at them.
#[derive(Default)]
pub(crate) struct Strings(Vec<CString>);

impl Strings {
    /// Keeps `s` and gives its pointer (a CString's buffer does not move
    /// when the CString does).
    pub(crate) fn keep(&mut self, s: CString) -> *const c_char {
        let p = s.as_ptr();
        self.0.push(s);
        p
    }
}
