//! The canonical key of a parsed URN, and `==`, ordering and hashing by it.
//!
//! A key is `urn:` + the lower-case NID + `:` + the NSS mapped by its namespace's rule
//! ([`NssKey`], from the namespace's module), hex digits of `%XX` upper case. Everything here
//! reads that one description: building the key as text ([`key`]), producing it byte by byte
//! without allocating ([`KeyBytes`]), and comparing two URNs in place ([`eq`]). The parser
//! records whether the assigned name is already its own key, so most URNs take none of this
//! work: their key borrows their text and they compare with one `memcmp`.

use core::cmp::Ordering;
use core::hash::Hasher;
use core::ops::Range;

use crate::key_rules::KeyRules;
use crate::key_text::{INLINE, KeyBuf, KeyText};
use crate::nss_key::{self, Fold, Joint, NssKey};
use crate::parse::Parsed;

/// The rule for `urn`'s NSS under `rules`.
#[inline]
fn nss_key(urn: &Parsed<'_>, rules: KeyRules) -> NssKey {
    match urn.offsets.rule {
        Some(ns) => ns.key(rules, urn.nss()).unwrap_or(NssKey::GENERIC),
        None => NssKey::GENERIC,
    }
}

/// The canonical key of `urn` under `rules`: borrowed when the assigned name is its own key,
/// otherwise built (inline up to [`INLINE`] bytes). Always inlined: as a call of its own, its
/// frame cost more than the answer most URNs get from it (a borrow), and the caller's `rules`
/// (a constant) picks the branch (BENCHMARKS.md, "Instructions per URN").
#[inline(always)]
pub(crate) fn key<'a>(urn: &Parsed<'a>, rules: KeyRules) -> KeyText<'a> {
    let assigned = urn.assigned_name();
    let verbatim = urn.offsets.verbatim(rules);
    if verbatim == Some(true) {
        return KeyText::Borrowed(assigned);
    }
    match urn.offsets.rule {
        Some(ns) if rules != KeyRules::Rfc8141 => {
            let rule = ns.key(rules, urn.nss()).unwrap_or(NssKey::GENERIC);
            // `None`: the parse found "urn:", the NID and the hex already normal, so the
            // rule decides.
            if verbatim.is_none() && rule.leaves(urn.nss()) {
                return KeyText::Borrowed(assigned);
            }
            KeyText::Built(build(urn, &rule))
        }
        // The generic rule, which `verbatim` has already found to change something.
        _ => KeyText::Built(build_uniform(urn, Fold::Keep)),
    }
}

/// Whether `urn`'s assigned name is its own key under `rules`.
pub(crate) fn is_verbatim(urn: &Parsed<'_>, rules: KeyRules) -> bool {
    urn.offsets
        .verbatim(rules)
        .unwrap_or_else(|| nss_key(urn, rules).leaves(urn.nss()))
}

/// Writes the key that `rule` describes.
fn build(urn: &Parsed<'_>, rule: &NssKey) -> KeyBuf {
    if let Some(fold) = rule.uniform() {
        return build_uniform(urn, fold);
    }
    let nss_start = urn.nss_start();
    let mid = nss_start + rule.split.min(urn.nss().len());
    let end = urn.offsets.nss_end as usize;
    match (rule.head, rule.tail) {
        _ if !rule.maps_in_place() => build_pieces(urn, rule),
        (Fold::Lower, Fold::Keep) => build_in_place(urn, mid, None),
        (Fold::Keep, Fold::Upper) => build_in_place(urn, nss_start, Some(mid..end)),
        (Fold::Lower, Fold::Upper) => build_in_place(urn, mid, Some(mid..end)),
        // No rule maps a head in upper case and its tail otherwise.
        _ => build_pieces(urn, rule),
    }
}

