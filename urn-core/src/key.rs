//! The canonical key: the normal form under which equivalent URNs are byte-equal.
//!
//! A key is described as a short list of [`Piece`]s (slices of the original text plus a case
//! mapping), so the same description serves building the key as a string, and comparing or
//! hashing two URNs byte by byte without allocating.

use alloc::string::String;
use core::borrow::Borrow;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::str::FromStr;

use crate::error::{ErrorKind, ParseError};
use crate::key_text::{KeyBuf, KeyText};
use crate::parse::{self, Offsets, ParseOptions, Syntax};
use crate::{Urn, UrnRef, chars, namespaces};

/// A versioned set of equivalence rules.
///
/// A key stored in a database must never change meaning silently, so rules are never edited
/// in place: a new rule means a new version, and stored keys are recomputed deliberately.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum KeyRules {
    /// RFC 8141 section 3 alone: lowercase `urn` and the NID, uppercase the hex digits of
    /// every `%XX` in the NSS, drop the r-, q- and f-components. Nothing is decoded.
    Rfc8141,
    /// RFC 8141 section 3 plus the equivalence rules of the namespaces' own registrations,
    /// each applied only when the NSS is valid for its namespace:
    /// `uuid` (hex digits in lower case), `isbn` (hyphens dropped, `X` upper case),
    /// `issn` (`NNNN-NNNC`, `X` upper case), `ietf` RFC 2648 names (`rfc`, `fyi`, `std`,
    /// `bcp`, `id`, `mtg`: the whole name in lower case; `urn:ietf:params:` is left to the
    /// generic rule), `nbn` (the prefix before the first `-` in lower case), `lex` (the NSS
    /// in lower case, hex digits stay upper case), `mpeg` (the standard name in lower case).
    #[default]
    V1,
}

impl KeyRules {
    /// The rules [`Urn::key`] applies.
    pub const CURRENT: KeyRules = KeyRules::V1;
}

/// How a piece of the key maps letter case. Hex digits of `%XX` are always upper-cased.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fold {
    Keep,
    Lower,
    Upper,
    /// Upper case, and every `-` dropped (ISBN: hyphens are not significant).
    UpperWithoutHyphens,
}

impl Fold {
    #[inline(always)]
    fn apply(self, b: u8) -> u8 {
        match self {
            Fold::Keep => b,
            Fold::Lower => b.to_ascii_lowercase(),
            Fold::Upper | Fold::UpperWithoutHyphens => b.to_ascii_uppercase(),
        }
    }
}

/// What the parse saw of `%XX` triplets in the NSS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HexSeen {
    /// No `%` at all.
    None,
    /// Only upper-case hex digits.
    UpperCase,
    /// Some lower-case hex digits.
    LowerCase,
}

/// A slice of the original text (or a constant) with its case mapping.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Piece<'a> {
    pub(crate) text: &'a str,
    pub(crate) fold: Fold,
}

impl<'a> Piece<'a> {
    pub(crate) const fn new(text: &'a str, fold: Fold) -> Self {
        Piece { text, fold }
    }

    /// Whether mapping this piece changes nothing, given that its `%XX` hex digits are
    /// already upper case.
    fn is_unchanged(&self) -> bool {
        let mask = match self.fold {
            Fold::Keep => return true,
            Fold::Lower => chars::KEEP_LOWER,
            Fold::Upper => chars::KEEP_UPPER,
            Fold::UpperWithoutHyphens => {
                return !self
                    .text
                    .bytes()
                    .any(|b| b == b'-' || b.is_ascii_lowercase());
            }
        };
        let text = self.text.as_bytes();
        let mut i = 0;
        loop {
            i = chars::skip(text, i, mask);
            match text.get(i) {
                None => return true,
                Some(b'%') => i += 3,
                Some(_) => return false,
            }
        }
    }

    /// Appends the mapped piece.
    fn write_to(&self, out: &mut KeyBuf, hex: HexSeen) {
        let start = out.as_str().len();
        if self.fold == Fold::UpperWithoutHyphens {
            for group in self.text.split('-') {
                out.push_str(group);
            }
            if let Some(copy) = out.as_mut_str().get_mut(start..) {
                copy.make_ascii_uppercase();
            }
            return;
        }
        out.push_str(self.text);
        if let Some(copy) = out.as_mut_str().get_mut(start..) {
            self.map_in_place(copy, hex);
        }
    }

