//! A Python `str` read as UTF-8, without a copy where the running interpreter allows it.
//!
//! The wheel is built for the stable ABI of CPython 3.9 (`abi3-py39`), where PyO3 reads a
//! `&str` by encoding the `str` into a new `bytes` object and copying that into a `String`: two
//! allocations and two copies a call.
//! `PyUnicode_AsUTF8AndSize` hands out the UTF-8 the `str` keeps itself (its own data when it
//! is ASCII, as every URN is) and belongs to the stable ABI from 3.10, so this build calls it
//! when the running interpreter is 3.10 or newer; on 3.9 and on Windows it keeps PyO3's copy
//! (`build.rs` says where, cfg `urnkit_utf8_by_ffi`). Other builds (PyPy, a version-specific
//! CPython build) have PyO3 read in place already.
//!
//! Text with a non-ASCII character is never a URN; CPython makes its UTF-8 once and keeps it
//! with the `str` (as for any extension that reads a `str` as UTF-8).

use std::borrow::Cow;

use pyo3::prelude::*;
use pyo3::types::PyString;

/// The UTF-8 text of `text`: borrowed where the interpreter allows it (see the module's doc), a
/// copy otherwise. A `str` with a lone surrogate has no UTF-8 form: `UnicodeEncodeError`, as
/// Python's `str.encode()` raises.
pub fn utf8<'a>(text: &'a Bound<'_, PyString>) -> PyResult<Cow<'a, str>> {
    #[cfg(urnkit_utf8_by_ffi)]
    if let Some(text) = by_ffi::borrowed(text) {
        return text.map(Cow::Borrowed);
    }
    text.to_cow()
}

/// `PyUnicode_AsUTF8AndSize` on an abi3-py39 build, when the interpreter is 3.10 or newer.
#[cfg(urnkit_utf8_by_ffi)]
mod by_ffi {
    use std::sync::OnceLock;

    use pyo3::exceptions::PySystemError;
    use pyo3::prelude::*;
    use pyo3::types::PyString;

    /// Whether the running interpreter is 3.10 or newer (asked on the first call).
    static AVAILABLE: OnceLock<bool> = OnceLock::new();

    // Declared here because PyO3 declares it only for builds whose minimum is 3.10. Every
    // CPython since 3.3 exports it (3.10 made it stable ABI), so the module also loads on 3.9,
    // where it is not called.
    unsafe extern "C" {
        fn PyUnicode_AsUTF8AndSize(
            unicode: *mut pyo3::ffi::PyObject,
            size: *mut pyo3::ffi::Py_ssize_t,
        ) -> *const std::os::raw::c_char;
    }

    /// The UTF-8 buffer CPython keeps with `text`; `None` on 3.9.
    pub(super) fn borrowed<'a>(text: &'a Bound<'_, PyString>) -> Option<PyResult<&'a str>> {
        if !*AVAILABLE.get_or_init(|| text.py().version_info() >= (3, 10)) {
            return None;
        }
        let mut size: pyo3::ffi::Py_ssize_t = 0;
        // SAFETY: `text` is a live `str` (the `Bound` holds a reference) and the interpreter is
        // attached (`Bound` proves it). CPython returns NULL with an exception set, or a
        // pointer to `size` bytes owned by the `str` object, never changed or freed while it
        // lives; the slice borrows `text`, so it cannot outlive the object.
        let bytes = unsafe {
            let data = PyUnicode_AsUTF8AndSize(text.as_ptr(), &mut size);
            if data.is_null() {
                return Some(Err(PyErr::fetch(text.py())));
            }
            let Ok(len) = usize::try_from(size) else {
                return Some(Err(PySystemError::new_err(
                    "PyUnicode_AsUTF8AndSize: negative size",
                )));
            };
            std::slice::from_raw_parts(data.cast::<u8>(), len)
        };
        // CPython's UTF-8 is valid; checked anyway (a few ns) rather than trusted.
        Some(std::str::from_utf8(bytes).map_err(|e| PySystemError::new_err(e.to_string())))
    }
}