/// The key of one fold over the whole NSS.
#[inline]
fn build_uniform(urn: &Parsed<'_>, fold: Fold) -> KeyBuf {
    let (nss_start, end) = (urn.nss_start(), urn.offsets.nss_end as usize);
    match fold {
        Fold::Keep => build_in_place(urn, nss_start, None),
        Fold::Lower => build_in_place(urn, end, None),
        Fold::Upper => build_in_place(urn, nss_start, Some(nss_start..end)),
        Fold::Digits | Fold::LowerSlashes => build_pieces(urn, &NssKey::whole(fold)),
    }
}

/// One copy of the assigned name, mapped in place: its first `lowered` bytes ("urn:", the NID
/// and a leading lower-case region of the NSS) in lower case in one pass, the `upper` region
/// in upper case, then the hex digits after each `%` in upper case.
#[inline]
fn build_in_place(urn: &Parsed<'_>, lowered: usize, upper: Option<Range<usize>>) -> KeyBuf {
    let nss_start = urn.nss_start();
    let mut buf = KeyBuf::copy_of(urn.assigned_name());
    let out = buf.lower_head(lowered);
    if let Some(region) = upper.and_then(|range| out.get_mut(range)) {
        region.make_ascii_uppercase();
    }
    // Lower-casing lowers hex digits too; otherwise only lower-case hex in the input needs it.
    let offsets = urn.offsets;
    if offsets.nss_has_percent()
        && (lowered > nss_start || offsets.nss_has_lower_hex())
        && let Some(nss) = out.get_mut(nss_start..)
    {
        upper_hex(nss, urn.nss());
    }
    buf
}

/// Writes the key piece by piece, for rules that drop bytes (ISBN hyphens, a DOI's `%2F`) or
/// add one (an ISSN's hyphen).
fn build_pieces(urn: &Parsed<'_>, rule: &NssKey) -> KeyBuf {
    let assigned = urn.assigned_name();
    let nss_start = urn.nss_start();
    let (head, tail) = rule.parts(urn.nss());
    let mut out = KeyBuf::with_capacity(assigned.len() + 1);
    out.push_str(assigned.get(..nss_start).unwrap_or_default());
    out.lower_head(nss_start);
    if !head.is_empty() {
        push_mapped(&mut out, head, rule.head);
    }
    out.push_str(rule.joint.text());
    push_mapped(&mut out, tail, rule.tail);
    out
}

/// Appends `text` mapped by `fold`. Only [`Fold::LowerSlashes`] meets a `%` here (the other
/// rules that drop or add bytes apply only to NSSs without one), and writes the hex digits of
/// each `%XX` it keeps in upper case.
fn push_mapped(out: &mut KeyBuf, text: &str, fold: Fold) {
    if !fold.resizes() {
        let start = out.as_str().len();
        out.push_str(text);
        if let Some(copy) = out.as_mut_str().get_mut(start..) {
            match fold {
                Fold::Lower => copy.make_ascii_lowercase(),
                Fold::Upper => copy.make_ascii_uppercase(),
                Fold::Keep | Fold::Digits | Fold::LowerSlashes => {}
            }
        }
        return;
    }
    // Gathered on the stack and appended in pieces: an ISBN's groups are a few bytes each.
    let mut chunk = [0u8; 32];
    let mut n = 0;
    let bytes = text.as_bytes();
    let (mut i, mut hex_left) = (0, 0u8);
    while let Some(&b) = bytes.get(i) {
        i += 1;
        let mapped = match fold {
            Fold::Digits if b == b'-' => continue,
            Fold::LowerSlashes if hex_left > 0 => {
                hex_left -= 1;
                b.to_ascii_uppercase()
            }
            Fold::LowerSlashes if b == b'%' && nss_key::encodes_slash(bytes, i - 1) => {
                i += 2;
                b'/'
            }
            Fold::LowerSlashes if b == b'%' => {
                hex_left = 2;
                b
            }
            _ => fold.apply(b),
        };
        if let Some(slot) = chunk.get_mut(n) {
            *slot = mapped;
            n += 1;
        }
        if n == chunk.len() {
            push_ascii(out, &chunk);
            n = 0;
        }
    }
    push_ascii(out, chunk.get(..n).unwrap_or_default());
}

