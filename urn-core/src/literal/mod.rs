//! URN literals checked when the program is compiled: [`urn!`](crate::urn) and
//! [`UrnRef::from_static`](crate::UrnRef::from_static).
//!
//! # How a bad literal becomes a readable compile error
//!
//! `urn!("…")` expands to a `const` item whose value is `UrnRef::from_static("…")`, so the
//! compiler evaluates it while compiling, whether or not the code around it ever runs. The
//! parser is a `const fn` (the one parser, [`crate::parse`]); when it refuses the literal, the
//! `const fn` builds the run-time error's message in a byte buffer ([`message`]), from the same
//! message parts the run-time `Display` writes, and panics with it
//! (`panic!("{}", text)`: stable Rust formats a `&str` argument in a constant), and the compiler
//! reports that panic as the error:
//!
//! ```text
//! error[E0080]: evaluation panicked: invalid URN: '?' at byte 13 must be followed by '+' or '='
//! ```
//!
//! No proc-macro is needed for this (one would be a second crate to publish, with a copy of the
//! parser, since urn-core could not depend on a crate that depends on it), and none could say
//! more: the message is the one `ParseError`'s `Display` gives at run time.
//!
//! The typed form `urn!(isbn: "…")` runs the namespace's own validator, a `const fn` too.

mod message;
#[cfg(test)]
pub(crate) mod tests;

use crate::chars;
use crate::error::ParseError;
use crate::namespaces::KnownNamespace;
use crate::parse::{self, Offsets, ParseOptions};
use message::Message;

/// Parses `text` as an RFC 8141 URN of at most [`DEFAULT_MAX_LEN`](crate::DEFAULT_MAX_LEN)
/// bytes: the run-time parser, called in a constant.
pub(crate) const fn parse(text: &str) -> Result<Offsets, ParseError> {
    match parse::parse(text, ParseOptions::new()) {
        Ok(parsed) => Ok(parsed.offsets),
        Err(e) => Err(e),
    }
}

/// `text[start..end]`, or nothing when that is out of range or not on character boundaries.
const fn str_slice(text: &str, start: usize, end: usize) -> &str {
    match text.split_at_checked(end) {
        Some((head, _)) => match head.split_at_checked(start) {
            Some((_, part)) => part,
            None => "",
        },
        None => "",
    }
}

/// Why a typed literal (`urn!(isbn: "…")`) is refused: the run-time [`NsUrnError`]'s cases,
/// with what a `const fn` can hold.
///
/// [`NsUrnError`]: crate::NsUrnError
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Not a URN.
    Parse(ParseError),
    /// A URN of another namespace, whose NID ends at `nid_end`.
    WrongNamespace {
        expected: &'static str,
        nid_end: usize,
    },
    /// The namespace's NSS rule is broken at `offset` (into the URN).
    InvalidNss {
        nid: &'static str,
        offset: usize,
        reason: &'static str,
    },
}

/// Parses `text` as a URN of namespace `ns`, as `NsUrn::<N>::parse` does for `ns`'s marker.
pub(crate) const fn parse_in(ns: KnownNamespace, text: &str) -> Result<Offsets, Refusal> {
    let offsets = match parse(text) {
        Ok(offsets) => offsets,
        Err(e) => return Err(Refusal::Parse(e)),
    };
    let nid_end = offsets.nid_end as usize;
    let nss_start = nid_end + 1;
    let nid = chars::slice(text.as_bytes(), 4, nid_end);
    let nss = str_slice(text, nss_start, offsets.nss_end as usize);
    if !nid.eq_ignore_ascii_case(ns.nid().as_bytes()) {
        return Err(Refusal::WrongNamespace {
            expected: ns.nid(),
            nid_end,
        });
    }
    match ns.validate(nss) {
        Ok(()) => Ok(offsets),
        Err(fault) => Err(Refusal::InvalidNss {
            nid: ns.nid(),
            offset: nss_start + fault.at,
            reason: fault.reason,
        }),
    }
}

/// The known namespace whose NID is `name` (any case).
const fn namespace_named(name: &str) -> Option<KnownNamespace> {
    let all = KnownNamespace::ALL;
    let mut k = 0;
    while k < all.len() {
        // `k < all.len()`.
        #[allow(clippy::indexing_slicing)]
        let ns = all[k];
        if name.eq_ignore_ascii_case(ns.nid()) {
            return Some(ns);
        }
        k += 1;
    }
    None
}

