//! [`UrnRef`]: a validated URN borrowed from its text.

use alloc::borrow::Cow;
use alloc::string::String;
use core::fmt;
use core::str::FromStr;

use crate::encoding::{self, DecodeError};
use crate::error::{ErrorKind, ParseError};
use crate::key::{self, UrnKey};
use crate::key_parts::{self, HexSeen, KeyParts};
use crate::key_rules::KeyRules;
use crate::key_text::KeyText;
use crate::namespaces::{self, KnownNamespace, NamespaceError};
use crate::parse::{self, Offsets, ParseOptions, Syntax};
use crate::registry::{self, NidStatus};

/// A validated URN that borrows its text: parsing it allocates nothing.
///
/// It has the same accessors as [`Urn`](crate::Urn); equality, ordering and hashing follow the
/// canonical key ([`UrnRef::key`]).
///
/// ```
/// use urn_core::UrnRef;
/// let urn = UrnRef::parse("urn:example:weather?=op=map&lat=39.56#top")?;
/// assert_eq!(urn.nid(), "example");
/// assert_eq!(urn.nss(), "weather");
/// assert_eq!(urn.q_component(), Some("op=map&lat=39.56"));
/// assert_eq!(urn.f_component(), Some("top"));
/// assert_eq!(urn, UrnRef::parse("URN:EXAMPLE:weather")?);
/// # Ok::<(), urn_core::ParseError>(())
/// ```
#[derive(Clone, Copy)]
pub struct UrnRef<'a> {
    text: &'a str,
    offsets: Offsets,
}

impl<'a> UrnRef<'a> {
    /// Parses `text` as an RFC 8141 URN.
    pub fn parse(text: &'a str) -> Result<Self, ParseError> {
        ParseOptions::new().parse_ref(text)
    }

    /// Parses `text` with the given grammar.
    ///
    /// ```
    /// use urn_core::{Syntax, UrnRef};
    /// assert!(UrnRef::parse_with("urn:trailing-:x", Syntax::Rfc2141).is_ok());
    /// assert!(UrnRef::parse_with("urn:trailing-:x", Syntax::Rfc8141).is_err());
    /// ```
    pub fn parse_with(text: &'a str, syntax: Syntax) -> Result<Self, ParseError> {
        ParseOptions::new().syntax(syntax).parse_ref(text)
    }

    pub(crate) const fn from_parts(text: &'a str, offsets: Offsets) -> Self {
        UrnRef { text, offsets }
    }

    pub(crate) const fn offsets(&self) -> Offsets {
        self.offsets
    }