/// Appends bytes of URN text (always ASCII).
fn push_ascii(out: &mut KeyBuf, bytes: &[u8]) {
    if let Ok(text) = core::str::from_utf8(bytes) {
        out.push_str(text);
    }
}

/// Upper-cases the two hex digits after each `%` of `text` in `copy` (the same length).
fn upper_hex(copy: &mut str, text: &str) {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(found) = bytes
        .get(from..)
        .and_then(|rest| rest.iter().position(|&b| b == b'%'))
    {
        let at = from + found;
        if let Some(digits) = copy.get_mut(at + 1..at + 3) {
            digits.make_ascii_uppercase();
        }
        from = at + 3;
    }
}

/// The bytes of a key, produced piece by piece without allocating: for comparing and hashing
/// keys too long to build on the stack.
pub(crate) struct KeyBytes<'a> {
    pieces: [(&'a str, Fold); 6],
    piece: usize,
    pos: usize,
    hex_left: u8,
}

impl<'a> KeyBytes<'a> {
    fn new(urn: &Parsed<'a>, rule: &NssKey) -> Self {
        let (head, tail) = rule.parts(urn.nss());
        KeyBytes {
            pieces: [
                ("urn:", Fold::Keep),
                (urn.nid(), Fold::Lower),
                (":", Fold::Keep),
                (head, rule.head),
                (rule.joint.text(), Fold::Keep),
                (tail, rule.tail),
            ],
            piece: 0,
            pos: 0,
            hex_left: 0,
        }
    }

    /// The bytes of `urn`'s key under `rules`.
    pub(crate) fn of(urn: &Parsed<'a>, rules: KeyRules) -> Self {
        Self::new(urn, &nss_key(urn, rules))
    }
}

impl Iterator for KeyBytes<'_> {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        loop {
            let &(text, fold) = self.pieces.get(self.piece)?;
            if let Some(&b) = text.as_bytes().get(self.pos) {
                self.pos += 1;
                if b == b'-' && fold == Fold::Digits {
                    continue;
                }
                if self.hex_left > 0 {
                    self.hex_left -= 1;
                    return Some(b.to_ascii_uppercase());
                }
                if b == b'%' {
                    if fold == Fold::LowerSlashes
                        && nss_key::encodes_slash(text.as_bytes(), self.pos - 1)
                    {
                        self.pos += 2;
                        return Some(b'/');
                    }
                    self.hex_left = 2;
                }
                return Some(fold.apply(b));
            }
            self.piece += 1;
            self.pos = 0;
        }
    }
}

/// Whether `u`'s key is built on the stack (it is at most one byte longer than the assigned
/// name: an ISSN key may gain a hyphen), so building it costs no allocation.
#[inline]
fn builds_inline(u: &Parsed<'_>) -> bool {
    (u.offsets.nss_end as usize) < INLINE
}

const RULES: KeyRules = KeyRules::CURRENT;

/// `==` by key. Equal assigned names (the common case for URNs in normal form) are decided
/// inline by one comparison; everything else goes to [`eq_respelled`].
#[inline(always)]
pub(crate) fn eq(a: &Parsed<'_>, b: &Parsed<'_>) -> bool {
    // Bytes, not `str`s: slicing a `str` would check for a character boundary on each side.
    let end = |u: &Parsed<'_>| u.offsets.nss_end as usize;
    let x = a.text.as_bytes().get(..end(a));
    let y = b.text.as_bytes().get(..end(b));
    x == y || eq_respelled(a, b)
}

