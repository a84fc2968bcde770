//! The words a namespace's equivalence rule is written in: how the NSS part of a key is made
//! from the NSS. Each namespace module says it once ([`NssKey`]); the one key writer and the
//! one comparison in [`canonical`](crate::canonical) read it, so a rule has one code path.

use crate::chars;

/// A case mapping of part of an NSS. Hex digits of `%XX` always come out upper case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Fold {
    /// As written.
    Keep,
    /// ASCII letters in lower case.
    Lower,
    /// ASCII letters in upper case.
    Upper,
    /// Upper case with every `-` dropped: an ISBN's significant characters.
    Digits,
    /// ASCII letters in lower case, and every `%2F` (any case) written as the `/` it encodes:
    /// a DOI suffix (the DOI Handbook's URN form writes a `/` of the suffix as `%2F`).
    LowerSlashes,
}

impl Fold {
    /// The byte `b` mapped (a `-` under [`Fold::Digits`] is dropped by the callers).
    #[inline(always)]
    pub(crate) fn apply(self, b: u8) -> u8 {
        match self {
            Fold::Keep => b,
            Fold::Lower | Fold::LowerSlashes => b.to_ascii_lowercase(),
            Fold::Upper | Fold::Digits => b.to_ascii_uppercase(),
        }
    }

    /// Whether mapping drops or adds bytes (so the key cannot be mapped in place in a copy).
    #[inline]
    pub(crate) fn resizes(self) -> bool {
        matches!(self, Fold::Digits | Fold::LowerSlashes)
    }

    /// Whether mapping `text` changes nothing, given that its `%XX` hex digits are already
    /// upper case.
    pub(crate) fn leaves(self, text: &str) -> bool {
        let mask = match self {
            Fold::Keep => return true,
            Fold::Lower | Fold::LowerSlashes => chars::KEEP_LOWER,
            Fold::Upper => chars::KEEP_UPPER,
            Fold::Digits => {
                return !text.bytes().any(|b| b == b'-' || b.is_ascii_lowercase());
            }
        };
        let bytes = text.as_bytes();
        let mut i = 0;
        loop {
            i = chars::skip(bytes, i, mask);
            match bytes.get(i) {
                None => return true,
                Some(b'%') if self == Fold::LowerSlashes && encodes_slash(bytes, i) => {
                    return false;
                }
                Some(b'%') => i += 3,
                Some(_) => return false,
            }
        }
    }

    /// Whether `p` and `q` map to the same text (both valid NSS text, so `%` starts a triplet
    /// in each).
    #[inline]
    pub(crate) fn same(self, p: &str, q: &str) -> bool {
        match self {
            Fold::Keep => hex_insensitive_eq(p, q),
            // Every letter is mapped, and hex digits compare in any case.
            Fold::Lower | Fold::Upper => p.eq_ignore_ascii_case(q),
            Fold::Digits => significant(p).eq(significant(q)),
            Fold::LowerSlashes => slashes_decoded(p).eq(slashes_decoded(q)),
        }
    }
}

/// Whether the `%` at `at` in `bytes` starts `%2F` (any case).
#[inline]
pub(crate) fn encodes_slash(bytes: &[u8], at: usize) -> bool {
    matches!(bytes.get(at + 1..at + 3), Some([b'2', b'f' | b'F']))
}

/// The bytes [`Fold::LowerSlashes`] maps `text` (valid NSS text) to, with the hex digits of
/// every other `%XX` in upper case.
fn slashes_decoded(text: &str) -> impl Iterator<Item = u8> + '_ {
    let bytes = text.as_bytes();
    let (mut i, mut hex_left) = (0, 0u8);
    core::iter::from_fn(move || {
        let &b = bytes.get(i)?;
        i += 1;
        if hex_left > 0 {
            hex_left -= 1;
            return Some(b.to_ascii_uppercase());
        }
        if b == b'%' {
            if encodes_slash(bytes, i - 1) {
                i += 2;
                return Some(b'/');
            }
            hex_left = 2;
        }
        Some(b.to_ascii_lowercase())
    })
}

/// The bytes [`Fold::Digits`] keeps, upper case.
fn significant(text: &str) -> impl Iterator<Item = u8> + '_ {
    text.bytes()
        .filter(|&b| b != b'-')
        .map(|b| b.to_ascii_uppercase())
}

/// RFC 8141 section 3 equality of two valid NSSs: byte for byte, except that the hex digits of
/// `%XX` compare in any case.
pub(crate) fn hex_insensitive_eq(p: &str, q: &str) -> bool {
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

/// The character a rule writes between the head and the tail of a key's NSS (one byte, so
/// [`NssKey`] stays small: the key path returns it by value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Joint {
    /// Nothing.
    None,
    /// `-` (a hyphenless ISSN).
    Hyphen,
    /// `/` (a DOI's separator).
    Slash,
}

impl Joint {
    /// The joint as text (`""` for none).
    #[inline]
    pub(crate) const fn text(self) -> &'static str {
        match self {
            Joint::None => "",
            Joint::Hyphen => "-",
            Joint::Slash => "/",
        }
    }
}