    /// Maps a copy of this piece's text in place: the case of the whole copy, then the hex
    /// digits after each `%` back to upper case.
    fn map_in_place(&self, copy: &mut str, hex: HexSeen) {
        match self.fold {
            Fold::Keep => {}
            Fold::Lower => copy.make_ascii_lowercase(),
            Fold::Upper | Fold::UpperWithoutHyphens => copy.make_ascii_uppercase(),
        }
        // Lower-casing a piece lower-cases its hex too; otherwise only lower-case hex in the
        // input needs mending.
        let mend = match hex {
            HexSeen::None => false,
            HexSeen::UpperCase => self.fold == Fold::Lower,
            HexSeen::LowerCase => true,
        };
        if !mend {
            return;
        }
        for (at, _) in self.text.match_indices('%') {
            if let Some(digits) = copy.get_mut(at + 1..at + 3) {
                digits.make_ascii_uppercase();
            }
        }
    }
}

/// `urn:`, the NID, `:`, and at most three pieces of NSS.
const MAX_PIECES: usize = 6;

/// The key of one URN under one rule set, as pieces.
#[derive(Clone, Copy, Debug)]
pub(crate) struct KeyParts<'a> {
    pieces: [Piece<'a>; MAX_PIECES],
    len: usize,
    /// What the parse saw of `%XX` in the NSS, so building can skip searching for it.
    hex: HexSeen,
}

impl<'a> KeyParts<'a> {
    pub(crate) const fn new() -> Self {
        KeyParts {
            pieces: [Piece {
                text: "",
                fold: Fold::Keep,
            }; MAX_PIECES],
            len: 0,
            hex: HexSeen::LowerCase,
        }
    }

    /// Appends a piece; returns false (and leaves the key unchanged) when full.
    pub(crate) fn push(&mut self, piece: Piece<'a>) -> bool {
        match self.pieces.get_mut(self.len) {
            Some(slot) => {
                *slot = piece;
                self.len += 1;
                true
            }
            None => false,
        }
    }

    fn slice(&self) -> &[Piece<'a>] {
        self.pieces.get(..self.len).unwrap_or_default()
    }

    /// The key, byte by byte.
    #[inline]
    pub(crate) fn bytes(&self) -> KeyBytes<'_, 'a> {
        KeyBytes {
            pieces: self.slice(),
            pos: 0,
            hex_left: 0,
        }
    }

    /// The key of `nid` and `nss` under `rules`; `hex` is what the parse saw of `%XX`.
    pub(crate) fn of(nid: &'a str, nss: &'a str, rules: KeyRules, hex: HexSeen) -> Self {
        let mut parts = KeyParts::new();
        parts.hex = hex;
        parts.push(Piece::new("urn:", Fold::Keep));
        parts.push(Piece::new(nid, Fold::Lower));
        parts.push(Piece::new(":", Fold::Keep));
        if rules == KeyRules::Rfc8141 || !namespaces::v1_key_pieces(nid, nss, &mut parts) {
            parts.push(Piece::new(nss, Fold::Keep));
        }
        parts
    }

    /// Whether the NSS pieces spell `nss` unchanged: they lie back to back in it, in order,
    /// and their case mappings change nothing. `nss` must have upper-case `%XX` hex already.
    pub(crate) fn nss_is_identity(&self, nss: &str) -> bool {
        let mut rest = nss.as_bytes();
        for piece in self.slice().get(3..).unwrap_or_default() {
            let Some((head, tail)) = rest.split_at_checked(piece.text.len()) else {
                return false;
            };
            if !core::ptr::eq(head, piece.text.as_bytes()) || !piece.is_unchanged() {
                return false;
            }
            rest = tail;
        }
        rest.is_empty()
    }

    /// Builds the key of the URN whose assigned name is `assigned` and whose NSS starts at
    /// byte `nss_start` of it.
    ///
    /// When the NSS pieces cover the NSS back to back (every rule but ISBN's and hyphen-less
    /// ISSN's), the assigned name is copied once and mapped in place; otherwise the pieces are
    /// written one by one.
    pub(crate) fn build(self, assigned: &str, nss_start: usize) -> KeyBuf {
        let nss = assigned.get(nss_start..).unwrap_or_default();
        let nss_pieces = self.slice().get(3..).unwrap_or_default();
        let mut offset = 0;
        let contiguous = nss_pieces.iter().all(|piece| {
            let here = nss.get(offset..offset + piece.text.len());
            offset += piece.text.len();
            piece.fold != Fold::UpperWithoutHyphens
                && here.is_some_and(|h| core::ptr::eq(h, piece.text))
        }) && offset == nss.len();
        if !contiguous {
            let mut out = KeyBuf::with_capacity(self.slice().iter().map(|p| p.text.len()).sum());
            for piece in self.slice() {
                piece.write_to(&mut out, self.hex);
            }
            return out;
        }
        let mut buf = KeyBuf::copy_of(assigned);
        let out = buf.lower_head(nss_start);
        let mut at = nss_start;
        for piece in nss_pieces {
            let end = at + piece.text.len();
            if let Some(text) = out.get_mut(at..end) {
                piece.map_in_place(text, self.hex);
            }
            at = end;
        }
        buf
    }
}