    fn slice(&self, start: usize, end: usize) -> &'a str {
        self.text.get(start..end).unwrap_or_default()
    }

    /// The URN exactly as given.
    pub const fn as_str(&self) -> &'a str {
        self.text
    }

    /// The namespace identifier, as written (compare it case-insensitively).
    pub fn nid(&self) -> &'a str {
        self.slice(4, self.offsets.nid_end as usize)
    }

    /// The namespace-specific string, as written (percent-encoded).
    pub fn nss(&self) -> &'a str {
        self.slice(
            self.offsets.nid_end as usize + 1,
            self.offsets.nss_end as usize,
        )
    }

    /// The r-component without its `?+`, if present.
    pub fn r_component(&self) -> Option<&'a str> {
        let Offsets { nss_end, r_end, .. } = self.offsets;
        (r_end > nss_end).then(|| self.slice(nss_end as usize + 2, r_end as usize))
    }

    /// The q-component without its `?=`, if present.
    pub fn q_component(&self) -> Option<&'a str> {
        let Offsets { r_end, q_end, .. } = self.offsets;
        (q_end > r_end).then(|| self.slice(r_end as usize + 2, q_end as usize))
    }

    /// The f-component without its `#`, if present (`Some("")` for a bare trailing `#`).
    pub fn f_component(&self) -> Option<&'a str> {
        let q_end = self.offsets.q_end as usize;
        (q_end < self.text.len()).then(|| self.slice(q_end + 1, self.text.len()))
    }

    /// `urn:<NID>:<NSS>` as written, without components: what a resolver is asked about.
    pub fn assigned_name(&self) -> &'a str {
        self.slice(0, self.offsets.nss_end as usize)
    }

    /// The canonical key under [`KeyRules::CURRENT`]: RFC 8141 section 3 plus the
    /// namespaces' own equivalence rules. Borrows when the URN is already normal.
    pub fn key(&self) -> UrnKey<'a> {
        self.key_with(KeyRules::CURRENT)
    }

    /// The RFC 8141 section 3 key alone (no namespace rules).
    pub fn rfc8141_key(&self) -> UrnKey<'a> {
        self.key_with(KeyRules::Rfc8141)
    }

    /// The canonical key under a given rule set.
    ///
    /// ```
    /// use urn_core::{KeyRules, UrnRef};
    /// let urn = UrnRef::parse("URN:ISBN:0-395-36341-1")?;
    /// assert_eq!(urn.key_with(KeyRules::Rfc8141).as_str(), "urn:isbn:0-395-36341-1");
    /// assert_eq!(urn.key_with(KeyRules::V1).as_str(), "urn:isbn:0395363411");
    /// # Ok::<(), urn_core::ParseError>(())
    /// ```
    pub fn key_with(&self, rules: KeyRules) -> UrnKey<'a> {
        let assigned = self.assigned_name();
        let nss_start = self.offsets.nid_end as usize + 1;
        let verbatim = self.offsets.verbatim(rules);
        let text = match verbatim {
            Some(true) => KeyText::Borrowed(assigned),
            // A namespace rule may apply (`None`: the parse found the rest already normal).
            _ if rules != KeyRules::Rfc8141 && self.offsets.has_rule_nid() => {
                namespaces::simple_v1_key(
                    assigned,
                    nss_start,
                    verbatim.is_none(),
                    self.offsets.nss_has_lower_hex(),
                )
                .unwrap_or_else(|| {
                    let parts = self.key_parts(rules);
                    if verbatim.is_none() && parts.nss_is_identity(self.nss()) {
                        KeyText::Borrowed(assigned)
                    } else {
                        KeyText::Built(parts.build(assigned, nss_start))
                    }
                })
            }
            _ => KeyText::Built(key_parts::generic_key(
                assigned,
                nss_start,
                self.offsets.nss_has_lower_hex(),
            )),
        };
        UrnKey::from_text(text)
    }

    /// Whether the assigned name is its own key under `rules` (then the key borrows it).
    #[inline]
    pub(crate) fn key_is_verbatim(&self, rules: KeyRules) -> bool {
        self.offsets
            .verbatim(rules)
            .unwrap_or_else(|| self.key_parts(rules).nss_is_identity(self.nss()))
    }

    pub(crate) fn key_parts(&self, rules: KeyRules) -> KeyParts<'a> {
        let hex = if self.offsets.nss_has_lower_hex() {
            HexSeen::LowerCase
        } else if self.offsets.nss_has_percent() {
            HexSeen::UpperCase
        } else {
            HexSeen::None
        };
        key::parts_of(self.nid(), self.nss(), rules, hex)
    }

    /// The NSS percent-decoded (borrowed when it holds no `%`); an error when the decoded
    /// bytes are not UTF-8.
    ///
    /// ```
    /// let urn = urn_core::UrnRef::parse("urn:example:%D0%B0123,z456")?;
    /// assert_eq!(urn.nss_decoded()?, "а123,z456"); // Cyrillic 'а'
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn nss_decoded(&self) -> Result<Cow<'a, str>, DecodeError> {
        encoding::decode_nss(self.nss()).map_err(|e| e.shifted(self.offsets.nid_end as usize + 1))
    }

    /// The NID's registration status (IANA registry of [`registry::REGISTRY_DATE`]).
    pub fn nid_status(&self) -> NidStatus {
        registry::nid_status(self.nid())
    }

    /// The namespace, when this crate knows its NSS syntax.
    pub fn namespace(&self) -> Option<KnownNamespace> {
        KnownNamespace::from_nid(self.nid())
    }

    /// Checks the NSS against its namespace's syntax, for the namespaces this crate knows
    /// ([`KnownNamespace`]); other namespaces pass (see [`UrnRef::nid_status`] for them).
    /// The error's offset counts from the start of the URN.
    ///
    /// ```
    /// let urn = urn_core::UrnRef::parse("urn:isbn:0-395-36341-2")?;
    /// let err = urn.validate_namespace().unwrap_err();
    /// assert_eq!(err.to_string(), "invalid isbn URN: the check digit does not match (byte 21)");
    /// # Ok::<(), urn_core::ParseError>(())
    /// ```
    pub fn validate_namespace(&self) -> Result<(), NamespaceError> {
        match self.namespace() {
            Some(ns) => ns
                .validate_nss(self.nss())
                .map_err(|e| e.shifted(self.offsets.nid_end as usize + 1)),
            None => Ok(()),
        }
    }

    /// Exact comparison of the text, including case and components (`==` compares keys).
    ///
    /// ```
    /// use urn_core::UrnRef;
    /// let (a, b) = (UrnRef::parse("urn:ex:a#1")?, UrnRef::parse("URN:ex:a")?);
    /// assert!(a == b && !a.eq_text(&b));
    /// # Ok::<(), urn_core::ParseError>(())
    /// ```
    pub fn eq_text(&self, other: &UrnRef<'_>) -> bool {
        self.text == other.text
    }
}

