//! `urn_pg`: urn-sql's PostgreSQL objects (the domains `urn` and `urn_key`, `urn_key_v1`, `urn_key_v2`,
//! `urn_check` and friends) computed by urn-core inside the server.
//!
//! The portable SQL (urn-sql's migration) stays the default; this extension replaces the same
//! objects, with the same names, arguments and results bit for bit, by native code (all but
//! `urn_key_index`, whose inlined SQL body is cheaper than any call: see `sql/urn_pg.sql`). A table
//! written for the portable SQL works unchanged, and a database moves between the two without
//! re-keying (see the README).
//!
//! Every function is declared by hand in `sql/urn_pg.template.sql` (`sql = false` here): the
//! script must adopt the objects of a portable install before replacing them, in an order
//! pgrx's generated SQL cannot express, and the parameters are the domains, which Rust cannot
//! name.
//!
//! Arguments arrive as bytes (`&[u8]`, text and bytea share the varlena layout), not `&str`:
//! pgrx panics on non-UTF-8 text in a database whose encoding is not UTF-8, and a URN's error
//! should be the parser's message, not a conversion panic.

use pgrx::datum::Internal;
use pgrx::pg_sys::panic::ErrorReport;
use pgrx::prelude::*;
use urn_core::{KeyRules, ParseError, UrnKey, UrnRef};

::pgrx::pg_module_magic!(name, version);

pgrx::extension_sql_file!("../sql/urn_pg.sql", name = "urn_pg_objects", finalize);

/// Parses a URN with RFC 8141's grammar, as the `urn` domain does. Only a database whose
/// encoding is not UTF-8 can hand over bytes that are not UTF-8: urn-core's diagnosis says so
/// (or names the rule broken before them), as every engine does.
fn parse(bytes: &[u8]) -> Result<UrnRef<'_>, String> {
    UrnRef::parse_bytes(bytes).map_err(|e: ParseError| e.to_string())
}

/// Why `bytes` is not a value of the `urn_key` domain (an RFC 8141 section 3 canonical key, no
/// components), or `None`. One parse on the way through; the message is only built for a
/// refusal.
fn key_problem(bytes: &[u8]) -> Option<String> {
    // RFC 8141's grammar: `UrnKey::parse_with` alone would also take RFC 2141 keys.
    match parse(bytes) {
        Err(message) => Some(message),
        Ok(urn) if urn.rfc8141_key().as_str() == urn.as_str() => None,
        Ok(urn) => Some(
            UrnKey::parse_with(urn.as_str(), KeyRules::Rfc8141)
                .err()
                .map_or_else(
                    || "invalid URN: not a canonical URN key".to_owned(),
                    |e| e.to_string(),
                ),
        ),
    }
}

/// Raises an SQL error (`check_violation`, as the portable domains' CHECKs do) carrying the
/// parser's message, naming the domain and constraint in the detail.
fn raise_check_violation(message: String, domain: &str, constraint: &str) -> ! {
    ErrorReport::new(PgSqlErrorCode::ERRCODE_CHECK_VIOLATION, message, "urn_pg")
        .set_detail(format!(
            "value for domain {domain} violates check constraint \"{constraint}\""
        ))
        .report(PgLogLevel::ERROR);
    // report(ERROR) unwinds into pgrx's guard, which raises the error; it never returns.
    unreachable!("ereport(ERROR) returned")
}

/// The parsed URN of a `urn` argument. Values of the domain were checked on the way in; one
/// that was not (stored before the constraint, or under `NOT VALID`) raises the parser's error.
fn urn_arg(bytes: &[u8]) -> UrnRef<'_> {
    parse(bytes).unwrap_or_else(|message| raise_check_violation(message, "urn", "urn_syntax"))
}

/// `urn` domain CHECK: true, or an error with the parser's message (rule and byte).
#[pg_extern(sql = false)]
fn urn_domain_check(value: &[u8]) -> bool {
    urn_arg(value);
    true
}

/// `urn_key` domain CHECK: true, or an error saying why the text is not a canonical key.
#[pg_extern(sql = false)]
fn urn_key_domain_check(value: &[u8]) -> bool {
    if let Some(message) = key_problem(value) {
        raise_check_violation(message, "urn_key", "urn_key_canonical");
    }
    true
}

/// `urn_check(text)`: NULL for a valid URN, otherwise the parser's message.
#[pg_extern(sql = false)]
fn urn_check(value: &[u8]) -> Option<String> {
    parse(value).err()
}

