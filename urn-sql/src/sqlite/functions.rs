//! The SQLite scalar functions `urn_key_v1(text)`, `urn_key_v2(text)`, … (one per version of
//! the key rules, [`KeyRules::VERSIONS`]) and `urn_check(text)`, written against
//! SQLite's C API so the same code serves the bundled SQLite of sqlx, diesel and rusqlite
//! (registered per connection or for every new connection) and the loadable extension
//! `urn-sqlite-ext`, which calls [`super::register_on_handle`] (there `libsqlite3_sys`, built
//! with `loadable_extension`, routes every call through the host's API table).
//!
//! Unsafe code, and why it is sound: SQLite calls the callbacks with a valid context and
//! `argc` valid values (`argc` is 1: the functions are registered with one argument); the text
//! pointer and its byte count come from the same value and stay valid until the callback
//! returns; results are copied by SQLite (`SQLITE_TRANSIENT`). A panic never unwinds into C:
//! the callbacks catch it and report an SQL error.

use core::ffi::{c_char, c_int};
use core::ptr;
use std::ffi::CString;
use std::panic::{AssertUnwindSafe, catch_unwind};

use libsqlite3_sys as ffi;
use urn_core::{KeyRules, UrnRef};

/// The signature of a scalar function's callback.
type ScalarFn =
    unsafe extern "C" fn(*mut ffi::sqlite3_context, c_int, *mut *mut ffi::sqlite3_value);

/// Registers a key function per version of the key rules (`urn_key_v1`, `urn_key_v2`, …: each
/// [`KeyRules::sql_function`] of [`KeyRules::VERSIONS`]) and `urn_check` on `db`
/// (deterministic and innocuous, so they may be used in generated columns, CHECK constraints
/// and indexes even with `trusted_schema=OFF`). Returns SQLite's result code.
///
/// # Safety
/// `db` must be an open connection handle (and, in a loadable extension, the API table must be
/// initialised).
pub(crate) unsafe fn register(db: *mut ffi::sqlite3) -> c_int {
    let flags = ffi::SQLITE_UTF8 | ffi::SQLITE_DETERMINISTIC | ffi::SQLITE_INNOCUOUS;
    // Each key function's rules are its user data: a `&'static KeyRules` of the versions'
    // table, valid for as long as the program runs.
    let keys = KeyRules::VERSIONS.iter().filter_map(|rules| {
        let name = CString::new(rules.sql_function()?).ok()?;
        Some((
            name,
            key as ScalarFn,
            ptr::from_ref(rules).cast_mut().cast(),
        ))
    });
    let check = (
        c"urn_check".to_owned(),
        urn_check as ScalarFn,
        ptr::null_mut(),
    );
    for (name, function, data) in keys.chain([check]) {
        // SAFETY: `db` is open (the caller's contract); the name is NUL-terminated (SQLite
        // copies it); `data` is null or a `&'static KeyRules`; no destructor is passed.
        let rc = unsafe {
            ffi::sqlite3_create_function_v2(
                db,
                name.as_ptr(),
                1,
                flags,
                data,
                Some(function),
                None,
                None,
                None,
            )
        };
        if rc != ffi::SQLITE_OK {
            return rc;
        }
    }
    ffi::SQLITE_OK
}

/// What a function returns for one argument.
enum Answer {
    Null,
    Text(String),
    Error(String),
}

/// Runs `f` on the URN of the single argument and hands its answer to SQLite, or `invalid` on
/// the parser's error (text that is not UTF-8 included). NULL in gives NULL out.
///
/// # Safety
/// As for any scalar function callback: a valid context and `argc` valid values.
unsafe fn answer(
    ctx: *mut ffi::sqlite3_context,
    argc: c_int,
    argv: *mut *mut ffi::sqlite3_value,
    name: &str,
    f: impl Fn(UrnRef<'_>) -> Answer,
    invalid: fn(urn_core::ParseError) -> Answer,
) {
    let answer = catch_unwind(AssertUnwindSafe(|| {
        if argc != 1 || argv.is_null() {
            return Answer::Error(format!("{name}() takes one argument"));
        }
        // SAFETY: SQLite passes `argc` (= 1) valid value pointers.
        let value = unsafe { *argv };
        // SAFETY: `value` is valid for the duration of the callback.
        if unsafe { ffi::sqlite3_value_type(value) } == ffi::SQLITE_NULL {
            return Answer::Null;
        }
        // SAFETY: as above; the text pointer stays valid until the next call on `value`, and
        // sqlite3_value_bytes after sqlite3_value_text gives its length in bytes.
        let bytes = unsafe {
            let text = ffi::sqlite3_value_text(value);
            let len = usize::try_from(ffi::sqlite3_value_bytes(value)).unwrap_or(0);
            if text.is_null() {
                &[][..]
            } else {
                core::slice::from_raw_parts(text, len)
            }
        };
        // Text that is not UTF-8 gets urn-core's diagnosis, as in every engine.
        match UrnRef::parse_bytes(bytes) {
            Ok(urn) => f(urn),
            Err(e) => invalid(e),
        }
    }))
    .unwrap_or_else(|_| Answer::Error(format!("{name}(): internal error")));
    match answer {
        // SAFETY: `ctx` is valid during the callback.
        Answer::Null => unsafe { ffi::sqlite3_result_null(ctx) },
        Answer::Text(text) => match c_int::try_from(text.len()) {
            // SAFETY: pointer and length describe `text`; SQLite copies it (TRANSIENT).
            Ok(len) => unsafe {
                ffi::sqlite3_result_text(
                    ctx,
                    text.as_ptr().cast::<c_char>(),
                    len,
                    ffi::SQLITE_TRANSIENT(),
                )
            },
            // SAFETY: `ctx` is valid during the callback.
            Err(_) => unsafe { ffi::sqlite3_result_error_toobig(ctx) },
        },
        Answer::Error(message) => {
            let len = c_int::try_from(message.len()).unwrap_or(c_int::MAX);
            // SAFETY: pointer and length describe `message`; SQLite copies it.
            unsafe { ffi::sqlite3_result_error(ctx, message.as_ptr().cast::<c_char>(), len) }
        }
    }
}

/// A key function (`urn_key_v2(text)`, …): the canonical key under the rules its user data
/// names (`Urn::key_with`); an invalid URN is an error carrying the parser's message.
unsafe extern "C" fn key(
    ctx: *mut ffi::sqlite3_context,
    argc: c_int,
    argv: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: `ctx` is valid during the callback; its user data is the `&'static KeyRules`
    // `register` gave this function.
    let rules = unsafe { ffi::sqlite3_user_data(ctx).cast::<KeyRules>().as_ref() };
    let Some(&rules) = rules else { return };
    let name = rules.sql_function().unwrap_or("urn_key");
    // SAFETY: forwarded from SQLite's call.
    unsafe {
        answer(
            ctx,
            argc,
            argv,
            name,
            |urn| Answer::Text(urn.key_with(rules).into_string()),
            |e| Answer::Error(e.to_string()),
        )
    }
}

/// `urn_check(text)`: NULL for a valid URN, otherwise the parser's message.
unsafe extern "C" fn urn_check(
    ctx: *mut ffi::sqlite3_context,
    argc: c_int,
    argv: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: forwarded from SQLite's call.
    unsafe {
        answer(
            ctx,
            argc,
            argv,
            "urn_check",
            |_| Answer::Null,
            |e| Answer::Text(e.to_string()),
        )
    }
}