impl fmt::Display for UrnRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text)
    }
}

impl fmt::Debug for UrnRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("UrnRef").field(&self.text).finish()
    }
}

impl AsRef<str> for UrnRef<'_> {
    fn as_ref(&self) -> &str {
        self.text
    }
}

impl<'a> TryFrom<&'a str> for UrnRef<'a> {
    type Error = ParseError;
    fn try_from(text: &'a str) -> Result<Self, ParseError> {
        UrnRef::parse(text)
    }
}

/// The borrowed URN from options; here rather than in `parse`, so the grammar does not depend
/// on the types built on it (`ParseOptions::parse`, owned, is beside `Urn`).
impl ParseOptions {
    /// Parses into a borrowed [`UrnRef`] (no allocation).
    pub fn parse_ref<'a>(&self, input: &'a str) -> Result<UrnRef<'a>, ParseError> {
        let offsets = crate::parse::parse(input, self)?;
        Ok(UrnRef::from_parts(input, offsets))
    }
}

/// Checking key text, which takes the parser; beside `UrnRef`, so `UrnKey` does not depend on it.
impl<'a> UrnKey<'a> {
    /// Checks that `text` is a canonical key (under [`KeyRules::CURRENT`]) and borrows it.
    ///
    /// Keys of RFC 2141 URNs (whose NID may have one character or end in `-`) are accepted.
    ///
    /// ```
    /// use urn_core::{ErrorKind, UrnKey};
    /// assert!(UrnKey::parse("urn:isbn:0395363411").is_ok());
    /// let err = UrnKey::parse("urn:isbn:0-395-36341-1").unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::KeyNotCanonical);
    /// assert_eq!(err.offset(), 10);
    /// ```
    pub fn parse(text: &'a str) -> Result<Self, ParseError> {
        Self::parse_with(text, KeyRules::CURRENT)
    }

    /// Checks that `text` is a canonical key under `rules` and borrows it: what a database
    /// column of keys computed by those rules may hold.
    ///
    /// ```
    /// use urn_core::{ErrorKind, KeyRules, UrnKey};
    /// // Canonical for RFC 8141 alone, though V1 drops an ISBN's hyphens.
    /// assert!(UrnKey::parse_with("urn:isbn:0-395-36341-1", KeyRules::Rfc8141).is_ok());
    /// let err = UrnKey::parse_with("urn:example:a%2f", KeyRules::Rfc8141).unwrap_err();
    /// assert_eq!((err.kind(), err.offset()), (ErrorKind::KeyNotCanonical, 15));
    /// let err = UrnKey::parse_with("urn:example:a#f", KeyRules::Rfc8141).unwrap_err();
    /// assert_eq!((err.kind(), err.offset()), (ErrorKind::KeyHasComponent, 13));
    /// ```
    pub fn parse_with(text: &'a str, rules: KeyRules) -> Result<Self, ParseError> {
        let offsets = parse::parse(text, &ParseOptions::new()).or_else(|err| {
            parse::parse(text, &ParseOptions::new().syntax(Syntax::Rfc2141)).map_err(|_| err)
        })?;
        if offsets.nss_end as usize != text.len() {
            return Err(ParseError::new(
                ErrorKind::KeyHasComponent,
                offsets.nss_end as usize,
            ));
        }
        let urn = UrnRef::from_parts(text, offsets);
        if !urn.key_is_verbatim(rules) {
            let at = urn
                .key_parts(rules)
                .bytes()
                .zip(text.bytes())
                .position(|(k, t)| k != t)
                .unwrap_or(text.len());
            return Err(ParseError::new(ErrorKind::KeyNotCanonical, at));
        }
        Ok(UrnKey::from_text(KeyText::Borrowed(text)))
    }
}

impl UrnKey<'static> {
    /// Checks and takes ownership of `text` without copying it.
    pub fn from_string(text: String) -> Result<Self, ParseError> {
        Self::from_string_or_back(text).map_err(|(_, e)| e)
    }

    /// Like [`UrnKey::from_string`], but hands the text back with the error.
    pub(crate) fn from_string_or_back(text: String) -> Result<Self, (String, ParseError)> {
        match UrnKey::parse(&text) {
            Ok(_) => Ok(UrnKey::from_text(KeyText::from(text))),
            Err(e) => Err((text, e)),
        }
    }
}

impl FromStr for UrnKey<'static> {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        UrnKey::parse(s).map(UrnKey::into_owned)
    }
}

impl TryFrom<String> for UrnKey<'static> {
    type Error = ParseError;
    fn try_from(s: String) -> Result<Self, ParseError> {
        UrnKey::from_string(s)
    }
}