/// `urn_valid(text)`: whether the text is a valid RFC 8141 URN.
#[pg_extern(sql = false)]
fn urn_valid(value: &[u8]) -> bool {
    parse(value).is_ok()
}

/// Declares one key function per version of the key rules (urn-core's `key_versions!` table):
/// `urn_key_v1(urn)`, `urn_key_v2(urn)`, …, each urn-core's `Urn::key_with` of its version.
macro_rules! key_functions {
    ($($(#[$doc:meta])* $variant:ident => $function:ident;)*) => {
        $(
            #[doc = concat!("`", stringify!($function), "(urn)`: urn-core's `Urn::key_with(KeyRules::", stringify!($variant), ")`.")]
            #[pg_extern(sql = false)]
            fn $function(urn: &[u8], fcinfo: pg_sys::FunctionCallInfo) -> Internal {
                key_under(KeyRules::$variant, urn, fcinfo)
            }
        )*
    };
}
urn_core::key_versions!(key_functions);

/// The key of `urn` (the first argument of the call `fcinfo`) under `rules`.
///
/// A keyed table's generated column calls it for every row written, so it copies as little as
/// it can: a URN that is its own key comes back as the argument's own value, and any other key
/// is copied once, from urn-core's (mostly inline) buffer into PostgreSQL's memory, with no Rust
/// `String` in between (measured in urn-sql's benchmarks; see the README).
fn key_under(rules: KeyRules, urn: &[u8], fcinfo: pg_sys::FunctionCallInfo) -> Internal {
    let key = urn_arg(urn).key_with(rules);
    let text = key.as_str().as_bytes();
    if text.as_ptr() == urn.as_ptr() && text.len() == urn.len() {
        // SAFETY: PostgreSQL called this function with `fcinfo`, whose first argument (not
        // NULL: the function is STRICT) pgrx read as `urn`.
        if let Some(datum) = unsafe { own_datum(fcinfo, urn) } {
            return Internal::from(Some(datum));
        }
    }
    Internal::from(text.into_datum())
}

/// The first argument's datum, when `bytes` is its whole content where it lies: not a copy
/// that PostgreSQL decompressed or fetched from TOAST for pgrx. Returning an argument unchanged
/// is how PostgreSQL's own functions (`text_larger`) return one; a toasted datum must not be
/// returned as a text value, so anything but a plain in-line varlena is copied instead.
///
/// # Safety
/// `fcinfo` must be the call's own, with a non-NULL first argument from which `bytes` was read.
unsafe fn own_datum(fcinfo: pg_sys::FunctionCallInfo, bytes: &[u8]) -> Option<pg_sys::Datum> {
    // SAFETY: the caller's contract.
    let datum = unsafe { pgrx::fcinfo::pg_getarg_datum(fcinfo, 0) }?;
    let start = datum.cast_mut_ptr::<u8>().cast_const();
    // An in-line varlena has a 1-byte (short) or a 4-byte header before its bytes; a copy
    // lies in memory of its own, never inside the original, so neither address can match it.
    let in_place = [1, 4]
        .iter()
        .any(|&header| start.wrapping_add(header) == bytes.as_ptr());
    in_place.then_some(datum)
}

/// `urn_rfc8141_key(urn)`: the RFC 8141 section 3 key alone (no namespace rules).
#[pg_extern(sql = false)]
fn urn_rfc8141_key(urn: &[u8]) -> String {
    urn_arg(urn).rfc8141_key().into_string()
}

/// `urn_nid(urn)`: the NID as written.
#[pg_extern(sql = false)]
fn urn_nid(urn: &[u8]) -> &str {
    urn_arg(urn).nid()
}

/// `urn_nss(urn)`: the NSS as written (percent-encoding kept).
#[pg_extern(sql = false)]
fn urn_nss(urn: &[u8]) -> &str {
    urn_arg(urn).nss()
}

/// `urn_pg_invalidate_relcache()`: makes every session rebuild its cached relation data at its
/// next transaction. PostgreSQL caches an index's expressions with SQL functions inlined, and
/// replacing a function does not invalidate that cache: had `urn_key_index` changed its code in
/// a move (it was native code at first), a session that had used a keyed table would fail
/// `ON CONFLICT (urn_key_index(urn_key))` ("no unique or exclusion constraint matching") until
/// it reconnected. The install script and `sql/to-portable.sql` call it, so no future change
/// of a function in an index expression can do that.
#[pg_extern(sql = false)]
fn urn_pg_invalidate_relcache() {
    // SAFETY: a plain call into PostgreSQL with no arguments, inside a transaction (pgrx's
    // guard turns an error raised in it into a Rust panic and back).
    unsafe { pgrx::pg_sys::CacheInvalidateRelcacheAll() }
}

/// Raises a Rust panic, to show that pgrx turns it into an SQL error (built for tests only).
#[cfg(any(test, feature = "pg_test"))]
#[allow(clippy::panic, reason = "the point of the function")]
#[pg_extern]
fn urn_pg_test_panic(message: &str) -> bool {
    panic!("{message}")
}

#[cfg(any(test, feature = "pg_test"))]
#[allow(clippy::unwrap_used, clippy::panic, reason = "tests")]
#[pg_schema]
mod tests {
    use pgrx::prelude::*;

    fn text(query: &str) -> Option<String> {
        Spi::get_one::<String>(query).unwrap_or_else(|e| panic!("{query}: {e}"))
    }

    #[pg_test]
    fn respellings_share_a_key() {
        for urn in [
            "URN:ISBN:0-395-36341-1",
            "urn:isbn:0395363411",
            "urn:Isbn:039536341-1?=q",
        ] {
            for function in ["urn_key_v1", "urn_key_v2"] {
                assert_eq!(
                    text(&format!("SELECT {function}('{urn}')")).as_deref(),
                    Some("urn:isbn:0395363411")
                );
            }
        }
        // V2's own rules: a DOI in its two URN forms.
        assert_eq!(
            text("SELECT urn_key_v2('urn:doi:10.123:ABC%2Fd')").as_deref(),
            Some("urn:doi:10.123/abc/d")
        );
        assert_eq!(
            text("SELECT urn_key_v1('urn:doi:10.123:ABC%2Fd')").as_deref(),
            Some("urn:doi:10.123:ABC%2Fd")
        );
    }

    #[pg_test]
    fn check_gives_the_parser_message() {
        assert_eq!(
            text("SELECT urn_check('urn:example:a%zz')").as_deref(),
            Some("invalid URN: '%' at byte 13 in the NSS must be followed by two hex digits")
        );
        assert_eq!(text("SELECT urn_check('urn:example:a')"), None);
    }

    #[pg_test(error = "invalid URN: the NID must be followed by ':' (byte 7)")]
    fn the_domain_raises_the_parser_message() {
        Spi::run("SELECT 'urn:abc'::urn").unwrap();
    }

    #[pg_test(error = "invalid URN: not a canonical URN key: byte 4 differs from the key")]
    fn the_key_domain_rejects_a_respelling() {
        Spi::run("SELECT 'urn:EXAMPLE:a'::urn_key").unwrap();
    }

    /// A panic in Rust becomes an ordinary SQL error: PL/pgSQL catches it like any other, with
    /// the panic's message, and the session goes on.
    #[pg_test]
    fn a_panic_is_an_sql_error_and_the_session_goes_on() {
        Spi::run("CREATE TEMP TABLE caught (message text)").unwrap();
        Spi::run(
            "DO $$ BEGIN PERFORM urn_pg_test_panic('boom'); \
             EXCEPTION WHEN OTHERS THEN INSERT INTO caught VALUES (SQLERRM); END $$",
        )
        .unwrap();
        assert_eq!(text("SELECT message FROM caught").as_deref(), Some("boom"));
        assert_eq!(
            text("SELECT urn_key_v1('URN:X-Y:a')").as_deref(),
            Some("urn:x-y:a")
        );
    }

    /// `urn_key_v1` hands back a URN that is its own key as the argument itself, whichever
    /// header its varlena has, and any other key as a new text.
    #[pg_test]
    fn a_urn_that_is_its_own_key_comes_back_as_itself() {
        let call = |datum: pg_sys::Datum| {
            // SAFETY: the wrapper pgrx made for urn_key_v1, called with one non-NULL text.
            unsafe {
                pgrx::fcinfo::direct_pg_extern_function_call_as_datum(
                    super::urn_key_v1_wrapper,
                    &[Some(datum)],
                )
            }
            .unwrap()
        };
        let text = b"urn:example:a";
        let long_header = text.as_slice().into_datum().unwrap();
        assert_eq!(call(long_header), long_header);
        // A varlena with a 1-byte header, as short values are stored in a row.
        // SAFETY: a fresh allocation of the header and the text, written within it.
        let short_header = unsafe {
            let short = pg_sys::palloc(text.len() + 1).cast::<u8>();
            short.write((((text.len() + 1) << 1) | 1) as u8);
            short
                .add(1)
                .copy_from_nonoverlapping(text.as_ptr(), text.len());
            pg_sys::Datum::from(short)
        };
        assert_eq!(call(short_header), short_header);
        let respelt = b"URN:EXAMPLE:a".as_slice().into_datum().unwrap();
        let key = call(respelt);
        assert_ne!(key, respelt);
        // SAFETY: a text datum the function returned.
        let key = unsafe { String::from_datum(key, false) };
        assert_eq!(key.as_deref(), Some("urn:example:a"));
    }

    /// A keyed table stores every row's key, whether the URN reaches the key function in
    /// place, compressed or from out-of-line TOAST storage: inserted from another table, updated,
    /// met again by `ON CONFLICT`, and the unique index agrees with the table.
    #[pg_test]
    fn keyed_tables_keep_the_right_keys_however_the_urn_is_held() {
        Spi::run(
            "CREATE TABLE source (urn text, expected text); \
             ALTER TABLE source ALTER COLUMN urn SET STORAGE EXTERNAL; \
             INSERT INTO source VALUES \
               ('urn:example:a', 'urn:example:a'), \
               ('URN:EXAMPLE:b?=q', 'urn:example:b'), \
               ('urn:isbn:978-0-395-36341-6', 'urn:isbn:9780395363416'), \
               ('urn:example:' || repeat('c', 3000), 'urn:example:' || repeat('c', 3000)), \
               ('urn:example:' || repeat('d', 3000) || '#f', 'urn:example:' || repeat('d', 3000)); \
             CREATE TABLE items ( \
               id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, urn urn NOT NULL, note text, \
               urn_key text COLLATE \"C\" GENERATED ALWAYS AS (urn_key_v1_inline(urn)) STORED NOT NULL); \
             CREATE UNIQUE INDEX items_urn_key_unique ON items ((urn_key_index(urn_key)) COLLATE \"C\"); \
             INSERT INTO items (urn) SELECT urn FROM source",
        )
        .unwrap();
        let out_of_line = Spi::get_one::<bool>(
            "SELECT pg_relation_size(reltoastrelid) > 0 FROM pg_class WHERE relname = 'source'",
        );
        assert_eq!(
            out_of_line.unwrap(),
            Some(true),
            "the long URNs are in TOAST storage"
        );
        let right = "SELECT count(*) FROM items JOIN source ON source.urn = items.urn::text \
                     WHERE items.urn_key = source.expected";
        assert_eq!(Spi::get_one::<i64>(right).unwrap(), Some(5));
        Spi::run("UPDATE items SET note = 'updated'").unwrap();
        assert_eq!(Spi::get_one::<i64>(right).unwrap(), Some(5));
        Spi::run(
            "INSERT INTO items (urn) SELECT upper(left(urn, 3)) || substr(urn, 4) FROM source \
             ON CONFLICT (urn_key_index(urn_key)) DO NOTHING",
        )
        .unwrap();
        assert_eq!(
            Spi::get_one::<i64>("SELECT count(*) FROM items").unwrap(),
            Some(5)
        );
        Spi::run("REINDEX TABLE items; CREATE EXTENSION IF NOT EXISTS amcheck").unwrap();
        Spi::run("SELECT bt_index_check('items_urn_key_unique', true)").unwrap();
    }

    /// `urn_pg_invalidate_relcache()` is for administrators: PUBLIC may not run it (any role
    /// could otherwise make every session rebuild its caches, again and again).
    #[pg_test]
    fn only_administrators_may_reset_every_sessions_caches() {
        let public_may = Spi::get_one::<bool>(
            "SELECT has_function_privilege('public', 'urn_pg_invalidate_relcache()', 'EXECUTE')",
        );
        assert_eq!(public_may.unwrap(), Some(false));
    }

    #[pg_test(error = "boom")]
    fn a_panic_reports_its_message() {
        Spi::run("SELECT urn_pg_test_panic('boom')").unwrap();
    }
}

/// Required by `cargo pgrx test`.
#[cfg(test)]
pub mod pg_test {
    /// One-off setup when the test framework starts (none needed).
    pub fn setup(_options: Vec<&str>) {}

    /// postgresql.conf settings the tests need (none).
    #[must_use]
    pub fn postgresql_conf_options() -> Vec<&'static str> {
        vec![]
    }
}
