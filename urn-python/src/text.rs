//! A Python `str` read as UTF-8, without a copy where the running interpreter allows it.
//!
//! The wheel is built for the stable ABI of Python 3.9 (`abi3-py39`), where PyO3 reads a `&str`
//! argument by encoding the `str` into a new `bytes` object and copying that into a `String`:
//! two allocations and two copies a call (what that costs: BENCHMARKS.md, Python).
//! `PyUnicode_AsUTF8AndSize` hands out the UTF-8 the `str` keeps itself (its own data when it
//! is ASCII, as every URN is; otherwise a copy CPython makes once and keeps with it) and belongs to the stable ABI from Python 3.10, so it is called
//! when the running interpreter is 3.10 or newer; 3.9 keeps PyO3's copy.

use std::borrow::Cow;
use std::sync::OnceLock;

#[cfg(not(windows))]
use pyo3::exceptions::PySystemError;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// Whether the running interpreter is 3.10 or newer; set by [`init`].
static BORROWS_UTF8: OnceLock<bool> = OnceLock::new();

/// Records the running interpreter's version (called once, when the module loads).
pub fn init(py: Python<'_>) {
    let _ = BORROWS_UTF8.set(cfg!(not(windows)) && py.version_info() >= (3, 10));
}

/// The UTF-8 text of `text`: borrowed from the `str` on Python 3.10 and newer, a copy on 3.9.
/// A `str` with a lone surrogate has no UTF-8 form: `UnicodeEncodeError`, as Python's
/// `str.encode()` raises.
pub fn utf8<'a>(text: &'a Bound<'_, PyString>) -> PyResult<Cow<'a, str>> {
    #[cfg(not(windows))]
    if BORROWS_UTF8.get().copied().unwrap_or(false) {
        return borrowed(text).map(Cow::Borrowed);
    }
    text.to_cow()
}

// `PyUnicode_AsUTF8AndSize`, declared here because PyO3 declares it only for builds whose
// minimum is 3.10; every CPython since 3.3 exports it (only 3.10 made it stable ABI), so the
// module loads on 3.9 too, where it is never called. Not on Windows: there an abi3 module
// links against `python3.dll`, which exports it only from 3.10.
#[cfg(not(windows))]
unsafe extern "C" {
    fn PyUnicode_AsUTF8AndSize(
        unicode: *mut pyo3::ffi::PyObject,
        size: *mut pyo3::ffi::Py_ssize_t,
    ) -> *const std::os::raw::c_char;
}

/// The UTF-8 buffer CPython keeps with `text` (Python 3.10 and newer only).
#[cfg(not(windows))]
fn borrowed<'a>(text: &'a Bound<'_, PyString>) -> PyResult<&'a str> {
    let mut size: pyo3::ffi::Py_ssize_t = 0;
    // SAFETY: `text` is a live `str` (the `Bound` holds a reference) and the interpreter is
    // attached (`Bound` proves it). CPython returns NULL with an exception set, or a pointer to
    // `size` bytes owned by the `str` object, never changed or freed while it lives; the slice
    // borrows `text`, so it cannot outlive the object.
    let bytes = unsafe {
        let data = PyUnicode_AsUTF8AndSize(text.as_ptr(), &mut size);
        if data.is_null() {
            return Err(PyErr::fetch(text.py()));
        }
        let len = usize::try_from(size)
            .map_err(|_| PySystemError::new_err("PyUnicode_AsUTF8AndSize: negative size"))?;
        std::slice::from_raw_parts(data.cast::<u8>(), len)
    };
    // CPython's UTF-8 is valid; checked anyway (a few ns) rather than trusted.
    std::str::from_utf8(bytes).map_err(|e| PySystemError::new_err(e.to_string()))
}
