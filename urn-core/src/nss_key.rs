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
}

impl Fold {
    /// The byte `b` mapped (a `-` under [`Fold::Digits`] is dropped by the callers).
    #[inline(always)]
    pub(crate) fn apply(self, b: u8) -> u8 {
        match self {
            Fold::Keep => b,
            Fold::Lower => b.to_ascii_lowercase(),
            Fold::Upper | Fold::Digits => b.to_ascii_uppercase(),
        }
    }

    /// Whether mapping `text` changes nothing, given that its `%XX` hex digits are already
    /// upper case.
    pub(crate) fn leaves(self, text: &str) -> bool {
        let mask = match self {
            Fold::Keep => return true,
            Fold::Lower => chars::KEEP_LOWER,
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
        }
    }
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

/// How a namespace rule makes the NSS part of a key: the NSS bytes before `split` mapped by
/// `head`, the rest by `tail`, and a `-` between them when `hyphen` is set (a hyphenless ISSN).
/// The generic RFC 8141 rule is [`NssKey::GENERIC`]: everything [`Fold::Keep`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NssKey {
    pub(crate) split: usize,
    pub(crate) head: Fold,
    pub(crate) tail: Fold,
    pub(crate) hyphen: bool,
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
            hyphen: false,
            unchanged: None,
        }
    }

    /// The first `at` bytes mapped by `head`, the rest by `tail`.
    pub(crate) const fn split(at: usize, head: Fold, tail: Fold) -> Self {
        NssKey {
            split: at,
            head,
            tail,
            hyphen: false,
            unchanged: None,
        }
    }

    /// With a `-` written between the head and the tail.
    pub(crate) const fn with_hyphen(mut self) -> Self {
        self.hyphen = true;
        self.unchanged = Some(false);
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
        (self.head == self.tail && !self.hyphen).then_some(self.head)
    }

    /// `nss` cut where this rule cuts it.
    #[inline]
    pub(crate) fn parts<'a>(&self, nss: &'a str) -> (&'a str, &'a str) {
        nss.split_at_checked(self.split).unwrap_or((nss, ""))
    }

    /// Whether mapping `nss` changes nothing (its `%XX` hex digits already upper case).
    pub(crate) fn leaves(&self, nss: &str) -> bool {
        if let Some(known) = self.unchanged {
            return known;
        }
        if let Some(fold) = self.uniform() {
            return fold.leaves(nss);
        }
        let (head, tail) = self.parts(nss);
        !self.hyphen && self.head.leaves(head) && self.tail.leaves(tail)
    }

    /// Whether no byte is dropped or added, so the key can be mapped in place in a copy.
    #[inline]
    pub(crate) fn maps_in_place(&self) -> bool {
        !self.hyphen && self.head != Fold::Digits && self.tail != Fold::Digits
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
    }
}