/// How a namespace rule makes the NSS part of a key: the NSS bytes before `split` mapped by
/// `head`, the rest by `tail`, and the `joint` byte between them when there is one: added (a
/// hyphenless ISSN's `-`) or, with `replaces`, in place of the NSS byte at `split` (a DOI's
/// `:` written `/`). The generic RFC 8141 rule is [`NssKey::GENERIC`]: everything
/// [`Fold::Keep`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NssKey {
    pub(crate) split: usize,
    pub(crate) head: Fold,
    pub(crate) tail: Fold,
    pub(crate) joint: Joint,
    /// Whether the joint replaces the NSS byte at `split` (the tail starts after it).
    pub(crate) replaces: bool,
    /// Whether the mapped NSS is the NSS itself, when the rule's scan already found out.
    pub(crate) unchanged: Option<bool>,
}

impl NssKey {
    /// RFC 8141 section 3 alone: the NSS as written (hex digits upper case).
    pub(crate) const GENERIC: NssKey = NssKey::whole(Fold::Keep);

    /// The whole NSS mapped by `fold`.
    pub(crate) const fn whole(fold: Fold) -> Self {
        NssKey {
            split: 0,
            head: fold,
            tail: fold,
            joint: Joint::None,
            replaces: false,
            unchanged: None,
        }
    }

    /// The first `at` bytes mapped by `head`, the rest by `tail`.
    pub(crate) const fn split(at: usize, head: Fold, tail: Fold) -> Self {
        NssKey {
            split: at,
            head,
            tail,
            joint: Joint::None,
            replaces: false,
            unchanged: None,
        }
    }

    /// With a `-` written between the head and the tail.
    pub(crate) const fn with_hyphen(mut self) -> Self {
        self.joint = Joint::Hyphen;
        self.unchanged = Some(false);
        self
    }

    /// With `joint` written in place of the NSS byte at `split`.
    pub(crate) const fn replacing_split(mut self, joint: Joint) -> Self {
        self.joint = joint;
        self.replaces = true;
        self
    }

    /// Records what the rule's scan learned: whether the key's NSS is the NSS unchanged.
    pub(crate) const fn unchanged_if(mut self, unchanged: bool) -> Self {
        self.unchanged = Some(unchanged);
        self
    }

    /// One fold over the whole NSS.
    #[inline]
    pub(crate) fn uniform(&self) -> Option<Fold> {
        (self.head == self.tail && self.joint == Joint::None).then_some(self.head)
    }

    /// `nss` cut where this rule cuts it (without the byte the joint replaces).
    #[inline]
    pub(crate) fn parts<'a>(&self, nss: &'a str) -> (&'a str, &'a str) {
        let (head, tail) = nss.split_at_checked(self.split).unwrap_or((nss, ""));
        match (self.replaces, tail.get(1..)) {
            (true, Some(rest)) => (head, rest),
            _ => (head, tail),
        }
    }

    /// Whether mapping `nss` changes nothing (its `%XX` hex digits already upper case).
    pub(crate) fn leaves(&self, nss: &str) -> bool {
        if let Some(known) = self.unchanged {
            return known;
        }
        if let Some(fold) = self.uniform() {
            return fold.leaves(nss);
        }
        let replaced = nss.get(self.split..=self.split);
        let joint_leaves = match self.joint {
            Joint::None => true,
            joint => self.replaces && replaced == Some(joint.text()),
        };
        let (head, tail) = self.parts(nss);
        joint_leaves && self.head.leaves(head) && self.tail.leaves(tail)
    }

    /// Whether no byte is dropped or added, so the key can be mapped in place in a copy.
    #[inline]
    pub(crate) fn maps_in_place(&self) -> bool {
        self.joint == Joint::None && !self.head.resizes() && !self.tail.resizes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_compare_as_they_map() {
        assert!(Fold::Keep.same("a%2cb", "a%2Cb"));
        assert!(!Fold::Keep.same("aB", "ab"));
        assert!(Fold::Lower.same("AbC", "aBc"));
        assert!(Fold::Digits.same("0-395-36341-x", "039536341X"));
        assert!(!Fold::Digits.same("0395363411", "0395363412"));
        assert!(Fold::Lower.leaves("abc%2C") && !Fold::Lower.leaves("aBc"));
        assert!(Fold::Upper.leaves("ABC%2C") && !Fold::Upper.leaves("ABc"));
        assert!(!Fold::Digits.leaves("0-3") && Fold::Digits.leaves("03X"));
        let issn = NssKey::split(4, Fold::Keep, Fold::Upper).with_hyphen();
        assert_eq!(issn.parts("1046818x"), ("1046", "818x"));
        assert!(!issn.leaves("10468188"));
        let doi = NssKey::split(6, Fold::Keep, Fold::LowerSlashes).replacing_split(Joint::Slash);
        assert_eq!(doi.parts("10.123:a%2Fb"), ("10.123", "a%2Fb"));
        assert!(doi.leaves("10.123/a%2Cb") && !doi.leaves("10.123:a") && !doi.leaves("10.123/A"));
        assert!(!doi.leaves("10.123/a%2fb"));
        assert!(
            Fold::LowerSlashes.same("a%2Fb%2c", "A/B%2C")
                && !Fold::LowerSlashes.same("a/b", "a%2Cb")
        );
    }
}