/// `==` for URNs whose assigned names differ.
#[inline(never)]
fn eq_respelled(a: &Parsed<'_>, b: &Parsed<'_>) -> bool {
    let (oa, ob) = (a.offsets, b.offsets);
    // Both are their own (different) keys: different. A URN whose namespace has its own rule
    // can only equal one of the same namespace, so one such side is not enough.
    if (oa.surely_verbatim(RULES) || ob.surely_verbatim(RULES))
        && oa.verbatim(KeyRules::Rfc8141) == Some(true)
        && ob.verbatim(KeyRules::Rfc8141) == Some(true)
    {
        return false;
    }
    if !a.nid().eq_ignore_ascii_case(b.nid()) {
        return false;
    }
    let (p, q) = (a.nss(), b.nss());
    // Same NID and the same NSS bytes: the same key, whatever the namespace (respellings that
    // differ only in the case of "urn:" or the NID end here).
    if p == q {
        return true;
    }
    // The same NID: the same namespace rule for both, or none (the generic rule).
    let Some(ns) = a.offsets.rule else {
        return Fold::Keep.same(p, q);
    };
    let rule = |nss| ns.key(RULES, nss).unwrap_or(NssKey::GENERIC);
    let (ra, rb) = (rule(p), rule(q));
    // The same mapping on both sides: compare the NSSs in place.
    match (ra.uniform(), rb.uniform()) {
        (Some(fa), Some(fb)) if fa == fb => return fa.same(p, q),
        _ if ra.head == rb.head
            && ra.tail == rb.tail
            && ra.joint == Joint::None
            && rb.joint == Joint::None =>
        {
            let ((ph, pt), (qh, qt)) = (ra.parts(p), rb.parts(q));
            if ph.len() == qh.len() {
                return ra.head.same(ph, qh) && ra.tail.same(pt, qt);
            }
        }
        _ => {}
    }
    if builds_inline(a) && builds_inline(b) {
        return build(a, &ra).as_str() == build(b, &rb).as_str();
    }
    KeyBytes::new(a, &ra).eq(KeyBytes::new(b, &rb))
}

/// Ordering by key.
#[inline]
pub(crate) fn cmp(a: &Parsed<'_>, b: &Parsed<'_>) -> Ordering {
    if a.offsets.surely_verbatim(RULES) && b.offsets.surely_verbatim(RULES) {
        return a.assigned_name().cmp(b.assigned_name());
    }
    if builds_inline(a) && builds_inline(b) {
        return key(a, RULES).as_str().cmp(key(b, RULES).as_str());
    }
    KeyBytes::of(a, RULES).cmp(KeyBytes::of(b, RULES))
}

/// Hashing by key: the same bytes in the same chunks as [`hash_key_text`] feeds for the key's
/// text, so a URN and its key hash alike.
#[inline]
pub(crate) fn hash<H: Hasher>(a: &Parsed<'_>, state: &mut H) {
    if a.offsets.surely_verbatim(RULES) {
        hash_key_text(a.assigned_name().as_bytes(), state);
    } else if builds_inline(a) {
        hash_key_text(key(a, RULES).as_str().as_bytes(), state);
    } else {
        hash_key_bytes(KeyBytes::of(a, RULES), state);
    }
}

