//! A key described as a short list of [`Piece`]s (slices of the original text plus a case
//! mapping), so the same description serves building the key as a string, and comparing or
//! hashing two URNs byte by byte without allocating.
//!
//! The vocabulary the namespace rules write keys in: `namespaces` and `key` both depend on this
//! module, and it depends on neither.

use core::hash::Hasher;

use crate::chars;
use crate::key_text::KeyBuf;

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

    /// An empty key whose NSS has `%XX` triplets as `hex` says.
    pub(crate) const fn with_hex(hex: HexSeen) -> Self {
        let mut parts = KeyParts::new();
        parts.hex = hex;
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

/// Whether two NSSs of valid URNs are equal under RFC 8141 section 3: byte for byte, except
/// that the hex digits of `%XX` compare case-insensitively (the case mapping never changes a
/// length, and `%` starts a triplet in both).
pub(crate) fn nss_eq_generic(p: &str, q: &str) -> bool {
    let (p, q) = (p.as_bytes(), q.as_bytes());
    if p.len() != q.len() {
        return false;
    }
    let mut i = 0;
    while let (Some(&c), Some(&d)) = (p.get(i), q.get(i)) {
        if c != d {
            return false;
        }
        if c == b'%' {
            let same = match (p.get(i + 1..i + 3), q.get(i + 1..i + 3)) {
                (Some(h), Some(k)) => h.eq_ignore_ascii_case(k),
                _ => false,
            };
            if !same {
                return false;
            }
            i += 3;
        } else {
            i += 1;
        }
    }
    true
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
}