/// The RFC 8141 section 3 key of the assigned name `assigned` whose NSS starts at byte
/// `nss_start`: one copy, `urn:` and the NID lower-cased in place, and (when the parse saw
/// lower-case hex) the two digits after each `%` upper-cased.
pub(crate) fn generic_key(assigned: &str, nss_start: usize, lower_hex: bool) -> KeyBuf {
    let mut buf = KeyBuf::copy_of(assigned);
    let out = buf.lower_head(nss_start);
    if lower_hex {
        // Find each '%' in the input and mend the copy's two digits.
        let bytes = assigned.as_bytes();
        let mut from = nss_start;
        while let Some(found) = bytes
            .get(from..)
            .and_then(|rest| rest.iter().position(|&b| b == b'%'))
        {
            let at = from + found;
            if let Some(digits) = out.get_mut(at + 1..at + 3) {
                digits.make_ascii_uppercase();
            }
            from = at + 3;
        }
    }
    buf
}

/// The bytes of a key, produced piece by piece without allocating.
pub(crate) struct KeyBytes<'p, 'a> {
    pieces: &'p [Piece<'a>],
    pos: usize,
    hex_left: u8,
}

impl Iterator for KeyBytes<'_, '_> {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        loop {
            let (piece, rest) = self.pieces.split_first()?;
            if let Some(&b) = piece.text.as_bytes().get(self.pos) {
                self.pos += 1;
                if b == b'-' && piece.fold == Fold::UpperWithoutHyphens {
                    continue;
                }
                if self.hex_left > 0 {
                    self.hex_left -= 1;
                    return Some(b.to_ascii_uppercase());
                }
                if b == b'%' {
                    self.hex_left = 2;
                }
                return Some(piece.fold.apply(b));
            }
            self.pieces = rest;
            self.pos = 0;
        }
    }
}

/// Feeds a key to a hasher in fixed 64-byte chunks, so that a key held as one slice and a key
/// produced byte by byte hash identically whatever the hasher.
pub(crate) fn hash_key<H: Hasher>(bytes: impl Iterator<Item = u8>, state: &mut H) {
    let mut buf = [0u8; 64];
    let mut n = 0;
    for b in bytes {
        if let Some(slot) = buf.get_mut(n) {
            *slot = b;
        }
        n += 1;
        if n == buf.len() {
            state.write(&buf);
            n = 0;
        }
    }
    state.write(buf.get(..n).unwrap_or_default());
    state.write_u8(0xff);
}

pub(crate) fn hash_slice<H: Hasher>(bytes: &[u8], state: &mut H) {
    let mut chunks = bytes.chunks_exact(64);
    for chunk in &mut chunks {
        state.write(chunk);
    }
    state.write(chunks.remainder());
    state.write_u8(0xff);
}

/// The canonical key of a URN: `urn:` + lower-case NID + `:` + the normalized NSS.
///
/// Two URNs are equivalent exactly when their keys are equal, so this is the value to store
/// under a UNIQUE index. A key is always valid and always canonical: [`UrnKey::parse`] and
/// [`FromStr`] accept only canonical text, so a key read back from a database is checked.
/// It borrows from the URN when the URN is already in normal form; otherwise its text is built
/// inline when it has at most 64 bytes (nearly every real URN), so computing a key allocates
/// nothing either way; longer keys are built on the heap.
///
/// ```
/// use urn_core::Urn;
/// let a: Urn = "URN:EXAMPLE:a123%2cz456?=q".parse()?;
/// assert_eq!(a.key().as_str(), "urn:example:a123%2Cz456");
/// let uuid: Urn = "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6".parse()?;
/// assert_eq!(uuid.key().as_str(), "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6");
/// assert_eq!(uuid.rfc8141_key().as_str(), "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6");
/// # Ok::<(), urn_core::ParseError>(())
/// ```
#[derive(Clone)]
#[cfg_attr(
    feature = "diesel",
    derive(diesel::expression::AsExpression, diesel::deserialize::FromSqlRow),
    diesel(sql_type = diesel::sql_types::Text),
    diesel(sql_type = crate::sql_types::UrnKey)
)]
pub struct UrnKey<'a> {
    text: KeyText<'a>,
}