impl<'a> TryFrom<&'a str> for UrnKey<'a> {
    type Error = ParseError;
    fn try_from(s: &'a str) -> Result<Self, ParseError> {
        UrnKey::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use alloc::format;
    use alloc::vec::Vec;
    use core::hash::{Hash, Hasher};

    use super::*;

    /// The key as a string (with its one-pass paths for uuid, isbn and the generic rule) and
    /// the key as pieces (what `==`, `Ord` and `Hash` use) spell the same bytes, and a key
    /// borrows exactly when it equals the assigned name.
    #[test]
    fn key_string_and_key_pieces_agree() {
        let nss = [
            "f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
            "F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
            "f81d4fae-7dec-11d0-a765-00a0c91e6bF6",
            "f81d4fae-7dec-11d0-a765-00a0c91e6bf",
            "f81d4fae7dec-11d0-a765-00a0c91e6bf6a",
            "f81d4fae-7dec-11d0-a765-00a0c91e6b%41",
            "0-395-36341-1",
            "0395363411",
            "978-0-395-36341-6",
            "0-8044-2957-x",
            "080442957X",
            "0-395-36341-2",
            "03953634111",
            "0317-8471",
            "03178471",
            "rfc:8141",
            "RFC:8141",
            "params:xml:ns:A",
            "a%2cb%2C/c",
            "a%2Cb%2c/c",
            "%7E",
            "%7e",
            "se-Kb:X",
            "IT:Stato",
            "ISO:iec",
            // Longer than an inline key: == and hashing walk the pieces instead.
            "IT:Stato:legge:2003-09-21;456:articolo-con-un-nome-molto-lungo-%2c",
            "it:stato:LEGGE:2003-09-21;456:articolo-con-un-nome-molto-lungo-%2C",
            "se-Kb:abcdefghijklmnopqrstuvwxyz0123456789-abcdefghijklmnopqrstuvwxyz",
            "SE-kb:abcdefghijklmnopqrstuvwxyz0123456789-abcdefghijklmnopqrstuvwxyz",
        ];
        let mut texts = Vec::new();
        for nid in [
            "uuid", "UUID", "isbn", "Isbn", "issn", "ietf", "example", "nbn", "lex", "mpeg",
        ] {
            for scheme in ["urn", "URN"] {
                for nss in nss {
                    for suffix in ["", "?+r", "?=q", "#f"] {
                        let text = format!("{scheme}:{nid}:{nss}{suffix}");
                        let Ok(urn) = UrnRef::parse(&text) else {
                            continue;
                        };
                        if suffix.is_empty() || suffix == "#f" {
                            texts.push(text.clone());
                        }
                        for rules in [KeyRules::V1, KeyRules::Rfc8141] {
                            let key = urn.key_with(rules);
                            let pieces: Vec<u8> = urn.key_parts(rules).bytes().collect();
                            assert_eq!(key.as_str().as_bytes(), pieces, "{text} {rules:?}");
                            let borrowed = key.is_borrowed();
                            assert_eq!(
                                borrowed,
                                key.as_str() == urn.assigned_name(),
                                "{text} {rules:?}"
                            );
                            assert_eq!(borrowed, urn.key_is_verbatim(rules), "{text} {rules:?}");
                        }
                    }
                }
            }
        }
        // `==` (with its in-place paths for the generic rule, uuid and isbn) agrees with the
        // keys on every pair.
        let urns: Vec<UrnRef<'_>> = texts.iter().filter_map(|t| UrnRef::parse(t).ok()).collect();
        let keys: Vec<UrnKey<'_>> = urns.iter().map(UrnRef::key).collect();
        /// Records what a value feeds its hasher.
        #[derive(Default)]
        struct Recorder(Vec<u8>);
        impl Hasher for Recorder {
            fn finish(&self) -> u64 {
                0
            }
            fn write(&mut self, bytes: &[u8]) {
                self.0.extend_from_slice(bytes);
            }
        }
        let fed = |u: &UrnRef<'_>| {
            let mut r = Recorder::default();
            u.hash(&mut r);
            r.0
        };
        let mut equal_pairs = 0;
        for (a, ka) in urns.iter().zip(&keys) {
            for (b, kb) in urns.iter().zip(&keys) {
                assert_eq!(a == b, ka == kb, "{a} vs {b}");
                assert_eq!(a.cmp(b), ka.cmp(kb), "{a} vs {b}");
                if a == b {
                    assert_eq!(fed(a), fed(b), "{a} vs {b}");
                }
                equal_pairs += usize::from(a == b && a.as_str() != b.as_str());
            }
        }
        assert!(equal_pairs > 1000, "{equal_pairs}");
    }
}