/// The message of a refused literal of `text`: the run-time error's `Display`.
const fn refusal_message(text: &str, refusal: &Refusal) -> Message {
    match *refusal {
        Refusal::Parse(ref e) => Message::new().str("invalid URN: ").detail(e),
        Refusal::WrongNamespace { expected, nid_end } => {
            let found = str_slice(text, 4, nid_end);
            // A NID is letters, digits and `-`: nothing for `escape_debug` to escape.
            Message::new()
                .str("expected a URN in namespace \"")
                .str(expected)
                .str("\", found \"")
                .str(found)
                .str("\"")
        }
        Refusal::InvalidNss {
            nid,
            offset,
            reason,
        } => Message::new()
            .str("invalid ")
            .str(nid)
            .str(" URN: ")
            .str(reason)
            .str(" (byte ")
            .num(offset)
            .str(")"),
    }
}

/// Stops with `message`: a compile error when evaluated in a constant, a panic at run time.
#[track_caller]
const fn refuse(message: Message) -> ! {
    // Refusing is the point: `urn!` and `from_static` turn a bad literal into a compile error,
    // and a `const fn` can only stop the compiler by panicking.
    #[allow(clippy::panic)]
    {
        panic!("{}", message.as_str())
    }
}

/// Stops with the message of `error` (see [`UrnRef::from_static`]).
#[track_caller]
pub(crate) const fn refuse_parse(error: &ParseError) -> ! {
    refuse(Message::new().str("invalid URN: ").detail(error))
}

/// The offsets of `text` checked as a URN of the known namespace whose NID is `namespace`:
/// the typed literal `urn!(isbn: "…")`. Stops with the run-time error's message otherwise.
#[track_caller]
pub(crate) const fn typed(namespace: &str, text: &str) -> Offsets {
    let Some(ns) = namespace_named(namespace) else {
        let mut message = Message::new()
            .str("urn!(")
            .str(namespace)
            .str(": ...): not a namespace urn-core knows; the typed form takes ");
        let all = KnownNamespace::ALL;
        let mut k = 0;
        while k < all.len() {
            // `k < all.len()`.
            #[allow(clippy::indexing_slicing)]
            let ns = all[k];
            if k > 0 {
                message = message.str(if k + 1 == all.len() { " or " } else { ", " });
            }
            message = message.str(ns.nid());
            k += 1;
        }
        refuse(message)
    };
    match parse_in(ns, text) {
        Ok(offsets) => offsets,
        Err(refusal) => refuse(refusal_message(text, &refusal)),
    }
}

/// The message of a refused typed literal, for the tests.
#[cfg(test)]
pub(crate) fn message_in(ns: KnownNamespace, text: &str) -> Option<alloc::string::String> {
    match parse_in(ns, text) {
        Ok(_) => None,
        Err(refusal) => Some(refusal_message(text, &refusal).as_str().into()),
    }
}

/// The message of a refused literal, for the tests.
#[cfg(test)]
pub(crate) fn message(text: &str) -> Option<alloc::string::String> {
    match parse(text) {
        Ok(_) => None,
        Err(e) => Some(
            Message::new()
                .str("invalid URN: ")
                .detail(&e)
                .as_str()
                .into(),
        ),
    }
}