/// Feeds a key produced byte by byte to a hasher in fixed 64-byte chunks, so that it hashes
/// as [`hash_key_text`] hashes the same key held as one slice, whatever the hasher.
fn hash_key_bytes<H: Hasher>(bytes: impl Iterator<Item = u8>, state: &mut H) {
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

/// Feeds a key's text to a hasher in 64-byte chunks and a terminator.
fn hash_key_text<H: Hasher>(bytes: &[u8], state: &mut H) {
    let mut chunks = bytes.chunks_exact(64);
    for chunk in &mut chunks {
        state.write(chunk);
    }
    state.write(chunks.remainder());
    state.write_u8(0xff);
}

#[cfg(test)]
mod tests {
    use alloc::format;
    use alloc::vec::Vec;

    use super::*;
    use crate::parse::{self, ParseOptions};

    #[test]
    fn hashing_is_independent_of_representation() {
        struct Recorder(Vec<Vec<u8>>);
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
            hash_key_text(text.as_bytes(), &mut a);
            hash_key_bytes(text.bytes(), &mut b);
            assert_eq!(a.0, b.0, "len {len}");
        }
    }

    /// The key as a string (with its in-place paths), the key as bytes (what long keys
    /// compare and hash by) and `==` (with its in-place comparisons) agree on every pair of a
    /// corpus of respellings, and a key borrows exactly when it equals the assigned name.
    #[test]
    fn every_path_reads_the_same_rule() {
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
            "2434-561x",
            "2434561X",
            "rfc:8141",
            "RFC:8141",
            "params:xml:ns:A",
            "a%2cb%2C/c",
            "a%2Cb%2c/c",
            "%7E",
            "%7e",
            "se-Kb:X",
            "SE:uu-Kb:X",
            "IT:Stato",
            "ISO:iec",
            "ISO:i%2cec",
            "def:crs:EPSG::4326",
            // Longer than an inline key: == and hashing walk the bytes instead.
            "IT:Stato:legge:2003-09-21;456:articolo-con-un-nome-molto-lungo-%2c",
            "it:stato:LEGGE:2003-09-21;456:articolo-con-un-nome-molto-lungo-%2C",
            "se-Kb:abcdefghijklmnopqrstuvwxyz0123456789-abcdefghijklmnopqrstuvwxyz",
            "SE-kb:abcdefghijklmnopqrstuvwxyz0123456789-abcdefghijklmnopqrstuvwxyz",
        ];
        let mut texts = Vec::new();
        // Every known NID, and two in other cases.
        let nids = crate::KnownNamespace::ALL
            .iter()
            .map(|ns| ns.nid())
            .chain(["UUID", "Isbn"]);
        for nid in nids {
            for scheme in ["urn", "URN"] {
                for nss in nss {
                    for suffix in ["", "?+r", "?=q", "#f"] {
                        texts.push(format!("{scheme}:{nid}:{nss}{suffix}"));
                    }
                }
            }
        }
        let urns: Vec<Parsed<'_>> = texts
            .iter()
            .filter_map(|t| parse::parse(t, ParseOptions::new()).ok())
            .collect();
        for urn in &urns {
            for &rules in KeyRules::ALL {
                let key = key(urn, rules);
                let bytes: Vec<u8> = KeyBytes::of(urn, rules).collect();
                assert_eq!(key.as_str().as_bytes(), bytes, "{} {rules:?}", urn.text);
                let borrowed = matches!(key, KeyText::Borrowed(_));
                assert_eq!(
                    borrowed,
                    key.as_str() == urn.assigned_name(),
                    "{}",
                    urn.text
                );
                assert_eq!(borrowed, is_verbatim(urn, rules), "{} {rules:?}", urn.text);
            }
        }
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
        let fed = |u: &Parsed<'_>| {
            let mut r = Recorder::default();
            hash(u, &mut r);
            r.0
        };
        let keys: Vec<KeyText<'_>> = urns.iter().map(|u| key(u, RULES)).collect();
        let mut equal_pairs = 0;
        for (a, ka) in urns.iter().zip(&keys) {
            let mut by_key = Recorder::default();
            hash_key_text(ka.as_str().as_bytes(), &mut by_key);
            assert_eq!(fed(a), by_key.0, "{}", a.text);
            for (b, kb) in urns.iter().zip(&keys) {
                let same = ka.as_str() == kb.as_str();
                assert_eq!(eq(a, b), same, "{} vs {}", a.text, b.text);
                assert_eq!(
                    cmp(a, b),
                    ka.as_str().cmp(kb.as_str()),
                    "{} vs {}",
                    a.text,
                    b.text
                );
                equal_pairs += usize::from(same && a.text != b.text);
            }
        }
        assert!(equal_pairs > 1000, "{equal_pairs}");
    }
}