impl<'a> UrnKey<'a> {
    pub(crate) fn from_text(text: KeyText<'a>) -> Self {
        UrnKey { text }
    }

    /// Whether the key borrows its text (nothing was built).
    #[cfg(test)]
    pub(crate) fn is_borrowed(&self) -> bool {
        self.text.is_borrowed()
    }

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
        if !urn.key_is_verbatim(KeyRules::CURRENT) {
            let at = urn
                .key_parts(KeyRules::CURRENT)
                .bytes()
                .zip(text.bytes())
                .position(|(k, t)| k != t)
                .unwrap_or(text.len());
            return Err(ParseError::new(ErrorKind::KeyNotCanonical, at));
        }
        Ok(UrnKey {
            text: KeyText::Borrowed(text),
        })
    }

    /// The key as text.
    pub fn as_str(&self) -> &str {
        self.text.as_str()
    }

    /// The lower-case NID.
    ///
    /// ```
    /// let urn: urn_core::Urn = "URN:ISBN:0-395-36341-1".parse()?;
    /// assert_eq!(urn.key().nid(), "isbn");
    /// assert_eq!(urn.key().nss(), "0395363411");
    /// # Ok::<(), urn_core::ParseError>(())
    /// ```
    pub fn nid(&self) -> &str {
        self.split().0
    }

    /// The normalized NSS.
    pub fn nss(&self) -> &str {
        self.split().1
    }

    fn split(&self) -> (&str, &str) {
        let rest = self.as_str().get(4..).unwrap_or_default();
        rest.split_once(':').unwrap_or((rest, ""))
    }

    /// A key that owns its text (kept inline, without a heap allocation, up to 64 bytes).
    pub fn into_owned(self) -> UrnKey<'static> {
        UrnKey {
            text: self.text.into_owned(),
        }
    }

    /// The key's text, owned.
    pub fn into_string(self) -> String {
        self.text.into_string()
    }

    /// The key as a URN (a key is itself a valid URN with no components).
    ///
    /// ```
    /// let urn: urn_core::Urn = "URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6".parse()?;
    /// assert_eq!(urn.key().to_urn(), urn);
    /// # Ok::<(), urn_core::ParseError>(())
    /// ```
    pub fn to_urn(&self) -> Urn {
        let offsets = Offsets::normal_assigned_name(self.as_str(), self.nid().len());
        Urn::from_trusted(String::from(self.as_str()), offsets)
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
            Ok(_) => Ok(UrnKey {
                text: KeyText::from(text),
            }),
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

impl From<UrnKey<'_>> for String {
    fn from(key: UrnKey<'_>) -> String {
        key.into_string()
    }
}

impl AsRef<str> for UrnKey<'_> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for UrnKey<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for UrnKey<'_> {}

impl PartialOrd for UrnKey<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for UrnKey<'_> {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

/// Hashes as its text does (`Borrow<str>` requires it).
impl Hash for UrnKey<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

/// Keys compare as their text, so a `HashMap<UrnKey, _>` can be searched with a `&str`.
impl Borrow<str> for UrnKey<'_> {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for UrnKey<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for UrnKey<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("UrnKey").field(&self.as_str()).finish()
    }
}

impl PartialEq<str> for UrnKey<'_> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for UrnKey<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashing_is_independent_of_representation() {
        struct Recorder(alloc::vec::Vec<alloc::vec::Vec<u8>>);
        impl Hasher for Recorder {
            fn finish(&self) -> u64 {
                0
            }
            fn write(&mut self, bytes: &[u8]) {
                self.0.push(bytes.to_vec());
            }
        }
        for len in [0usize, 1, 63, 64, 65, 200] {
            let text = "a".repeat(len);
            let mut a = Recorder(alloc::vec![]);
            let mut b = Recorder(alloc::vec![]);
            hash_slice(text.as_bytes(), &mut a);
            hash_key(text.bytes(), &mut b);
            assert_eq!(a.0, b.0, "len {len}");
        }
    }

    #[test]
    fn key_rejects_components_and_non_canonical_text() {
        assert_eq!(
            UrnKey::parse("urn:ab:c#").unwrap_err().kind(),
            ErrorKind::KeyHasComponent
        );
        let e = UrnKey::parse("URN:ab:c").unwrap_err();
        assert_eq!((e.kind(), e.offset()), (ErrorKind::KeyNotCanonical, 0));
        let e = UrnKey::parse("urn:ab:c%2f").unwrap_err();
        assert_eq!((e.kind(), e.offset()), (ErrorKind::KeyNotCanonical, 10));
        assert!(UrnKey::parse("urn:a-:b").is_ok(), "RFC 2141 keys are keys");
    }
}