/// A URN literal checked when the program is compiled: a [`UrnRef<'static>`](crate::UrnRef)
/// that needs no `parse(…).unwrap()`, usable in `const` and `static` items.
///
/// ```
/// use urn_core::{Urn, UrnRef, urn};
///
/// const HOBBIT: UrnRef<'static> = urn!("urn:isbn:0-395-36341-1");
/// static URN_SPEC: UrnRef<'static> = urn!("urn:ietf:rfc:8141");
///
/// assert_eq!(HOBBIT.nss(), "0-395-36341-1");
/// let parsed = Urn::parse("URN:ISBN:0395363411")?;
/// assert!(parsed == HOBBIT && HOBBIT == parsed); // equal by key, as any two URNs
/// let owned: Urn = urn!("urn:example:a?=lang=en").into(); // one copy, no parse
/// assert_eq!(owned.q_component(), Some("lang=en"));
/// assert_eq!(URN_SPEC.key().as_str(), "urn:ietf:rfc:8141");
/// # Ok::<(), urn_core::ParseError>(())
/// ```
///
/// `urn!(isbn: "…")`, with the NID of a [`KnownNamespace`](crate::KnownNamespace) before the
/// colon, also checks that the literal is a URN of that namespace and that its NSS keeps the
/// namespace's rules (an ISBN's check digit, a UUID's layout), as parsing an
/// [`NsUrn`](crate::NsUrn) of it would at run time. It is the same `UrnRef<'static>`, and
/// compares with the typed URNs by key:
///
/// ```
/// use urn_core::{IsbnUrn, UrnRef, urn};
///
/// const BOOK: UrnRef<'static> = urn!(isbn: "urn:isbn:978-0-395-36341-6");
/// let typed: IsbnUrn = "urn:ISBN:9780395363416".parse()?;
/// assert!(typed == BOOK && BOOK == typed);
/// # Ok::<(), urn_core::NsUrnError>(())
/// ```
///
/// The literal may be any constant `&'static str` expression (`concat!(…)`, a `const`).
/// The expansion is a `const` item, so the check runs even where the code around it never
/// does, in a generic function never called, say (an inline `const { … }` block would wait
/// for the function to be instantiated); [`UrnRef::from_static`](crate::UrnRef::from_static)
/// is the same check as a `const fn`.
///
/// ```compile_fail,E0080
/// // error[E0080]: evaluation panicked: invalid URN: the r-component at byte 15 is empty
/// fn never_called<T>() -> urn_core::UrnRef<'static> {
///     urn_core::urn!("urn:example:a?+")
/// }
/// ```
///
/// # Compile errors
///
/// An invalid literal does not compile, and the error is the message the run-time error would
/// give (`ParseError`'s or `NsUrnError`'s `Display`): the rule and the byte. One example per
/// family of rules, with the first line of what the compiler prints:
///
/// ```compile_fail,E0080
/// // error[E0080]: evaluation panicked: invalid URN: expected 'urn:' at byte 2
/// let scheme = urn_core::urn!("urx:example:a");
/// ```
///
/// ```compile_fail,E0080
/// // error[E0080]: evaluation panicked: invalid URN: NID of 1 character at byte 4: it must have 2 to 32
/// let nid = urn_core::urn!("urn:a:b");
/// ```
///
/// ```compile_fail,E0080
/// // error[E0080]: evaluation panicked: invalid URN: ' ' at byte 13 is not allowed in the NSS
/// let nss = urn_core::urn!("urn:example:a b");
/// ```
///
/// ```compile_fail,E0080
/// // error[E0080]: evaluation panicked: invalid URN: '%' at byte 15 in the NSS must be followed by two hex digits
/// let percent = urn_core::urn!("urn:example:100%");
/// ```
///
/// ```compile_fail,E0080
/// // error[E0080]: evaluation panicked: invalid URN: '?' at byte 13 must be followed by '+' or '='
/// let component = urn_core::urn!("urn:example:a?b");
/// ```
///
/// ```compile_fail,E0080
/// // error[E0080]: evaluation panicked: invalid URN: longer than the maximum of 65536 bytes (byte 65536)
/// const BYTES: [u8; 65_600] = {
///     let mut bytes = [b'a'; 65_600];
///     let (mut i, head) = (0, *b"urn:example:");
///     while i < head.len() {
///         bytes[i] = head[i];
///         i += 1;
///     }
///     bytes
/// };
/// const LONG: &str = match core::str::from_utf8(&BYTES) {
///     Ok(text) => text,
///     Err(_) => "",
/// };
/// let too_long = urn_core::urn!(LONG);
/// ```
///
/// The typed form's own refusals:
///
/// ```compile_fail,E0080
/// // error[E0080]: evaluation panicked: expected a URN in namespace "isbn", found "issn"
/// let other = urn_core::urn!(isbn: "urn:issn:0317-8471");
/// ```
///
/// ```compile_fail,E0080
/// // error[E0080]: evaluation panicked: invalid isbn URN: the check digit does not match (byte 21)
/// let check_digit = urn_core::urn!(isbn: "urn:isbn:0-395-36341-2");
/// ```
///
/// ```compile_fail,E0080
/// // error[E0080]: evaluation panicked: urn!(acme: ...): not a namespace urn-core knows; the typed form takes uuid, isbn, … (every known NID)
/// let unknown = urn_core::urn!(acme: "urn:acme:1");
/// ```
///
/// A character that `char::escape_debug` would escape is escaped in the message when it is
/// ASCII (`'\t'`, `'"'`); other characters are shown as they are, even the few that the
/// run-time message escapes (combining marks, invisible format characters), since that
/// decision rests on Unicode tables a `const fn` cannot reach.
#[macro_export]
macro_rules! urn {
    ($namespace:ident : $text:expr $(,)?) => {{
        const __URN_CORE_LITERAL: $crate::UrnRef<'static> =
            $crate::__private::typed(::core::stringify!($namespace), $text);
        __URN_CORE_LITERAL
    }};
    ($text:expr $(,)?) => {{
        const __URN_CORE_LITERAL: $crate::UrnRef<'static> = $crate::UrnRef::from_static($text);
        __URN_CORE_LITERAL
    }};
}
